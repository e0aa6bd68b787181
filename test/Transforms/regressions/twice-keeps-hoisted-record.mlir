// With materialize-kept=false the kept parameter stays a spec.param, so a
// second run plans the kernel again and overwrote its `spec.hoisted` record
// with [] although argument 1 still holds the hoisted 'w': the pass twice
// differed from the pass once, and the record no longer described the ABI.
// RUN: fly-opt %s -hoist-stride-specialization="remarks=false materialize-kept=false" -mlir-print-debuginfo \
// RUN:   > %t.once
// RUN: fly-opt %t.once -hoist-stride-specialization="remarks=false materialize-kept=false" -mlir-print-debuginfo \
// RUN:   > %t.twice
// RUN: diff %t.once %t.twice
// RUN: fly-opt %t.twice | FileCheck %s

// CHECK: func.func @k(%{{.*}}: memref<?xf32>, %{{.*}}: index) attributes {spec.record = #spec.record<hoisted = [#spec.hoisted<name = "w", type = index, argument = 1>]
func.func @k(%a: memref<?xf32>) {
  %w = spec.param "w" = 4 : index
  %n = spec.param "n" = 8 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %a[%w] : memref<?xf32>
    memref.store %v, %a[%i] : memref<?xf32>
  }
  return
}
func.func @host(%a: memref<?xf32>) {
  call @k(%a) : (memref<?xf32>) -> ()
  return
}
