// RUN: fly-opt %s -split-input-file -verify-diagnostics --hoist-stride-specialization \
// RUN:   --mlir-print-op-on-diagnostic=false | FileCheck %s

// Every blocking category of DESIGN, one per split: the parameter is kept,
// materialized, and the remark names the reason with a note at the use.

// CHECK-LABEL: func.func @loop_bound
// CHECK-SAME: (%{{.*}}: memref<?xf32>)
// CHECK-NOT: spec.param
// CHECK: %[[C:.*]] = arith.constant 64 : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[C]]
func.func @loop_bound(%m: memref<?xf32>) attributes {spec.kernel} {
  %h = spec.param "heads" = 64 : index // expected-remark {{'heads' kept specialized in kernel @loop_bound: loop bound or step}}
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %h step %c1 { // expected-note {{needs 'heads' as a constant here}}
    %v = memref.load %m[%i] : memref<?xf32>
    memref.store %v, %m[%i] : memref<?xf32>
  }
  return
}

// -----

// CHECK-LABEL: func.func @loop_step
// CHECK: arith.constant 8 : index
func.func @loop_step(%m: memref<?xf32>, %n: index) attributes {spec.kernel} {
  %s = spec.param "step" = 8 : index // expected-remark {{'step' kept specialized in kernel @loop_step: loop bound or step}}
  %c0 = arith.constant 0 : index
  %two = arith.muli %s, %s : index
  scf.for %i = %c0 to %n step %two { // expected-note {{needs 'step' as a constant here}}
    %v = memref.load %m[%i] : memref<?xf32>
    memref.store %v, %m[%i] : memref<?xf32>
  }
  return
}

// -----

// CHECK-LABEL: func.func @comparison
// CHECK: arith.constant 16 : index
func.func @comparison(%m: memref<?xf32>, %i: index) -> i1 attributes {spec.kernel} {
  %w = spec.param "w" = 16 : index // expected-remark {{'w' kept specialized in kernel @comparison: comparison}}
  %v = memref.load %m[%w] : memref<?xf32>
  memref.store %v, %m[%i] : memref<?xf32>
  %lt = arith.cmpi ult, %i, %w : index // expected-note {{needs 'w' as a constant here}}
  return %lt : i1
}

// -----

// CHECK-LABEL: func.func @clamp_min
// CHECK: arith.constant 16 : index
func.func @clamp_min(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %w = spec.param "w" = 16 : index // expected-remark {{'w' kept specialized in kernel @clamp_min: select/min/max (a clamp)}}
  %c = arith.minui %i, %w : index // expected-note {{needs 'w' as a constant here}}
  %v = memref.load %m[%c] : memref<?xf32>
  memref.store %v, %m[%i] : memref<?xf32>
  return
}

// -----

// CHECK-LABEL: func.func @clamp_select
// CHECK: arith.constant 16 : index
func.func @clamp_select(%m: memref<?xf32>, %i: index, %f: i1) attributes {spec.kernel} {
  %w = spec.param "w" = 16 : index // expected-remark {{'w' kept specialized in kernel @clamp_select: select/min/max (a clamp)}}
  %c = arith.select %f, %i, %w : index // expected-note {{needs 'w' as a constant here}}
  %v = memref.load %m[%c] : memref<?xf32>
  memref.store %v, %m[%i] : memref<?xf32>
  return
}

// -----

// A derived value as a branch condition (through an unknown-free chain).
// CHECK-LABEL: func.func @branch_condition_if
// CHECK: arith.constant true
func.func @branch_condition_if(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %flag = spec.param "use_bias" = 1 : i1 // expected-remark {{'use_bias' kept specialized in kernel @branch_condition_if: branch condition}}
  scf.if %flag { // expected-note {{needs 'use_bias' as a constant here}}
    %v = memref.load %m[%i] : memref<?xf32>
    memref.store %v, %m[%i] : memref<?xf32>
  }
  return
}

// -----

// CHECK-LABEL: func.func @branch_condition_cf
// CHECK: arith.constant true
func.func @branch_condition_cf(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %flag = spec.param "use_bias" = 1 : i1 // expected-remark {{'use_bias' kept specialized in kernel @branch_condition_cf: branch condition}}
  cf.cond_br %flag, ^bb1, ^bb2 // expected-note {{needs 'use_bias' as a constant here}}
^bb1:
  %v = memref.load %m[%i] : memref<?xf32>
  memref.store %v, %m[%i] : memref<?xf32>
  cf.br ^bb2
^bb2:
  return
}

// -----

// CHECK-LABEL: func.func @divisor
// CHECK: arith.constant 64 : index
func.func @divisor(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %w = spec.param "page" = 64 : index // expected-remark {{'page' kept specialized in kernel @divisor: divisor or remainder (runtime division is slow)}}
  %q = arith.divui %i, %w : index // expected-note {{needs 'page' as a constant here}}
  %v = memref.load %m[%q] : memref<?xf32>
  memref.store %v, %m[%i] : memref<?xf32>
  return
}

// -----

// CHECK-LABEL: func.func @remainder
// CHECK: arith.constant 64 : index
func.func @remainder(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %w = spec.param "page" = 64 : index // expected-remark {{'page' kept specialized in kernel @remainder: divisor or remainder (runtime division is slow)}}
  %r = arith.remui %i, %w : index // expected-note {{needs 'page' as a constant here}}
  %v = memref.load %m[%r] : memref<?xf32>
  memref.store %v, %m[%i] : memref<?xf32>
  return
}

// -----

// CHECK-LABEL: func.func @affine_floordiv
// CHECK: arith.constant 64 : index
func.func @affine_floordiv(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %w = spec.param "page" = 64 : index // expected-remark {{'page' kept specialized in kernel @affine_floordiv: divisor or remainder (runtime division is slow)}}
  %q = affine.apply affine_map<(d0)[s0] -> (d0 floordiv s0)>(%i)[%w] // expected-note {{needs 'page' as a constant here}}
  %v = memref.load %m[%q] : memref<?xf32>
  memref.store %v, %m[%i] : memref<?xf32>
  return
}

// -----

// CHECK-LABEL: func.func @allocation
// CHECK: arith.constant 128 : index
func.func @allocation(%i: index) attributes {spec.kernel} {
  %w = spec.param "tile" = 128 : index // expected-remark {{'tile' kept specialized in kernel @allocation: allocation or shape size}}
  %a = memref.alloca(%w) : memref<?xf32> // expected-note {{needs 'tile' as a constant here}}
  %v = memref.load %a[%i] : memref<?xf32>
  memref.store %v, %a[%i] : memref<?xf32>
  return
}

// -----

// CHECK-LABEL: func.func @stored_as_data
// CHECK: arith.constant 128 : index
func.func @stored_as_data(%m: memref<?xindex>, %i: index) attributes {spec.kernel} {
  %w = spec.param "w" = 128 : index // expected-remark {{'w' kept specialized in kernel @stored_as_data: the value stored as data}}
  %o = arith.muli %i, %w : index
  memref.store %o, %m[%i] : memref<?xindex> // expected-note {{needs 'w' as a constant here}}
  return
}

// -----

// CHECK-LABEL: func.func @call_operand
// CHECK: arith.constant 128 : index
func.func private @callee(index)
func.func @call_operand(%i: index) attributes {spec.kernel} {
  %w = spec.param "w" = 128 : index // expected-remark {{'w' kept specialized in kernel @call_operand: call or return operand}}
  func.call @callee(%w) : (index) -> () // expected-note {{needs 'w' as a constant here}}
  return
}

// -----

// CHECK-LABEL: func.func @return_operand
// CHECK: arith.constant 128 : index
func.func @return_operand(%i: index) -> index attributes {spec.kernel} {
  %w = spec.param "w" = 128 : index // expected-remark {{'w' kept specialized in kernel @return_operand: call or return operand}}
  %o = arith.addi %i, %w : index
  return %o : index // expected-note {{needs 'w' as a constant here}}
}

// -----

// CHECK-LABEL: func.func @launch_dimensions
// CHECK: arith.constant 512 : index
func.func @launch_dimensions() attributes {spec.kernel} {
  %g = spec.param "grid" = 512 : index // expected-remark {{'grid' kept specialized in kernel @launch_dimensions: launch dimensions}}
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%sx = %g, %sy = %c1, %sz = %c1) threads(%tx, %ty, %tz) in (%tx1 = %c1, %ty1 = %c1, %tz1 = %c1) { // expected-note {{needs 'grid' as a constant here}}
    gpu.terminator
  }
  return
}

// -----

// CHECK-LABEL: func.func @shift_amount
// CHECK: arith.constant 3 : index
func.func @shift_amount(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %s = spec.param "log_page" = 3 : index // expected-remark {{'log_page' kept specialized in kernel @shift_amount: shift amount}}
  %o = arith.shli %i, %s : index // expected-note {{needs 'log_page' as a constant here}}
  %v = memref.load %m[%o] : memref<?xf32>
  memref.store %v, %m[%i] : memref<?xf32>
  return
}

// -----

// CHECK-LABEL: func.func @unknown_op
// CHECK: arith.constant 255 : index
func.func @unknown_op(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %w = spec.param "mask" = 255 : index // expected-remark {{'mask' kept specialized in kernel @unknown_op: used by 'arith.andi', which the analysis does not know as address arithmetic}}
  %o = arith.andi %i, %w : index // expected-note {{needs 'mask' as a constant here}}
  %v = memref.load %m[%o] : memref<?xf32>
  memref.store %v, %m[%i] : memref<?xf32>
  return
}

// -----

// A view size read back with memref.dim and used as a loop bound blocks.
// CHECK-LABEL: func.func @view_size_read_back
// CHECK: arith.constant 32 : index
func.func @view_size_read_back(%m: memref<?xf32>) attributes {spec.kernel} {
  %w = spec.param "len" = 32 : index // expected-remark {{'len' kept specialized in kernel @view_size_read_back: loop bound or step}}
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = memref.reinterpret_cast %m to offset: [0], sizes: [%w], strides: [1] : memref<?xf32> to memref<?xf32>
  %n = memref.dim %r, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 { // expected-note {{needs 'len' as a constant here}}
    %v = memref.load %r[%i] : memref<?xf32>
    memref.store %v, %m[%i] : memref<?xf32>
  }
  return
}

// -----

// The first blocking use in IR order is the one reported.
// CHECK-LABEL: func.func @first_blocking_use
func.func @first_blocking_use(%m: memref<?xf32>, %i: index) -> i1 attributes {spec.kernel} {
  %w = spec.param "w" = 16 : index // expected-remark {{'w' kept specialized in kernel @first_blocking_use: divisor or remainder (runtime division is slow)}}
  %q = arith.divui %i, %w : index // expected-note {{needs 'w' as a constant here}}
  %lt = arith.cmpi ult, %q, %w : index
  return %lt : i1
}
