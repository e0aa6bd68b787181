// Twice is the same as once through device functions, also when kept
// parameters stay as spec.param (materialize-kept=false): the second run
// plans the device function again (its kept 'n'), finds the kernel that
// calls it but leaves it alone (nothing left to pass on), and keeps the
// kernel's record of the argument it took for the device function. The
// records name source locations: printed with them, both runs name the same.
// RUN: fly-opt %s --hoist-stride-specialization=remarks=false -mlir-print-debuginfo > %t.once
// RUN: fly-opt %t.once --hoist-stride-specialization=remarks=false -mlir-print-debuginfo > %t.twice
// RUN: diff %t.once %t.twice
// RUN: fly-opt %s --hoist-stride-specialization="remarks=false materialize-kept=false" -mlir-print-debuginfo > %t.k.once
// RUN: fly-opt %t.k.once --hoist-stride-specialization="remarks=false materialize-kept=false" -mlir-print-debuginfo > %t.k.twice
// RUN: diff %t.k.once %t.k.twice
// RUN: fly-opt %t.k.twice | FileCheck %s

// CHECK-LABEL: func.func @k(
// CHECK-SAME: %{{.*}}: memref<?xf32>, %[[W:.*]]: index) attributes {gpu.kernel, spec.record = #spec.record<hoisted = [#spec.hoisted<name = "w", type = index, argument = 1>], kept = [], kept_locations = [], launch_sites = [#loc{{[0-9]*}}]>}
// CHECK: call @d(%{{.*}}, %[[W]])
// CHECK-LABEL: func.func @d(
// CHECK-SAME: %{{.*}}: memref<?xf32>, %{{.*}}: index) attributes {spec.record = #spec.record<device = true, hoisted = [#spec.hoisted<name = "w", type = index, argument = 1>], kept = [#spec.kept<name = "n", value = 3, reason = "loop-bound">], kept_locations = [#loc{{[0-9]*}}], launch_sites = [#loc{{[0-9]*}}]>} {
// CHECK: spec.param "n" = 3 : index
// CHECK-LABEL: func.func @host
// CHECK: arith.constant 96 : index
module attributes {gpu.container_module} {
  gpu.module @g {
    func.func @k(%m: memref<?xf32>) attributes {gpu.kernel} {
      func.call @d(%m) : (memref<?xf32>) -> ()
      return
    }
    func.func @d(%m: memref<?xf32>) {
      %w = spec.param "w" = 96 : index
      %n = spec.param "n" = 3 : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      scf.for %i = %c0 to %n step %c1 {
        %o = arith.addi %i, %w : index
        %v = memref.load %m[%o] : memref<?xf32>
        memref.store %v, %m[%i] : memref<?xf32>
      }
      return
    }
  }
  func.func @host(%m: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @g::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>)
    return
  }
}
