// A call inside a gpu.module to the gpu.module's own @f was taken for a
// launch of the host-level kernel @f: the pass appended the hoisted value to
// it, and the module it produced failed to verify ('func.call' op incorrect
// number of operands for callee). Symbol references resolve in the nearest
// symbol table, not by name across the module.
// RUN: fly-opt %s -hoist-stride-specialization=remarks=false | FileCheck %s

// CHECK-LABEL: func.func @f(
// CHECK-SAME: %{{.*}}: index)
// CHECK: gpu.module @m
// CHECK-LABEL: func.func @g(
// CHECK: call @f(%{{.*}}) : (memref<?xf32>) -> ()
module attributes {gpu.container_module} {
  func.func @f(%a: memref<?xf32>) {
    %w = spec.param "w" = 4 : index
    %v = memref.load %a[%w] : memref<?xf32>
    memref.store %v, %a[%w] : memref<?xf32>
    return
  }
  func.func @host(%a: memref<?xf32>) {
    call @f(%a) : (memref<?xf32>) -> ()
    return
  }
  gpu.module @m {
    func.func @f(%a: memref<?xf32>) {
      return
    }
    func.func @g(%a: memref<?xf32>) {
      call @f(%a) : (memref<?xf32>) -> ()
      return
    }
  }
}
