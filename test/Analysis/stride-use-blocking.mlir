// RUN: fly-opt %s -split-input-file -verify-diagnostics --test-stride-use-analysis \
// RUN:   --mlir-print-op-on-diagnostic=false -o /dev/null

// Every blocking category of docs/DESIGN.md, one per split: the use is
// classified as blocking with its reason, and the parameter's summary names
// the first blocking use in IR order.

func.func @loop_bound(%m: memref<?xf32>) attributes {spec.kernel} {
  %h = spec.param "heads" = 64 : index // expected-remark {{'heads': 1 blocking use(s), first: loop-bound by 'scf.for'}}
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %h step %c1 { // expected-remark {{'heads' operand #1 (value): blocking (loop-bound)}}
    %v = memref.load %m[%i] : memref<?xf32>
    memref.store %v, %m[%i] : memref<?xf32>
  }
  return
}

// -----

func.func @loop_step(%m: memref<?xf32>, %n: index) attributes {spec.kernel} {
  %s = spec.param "step" = 8 : index // expected-remark {{'step': 1 blocking use(s), first: loop-bound by 'scf.for'}}
  %c0 = arith.constant 0 : index
  // expected-remark@+2 {{'step' operand #1 (value): pass-through}}
  // expected-remark@+1 {{'step' operand #0 (value): pass-through}}
  %two = arith.muli %s, %s : index
  scf.for %i = %c0 to %n step %two { // expected-remark {{'step' operand #2 (value): blocking (loop-bound)}}
    %v = memref.load %m[%i] : memref<?xf32>
    memref.store %v, %m[%i] : memref<?xf32>
  }
  return
}

// -----

func.func @comparison(%m: memref<?xf32>, %i: index) -> i1 attributes {spec.kernel} {
  %w = spec.param "w" = 16 : index // expected-remark {{'w': 1 blocking use(s), first: comparison by 'arith.cmpi'}}
  %v = memref.load %m[%w] : memref<?xf32> // expected-remark {{'w' operand #1 (value): address}}
  memref.store %v, %m[%i] : memref<?xf32>
  %lt = arith.cmpi ult, %i, %w : index // expected-remark {{'w' operand #1 (value): blocking (comparison)}}
  return %lt : i1
}

// -----

func.func @clamp_min(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %w = spec.param "w" = 16 : index // expected-remark {{'w': 1 blocking use(s), first: clamp by 'arith.minui'}}
  %c = arith.minui %i, %w : index // expected-remark {{'w' operand #1 (value): blocking (clamp)}}
  %v = memref.load %m[%c] : memref<?xf32>
  memref.store %v, %m[%i] : memref<?xf32>
  return
}

// -----

func.func @clamp_select(%m: memref<?xf32>, %i: index, %f: i1) attributes {spec.kernel} {
  %w = spec.param "w" = 16 : index // expected-remark {{'w': 1 blocking use(s), first: clamp by 'arith.select'}}
  %c = arith.select %f, %i, %w : index // expected-remark {{'w' operand #2 (value): blocking (clamp)}}
  %v = memref.load %m[%c] : memref<?xf32>
  memref.store %v, %m[%i] : memref<?xf32>
  return
}

// -----

// A derived value as a branch condition (through an unknown-free chain).
func.func @branch_condition_if(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %flag = spec.param "use_bias" = 1 : i1 // expected-remark {{'use_bias': 1 blocking use(s), first: branch-condition by 'scf.if'}}
  scf.if %flag { // expected-remark {{'use_bias' operand #0 (value): blocking (branch-condition)}}
    %v = memref.load %m[%i] : memref<?xf32>
    memref.store %v, %m[%i] : memref<?xf32>
  }
  return
}

// -----

func.func @branch_condition_cf(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %flag = spec.param "use_bias" = 1 : i1 // expected-remark {{'use_bias': 1 blocking use(s), first: branch-condition by 'cf.cond_br'}}
  cf.cond_br %flag, ^bb1, ^bb2 // expected-remark {{'use_bias' operand #0 (value): blocking (branch-condition)}}
^bb1:
  %v = memref.load %m[%i] : memref<?xf32>
  memref.store %v, %m[%i] : memref<?xf32>
  cf.br ^bb2
^bb2:
  return
}

// -----

func.func @divisor(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %w = spec.param "page" = 64 : index // expected-remark {{'page': 1 blocking use(s), first: division by 'arith.divui'}}
  %q = arith.divui %i, %w : index // expected-remark {{'page' operand #1 (value): blocking (division)}}
  %v = memref.load %m[%q] : memref<?xf32>
  memref.store %v, %m[%i] : memref<?xf32>
  return
}

// -----

func.func @remainder(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %w = spec.param "page" = 64 : index // expected-remark {{'page': 1 blocking use(s), first: division by 'arith.remui'}}
  %r = arith.remui %i, %w : index // expected-remark {{'page' operand #1 (value): blocking (division)}}
  %v = memref.load %m[%r] : memref<?xf32>
  memref.store %v, %m[%i] : memref<?xf32>
  return
}

// -----

func.func @affine_floordiv(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %w = spec.param "page" = 64 : index // expected-remark {{'page': 1 blocking use(s), first: division by 'affine.apply'}}
  %q = affine.apply affine_map<(d0)[s0] -> (d0 floordiv s0)>(%i)[%w] // expected-remark {{'page' operand #1 (value): blocking (division)}}
  %v = memref.load %m[%q] : memref<?xf32>
  memref.store %v, %m[%i] : memref<?xf32>
  return
}

// -----

func.func @allocation(%i: index) attributes {spec.kernel} {
  %w = spec.param "tile" = 128 : index // expected-remark {{'tile': 1 blocking use(s), first: allocation by 'memref.alloca'}}
  %a = memref.alloca(%w) : memref<?xf32> // expected-remark {{'tile' operand #0 (value): blocking (allocation)}}
  %v = memref.load %a[%i] : memref<?xf32>
  memref.store %v, %a[%i] : memref<?xf32>
  return
}

// -----

func.func @stored_as_data(%m: memref<?xindex>, %i: index) attributes {spec.kernel} {
  %w = spec.param "w" = 128 : index // expected-remark {{'w': 1 blocking use(s), first: stored-data by 'memref.store'}}
  %o = arith.muli %i, %w : index // expected-remark {{'w' operand #1 (value): pass-through}}
  memref.store %o, %m[%i] : memref<?xindex> // expected-remark {{'w' operand #0 (value): blocking (stored-data)}}
  return
}

// -----

func.func private @callee(index)
func.func @call_operand(%i: index) attributes {spec.kernel} {
  %w = spec.param "w" = 128 : index // expected-remark {{'w': 1 blocking use(s), first: call-operand by 'func.call'}}
  func.call @callee(%w) : (index) -> () // expected-remark {{'w' operand #0 (value): blocking (call-operand)}}
  return
}

// -----

func.func @return_operand(%i: index) -> index attributes {spec.kernel} {
  %w = spec.param "w" = 128 : index // expected-remark {{'w': 1 blocking use(s), first: return-operand by 'func.return'}}
  %o = arith.addi %i, %w : index // expected-remark {{'w' operand #1 (value): pass-through}}
  return %o : index // expected-remark {{'w' operand #0 (value): blocking (return-operand)}}
}

// -----

func.func @launch_dimensions() attributes {spec.kernel} {
  %g = spec.param "grid" = 512 : index // expected-remark {{'grid': 1 blocking use(s), first: launch-dimensions by 'gpu.launch'}}
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%sx = %g, %sy = %c1, %sz = %c1) threads(%tx, %ty, %tz) in (%tx1 = %c1, %ty1 = %c1, %tz1 = %c1) { // expected-remark {{'grid' operand #0 (value): blocking (launch-dimensions)}}
    gpu.terminator
  }
  return
}

// -----

func.func @shift_amount(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %s = spec.param "log_page" = 3 : index // expected-remark {{'log_page': 1 blocking use(s), first: shift-amount by 'arith.shli'}}
  %o = arith.shli %i, %s : index // expected-remark {{'log_page' operand #1 (value): blocking (shift-amount)}}
  %v = memref.load %m[%o] : memref<?xf32>
  memref.store %v, %m[%i] : memref<?xf32>
  return
}

// -----

func.func @unknown_op(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %w = spec.param "w" = 255 : i32 // expected-remark {{'w': 1 blocking use(s), first: unknown-operation by 'math.absi'}}
  %a = math.absi %w : i32 // expected-remark {{'w' operand #0 (value): blocking (unknown-operation)}}
  %o = arith.index_cast %a : i32 to index
  %v = memref.load %m[%o] : memref<?xf32>
  memref.store %v, %m[%i] : memref<?xf32>
  return
}

// -----

// Bitwise and/or/xor pass the value on (swizzles); whatever they reach
// decides.
func.func @bitwise_swizzle(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %w = spec.param "mask" = 255 : index // expected-remark {{'mask': 1 blocking use(s), first: comparison by 'arith.cmpi'}}
  %x = spec.param "xor" = 8 : index // expected-remark {{'xor': address-only, 1 address operand(s)}}
  %o = arith.andi %i, %w : index // expected-remark {{'mask' operand #1 (value): pass-through}}
  // expected-remark@+2 {{'xor' operand #1 (value): pass-through}}
  // expected-remark@+1 {{'mask' operand #0 (value): pass-through}}
  %s = arith.xori %o, %x : index
  %v = memref.load %m[%s] : memref<?xf32> // expected-remark {{'mask', 'xor' operand #1 (value): address}}
  memref.store %v, %m[%i] : memref<?xf32>
  %c = arith.cmpi eq, %o, %i : index // expected-remark {{'mask' operand #0 (value): blocking (comparison)}}
  return
}

// -----

// A view size read back with memref.dim and used as a loop bound blocks.
func.func @view_size_read_back(%m: memref<?xf32>) attributes {spec.kernel} {
  %w = spec.param "len" = 32 : index // expected-remark {{'len': 1 blocking use(s), first: loop-bound by 'scf.for'}}
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = memref.reinterpret_cast %m to offset: [0], sizes: [%w], strides: [1] : memref<?xf32> to memref<?xf32> // expected-remark {{'len' operand #1 (value): pass-through}}
  %n = memref.dim %r, %c0 : memref<?xf32> // expected-remark {{'len' operand #0 (view sizes): pass-through}}
  scf.for %i = %c0 to %n step %c1 { // expected-remark {{'len' operand #1 (value): blocking (loop-bound)}}
    %v = memref.load %r[%i] : memref<?xf32> // expected-remark {{'len' operand #0 (view sizes): not read}}
    memref.store %v, %m[%i] : memref<?xf32>
  }
  return
}

// -----

// The first blocking use in IR order is the one reported.
func.func @first_blocking_use(%m: memref<?xf32>, %i: index) -> i1 attributes {spec.kernel} {
  %w = spec.param "w" = 16 : index // expected-remark {{'w': 2 blocking use(s), first: division by 'arith.divui'}}
  %q = arith.divui %i, %w : index // expected-remark {{'w' operand #1 (value): blocking (division)}}
  %lt = arith.cmpi ult, %q, %w : index // expected-remark {{'w' operand #1 (value): blocking (comparison)}}
  return %lt : i1
}

// -----

// A gpu.launch_func with no kernel operands in a function analysed as a
// kernel: dimensions, async dependencies and dynamic shared memory are
// launch dimensions (this asked an empty operand range for its index).
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k() kernel { gpu.return }
  }
  func.func @launches(%t: !gpu.async.token) attributes {spec.kernel} {
    %g = spec.param "grid" = 4 : index // expected-remark {{'grid': 1 blocking use(s), first: launch-dimensions by 'gpu.launch_func'}}
    %s = spec.param "shared" = 1024 : i32 // expected-remark {{'shared': 1 blocking use(s), first: launch-dimensions by 'gpu.launch_func'}}
    %c1 = arith.constant 1 : index
    // expected-remark@+2 {{'grid' operand #0 (value): blocking (launch-dimensions)}}
    // expected-remark@+1 {{'shared' operand #6 (value): blocking (launch-dimensions)}}
    gpu.launch_func @m::@k blocks in (%g, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %s
    return
  }
}

// -----

// Several parameters sharing one address chain: each is reported on its
// own, the chain is walked once.
func.func @shared_chain(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %a = spec.param "a" = 2 : index // expected-remark {{'a': 1 blocking use(s), first: comparison by 'arith.cmpi'}}
  %b = spec.param "b" = 3 : index // expected-remark {{'b': 1 blocking use(s), first: comparison by 'arith.cmpi'}}
  %c = spec.param "c" = 5 : index // expected-remark {{'c': address-only, 1 address operand(s)}}
  %x = arith.muli %i, %a : index // expected-remark {{'a' operand #1 (value): pass-through}}
  // expected-remark@+2 {{'b' operand #1 (value): pass-through}}
  // expected-remark@+1 {{'a' operand #0 (value): pass-through}}
  %y = arith.addi %x, %b : index
  // expected-remark@+2 {{'c' operand #1 (value): pass-through}}
  // expected-remark@+1 {{'a', 'b' operand #0 (value): pass-through}}
  %z = arith.muli %y, %c : index
  %v = memref.load %m[%z] : memref<?xf32> // expected-remark {{'a', 'b', 'c' operand #1 (value): address}}
  %lt = arith.cmpi ult, %y, %i : index // expected-remark {{'a', 'b' operand #0 (value): blocking (comparison)}}
  memref.store %v, %m[%i] : memref<?xf32>
  return
}
