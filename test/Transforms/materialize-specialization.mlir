// RUN: fly-opt %s -split-input-file -verify-diagnostics --materialize-specialization | FileCheck %s

// CHECK-LABEL: func.func @everything
// CHECK-NOT: spec.param
// CHECK-DAG: arith.constant 128 : i32
// CHECK-DAG: arith.constant 4 : index
// CHECK-DAG: arith.constant -1 : i64
func.func @everything(%s: i32) -> (i32, index, i64) {
  %w = spec.param "w" = 128 equals %s : i32
  %h = spec.param "h" = 4 : index
  %n = spec.param "n" = -1 : i64
  return %w, %h, %n : i32, index, i64
}

// -----

func.func @conflict() -> (i32, i32) {
  // expected-note @+1 {{first defined here}}
  %a = spec.param "w" = 1 : i32
  // expected-error @+1 {{parameter 'w' has value 2 here but 1 elsewhere; one name has one value}}
  %b = spec.param "w" = 2 : i32
  return %a, %b : i32, i32
}

// -----

// Inside an llvm.func the constants are LLVM dialect constants, as the
// hoisting pass makes them there: a module written in the LLVM dialect stays
// so. An index parameter has no LLVM type and stays arith.
// CHECK-LABEL: llvm.func @llvm_kernel
// CHECK-NOT: spec.param
// CHECK-NOT: arith.constant {{.*}} : i64
// CHECK: %[[C:.*]] = llvm.mlir.constant(8 : i64) : i64
// CHECK: llvm.getelementptr %{{.*}}[%[[C]]]
// CHECK: arith.constant 4 : index
llvm.func @llvm_kernel(%p: !llvm.ptr) attributes {spec.kernel} {
  %s = spec.param "s" = 8 : i64
  %g = llvm.getelementptr %p[%s] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %h = spec.param "h" = 4 : index
  llvm.return
}
