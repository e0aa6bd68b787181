// RUN: fly-opt %s -split-input-file -verify-diagnostics --test-stride-use-analysis \
// RUN:   --mlir-print-op-on-diagnostic=false -o /dev/null

// Other dialects extend the analysis through StrideUseOpInterface: the
// test_stride dialect (test/lib) stands in for a DSL's buffer and layout ops.

// Implemented in ODS: test_stride.buffer_load takes addresses but not its
// mask; test_stride.advance passes offset and step on and needs its count.
func.func @implemented_in_ods(%m: memref<?xf32>, %i: index, %flag: i1) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : index // expected-remark {{'w': address-only, 1 address operand(s)}}
  %n = spec.param "n" = 4 : index // expected-remark {{'n': 1 blocking use(s), first: loop-bound by 'test_stride.advance'}}
  %b = spec.param "b" = 1 : i1 // expected-remark {{'b': 1 blocking use(s), first: mask-or-padding by 'test_stride.buffer_load'}}
  // expected-remark@+2 {{'w' operand #1 (value): pass-through}}
  // expected-remark@+1 {{'n' operand #2 (value): blocking (loop-bound)}}
  %o = test_stride.advance %i by %w x %n
  %v = test_stride.buffer_load %m[%o] : memref<?xf32> -> f32 // expected-remark {{'w' operand #1 (value): address}}
  %u = test_stride.buffer_load %m[%i] mask %b : memref<?xf32> -> f32 // expected-remark {{'b' operand #2 (value): blocking (mask-or-padding)}}
  return
}

// -----

// Attached as an external model, as a plugin does for an op it does not own.
func.func @external_model(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : index // expected-remark {{'w': address-only, 1 address operand(s)}}
  %o = test_stride.unowned %i, %w // expected-remark {{'w' operand #1 (value): pass-through}}
  %v = test_stride.buffer_load %m[%o] : memref<?xf32> -> f32 // expected-remark {{'w' operand #1 (value): address}}
  return
}

// -----

// An op with no model keeps the parameter, naming the op.
func.func @no_model(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : index // expected-remark {{'w': 1 blocking use(s), first: unknown-operation by 'test_stride.opaque'}}
  %o = test_stride.opaque %i, %w : (index, index) -> index // expected-remark {{'w' operand #1 (value): blocking (unknown-operation)}}
  %v = test_stride.buffer_load %m[%o] : memref<?xf32> -> f32
  return
}
