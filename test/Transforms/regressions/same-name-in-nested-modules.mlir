// Two nested builtin.modules, each with its own @k and a call to it. The
// pass keyed kernels by bare name, so the call in @two was taken for a launch
// of @one's kernel and the valid input was rejected ("launch site passes 2
// arguments but kernel @k takes 1"); with equal arities it would have
// extended the wrong call.
// RUN: fly-opt %s -hoist-stride-specialization=remarks=false | FileCheck %s

// CHECK: module @one
// CHECK: func.func @k(%{{.*}}: memref<?xf32>, %{{.*}}: index)
// CHECK: call @k(%{{.*}}, %{{.*}}) : (memref<?xf32>, index) -> ()
// CHECK: module @two
// CHECK: func.func @k(%{{.*}}: memref<?xf32>, %{{.*}}: memref<?xf32>) {
// CHECK: call @k(%{{.*}}, %{{.*}}) : (memref<?xf32>, memref<?xf32>) -> ()
module {
  module @one {
    func.func @k(%a: memref<?xf32>) {
      %w = spec.param "w" = 4 : index
      %v = memref.load %a[%w] : memref<?xf32>
      memref.store %v, %a[%w] : memref<?xf32>
      return
    }
    func.func @host(%a: memref<?xf32>) {
      call @k(%a) : (memref<?xf32>) -> ()
      return
    }
  }
  module @two {
    func.func @k(%a: memref<?xf32>, %b: memref<?xf32>) {
      return
    }
    func.func @host(%a: memref<?xf32>) {
      call @k(%a, %a) : (memref<?xf32>, memref<?xf32>) -> ()
      return
    }
  }
}
