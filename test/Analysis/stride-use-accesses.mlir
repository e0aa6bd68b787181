// RUN: fly-opt %s -split-input-file -verify-diagnostics --test-stride-use-analysis \
// RUN:   --mlir-print-op-on-diagnostic=false -o /dev/null

// Memory accesses: index and offset operands are addresses; stored values,
// masks, padding, element counts and policy bits are not.

func.func @memref_and_vector(%m: memref<?xf32>, %i: index, %mask: vector<4xi1>) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : index // expected-remark {{'w': address-only, 7 address operand(s)}}
  %o = arith.muli %i, %w : index // expected-remark {{'w' operand #1 (value): pass-through}}
  %x = memref.load %m[%o] : memref<?xf32> // expected-remark {{'w' operand #1 (value): address}}
  memref.store %x, %m[%o] : memref<?xf32> // expected-remark {{'w' operand #2 (value): address}}
  %r = memref.atomic_rmw addf %x, %m[%o] : (f32, memref<?xf32>) -> f32 // expected-remark {{'w' operand #2 (value): address}}
  %v = vector.load %m[%o] : memref<?xf32>, vector<4xf32> // expected-remark {{'w' operand #1 (value): address}}
  vector.store %v, %m[%o] : memref<?xf32>, vector<4xf32> // expected-remark {{'w' operand #2 (value): address}}
  %ml = vector.maskedload %m[%o], %mask, %v : memref<?xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32> // expected-remark {{'w' operand #1 (value): address}}
  vector.maskedstore %m[%o], %mask, %ml : memref<?xf32>, vector<4xi1>, vector<4xf32> // expected-remark {{'w' operand #1 (value): address}}
  return
}

// -----

// Stored data, masks and padding keep the parameter.
func.func @data_and_masks(%m: memref<?xi32>, %f: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %d = spec.param "data" = 7 : i32 // expected-remark {{'data': 1 blocking use(s), first: stored-data by 'memref.store'}}
  %n = spec.param "lanes" = 3 : index // expected-remark {{'lanes': 1 blocking use(s), first: mask-or-padding by 'vector.create_mask'}}
  %p = spec.param "pad" = 0 : i32 // expected-remark {{'pad': 1 blocking use(s), first: mask-or-padding by 'vector.transfer_read'}}
  memref.store %d, %m[%i] : memref<?xi32> // expected-remark {{'data' operand #0 (value): blocking (stored-data)}}
  %mask = vector.create_mask %n : vector<4xi1> // expected-remark {{'lanes' operand #0 (value): blocking (mask-or-padding)}}
  %t = vector.transfer_read %m[%i], %p {in_bounds = [true]} : memref<?xi32>, vector<4xi32> // expected-remark {{'pad' operand #2 (value): blocking (mask-or-padding)}}
  return
}

// -----

// vector.gather: a vector of offsets built from the stride is an address.
func.func @gather(%m: memref<?xf32>, %mask: vector<4xi1>, %pass: vector<4xf32>) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : i32 // expected-remark {{'w': address-only, 1 address operand(s)}}
  %c0 = arith.constant 0 : index
  %lanes = arith.constant dense<[0, 1, 2, 3]> : vector<4xi32>
  %splat = vector.broadcast %w : i32 to vector<4xi32> // expected-remark {{'w' operand #0 (value): pass-through}}
  %offsets = arith.muli %lanes, %splat : vector<4xi32> // expected-remark {{'w' operand #1 (value): pass-through}}
  %g = vector.gather %m[%c0] [%offsets], %mask, %pass // expected-remark {{'w' operand #2 (value): address}}
      : memref<?xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  return
}

// -----

// An affine map that divides another operand, not the parameter, is address
// arithmetic: (tid floordiv 16) * W + tid mod 16. Dividing the parameter is
// not.
#tile = affine_map<(d0)[s0] -> ((d0 floordiv 16) * s0 + d0 mod 16)>
#half = affine_map<(d0)[s0] -> (d0 + s0 floordiv 2)>
func.func @affine_maps(%m: memref<?xf32>, %tid: index) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : index // expected-remark {{'w': address-only, 3 address operand(s)}}
  %h = spec.param "h" = 32 : index // expected-remark {{'h': 2 blocking use(s), first: division by 'affine.apply'}}
  %o = affine.apply #tile(%tid)[%w] // expected-remark {{'w' operand #1 (value): pass-through}}
  %x = memref.load %m[%o] : memref<?xf32> // expected-remark {{'w' operand #1 (value): address}}
  %y = affine.load %m[(%tid floordiv 16) * symbol(%w) + %tid mod 16] : memref<?xf32> // expected-remark {{'w' operand #2 (value): address}}
  affine.store %y, %m[%tid + symbol(%w)] : memref<?xf32> // expected-remark {{'w' operand #3 (value): address}}
  %q = affine.apply #half(%tid)[%h] // expected-remark {{'h' operand #1 (value): blocking (division)}}
  %z = affine.load %m[%tid + symbol(%h) floordiv 2] : memref<?xf32> // expected-remark {{'h' operand #2 (value): blocking (division)}}
  return
}

// -----

// affine.linearize_index is address arithmetic (a multiply-add over the
// basis); affine.delinearize_index divides.
func.func @linearize(%m: memref<?xf32>, %row: index, %col: index) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : index // expected-remark {{'w': address-only, 1 address operand(s)}}
  %b = spec.param "b" = 8 : index // expected-remark {{'b': 1 blocking use(s), first: division by 'affine.delinearize_index'}}
  %o = affine.linearize_index [%row, %col] by (16, %w) : index // expected-remark {{'w' operand #2 (value): pass-through}}
  %x = memref.load %m[%o] : memref<?xf32> // expected-remark {{'w' operand #1 (value): address}}
  %d:2 = affine.delinearize_index %row into (%b, 8) : index, index // expected-remark {{'b' operand #1 (value): blocking (division)}}
  return
}

// -----

// Async and matrix accesses.
func.func @async_and_matrix(%g: memref<?xf16>, %lds: memref<1024xf16, 3>, %i: index) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : index // expected-remark {{'w': address-only, 4 address operand(s)}}
  %n = spec.param "n" = 4 : index // expected-remark {{'n': 1 blocking use(s), first: mask-or-padding by 'nvgpu.device_async_copy'}}
  %c0 = arith.constant 0 : index
  %o = arith.muli %i, %w : index // expected-remark {{'w' operand #1 (value): pass-through}}
  amdgpu.gather_to_lds %g[%o], %lds[%c0] : vector<2xf16>, memref<?xf16>, memref<1024xf16, 3> // expected-remark {{'w' operand #1 (value): address}}
  // expected-remark@+2 {{'n' operand #4 (value): blocking (mask-or-padding)}}
  // expected-remark@+1 {{'w' operand #3 (value): address}}
  %t = nvgpu.device_async_copy %g[%o], %lds[%c0], 8, %n : memref<?xf16> to memref<1024xf16, 3>
  %a = gpu.subgroup_mma_load_matrix %g[%o] {leadDimension = 32 : index} : memref<?xf16> -> !gpu.mma_matrix<16x16xf16, "COp"> // expected-remark {{'w' operand #1 (value): address}}
  gpu.subgroup_mma_store_matrix %a, %g[%o] {leadDimension = 32 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<?xf16> // expected-remark {{'w' operand #2 (value): address}}
  return
}

// -----

// Buffer resources: the base and stride of rocdl.make.buffer.rsrc are
// addresses, num_records is a bound every access checks, flags are policy.
func.func @buffer_resources(%base: !llvm.ptr<1>, %i: i32) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : i32 // expected-remark {{'w': address-only, 4 address operand(s)}}
  %s = spec.param "s" = 4 : i16 // expected-remark {{'s': address-only, 2 address operand(s)}}
  %n = spec.param "n" = 4096 : i64 // expected-remark {{'n': 1 blocking use(s), first: size-read-back by 'rocdl.raw.ptr.buffer.load'}}
  %f = spec.param "flags" = 159744 : i32 // expected-remark {{'flags': 1 blocking use(s), first: mask-or-padding by 'rocdl.make.buffer.rsrc'}}
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c4096 = llvm.mlir.constant(4096 : i64) : i64
  %cflags = llvm.mlir.constant(159744 : i32) : i32
  %c0s = llvm.mlir.constant(0 : i16) : i16
  %o = llvm.mul %i, %w : i32 // expected-remark {{'w' operand #1 (value): pass-through}}
  %g = llvm.getelementptr %base[%o] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32 // expected-remark {{'w' operand #1 (value): pass-through}}
  // expected-remark@+2 {{'s' operand #1 (value): pass-through}}
  // expected-remark@+1 {{'w' operand #0 (value): pass-through}}
  %r = rocdl.make.buffer.rsrc %g, %s, %c4096, %cflags : !llvm.ptr<1> to !llvm.ptr<8>
  // expected-remark@+2 {{'w' operand #1 (value): address}}
  // expected-remark@+1 {{'w', 's' operand #0 (value): address}}
  %v = rocdl.raw.ptr.buffer.load %r, %o, %c0, %c0 : f32
  // expected-remark@+2 {{'w' operand #2 (value): address}}
  // expected-remark@+1 {{'w', 's' operand #1 (value): address}}
  rocdl.raw.ptr.buffer.store %v, %r, %o, %c0, %c0 : f32
  %bounded = rocdl.make.buffer.rsrc %base, %c0s, %n, %cflags : !llvm.ptr<1> to !llvm.ptr<8> // expected-remark {{'n' operand #2 (value): pass-through}}
  %u = rocdl.raw.ptr.buffer.load %bounded, %c0, %c0, %c0 : f32 // expected-remark {{'n' operand #0 (buffer bound): blocking (size-read-back)}}
  %flagged = rocdl.make.buffer.rsrc %base, %c0s, %c4096, %f : !llvm.ptr<1> to !llvm.ptr<8> // expected-remark {{'flags' operand #3 (value): blocking (mask-or-padding)}}
  return
}

// -----

// LDS DMA: the resource's address, the LDS pointer and the offsets are
// addresses; the bound is read back; the per-lane size, the immediate offset
// and aux are `immarg`s of llvm.amdgcn.raw.ptr.buffer.load.lds (read from
// LLVM's intrinsic table), so they must stay compile-time immediates.
func.func @lds_dma(%rsrc: !llvm.ptr<8>, %base: !llvm.ptr<1>, %lds: !llvm.ptr<3>, %i: i32) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : i32 // expected-remark {{'w': address-only, 3 address operand(s)}}
  %n = spec.param "n" = 4096 : i64 // expected-remark {{'n': 1 blocking use(s), first: size-read-back by 'rocdl.raw.ptr.buffer.load.lds'}}
  %sz = spec.param "size" = 4 : i32 // expected-remark {{'size': 1 blocking use(s), first: must-be-immediate by 'rocdl.raw.ptr.buffer.load.lds'}}
  %imm = spec.param "imm" = 256 : i32 // expected-remark {{'imm': 1 blocking use(s), first: must-be-immediate by 'rocdl.raw.ptr.buffer.load.lds'}}
  %pol = spec.param "aux" = 0 : i32 // expected-remark {{'aux': 1 blocking use(s), first: must-be-immediate by 'rocdl.raw.ptr.buffer.load.lds'}}
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c4 = llvm.mlir.constant(4 : i32) : i32
  %z16 = llvm.mlir.constant(0 : i16) : i16
  %f = llvm.mlir.constant(159744 : i32) : i32
  %o = llvm.mul %i, %w : i32 // expected-remark {{'w' operand #1 (value): pass-through}}
  rocdl.raw.ptr.buffer.load.lds %rsrc, %lds, %c4, %o, %c0, %c0, %c0 // expected-remark {{'w' operand #3 (value): address}}
  %g = llvm.getelementptr %base[%o] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32 // expected-remark {{'w' operand #1 (value): pass-through}}
  %l = llvm.getelementptr %lds[%o] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32 // expected-remark {{'w' operand #1 (value): pass-through}}
  // expected-remark@+2 {{'w' operand #0 (value): address}}
  // expected-remark@+1 {{'w' operand #1 (value): address}}
  rocdl.global.load.lds %g, %l, 4, 0, 0
  %bounded = rocdl.make.buffer.rsrc %base, %z16, %n, %f : !llvm.ptr<1> to !llvm.ptr<8> // expected-remark {{'n' operand #2 (value): pass-through}}
  // expected-remark@+2 {{'size' operand #2 (value): blocking (must-be-immediate)}}
  // expected-remark@+1 {{'n' operand #0 (buffer bound): blocking (size-read-back)}}
  rocdl.raw.ptr.buffer.load.lds %bounded, %lds, %sz, %c0, %c0, %c0, %c0
  // The immediate offset and aux: one value in both positions is still
  // classified per position.
  // expected-remark@+1 {{'imm' operand #5 (value): blocking (must-be-immediate)}}
  rocdl.raw.ptr.buffer.load.lds %rsrc, %lds, %c4, %c0, %c0, %imm, %c0
  // expected-remark@+1 {{'aux' operand #6 (value): blocking (must-be-immediate)}}
  rocdl.raw.ptr.buffer.load.lds %rsrc, %lds, %c4, %c0, %c0, %c0, %pol
  return
}

// -----

// LLVM's masked memory intrinsics (what vector-to-llvm emits): the pointer,
// or vector of pointers, is an address; the mask and pass-through are not.
func.func @llvm_masked(%p: !llvm.ptr, %ps: vector<4x!llvm.ptr>, %mask: vector<4xi1>, %pass: vector<4xf32>, %v: vector<4xf32>) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : i64 // expected-remark {{'w': address-only, 4 address operand(s)}}
  %m = spec.param "m" = 1 : i1 // expected-remark {{'m': 2 blocking use(s), first: mask-or-padding by 'llvm.intr.masked.load'}}
  %g = llvm.getelementptr %p[%w] : (!llvm.ptr, i64) -> !llvm.ptr, f32 // expected-remark {{'w' operand #1 (value): pass-through}}
  %l = llvm.intr.masked.load %g, %mask, %pass {alignment = 4 : i32} : (!llvm.ptr, vector<4xi1>, vector<4xf32>) -> vector<4xf32> // expected-remark {{'w' operand #0 (value): address}}
  llvm.intr.masked.store %v, %g, %mask {alignment = 4 : i32} : vector<4xf32>, vector<4xi1> into !llvm.ptr // expected-remark {{'w' operand #1 (value): address}}
  %gs = llvm.getelementptr %ps[%w] : (vector<4x!llvm.ptr>, i64) -> vector<4x!llvm.ptr>, f32 // expected-remark {{'w' operand #1 (value): pass-through}}
  %x = llvm.intr.masked.gather %gs, %mask, %pass {alignment = 4 : i32} : (vector<4x!llvm.ptr>, vector<4xi1>, vector<4xf32>) -> vector<4xf32> // expected-remark {{'w' operand #0 (value): address}}
  llvm.intr.masked.scatter %v, %gs, %mask {alignment = 4 : i32} : vector<4xf32>, vector<4xi1> into vector<4x!llvm.ptr> // expected-remark {{'w' operand #1 (value): address}}
  %mv = vector.broadcast %m : i1 to vector<4xi1> // expected-remark {{'m' operand #0 (value): pass-through}}
  %l2 = llvm.intr.masked.load %p, %mv, %pass {alignment = 4 : i32} : (!llvm.ptr, vector<4xi1>, vector<4xf32>) -> vector<4xf32> // expected-remark {{'m' operand #1 (value): blocking (mask-or-padding)}}
  llvm.intr.masked.store %v, %p, %mv {alignment = 4 : i32} : vector<4xf32>, vector<4xi1> into !llvm.ptr // expected-remark {{'m' operand #2 (value): blocking (mask-or-padding)}}
  return
}
