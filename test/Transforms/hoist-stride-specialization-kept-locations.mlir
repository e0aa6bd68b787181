// Kept parameters share their #spec.kept entries between kernels, while each
// record keeps its own locations: every kernel's manifest entry must point at
// that kernel's own blocking use, in the order of its `kept` list, including
// after a second run that reads the first run's record back.
// RUN: fly-opt --hoist-stride-specialization="remarks=false materialize-kept=false manifest=%t.once.json" < %s > %t.once.mlir
// RUN: FileCheck %s --input-file=%t.once.json
// RUN: fly-opt --hoist-stride-specialization="remarks=false materialize-kept=false manifest=%t.twice.json" < %t.once.mlir > /dev/null
// RUN: diff %t.once.json %t.twice.json
// The record itself: one location per kept entry.
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.once.mlir

// The manifest lists the kept entries by name; the line numbers are the
// blocking uses' lines in this file (read from stdin).
// CHECK: "kept": [
// CHECK-NEXT: {
// CHECK-NEXT: "location": "<stdin>:81:13",
// CHECK-NEXT: "name": "m",
// CHECK-NEXT: "reason": "comparison",
// CHECK-NEXT: "reason_text": "comparison",
// CHECK-NEXT: "value": 6
// CHECK-NEXT: },
// CHECK-NEXT: {
// CHECK-NEXT: "location": "<stdin>:76:7",
// CHECK-NEXT: "name": "n",
// CHECK-NEXT: "reason": "loop-bound",
// CHECK-NEXT: "reason_text": "loop bound or step",
// CHECK-NEXT: "value": 4
// CHECK-NEXT: }
// CHECK-NEXT: ],
// CHECK-NEXT: "launch_sites": [],
// CHECK-NEXT: "symbol": "@kernels::@first"
// CHECK: "kept": [
// CHECK-NEXT: {
// CHECK-NEXT: "location": "<stdin>:96:13",
// CHECK-NEXT: "name": "m",
// CHECK-NEXT: "reason": "comparison",
// CHECK-NEXT: "reason_text": "comparison",
// CHECK-NEXT: "value": 6
// CHECK-NEXT: },
// CHECK-NEXT: {
// CHECK-NEXT: "location": "<stdin>:92:7",
// CHECK-NEXT: "name": "n",
// CHECK-NEXT: "reason": "loop-bound",
// CHECK-NEXT: "reason_text": "loop bound or step",
// CHECK-NEXT: "value": 4
// CHECK-NEXT: }
// CHECK-NEXT: ],
// CHECK-NEXT: "launch_sites": [],
// CHECK-NEXT: "symbol": "@kernels::@second"
// CHECK: "kept": [
// CHECK-NEXT: {
// CHECK-NEXT: "location": "<stdin>:103:13",
// CHECK-NEXT: "name": "n",
// CHECK-NEXT: "reason": "comparison",
// CHECK-NEXT: "reason_text": "comparison",
// CHECK-NEXT: "value": 4
// CHECK-NEXT: }
// CHECK-NEXT: ],
// CHECK-NEXT: "launch_sites": [],
// CHECK-NEXT: "symbol": "@kernels::@third"

// IR-LABEL: gpu.func @first
// IR-SAME: kept = [#spec.kept<name = "m", value = 6, reason = comparison>, #spec.kept<name = "n", value = 4, reason = "loop-bound">], kept_locations = [#loc{{[0-9]*}}, #loc{{[0-9]*}}]
// IR-LABEL: gpu.func @second
// IR-SAME: kept = [#spec.kept<name = "m", value = 6, reason = comparison>, #spec.kept<name = "n", value = 4, reason = "loop-bound">], kept_locations = [#loc{{[0-9]*}}, #loc{{[0-9]*}}]
// IR-LABEL: gpu.func @third
// IR-SAME: kept = [#spec.kept<name = "n", value = 4, reason = comparison>], kept_locations = [#loc{{[0-9]*}}]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @first(%buf: memref<?xf32>) kernel {
      %n = spec.param "n" = 4 : index
      %m = spec.param "m" = 6 : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      scf.for %i = %c0 to %n step %c1 {
        %v = memref.load %buf[%i] : memref<?xf32>
        memref.store %v, %buf[%c0] : memref<?xf32>
      }
      %tid = gpu.thread_id x
      %in = arith.cmpi ult, %tid, %m : index
      gpu.return
    }
    // The same names and values, other lines: the locations must not be
    // the first kernel's.
    gpu.func @second(%buf: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = spec.param "n" = 4 : index
      %m = spec.param "m" = 6 : index
      %tid = gpu.thread_id x
      scf.for %i = %c0 to %n step %c1 {
        %v = memref.load %buf[%i] : memref<?xf32>
        memref.store %v, %buf[%tid] : memref<?xf32>
      }
      %in = arith.cmpi ult, %tid, %m : index
      gpu.return
    }
    // The same name and value, another reason: another entry.
    gpu.func @third(%buf: memref<?xf32>) kernel {
      %n = spec.param "n" = 4 : index
      %tid = gpu.thread_id x
      %in = arith.cmpi ult, %tid, %n : index
      gpu.return
    }
  }
}
