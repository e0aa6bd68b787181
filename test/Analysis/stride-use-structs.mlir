// RUN: fly-opt %s -split-input-file -verify-diagnostics --test-stride-use-analysis \
// RUN:   --mlir-print-op-on-diagnostic=false -o /dev/null

// Struct fields are tracked one by one: a parameter inserted into field i
// reaches what `extractvalue [i]` of that struct reaches, through structs
// derived from it by inserting into other fields, iter_args, block
// arguments and region results. Other fields do not affect it.

// A fat pointer {buffer resource, offset}: the offset field carries the
// stride into buffer loads; the resource field is compared, which keeps
// nothing that is not in it.
func.func @fat_pointer(%rsrc: !llvm.ptr<8>, %i: i32) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : i32 // expected-remark {{'w': address-only, 1 address operand(s)}}
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %u = llvm.mlir.undef : !llvm.struct<(ptr<8>, i32)>
  %s0 = llvm.insertvalue %rsrc, %u[0] : !llvm.struct<(ptr<8>, i32)>
  %o = llvm.mul %i, %w : i32 // expected-remark {{'w' operand #1 (value): pass-through}}
  %s1 = llvm.insertvalue %o, %s0[1] : !llvm.struct<(ptr<8>, i32)> // expected-remark {{'w' operand #1 (value): pass-through}}
  %r = llvm.extractvalue %s1[0] : !llvm.struct<(ptr<8>, i32)> // expected-remark {{'w' operand #0 (field 1): not read}}
  %off = llvm.extractvalue %s1[1] : !llvm.struct<(ptr<8>, i32)> // expected-remark {{'w' operand #0 (field 1): pass-through}}
  %v = rocdl.raw.ptr.buffer.load %r, %off, %c0, %c0 : f32 // expected-remark {{'w' operand #1 (value): address}}
  %null = llvm.mlir.zero : !llvm.ptr<8>
  %same = llvm.icmp "eq" %r, %null : !llvm.ptr<8>
  return
}

// -----

// The field holding the parameter compared, stored, or used as a bound
// keeps it; overwriting the field drops it.
func.func @field_uses(%p: !llvm.ptr, %i: i64, %n: index) attributes {spec.kernel} {
  %a = spec.param "a" = 8 : i64 // expected-remark {{'a': 1 blocking use(s), first: comparison by 'llvm.icmp'}}
  %b = spec.param "b" = 16 : i64 // expected-remark {{'b': 1 blocking use(s), first: stored-data by 'llvm.store'}}
  %c = spec.param "c" = 32 : i64 // expected-remark {{'c': address-only, 0 address operand(s)}}
  %u = llvm.mlir.undef : !llvm.struct<(i64, i64, i64)>
  %s0 = llvm.insertvalue %a, %u[0] : !llvm.struct<(i64, i64, i64)> // expected-remark {{'a' operand #1 (value): pass-through}}
  // expected-remark@+2 {{'b' operand #1 (value): pass-through}}
  // expected-remark@+1 {{'a' operand #0 (field 0): pass-through}}
  %s1 = llvm.insertvalue %b, %s0[1] : !llvm.struct<(i64, i64, i64)>
  // expected-remark@+3 {{'c' operand #1 (value): pass-through}}
  // expected-remark@+2 {{'b' operand #0 (field 1): pass-through}}
  // expected-remark@+1 {{'a' operand #0 (field 0): pass-through}}
  %s2 = llvm.insertvalue %c, %s1[2] : !llvm.struct<(i64, i64, i64)>
  // expected-remark@+3 {{'c' operand #0 (field 2): not read}}
  // expected-remark@+2 {{'b' operand #0 (field 1): not read}}
  // expected-remark@+1 {{'a' operand #0 (field 0): pass-through}}
  %x = llvm.extractvalue %s2[0] : !llvm.struct<(i64, i64, i64)>
  %cmp = llvm.icmp "slt" %x, %i : i64 // expected-remark {{'a' operand #0 (value): blocking (comparison)}}
  // expected-remark@+3 {{'c' operand #0 (field 2): not read}}
  // expected-remark@+2 {{'b' operand #0 (field 1): pass-through}}
  // expected-remark@+1 {{'a' operand #0 (field 0): not read}}
  %y = llvm.extractvalue %s2[1] : !llvm.struct<(i64, i64, i64)>
  llvm.store %y, %p : i64, !llvm.ptr // expected-remark {{'b' operand #0 (value): blocking (stored-data)}}
  // expected-remark@+3 {{'c' operand #0 (field 2): not read}}
  // expected-remark@+2 {{'b' operand #0 (field 1): pass-through}}
  // expected-remark@+1 {{'a' operand #0 (field 0): pass-through}}
  %s3 = llvm.insertvalue %i, %s2[2] : !llvm.struct<(i64, i64, i64)>
  // expected-remark@+2 {{'b' operand #0 (field 1): not read}}
  // expected-remark@+1 {{'a' operand #0 (field 0): not read}}
  %z = llvm.extractvalue %s3[2] : !llvm.struct<(i64, i64, i64)>
  %g = llvm.getelementptr %p[%z] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %v = llvm.load %g : !llvm.ptr -> f32
  return
}

// -----

// A fat pointer advanced by the stride each iteration of an scf.for, its
// offset field extracted for the access.
func.func @advance_in_loop(%rsrc: !llvm.ptr<8>, %n: index) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : i32 // expected-remark {{'w': address-only, 1 address operand(s)}}
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = llvm.mlir.constant(0 : i32) : i32
  %u = llvm.mlir.undef : !llvm.struct<(ptr<8>, i32)>
  %s0 = llvm.insertvalue %rsrc, %u[0] : !llvm.struct<(ptr<8>, i32)>
  %s1 = llvm.insertvalue %z, %s0[1] : !llvm.struct<(ptr<8>, i32)>
  %last = scf.for %k = %c0 to %n step %c1 iter_args(%fp = %s1) -> (!llvm.struct<(ptr<8>, i32)>) {
    %r = llvm.extractvalue %fp[0] : !llvm.struct<(ptr<8>, i32)> // expected-remark {{'w' operand #0 (field 1): not read}}
    %off = llvm.extractvalue %fp[1] : !llvm.struct<(ptr<8>, i32)> // expected-remark {{'w' operand #0 (field 1): pass-through}}
    %v = rocdl.raw.ptr.buffer.load %r, %off, %z, %z : f32 // expected-remark {{'w' operand #1 (value): address}}
    // expected-remark@+2 {{'w' operand #1 (value): pass-through}}
    // expected-remark@+1 {{'w' operand #0 (value): pass-through}}
    %next = llvm.add %off, %w : i32
    // expected-remark@+2 {{'w' operand #1 (value): pass-through}}
    // expected-remark@+1 {{'w' operand #0 (field 1): not read}}
    %fp2 = llvm.insertvalue %next, %fp[1] : !llvm.struct<(ptr<8>, i32)>
    scf.yield %fp2 : !llvm.struct<(ptr<8>, i32)> // expected-remark {{'w' operand #0 (field 1): pass-through}}
  }
  return
}

// -----

// Nested structs and cf block arguments: the leaf is what counts.
func.func @nested(%p: !llvm.ptr, %i: i64, %flag: i1) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : i64 // expected-remark {{'w': address-only, 1 address operand(s)}}
  %u = llvm.mlir.undef : !llvm.struct<(i64, struct<(ptr, i64)>)>
  %s0 = llvm.insertvalue %w, %u[1, 1] : !llvm.struct<(i64, struct<(ptr, i64)>)> // expected-remark {{'w' operand #1 (value): pass-through}}
  %s1 = llvm.insertvalue %i, %s0[0] : !llvm.struct<(i64, struct<(ptr, i64)>)> // expected-remark {{'w' operand #0 (field 2): pass-through}}
  cf.cond_br %flag, ^use(%s1 : !llvm.struct<(i64, struct<(ptr, i64)>)>), ^exit // expected-remark {{'w' operand #1 (field 2): pass-through}}
^use(%s: !llvm.struct<(i64, struct<(ptr, i64)>)>):
  %inner = llvm.extractvalue %s[1] : !llvm.struct<(i64, struct<(ptr, i64)>)> // expected-remark {{'w' operand #0 (field 2): pass-through}}
  %stride = llvm.extractvalue %inner[1] : !llvm.struct<(ptr, i64)> // expected-remark {{'w' operand #0 (field 1): pass-through}}
  %head = llvm.extractvalue %s[0] : !llvm.struct<(i64, struct<(ptr, i64)>)> // expected-remark {{'w' operand #0 (field 2): not read}}
  %cmp = llvm.icmp "eq" %head, %i : i64
  %g = llvm.getelementptr %p[%stride] : (!llvm.ptr, i64) -> !llvm.ptr, f32 // expected-remark {{'w' operand #1 (value): pass-through}}
  %v = llvm.load %g : !llvm.ptr -> f32 // expected-remark {{'w' operand #0 (value): address}}
  cf.br ^exit
^exit:
  return
}

// -----

// Arrays are one leaf: inserting into one element does not clear the
// others, and any element read carries the parameter.
func.func @array_field(%p: !llvm.ptr, %i: i64) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : i64 // expected-remark {{'w': 1 blocking use(s), first: comparison by 'llvm.icmp'}}
  %u = llvm.mlir.undef : !llvm.array<2 x i64>
  %a0 = llvm.insertvalue %w, %u[0] : !llvm.array<2 x i64> // expected-remark {{'w' operand #1 (value): pass-through}}
  %a1 = llvm.insertvalue %i, %a0[1] : !llvm.array<2 x i64> // expected-remark {{'w' operand #0 (value): pass-through}}
  %e = llvm.extractvalue %a1[1] : !llvm.array<2 x i64> // expected-remark {{'w' operand #0 (value): pass-through}}
  %cmp = llvm.icmp "eq" %e, %i : i64 // expected-remark {{'w' operand #0 (value): blocking (comparison)}}
  return
}

// -----

// A whole struct stored or returned is data, whatever field holds the
// parameter.
func.func @whole_struct(%p: !llvm.ptr, %i: i64) -> !llvm.struct<(i64, i64)> attributes {spec.kernel} {
  %w = spec.param "w" = 64 : i64 // expected-remark {{'w': 1 blocking use(s), first: stored-data by 'llvm.store'}}
  %h = spec.param "h" = 32 : i64 // expected-remark {{'h': 1 blocking use(s), first: return-operand by 'func.return'}}
  %u = llvm.mlir.undef : !llvm.struct<(i64, i64)>
  %s = llvm.insertvalue %w, %u[1] : !llvm.struct<(i64, i64)> // expected-remark {{'w' operand #1 (value): pass-through}}
  llvm.store %s, %p : !llvm.struct<(i64, i64)>, !llvm.ptr // expected-remark {{'w' operand #0 (field 1): blocking (stored-data)}}
  %t = llvm.insertvalue %h, %u[0] : !llvm.struct<(i64, i64)> // expected-remark {{'h' operand #1 (value): pass-through}}
  return %t : !llvm.struct<(i64, i64)> // expected-remark {{'h' operand #0 (field 0): blocking (return-operand)}}
}

// -----

// A buffer resource keeps its bound apart from its address inside a fat
// pointer: a parameter in num_records still reaches the access as a bound,
// after the offset field is written.
func.func @bound_in_fat_pointer(%p: !llvm.ptr<1>, %n: i32, %i: i32) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : i32 // expected-remark {{'w': 1 blocking use(s), first: size-read-back by 'rocdl.raw.ptr.buffer.load'}}
  %z16 = llvm.mlir.constant(0 : i16) : i16
  %f = llvm.mlir.constant(159744 : i32) : i32
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %bytes = arith.muli %n, %w : i32 // expected-remark {{'w' operand #1 (value): pass-through}}
  %rec = arith.extui %bytes : i32 to i64 // expected-remark {{'w' operand #0 (value): pass-through}}
  %r = rocdl.make.buffer.rsrc %p, %z16, %rec, %f : !llvm.ptr<1> to !llvm.ptr<8> // expected-remark {{'w' operand #2 (value): pass-through}}
  %u = llvm.mlir.undef : !llvm.struct<(ptr<8>, i32)>
  %s0 = llvm.insertvalue %r, %u[0] : !llvm.struct<(ptr<8>, i32)> // expected-remark {{'w' operand #1 (buffer bound): pass-through}}
  %fp = llvm.insertvalue %i, %s0[1] : !llvm.struct<(ptr<8>, i32)> // expected-remark {{'w' operand #0 (field 0 bound): pass-through}}
  %rr = llvm.extractvalue %fp[0] : !llvm.struct<(ptr<8>, i32)> // expected-remark {{'w' operand #0 (field 0 bound): pass-through}}
  %oo = llvm.extractvalue %fp[1] : !llvm.struct<(ptr<8>, i32)> // expected-remark {{'w' operand #0 (field 0 bound): not read}}
  %v = rocdl.raw.ptr.buffer.load %rr, %oo, %c0, %c0 : i32 // expected-remark {{'w' operand #0 (buffer bound): blocking (size-read-back)}}
  return
}

// -----

// Selecting between fat pointers (what canonicalize makes of an scf.if
// yielding them) passes the chosen one on; its condition is a condition.
func.func @select_fat_pointers(%rsrc: !llvm.ptr<8>, %i: i32, %c: i1) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : i32 // expected-remark {{'w': address-only, 1 address operand(s)}}
  %z = llvm.mlir.constant(0 : i32) : i32
  %u = llvm.mlir.undef : !llvm.struct<(ptr<8>, i32)>
  %s0 = llvm.insertvalue %rsrc, %u[0] : !llvm.struct<(ptr<8>, i32)>
  %o = llvm.mul %i, %w : i32 // expected-remark {{'w' operand #1 (value): pass-through}}
  %a = llvm.insertvalue %o, %s0[1] : !llvm.struct<(ptr<8>, i32)> // expected-remark {{'w' operand #1 (value): pass-through}}
  %b = llvm.insertvalue %i, %s0[1] : !llvm.struct<(ptr<8>, i32)>
  %sel = arith.select %c, %a, %b : !llvm.struct<(ptr<8>, i32)> // expected-remark {{'w' operand #1 (field 1): pass-through}}
  %off = llvm.extractvalue %sel[1] : !llvm.struct<(ptr<8>, i32)> // expected-remark {{'w' operand #0 (field 1): pass-through}}
  %r = llvm.extractvalue %sel[0] : !llvm.struct<(ptr<8>, i32)> // expected-remark {{'w' operand #0 (field 1): not read}}
  %v = rocdl.raw.ptr.buffer.load %r, %off, %z, %z : f32 // expected-remark {{'w' operand #1 (value): address}}
  %lsel = llvm.select %c, %a, %b : i1, !llvm.struct<(ptr<8>, i32)> // expected-remark {{'w' operand #1 (field 1): pass-through}}
  %h = spec.param "h" = 1 : i1 // expected-remark {{'h': 1 blocking use(s), first: clamp by 'arith.select'}}
  // expected-remark@+2 {{'w' operand #1 (field 1): pass-through}}
  // expected-remark@+1 {{'h' operand #0 (value): blocking (clamp)}}
  %hsel = arith.select %h, %a, %b : !llvm.struct<(ptr<8>, i32)>
  return
}
