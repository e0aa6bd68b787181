// RUN: fly-opt %s -split-input-file -verify-diagnostics --match-spec-params | FileCheck %s

// A trace whose frontend folded an op of the template away (canonicalize:
// `x * 1` at width 1, `x + 0` at 0): the template's op is absorbed (its
// result is the trace's `x`) and its parameter takes the identity, bound as
// if a constant faced it. Anything else than the fold still mismatches.

// CHECK-LABEL: func.func @mul_right
module {
  module {
    func.func @mul_right(%m: memref<?xf32>, %r: index, %b: index) -> f32 {
      %w = spec.param "width" = 64 : index
      %s = spec.param "p0" = 256 : index
      %a = arith.muli %r, %w : index
      %o = arith.muli %b, %s : index
      %d = arith.addi %a, %o : index
      %v = memref.load %m[%d] : memref<?xf32>
      return %v : f32
    }
  }
  // expected-remark @+1 {{matched: width = 1, p0 = 4}}
  module {
    func.func @mul_right(%m: memref<?xf32>, %r: index, %b: index) -> f32 {
      %c4 = arith.constant 4 : index
      %o = arith.muli %b, %c4 : index
      %d = arith.addi %r, %o : index
      %v = memref.load %m[%d] : memref<?xf32>
      return %v : f32
    }
  }
  // Not folded: matched as before.
  // expected-remark @+1 {{matched: width = 3, p0 = 12}}
  module {
    func.func @mul_right(%m: memref<?xf32>, %r: index, %b: index) -> f32 {
      %c3 = arith.constant 3 : index
      %c12 = arith.constant 12 : index
      %a = arith.muli %r, %c3 : index
      %o = arith.muli %b, %c12 : index
      %d = arith.addi %a, %o : index
      %v = memref.load %m[%d] : memref<?xf32>
      return %v : f32
    }
  }
}

// -----

// The parameter on the left (the frontend's operand order), in LLVM's
// dialect, the fold the last op before the terminator.

// CHECK-LABEL: llvm.func @mul_left
module {
  module {
    llvm.func @mul_left(%r: i64) -> i64 {
      %w = spec.param "width" = 64 : i64
      %a = llvm.mul %w, %r : i64
      llvm.return %a : i64
    }
  }
  // expected-remark @+1 {{matched: width = 1}}
  module {
    llvm.func @mul_left(%r: i64) -> i64 {
      llvm.return %r : i64
    }
  }
}

// -----

// x + 0 and shifts by 0: each parameter takes its op's identity.

// CHECK-LABEL: func.func @add_shift
module {
  module {
    func.func @add_shift(%r: i32) -> i32 {
      %base = spec.param "base" = 7 : i32
      %sh = spec.param "shift" = 3 : i32
      %lsh = spec.param "lshift" = 2 : i32
      %a = arith.addi %r, %base : i32
      %b = arith.shli %a, %sh : i32
      %c = llvm.lshr %b, %lsh : i32
      %d = arith.xori %c, %r : i32
      return %d : i32
    }
  }
  // expected-remark @+1 {{matched: base = 0, shift = 3, lshift = 0}}
  module {
    func.func @add_shift(%r: i32) -> i32 {
      %c3 = arith.constant 3 : i32
      %b = arith.shli %r, %c3 : i32
      %d = arith.xori %b, %r : i32
      return %d : i32
    }
  }
}

// -----

// A shift amount is the right operand only: `3 << r` is no fold of
// `r << shift`. The shli is taken as folded away (the trace's next op does
// not align as it), and the mismatch is where the walk stops, saying so.
module {
  module {
    func.func @shift_order(%r: i32) -> i32 {
      %sh = spec.param "shift" = 3 : i32
      %b = arith.shli %r, %sh : i32
      // expected-error @+1 {{trace does not match the template: after taking 'arith.shli' with spec.param 'shift' = 0 as folded away in the trace: 'func.return' vs 'arith.shli'}}
      return %b : i32
    }
  }
  module {
    func.func @shift_order(%r: i32) -> i32 {
      %c3 = arith.constant 3 : i32
      // expected-note @+1 {{the trace here}}
      %b = arith.shli %c3, %r : i32
      return %b : i32
    }
  }
}

// -----

// A division by 1 and `x | 0`, the parameter of the `or` on the left.

// CHECK-LABEL: func.func @div_or
module {
  module {
    func.func @div_or(%r: i64) -> i64 {
      %d = spec.param "divisor" = 16 : i64
      %o = spec.param "bits" = 4 : i64
      %q = arith.divui %r, %d : i64
      %u = arith.ori %o, %q : i64
      %v = llvm.sdiv %u, %d : i64
      return %v : i64
    }
  }
  // expected-remark @+1 {{matched: divisor = 1, bits = 0}}
  module {
    func.func @div_or(%r: i64) -> i64 {
      return %r : i64
    }
  }
}

// -----

// A derived value (computed from the width in the kernel) absorbed: the
// width bound elsewhere must make it the identity.

module {
  module {
    func.func @derived(%r: index, %s: index) -> index {
      %w = spec.param "width" = 64 : index
      %w1 = spec.param "width" = 64 : index
      %cm = arith.constant {flyhoist.derived = "p0"} -63 : index
      %p0 = arith.addi %w1, %cm {flyhoist.derived = "p0"} : index
      %a = arith.muli %s, %w : index
      // expected-error @+1 {{trace does not match the template: after taking 'arith.muli' with value derived for 'p0' = 1 as folded away in the trace: operand 1 is a value derived for 'p0' (2 for the trace's roots) in the template and the identity 1 of a folded-away 'arith.muli' in the trace}}
      %b = arith.muli %r, %p0 : index
      %c = arith.addi %a, %b : index
      return %c : index
    }
  }
  // width = 64: p0 = 1, folded.
  // expected-remark @+1 {{matched: width = 64}}
  module {
    func.func @derived(%r: index, %s: index) -> index {
      %c64 = arith.constant 64 : index
      %a = arith.muli %s, %c64 : index
      %c = arith.addi %a, %r : index
      return %c : index
    }
  }
  // width = 65: p0 = 2, which the trace cannot have folded.
  module {
    func.func @derived(%r: index, %s: index) -> index {
      %c65 = arith.constant 65 : index
      %a = arith.muli %s, %c65 : index
      // expected-note @+1 {{the trace here}}
      %c = arith.addi %a, %r : index
      return %c : index
    }
  }
}

// -----

// A derived value absorbed whose root the trace binds nowhere: it cannot
// be computed, so nothing says the fold is right.
module {
  module {
    func.func @derived_alone(%r: index) -> index {
      %w1 = spec.param "width" = 64 : index
      %cm = arith.constant {flyhoist.derived = "p0"} -63 : index
      %p0 = arith.addi %w1, %cm {flyhoist.derived = "p0"} : index
      // expected-error @+1 {{trace does not match the template: after taking 'arith.muli' with value derived for 'p0' = 1 as folded away in the trace: operand 1 is a value derived for 'p0' that cannot be computed: its root 'width' has no value in the trace}}
      %b = arith.muli %r, %p0 : index
      return %b : index
    }
  }
  module {
    func.func @derived_alone(%r: index) -> index {
      // expected-note @+1 {{the trace here}}
      return %r : index
    }
  }
}

// -----

// One name bound to 1 by an absorption, to 5 by a constant after it.
module {
  module {
    func.func @bound_then(%r: index) -> index {
      %w = spec.param "width" = 64 : index
      %a = arith.muli %r, %w : index
      // expected-error @+1 {{trace does not match the template: after taking 'arith.muli' with spec.param 'width' = 1 as folded away in the trace: operand 1 takes 5 for 'width', which is 1 at its first use}}
      %b = arith.addi %a, %w : index
      return %b : index
    }
  }
  module {
    func.func @bound_then(%r: index) -> index {
      %c5 = arith.constant 5 : index
      // expected-note @+1 {{the trace here}}
      %b = arith.addi %r, %c5 : index
      return %b : index
    }
  }
}

// -----

// An op absorbed at the wrong value: the trace shows `x` where the
// template multiplies by the width, which its other use says is 5.
module {
  module {
    func.func @wrong_value(%r: index) -> index {
      %w = spec.param "width" = 64 : index
      %a = arith.addi %r, %w : index
      // expected-error @+1 {{trace does not match the template: 'arith.muli' with spec.param 'width' = 1 has no counterpart in the trace, but operand 1 takes 1 for 'width', which is 5 at its first use}}
      %b = arith.muli %a, %w : index
      return %b : index
    }
  }
  module {
    func.func @wrong_value(%r: index) -> index {
      %c5 = arith.constant 5 : index
      %a = arith.addi %r, %c5 : index
      // expected-note @+1 {{the trace here}}
      return %a : index
    }
  }
}

// -----

// Two consecutive muls, one folded. The trace's mul aligns as the first
// template mul, so the first is aligned and the second absorbed: whichever
// the frontend folded, the product is the same (r * 7 * 1 = r * 1 * 7).

// CHECK-LABEL: func.func @two_muls
module {
  module {
    func.func @two_muls(%r: index) -> index {
      %w = spec.param "width" = 8 : index
      %h = spec.param "height" = 16 : index
      %y = arith.muli %r, %w : index
      %z = arith.muli %y, %h : index
      return %z : index
    }
  }
  // The height folded.
  // expected-remark @+1 {{matched: width = 7, height = 1}}
  module {
    func.func @two_muls(%r: index) -> index {
      %c7 = arith.constant 7 : index
      %y = arith.muli %r, %c7 : index
      return %y : index
    }
  }
  // Neither folded.
  // expected-remark @+1 {{matched: width = 7, height = 3}}
  module {
    func.func @two_muls(%r: index) -> index {
      %c7 = arith.constant 7 : index
      %c3 = arith.constant 3 : index
      %y = arith.muli %r, %c7 : index
      %z = arith.muli %y, %c3 : index
      return %z : index
    }
  }
}

// -----

// Two consecutive muls where the width folded and is used again: the
// trace's mul is aligned as the width's, and the width's later use then
// disagrees. A mismatch (compiled per value), never a wrong binding.
module {
  module {
    func.func @two_muls_used(%r: index) -> index {
      %w = spec.param "width" = 8 : index
      %h = spec.param "height" = 16 : index
      %y = arith.muli %r, %w : index
      %z = arith.muli %y, %h : index
      // expected-error @+1 {{trace does not match the template: after taking 'arith.muli' with spec.param 'height' = 1 as folded away in the trace: operand 1 takes 1 for 'width', which is 9 at its first use}}
      %u = arith.addi %z, %w : index
      return %u : index
    }
  }
  module {
    func.func @two_muls_used(%r: index) -> index {
      %c9 = arith.constant 9 : index
      %c1 = arith.constant 1 : index
      %z = arith.muli %r, %c9 : index
      // expected-note @+1 {{the trace here}}
      %u = arith.addi %z, %c1 : index
      return %u : index
    }
  }
}

// -----

// `x` a leaf: at width 1 the product is the constant 8 in the trace (the
// frontend folded it), which the template's uses of the product do not
// face. Not absorbed.
module {
  module {
    func.func @leaf_x(%r: index) -> index {
      %h = spec.param "height" = 8 : index
      %w = spec.param "width" = 64 : index
      // expected-error @+1 {{trace does not match the template: 'arith.muli' vs 'arith.addi'}}
      %y = arith.muli %h, %w : index
      %z = arith.addi %r, %y : index
      return %z : index
    }
  }
  module {
    func.func @leaf_x(%r: index) -> index {
      %c8 = arith.constant 8 : index
      // expected-note @+1 {{the trace here}}
      %z = arith.addi %r, %c8 : index
      return %z : index
    }
  }
}

// -----

// The same with a plain constant for `x`.
module {
  module {
    func.func @constant_x(%r: index) -> index {
      %c8 = arith.constant 8 : index
      %w = spec.param "width" = 64 : index
      // expected-error @+1 {{trace does not match the template: 'arith.muli' vs 'arith.addi'}}
      %y = arith.muli %c8, %w : index
      %z = arith.addi %r, %y : index
      return %z : index
    }
  }
  module {
    func.func @constant_x(%r: index) -> index {
      %c8 = arith.constant 8 : index
      // expected-note @+1 {{the trace here}}
      %z = arith.addi %r, %c8 : index
      return %z : index
    }
  }
}

// -----

// A plain constant as `P`, and a parameter with `equals` (kept, compiled
// in): neither is a value the match may bind, so neither is absorbed.
module {
  module {
    func.func @not_params(%r: index, %s: index) -> index {
      %c1 = arith.constant 1 : index
      // expected-error @+1 {{trace does not match the template: 'arith.muli' vs 'func.return'}}
      %y = arith.muli %r, %c1 : index
      return %y : index
    }
  }
  module {
    func.func @not_params(%r: index, %s: index) -> index {
      // expected-note @+1 {{the trace here}}
      return %r : index
    }
  }
}

// -----

module {
  module {
    func.func @equals(%r: index, %s: index) -> index {
      %n = spec.param "rows" = 1 equals %s : index
      // expected-error @+1 {{trace does not match the template: 'arith.muli' vs 'func.return'}}
      %y = arith.muli %r, %n : index
      return %y : index
    }
  }
  module {
    func.func @equals(%r: index, %s: index) -> index {
      %n = spec.param "rows" = 1 equals %s : index
      // expected-note @+1 {{the trace here}}
      return %r : index
    }
  }
}

// -----

// A result-type change: the absorbed mul's result is cast after it, and the
// cast aligns with the trace's cast of `x`.

// CHECK-LABEL: func.func @cast_after
module {
  module {
    func.func @cast_after(%m: memref<?xf32>, %x: i32) -> f32 {
      %w = spec.param "width" = 64 : i32
      %y = arith.muli %x, %w : i32
      %c = arith.index_cast %y : i32 to index
      %v = memref.load %m[%c] : memref<?xf32>
      return %v : f32
    }
  }
  // expected-remark @+1 {{matched: width = 1}}
  module {
    func.func @cast_after(%m: memref<?xf32>, %x: i32) -> f32 {
      %c = arith.index_cast %x : i32 to index
      %v = memref.load %m[%c] : memref<?xf32>
      return %v : f32
    }
  }
}

// -----

// The trace narrows where the template multiplies: the mul is taken as
// folded, and the cast that follows in the template does not align with the
// trace's truncation.
module {
  module {
    func.func @cast_instead(%x: i64) -> index {
      %w = spec.param "width" = 64 : i64
      %y = arith.muli %x, %w : i64
      // expected-error @+1 {{trace does not match the template: after taking 'arith.muli' with spec.param 'width' = 1 as folded away in the trace: 'arith.index_cast' vs 'arith.trunci'}}
      %c = arith.index_cast %y : i64 to index
      return %c : index
    }
  }
  module {
    func.func @cast_instead(%x: i64) -> index {
      // expected-note @+1 {{the trace here}}
      %t = arith.trunci %x : i64 to i32
      %c = arith.index_cast %t : i32 to index
      return %c : index
    }
  }
}

// -----

// A signed division of i1 by its 1 (which reads as -1) is not `x`: -1 / -1
// overflows. Canonicalize folds it away all the same (mlir-opt-22's divsi
// folder reads the bits), but matching does not absorb it (the build before
// matched this with flag = 1): a trace without it does not match.
module {
  module {
    func.func @sdiv_i1(%x: i1) -> i1 {
      %d = spec.param "flag" = 0 : i1
      // expected-error @+1 {{trace does not match the template: 'arith.divsi' vs 'func.return'}}
      %q = arith.divsi %x, %d : i1
      return %q : i1
    }
  }
  module {
    func.func @sdiv_i1(%x: i1) -> i1 {
      // expected-note @+1 {{the trace here}}
      return %x : i1
    }
  }
}
