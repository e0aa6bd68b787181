// RUN: fly-opt %s -split-input-file --hoist-stride-specialization=remarks=false | FileCheck %s

// A gpu.func kernel: the stride becomes the last argument, the launch site
// passes the value, the record names it without its value.

// CHECK-LABEL: gpu.module @kernels
// CHECK: gpu.func @paged(%{{.*}}: memref<?xi32>, %{{.*}}: memref<?xi32>, %[[SEQ:.*]]: index, %[[BLK:.*]]: index, %[[W:.*]]: index) kernel
// CHECK-SAME: spec.record = #spec.record<hoisted = [#spec.hoisted<name = "max_blocks_per_seq", type = index, argument = 4>]
// CHECK-SAME: kept = [], kept_locations = [], launch_sites = [#loc{{[0-9]*}}]>
// CHECK-NOT: 128
// CHECK: %[[ROW:.*]] = arith.muli %[[SEQ]], %[[W]] : index
// CHECK: %[[IDX:.*]] = arith.addi %[[ROW]], %[[BLK]] : index
// CHECK: memref.load %{{.*}}[%[[IDX]]]
// CHECK: gpu.return
// CHECK-LABEL: func.func @host
// CHECK-NOT: spec.param
// CHECK: %[[V:.*]] = arith.constant 128 : index
// CHECK: gpu.launch_func @kernels::@paged {{.*}} args({{.*}}, %[[V]] : index)
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @paged(%bt: memref<?xi32>, %out: memref<?xi32>, %seq: index, %blk: index) kernel {
      %w = spec.param "max_blocks_per_seq" = 128 : index
      %row = arith.muli %seq, %w : index
      %i = arith.addi %row, %blk : index
      %v = memref.load %bt[%i] : memref<?xi32>
      memref.store %v, %out[%blk] : memref<?xi32>
      gpu.return
    }
  }
  func.func @host(%bt: memref<?xi32>, %out: memref<?xi32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@paged blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%bt : memref<?xi32>, %out : memref<?xi32>, %c1 : index, %c1 : index)
    return
  }
}

// -----

// Two kernels share a parameter with different decisions; hoisted arguments
// come in name order; every launch site (two hosts) is updated; host-only
// uses never block and are materialized.

// CHECK-LABEL: gpu.module @two
// CHECK: gpu.func @strided(%{{.*}}: memref<?xf32>, %{{.*}}: index, %[[A:.*]]: index, %[[B:.*]]: index) kernel
// CHECK-SAME: spec.record = #spec.record<hoisted = [#spec.hoisted<name = "a_stride", type = index, argument = 2>, #spec.hoisted<name = "b_stride", type = index, argument = 3>]
// CHECK-SAME: launch_sites = [#loc{{[0-9]*}}, #loc{{[0-9]*}}]>
// CHECK: gpu.func @looped(%{{.*}}: memref<?xf32>) kernel
// CHECK-SAME: spec.record = #spec.record<hoisted = []
// CHECK: arith.constant 16 : index
// CHECK-LABEL: func.func @host_one
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK: gpu.launch_func @two::@strided {{.*}} args(%{{.*}} : memref<?xf32>, %{{.*}} : index, %[[C16]] : index, %[[C8]] : index)
// CHECK: memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK-LABEL: func.func @host_two
// CHECK: gpu.launch_func @two::@strided {{.*}} args(%{{.*}} : memref<?xf32>, %{{.*}} : index, %{{.*}} : index, %{{.*}} : index)
// CHECK: gpu.launch_func @two::@looped
module attributes {gpu.container_module} {
  gpu.module @two {
    gpu.func @strided(%m: memref<?xf32>, %i: index) kernel {
      %b = spec.param "b_stride" = 8 : index
      %a = spec.param "a_stride" = 16 : index
      %x = arith.muli %i, %a : index
      %y = arith.muli %i, %b : index
      %z = arith.addi %x, %y : index
      %v = memref.load %m[%z] : memref<?xf32>
      memref.store %v, %m[%i] : memref<?xf32>
      gpu.return
    }
    gpu.func @looped(%m: memref<?xf32>) kernel {
      %a = spec.param "a_stride" = 16 : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      scf.for %i = %c0 to %a step %c1 {
        %v = memref.load %m[%i] : memref<?xf32>
        memref.store %v, %m[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
  func.func @host_one(%m: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @two::@strided blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>, %c1 : index)
    %a = spec.param "a_stride" = 16 : index
    %size = arith.muli %a, %a : index
    %buf = memref.alloc(%size) : memref<?xf32>
    memref.dealloc %buf : memref<?xf32>
    return
  }
  func.func @host_two(%m: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @two::@strided blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>, %c1 : index)
    gpu.launch_func @two::@looped blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>)
    return
  }
}

// -----

// `equals`: the uses take the runtime value the frontend named and the
// signature does not change; the record says what the launcher guarantees.

// CHECK-LABEL: gpu.func @with_equals
// CHECK-SAME: (%[[M:.*]]: memref<?x?xi32>, %[[I:.*]]: index) kernel
// CHECK-SAME: spec.record = #spec.record<hoisted = [#spec.hoisted<name = "max_blocks_per_seq", type = index, preconditions = [#spec.equals<argument = 0, part = stride, index = 0>]>]
// CHECK: %{{.*}}, %{{.*}}, %{{.*}}:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %[[M]]
// CHECK: arith.muli %[[I]], %[[STRIDES]]#0 : index
// CHECK-LABEL: func.func @launch_equals
// CHECK: gpu.launch_func @eq::@with_equals {{.*}} args(%{{.*}} : memref<?x?xi32>, %{{.*}} : index){{$}}
module attributes {gpu.container_module} {
  gpu.module @eq {
    gpu.func @with_equals(%bt: memref<?x?xi32>, %i: index) kernel {
      %base, %off, %sizes:2, %strides:2 = memref.extract_strided_metadata %bt : memref<?x?xi32> -> memref<i32>, index, index, index, index, index
      %w = spec.param "max_blocks_per_seq" = 128 equals %strides#0 : index
      %o = arith.muli %i, %w : index
      %flat = memref.reinterpret_cast %bt to offset: [0], sizes: [4096], strides: [1] : memref<?x?xi32> to memref<4096xi32>
      %v = memref.load %flat[%o] : memref<4096xi32>
      memref.store %v, %flat[%i] : memref<4096xi32>
      gpu.return
    }
  }
  func.func @launch_equals(%bt: memref<?x?xi32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @eq::@with_equals blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%bt : memref<?x?xi32>, %c1 : index)
    return
  }
}

// -----

// func.func kernels with several call sites; a kernel called from a kernel
// that hoisted the same parameter passes its own argument on.

// CHECK-LABEL: func.func @leaf
// CHECK-SAME: (%{{.*}}: memref<?xf32>, %{{.*}}: index, %{{.*}}: index)
// CHECK-SAME: launch_sites = [#loc{{[0-9]*}}, #loc{{[0-9]*}}]>
// CHECK-LABEL: func.func @middle
// CHECK-SAME: (%[[M:.*]]: memref<?xf32>, %[[I:.*]]: index, %[[W:.*]]: index)
// CHECK: call @leaf(%[[M]], %[[I]], %[[W]])
// The launch sites of one block share one constant per value.
// CHECK-LABEL: func.func @main
// CHECK: %[[C:.*]] = arith.constant 32 : index
// CHECK-NEXT: call @leaf(%{{.*}}, %{{.*}}, %[[C]])
// CHECK-NEXT: call @middle(%{{.*}}, %{{.*}}, %[[C]])
func.func @leaf(%m: memref<?xf32>, %i: index) {
  %w = spec.param "w" = 32 : index
  %o = arith.muli %i, %w : index
  %v = memref.load %m[%o] : memref<?xf32>
  memref.store %v, %m[%i] : memref<?xf32>
  return
}
func.func @middle(%m: memref<?xf32>, %i: index) {
  %w = spec.param "w" = 32 : index
  %o = arith.addi %i, %w : index
  %v = memref.load %m[%o] : memref<?xf32>
  memref.store %v, %m[%i] : memref<?xf32>
  func.call @leaf(%m, %i) : (memref<?xf32>, index) -> ()
  return
}
func.func @main(%m: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  func.call @leaf(%m, %c1) : (memref<?xf32>, index) -> ()
  func.call @middle(%m, %c1) : (memref<?xf32>, index) -> ()
  return
}

// -----

// A shared constant goes before the first launch site of its block, whichever
// kernel the pass rewrites first; a site in another block gets its own.

// CHECK-LABEL: func.func @main
// CHECK: %[[C:.*]] = arith.constant 32 : index
// CHECK-NEXT: call @second(%{{.*}}, %{{.*}}, %[[C]])
// CHECK-NEXT: call @first(%{{.*}}, %{{.*}}, %[[C]])
// CHECK: scf.if
// CHECK-NEXT: %[[C3:.*]] = arith.constant 32 : index
// CHECK-NEXT: call @first(%{{.*}}, %{{.*}}, %[[C3]])
// CHECK: call @second(%{{.*}}, %{{.*}}, %[[C]])
func.func @first(%m: memref<?xf32>, %i: index) {
  %w = spec.param "w" = 32 : index
  %o = arith.muli %i, %w : index
  %v = memref.load %m[%o] : memref<?xf32>
  memref.store %v, %m[%i] : memref<?xf32>
  return
}
func.func @second(%m: memref<?xf32>, %i: index) {
  %w = spec.param "w" = 32 : index
  %o = arith.addi %i, %w : index
  %v = memref.load %m[%o] : memref<?xf32>
  memref.store %v, %m[%i] : memref<?xf32>
  return
}
func.func @main(%m: memref<?xf32>, %flag: i1) {
  %c1 = arith.constant 1 : index
  func.call @second(%m, %c1) : (memref<?xf32>, index) -> ()
  func.call @first(%m, %c1) : (memref<?xf32>, index) -> ()
  scf.if %flag {
    func.call @first(%m, %c1) : (memref<?xf32>, index) -> ()
  }
  func.call @second(%m, %c1) : (memref<?xf32>, index) -> ()
  return
}

// -----

// A kernel with no visible launch site is still rewritten, and says so.

// CHECK-LABEL: gpu.func @orphan
// CHECK-SAME: %{{.*}}: index) kernel
// CHECK-SAME: spec.record = #spec.record<hoisted = [#spec.hoisted<name = "w", type = index, argument = 1>]
// CHECK-SAME: launch_sites = []>
module attributes {gpu.container_module} {
  gpu.module @lonely {
    gpu.func @orphan(%m: memref<?xf32>) kernel {
      %w = spec.param "w" = 32 : index
      %v = memref.load %m[%w] : memref<?xf32>
      memref.store %v, %m[%w] : memref<?xf32>
      gpu.return
    }
  }
}

// -----

// A kernel referenced by an op the pass cannot extend keeps its signature:
// parameters that would need a new argument are kept.

// CHECK-LABEL: func.func @by_address
// CHECK-SAME: (%{{.*}}: memref<?xf32>) attributes
// CHECK: arith.constant 32 : index
// CHECK-LABEL: func.func @takes_address
// CHECK: constant @by_address
func.func @by_address(%m: memref<?xf32>) attributes {spec.kernel} {
  %w = spec.param "w" = 32 : index
  %v = memref.load %m[%w] : memref<?xf32>
  memref.store %v, %m[%w] : memref<?xf32>
  return
}
func.func @takes_address() {
  %f = func.constant @by_address : (memref<?xf32>) -> ()
  return
}

// -----

// So is a kernel a launch site names in one of its other attributes: the
// reference is not a launch the pass can extend. The launched kernel hoists.

// CHECK-LABEL: gpu.func @launched
// CHECK-SAME: (%{{.*}}: memref<?xf32>, %{{.*}}: index) kernel
// CHECK-LABEL: gpu.func @named
// CHECK-SAME: (%{{.*}}: memref<?xf32>) kernel
// CHECK-SAME: reason = "unknown-reference", op = "gpu.launch_func"
// CHECK: arith.constant 16 : index
// CHECK-LABEL: func.func @launches_both
// CHECK: gpu.launch_func @kernels::@launched {{.*}} args(%{{.*}} : memref<?xf32>, %{{.*}} : index) {companion = @kernels::@named}
// CHECK: gpu.launch_func @kernels::@named {{.*}} args(%{{.*}} : memref<?xf32>)
// CHECK-NEXT: return
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @launched(%m: memref<?xf32>) kernel {
      %w = spec.param "w" = 32 : index
      %v = memref.load %m[%w] : memref<?xf32>
      memref.store %v, %m[%w] : memref<?xf32>
      gpu.return
    }
    gpu.func @named(%m: memref<?xf32>) kernel {
      %s = spec.param "s" = 16 : index
      %v = memref.load %m[%s] : memref<?xf32>
      memref.store %v, %m[%s] : memref<?xf32>
      gpu.return
    }
  }
  func.func @launches_both(%m: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@launched blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>) {companion = @kernels::@named}
    gpu.launch_func @kernels::@named blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>)
    return
  }
}

// -----

// Unused parameters are removed, not materialized into dead constants.

// CHECK-LABEL: gpu.func @unused
// CHECK-NOT: arith.constant
// CHECK: gpu.return
module attributes {gpu.container_module} {
  gpu.module @u {
    gpu.func @unused(%m: memref<?xf32>) kernel {
      %w = spec.param "w" = 32 : index
      gpu.return
    }
  }
}

// -----

// A device function (not a kernel) hoists like a kernel; its record says
// `device` and has no launch sites (its callers pass the value; see
// device-functions.mlir). Host code: materialized, never blocks.

// CHECK-LABEL: func.func @device_helper
// CHECK-SAME: (%[[M:.*]]: memref<?xf32>, %[[W:.*]]: index) attributes {spec.record = #spec.record<device = true, hoisted = [#spec.hoisted<name = "w", type = index, argument = 1>], kept = [], kept_locations = [], launch_sites = []>} {
// CHECK-NOT: arith.constant 4
// CHECK: memref.load %[[M]][%[[W]]]
// CHECK-LABEL: func.func @host_only
// CHECK: arith.constant 4 : index
// CHECK: arith.cmpi
module attributes {gpu.container_module} {
  gpu.module @dev {
    func.func @device_helper(%m: memref<?xf32>) {
      %w = spec.param "w" = 4 : index
      %v = memref.load %m[%w] : memref<?xf32>
      memref.store %v, %m[%w] : memref<?xf32>
      return
    }
  }
  func.func @host_only(%n: index) -> i1 {
    %w = spec.param "w" = 4 : index
    %c = arith.cmpi ult, %n, %w : index
    return %c : i1
  }
}

// -----

// With materialize-kept=false, kept parameters stay for a later
// materialize-specialization.

// RUN: fly-opt %s -split-input-file --hoist-stride-specialization="remarks=false materialize-kept=false" | FileCheck %s --check-prefix=KEEP
// KEEP-LABEL: func.func @keep_param
// KEEP: spec.param "heads" = 8 : index
func.func @keep_param(%m: memref<?xf32>) attributes {spec.kernel} {
  %h = spec.param "heads" = 8 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %h step %c1 {
    %v = memref.load %m[%i] : memref<?xf32>
    memref.store %v, %m[%i] : memref<?xf32>
  }
  return
}
