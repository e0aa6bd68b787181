// RUN: fly-opt %s -split-input-file -verify-diagnostics --infer-spec-params | FileCheck %s

// Inference aligns traces over everything the compile reads, as matching
// does (match-spec-params-compile-inputs.mlir): root attributes and
// properties must be the same. The value of a spec.param with `equals` may
// differ; the template keeps the base trace's, and a later trace matches
// only with that value.

// A data layout on one trace's root only.
module {
  // expected-error @+1 {{traces do not align: the other trace has attribute 'dlti.dl_spec'}}
  module {
    func.func @k(%m: memref<?xf32>, %r: index) -> f32 {
      %c128 = arith.constant 128 : index
      %a = arith.muli %r, %c128 : index
      %v = memref.load %m[%a] : memref<?xf32>
      return %v : f32
    }
  }
  // expected-note @+1 {{trace 1 here}}
  module attributes {dlti.dl_spec = #dlti.dl_spec<index = 32 : i64>} {
    func.func @k(%m: memref<?xf32>, %r: index) -> f32 {
      %c64 = arith.constant 64 : index
      %a = arith.muli %r, %c64 : index
      %v = memref.load %m[%a] : memref<?xf32>
      return %v : f32
    }
  }
}

// -----

// `nsw` in one trace only (a property, not in the attribute dictionary).
module {
  module {
    llvm.func @k(%a: i64) -> i64 {
      %c128 = llvm.mlir.constant(128 : i64) : i64
      %b = llvm.mul %a, %c128 : i64
      // expected-error @+1 {{traces do not align: property 'overflowFlags' differs: 0 : i32 vs 1 : i32}}
      %c = llvm.add %b, %a : i64
      llvm.return %c : i64
    }
  }
  module {
    llvm.func @k(%a: i64) -> i64 {
      %c64 = llvm.mlir.constant(64 : i64) : i64
      %b = llvm.mul %a, %c64 : i64
      // expected-note @+1 {{trace 1 here}}
      %c = llvm.add %b, %a overflow<nsw> : i64
      llvm.return %c : i64
    }
  }
}

// -----

// The frontend's own parameter with `equals` differs, as the constants
// derived from it do: inferred, with the base's value in the template.

// CHECK-LABEL: func.func @rows
// CHECK:         spec.param "rows" = 8 equals %{{.*}} : index
// CHECK:         spec.param "p0" = 32 : index
module {
  module {
    func.func @rows(%m: memref<?xf32>, %s: index, %r: index) -> f32 {
      %n = spec.param "rows" = 8 equals %s : index
      %c32 = arith.constant 32 : index
      // expected-remark @+1 {{inferred spec.param 'p0' of type 'index': 32, 64 in the traces (1 use)}}
      %a = arith.muli %r, %c32 : index
      %b = arith.addi %a, %n : index
      %v = memref.load %m[%b] : memref<?xf32>
      return %v : f32
    }
  }
  module {
    func.func @rows(%m: memref<?xf32>, %s: index, %r: index) -> f32 {
      %n = spec.param "rows" = 16 equals %s : index
      %c64 = arith.constant 64 : index
      %a = arith.muli %r, %c64 : index
      %b = arith.addi %a, %n : index
      %v = memref.load %m[%b] : memref<?xf32>
      return %v : f32
    }
  }
}

// -----

// Locations differ everywhere (but where the remark points): the traces
// align.

// CHECK-LABEL: func.func @located
// CHECK:         spec.param "p0" = 128 : index
module {
  module {
    func.func @located(%r: index) -> index {
      %c128 = arith.constant 128 : index loc("a.py":1:1)
      // expected-remark @+1 {{inferred spec.param 'p0' of type 'index': 128, 64 in the traces (1 use)}}
      %a = arith.muli %r, %c128 : index
      return %a : index loc(fused["x.py":1:1, "y.py":2:2])
    } loc("kernel")
  } loc(unknown)
  module {
    func.func @located(%r: index loc("z.py":9:9)) -> index {
      %c64 = arith.constant 64 : index loc(callsite("inner.py":1:1 at "outer.py":2:2))
      %a = arith.muli %r, %c64 : index loc("b.py":30:40)
      return %a : index loc(fused<"meta">["q.py":5:5])
    } loc("other"("w.py":7:7))
  }
}

// -----

// The frontend's attributes on a constant that becomes a parameter stay on
// the parameter, so that a later trace tagged alike matches it.

// CHECK-LABEL: func.func @tagged
// CHECK:         spec.param "p0" = 128 {frontend.tag = "width"} : index
module {
  module {
    func.func @tagged(%r: index) -> index {
      %c128 = arith.constant {frontend.tag = "width"} 128 : index
      // expected-remark @+1 {{inferred spec.param 'p0' of type 'index': 128, 64 in the traces (1 use)}}
      %a = arith.muli %r, %c128 : index
      return %a : index
    }
  }
  module {
    func.func @tagged(%r: index) -> index {
      %c64 = arith.constant {frontend.tag = "width"} 64 : index
      %a = arith.muli %r, %c64 : index
      return %a : index
    }
  }
}
