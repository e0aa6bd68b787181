#!/usr/bin/env bash
# Builds the libFuzzer target fuzz/hoist-fuzzer.cpp with clang 22 against the
# flyhoist libraries of an ASan+UBSan build (scripts/sanitize.sh makes one,
# with -fsanitize=fuzzer-no-link so libFuzzer sees coverage of the pass).
#
# Usage: fuzz/build.sh [ASAN_BUILD_DIR]   (default: build-asan)
# Writes ASAN_BUILD_DIR/bin/hoist-fuzzer.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$(cd "${1:-${FLYHOIST_ASAN_BUILD_DIR:-$root/build-asan}}" && pwd)"
llvm=/usr/lib/llvm-22
# The headers must be the ones the libraries were built from.
src_root="$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")"
out="$build/bin/hoist-fuzzer"
src="$root/fuzz/hoist-fuzzer.cpp"
libs=(FlyHoistTransforms FlyHoistAnalysis FlyHoistSpecDialect)

newest="$src"
for lib in "${libs[@]}"; do
  [ "$build/lib/lib$lib.a" -nt "$newest" ] && newest="$build/lib/lib$lib.a"
done
if [ -x "$out" ] && [ "$out" -nt "$newest" ] && [ "$out" -nt "$0" ]; then
  exit 0
fi

lib_args=()
for lib in "${libs[@]}"; do
  lib_args+=("$build/lib/lib$lib.a")
done
mkdir -p "$build/bin"
# $(llvm-config --cxxflags) carries LLVM's own defines, -std and -fno-exceptions.
# shellcheck disable=SC2046
clang++-22 $("$llvm/bin/llvm-config" --cxxflags) \
  -O1 -g -fno-omit-frame-pointer -Wall -Wextra -Werror -Wno-unused-parameter \
  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
  -I"$src_root/include" -I"$build/include" \
  "$src" "${lib_args[@]}" \
  -L"$llvm/lib" -Wl,-rpath,"$llvm/lib" -lMLIR -lLLVM \
  -o "$out"
echo "fuzz/build.sh: built $out"
