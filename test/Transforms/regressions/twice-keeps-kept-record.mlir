// A kernel holds 'w' as i32 and calls a device function that holds 'w' as
// index: the kernel keeps 'w' ("used as i32 here but passed as index"), the
// device function hoists it and the call passes the constant. With
// materialize-kept=false the kernel's spec.param stays, and a second run,
// which no longer sees the device function's spec.param, hoisted it: twice
// != once (found by the structure-aware fuzzer, options line
// "narrow-range=true hoist-into-host=true materialize-kept=false"). A name
// the function's record says was kept now stays kept, for the same reason.
// RUN: fly-opt %s -hoist-stride-specialization="remarks=false materialize-kept=false" \
// RUN:   -mlir-print-debuginfo -o %t.once
// RUN: fly-opt %t.once -hoist-stride-specialization="remarks=false materialize-kept=false" \
// RUN:   -mlir-print-debuginfo -o %t.twice
// RUN: diff %t.once %t.twice
// RUN: fly-opt %s -hoist-stride-specialization="remarks=false materialize-kept=false narrow-range hoist-into-host" \
// RUN:   -mlir-print-debuginfo -o %t.once-narrow
// RUN: fly-opt %t.once-narrow -hoist-stride-specialization="remarks=false materialize-kept=false narrow-range hoist-into-host" \
// RUN:   -mlir-print-debuginfo -o %t.twice-narrow
// RUN: diff %t.once-narrow %t.twice-narrow
// The second run says why, as the first did.
// RUN: fly-opt %t.once -hoist-stride-specialization=materialize-kept=false \
// RUN:   -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: 'w' kept specialized in kernel @m::@typed: used as i32 here but passed as index to @m::@dev
// RUN: fly-opt %t.twice | FileCheck %s

// CHECK-LABEL: func.func @typed
// CHECK-SAME: kept = [#spec.kept<name = "w", value = 4, reason = "passed-type-mismatch", callee = "@m::@dev", type = i32, passed_type = index
// CHECK: spec.param "w" = 4 : i32
// CHECK-LABEL: func.func @dev
// CHECK-SAME: #spec.hoisted<name = "w", type = index, argument = 1>
module attributes {gpu.container_module} {
  gpu.module @m {
    func.func @typed(%a: memref<?xf32>) attributes {gpu.kernel} {
      %w = spec.param "w" = 4 : i32
      %i = arith.index_cast %w : i32 to index
      %v = memref.load %a[%i] : memref<?xf32>
      memref.store %v, %a[%i] : memref<?xf32>
      func.call @dev(%a) : (memref<?xf32>) -> ()
      return
    }
    func.func @dev(%a: memref<?xf32>) {
      %w = spec.param "w" = 4 : index
      %v = memref.load %a[%w] : memref<?xf32>
      memref.store %v, %a[%w] : memref<?xf32>
      return
    }
  }
}
