// RUN: fly-opt %s -split-input-file -verify-diagnostics --match-spec-params -o /dev/null

// "The same up to the parameter values" covers everything the compile
// reads: the root module's own attributes, properties outside the attribute
// dictionary, the value of a spec.param with `equals`, nested modules and
// their targets. Each case below was accepted before (the template's code
// would have been launched for a trace compiled differently), except the
// gpu.module target, which is here so that it stays caught. Locations are
// not compared: frontends trace from different lines.

// A data layout on the trace's root: a 32-bit index changes the kernel's
// argument block.
module {
  // expected-error @+1 {{trace does not match the template: the other trace has attribute 'dlti.dl_spec'}}
  module {
    func.func @k(%m: memref<?xf32>, %r: index) -> f32 {
      %w = spec.param "width" = 128 : index
      %a = arith.muli %r, %w : index
      %v = memref.load %m[%a] : memref<?xf32>
      return %v : f32
    }
  }
  // expected-note @+1 {{the trace here}}
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

// An attribute only on the template's root.
module {
  // expected-error @+1 {{trace does not match the template: attribute 'flyhoist.test' differs: 1 : i32 vs none}}
  module attributes {flyhoist.test = 1 : i32} {
    func.func @k(%r: index) -> index {
      %w = spec.param "width" = 128 : index
      %a = arith.muli %r, %w : index
      return %a : index
    }
  }
  // expected-note @+1 {{the trace here}}
  module {
    func.func @k(%r: index) -> index {
      %c64 = arith.constant 64 : index
      %a = arith.muli %r, %c64 : index
      return %a : index
    }
  }
}

// -----

// LLVM's overflow flags are a property, outside the attribute dictionary:
// `nsw` lets -O3 reassociate.
module {
  module {
    llvm.func @k(%a: i64) -> i64 {
      %w = spec.param "width" = 128 : i64
      %b = llvm.mul %a, %w overflow<nsw> : i64
      // expected-error @+1 {{trace does not match the template: property 'overflowFlags' differs: 1 : i32 vs 0 : i32}}
      %c = llvm.add %b, %a overflow<nsw> : i64
      llvm.return %c : i64
    }
  }
  module {
    llvm.func @k(%a: i64) -> i64 {
      %c64 = llvm.mlir.constant(64 : i64) : i64
      %b = llvm.mul %a, %c64 overflow<nsw> : i64
      // expected-note @+1 {{the trace here}}
      %c = llvm.add %b, %a : i64
      llvm.return %c : i64
    }
  }
}

// -----

// GEP `inbounds` (a no-wrap flag, a property).
module {
  module {
    llvm.func @k(%p: !llvm.ptr, %i: i64) -> !llvm.ptr {
      %w = spec.param "width" = 128 : i64
      %o = llvm.mul %i, %w : i64
      // expected-error @+1 {{trace does not match the template: property 'noWrapFlags' differs: 3 : i32 vs 0 : i32}}
      %g = llvm.getelementptr inbounds %p[%o] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.return %g : !llvm.ptr
    }
  }
  module {
    llvm.func @k(%p: !llvm.ptr, %i: i64) -> !llvm.ptr {
      %c64 = llvm.mlir.constant(64 : i64) : i64
      %o = llvm.mul %i, %c64 : i64
      // expected-note @+1 {{the trace here}}
      %g = llvm.getelementptr %p[%o] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.return %g : !llvm.ptr
    }
  }
}

// -----

// GEP no-wrap flags other than inbounds: nuw vs nusw.
module {
  module {
    llvm.func @k(%p: !llvm.ptr, %i: i64) -> !llvm.ptr {
      %w = spec.param "width" = 128 : i64
      %o = llvm.mul %i, %w : i64
      // expected-error @+1 {{trace does not match the template: property 'noWrapFlags' differs: 4 : i32 vs 2 : i32}}
      %g = llvm.getelementptr nuw %p[%o] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.return %g : !llvm.ptr
    }
  }
  module {
    llvm.func @k(%p: !llvm.ptr, %i: i64) -> !llvm.ptr {
      %c64 = llvm.mlir.constant(64 : i64) : i64
      %o = llvm.mul %i, %c64 : i64
      // expected-note @+1 {{the trace here}}
      %g = llvm.getelementptr nusw %p[%o] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      llvm.return %g : !llvm.ptr
    }
  }
}

// -----

// The value of a spec.param with `equals`: kept as a loop bound, the
// template's code runs 8 iterations whatever %s is. Not a parameter the
// match may bind: the template may have kept it.
module {
  module {
    func.func @k(%m: memref<?xf32>, %s: index) -> f32 {
      // expected-error @+1 {{trace does not match the template: spec.param 'rows' (with equals) is 8 here and 16 in the other trace: a kept parameter's value is compiled in}}
      %n = spec.param "rows" = 8 equals %s : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %z = arith.constant 0.0 : f32
      %t = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f32 {
        %v = memref.load %m[%i] : memref<?xf32>
        %sum = arith.addf %acc, %v : f32
        scf.yield %sum : f32
      }
      return %t : f32
    }
  }
  module {
    func.func @k(%m: memref<?xf32>, %s: index) -> f32 {
      // expected-note @+1 {{the trace here}}
      %n = spec.param "rows" = 16 equals %s : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %z = arith.constant 0.0 : f32
      %t = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f32 {
        %v = memref.load %m[%i] : memref<?xf32>
        %sum = arith.addf %acc, %v : f32
        scf.yield %sum : f32
      }
      return %t : f32
    }
  }
  // The same value: matched.
  // expected-remark @+1 {{matched: no parameters}}
  module {
    func.func @k(%m: memref<?xf32>, %s: index) -> f32 {
      %n = spec.param "rows" = 8 equals %s : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %z = arith.constant 0.0 : f32
      %t = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f32 {
        %v = memref.load %m[%i] : memref<?xf32>
        %sum = arith.addf %acc, %v : f32
        scf.yield %sum : f32
      }
      return %t : f32
    }
  }
}

// -----

// The target of a nested gpu.module (caught before too).
module {
  module attributes {gpu.container_module} {
    // expected-error @+1 {{trace does not match the template: attribute 'targets' differs: [#rocdl.target<chip = "gfx942">] vs [#rocdl.target<chip = "gfx90a">]}}
    gpu.module @g [#rocdl.target<chip = "gfx942">] {
      gpu.func @k(%m: memref<?xf32>, %r: index) kernel {
        %w = spec.param "width" = 128 : index
        %a = arith.muli %r, %w : index
        %v = memref.load %m[%a] : memref<?xf32>
        memref.store %v, %m[%r] : memref<?xf32>
        gpu.return
      }
    }
  }
  module attributes {gpu.container_module} {
    // expected-note @+1 {{the trace here}}
    gpu.module @g [#rocdl.target<chip = "gfx90a">] {
      gpu.func @k(%m: memref<?xf32>, %r: index) kernel {
        %c64 = arith.constant 64 : index
        %a = arith.muli %r, %c64 : index
        %v = memref.load %m[%a] : memref<?xf32>
        memref.store %v, %m[%r] : memref<?xf32>
        gpu.return
      }
    }
  }
}

// -----

// Locations differ everywhere (file and line, names, fused, call sites,
// block arguments): still the same kernel.
module {
  module {
    func.func @k(%r: index) -> index {
      %w = spec.param "width" = 128 : index
      %a = arith.muli %r, %w : index loc("a.py":3:4)
      return %a : index loc(fused["x.py":1:1, "y.py":2:2])
    } loc("kernel")
  } loc(unknown)
  // expected-remark @+1 {{matched: width = 64}}
  module {
    func.func @k(%r: index loc("z.py":9:9)) -> index {
      %c64 = arith.constant 64 : index loc(callsite("inner.py":1:1 at "outer.py":2:2))
      %a = arith.muli %r, %c64 : index loc("b.py":30:40)
      return %a : index loc(fused<"meta">["q.py":5:5])
    } loc("other"("w.py":7:7))
  }
}

// -----

// A discardable attribute on a constant (a leaf: compared per use, by value
// and by its attributes): the template's parameter carries the attribute of
// the constant it replaced.
module {
  module {
    func.func @k(%r: index) -> index {
      %w = spec.param "width" = 128 {frontend.tag = "width"} : index
      %c1 = arith.constant 1 : index
      %a = arith.muli %r, %w : index
      // expected-error @+1 {{trace does not match the template: operand 1 (constant 1): the other trace has attribute 'frontend.tag'}}
      %b = arith.addi %a, %c1 : index
      return %b : index
    }
  }
  module {
    func.func @k(%r: index) -> index {
      %c64 = arith.constant {frontend.tag = "width"} 64 : index
      %c1 = arith.constant {frontend.tag = "tail"} 1 : index
      %a = arith.muli %r, %c64 : index
      // expected-note @+1 {{the trace here}}
      %b = arith.addi %a, %c1 : index
      return %b : index
    }
  }
  // expected-remark @+1 {{matched: width = 32}}
  module {
    func.func @k(%r: index) -> index {
      %c32 = arith.constant {frontend.tag = "width"} 32 : index
      %c1 = arith.constant 1 : index
      %a = arith.muli %r, %c32 : index
      %b = arith.addi %a, %c1 : index
      return %b : index
    }
  }
}
