#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite. `.ci/run` calls this.
#
# 0. clang-format-22 --dry-run --Werror over the C and C++ sources, and
#    ruff (ruff.toml) over the Python ones;
# 1. the regular build (${FLYHOIST_BUILD_DIR:-build}), clang-tidy over lib/
#    (.clang-tidy) and the build's lit suite;
# 2. an ASan+UBSan build with clang 22 (${FLYHOIST_ASAN_BUILD_DIR:-build-asan})
#    and the whole lit suite against it (scripts/sanitize.sh);
# 3. a bounded libFuzzer run of fuzz/hoist-fuzzer.cpp (FLYHOIST_FUZZ_SECONDS,
#    default 60; 0 skips it), seeded from the lit inputs and generated kernels.
# FLYHOIST_SKIP_SANITIZERS=1 stops after step 1 (quick local runs).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FLYHOIST_BUILD_DIR:-$root/build}"
asan_build="${FLYHOIST_ASAN_BUILD_DIR:-$root/build-asan}"

"$root/scripts/setup.sh"

# The C and C++ sources are clang-format clean (.clang-format, LLVM style).
find "$root/include" "$root/lib" "$root/tools" "$root/test" "$root/fuzz" \
  "$root/bench" \
  "$root/examples" \( -name '*.cpp' -o -name '*.h' -o -name '*.c' \) -print0 |
  xargs -0 clang-format-22 --dry-run --Werror

# The Python sources pass ruff (ruff.toml: the linter and PEP 8 layout),
# the pinned version from the registry, in a venv of its own (kept).
ruff_version=0.8.4
tools="${FLYHOIST_TOOLS_VENV:-$build/ruff-venv}"
if ! "$tools/bin/ruff" --version 2>/dev/null | grep -qx "ruff $ruff_version"; then
  python3 -m venv "$tools"
  "$tools/bin/python" -m pip install --quiet --disable-pip-version-check \
    "ruff==$ruff_version"
fi
(cd "$root" && "$tools/bin/ruff" check --quiet python examples bench fuzz \
  frontends test/Python)

"$root/scripts/build.sh"

# clang-tidy (.clang-tidy: every enabled check is an error) over lib/'s
# sources, with the build's compile commands (CMAKE_EXPORT_COMPILE_COMMANDS;
# the build has generated the headers they include). The build's g++ flags
# that clang does not know are not findings.
find "$root/lib" -name '*.cpp' -print0 |
  xargs -0 -n 4 -P "$(nproc)" clang-tidy-22 -p "$build" --quiet \
    --extra-arg=-Wno-unknown-warning-option

/usr/lib/llvm-22/bin/lit -sv "$build/test"

# The long run of the JIT route's trace-matching check (the lit suite runs a
# bounded one; bench/RELIABILITY.md): FLYHOIST_JIT_KERNELS kernels, every
# mutant of each; 0, the default, skips it.
jit_kernels="${FLYHOIST_JIT_KERNELS:-0}"
if [ "$jit_kernels" -gt 0 ]; then
  python3 "$root/fuzz/jit_differential.py" --fly-opt "$build/bin/fly-opt" \
    --capi-lib "$build/lib/libFlyHoistMLIRCAPI.so" \
    --python-path "$root/python" --kernels "$jit_kernels" \
    --seed "${FLYHOIST_JIT_SEED:-1}" --jobs 2 \
    --failures "$build/jit-differential-failures"
fi

if [ "${FLYHOIST_SKIP_SANITIZERS:-0}" != 0 ]; then
  exit 0
fi

# The fuzz target is built before the sanitized lit run, which uses it for
# the regression inputs that only the C++ API path shows.
FLYHOIST_ASAN_BUILD_DIR="$asan_build" "$root/scripts/sanitize.sh" build
"$root/fuzz/build.sh" "$asan_build"
FLYHOIST_ASAN_BUILD_DIR="$asan_build" "$root/scripts/sanitize.sh" test

fuzz_seconds="${FLYHOIST_FUZZ_SECONDS:-60}"
if [ "$fuzz_seconds" -gt 0 ]; then
  "$root/fuzz/run.sh" "$asan_build" -max_total_time="$fuzz_seconds"
fi
