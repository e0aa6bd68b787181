// Inputs that contradict themselves are located errors and leave the module
// exactly as it was: a spec.param `equals` a value known to be another one
// (its uses would silently take that value); a launch site passing such a
// value for an argument a parameter of the callee equals; a launch site whose
// arg_attrs do not match its arguments.
// RUN: fly-opt %s -split-input-file -verify-diagnostics -hoist-stride-specialization=remarks=false \
// RUN:   -mlir-print-op-on-diagnostic=false
// Unchanged on failure: each dump after the failure still holds every
// spec.param and no record.
// RUN: not fly-opt %s -split-input-file -hoist-stride-specialization=remarks=false \
// RUN:   -mlir-print-ir-after-failure -mlir-print-op-on-diagnostic=false 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNCHANGED
// UNCHANGED-NOT: spec.record

// UNCHANGED: error: parameter 'w' = 128 equals a value known to be 64
// UNCHANGED: IR Dump After HoistStrideSpecialization Failed
// UNCHANGED: func.func @arith_constant(%arg0: memref<?xf32>) attributes {spec.kernel} {
// UNCHANGED-NEXT: %c64 = arith.constant 64 : index
// UNCHANGED-NEXT: %0 = spec.param "w" = 128 equals %c64 : index
// UNCHANGED: func.func @ok(%arg0: memref<?xf32>) attributes {spec.kernel} {
// UNCHANGED-NEXT: %0 = spec.param "v" = 8 : index
func.func @arith_constant(%m: memref<?xf32>) attributes {spec.kernel} {
  // expected-note @below {{value defined here}}
  %c = arith.constant 64 : index
  // expected-error @below {{parameter 'w' = 128 equals a value known to be 64; its uses would take that value}}
  %w = spec.param "w" = 128 equals %c : index
  %v = memref.load %m[%w] : memref<?xf32>
  memref.store %v, %m[%w] : memref<?xf32>
  return
}
func.func @ok(%m: memref<?xf32>) attributes {spec.kernel} {
  %w = spec.param "v" = 8 : index
  %v = memref.load %m[%w] : memref<?xf32>
  memref.store %v, %m[%w] : memref<?xf32>
  return
}

// -----

// llvm.mlir.constant in an llvm.func, i32; the same bits written signed
// (255 and -1 : i8) are the same value and pass.

// UNCHANGED: error: parameter 'w' = 7 equals a value known to be -7
// UNCHANGED: IR Dump After HoistStrideSpecialization Failed
// UNCHANGED: spec.param "w" = 7 equals %0 : i32
llvm.func @llvm_constant(%p: !llvm.ptr) {
  // expected-note @below {{value defined here}}
  %c = llvm.mlir.constant(-7 : i32) : i32
  // expected-error @below {{parameter 'w' = 7 equals a value known to be -7}}
  %w = spec.param "w" = 7 equals %c : i32
  %g = llvm.getelementptr %p[%w] : (!llvm.ptr, i32) -> !llvm.ptr, f32
  %v = llvm.load %g : !llvm.ptr -> f32
  llvm.store %v, %p : f32, !llvm.ptr
  llvm.return
}
func.func @same_bits(%m: memref<?xf32>) attributes {spec.kernel} {
  %c = arith.constant -1 : i8
  %b = spec.param "b" = 255 equals %c : i8
  %bi = arith.index_cast %b : i8 to index
  %v = memref.load %m[%bi] : memref<?xf32>
  return
}

// -----

// index.constant, and another spec.param whose marked value differs.

// UNCHANGED: error: parameter 'h' = 16 equals a value known to be 32
// UNCHANGED: IR Dump After HoistStrideSpecialization Failed
// UNCHANGED: spec.param "h" = 16 equals %idx32 : index
func.func @index_constant(%m: memref<?xf32>) attributes {spec.kernel} {
  // expected-note @below {{value defined here}}
  %c = index.constant 32
  // expected-error @below {{parameter 'h' = 16 equals a value known to be 32}}
  %h = spec.param "h" = 16 equals %c : index
  %v = memref.load %m[%h] : memref<?xf32>
  return
}

// -----

// UNCHANGED: error: parameter 'a' = 3 equals a value known to be 5
// UNCHANGED: IR Dump After HoistStrideSpecialization Failed
// UNCHANGED: spec.param "a" = 3 equals %0 : i64
func.func @other_param(%m: memref<?xf32>) attributes {spec.kernel} {
  // expected-note @below {{value defined here}}
  %b = spec.param "b" = 5 : i64
  // expected-error @below {{parameter 'a' = 3 equals a value known to be 5}}
  %a = spec.param "a" = 3 equals %b : i64
  %ai = arith.index_cast %a : i64 to index
  %v = memref.load %m[%ai] : memref<?xf32>
  return
}

// -----

// A gpu.launch_func passing a constant for the argument 'w' equals, at the
// second of two launch sites (the first passes a runtime value, which is what
// the recorded contract is for).

// UNCHANGED: error: launch site passes 64 as argument 1 of @g::@k, which parameter 'w' = 128 equals
// UNCHANGED: IR Dump After HoistStrideSpecialization Failed
// UNCHANGED: gpu.func @k(%arg0: memref<?xf32>, %arg1: index) kernel {
// UNCHANGED-NEXT: spec.param "w" = 128 equals %arg1 : index
// UNCHANGED: args(%arg0 : memref<?xf32>, %arg1 : index)
// UNCHANGED: args(%arg0 : memref<?xf32>, %c64 : index)
module attributes {gpu.container_module} {
  gpu.module @g {
    gpu.func @k(%m: memref<?xf32>, %s: index) kernel {
      // expected-note @below {{parameter defined here}}
      %w = spec.param "w" = 128 equals %s : index
      %v = memref.load %m[%w] : memref<?xf32>
      memref.store %v, %m[%w] : memref<?xf32>
      gpu.return
    }
  }
  func.func @host(%m: memref<?xf32>, %s: index) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @g::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>, %s : index)
    // expected-error @below {{launch site passes 64 as argument 1 of @g::@k, which parameter 'w' = 128 equals}}
    gpu.launch_func @g::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>, %c64 : index)
    return
  }
}

// -----

// llvm.call passing an llvm.mlir.constant; the callee is a device function
// (the kernel's call to it is a launch site too).

// UNCHANGED: error: launch site passes 2 as argument 1 of @d::@dev, which parameter 'w' = 4 equals
// UNCHANGED: IR Dump After HoistStrideSpecialization Failed
// UNCHANGED: spec.param "w" = 4 equals %arg1 : i64
module attributes {gpu.container_module} {
  gpu.module @d {
    llvm.func @kern(%p: !llvm.ptr) attributes {gpu.kernel} {
      %c2 = llvm.mlir.constant(2 : i64) : i64
      // expected-error @below {{launch site passes 2 as argument 1 of @d::@dev, which parameter 'w' = 4 equals}}
      llvm.call @dev(%p, %c2) : (!llvm.ptr, i64) -> ()
      llvm.return
    }
    llvm.func @dev(%p: !llvm.ptr, %s: i64) {
      // expected-note @below {{parameter defined here}}
      %w = spec.param "w" = 4 equals %s : i64
      %g = llvm.getelementptr %p[%w] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %g : !llvm.ptr -> f32
      llvm.store %v, %p : f32, !llvm.ptr
      llvm.return
    }
  }
}

// -----

// func.call passing another parameter's marked value (a spec.param of
// another name): known while compiling, and different.

// UNCHANGED: error: launch site passes 9 as argument 1 of @fk, which parameter 'w' = 4 equals
// UNCHANGED: IR Dump After HoistStrideSpecialization Failed
// UNCHANGED: call @fk(%arg0, %0)
func.func @fk(%m: memref<?xf32>, %s: index) {
  // expected-note @below {{parameter defined here}}
  %w = spec.param "w" = 4 equals %s : index
  %v = memref.load %m[%w] : memref<?xf32>
  memref.store %v, %m[%w] : memref<?xf32>
  return
}
func.func @fhost(%m: memref<?xf32>) {
  %o = spec.param "other" = 9 : index
  // expected-error @below {{launch site passes 9 as argument 1 of @fk, which parameter 'w' = 4 equals}}
  func.call @fk(%m, %o) : (memref<?xf32>, index) -> ()
  return
}

// -----

// A launch site whose arg_attrs do not match its arguments.

// UNCHANGED: error: launch site has 2 argument attribute dictionaries for 1 arguments
// UNCHANGED: IR Dump After HoistStrideSpecialization Failed
// UNCHANGED: func.func @bk(%arg0: memref<?xf32>) {
// UNCHANGED-NEXT: spec.param "w" = 4 : index
// UNCHANGED: call @bk(%arg0) {arg_attrs = [{}, {}]} : (memref<?xf32>) -> ()
func.func @bk(%m: memref<?xf32>) {
  %w = spec.param "w" = 4 : index
  %v = memref.load %m[%w] : memref<?xf32>
  memref.store %v, %m[%w] : memref<?xf32>
  return
}
func.func @host_bad(%m: memref<?xf32>) {
  // expected-error @below {{launch site has 2 argument attribute dictionaries for 1 arguments}}
  func.call @bk(%m) {arg_attrs = [{}, {}]} : (memref<?xf32>) -> ()
  return
}
