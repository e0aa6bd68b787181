// With hoist-into-host, a private host function that launches a kernel takes
// the value as an argument and its callers pass it. A caller that cannot take
// an argument itself (here @entry, whose symbol func.constant refers to)
// passes a constant. That constant was placed before the first kernel launch
// site of the caller's block, shared with the launch sites there, even when
// the call came before that launch site: the verifier rejected the output
// ("operand #1 does not dominate this use"). Only launch sites of planned
// functions share the block's constants; other calls get their own.
// RUN: fly-opt %s -hoist-stride-specialization="remarks=false hoist-into-host" | FileCheck %s
// RUN: fly-opt %s -hoist-stride-specialization="remarks=false hoist-into-host" \
// RUN:   | fly-opt -verify-each -mlir-print-op-generic | fly-opt -verify-each -o /dev/null

// CHECK-LABEL: func.func private @launcher
// CHECK-SAME: (%[[M:.*]]: memref<?xf32>, %[[W:.*]]: index)
// CHECK: gpu.launch_func @g::@k {{.*}} args(%[[M]] : memref<?xf32>, %[[W]] : index)
// CHECK-LABEL: func.func @entry
// CHECK: %[[C:.*]] = arith.constant 4 : index
// CHECK-NEXT: call @launcher(%{{.*}}, %[[C]])
// CHECK: %[[S:.*]] = arith.constant 4 : index
// CHECK-NEXT: gpu.launch_func @g::@k {{.*}} args(%{{.*}} : memref<?xf32>, %[[S]] : index)
// CHECK: gpu.launch_func @g::@k {{.*}} args(%{{.*}} : memref<?xf32>, %[[S]] : index)
module attributes {gpu.container_module} {
  gpu.module @g {
    gpu.func @k(%m: memref<?xf32>) kernel {
      %w = spec.param "w" = 4 : index
      %v = memref.load %m[%w] : memref<?xf32>
      memref.store %v, %m[%w] : memref<?xf32>
      gpu.return
    }
  }
  func.func private @launcher(%m: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @g::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>)
    return
  }
  func.func @entry(%m: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    func.call @launcher(%m) : (memref<?xf32>) -> ()
    gpu.launch_func @g::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>)
    gpu.launch_func @g::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>)
    return
  }
  func.func @refers() {
    %f = func.constant @entry : (memref<?xf32>) -> ()
    return
  }
}
