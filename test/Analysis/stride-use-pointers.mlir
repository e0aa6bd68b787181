// RUN: fly-opt %s -split-input-file -verify-diagnostics --test-stride-use-analysis \
// RUN:   --mlir-print-op-on-diagnostic=false -o /dev/null

// Pointers are values too: a pointer computed from a parameter is followed
// through GEPs and casts like a view; only its use as an access address is a
// sink, anything else classifies by the usual rules.

// A GEP chain through casts into a load and a store address.
func.func @gep_chain_to_access(%p: !llvm.ptr, %i: i64) attributes {spec.kernel} {
  %w = spec.param "w" = 128 : i64 // expected-remark {{'w': address-only, 2 address operand(s)}}
  %o = llvm.mul %i, %w : i64 // expected-remark {{'w' operand #1 (value): pass-through}}
  %g = llvm.getelementptr %p[%o] : (!llvm.ptr, i64) -> !llvm.ptr, f32 // expected-remark {{'w' operand #1 (value): pass-through}}
  %a = llvm.addrspacecast %g : !llvm.ptr to !llvm.ptr<1> // expected-remark {{'w' operand #0 (value): pass-through}}
  %x = llvm.ptrtoint %a : !llvm.ptr<1> to i64 // expected-remark {{'w' operand #0 (value): pass-through}}
  %y = llvm.inttoptr %x : i64 to !llvm.ptr<1> // expected-remark {{'w' operand #0 (value): pass-through}}
  %v = llvm.load %y : !llvm.ptr<1> -> f32 // expected-remark {{'w' operand #0 (value): address}}
  %g2 = llvm.getelementptr inbounds %g[1] : (!llvm.ptr) -> !llvm.ptr, f32 // expected-remark {{'w' operand #0 (value): pass-through}}
  llvm.store %v, %g2 : f32, !llvm.ptr // expected-remark {{'w' operand #1 (value): address}}
  return
}

// -----

// An alignment check: ptrtoint, and, compare, branch.
func.func @alignment_check(%p: !llvm.ptr, %i: i64) attributes {spec.kernel} {
  %w = spec.param "w" = 128 : i64 // expected-remark {{'w': 1 blocking use(s), first: comparison by 'llvm.icmp'}}
  %g = llvm.getelementptr %p[%w] : (!llvm.ptr, i64) -> !llvm.ptr, f32 // expected-remark {{'w' operand #1 (value): pass-through}}
  %x = llvm.ptrtoint %g : !llvm.ptr to i64 // expected-remark {{'w' operand #0 (value): pass-through}}
  %c15 = llvm.mlir.constant(15 : i64) : i64
  %low = llvm.and %x, %c15 : i64 // expected-remark {{'w' operand #0 (value): pass-through}}
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %aligned = llvm.icmp "eq" %low, %c0 : i64 // expected-remark {{'w' operand #0 (value): blocking (comparison)}}
  llvm.cond_br %aligned, ^fast, ^slow
^fast:
  return
^slow:
  return
}

// -----

// A pointer comparison that ends a loop.
func.func @pointer_loop_end(%p: !llvm.ptr, %n: i64) attributes {spec.kernel} {
  %w = spec.param "w" = 128 : i64 // expected-remark {{'w': 1 blocking use(s), first: comparison by 'llvm.icmp'}}
  %end = llvm.getelementptr %p[%w] : (!llvm.ptr, i64) -> !llvm.ptr, f32 // expected-remark {{'w' operand #1 (value): pass-through}}
  %c1 = llvm.mlir.constant(1 : i64) : i64
  llvm.br ^loop(%p : !llvm.ptr)
^loop(%cur: !llvm.ptr):
  %v = llvm.load %cur : !llvm.ptr -> f32
  %next = llvm.getelementptr %cur[%c1] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %done = llvm.icmp "eq" %next, %end : !llvm.ptr // expected-remark {{'w' operand #1 (value): blocking (comparison)}}
  llvm.cond_br %done, ^exit, ^loop(%next : !llvm.ptr)
^exit:
  return
}

// -----

// The pointer itself stored to memory, and passed to a call.
func.func private @consume(!llvm.ptr)
func.func @pointer_escapes(%p: !llvm.ptr, %slot: !llvm.ptr) attributes {spec.kernel} {
  %w = spec.param "w" = 8 : i64 // expected-remark {{'w': 1 blocking use(s), first: stored-data by 'llvm.store'}}
  %h = spec.param "h" = 16 : i64 // expected-remark {{'h': 1 blocking use(s), first: call-operand by 'func.call'}}
  %g = llvm.getelementptr %p[%w] : (!llvm.ptr, i64) -> !llvm.ptr, f32 // expected-remark {{'w' operand #1 (value): pass-through}}
  llvm.store %g, %slot : !llvm.ptr, !llvm.ptr // expected-remark {{'w' operand #0 (value): blocking (stored-data)}}
  %q = llvm.getelementptr %p[%h] : (!llvm.ptr, i64) -> !llvm.ptr, f32 // expected-remark {{'h' operand #1 (value): pass-through}}
  func.call @consume(%q) : (!llvm.ptr) -> () // expected-remark {{'h' operand #0 (value): blocking (call-operand)}}
  return
}

// -----

// A pointer carried around an scf.for loop and advanced by the stride each
// iteration is address-only.
func.func @pointer_iter_args(%p: !llvm.ptr, %n: index) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : i64 // expected-remark {{'w': address-only, 1 address operand(s)}}
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%cur = %p) -> (!llvm.ptr) {
    %v = llvm.load %cur : !llvm.ptr -> i32 // expected-remark {{'w' operand #0 (value): address}}
    // expected-remark@+2 {{'w' operand #1 (value): pass-through}}
    // expected-remark@+1 {{'w' operand #0 (value): pass-through}}
    %next = llvm.getelementptr %cur[%w] : (!llvm.ptr, i64) -> !llvm.ptr, i32
    scf.yield %next : !llvm.ptr // expected-remark {{'w' operand #0 (value): pass-through}}
  }
  return
}

// -----

// Atomics, memcpy and memset: addresses are sinks; the value, the length and
// the fill byte are not addresses.
func.func @atomics_and_intrinsics(%p: !llvm.ptr, %q: !llvm.ptr) attributes {spec.kernel} {
  %w = spec.param "w" = 8 : i64 // expected-remark {{'w': address-only, 4 address operand(s)}}
  %n = spec.param "n" = 32 : i64 // expected-remark {{'n': 2 blocking use(s), first: size-read-back by 'llvm.intr.memcpy'}}
  %v = spec.param "v" = 3 : i32 // expected-remark {{'v': 1 blocking use(s), first: stored-data by 'llvm.atomicrmw'}}
  %g = llvm.getelementptr %p[%w] : (!llvm.ptr, i64) -> !llvm.ptr, i32 // expected-remark {{'w' operand #1 (value): pass-through}}
  // expected-remark@+2 {{'v' operand #1 (value): blocking (stored-data)}}
  // expected-remark@+1 {{'w' operand #0 (value): address}}
  %old = llvm.atomicrmw add %g, %v monotonic : !llvm.ptr, i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %pair = llvm.cmpxchg %g, %c1, %old acq_rel monotonic : !llvm.ptr, i32 // expected-remark {{'w' operand #0 (value): address}}
  // expected-remark@+2 {{'n' operand #2 (value): blocking (size-read-back)}}
  // expected-remark@+1 {{'w' operand #1 (value): address}}
  "llvm.intr.memcpy"(%q, %g, %n) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
  %b = spec.param "b" = 7 : i8 // expected-remark {{'b': 1 blocking use(s), first: stored-data by 'llvm.intr.memset'}}
  // expected-remark@+3 {{'n' operand #2 (value): blocking (size-read-back)}}
  // expected-remark@+2 {{'w' operand #0 (value): address}}
  // expected-remark@+1 {{'b' operand #1 (value): blocking (stored-data)}}
  "llvm.intr.memset"(%g, %b, %n) <{isVolatile = false}> : (!llvm.ptr, i8, i64) -> ()
  return
}

// -----

// `llvm.or disjoint` is an add; a plain `or` passes the value on too, and
// whatever it reaches decides.
func.func @or_disjoint(%p: !llvm.ptr, %i: i64) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : i64 // expected-remark {{'w': address-only, 1 address operand(s)}}
  %hi = llvm.mul %i, %w : i64 // expected-remark {{'w' operand #1 (value): pass-through}}
  %c3 = llvm.mlir.constant(3 : i64) : i64
  %o = llvm.or disjoint %hi, %c3 : i64 // expected-remark {{'w' operand #0 (value): pass-through}}
  %g = llvm.getelementptr %p[%o] : (!llvm.ptr, i64) -> !llvm.ptr, f32 // expected-remark {{'w' operand #1 (value): pass-through}}
  %v = llvm.load %g : !llvm.ptr -> f32 // expected-remark {{'w' operand #0 (value): address}}
  return
}

// -----

// rocdl.readfirstlane keeps a uniform value uniform: address arithmetic.
func.func @readfirstlane(%p: !llvm.ptr<1>, %i: i32) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : i32 // expected-remark {{'w': address-only, 1 address operand(s)}}
  %o = llvm.mul %i, %w : i32 // expected-remark {{'w' operand #1 (value): pass-through}}
  %u = rocdl.readfirstlane %o : i32 // expected-remark {{'w' operand #0 (value): pass-through}}
  %g = llvm.getelementptr %p[%u] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32 // expected-remark {{'w' operand #1 (value): pass-through}}
  %v = llvm.load %g : !llvm.ptr<1> -> f32 // expected-remark {{'w' operand #0 (value): address}}
  return
}
