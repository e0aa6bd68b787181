// An llvm.func kernel launched by llvm.call: the pass appended the hoisted
// value through the call's argument operand range, but the call's
// operandSegmentSizes stayed at the old count, so the module it produced
// failed to verify ("'llvm.call' op operand count (2) does not match with the
// total size (1) specified in attribute 'operandSegmentSizes'").
// RUN: fly-opt %s -hoist-stride-specialization=remarks=false | FileCheck %s

// CHECK-LABEL: llvm.func @k(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %[[W:.*]]: i64)
// CHECK: llvm.getelementptr %{{.*}}[%[[W]]]
// CHECK-LABEL: llvm.func @host(
// The constant is an LLVM one, like the code around it.
// CHECK: %[[C4:.*]] = llvm.mlir.constant(4 : i64) : i64
// CHECK: llvm.call @k(%{{.*}}, %[[C4]]) : (!llvm.ptr, i64) -> ()
llvm.func @k(%p: !llvm.ptr) {
  %w = spec.param "w" = 4 : i64
  %g = llvm.getelementptr %p[%w] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %v = llvm.load %g : !llvm.ptr -> f32
  llvm.store %v, %p : f32, !llvm.ptr
  llvm.return
}
llvm.func @host(%p: !llvm.ptr) {
  llvm.call @k(%p) : (!llvm.ptr) -> ()
  llvm.return
}
