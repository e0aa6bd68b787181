// With hoist-into-host, a private host function that launches a kernel
// takes the value as a new argument, and each of its callers passes what it
// holds for the name. Here a caller is @p, a host-level kernel with its own
// hoisted "w": it must pass its own new argument, so that @k runs with the
// width @p was launched with. When the pass began rewriting one group of
// functions at a time, @k's group (first in IR order) was rewritten before
// @p had its argument, and @p passed the constant 4 instead: launched with
// another width, @k and @p disagreed. With hoist-into-host every signature
// now changes before any launch site does.
// RUN: fly-opt %s -hoist-stride-specialization="remarks=false hoist-into-host" | FileCheck %s

// CHECK-LABEL: func.func private @launcher
// CHECK-SAME: (%[[LM:.*]]: memref<?xf32>, %[[LW:.*]]: index)
// CHECK: gpu.launch_func @g::@k {{.*}} args(%[[LM]] : memref<?xf32>, %[[LW]] : index)
// CHECK-LABEL: func.func private @p
// CHECK-SAME: (%[[PM:.*]]: memref<?xf32>, %[[PW:.*]]: index)
// CHECK-NOT: arith.constant 4
// CHECK: call @launcher(%[[PM]], %[[PW]])
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[MM:.*]]: memref<?xf32>, %[[MW:.*]]: index)
// CHECK: call @p(%[[MM]], %[[MW]])
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
  func.func private @p(%m: memref<?xf32>) {
    %w = spec.param "w" = 4 : index
    %v = memref.load %m[%w] : memref<?xf32>
    memref.store %v, %m[%w] : memref<?xf32>
    func.call @launcher(%m) : (memref<?xf32>) -> ()
    return
  }
  func.func @main(%m: memref<?xf32>) {
    func.call @p(%m) : (memref<?xf32>) -> ()
    return
  }
}
