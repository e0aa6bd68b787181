// RUN: fly-opt %s -split-input-file -verify-diagnostics --test-stride-use-analysis \
// RUN:   --mlir-print-op-on-diagnostic=false -o /dev/null

// A memref carries a parameter in its address part (offset, strides) or in
// its sizes. Accesses read the address part; sizes are metadata unless
// something reads them back: memref.dim, extract_strided_metadata, a masked
// vector.transfer (no in_bounds), an AMD buffer resource's num_records
// (amdgpu.raw_buffer_*, amdgpu.fat_raw_buffer_cast), memref.copy.

// Offsets and strides of reinterpret_cast and subview reach addresses; the
// sizes reach nothing that reads them.
func.func @offsets_strides_sizes(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : index // expected-remark {{'w': address-only, 2 address operand(s)}}
  %s = spec.param "s" = 16 : index // expected-remark {{'s': address-only, 0 address operand(s)}}
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-remark@+3 {{'w' operand #3 (value): pass-through}}
  // expected-remark@+2 {{'w' operand #1 (value): pass-through}}
  // expected-remark@+1 {{'s' operand #2 (value): pass-through}}
  %v = memref.reinterpret_cast %m to offset: [%w], sizes: [%s, 4], strides: [%w, 1]
      : memref<?xf32> to memref<?x4xf32, strided<[?, 1], offset: ?>>
  // expected-remark@+2 {{'w' operand #0 (view address): address}}
  // expected-remark@+1 {{'s' operand #0 (view sizes): not read}}
  %x = memref.load %v[%i, %c0] : memref<?x4xf32, strided<[?, 1], offset: ?>>
  // expected-remark@+3 {{'s' operand #2 (value): pass-through}}
  // expected-remark@+2 {{'w' operand #0 (view address): pass-through}}
  // expected-remark@+1 {{'s' operand #0 (view sizes): not read}}
  %sub = memref.subview %v[%i, 0] [%s, 2] [%c1, 2]
      : memref<?x4xf32, strided<[?, 1], offset: ?>> to memref<?x2xf32, strided<[?, 2], offset: ?>>
  // expected-remark@+2 {{'s' operand #1 (view sizes): not read}}
  // expected-remark@+1 {{'w' operand #1 (view address): address}}
  memref.store %x, %sub[%c0, %c1] : memref<?x2xf32, strided<[?, 2], offset: ?>>
  return
}

// -----

// Sizes read back through memref.dim and extract_strided_metadata reach
// their users like any value.
func.func @sizes_read_back(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : index // expected-remark {{'w': address-only, 1 address operand(s)}}
  %s = spec.param "s" = 16 : index // expected-remark {{'s': 1 blocking use(s), first: comparison by 'arith.cmpi'}}
  %c0 = arith.constant 0 : index
  // expected-remark@+2 {{'w' operand #2 (value): pass-through}}
  // expected-remark@+1 {{'s' operand #1 (value): pass-through}}
  %v = memref.reinterpret_cast %m to offset: [0], sizes: [%s], strides: [%w]
      : memref<?xf32> to memref<?xf32, strided<[?]>>
  // expected-remark@+2 {{'w' operand #0 (view address): not read}}
  // expected-remark@+1 {{'s' operand #0 (view sizes): pass-through}}
  %d = memref.dim %v, %c0 : memref<?xf32, strided<[?]>>
  %in = arith.cmpi ult, %i, %d : index // expected-remark {{'s' operand #1 (value): blocking (comparison)}}
  // expected-remark@+2 {{'w' operand #0 (view address): pass-through}}
  // expected-remark@+1 {{'s' operand #0 (view sizes): pass-through}}
  %base, %off, %size, %stride = memref.extract_strided_metadata %v
      : memref<?xf32, strided<[?]>> -> memref<f32>, index, index, index
  %o = arith.muli %i, %stride : index // expected-remark {{'w' operand #1 (value): pass-through}}
  %x = memref.load %m[%o] : memref<?xf32> // expected-remark {{'w' operand #1 (value): address}}
  return
}

// -----

// A transfer without in_bounds masks by the view's sizes; with in_bounds it
// reads only the address part. A stride parameter is fine either way.
func.func @transfer_masks(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %s = spec.param "s" = 16 : index // expected-remark {{'s': 1 blocking use(s), first: size-read-back by 'vector.transfer_read'}}
  %t = spec.param "t" = 32 : index // expected-remark {{'t': address-only, 0 address operand(s)}}
  %w = spec.param "w" = 64 : index // expected-remark {{'w': address-only, 1 address operand(s)}}
  %pad = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %masked = memref.reinterpret_cast %m to offset: [0], sizes: [%s], strides: [1] // expected-remark {{'s' operand #1 (value): pass-through}}
      : memref<?xf32> to memref<?xf32, strided<[1]>>
  %r = vector.transfer_read %masked[%i], %pad : memref<?xf32, strided<[1]>>, vector<4xf32> // expected-remark {{'s' operand #0 (view sizes): blocking (size-read-back)}}
  %inb = memref.reinterpret_cast %m to offset: [0], sizes: [%t], strides: [1] // expected-remark {{'t' operand #1 (value): pass-through}}
      : memref<?xf32> to memref<?xf32, strided<[1]>>
  %q = vector.transfer_read %inb[%i], %pad {in_bounds = [true]} : memref<?xf32, strided<[1]>>, vector<4xf32> // expected-remark {{'t' operand #0 (view sizes): not read}}
  vector.transfer_write %q, %inb[%i] {in_bounds = [true]} : vector<4xf32>, memref<?xf32, strided<[1]>> // expected-remark {{'t' operand #1 (view sizes): not read}}
  %strided = memref.reinterpret_cast %m to offset: [0], sizes: [16], strides: [%w] // expected-remark {{'w' operand #1 (value): pass-through}}
      : memref<?xf32> to memref<16xf32, strided<[?]>>
  vector.transfer_write %r, %strided[%c0] : vector<4xf32>, memref<16xf32, strided<[?]>> // expected-remark {{'w' operand #1 (view address): address}}
  return
}

// -----

// amdgpu.raw_buffer_* build a buffer resource whose num_records comes from
// the view's sizes; fat_raw_buffer_cast too, unless validBytes gives it.
func.func @amd_buffers(%m: memref<?xf32>, %i: i32) attributes {spec.kernel} {
  %s = spec.param "s" = 16 : index // expected-remark {{'s': 2 blocking use(s), first: size-read-back by 'amdgpu.raw_buffer_load'}}
  %w = spec.param "w" = 64 : index // expected-remark {{'w': address-only, 1 address operand(s)}}
  %o = spec.param "o" = 4 : i32 // expected-remark {{'o': address-only, 1 address operand(s)}}
  %n = spec.param "n" = 256 : i64 // expected-remark {{'n': 1 blocking use(s), first: size-read-back by 'amdgpu.fat_raw_buffer_cast'}}
  %c0 = arith.constant 0 : index
  %sized = memref.reinterpret_cast %m to offset: [0], sizes: [%s], strides: [1] // expected-remark {{'s' operand #1 (value): pass-through}}
      : memref<?xf32> to memref<?xf32, strided<[1]>>
  %a = amdgpu.raw_buffer_load %sized[%i] : memref<?xf32, strided<[1]>>, i32 -> f32 // expected-remark {{'s' operand #0 (view sizes): blocking (size-read-back)}}
  %strided = memref.reinterpret_cast %m to offset: [0], sizes: [16], strides: [%w] // expected-remark {{'w' operand #1 (value): pass-through}}
      : memref<?xf32> to memref<16xf32, strided<[?]>>
  // expected-remark@+2 {{'o' operand #1 (value): address}}
  // expected-remark@+1 {{'w' operand #0 (view address): address}}
  %b = amdgpu.raw_buffer_load %strided[%o] : memref<16xf32, strided<[?]>>, i32 -> f32
  %fat = amdgpu.fat_raw_buffer_cast %sized // expected-remark {{'s' operand #0 (view sizes): blocking (size-read-back)}}
      : memref<?xf32, strided<[1]>> to memref<?xf32, strided<[1]>, #amdgpu.address_space<fat_raw_buffer>>
  // expected-remark@+2 {{'n' operand #1 (value): blocking (size-read-back)}}
  // expected-remark@+1 {{'s' operand #0 (view sizes): pass-through}}
  %bounded = amdgpu.fat_raw_buffer_cast %sized validBytes(%n)
      : memref<?xf32, strided<[1]>> to memref<?xf32, strided<[1]>, #amdgpu.address_space<fat_raw_buffer>>
  %x = memref.load %bounded[%c0] : memref<?xf32, strided<[1]>, #amdgpu.address_space<fat_raw_buffer>> // expected-remark {{'s' operand #0 (view sizes): not read}}
  return
}

// -----

// memref.copy walks its views' sizes.
func.func @copy_extent(%m: memref<?xf32>, %d: memref<?xf32>) attributes {spec.kernel} {
  %s = spec.param "s" = 16 : index // expected-remark {{'s': 2 blocking use(s), first: size-read-back by 'memref.copy'}}
  %v = memref.reinterpret_cast %m to offset: [0], sizes: [%s], strides: [1] // expected-remark {{'s' operand #1 (value): pass-through}}
      : memref<?xf32> to memref<?xf32, strided<[1]>>
  %u = memref.reinterpret_cast %d to offset: [0], sizes: [%s], strides: [1] // expected-remark {{'s' operand #1 (value): pass-through}}
      : memref<?xf32> to memref<?xf32, strided<[1]>>
  // expected-remark@+2 {{'s' operand #0 (view sizes): blocking (size-read-back)}}
  // expected-remark@+1 {{'s' operand #1 (view sizes): blocking (size-read-back)}}
  memref.copy %v, %u : memref<?xf32, strided<[1]>> to memref<?xf32, strided<[1]>>
  return
}

// -----

// Shape changes keep the facets apart; expand_shape's new sizes make its
// strides; assume_alignment and casts keep the layout.
func.func @shape_changes(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : index // expected-remark {{'w': address-only, 2 address operand(s)}}
  %s = spec.param "s" = 16 : index // expected-remark {{'s': address-only, 1 address operand(s)}}
  %c0 = arith.constant 0 : index
  // expected-remark@+2 {{'w' operand #2 (value): pass-through}}
  // expected-remark@+1 {{'s' operand #1 (value): pass-through}}
  %v = memref.reinterpret_cast %m to offset: [0], sizes: [%s, 4], strides: [%w, 1]
      : memref<?xf32> to memref<?x4xf32, strided<[?, 1]>>
  // expected-remark@+2 {{'w' operand #1 (value): pass-through}}
  // expected-remark@+1 {{'s' operand #2 (value): pass-through}}
  %dense = memref.reinterpret_cast %m to offset: [%w], sizes: [%s, 4], strides: [4, 1]
      : memref<?xf32> to memref<?x4xf32, strided<[4, 1], offset: ?>>
  // expected-remark@+2 {{'w' operand #0 (view address): pass-through}}
  // expected-remark@+1 {{'s' operand #0 (view sizes): pass-through}}
  %flat = memref.collapse_shape %dense [[0, 1]]
      : memref<?x4xf32, strided<[4, 1], offset: ?>> into memref<?xf32, strided<[1], offset: ?>>
  // expected-remark@+2 {{'w' operand #0 (view address): address}}
  // expected-remark@+1 {{'s' operand #0 (view sizes): not read}}
  %z = memref.load %flat[%i] : memref<?xf32, strided<[1], offset: ?>>
  // expected-remark@+2 {{'w' operand #0 (view address): pass-through}}
  // expected-remark@+1 {{'s' operand #0 (view sizes): pass-through}}
  %a = memref.assume_alignment %v, 16 : memref<?x4xf32, strided<[?, 1]>>
  // expected-remark@+2 {{'w' operand #0 (view address): pass-through}}
  // expected-remark@+1 {{'s' operand #0 (view sizes): pass-through}}
  %c = memref.cast %a : memref<?x4xf32, strided<[?, 1]>> to memref<?x?xf32, strided<[?, 1]>>
  // expected-remark@+2 {{'w' operand #0 (view address): address}}
  // expected-remark@+1 {{'s' operand #0 (view sizes): not read}}
  %x = memref.load %c[%i, %c0] : memref<?x?xf32, strided<[?, 1]>>
  %e = memref.expand_shape %m [[0, 1]] output_shape [%s, 4] : memref<?xf32> into memref<?x4xf32> // expected-remark {{'s' operand #1 (value): pass-through}}
  // expected-remark@+2 {{'s' operand #0 (view sizes): not read}}
  // expected-remark@+1 {{'s' operand #0 (view address): address}}
  %y = memref.load %e[%i, %c0] : memref<?x4xf32>
  return
}
