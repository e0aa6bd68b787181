// RUN: fly-opt %s -split-input-file -verify-diagnostics --match-spec-params | FileCheck %s

// A template (what infer-spec-params made) and new traces: each trace gives
// the value of every parameter, read from the constants it faces; constants
// of the template must be the same in the trace.

// CHECK-LABEL: func.func @row
module {
  module {
    func.func @row(%m: memref<?xf32>, %r: index) -> f32 {
      %c4 = arith.constant 4 : index
      %w = spec.param "width" = 128 : index
      %s = spec.param "p0" = 512 : index
      %a = arith.muli %r, %w : index
      %b = arith.muli %r, %s : index
      %c = arith.addi %a, %c4 : index
      %d = arith.addi %c, %b : index
      %v = memref.load %m[%d] : memref<?xf32>
      return %v : f32
    }
  }
  // expected-remark @+1 {{matched: width = 32, p0 = 128}}
  module {
    func.func @row(%m: memref<?xf32>, %r: index) -> f32 {
      %c4 = arith.constant 4 : index
      %c32 = arith.constant 32 : index
      %c128 = arith.constant 128 : index
      %a = arith.muli %r, %c32 : index
      %b = arith.muli %r, %c128 : index
      %c = arith.addi %a, %c4 : index
      %d = arith.addi %c, %b : index
      %v = memref.load %m[%d] : memref<?xf32>
      return %v : f32
    }
  }
  // Canonicalize merged the width with the 4 at width 4: still per use.
  // expected-remark @+1 {{matched: width = 4, p0 = 16}}
  module {
    func.func @row(%m: memref<?xf32>, %r: index) -> f32 {
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %a = arith.muli %r, %c4 : index
      %b = arith.muli %r, %c16 : index
      %c = arith.addi %a, %c4 : index
      %d = arith.addi %c, %b : index
      %v = memref.load %m[%d] : memref<?xf32>
      return %v : f32
    }
  }
}

// -----

// A constant the template holds invariant differs in the trace: the traces
// it was inferred from did not show that it varies.
module {
  module {
    func.func @invariant(%r: index) -> index {
      %c4 = arith.constant 4 : index
      %w = spec.param "width" = 128 : index
      %a = arith.muli %r, %w : index
      // expected-error @+1 {{trace does not match the template: operand 1 is constant 4 in the template and constant 8 in the trace}}
      %b = arith.addi %a, %c4 : index
      return %b : index
    }
  }
  module {
    func.func @invariant(%r: index) -> index {
      %c8 = arith.constant 8 : index
      %c64 = arith.constant 64 : index
      %a = arith.muli %r, %c64 : index
      // expected-note @+1 {{the trace here}}
      %b = arith.addi %a, %c8 : index
      return %b : index
    }
  }
}

// -----

// One name, two values in the trace: the uses the template shares a
// parameter between no longer agree.
module {
  module {
    func.func @two(%r: index) -> index {
      %w = spec.param "width" = 128 : index
      %a = arith.muli %r, %w : index
      // expected-error @+1 {{trace does not match the template: operand 1 takes 32 for 'width', which is 64 at its first use}}
      %b = arith.addi %a, %w : index
      return %b : index
    }
  }
  module {
    func.func @two(%r: index) -> index {
      %c64 = arith.constant 64 : index
      %c32 = arith.constant 32 : index
      %a = arith.muli %r, %c64 : index
      // expected-note @+1 {{the trace here}}
      %b = arith.addi %a, %c32 : index
      return %b : index
    }
  }
}
