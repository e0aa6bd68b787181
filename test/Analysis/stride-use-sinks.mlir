// RUN: fly-opt %s -split-input-file -verify-diagnostics --hoist-stride-specialization \
// RUN:   --mlir-print-op-on-diagnostic=false | FileCheck %s

// Every address sink of DESIGN, one per split: the parameter must be hoisted.

// CHECK-LABEL: func.func @memref_load_store
// CHECK-SAME: %[[W:arg2]]: index
// CHECK-NOT: spec.param
// CHECK: arith.muli %{{.*}}, %[[W]]
func.func @memref_load_store(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %w = spec.param "w" = 128 : index // expected-remark {{'w' hoisted in kernel @memref_load_store: runtime argument 2}}
  %o = arith.muli %i, %w : index
  %v = memref.load %m[%o] : memref<?xf32>
  memref.store %v, %m[%o] : memref<?xf32>
  return
}

// -----

// CHECK-LABEL: func.func @vector_ops
// CHECK-NOT: spec.param
func.func @vector_ops(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : index // expected-remark {{'w' hoisted in kernel @vector_ops: runtime argument 2}}
  %pad = arith.constant 0.0 : f32
  %o = arith.muli %i, %w : index
  %v = vector.load %m[%o] : memref<?xf32>, vector<4xf32>
  vector.store %v, %m[%o] : memref<?xf32>, vector<4xf32>
  %t = vector.transfer_read %m[%o], %pad : memref<?xf32>, vector<4xf32>
  vector.transfer_write %t, %m[%o] : vector<4xf32>, memref<?xf32>
  return
}

// -----

// CHECK-LABEL: func.func @view_offsets_and_strides
// CHECK-NOT: spec.param
func.func @view_offsets_and_strides(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : index // expected-remark {{'w' hoisted in kernel @view_offsets_and_strides: runtime argument 2}}
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %off = arith.muli %i, %w : index
  %r = memref.reinterpret_cast %m to offset: [%off], sizes: [%c4, %c4], strides: [%w, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1], offset: ?>>
  %v = memref.load %r[%c0, %c0] : memref<?x?xf32, strided<[?, 1], offset: ?>>
  %s = memref.subview %m[%off] [4] [%w] : memref<?xf32> to memref<4xf32, strided<[?], offset: ?>>
  memref.store %v, %s[%c0] : memref<4xf32, strided<[?], offset: ?>>
  return
}

// -----

// The sizes of a view are metadata: harmless unless read back.
// CHECK-LABEL: func.func @view_sizes_unread
// CHECK-NOT: spec.param
func.func @view_sizes_unread(%m: memref<?xf32>) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : index // expected-remark {{'w' hoisted in kernel @view_sizes_unread: runtime argument 1}}
  %c0 = arith.constant 0 : index
  %r = memref.reinterpret_cast %m to offset: [0], sizes: [%w], strides: [1] : memref<?xf32> to memref<?xf32>
  %v = memref.load %r[%c0] : memref<?xf32>
  memref.store %v, %m[%c0] : memref<?xf32>
  return
}

// -----

// CHECK-LABEL: llvm.func @llvm_gep
// CHECK-NOT: spec.param
llvm.func @llvm_gep(%p: !llvm.ptr, %i: i64) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : i64 // expected-remark {{'w' hoisted in kernel @llvm_gep: runtime argument 2}}
  %o = llvm.mul %i, %w : i64
  %q = llvm.getelementptr %p[%o] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %v = llvm.load %q : !llvm.ptr -> f32
  llvm.store %v, %p : f32, !llvm.ptr
  llvm.return
}

// -----

// CHECK-LABEL: func.func @amdgpu_raw_buffer
// CHECK-NOT: spec.param
func.func @amdgpu_raw_buffer(%m: memref<?xf32>, %i: i32) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : i32 // expected-remark {{'w' hoisted in kernel @amdgpu_raw_buffer: runtime argument 2}}
  %o = arith.muli %i, %w : i32
  %v = amdgpu.raw_buffer_load %m[%o] sgprOffset %w : memref<?xf32>, i32 -> f32
  amdgpu.raw_buffer_store %v -> %m[%o] : f32 -> memref<?xf32>, i32
  return
}

// -----

// CHECK-LABEL: llvm.func @rocdl_raw_ptr_buffer
// CHECK-NOT: spec.param
llvm.func @rocdl_raw_ptr_buffer(%rsrc: !llvm.ptr<8>, %i: i32) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : i32 // expected-remark {{'w' hoisted in kernel @rocdl_raw_ptr_buffer: runtime argument 2}}
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %o = llvm.mul %i, %w : i32
  %v = rocdl.raw.ptr.buffer.load %rsrc, %o, %w, %c0 : f32
  rocdl.raw.ptr.buffer.store %v, %rsrc, %o, %c0, %c0 : f32
  llvm.return
}

// -----

// Index dialect and affine.apply without division are address arithmetic;
// shifting left by a non-parameter too.
// CHECK-LABEL: func.func @index_affine_shift
// CHECK-NOT: spec.param
func.func @index_affine_shift(%m: memref<?xf32>, %i: index, %j: i32) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : index // expected-remark {{'w' hoisted in kernel @index_affine_shift: runtime argument 3}}
  %a = index.mul %i, %w
  %b = affine.apply affine_map<(d0)[s0] -> (d0 * 4 + s0)>(%a)[%w]
  %c = arith.index_cast %b : index to i32
  %c2 = arith.constant 2 : i32
  %d = arith.shli %c, %c2 : i32
  %e = arith.extsi %d : i32 to i64
  %f = arith.index_cast %e : i64 to index
  %v = memref.load %m[%f] : memref<?xf32>
  memref.store %v, %m[%b] : memref<?xf32>
  return
}

// -----

// A pointer advanced by the stride each iteration is address-only.
// CHECK-LABEL: func.func @loop_carried
// CHECK-NOT: spec.param
func.func @loop_carried(%m: memref<?xf32>, %n: index) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : index // expected-remark {{'w' hoisted in kernel @loop_carried: runtime argument 2}}
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%p = %c0) -> (index) {
    %v = memref.load %m[%p] : memref<?xf32>
    memref.store %v, %m[%k] : memref<?xf32>
    %next = arith.addi %p, %w : index
    scf.yield %next : index
  }
  %last = memref.load %m[%r] : memref<?xf32>
  memref.store %last, %m[%c0] : memref<?xf32>
  return
}

// -----

// scf.if results and cf successor operands pass the stride on.
// CHECK-LABEL: func.func @if_and_cf
// CHECK-NOT: spec.param
func.func @if_and_cf(%m: memref<?xf32>, %i: index, %flag: i1) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : index // expected-remark {{'w' hoisted in kernel @if_and_cf: runtime argument 3}}
  %o = scf.if %flag -> (index) {
    %a = arith.muli %i, %w : index
    scf.yield %a : index
  } else {
    scf.yield %i : index
  }
  cf.br ^bb1(%o : index)
^bb1(%x: index):
  %v = memref.load %m[%x] : memref<?xf32>
  memref.store %v, %m[%i] : memref<?xf32>
  return
}
