#!/usr/bin/env bash
# Compiles a FlyDSL kernel (frontends/flydsl) for N widths through the
# published FlyDSL package, COMPILE_ONLY (no GPU), and counts its device
# binaries:
#   scripts/flydsl.sh --kernel {gather,prefill} --chip {gfx942,gfx950} --widths N
#     [--dump-dir DIR] [--save-dir DIR] [--verbose]
# The last line is "flydsl alone: A device binaries" (A = N expected).
# Needs the venv that scripts/setup.sh makes (scripts/setup-flydsl.sh);
# FLYHOIST_FLYDSL_VENV names another one.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${FLYHOIST_FLYDSL_VENV:-$root/.venv-flydsl}"

if [ ! -x "$venv/bin/python" ]; then
  echo "flydsl.sh: no FlyDSL venv at $venv: run scripts/setup.sh" >&2
  exit 2
fi
# MLIR's ROCDL target links the code object with $ROCM_PATH/llvm/bin/ld.lld.
if [ -z "${ROCM_PATH:-}" ] || [ ! -x "$ROCM_PATH/llvm/bin/ld.lld" ]; then
  export ROCM_PATH="$venv/rocm"
fi
exec "$venv/bin/python" "$root/frontends/flydsl/compile_widths.py" "$@"
