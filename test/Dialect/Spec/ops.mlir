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

// The edges of each width fit, read as signed or unsigned.
// CHECK-LABEL: func.func @edges
// CHECK: spec.param "a" = 0 : i0
// CHECK: spec.param "b" = -1 : i1
// CHECK: spec.param "c" = 1 : i1
// CHECK: spec.param "d" = -128 : i8
// CHECK: spec.param "e" = 255 : i8
// CHECK: spec.param "f" = -4611686018427387904 : i63
// CHECK: spec.param "g" = 9223372036854775807 : i63
// CHECK: spec.param "h" = -9223372036854775808 : i64
func.func @edges() {
  %a = spec.param "a" = 0 : i0
  %b = spec.param "b" = -1 : i1
  %c = spec.param "c" = 1 : i1
  %d = spec.param "d" = -128 : i8
  %e = spec.param "e" = 255 : i8
  %f = spec.param "f" = -4611686018427387904 : i63
  %g = spec.param "g" = 9223372036854775807 : i63
  %h = spec.param "h" = -9223372036854775808 : i64
  return
}
