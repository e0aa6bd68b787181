// A kernel referenced by func.constant cannot take an argument, so 'b',
// used only as the `equals` operand of 'a', is kept; 'a' has no use and is
// erased. With materialize-kept=false, 'b''s spec.param stays, now without
// a use, and a second run erased it as unused and dropped it from the
// record: twice != once (found by the structure-aware fuzzer, options line
// "materialize-kept=false"). A name the record says was kept stays kept,
// with or without uses.
// RUN: fly-opt %s -hoist-stride-specialization="remarks=false materialize-kept=false" \
// RUN:   -mlir-print-debuginfo -o %t.once
// RUN: fly-opt %t.once -hoist-stride-specialization="remarks=false materialize-kept=false" \
// RUN:   -mlir-print-debuginfo -o %t.twice
// RUN: diff %t.once %t.twice
// RUN: FileCheck %s --input-file=%t.twice

// CHECK-LABEL: func.func @address_only
// CHECK-SAME: kept = [#spec.kept<name = "b", value = 3, reason = "unknown-reference", op = "func.constant"
// CHECK: spec.param "b" = 3 : i64
// CHECK-NOT: spec.param
// CHECK: return
module {
  func.func @address_only(%arg0: memref<?xf32>) attributes {spec.kernel} {
    %f = constant @address_only : (memref<?xf32>) -> ()
    %0 = spec.param "b" = 3 : i64
    %1 = spec.param "a" = 3 equals %0 : i64
    return
  }
}
