#!/usr/bin/env bash
# Stages what a GPU machine needs to run both paged kernels (no LLVM there):
# PTX for sm_90 of the prefill kernel and the gather at the given widths,
# hoisted and specialized, the hoisted PTX of the prefill kernel of an
# earlier commit (timed against the current one), placement variants of
# the prefill kernel (make_variants.py: the same PTX with code moved by
# 16-byte steps, at the staged widths of 333 and up), and the runner.
#
#   bench/gpu/stage.sh DIR [BASELINE_COMMIT] [WIDTHS]
#   (on the GPU machine)  python3 DIR/run_reference.py --ptx-dir DIR/ptx_mqa \
#       --gather-ptx-dir DIR/ptx_gather --baseline-ptx-dir DIR/ptx_mqa_old ...
#   (placement)           python3 DIR/run_reference.py --kernels placement \
#       --variants-dir DIR/variants --skip-ceilings ...
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
dir="$1"
base="${2:-d95d854}"
widths="${3:-1,7,100,128,333,512,1023}"
fly_opt="${FLY_OPT:-${FLYHOIST_BUILD_DIR:-$root/build}/bin/fly-opt}"
mkdir -p "$dir"
python3 "$root/bench/gpu/make_ptx.py" --fly-opt "$fly_opt" --widths "$widths" -o "$dir/ptx_mqa"
python3 "$root/bench/gpu/make_ptx.py" --fly-opt "$fly_opt" --widths "$widths" \
    --kernel "$root/kernels/paged_fp4_k_gather.mlir" -o "$dir/ptx_gather"
old="$(mktemp --suffix=.mlir)"
trap 'rm -f "$old"' EXIT
git -C "$root" show "$base:kernels/paged_fp4_mqa_logits.mlir" > "$old"
python3 "$root/bench/gpu/make_ptx.py" --fly-opt "$fly_opt" --widths 1 --kernel "$old" \
    -o "$dir/ptx_mqa_old"
python3 "$root/bench/gpu/make_variants.py" --ptx-dir "$dir/ptx_mqa" -o "$dir/variants"
cp "$root/bench/gpu/run_reference.py" "$root/bench/gpu/refcore.py" "$dir/"
