#!/usr/bin/env bash
# Compiles a FlyDSL kernel (frontends/flydsl) for N widths through the
# published FlyDSL package, COMPILE_ONLY (no GPU), alone and then with
# flyhoist inside FlyDSL's JIT (the `flyhoist` compile backend), and counts
# the device binaries:
#   scripts/flydsl.sh --kernel {gather,prefill} --chip {gfx942,gfx950} --widths N
#     [--alone] [--round-trip] [--dump-dir DIR] [--save-dir DIR] [--verbose]
# The last line is "flydsl alone: A device binaries; with flyhoist: B device
# binaries, traced N; round trip identical: yes|no" (docs/FLYDSL.md); with
# --alone, "flydsl alone: A device binaries".
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
