// A spec.param inside a region isolated from above (the body of
// gpu.all_reduce, omp.target) was replaced by a new kernel argument, which the
// region cannot see: the module failed to verify ("'memref.store' op using
// value defined outside the region"), after it had been changed. Such a name
// is kept, with the reason and a note at the isolating op; an `equals` value
// inside the region is still used; host arguments (hoist-into-host) never
// replace a host parameter inside such a region.
// RUN: fly-opt %s -split-input-file -hoist-stride-specialization -verify-diagnostics \
// RUN:   -mlir-print-op-on-diagnostic=false -o /dev/null
// RUN: fly-opt %s -split-input-file -hoist-stride-specialization=remarks=false \
// RUN:   | FileCheck %s
// The output reads back and verifies, in both printed forms.
// RUN: fly-opt %s -split-input-file -hoist-stride-specialization="remarks=false hoist-into-host" \
// RUN:   | fly-opt -split-input-file -verify-each -mlir-print-op-generic | fly-opt -split-input-file -verify-each -o /dev/null
// RUN: fly-opt %s -split-input-file -hoist-stride-specialization="remarks=false hoist-into-host" \
// RUN:   | FileCheck %s --check-prefix=HOST

// The parameter only used inside the reduction body.

// CHECK-LABEL: gpu.func @reduce_body
// CHECK-SAME: (%{{.*}}: memref<?xf32>, %{{.*}}: f32) kernel
// CHECK-SAME: spec.record = #spec.record<hoisted = []
// CHECK: gpu.all_reduce
// CHECK: %[[C:.*]] = arith.constant 4 : index
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[C]]]
// CHECK-NOT: spec.param
// CHECK-LABEL: func.func @launch_reduce
// CHECK: args(%{{.*}} : memref<?xf32>, %{{.*}} : f32){{$}}
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @reduce_body(%a: memref<?xf32>, %x: f32) kernel {
      // expected-note @below {{needs 'w' as a constant here}}
      %r = gpu.all_reduce %x uniform {
      ^bb0(%l: f32, %rr: f32):
        %buf = memref.alloca() : memref<64xf32>
        // expected-remark @below {{'w' kept specialized in kernel @m::@reduce_body: used inside 'gpu.all_reduce', whose region is isolated from above: no argument can reach it}}
        %w = spec.param "w" = 4 : index
        memref.store %l, %buf[%w] : memref<64xf32>
        %v = memref.load %buf[%w] : memref<64xf32>
        %s = arith.addf %v, %rr : f32
        gpu.yield %s : f32
      } : (f32) -> f32
      %c0 = arith.constant 0 : index
      memref.store %r, %a[%c0] : memref<?xf32>
      gpu.return
    }
  }
  func.func @launch_reduce(%a: memref<?xf32>, %x: f32) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @m::@reduce_body blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>, %x : f32)
    return
  }
}

// -----

// The same name also used (address-only) in the kernel body: the whole name
// is kept, both uses take the constant, the signature does not change. The
// reduction sits in a loop, two regions below the kernel.

// CHECK-LABEL: gpu.func @body_and_region
// CHECK-SAME: (%{{.*}}: memref<?xf32>, %{{.*}}: f32) kernel
// CHECK: arith.constant 8 : index
// CHECK: scf.for
// CHECK: gpu.all_reduce
// CHECK: arith.constant 8 : index
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @body_and_region(%a: memref<?xf32>, %x: f32) kernel {
      // expected-remark @below {{'stride' kept specialized in kernel @m::@body_and_region: used inside 'gpu.all_reduce'}}
      %w = spec.param "stride" = 8 : index
      %v0 = memref.load %a[%w] : memref<?xf32>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      scf.for %i = %c0 to %c2 step %c1 {
        // expected-note @below {{needs 'stride' as a constant here}}
        %r = gpu.all_reduce %x {
        ^bb0(%l: f32, %rr: f32):
          %buf = memref.alloca() : memref<64xf32>
          %w2 = spec.param "stride" = 8 : index
          %v = memref.load %buf[%w2] : memref<64xf32>
          %s = arith.addf %v, %rr : f32
          gpu.yield %s : f32
        } : (f32) -> f32
        memref.store %r, %a[%i] : memref<?xf32>
      }
      memref.store %v0, %a[%w] : memref<?xf32>
      gpu.return
    }
  }
}

// -----

// Inside the region with an `equals` value defined there: the uses take that
// value, no argument is needed, nothing is kept.

// CHECK-LABEL: gpu.func @equals_inside
// CHECK-SAME: (%{{.*}}: memref<?xf32>, %{{.*}}: f32) kernel
// CHECK-SAME: spec.record = #spec.record<hoisted = [#spec.hoisted<name = "w", type = index, preconditions = [#spec.equals_unverifiable<"size 0 of result 0 of 'memref.alloca'">]>]
// CHECK: gpu.all_reduce
// CHECK: %[[D:.*]] = memref.dim
// CHECK: memref.load %{{.*}}[%[[D]]]
// CHECK-NOT: arith.constant 16
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @equals_inside(%a: memref<?xf32>, %x: f32) kernel {
      %r = gpu.all_reduce %x {
      ^bb0(%l: f32, %rr: f32):
        %c0 = arith.constant 0 : index
        %buf = memref.alloca() : memref<64xf32>
        %li = arith.fptosi %l : f32 to i32
        %n = arith.index_cast %li : i32 to index
        %buf2 = memref.alloca(%n) : memref<?xf32>
        %d = memref.dim %buf2, %c0 : memref<?xf32>
        // expected-remark @below {{'w' hoisted in kernel @m::@equals_inside: uses take its 'equals' value}}
        %w = spec.param "w" = 16 equals %d : index
        %v = memref.load %buf[%w] : memref<64xf32>
        %s = arith.addf %v, %rr : f32
        gpu.yield %s : f32
      } : (f32) -> f32
      gpu.return
    }
  }
}

// -----

// omp.target in a host-level kernel and in host code, with hoist-into-host in
// the last run line: the kernel @k keeps 'w' (used inside omp.target); @k2 hoists
// 'v', and the host's own 'v' inside omp.target stays a constant while the
// one outside becomes the host argument.

// CHECK-LABEL: func.func @k(
// CHECK-SAME: %{{.*}}: memref<?xf32>) attributes
// CHECK: omp.target
// CHECK: arith.constant 4 : index
// CHECK-LABEL: func.func @k2(
// CHECK-SAME: %{{.*}}: memref<?xf32>, %{{.*}}: index) attributes
// CHECK-LABEL: func.func @host(
// CHECK: omp.target
// CHECK: arith.constant 6 : index
// HOST-LABEL: func.func @host(
// HOST-SAME: %[[M:.*]]: memref<?xf32>, %[[V:.*]]: index) -> index
// HOST: omp.target
// HOST: %[[C6:.*]] = arith.constant 6 : index
// HOST: memref.load %{{.*}}[%[[C6]]]
// HOST: omp.terminator
// HOST: call @k2(%[[M]], %[[V]])
// HOST: return %[[V]] : index
func.func @k(%m: memref<?xf32>) attributes {spec.kernel} {
  // expected-note @below {{needs 'w' as a constant here}}
  omp.target {
    %buf = memref.alloca() : memref<16xf32>
    // expected-remark @below {{'w' kept specialized in kernel @k: used inside 'omp.target'}}
    %w = spec.param "w" = 4 : index
    %v = memref.load %buf[%w] : memref<16xf32>
    memref.store %v, %buf[%w] : memref<16xf32>
    omp.terminator
  }
  %w = spec.param "w" = 4 : index
  %v = memref.load %m[%w] : memref<?xf32>
  memref.store %v, %m[%w] : memref<?xf32>
  return
}
func.func @k2(%m: memref<?xf32>) attributes {spec.kernel} {
  // expected-remark @below {{'v' hoisted in kernel @k2: runtime argument 1}}
  %w = spec.param "v" = 6 : index
  %v = memref.load %m[%w] : memref<?xf32>
  memref.store %v, %m[%w] : memref<?xf32>
  return
}
func.func @host(%m: memref<?xf32>) -> index {
  omp.target {
    %w = spec.param "v" = 6 : index
    %buf = memref.alloca() : memref<16xf32>
    %v = memref.load %buf[%w] : memref<16xf32>
    omp.terminator
  }
  %w = spec.param "v" = 6 : index
  call @k(%m) : (memref<?xf32>) -> ()
  call @k2(%m) : (memref<?xf32>) -> ()
  return %w : index
}
