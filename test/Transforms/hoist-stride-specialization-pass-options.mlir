// The pass's options take effect whichever way they are spelled (the
// --hoist-stride-specialization flag or a --pass-pipeline), and a value the
// pass itself rejects fails the run before the module changes. (How MLIR's
// option parser words a malformed option is MLIR's to test, not this file's.)
//
// Defaults: remarks on, kept parameters materialized.
// RUN: fly-opt %s -hoist-stride-specialization 2>&1 | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: remark: 'n' kept specialized in kernel @kernel: comparison
// DEFAULT: remark: 'w' hoisted in kernel @kernel: runtime argument 2
// DEFAULT-LABEL: func.func @kernel(
// DEFAULT: arith.constant 8 : index
// DEFAULT-NOT: spec.param
//
// Both options off, in both spellings: no remarks, the kept parameter stays.
// RUN: fly-opt %s -hoist-stride-specialization="remarks=false materialize-kept=false" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OFF
// RUN: fly-opt %s '-pass-pipeline=builtin.module(hoist-stride-specialization{remarks=false materialize-kept=false})' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=OFF
// OFF-NOT: remark
// OFF-LABEL: func.func @kernel(
// OFF-SAME: %arg2: index
// OFF: spec.param "n" = 8 : index
// OFF-NOT: remark
//
// A value the pass rejects, in both spellings: its own error, and the module
// as it was (the IR after the failure still has both spec.params and no new
// argument).
// RUN: not fly-opt %s -hoist-stride-specialization=divisibility=6 \
// RUN:   -mlir-print-ir-after-failure -mlir-print-op-on-diagnostic=false 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REJECTED
// RUN: not fly-opt %s '-pass-pipeline=builtin.module(hoist-stride-specialization{divisibility=6})' \
// RUN:   -mlir-print-ir-after-failure -mlir-print-op-on-diagnostic=false 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REJECTED
// REJECTED: error: divisibility=6 must be a power of two (or 0 for off)
// REJECTED: IR Dump After HoistStrideSpecialization Failed
// REJECTED: func.func @kernel(%arg0: memref<?xf32>, %arg1: index) {
// REJECTED-NEXT: spec.param "w" = 4 : index
// REJECTED-NEXT: spec.param "n" = 8 : index
//
// materialize-specialization has no options to honour: it materializes
// every parameter.
// RUN: fly-opt %s -materialize-specialization | FileCheck %s --check-prefix=MATERIALIZE
// MATERIALIZE-LABEL: func.func @kernel(%arg0: memref<?xf32>, %arg1: index) {
// MATERIALIZE-NOT: spec.param
// MATERIALIZE: return

func.func @kernel(%a: memref<?xf32>, %i: index) {
  %w = spec.param "w" = 4 : index
  %n = spec.param "n" = 8 : index
  %v = memref.load %a[%w] : memref<?xf32>
  %c = arith.cmpi ult, %i, %n : index
  cf.assert %c, "in range"
  return
}
func.func @host(%a: memref<?xf32>, %i: index) {
  call @kernel(%a, %i) : (memref<?xf32>, index) -> ()
  return
}
