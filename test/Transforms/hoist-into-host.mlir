// RUN: fly-opt %s -split-input-file --hoist-stride-specialization="remarks=false hoist-into-host" | FileCheck %s

// The public host entry takes the value as a new trailing argument; its own
// spec.param of that name uses it too; kept parameters stay constants.

// CHECK-LABEL: gpu.func @k
// CHECK-SAME: %{{.*}}: i32) kernel
// CHECK-LABEL: func.func @launch
// CHECK-SAME: (%[[M:.*]]: memref<?xi32>, %[[W:.*]]: i32)
// CHECK-NOT: arith.constant 77
// CHECK: %[[WI:.*]] = arith.index_cast %[[W]] : i32 to index
// CHECK: %[[N:.*]] = arith.muli %[[WI]], %{{.*}} : index
// CHECK: gpu.launch_func @g::@k blocks in (%[[N]], {{.*}} args(%[[M]] : memref<?xi32>, %[[W]] : i32)
module attributes {gpu.container_module} {
  gpu.module @g {
    gpu.func @k(%m: memref<?xi32>) kernel {
      %w = spec.param "w" = 77 : i32
      %h = spec.param "h" = 2 : index
      %i = gpu.block_id x
      %ii = arith.index_cast %i : index to i32
      %o = arith.muli %ii, %w : i32
      %oi = arith.index_cast %o : i32 to index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      scf.for %j = %c0 to %h step %c1 {
        %v = memref.load %m[%oi] : memref<?xi32>
        memref.store %v, %m[%j] : memref<?xi32>
      }
      gpu.return
    }
  }
  func.func @launch(%m: memref<?xi32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %w = spec.param "w" = 77 : i32
    %wi = arith.index_cast %w : i32 to index
    %grid = arith.muli %wi, %c4 : index
    gpu.launch_func @g::@k blocks in (%grid, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xi32>)
    return
  }
}

// -----

// A private host helper gets the argument and its callers pass theirs on.

// CHECK-LABEL: func.func private @helper
// CHECK-SAME: (%[[M:.*]]: memref<?xf32>, %[[W:.*]]: index)
// CHECK: call @k(%[[M]], %[[W]])
// CHECK-LABEL: func.func @entry
// CHECK-SAME: (%[[M2:.*]]: memref<?xf32>, %[[W2:.*]]: index)
// CHECK: call @helper(%[[M2]], %[[W2]])
// CHECK: call @helper(%[[M2]], %[[W2]])
func.func @k(%m: memref<?xf32>) attributes {spec.kernel} {
  %w = spec.param "w" = 5 : index
  %v = memref.load %m[%w] : memref<?xf32>
  memref.store %v, %m[%w] : memref<?xf32>
  return
}
func.func private @helper(%m: memref<?xf32>) {
  func.call @k(%m) : (memref<?xf32>) -> ()
  return
}
func.func @entry(%m: memref<?xf32>) {
  func.call @helper(%m) : (memref<?xf32>) -> ()
  func.call @helper(%m) : (memref<?xf32>) -> ()
  return
}

// -----

// A host function whose symbol is taken by an op the pass cannot extend keeps
// passing a constant.

// CHECK-LABEL: func.func @taken
// CHECK-SAME: (%{{.*}}: memref<?xf32>) {
// CHECK: arith.constant 5 : index
func.func @k2(%m: memref<?xf32>) attributes {spec.kernel} {
  %w = spec.param "w" = 5 : index
  %v = memref.load %m[%w] : memref<?xf32>
  memref.store %v, %m[%w] : memref<?xf32>
  return
}
func.func @taken(%m: memref<?xf32>) {
  func.call @k2(%m) : (memref<?xf32>) -> ()
  return
}
func.func @user() {
  %f = func.constant @taken : (memref<?xf32>) -> ()
  return
}
