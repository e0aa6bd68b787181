#!/usr/bin/env bash
# FlyDSL (the published package) in a venv of its own, for the adapter's
# kernels and tests (frontends/flydsl, scripts/flydsl.sh, test/FlyDSL).
# Called by setup.sh after the Debian packages; a quick no-op when the venv
# already holds the pinned version.
#
# - flydsl 0.4.2 from PyPI (a cp311 manylinux wheel with its own MLIR/LLVM).
#   It declares no dependencies but imports numpy and torch.
# - torch: PyPI's Linux torch is the CUDA build (900 MB, and `import torch`
#   needs libcublas and the other nvidia-* wheels even for CPU tensors), so
#   the venv sees Debian's CPU-only python3-torch (1.13.1, with numpy)
#   through --system-site-packages. COMPILE_ONLY tracing needs only CPU
#   tensors and torch dtypes.
# - Linking a code object: MLIR's ROCDL target runs `$ROCM_PATH/llvm/bin/ld.lld`;
#   the venv's rocm/ folder is that toolkit path, with Debian's lld-22.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${FLYHOIST_FLYDSL_VENV:-$root/.venv-flydsl}"
flydsl_version=0.4.2
torch_expected=1.13

if [ -x "$venv/bin/python" ] && [ -x "$venv/rocm/llvm/bin/ld.lld" ] &&
  "$venv/bin/python" -c "import flydsl, sys; sys.exit(flydsl.__version__ != '$flydsl_version')" 2>/dev/null; then
  exit 0
fi

echo "setup: FlyDSL $flydsl_version venv at $venv"
rm -rf "$venv"
/usr/bin/python3 -m venv --system-site-packages "$venv"
"$venv/bin/python" -m pip install -q --no-deps "flydsl==$flydsl_version"
mkdir -p "$venv/rocm/llvm/bin"
ln -sf /usr/lib/llvm-22/bin/ld.lld "$venv/rocm/llvm/bin/ld.lld"

torch_version="$("$venv/bin/python" -c 'import torch; print(torch.__version__)')"
case "$torch_version" in
"$torch_expected".*) ;;
*) echo "setup: warning: torch $torch_version, the FlyDSL tests were run with $torch_expected" >&2 ;;
esac
