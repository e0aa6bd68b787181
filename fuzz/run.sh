#!/usr/bin/env bash
# Runs the libFuzzer target built by fuzz/build.sh.
#
# Usage: fuzz/run.sh [ASAN_BUILD_DIR] [libFuzzer flags...]
#   e.g. fuzz/run.sh build-asan -max_total_time=60
#        fuzz/run.sh build-asan -max_total_time=1800 -fork=1 -ignore_crashes=1
#          (long runs: keep going after a crash, collecting every one)
#
# The corpus lives in ASAN_BUILD_DIR/fuzz/corpus and is seeded, each run, with
# every lit input of test/ but regressions/ (split at `// -----`), kernels from
# fuzz/gen_kernels.py and inputs of every defect class of fuzz/gen_classes.py. Crashing inputs land in ASAN_BUILD_DIR/fuzz/crashes/;
# the run fails if there is one.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$(cd "${1:-${FLYHOIST_ASAN_BUILD_DIR:-$root/build-asan}}" && pwd)"
shift || true
work="$build/fuzz"
mkdir -p "$work/corpus" "$work/seeds" "$work/crashes"

python3 - "$root/test" "$work/seeds" <<'PY'
import os, sys
src, out = sys.argv[1], sys.argv[2]
n = 0
for folder, dirs, files in sorted(os.walk(src)):
    # Regression inputs of known, unfixed bugs would stop every run at once;
    # the lit suite runs them.
    dirs[:] = [d for d in dirs if d != "regressions"]
    for name in sorted(files):
        if not name.endswith(".mlir"):
            continue
        with open(os.path.join(folder, name), errors="replace") as f:
            text = f.read()
        for part in text.split("// -----"):
            with open(os.path.join(out, "lit-%04d.mlir" % n), "w") as g:
                g.write(part)
            n += 1
print("fuzz/run.sh: %d seeds from the lit inputs" % n)
PY
python3 "$root/fuzz/gen_kernels.py" --seed 1 --count 200 --mixed --out "$work/seeds"
# The shapes of the issue-26 defect classes (aggregates, fat pointers, two
# roles, strides, immediates, equals through casts, variadic calls, two-typed
# host arguments, extreme divisors), each with its options line.
python3 "$root/fuzz/gen_classes.py" --seed 1 --count 8 --out "$work/seeds"

# The pass aborts on a broken contract; ASan/UBSan reports abort too.
# shellcheck source=scripts/sanitizer-env.sh
source "$root/scripts/sanitizer-env.sh"

cd "$work"
exec "$build/bin/hoist-fuzzer" \
  -dict="$root/fuzz/mlir.dict" -max_len=16384 -timeout=30 -rss_limit_mb=4096 \
  -artifact_prefix="$work/crashes/" -print_final_stats=1 \
  "$@" "$work/corpus" "$work/seeds"
