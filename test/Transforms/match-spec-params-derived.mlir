// RUN: fly-opt %s -split-input-file -verify-diagnostics --match-spec-params | FileCheck %s

// A template whose derived values (infer-spec-params from three or more
// traces) are computed from the width: a trace matches when each constant
// facing a derived value is that value at the width the trace binds, as the
// kernel computes it (wrapping at the type's width, a cast sign-extending).

module {
  module {
    func.func @products(%r: index) -> index {
      %w = spec.param "width" = 64 : index
      %w1 = spec.param "width" = 64 : index
      %c4 = arith.constant {flyhoist.derived = "p0"} 4 : index
      %p0 = arith.muli %w1, %c4 {flyhoist.derived = "p0"} : index
      %w2 = spec.param "width" = 64 : index
      %c1 = arith.constant {flyhoist.derived = "p2"} 1 : index
      %p2 = arith.addi %w2, %c1 {flyhoist.derived = "p2"} : index
      %a = arith.muli %r, %w : index
      // expected-error @+1 {{trace does not match the template: operand 1 is a value derived for 'p0' (68 for the trace's roots) in the template and constant 72 in the trace}}
      %b = arith.muli %r, %p0 : index
      %d = arith.addi %a, %b : index
      %f = arith.addi %d, %p2 : index
      return %f : index
    }
  }
  // expected-remark @+1 {{matched: width = 17}}
  module {
    func.func @products(%r: index) -> index {
      %c17 = arith.constant 17 : index
      %c68 = arith.constant 68 : index
      %c18 = arith.constant 18 : index
      %a = arith.muli %r, %c17 : index
      %b = arith.muli %r, %c68 : index
      %d = arith.addi %a, %b : index
      %f = arith.addi %d, %c18 : index
      return %f : index
    }
  }
  // The relation breaks on this trace (the frontend's stride changed):
  // a mismatch, so the value is compiled for (or the group widened).
  module {
    func.func @products(%r: index) -> index {
      %c17 = arith.constant 17 : index
      // expected-note @+1 {{the trace here}}
      %c72 = arith.constant 72 : index
      %c18 = arith.constant 18 : index
      %a = arith.muli %r, %c17 : index
      %b = arith.muli %r, %c72 : index
      %d = arith.addi %a, %b : index
      %f = arith.addi %d, %c18 : index
      return %f : index
    }
  }
}

// -----

// The derived value's uses come first in IR order: it is checked once the
// whole trace has bound the root.

// CHECK-LABEL: func.func @later_root
module {
  module {
    func.func @later_root(%r: index) -> index {
      %w1 = spec.param "width" = 64 : index
      %c1 = arith.constant {flyhoist.derived = "p0"} 1 : index
      %p0 = arith.addi %w1, %c1 {flyhoist.derived = "p0"} : index
      %b = arith.muli %r, %p0 : index
      %w = spec.param "width" = 64 : index
      %a = arith.muli %b, %w : index
      return %a : index
    }
  }
  // expected-remark @+1 {{matched: width = 9}}
  module {
    func.func @later_root(%r: index) -> index {
      %c10 = arith.constant 10 : index
      %b = arith.muli %r, %c10 : index
      %c9 = arith.constant 9 : index
      %a = arith.muli %b, %c9 : index
      return %a : index
    }
  }
}

// -----

// i32 wraparound: 4*w computed in i32 wraps at w = 2^29 to -2^31, and the
// trace's constant is that; an i64 derived from an i32 root sign-extends
// it (w = -1 gives -4, not 2^32 - 4).

module {
  module {
    func.func @wrap(%r: i32, %l: i64) -> (i32, i64) {
      %w = spec.param "w" = 64 : i32
      %w1 = spec.param "w" = 64 : i32
      %c4 = arith.constant {flyhoist.derived = "p0"} 4 : i32
      %p0 = arith.muli %w1, %c4 {flyhoist.derived = "p0"} : i32
      %w2 = spec.param "w" = 64 : i32
      %e = arith.extsi %w2 {flyhoist.derived = "p1"} : i32 to i64
      %c4l = arith.constant {flyhoist.derived = "p1"} 4 : i64
      %p1 = arith.muli %e, %c4l {flyhoist.derived = "p1"} : i64
      %a = arith.muli %r, %w : i32
      %b = arith.addi %a, %p0 : i32
      // expected-error @+1 {{operand 1 is a value derived for 'p1' (-4 for the trace's roots) in the template and constant 4294967292 in the trace}}
      %c = arith.muli %l, %p1 : i64
      return %b, %c : i32, i64
    }
  }
  // expected-remark @+1 {{matched: w = 536870912}}
  module {
    func.func @wrap(%r: i32, %l: i64) -> (i32, i64) {
      %cw = arith.constant 536870912 : i32
      %c = arith.constant -2147483648 : i32
      %cl = arith.constant 2147483648 : i64
      %a = arith.muli %r, %cw : i32
      %b = arith.addi %a, %c : i32
      %d = arith.muli %l, %cl : i64
      return %b, %d : i32, i64
    }
  }
  // expected-remark @+1 {{matched: w = -1}}
  module {
    func.func @wrap(%r: i32, %l: i64) -> (i32, i64) {
      %cw = arith.constant -1 : i32
      %c = arith.constant -4 : i32
      %cl = arith.constant -4 : i64
      %a = arith.muli %r, %cw : i32
      %b = arith.addi %a, %c : i32
      %d = arith.muli %l, %cl : i64
      return %b, %d : i32, i64
    }
  }
  module {
    func.func @wrap(%r: i32, %l: i64) -> (i32, i64) {
      %cw = arith.constant -1 : i32
      %c = arith.constant -4 : i32
      // expected-note @+1 {{the trace here}}
      %cl = arith.constant 4294967292 : i64
      %a = arith.muli %r, %cw : i32
      %b = arith.addi %a, %c : i32
      %d = arith.muli %l, %cl : i64
      return %b, %d : i32, i64
    }
  }
}

// -----

// A template whose derived ops do not compute from a parameter (a block
// argument), or whose root has no use of its own: no match.

module {
  module {
    func.func @forged(%r: index) -> index {
      %w = spec.param "width" = 64 : index
      %c4 = arith.constant {flyhoist.derived = "p0"} 4 : index
      %p0 = arith.muli %r, %c4 {flyhoist.derived = "p0"} : index
      // expected-error @+1 {{trace does not match the template: operand 1 is a value derived for 'p0' that cannot be computed}}
      %b = arith.muli %r, %p0 : index
      %a = arith.muli %b, %w : index
      return %a : index
    }
  }
  module {
    func.func @forged(%r: index) -> index {
      // expected-note @+1 {{the trace here}}
      %c4 = arith.constant 36 : index
      %b = arith.muli %r, %c4 : index
      %c9 = arith.constant 9 : index
      %a = arith.muli %b, %c9 : index
      return %a : index
    }
  }
}

// -----

module {
  module {
    func.func @no_root(%r: index) -> index {
      %w = spec.param "width" = 64 : index
      %c4 = arith.constant {flyhoist.derived = "p0"} 4 : index
      %p0 = arith.muli %w, %c4 {flyhoist.derived = "p0"} : index
      // expected-error @+1 {{operand 1 is a value derived for 'p0' that cannot be computed: its root 'width' has no value in the trace}}
      %b = arith.muli %r, %p0 : index
      return %b : index
    }
  }
  module {
    func.func @no_root(%r: index) -> index {
      // expected-note @+1 {{the trace here}}
      %c4 = arith.constant 36 : index
      %b = arith.muli %r, %c4 : index
      return %b : index
    }
  }
}

// -----

// Overflow flags on a marked op: not a derived op (the walk compares it
// like any other op: here with the trace's first multiplication).

module {
  module {
    func.func @flags(%r: index) -> index {
      %w = spec.param "width" = 64 : index
      %w1 = spec.param "width" = 64 : index
      %c4 = arith.constant {flyhoist.derived = "p0"} 4 : index
      // expected-error @+1 {{trace does not match the template: attribute 'flyhoist.derived' differs: "p0" vs none}}
      %p0 = arith.muli %w1, %c4 overflow<nsw> {flyhoist.derived = "p0"} : index
      %a = arith.muli %r, %w : index
      %b = arith.muli %a, %p0 : index
      return %b : index
    }
  }
  module {
    func.func @flags(%r: index) -> index {
      %c9 = arith.constant 9 : index
      %c36 = arith.constant 36 : index
      // expected-note @+1 {{the trace here}}
      %a = arith.muli %r, %c9 : index
      %b = arith.muli %a, %c36 : index
      return %b : index
    }
  }
}

// -----

// A template with a 32-bit index (its data layout) whose derived index
// values were forged: not evaluated, no match.

module {
  module attributes {dlti.dl_spec = #dlti.dl_spec<index = 32>} {
    func.func @narrow(%r: index) -> index {
      %w = spec.param "width" = 64 : index
      %w1 = spec.param "width" = 64 : index
      %c4 = arith.constant {flyhoist.derived = "p0"} 4 : index
      %p0 = arith.muli %w1, %c4 {flyhoist.derived = "p0"} : index
      %a = arith.muli %r, %w : index
      // expected-error @+1 {{operand 1 is a value derived for 'p0' that cannot be computed}}
      %b = arith.muli %a, %p0 : index
      return %b : index
    }
  }
  module attributes {dlti.dl_spec = #dlti.dl_spec<index = 32>} {
    func.func @narrow(%r: index) -> index {
      %c9 = arith.constant 9 : index
      // expected-note @+1 {{the trace here}}
      %c36 = arith.constant 36 : index
      %a = arith.muli %r, %c9 : index
      %b = arith.muli %a, %c36 : index
      return %b : index
    }
  }
}
