#!/usr/bin/env bash
# The first command: sets up (Debian 12 packages), builds flyhoist, then
# compiles the reference kernel (kernels/paged_fp4_mqa_logits.mlir), the
# memory-bound paged gather (kernels/paged_fp4_k_gather.mlir) and the
# FlyDSL-shaped MQA-logits texts (kernels/paged_fp4_mqa_logits_flydsl_*.mlir,
# each on its chip, at the O=2 of the target its gpu.module carries, as
# FlyDSL compiles) for 125 page-table widths on gfx942 and gfx950,
# materialized and hoisted, and prints for each the table of distinct code
# objects and compile times (bench/widths.py: DEFAULT_KERNELS). Extra
# arguments go to bench/widths.py (e.g. --jobs 4, --count 16, --kernel FILE
# for one kernel only).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${FLYHOIST_BUILD_DIR:-$root/build}"

"$root/scripts/setup.sh"
FLYHOIST_BUILD_DIR="$build" "$root/scripts/build.sh"
python3 "$root/bench/widths.py" --fly-opt "$build/bin/fly-opt" "$@"
