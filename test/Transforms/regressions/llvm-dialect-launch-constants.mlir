// A module entirely in the LLVM dialect got arith.constant ops at its launch
// sites, a dialect it did not use (nor load). Constants the pass creates at a
// launch site are llvm.mlir.constant when the site is an LLVM op or sits in an
// llvm.func, and the type is an LLVM type; arith.constant otherwise (an index
// constant for a gpu.func launched from an llvm.func: index is no LLVM type).
// RUN: fly-opt %s -split-input-file -hoist-stride-specialization=remarks=false | FileCheck %s
// RUN: fly-opt %s -split-input-file -hoist-stride-specialization=remarks=false \
// RUN:   | fly-opt -split-input-file -verify-each -mlir-print-op-generic | fly-opt -split-input-file -verify-each -o /dev/null

// Host-level llvm.func kernels of several integer types, two launch sites.

// CHECK-NOT: arith.
// CHECK-LABEL: llvm.func @k(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %{{.*}}: i16, %{{.*}}: i64, %{{.*}}: i8)
// CHECK-LABEL: llvm.func @host(
// CHECK-DAG: %[[A:.*]] = llvm.mlir.constant(-3 : i16) : i16
// CHECK-DAG: %[[B:.*]] = llvm.mlir.constant(4294967296 : i64) : i64
// CHECK-DAG: %[[C:.*]] = llvm.mlir.constant(-128 : i8) : i8
// CHECK: llvm.call @k(%{{.*}}, %[[A]], %[[B]], %[[C]])
// CHECK-LABEL: llvm.func @again(
// CHECK: llvm.mlir.constant(-3 : i16) : i16
// CHECK: llvm.call @k(
// CHECK-NOT: arith.
llvm.func @k(%p: !llvm.ptr) {
  %a = spec.param "a" = -3 : i16
  %b = spec.param "b" = 4294967296 : i64
  %c = spec.param "c" = 128 : i8
  %g = llvm.getelementptr %p[%a] : (!llvm.ptr, i16) -> !llvm.ptr, f32
  %h = llvm.getelementptr %g[%b] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %i = llvm.getelementptr %h[%c] : (!llvm.ptr, i8) -> !llvm.ptr, f32
  %v = llvm.load %i : !llvm.ptr -> f32
  llvm.store %v, %p : f32, !llvm.ptr
  llvm.return
}
llvm.func @host(%p: !llvm.ptr) {
  llvm.call @k(%p) : (!llvm.ptr) -> ()
  llvm.return
}
llvm.func @again(%p: !llvm.ptr) {
  llvm.call @k(%p) : (!llvm.ptr) -> ()
  llvm.return
}

// -----

// An LLVM gpu.module: the kernel calls a device function and cannot take an
// argument itself (its address is taken), so it passes the constant, in LLVM.
// The host is an llvm.func launching another kernel with gpu.launch_func.

// CHECK-NOT: arith.
// CHECK-LABEL: llvm.func @taken(
// CHECK-SAME: %[[P:.*]]: !llvm.ptr)
// CHECK: %[[W:.*]] = llvm.mlir.constant(12 : i32) : i32
// CHECK: llvm.call @dev(%[[P]], %[[W]])
// CHECK-LABEL: llvm.func @dev(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %{{.*}}: i32)
// CHECK-LABEL: llvm.func @host(
// CHECK: %[[V:.*]] = llvm.mlir.constant(12 : i32) : i32
// CHECK: gpu.launch_func @m::@direct {{.*}} args(%{{.*}} : !llvm.ptr, %[[V]] : i32)
// CHECK-NOT: arith.
module attributes {gpu.container_module} {
  gpu.module @m {
    llvm.func @taken(%p: !llvm.ptr) attributes {gpu.kernel} {
      llvm.call @dev(%p) : (!llvm.ptr) -> ()
      llvm.return
    }
    llvm.func @dev(%p: !llvm.ptr) {
      %w = spec.param "w" = 12 : i32
      %g = llvm.getelementptr %p[%w] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %v = llvm.load %g : !llvm.ptr -> f32
      llvm.store %v, %p : f32, !llvm.ptr
      llvm.return
    }
    llvm.func @direct(%p: !llvm.ptr) attributes {gpu.kernel} {
      %w = spec.param "w" = 12 : i32
      %g = llvm.getelementptr %p[%w] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %v = llvm.load %g : !llvm.ptr -> f32
      llvm.store %v, %p : f32, !llvm.ptr
      llvm.return
    }
    llvm.func @table() -> !llvm.ptr {
      %f = llvm.mlir.addressof @taken : !llvm.ptr
      llvm.return %f : !llvm.ptr
    }
  }
  llvm.func @host(%p: !llvm.ptr) {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    gpu.launch_func @m::@direct blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64 args(%p : !llvm.ptr)
    llvm.return
  }
}

// -----

// A gpu.func with an index parameter launched from an llvm.func: index is no
// LLVM type, so the constant stays arith.

// CHECK-LABEL: gpu.func @idx(
// CHECK-LABEL: llvm.func @index_host(
// CHECK: %[[C:.*]] = arith.constant 5 : index
// CHECK: gpu.launch_func @g::@idx {{.*}} args(%{{.*}} : !llvm.ptr, %[[C]] : index)
module attributes {gpu.container_module} {
  gpu.module @g {
    gpu.func @idx(%p: !llvm.ptr) kernel {
      %w = spec.param "w" = 5 : index
      %wi = arith.index_cast %w : index to i64
      %g = llvm.getelementptr %p[%wi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %g : !llvm.ptr -> f32
      llvm.store %v, %p : f32, !llvm.ptr
      gpu.return
    }
  }
  llvm.func @index_host(%p: !llvm.ptr) {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    gpu.launch_func @g::@idx blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64 args(%p : !llvm.ptr)
    llvm.return
  }
}

// -----

// Launch sites of one block share a constant per value and type, but not
// across dialects: an llvm.call and a gpu.launch_func in one func.func block
// get one llvm.mlir.constant and one arith.constant, each before the first
// site that takes it, and the second llvm.call reuses the first's.

// CHECK-LABEL: func.func @mixed(
// CHECK: %[[L:.*]] = llvm.mlir.constant(24 : i32) : i32
// CHECK-NEXT: %[[A:.*]] = arith.constant 24 : i32
// CHECK-NEXT: llvm.call @host_kernel(%{{.*}}, %[[L]])
// CHECK-NEXT: gpu.launch_func @dev::@gk {{.*}} args(%{{.*}} : !llvm.ptr, %[[A]] : i32)
// CHECK-NEXT: llvm.call @host_kernel(%{{.*}}, %[[L]])
// CHECK-NEXT: return
module attributes {gpu.container_module} {
  llvm.func @host_kernel(%p: !llvm.ptr) {
    %w = spec.param "w" = 24 : i32
    %g = llvm.getelementptr %p[%w] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %v = llvm.load %g : !llvm.ptr -> f32
    llvm.store %v, %p : f32, !llvm.ptr
    llvm.return
  }
  gpu.module @dev {
    llvm.func @gk(%p: !llvm.ptr) attributes {gpu.kernel} {
      %w = spec.param "w" = 24 : i32
      %g = llvm.getelementptr %p[%w] : (!llvm.ptr, i32) -> !llvm.ptr, f32
      %v = llvm.load %g : !llvm.ptr -> f32
      llvm.store %v, %p : f32, !llvm.ptr
      llvm.return
    }
  }
  func.func @mixed(%p: !llvm.ptr) {
    %c1 = arith.constant 1 : index
    llvm.call @host_kernel(%p) : (!llvm.ptr) -> ()
    gpu.launch_func @dev::@gk blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%p : !llvm.ptr)
    llvm.call @host_kernel(%p) : (!llvm.ptr) -> ()
    return
  }
}
