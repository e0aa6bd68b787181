// RUN: fly-opt %s -split-input-file -verify-diagnostics --infer-spec-params | FileCheck %s

// Inference never absorbs an op the other trace folded away (`x * 1` at
// width 1): both sides are traces, and a trace with an op fewer is another
// kernel to learn from. Only matching against a template absorbs one
// (match-spec-params-folds.mlir).

module {
  module {
    func.func @folded(%r: index, %b: index) -> index {
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      // expected-error @+1 {{traces do not align: operand 0 comes from another value}}
      %a = arith.muli %r, %c8 : index
      %o = arith.muli %b, %c32 : index
      %d = arith.addi %a, %o : index
      return %d : index
    }
  }
  module {
    func.func @folded(%r: index, %b: index) -> index {
      %c4 = arith.constant 4 : index
      // expected-note @+1 {{trace 1 here}}
      %o = arith.muli %b, %c4 : index
      %d = arith.addi %r, %o : index
      return %d : index
    }
  }
}

// -----

// The same with a parameter the frontend marked in the base: still not
// absorbed (the base is a trace, not a template).
module {
  module {
    func.func @marked(%r: index) -> index {
      %w = spec.param "width" = 8 : index
      // expected-error @+1 {{traces do not align: 'arith.muli' vs 'func.return'}}
      %a = arith.muli %r, %w : index
      return %a : index
    }
  }
  module {
    func.func @marked(%r: index) -> index {
      // expected-note @+1 {{trace 1 here}}
      return %r : index
    }
  }
}

// -----

// CHECK-LABEL: func.func @unfolded
// CHECK: %[[P:.*]] = spec.param "p0" = 8 : index
// CHECK: arith.muli %{{.*}}, %[[P]] : index
module {
  module {
    func.func @unfolded(%r: index) -> index {
      %c8 = arith.constant 8 : index
      // expected-remark @+1 {{inferred spec.param 'p0' of type 'index': 8, 2 in the traces (1 use)}}
      %a = arith.muli %r, %c8 : index
      return %a : index
    }
  }
  module {
    func.func @unfolded(%r: index) -> index {
      %c2 = arith.constant 2 : index
      %a = arith.muli %r, %c2 : index
      return %a : index
    }
  }
}
