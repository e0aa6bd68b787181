// RUN: fly-opt %s -split-input-file -verify-diagnostics \
// RUN:   --hoist-stride-specialization="address-operands=test_stride.opaque_load[0,1] pass-through-operands=test_stride.opaque[1]" \
// RUN:   --mlir-print-op-on-diagnostic=false | FileCheck %s
// RUN: fly-opt %s -split-input-file --hoist-stride-specialization=remarks=false \
// RUN:   | FileCheck %s --check-prefix=NO-RULES

// Tools that cannot compile a StrideUseOpInterface for a DSL's ops name
// their address and pass-through operands in the pass options instead.

// CHECK-LABEL: func.func @named_in_options
// CHECK-SAME: %[[W:arg2]]: index
// CHECK: test_stride.opaque %{{.*}}, %[[W]]
// NO-RULES-LABEL: func.func @named_in_options
// NO-RULES-SAME: (%{{.*}}: memref<?xf32>, %{{.*}}: index)
// NO-RULES: arith.constant 64 : index
func.func @named_in_options(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : index // expected-remark {{'w' hoisted in kernel @named_in_options: runtime argument 2}}
  %o = test_stride.opaque %i, %w : (index, index) -> index
  %v = test_stride.opaque_load %m[%o] : memref<?xf32> -> f32
  return
}

// -----

// An operand the options do not name keeps the parameter.
// CHECK-LABEL: func.func @unnamed_operand
// CHECK: arith.constant 64 : index
func.func @unnamed_operand(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : index // expected-remark {{'w' kept specialized in kernel @unnamed_operand: used by 'test_stride.opaque' as operand 0, which no rule classifies}}
  %o = test_stride.opaque %w, %i : (index, index) -> index // expected-note {{needs 'w' as a constant here}}
  %v = test_stride.opaque_load %m[%o] : memref<?xf32> -> f32
  return
}
