#!/usr/bin/env bash
# Configures and builds flyhoist into ${FLYHOIST_BUILD_DIR:-build}.
# Extra arguments go to cmake (e.g. -DCMAKE_CXX_COMPILER=clang++-22).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FLYHOIST_BUILD_DIR:-$root/build}"

if [ ! -f "$build/build.ninja" ] || [ $# -gt 0 ]; then
  cmake -S "$root" -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    "$@" >/dev/null
fi
cmake --build "$build"
