// A parameter whose `equals` value is another parameter. Two bugs, both found
// by the structure-aware fuzzer:
// - the second parameter was kept as "used by 'spec.param'", and the rewrite,
//   having erased the first `spec.param`, read the location of that use from
//   it: a heap-use-after-free (ASan). Notes now use locations recorded at
//   planning time.
// - with materialize-kept=false a second run hoisted the parameter the first
//   run had kept (twice != once). `equals %v` now passes the parameter on to
//   what the `spec.param` result reaches, as the rewrite does: used only in
//   addresses, both are hoisted in one run; used as a bound, both are kept.
// RUN: fly-opt %s -split-input-file -hoist-stride-specialization -verify-diagnostics \
// RUN:   -mlir-print-op-on-diagnostic=false -o /dev/null
// RUN: fly-opt %s -split-input-file -hoist-stride-specialization=remarks=false \
// RUN:   | FileCheck %s
// RUN: fly-opt %s -split-input-file -hoist-stride-specialization="remarks=false materialize-kept=false narrow-range" \
// RUN:   -mlir-print-debuginfo -o %t.once
// RUN: fly-opt %t.once -split-input-file -hoist-stride-specialization="remarks=false materialize-kept=false narrow-range" \
// RUN:   -mlir-print-debuginfo -o %t.twice
// RUN: diff %t.once %t.twice

// CHECK-LABEL: func.func @address_only
// CHECK-SAME: (%{{.*}}: memref<?xf32>, %[[B:.*]]: i64)
// CHECK-SAME: #spec.hoisted<name = "a", type = i64, preconditions = [#spec.equals_parameter<name = "b">]>
// CHECK-SAME: #spec.hoisted<name = "b", type = i64, argument = 1>
// CHECK: %[[I:.*]] = arith.index_cast %[[B]] : i64 to index
// CHECK: memref.load %{{.*}}[%[[I]]]
// CHECK-NOT: spec.param
func.func @address_only(%m: memref<?xf32>) attributes {spec.kernel} {
  // expected-remark @below {{'b' hoisted in kernel @address_only: runtime argument 1}}
  %b = spec.param "b" = 3 : i64
  // expected-remark @below {{'a' hoisted in kernel @address_only: uses take its 'equals' value}}
  %a = spec.param "a" = 3 equals %b : i64
  %ai = arith.index_cast %a : i64 to index
  %v = memref.load %m[%ai] : memref<?xf32>
  return
}

// -----

// CHECK-LABEL: func.func @bound
// CHECK-SAME: (%{{.*}}: memref<?xf32>)
// CHECK-SAME: kept = [#spec.kept<name = "a", value = 3,
// CHECK-SAME: #spec.kept<name = "b", value = 3,
// CHECK: arith.constant 3 : index
// CHECK-NOT: spec.param
func.func @bound(%m: memref<?xf32>) attributes {spec.kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  // expected-remark @below {{'b' kept specialized in kernel @bound: loop bound or step}}
  %b = spec.param "b" = 3 : index
  // expected-remark @below {{'a' kept specialized in kernel @bound: loop bound or step}}
  %a = spec.param "a" = 3 equals %b : index
  // expected-note @below {{needs 'a' as a constant here}}
  // expected-note @below {{needs 'b' as a constant here}}
  scf.for %i = %c0 to %a step %c1 {
    memref.store %f, %m[%i] : memref<?xf32>
  }
  return
}
