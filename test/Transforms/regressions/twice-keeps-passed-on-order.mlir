// A host function referenced by func.constant cannot take arguments, so the
// strides its kernel hoists ('a_stride', 'b_stride') are passed on as
// constants and recorded as kept, before its own 'blocks' (launch
// dimensions). A second run no longer plans the passed-on names, only
// 'blocks', and listed its own decisions first: [blocks, a_stride, b_stride]
// instead of [a_stride, b_stride, blocks], twice != once (found by the
// structure-aware fuzzer, options line "divisibility=4
// materialize-kept=false"). A rerun keeps the earlier record's order.
// RUN: fly-opt %s -hoist-stride-specialization="remarks=false materialize-kept=false" \
// RUN:   -mlir-print-debuginfo -o %t.once
// RUN: fly-opt %t.once -hoist-stride-specialization="remarks=false materialize-kept=false" \
// RUN:   -mlir-print-debuginfo -o %t.twice
// RUN: diff %t.once %t.twice
// RUN: FileCheck %s --input-file=%t.twice

// CHECK-LABEL: gpu.func @strided
// CHECK-SAME: hoisted = [#spec.hoisted<name = "a_stride", type = index, argument = 2>, #spec.hoisted<name = "b_stride", type = index, argument = 3>], kept = []
// CHECK-LABEL: func.func @host_two
// CHECK-SAME: kept = [#spec.kept<name = "a_stride", value = 8, reason = "unknown-reference", op = "func.constant">, #spec.kept<name = "b_stride", value = 4, reason = "unknown-reference", op = "func.constant">, #spec.kept<name = "blocks", value = 2, reason = "launch-dimensions">]
// CHECK: %[[BLOCKS:.*]] = spec.param "blocks" = 2 : index
// CHECK-DAG: %[[A:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[B:.*]] = arith.constant 4 : index
// CHECK: gpu.launch_func @two::@strided blocks in (%[[BLOCKS]], {{.*}} args({{.*}}, %[[A]] : index, %[[B]] : index)
module attributes {gpu.container_module} {
  gpu.module @two {
    gpu.func @strided(%buf: memref<?xf32>, %i: index) kernel {
      %a = spec.param "a_stride" = 8 : index
      %b = spec.param "b_stride" = 4 : index
      %0 = arith.muli %i, %a : index
      %1 = arith.addi %0, %b : index
      %v = memref.load %buf[%1] : memref<?xf32>
      memref.store %v, %buf[%i] : memref<?xf32>
      gpu.return
    }
  }
  func.func @host_two(%buf: memref<?xf32>, %i: index) attributes {spec.kernel} {
    %f = constant @host_two : (memref<?xf32>, index) -> ()
    %c1 = arith.constant 1 : index
    %n = spec.param "blocks" = 2 : index
    gpu.launch_func @two::@strided blocks in (%n, %c1, %c1) threads in (%c1, %c1, %c1) args(%buf : memref<?xf32>, %i : index)
    return
  }
}
