// hoistStrideSpecialization() called without a pass manager, on a context
// where the arith dialect is not loaded yet (nothing in the input uses it):
// materializing a kept parameter built an arith.constant that came back null
// and was dereferenced (UBSan: member call on null pointer in
// materialize(), StrideHoisting.cpp). fly-opt cannot show it (the pass
// manager loads the pass's dependent dialects), so the libFuzzer target runs
// the input through the API, in the sanitized build.
// Found by fuzz/hoist-fuzzer.cpp on the seed from
// test/Transforms/materialize-specialization.mlir.
// REQUIRES: hoist-fuzzer
// RUN: hoist-fuzzer %s

func.func @everything(%s: i32) -> (i32, index, i64) {
  %w = spec.param "w" = 128 equals %s : i32
  %h = spec.param "h" = 4 : index
  %n = spec.param "n" = -1 : i64
  return %w, %h, %n : i32, index, i64
}
