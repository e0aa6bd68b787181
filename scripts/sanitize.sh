#!/usr/bin/env bash
# Builds flyhoist with clang 22 + AddressSanitizer + UndefinedBehaviorSanitizer
# into ${FLYHOIST_ASAN_BUILD_DIR:-build-asan} and runs the whole lit suite
# against that build. Any sanitizer report fails the run.
#
# The build also carries -fsanitize=fuzzer-no-link (coverage counters only,
# no libFuzzer runtime) so that fuzz/build.sh can link the libFuzzer target
# against the same libraries instead of building them a third time.
#
# Usage: scripts/sanitize.sh [build|test|all]   (default: all)
# FLYHOIST_ASAN_EXTRA_FLAGS: more compiler flags for the sanitized build.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FLYHOIST_ASAN_BUILD_DIR:-$root/build-asan}"
what="${1:-all}"

# shellcheck source=scripts/sanitizer-env.sh
source "$root/scripts/sanitizer-env.sh"

if [ "$what" = build ] || [ "$what" = all ]; then
  # Everything links the shared sanitizer runtime: the pass plugin and the
  # C API library are loaded by processes that are not instrumented
  # (mlir-opt, python3), and LLVM's -Wl,-z,defs wants their __asan_*
  # references resolved; executables and libraries must then share one
  # runtime.
  runtime="$(dirname "$(clang-22 --print-file-name=libclang_rt.asan-x86_64.so)")"
  link="-shared-libasan -Wl,-rpath,$runtime"
  FLYHOIST_BUILD_DIR="$build" "$root/scripts/build.sh" \
    "-DCMAKE_EXE_LINKER_FLAGS=$link" "-DCMAKE_SHARED_LINKER_FLAGS=$link" \
    "-DCMAKE_MODULE_LINKER_FLAGS=$link" \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DFLYHOIST_SANITIZE=ON -DFLYHOIST_WERROR=ON \
    "-DCMAKE_CXX_FLAGS=-fsanitize=fuzzer-no-link ${FLYHOIST_ASAN_EXTRA_FLAGS:-}"
fi
if [ "$what" = test ] || [ "$what" = all ]; then
  /usr/lib/llvm-22/bin/lit -sv --param flyhoist_sanitized=1 "$build/test"
fi
