// RUN: fly-opt %s -split-input-file -verify-diagnostics --test-stride-use-analysis \
// RUN:   --mlir-print-op-on-diagnostic=false -o /dev/null

// Every address sink of DESIGN, one per split: the parameter must be hoisted.

func.func @memref_load_store(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %w = spec.param "w" = 128 : index // expected-remark {{'w': address-only, 2 address operand(s)}}
  %o = arith.muli %i, %w : index // expected-remark {{'w' operand #1 (value): pass-through}}
  %v = memref.load %m[%o] : memref<?xf32> // expected-remark {{'w' operand #1 (value): address}}
  memref.store %v, %m[%o] : memref<?xf32> // expected-remark {{'w' operand #2 (value): address}}
  return
}

// -----

func.func @vector_ops(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : index // expected-remark {{'w': address-only, 4 address operand(s)}}
  %pad = arith.constant 0.0 : f32
  %o = arith.muli %i, %w : index // expected-remark {{'w' operand #1 (value): pass-through}}
  %v = vector.load %m[%o] : memref<?xf32>, vector<4xf32> // expected-remark {{'w' operand #1 (value): address}}
  vector.store %v, %m[%o] : memref<?xf32>, vector<4xf32> // expected-remark {{'w' operand #2 (value): address}}
  %t = vector.transfer_read %m[%o], %pad : memref<?xf32>, vector<4xf32> // expected-remark {{'w' operand #1 (value): address}}
  vector.transfer_write %t, %m[%o] : vector<4xf32>, memref<?xf32> // expected-remark {{'w' operand #2 (value): address}}
  return
}

// -----

func.func @view_offsets_and_strides(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : index // expected-remark {{'w': address-only, 2 address operand(s)}}
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %off = arith.muli %i, %w : index // expected-remark {{'w' operand #1 (value): pass-through}}
  // expected-remark@+2 {{'w' operand #4 (value): pass-through}}
  // expected-remark@+1 {{'w' operand #1 (value): pass-through}}
  %r = memref.reinterpret_cast %m to offset: [%off], sizes: [%c4, %c4], strides: [%w, 1] : memref<?xf32> to memref<?x?xf32, strided<[?, 1], offset: ?>>
  %v = memref.load %r[%c0, %c0] : memref<?x?xf32, strided<[?, 1], offset: ?>> // expected-remark {{'w' operand #0 (view address): address}}
  // expected-remark@+2 {{'w' operand #2 (value): pass-through}}
  // expected-remark@+1 {{'w' operand #1 (value): pass-through}}
  %s = memref.subview %m[%off] [4] [%w] : memref<?xf32> to memref<4xf32, strided<[?], offset: ?>>
  memref.store %v, %s[%c0] : memref<4xf32, strided<[?], offset: ?>> // expected-remark {{'w' operand #1 (view address): address}}
  return
}

// -----

// The sizes of a view are metadata: harmless unless read back.
func.func @view_sizes_unread(%m: memref<?xf32>) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : index // expected-remark {{'w': address-only, 0 address operand(s)}}
  %c0 = arith.constant 0 : index
  %r = memref.reinterpret_cast %m to offset: [0], sizes: [%w], strides: [1] : memref<?xf32> to memref<?xf32> // expected-remark {{'w' operand #1 (value): pass-through}}
  %v = memref.load %r[%c0] : memref<?xf32> // expected-remark {{'w' operand #0 (view sizes): not read}}
  memref.store %v, %m[%c0] : memref<?xf32>
  return
}

// -----

llvm.func @llvm_gep(%p: !llvm.ptr, %i: i64) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : i64 // expected-remark {{'w': address-only, 1 address operand(s)}}
  %o = llvm.mul %i, %w : i64 // expected-remark {{'w' operand #1 (value): pass-through}}
  %q = llvm.getelementptr %p[%o] : (!llvm.ptr, i64) -> !llvm.ptr, f32 // expected-remark {{'w' operand #1 (value): pass-through}}
  %v = llvm.load %q : !llvm.ptr -> f32 // expected-remark {{'w' operand #0 (value): address}}
  llvm.store %v, %p : f32, !llvm.ptr
  llvm.return
}

// -----

func.func @amdgpu_raw_buffer(%m: memref<?xf32>, %i: i32) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : i32 // expected-remark {{'w': address-only, 3 address operand(s)}}
  %o = arith.muli %i, %w : i32 // expected-remark {{'w' operand #1 (value): pass-through}}
  // expected-remark@+2 {{'w' operand #2 (value): address}}
  // expected-remark@+1 {{'w' operand #1 (value): address}}
  %v = amdgpu.raw_buffer_load %m[%o] sgprOffset %w : memref<?xf32>, i32 -> f32
  amdgpu.raw_buffer_store %v -> %m[%o] : f32 -> memref<?xf32>, i32 // expected-remark {{'w' operand #2 (value): address}}
  return
}

// -----

llvm.func @rocdl_raw_ptr_buffer(%rsrc: !llvm.ptr<8>, %i: i32) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : i32 // expected-remark {{'w': address-only, 3 address operand(s)}}
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %o = llvm.mul %i, %w : i32 // expected-remark {{'w' operand #1 (value): pass-through}}
  // expected-remark@+2 {{'w' operand #2 (value): address}}
  // expected-remark@+1 {{'w' operand #1 (value): address}}
  %v = rocdl.raw.ptr.buffer.load %rsrc, %o, %w, %c0 : f32
  rocdl.raw.ptr.buffer.store %v, %rsrc, %o, %c0, %c0 : f32 // expected-remark {{'w' operand #2 (value): address}}
  llvm.return
}

// -----

// Index dialect and affine.apply without division are address arithmetic;
// shifting left by a non-parameter too.
func.func @index_affine_shift(%m: memref<?xf32>, %i: index, %j: i32) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : index // expected-remark {{'w': address-only, 2 address operand(s)}}
  %a = index.mul %i, %w // expected-remark {{'w' operand #1 (value): pass-through}}
  // expected-remark@+2 {{'w' operand #1 (value): pass-through}}
  // expected-remark@+1 {{'w' operand #0 (value): pass-through}}
  %b = affine.apply affine_map<(d0)[s0] -> (d0 * 4 + s0)>(%a)[%w]
  %c = arith.index_cast %b : index to i32 // expected-remark {{'w' operand #0 (value): pass-through}}
  %c2 = arith.constant 2 : i32
  %d = arith.shli %c, %c2 : i32 // expected-remark {{'w' operand #0 (value): pass-through}}
  %e = arith.extsi %d : i32 to i64 // expected-remark {{'w' operand #0 (value): pass-through}}
  %f = arith.index_cast %e : i64 to index // expected-remark {{'w' operand #0 (value): pass-through}}
  %v = memref.load %m[%f] : memref<?xf32> // expected-remark {{'w' operand #1 (value): address}}
  memref.store %v, %m[%b] : memref<?xf32> // expected-remark {{'w' operand #2 (value): address}}
  return
}

// -----

// A pointer advanced by the stride each iteration is address-only.
func.func @loop_carried(%m: memref<?xf32>, %n: index) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : index // expected-remark {{'w': address-only, 2 address operand(s)}}
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%p = %c0) -> (index) {
    %v = memref.load %m[%p] : memref<?xf32> // expected-remark {{'w' operand #1 (value): address}}
    memref.store %v, %m[%k] : memref<?xf32>
    // expected-remark@+2 {{'w' operand #1 (value): pass-through}}
    // expected-remark@+1 {{'w' operand #0 (value): pass-through}}
    %next = arith.addi %p, %w : index
    scf.yield %next : index // expected-remark {{'w' operand #0 (value): pass-through}}
  }
  %last = memref.load %m[%r] : memref<?xf32> // expected-remark {{'w' operand #1 (value): address}}
  memref.store %last, %m[%c0] : memref<?xf32>
  return
}

// -----

// scf.if results and cf successor operands pass the stride on.
func.func @if_and_cf(%m: memref<?xf32>, %i: index, %flag: i1) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : index // expected-remark {{'w': address-only, 1 address operand(s)}}
  %o = scf.if %flag -> (index) {
    %a = arith.muli %i, %w : index // expected-remark {{'w' operand #1 (value): pass-through}}
    scf.yield %a : index // expected-remark {{'w' operand #0 (value): pass-through}}
  } else {
    scf.yield %i : index
  }
  cf.br ^bb1(%o : index) // expected-remark {{'w' operand #0 (value): pass-through}}
^bb1(%x: index):
  %v = memref.load %m[%x] : memref<?xf32> // expected-remark {{'w' operand #1 (value): address}}
  memref.store %v, %m[%i] : memref<?xf32>
  return
}
