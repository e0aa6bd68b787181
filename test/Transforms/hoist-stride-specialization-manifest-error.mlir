// RUN: not fly-opt %s --hoist-stride-specialization="manifest=%t.missing/m.json" \
// RUN:   --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s
// An unwritable manifest path fails before the module changes.
// CHECK: error: cannot write manifest '{{.*}}.missing/m.json'
// CHECK-NOT: arith.constant
func.func @k(%m: memref<?xf32>) attributes {spec.kernel} {
  %w = spec.param "w" = 32 : index
  %v = memref.load %m[%w] : memref<?xf32>
  memref.store %v, %m[%w] : memref<?xf32>
  return
}
