// RUN: fly-opt %s | fly-opt | FileCheck %s
// RUN: fly-opt %s --mlir-print-op-generic | fly-opt | FileCheck %s
// RUN: fly-opt %s --canonicalize --cse | FileCheck %s --check-prefix=OPAQUE

// CHECK-LABEL: func.func @roundtrip
// CHECK: spec.param "max_blocks_per_seq" = 128 : i32
// CHECK: spec.param "max_blocks_per_seq" = 128 equals %{{.*}} : i32
// CHECK: spec.param "neg" = -3 : i64
// CHECK: spec.param "idx" = 64 : index
// CHECK: spec.param "byte" = 255 : i8
func.func @roundtrip(%stride: i32) -> (i32, i32, i64, index, i8) {
  %w = spec.param "max_blocks_per_seq" = 128 : i32
  %s = spec.param "max_blocks_per_seq" = 128 equals %stride : i32
  %n = spec.param "neg" = -3 : i64
  %i = spec.param "idx" = 64 : index
  %b = spec.param "byte" = 255 : i8
  return %w, %s, %n, %i, %b : i32, i32, i64, index, i8
}

// Not constant-like, never folded: canonicalize and CSE must not turn the
// parameter into a constant nor merge it with an equal constant.
// OPAQUE-LABEL: func.func @opaque
// OPAQUE: %[[C:.*]] = arith.constant 128 : i32
// OPAQUE: %[[P:.*]] = spec.param "w" = 128 : i32
// OPAQUE: %[[M:.*]] = arith.muli %{{.*}}, %[[P]]
// OPAQUE: return %[[M]], %[[C]]
func.func @opaque(%x: i32) -> (i32, i32) {
  %c = arith.constant 128 : i32
  %w = spec.param "w" = 128 : i32
  %m = arith.muli %x, %w : i32
  return %m, %c : i32, i32
}
