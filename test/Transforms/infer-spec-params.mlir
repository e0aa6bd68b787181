// RUN: fly-opt %s -split-input-file -verify-diagnostics --infer-spec-params='values=width=128:64' | FileCheck %s

// Two traces of one kernel, for width 128 and 64: the width enters as
// itself and as a byte stride (4 * width, folded by the frontend); the
// constants that do not depend on it stay constants.

// CHECK-LABEL: func.func @row
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[W:.*]] = spec.param "width" = 128 : index
// CHECK-DAG:     %[[S:.*]] = spec.param "p0" = 512 : index
// CHECK:         arith.muli %{{.*}}, %[[W]] : index
// CHECK:         arith.muli %{{.*}}, %[[S]] : index
// CHECK:         arith.addi %{{.*}}, %[[C4]] : index
// CHECK:         return %{{.*}} : f32
// CHECK-NEXT:  }
// CHECK-NEXT: }
// CHECK-EMPTY:
module {
  module {
    func.func @row(%m: memref<?xf32>, %r: index) -> f32 {
      %c4 = arith.constant 4 : index
      %c128 = arith.constant 128 : index
      %c512 = arith.constant 512 : index
      // expected-remark @+1 {{inferred spec.param 'width' of type 'index': 128, 64 in the traces (1 use)}}
      %a = arith.muli %r, %c128 : index
      // expected-remark @+1 {{inferred spec.param 'p0' of type 'index': 512, 256 in the traces (1 use)}}
      %b = arith.muli %r, %c512 : index
      %c = arith.addi %a, %c4 : index
      %d = arith.addi %c, %b : index
      %v = memref.load %m[%d] : memref<?xf32>
      return %v : f32
    }
  }
  module {
    func.func @row(%m: memref<?xf32>, %r: index) -> f32 {
      %c256 = arith.constant 256 : index
      %c4 = arith.constant 4 : index
      %c64 = arith.constant 64 : index
      %a = arith.muli %r, %c64 : index
      %b = arith.muli %r, %c256 : index
      %c = arith.addi %a, %c4 : index
      %d = arith.addi %c, %b : index
      %v = memref.load %m[%d] : memref<?xf32>
      return %v : f32
    }
  }
}

// -----

// Canonicalize merged the width (128) with an unrelated 128 (a tile size) in
// the first trace: one constant feeds both uses. Per use, only the
// width's use varies, so only it takes the parameter; the tile keeps its
// constant.

// CHECK-LABEL: func.func @merged
// CHECK-DAG:     %[[C128:.*]] = arith.constant 128 : index
// CHECK-DAG:     %[[W:.*]] = spec.param "width" = 128 : index
// CHECK:         arith.muli %{{.*}}, %[[W]] : index
// CHECK:         arith.addi %{{.*}}, %[[C128]] : index
module {
  module {
    func.func @merged(%m: memref<?xf32>, %r: index) -> f32 {
      %c128 = arith.constant 128 : index
      // expected-remark @+1 {{inferred spec.param 'width' of type 'index': 128, 64 in the traces (1 use)}}
      %a = arith.muli %r, %c128 : index
      %b = arith.addi %a, %c128 : index
      %v = memref.load %m[%b] : memref<?xf32>
      return %v : f32
    }
  }
  module {
    func.func @merged(%m: memref<?xf32>, %r: index) -> f32 {
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %a = arith.muli %r, %c64 : index
      %b = arith.addi %a, %c128 : index
      %v = memref.load %m[%b] : memref<?xf32>
      return %v : f32
    }
  }
}

// -----

// The same traces: nothing varies, nothing changes.

// CHECK-LABEL: func.func @same
// CHECK-NOT:     spec.param
module {
  module {
    func.func @same(%r: index) -> index {
      %c3 = arith.constant 3 : index
      %a = arith.muli %r, %c3 : index
      return %a : index
    }
  }
  module {
    func.func @same(%r: index) -> index {
      %c3 = arith.constant 3 : index
      %a = arith.muli %r, %c3 : index
      return %a : index
    }
  }
}

// -----

// Another op where the value was: a branch of the frontend on the value.
module {
  module {
    func.func @op(%r: index) -> index {
      %c3 = arith.constant 3 : index
      // expected-error @+1 {{traces do not align: 'arith.muli' vs 'arith.addi'}}
      %a = arith.muli %r, %c3 : index
      return %a : index
    }
  }
  module {
    func.func @op(%r: index) -> index {
      %c3 = arith.constant 3 : index
      // expected-note @+1 {{trace 1 here}}
      %a = arith.addi %r, %c3 : index
      return %a : index
    }
  }
}

// -----

// The value folded into a type: a static memref shape.
module {
  module {
    func.func @shape(%m: memref<4x?xf32>) -> f32 {
      %c0 = arith.constant 0 : index
      // expected-error @+1 {{traces do not align: result types differ: memref<4x128xf32> vs memref<4x64xf32>}}
      %s = memref.cast %m : memref<4x?xf32> to memref<4x128xf32>
      %v = memref.load %s[%c0, %c0] : memref<4x128xf32>
      return %v : f32
    }
  }
  module {
    func.func @shape(%m: memref<4x?xf32>) -> f32 {
      %c0 = arith.constant 0 : index
      // expected-note @+1 {{trace 1 here}}
      %s = memref.cast %m : memref<4x?xf32> to memref<4x64xf32>
      %v = memref.load %s[%c0, %c0] : memref<4x64xf32>
      return %v : f32
    }
  }
}

// -----

// A region that differs: the frontend unrolled a loop at one value.
module {
  module {
    func.func @region(%c: i1, %r: index) -> index {
      %a = scf.if %c -> index {
        %c1 = arith.constant 1 : index
        // expected-error @+1 {{traces do not align: 'arith.addi' vs 'scf.yield'}}
        %x = arith.addi %r, %c1 : index
        scf.yield %x : index
      } else {
        scf.yield %r : index
      }
      return %a : index
    }
  }
  module {
    func.func @region(%c: i1, %r: index) -> index {
      %a = scf.if %c -> index {
        // expected-note @+1 {{trace 1 here}}
        scf.yield %r : index
      } else {
        scf.yield %r : index
      }
      return %a : index
    }
  }
}

// -----

// An attribute that is not a constant's value.
module {
  module {
    func.func @attr(%a: index, %b: index) -> i1 {
      // expected-error @+1 {{traces do not align: attribute 'predicate' differs}}
      %x = arith.cmpi slt, %a, %b : index
      return %x : i1
    }
  }
  module {
    func.func @attr(%a: index, %b: index) -> i1 {
      // expected-note @+1 {{trace 1 here}}
      %x = arith.cmpi sle, %a, %b : index
      return %x : i1
    }
  }
}

// -----

// A constant in one trace, a computed value in the other.
module {
  module {
    func.func @computed(%r: index) -> index {
      %c3 = arith.constant 3 : index
      %x = arith.addi %r, %r : index
      // expected-error @+1 {{traces do not align: operand 1 is a constant 3 in one trace and a computed value in the other}}
      %a = arith.muli %x, %c3 : index
      return %a : index
    }
  }
  module {
    func.func @computed(%r: index) -> index {
      %x = arith.addi %r, %r : index
      // expected-note @+1 {{trace 1 here}}
      %a = arith.muli %x, %x : index
      return %a : index
    }
  }
}

// -----

// One trace: nothing to compare.
// expected-error @+1 {{infer-spec-params needs two or more traces (the 'traces' option or nested modules); got 1}}
module {
  module {
    func.func @one() {
      return
    }
  }
}

// -----

// A marked parameter in one trace, a constant in the other.
module {
  module {
    func.func @marked(%r: i32) -> i32 {
      %h = spec.param "heads" = 8 : i32
      // expected-error @+1 {{traces do not align: operand 1 is a spec.param 'heads' in one trace and a constant 8 in the other}}
      %b = arith.addi %r, %h : i32
      return %b : i32
    }
  }
  module {
    func.func @marked(%r: i32) -> i32 {
      %c8 = arith.constant 8 : i32
      // expected-note @+1 {{trace 1 here}}
      %b = arith.addi %r, %c8 : i32
      return %b : i32
    }
  }
}

// -----

// LLVM dialect constants are leaves too.

// CHECK-LABEL: llvm.func @llvm_row
// CHECK-DAG:     %[[W:.*]] = spec.param "width" = 128 : i64
// CHECK-DAG:     %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK:         llvm.mul %{{.*}}, %[[W]] : i64
// CHECK:         llvm.add %{{.*}}, %[[ONE]] : i64
module {
  module {
    llvm.func @llvm_row(%p: !llvm.ptr, %r: i64) -> f32 {
      %one = llvm.mlir.constant(1 : i64) : i64
      %w = llvm.mlir.constant(128 : i64) : i64
      // expected-remark @+1 {{inferred spec.param 'width' of type 'i64': 128, 64 in the traces (1 use)}}
      %a = llvm.mul %r, %w : i64
      %b = llvm.add %a, %one : i64
      %q = llvm.getelementptr %p[%b] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %q : !llvm.ptr -> f32
      llvm.return %v : f32
    }
  }
  module {
    llvm.func @llvm_row(%p: !llvm.ptr, %r: i64) -> f32 {
      %one = llvm.mlir.constant(1 : i64) : i64
      %w = llvm.mlir.constant(64 : i64) : i64
      %a = llvm.mul %r, %w : i64
      %b = llvm.add %a, %one : i64
      %q = llvm.getelementptr %p[%b] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %q : !llvm.ptr -> f32
      llvm.return %v : f32
    }
  }
}
