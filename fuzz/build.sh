#!/usr/bin/env bash
# Builds the libFuzzer target fuzz/hoist-fuzzer.cpp and the mutant printer
# fuzz/hoist-mutate.cpp (both with the structure-aware mutator,
# fuzz/StructureMutator.cpp) with clang 22 against the flyhoist libraries of
# an ASan+UBSan build (scripts/sanitize.sh makes one, with
# -fsanitize=fuzzer-no-link so libFuzzer sees coverage of the pass).
#
# Usage: fuzz/build.sh [ASAN_BUILD_DIR]   (default: build-asan)
# Writes ASAN_BUILD_DIR/bin/hoist-fuzzer and ASAN_BUILD_DIR/bin/hoist-mutate.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$(cd "${1:-${FLYHOIST_ASAN_BUILD_DIR:-$root/build-asan}}" && pwd)"
llvm=/usr/lib/llvm-22
# The headers must be the ones the libraries were built from.
src_root="$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")"
out="$build/bin/hoist-fuzzer"
mutate="$build/bin/hoist-mutate"
sources=("$root/fuzz/hoist-fuzzer.cpp" "$root/fuzz/hoist-mutate.cpp"
         "$root/fuzz/StructureMutator.cpp" "$root/fuzz/StructureMutator.h")
libs=(FlyHoistTransforms FlyHoistAnalysis FlyHoistSpecDialect)

newest="$0"
for file in "${sources[@]}"; do
  [ "$file" -nt "$newest" ] && newest="$file"
done
for lib in "${libs[@]}"; do
  [ "$build/lib/lib$lib.a" -nt "$newest" ] && newest="$build/lib/lib$lib.a"
done
if [ -x "$out" ] && [ "$out" -nt "$newest" ] && [ -x "$mutate" ] &&
   [ "$mutate" -nt "$newest" ]; then
  exit 0
fi

lib_args=()
for lib in "${libs[@]}"; do
  lib_args+=("$build/lib/lib$lib.a")
done
mkdir -p "$build/bin"
# $(llvm-config --cxxflags) carries LLVM's own defines, -std and -fno-exceptions.
# shellcheck disable=SC2046
flags=($("$llvm/bin/llvm-config" --cxxflags)
       -O1 -g -fno-omit-frame-pointer -Wall -Wextra -Werror -Wno-unused-parameter
       -fno-sanitize-recover=all -I"$src_root/include" -I"$build/include")
link=("${lib_args[@]}" -L"$llvm/lib" -Wl,-rpath,"$llvm/lib" -lMLIR -lLLVM)
clang++-22 "${flags[@]}" -fsanitize=fuzzer,address,undefined \
  "$root/fuzz/hoist-fuzzer.cpp" "$root/fuzz/StructureMutator.cpp" "${link[@]}" \
  -o "$out"
echo "fuzz/build.sh: built $out"
# The libraries carry coverage counters (fuzzer-no-link); the printer links
# them without libFuzzer's main.
clang++-22 "${flags[@]}" -fsanitize=fuzzer-no-link,address,undefined \
  "$root/fuzz/hoist-mutate.cpp" "$root/fuzz/StructureMutator.cpp" "${link[@]}" \
  -o "$mutate"
echo "fuzz/build.sh: built $mutate"
