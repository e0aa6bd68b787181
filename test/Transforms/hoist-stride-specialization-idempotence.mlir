// Twice is the same as once, for both passes.
// RUN: fly-opt %s --hoist-stride-specialization=remarks=false > %t.once
// RUN: fly-opt %t.once --hoist-stride-specialization=remarks=false > %t.twice
// RUN: diff %t.once %t.twice
// RUN: FileCheck %s --input-file=%t.twice
// RUN: fly-opt %s --materialize-specialization > %t.m.once
// RUN: fly-opt %t.m.once --materialize-specialization > %t.m.twice
// RUN: diff %t.m.once %t.m.twice

// CHECK-LABEL: gpu.func @k
// CHECK-SAME: %{{.*}}: index) kernel
// CHECK-NOT: spec.param
// CHECK-LABEL: func.func @host
// CHECK: arith.constant 96 : index
module attributes {gpu.container_module} {
  gpu.module @g {
    gpu.func @k(%m: memref<?xf32>, %i: index) kernel {
      %w = spec.param "w" = 96 : index
      %h = spec.param "h" = 2 : index
      %o = arith.muli %i, %w : index
      %q = arith.divui %i, %h : index
      %v = memref.load %m[%o] : memref<?xf32>
      memref.store %v, %m[%q] : memref<?xf32>
      gpu.return
    }
  }
  func.func @host(%m: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @g::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>, %c1 : index)
    return
  }
}
