// RUN: fly-opt %s -split-input-file -verify-diagnostics --hoist-stride-specialization=remarks=false
// The IR must be unchanged after an error: the printed module still holds
// every spec.param and the kernels keep their signatures.
// RUN: not fly-opt %s -split-input-file --hoist-stride-specialization=remarks=false --mlir-print-ir-after-failure \
// RUN:   --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=UNCHANGED

// UNCHANGED: error: parameter 'w' has value 64 here but 32 elsewhere
// UNCHANGED: IR Dump After HoistStrideSpecialization Failed
// UNCHANGED: func.func @k(%{{.*}}: memref<?xf32>) attributes {spec.kernel}
// UNCHANGED-NEXT: spec.param "w" = 32 : index
// UNCHANGED: func.func @host() -> index {
// UNCHANGED-NEXT: spec.param "w" = 64 : index

func.func @k(%m: memref<?xf32>) attributes {spec.kernel} {
  // expected-note @+1 {{first defined here}}
  %w = spec.param "w" = 32 : index
  %v = memref.load %m[%w] : memref<?xf32>
  memref.store %v, %m[%w] : memref<?xf32>
  return
}
func.func @host() -> index {
  // expected-error @+1 {{parameter 'w' has value 64 here but 32 elsewhere; one name has one value}}
  %w = spec.param "w" = 64 : index
  return %w : index
}

// -----

// A launch whose operands do not match its kernel is rejected before the
// pass runs (the pass checks again for modules built without verification).
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%m: memref<?xf32>, %i: index) kernel {
      %w = spec.param "w" = 32 : index
      %v = memref.load %m[%w] : memref<?xf32>
      memref.store %v, %m[%i] : memref<?xf32>
      gpu.return
    }
  }
  func.func @host(%m: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'gpu.launch_func' op got 1 kernel operands but expected 2}}
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>)
    return
  }
}

