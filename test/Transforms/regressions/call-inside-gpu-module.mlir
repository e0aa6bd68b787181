// A kernel function inside a gpu.module that another function of the same
// gpu.module calls: the call names the kernel by its local symbol (@k, not
// @m::@k), so the pass did not update it, and the module it produced failed
// to verify ('func.call' op incorrect number of operands for callee).
// The contract broken is the one fuzz/hoist-fuzzer.cpp checks: the result verifies.
// RUN: fly-opt %s -hoist-stride-specialization=remarks=false | FileCheck %s

// CHECK-LABEL: func.func @g(
// CHECK: call @k(%{{.*}}, %{{.*}}) : (memref<?xf32>, index) -> ()
module attributes {gpu.container_module} {
  gpu.module @m {
    func.func @k(%a: memref<?xf32>) attributes {gpu.kernel} {
      %w = spec.param "w" = 4 : index
      %v = memref.load %a[%w] : memref<?xf32>
      memref.store %v, %a[%w] : memref<?xf32>
      return
    }
    func.func @g(%a: memref<?xf32>) {
      call @k(%a) : (memref<?xf32>) -> ()
      return
    }
  }
}
