// RUN: fly-opt %s --hoist-stride-specialization='remarks=false' | FileCheck %s

// Where a new argument goes in each kind of signature: after the arguments
// and before a gpu.func's workgroup and private attributions (which are
// entry-block arguments too), with an empty dictionary in the argument
// attributes when the function has them. The ops that used the parameter
// use the new argument, not an attribution.

// CHECK-LABEL: gpu.func @attributions
// CHECK-SAME: (%[[OUT:.*]]: memref<?xf32>, %[[W:.*]]: index) workgroup(%[[TILE:.*]] : memref<64xf32, 3>) private(%[[SCRATCH:.*]] : memref<4xf32, 5>) kernel
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[I:.*]] = arith.muli %[[TID]], %[[W]] : index
// CHECK: memref.load %[[TILE]][%[[TID]]]
// CHECK: memref.store %{{.*}}, %[[SCRATCH]][%[[TID]]]
// CHECK: memref.store %{{.*}}, %[[OUT]][%[[I]]]

// CHECK-LABEL: gpu.func @arg_attrs
// CHECK-SAME: (%{{.*}}: memref<?xf32> {llvm.noalias}, %[[W:.*]]: index) kernel
// CHECK: arith.muli %{{.*}}, %[[W]] : index

// CHECK-LABEL: gpu.func @plain
// CHECK-SAME: (%{{.*}}: memref<?xf32>, %[[W:.*]]: index) kernel
// CHECK: arith.muli %{{.*}}, %[[W]] : index

// CHECK-LABEL: func.func @host_kernel(
// CHECK-SAME: %{{.*}}: memref<?xf32>, %[[I:.*]]: index, %[[W:.*]]: index) attributes
// CHECK: arith.muli %[[I]], %[[W]] : index

// CHECK-LABEL: func.func @host_kernel_attrs(
// CHECK-SAME: %{{.*}}: memref<?xf32> {llvm.noalias}, %[[I:.*]]: index, %[[W:.*]]: index) attributes
// CHECK: arith.muli %[[I]], %[[W]] : index

// CHECK-LABEL: func.func @launch
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK: gpu.launch_func @kernels::@attributions {{.*}} args(%{{.*}} : memref<?xf32>, %[[C16]] : index)
// CHECK: gpu.launch_func @kernels::@arg_attrs {{.*}} args(%{{.*}} : memref<?xf32>, %[[C16]] : index)
// CHECK: gpu.launch_func @kernels::@plain {{.*}} args(%{{.*}} : memref<?xf32>, %[[C16]] : index)
// CHECK: call @host_kernel(%{{.*}}, %{{.*}}, %[[C16]])
// CHECK: call @host_kernel_attrs(%{{.*}}, %{{.*}}, %[[C16]])

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @attributions(%out: memref<?xf32>) workgroup(%tile: memref<64xf32, 3>) private(%scratch: memref<4xf32, 5>) kernel {
      %w = spec.param "w" = 16 : index
      %tid = gpu.thread_id x
      %i = arith.muli %tid, %w : index
      %v = memref.load %tile[%tid] : memref<64xf32, 3>
      memref.store %v, %scratch[%tid] : memref<4xf32, 5>
      memref.store %v, %out[%i] : memref<?xf32>
      gpu.return
    }
    gpu.func @arg_attrs(%out: memref<?xf32> {llvm.noalias}) kernel {
      %w = spec.param "w" = 16 : index
      %tid = gpu.thread_id x
      %i = arith.muli %tid, %w : index
      %v = memref.load %out[%tid] : memref<?xf32>
      memref.store %v, %out[%i] : memref<?xf32>
      gpu.return
    }
    gpu.func @plain(%out: memref<?xf32>) kernel {
      %w = spec.param "w" = 16 : index
      %tid = gpu.thread_id x
      %i = arith.muli %tid, %w : index
      %v = memref.load %out[%tid] : memref<?xf32>
      memref.store %v, %out[%i] : memref<?xf32>
      gpu.return
    }
  }
  func.func @host_kernel(%out: memref<?xf32>, %i: index) attributes {spec.kernel} {
    %w = spec.param "w" = 16 : index
    %j = arith.muli %i, %w : index
    %v = memref.load %out[%i] : memref<?xf32>
    memref.store %v, %out[%j] : memref<?xf32>
    return
  }
  func.func @host_kernel_attrs(%out: memref<?xf32> {llvm.noalias}, %i: index) attributes {spec.kernel} {
    %w = spec.param "w" = 16 : index
    %j = arith.muli %i, %w : index
    %v = memref.load %out[%i] : memref<?xf32>
    memref.store %v, %out[%j] : memref<?xf32>
    return
  }
  func.func @launch(%out: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@attributions blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<?xf32>)
    gpu.launch_func @kernels::@arg_attrs blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<?xf32>)
    gpu.launch_func @kernels::@plain blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<?xf32>)
    call @host_kernel(%out, %c1) : (memref<?xf32>, index) -> ()
    call @host_kernel_attrs(%out, %c1) : (memref<?xf32>, index) -> ()
    return
  }
}
