// A failing pass exits non-zero, prints no output module and leaves the IR
// exactly as it was: the hoistable kernel @a keeps its signature and its
// spec.param, nothing is materialized and no record is attached.
//
// RUN: rm -f %t.out
// RUN: not fly-opt %s -split-input-file -hoist-stride-specialization \
// RUN:   -mlir-print-ir-after-failure -o %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err
// RUN: not cat %t.out
// RUN: not fly-opt %s -split-input-file -materialize-specialization -o %t.mat \
// RUN:   -mlir-print-ir-after-failure 2>&1 | FileCheck %s --check-prefix=MAT

// CHECK: error: launch site passes 2 arguments but kernel @kernels::@b takes 1
// CHECK: IR Dump After HoistStrideSpecialization Failed
// CHECK-NOT: spec.record
// CHECK: func.func @a(%arg0: memref<?xf32>) {
// CHECK-NEXT: %0 = spec.param "a" = 16 : index
// CHECK-NEXT: %1 = memref.load %arg0[%0] : memref<?xf32>
// CHECK: func.func @b(%arg0: memref<?xf32>) attributes {gpu.kernel} {
// CHECK-NEXT: %0 = spec.param "b" = 4 : index
// CHECK: call @a(%arg0) : (memref<?xf32>) -> ()
// CHECK-NOT: arith.constant 16
// CHECK: args(%arg0 : memref<?xf32>, %c1 : index)
// CHECK-NOT: spec.record
module attributes {gpu.container_module} {
  func.func @a(%a: memref<?xf32>) {
    %w = spec.param "a" = 16 : index
    %v = memref.load %a[%w] : memref<?xf32>
    memref.store %v, %a[%w] : memref<?xf32>
    return
  }
  gpu.module @kernels {
    func.func @b(%a: memref<?xf32>) attributes {gpu.kernel} {
      %w = spec.param "b" = 4 : index
      %v = memref.load %a[%w] : memref<?xf32>
      memref.store %v, %a[%w] : memref<?xf32>
      return
    }
  }
  func.func @host(%a: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    call @a(%a) : (memref<?xf32>) -> ()
    gpu.launch_func @kernels::@b blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>, %c1 : index)
    return
  }
}

// -----

// CHECK: error: parameter 'n' has value 3 here but 2 elsewhere
// CHECK: IR Dump After HoistStrideSpecialization Failed
// CHECK: func.func @k(%arg0: memref<?xf32>) {
// CHECK-NEXT: %0 = spec.param "s" = 8 : index
// CHECK-NEXT: %1 = spec.param "n" = 2 : index
// CHECK: func.func @host(%arg0: memref<?xf32>) {
// CHECK-NEXT: %0 = spec.param "n" = 3 : index
// CHECK-NEXT: call @k(%arg0) : (memref<?xf32>) -> ()
// MAT: error: parameter 'n' has value 3 here but 2 elsewhere
// MAT: IR Dump After MaterializeSpecialization Failed
// MAT: func.func @k(%arg0: memref<?xf32>) {
// MAT-NEXT: %0 = spec.param "s" = 8 : index
// MAT-NEXT: %1 = spec.param "n" = 2 : index
// MAT-NOT: arith.constant
func.func @k(%a: memref<?xf32>) {
  %s = spec.param "s" = 8 : index
  %n = spec.param "n" = 2 : index
  %i = arith.muli %s, %n : index
  %v = memref.load %a[%i] : memref<?xf32>
  return
}
func.func @host(%a: memref<?xf32>) {
  %n = spec.param "n" = 3 : index
  call @k(%a) : (memref<?xf32>) -> ()
  return
}
