// RUN: fly-opt %s --infer-spec-params='traces=%S/Inputs/infer-trace-64.mlir values=max_blocks_per_seq=128:64' --hoist-stride-specialization=remarks=false | FileCheck %s
// RUN: fly-opt %s --infer-spec-params='traces=%S/Inputs/infer-trace-64.mlir' -verify-diagnostics -o /dev/null
// RUN: not fly-opt %s --infer-spec-params='traces=%S/Inputs/no-such-trace.mlir' 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not fly-opt %s --infer-spec-params='traces=%S/Inputs/infer-trace-64.mlir values=w=1' 2>&1 | FileCheck %s --check-prefix=VALUES

// A kernel traced at width 128 (this file) and 64 (the input), with no
// spec.param: inference finds the width and the byte stride 4 * width, and
// the hoisting pass turns both into kernel arguments. In the 64 trace the
// byte stride (256) and an unrelated 256 are one constant; only the
// stride's use takes the parameter.

// CHECK-LABEL: gpu.module @kernels
// CHECK: gpu.func @paged(%{{.*}}: memref<?xi32>, %{{.*}}: memref<?xi32>, %[[SEQ:.*]]: index, %[[BLK:.*]]: index, %[[W:.*]]: index, %[[S:.*]]: index) kernel
// CHECK-SAME: hoisted = [#spec.hoisted<name = "max_blocks_per_seq", type = index, argument = 4>, #spec.hoisted<name = "p0", type = index, argument = 5>]
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK: arith.muli %[[SEQ]], %[[W]] : index
// CHECK: %[[BYTES:.*]] = arith.muli %[[BLK]], %[[S]] : index
// CHECK: arith.addi %[[BYTES]], %[[C256]] : index
// CHECK-LABEL: func.func @host
// CHECK-DAG: %[[V128:.*]] = arith.constant 128 : index
// CHECK-DAG: %[[V512:.*]] = arith.constant 512 : index
// CHECK: gpu.launch_func @kernels::@paged {{.*}} args({{.*}}, %[[V128]] : index, %[[V512]] : index)

// MISSING: cannot read the trace '{{.*}}no-such-trace.mlir'
// VALUES: 'w=1' needs a name and 2 values, one per trace

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @paged(%bt: memref<?xi32>, %out: memref<?xi32>, %seq: index, %blk: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c128 = arith.constant 128 : index
      %c256 = arith.constant 256 : index
      %c512 = arith.constant 512 : index
      // expected-remark @+1 {{inferred spec.param 'p0' of type 'index': 128, 64}}
      %row = arith.muli %seq, %c128 : index
      %i = arith.addi %row, %blk : index
      %v = memref.load %bt[%i] : memref<?xi32>
      // expected-remark @+1 {{inferred spec.param 'p1' of type 'index': 512, 256}}
      %bytes = arith.muli %blk, %c512 : index
      %j = arith.addi %bytes, %c256 : index
      memref.store %v, %out[%j] : memref<?xi32>
      scf.for %k = %c0 to %c1 step %c1 {
        memref.store %v, %out[%k] : memref<?xi32>
      }
      gpu.return
    }
  }
  func.func @host(%bt: memref<?xi32>, %out: memref<?xi32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@paged blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%bt : memref<?xi32>, %out : memref<?xi32>, %c1 : index, %c1 : index)
    return
  }
}
