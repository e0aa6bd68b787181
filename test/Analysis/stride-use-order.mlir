// RUN: fly-opt %s -split-input-file -verify-diagnostics --test-stride-use-analysis \
// RUN:   --mlir-print-op-on-diagnostic=false -o /dev/null

// The order in which the propagation reaches uses is not the IR's: it
// follows the uses depth first, and back edges come round again. What it
// reports must not depend on that: a parameter's first blocking use is the
// first in IR order (pre-order, across blocks and nested regions), and each
// use is reported once per parameter.

// The clamp is reached first (through the block laid out last); the
// comparison comes first in the IR.
func.func @blocks_out_of_order(%m: memref<?xf32>, %i: index) -> i1 attributes {spec.kernel} {
  %w = spec.param "w" = 16 : index // expected-remark {{'w': 2 blocking use(s), first: comparison by 'arith.cmpi'}}
  cf.br ^late(%w : index) // expected-remark {{'w' operand #0 (value): pass-through}}
^early(%e: index):
  %lt = arith.cmpi ult, %i, %e : index // expected-remark {{'w' operand #1 (value): blocking (comparison)}}
  return %lt : i1
^late(%l: index):
  %c = arith.minui %i, %l : index // expected-remark {{'w' operand #1 (value): blocking (clamp)}}
  %v = memref.load %m[%c] : memref<?xf32>
  memref.store %v, %m[%i] : memref<?xf32>
  cf.br ^early(%l : index) // expected-remark {{'w' operand #0 (value): pass-through}}
}

// -----

// The comparison, nested in an scf.if, is two uses away from the
// parameter; the clamp after the scf.if is one.
func.func @nested_first(%m: memref<?xf32>, %i: index, %cond: i1) attributes {spec.kernel} {
  %w = spec.param "w" = 16 : index // expected-remark {{'w': 2 blocking use(s), first: comparison by 'arith.cmpi'}}
  %s = arith.muli %i, %w : index // expected-remark {{'w' operand #1 (value): pass-through}}
  scf.if %cond {
    %lt = arith.cmpi ult, %i, %s : index // expected-remark {{'w' operand #1 (value): blocking (comparison)}}
    %f = arith.uitofp %lt : i1 to f32
    memref.store %f, %m[%i] : memref<?xf32>
  }
  %c = arith.minui %i, %w : index // expected-remark {{'w' operand #1 (value): blocking (clamp)}}
  %v = memref.load %m[%c] : memref<?xf32>
  memref.store %v, %m[%i] : memref<?xf32>
  return
}

// -----

// 'b' reaches the loop's iter_arg only through the back edge: the load sees
// 'a' first, then 'b' when the yield brings it round. The add is reached by
// both before it is processed, and reports them together.
func.func @back_edge(%m: memref<?xf32>, %n: index) attributes {spec.kernel} {
  %a = spec.param "a" = 4 : index // expected-remark {{'a': address-only, 1 address operand(s)}}
  %b = spec.param "b" = 8 : index // expected-remark {{'b': address-only, 1 address operand(s)}}
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-remark@+1 {{'a' operand #3 (value): pass-through}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (index) {
    // expected-remark@+2 {{'a' operand #1 (value): address}}
    // expected-remark@+1 {{'b' operand #1 (value): address}}
    %v = memref.load %m[%acc] : memref<?xf32>
    memref.store %v, %m[%i] : memref<?xf32>
    // expected-remark@+3 {{'a' operand #0 (value): pass-through}}
    // expected-remark@+2 {{'b' operand #1 (value): pass-through}}
    // expected-remark@+1 {{'b' operand #0 (value): pass-through}}
    %next = arith.addi %acc, %b : index
    scf.yield %next : index // expected-remark {{'a', 'b' operand #0 (value): pass-through}}
  }
  return
}

// -----

// Two parameters whose chains join: the join and everything after it are
// reported once, for both.
func.func @join(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %p = spec.param "p" = 4 : index // expected-remark {{'p': 1 blocking use(s), first: comparison by 'arith.cmpi'}}
  %q = spec.param "q" = 8 : index // expected-remark {{'q': 1 blocking use(s), first: comparison by 'arith.cmpi'}}
  %x = arith.muli %i, %p : index // expected-remark {{'p' operand #1 (value): pass-through}}
  %y = arith.muli %i, %q : index // expected-remark {{'q' operand #1 (value): pass-through}}
  // expected-remark@+2 {{'p' operand #0 (value): pass-through}}
  // expected-remark@+1 {{'q' operand #1 (value): pass-through}}
  %z = arith.addi %x, %y : index
  %v = memref.load %m[%z] : memref<?xf32> // expected-remark {{'p', 'q' operand #1 (value): address}}
  memref.store %v, %m[%i] : memref<?xf32>
  %lt = arith.cmpi ult, %z, %i : index // expected-remark {{'p', 'q' operand #0 (value): blocking (comparison)}}
  return
}
