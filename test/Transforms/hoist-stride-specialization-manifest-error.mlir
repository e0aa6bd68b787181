// RUN: not fly-opt %s --hoist-stride-specialization="manifest=%t.missing/m.json" \
// RUN:   --mlir-print-op-on-diagnostic=false -mlir-print-ir-after-failure 2>&1 | FileCheck %s
// An unwritable manifest path fails before the module changes: the IR the
// failed pass leaves still has its spec.param and no new argument.
// CHECK: error: cannot write manifest '{{.*}}.missing/m.json'
// CHECK: IR Dump After HoistStrideSpecialization Failed
// CHECK: func.func @k(%arg0: memref<?xf32>) attributes {spec.kernel} {
// CHECK-NEXT: spec.param "w" = 32 : index
// CHECK-NOT: arith.constant
func.func @k(%m: memref<?xf32>) attributes {spec.kernel} {
  %w = spec.param "w" = 32 : index
  %v = memref.load %m[%w] : memref<?xf32>
  memref.store %v, %m[%w] : memref<?xf32>
  return
}
