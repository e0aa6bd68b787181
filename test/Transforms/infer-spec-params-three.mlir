// RUN: fly-opt %s -verify-diagnostics --infer-spec-params='values=width=128:64:128' | FileCheck %s

// Three traces; a frontend that marks some values (heads) and not others.
// The marked parameter keeps its op; a constant equal in two traces of
// three still varies; the values option names what matches.

// CHECK-LABEL: func.func @three
// CHECK-DAG:     %[[H:.*]] = spec.param "heads" = 8 : i32
// CHECK-DAG:     %[[W:.*]] = spec.param "width" = 128 : i32
// CHECK:         arith.muli %{{.*}}, %[[W]] : i32
// CHECK:         arith.addi %{{.*}}, %[[H]] : i32
module {
  module {
    func.func @three(%r: i32) -> i32 {
      %h = spec.param "heads" = 8 : i32
      %c128 = arith.constant 128 : i32
      // expected-remark @+1 {{inferred spec.param 'width' of type 'i32': 128, 64, 128 in the traces (1 use)}}
      %a = arith.muli %r, %c128 : i32
      %b = arith.addi %a, %h : i32
      return %b : i32
    }
  }
  module {
    func.func @three(%r: i32) -> i32 {
      %h = spec.param "heads" = 16 : i32
      %c64 = arith.constant 64 : i32
      %a = arith.muli %r, %c64 : i32
      %b = arith.addi %a, %h : i32
      return %b : i32
    }
  }
  module {
    func.func @three(%r: i32) -> i32 {
      %h = spec.param "heads" = 8 : i32
      %c128 = arith.constant 128 : i32
      %a = arith.muli %r, %c128 : i32
      %b = arith.addi %a, %h : i32
      return %b : i32
    }
  }
}
