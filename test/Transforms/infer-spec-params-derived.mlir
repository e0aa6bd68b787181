// RUN: fly-opt %s -split-input-file -verify-diagnostics --infer-spec-params='values=width=64:100:7' | FileCheck %s
// RUN: fly-opt %s -split-input-file --infer-spec-params='values=width=64:100:7 derive=false' 2>/dev/null | FileCheck %s --check-prefix=TAKEN

// Three traces: constants that are integral affine functions of the width
// (4*w, 16*w*8/4 folded by the frontend, w + 1) are computed from it in the
// kernel; the width is the only spec.param left. Each derived op carries
// the parameter's name (matching evaluates them).

// CHECK-LABEL: func.func @products
// CHECK-DAG:     %[[W:.*]] = spec.param "width" = 64 : index
// CHECK-DAG:     %[[W1:.*]] = spec.param "width" = 64 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant {flyhoist.derived = "p0"} 4 : index
// CHECK-DAG:     %[[P0:.*]] = arith.muli %[[W1]], %[[C4]] {flyhoist.derived = "p0"} : index
// CHECK-DAG:     %[[W2:.*]] = spec.param "width" = 64 : index
// CHECK-DAG:     %[[C32:.*]] = arith.constant {flyhoist.derived = "p1"} 32 : index
// CHECK-DAG:     %[[P1:.*]] = arith.muli %[[W2]], %[[C32]] {flyhoist.derived = "p1"} : index
// CHECK-DAG:     %[[W3:.*]] = spec.param "width" = 64 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant {flyhoist.derived = "p2"} 1 : index
// CHECK-DAG:     %[[P2:.*]] = arith.addi %[[W3]], %[[C1]] {flyhoist.derived = "p2"} : index
// CHECK:         arith.muli %{{.*}}, %[[W]] : index
// CHECK-NEXT:    arith.muli %{{.*}}, %[[P0]] : index
// CHECK-NEXT:    arith.muli %{{.*}}, %[[P1]] : index
// CHECK:         arith.addi %{{.*}}, %[[P2]] : index
// CHECK-NOT:     spec.param "p
// TAKEN-LABEL: func.func @products
// TAKEN-DAG:     spec.param "width" = 64 : index
// TAKEN-DAG:     spec.param "p0" = 256 : index
// TAKEN-DAG:     spec.param "p1" = 2048 : index
// TAKEN-DAG:     spec.param "p2" = 65 : index
// TAKEN-NOT:     flyhoist.derived
module {
  module {
    func.func @products(%r: index) -> index {
      %c64 = arith.constant 64 : index
      %c256 = arith.constant 256 : index
      %c2048 = arith.constant 2048 : index
      %c65 = arith.constant 65 : index
      // expected-remark @+1 {{inferred spec.param 'width' of type 'index': 64, 100, 7 in the traces (1 use)}}
      %a = arith.muli %r, %c64 : index
      // expected-remark @+1 {{inferred spec.param 'p0' of type 'index': 256, 400, 28 in the traces (1 use), computed in the kernel as 4 * width + 0}}
      %b = arith.muli %r, %c256 : index
      // expected-remark @+1 {{inferred spec.param 'p1' of type 'index': 2048, 3200, 224 in the traces (1 use), computed in the kernel as 32 * width + 0}}
      %c = arith.muli %r, %c2048 : index
      %d = arith.addi %a, %b : index
      %e = arith.addi %d, %c : index
      // expected-remark @+1 {{inferred spec.param 'p2' of type 'index': 65, 101, 8 in the traces (1 use), computed in the kernel as 1 * width + 1}}
      %f = arith.addi %e, %c65 : index
      return %f : index
    }
  }
  module {
    func.func @products(%r: index) -> index {
      %c64 = arith.constant 100 : index
      %c256 = arith.constant 400 : index
      %c2048 = arith.constant 3200 : index
      %c65 = arith.constant 101 : index
      %a = arith.muli %r, %c64 : index
      %b = arith.muli %r, %c256 : index
      %c = arith.muli %r, %c2048 : index
      %d = arith.addi %a, %b : index
      %e = arith.addi %d, %c : index
      %f = arith.addi %e, %c65 : index
      return %f : index
    }
  }
  module {
    func.func @products(%r: index) -> index {
      %c64 = arith.constant 7 : index
      %c256 = arith.constant 28 : index
      %c2048 = arith.constant 224 : index
      %c65 = arith.constant 8 : index
      %a = arith.muli %r, %c64 : index
      %b = arith.muli %r, %c256 : index
      %c = arith.muli %r, %c2048 : index
      %d = arith.addi %a, %b : index
      %e = arith.addi %d, %c : index
      %f = arith.addi %e, %c65 : index
      return %f : index
    }
  }
}

// -----

// Not integral either way (q = 3*w/2, w = 2*q/3): two parameters. The
// frontend's name is not among the values here.

// CHECK-LABEL: func.func @halves
// CHECK-DAG:     %[[P0:.*]] = spec.param "p0" = 2 : i32
// CHECK-DAG:     %[[P1:.*]] = spec.param "p1" = 3 : i32
// CHECK:         arith.muli %{{.*}}, %[[P0]] : i32
// CHECK:         arith.muli %{{.*}}, %[[P1]] : i32
// CHECK-NOT:     flyhoist.derived
module {
  module {
    func.func @halves(%r: i32) -> i32 {
      %c2 = arith.constant 2 : i32
      %c3 = arith.constant 3 : i32
      // expected-remark @+1 {{inferred spec.param 'p0' of type 'i32': 2, 4, 6 in the traces (1 use)}}
      %a = arith.muli %r, %c2 : i32
      // expected-remark @+1 {{inferred spec.param 'p1' of type 'i32': 3, 6, 9 in the traces (1 use)}}
      %b = arith.muli %r, %c3 : i32
      %c = arith.addi %a, %b : i32
      return %c : i32
    }
  }
  module {
    func.func @halves(%r: i32) -> i32 {
      %c2 = arith.constant 4 : i32
      %c3 = arith.constant 6 : i32
      %a = arith.muli %r, %c2 : i32
      %b = arith.muli %r, %c3 : i32
      %c = arith.addi %a, %b : i32
      return %c : i32
    }
  }
  module {
    func.func @halves(%r: i32) -> i32 {
      %c2 = arith.constant 6 : i32
      %c3 = arith.constant 9 : i32
      %a = arith.muli %r, %c2 : i32
      %b = arith.muli %r, %c3 : i32
      %c = arith.addi %a, %b : i32
      return %c : i32
    }
  }
}

// -----

// Only two distinct values in three traces (64, 100, 64): any two points
// lie on a line, so nothing is derived.

// CHECK-LABEL: func.func @two_values
// CHECK-DAG:     spec.param "p0" = 64 : index
// CHECK-DAG:     spec.param "p1" = 256 : index
// CHECK-NOT:     flyhoist.derived
module {
  module {
    func.func @two_values(%r: index) -> index {
      %c64 = arith.constant 64 : index
      %c256 = arith.constant 256 : index
      // expected-remark @+1 {{inferred spec.param 'p0' of type 'index': 64, 100, 64 in the traces (1 use)}}
      %a = arith.muli %r, %c64 : index
      // expected-remark @+1 {{inferred spec.param 'p1' of type 'index': 256, 400, 256 in the traces (1 use)}}
      %b = arith.muli %r, %c256 : index
      %c = arith.addi %a, %b : index
      return %c : index
    }
  }
  module {
    func.func @two_values(%r: index) -> index {
      %c64 = arith.constant 100 : index
      %c256 = arith.constant 400 : index
      %a = arith.muli %r, %c64 : index
      %b = arith.muli %r, %c256 : index
      %c = arith.addi %a, %b : index
      return %c : index
    }
  }
  module {
    func.func @two_values(%r: index) -> index {
      %c64 = arith.constant 64 : index
      %c256 = arith.constant 256 : index
      %a = arith.muli %r, %c64 : index
      %b = arith.muli %r, %c256 : index
      %c = arith.addi %a, %b : index
      return %c : index
    }
  }
}

// -----

// Types differ: an i32 width, its index byte stride 4*w and an i64 w - 3
// are computed with a cast (index_cast, extsi). The i32 constant 4*w is
// wrapped at w = 2^29 (-2^31, not 2^31) and the i8 one w + 1 at 2^29 + 1
// (1): each holds only modulo 2^32 or 2^8, not exactly, and stays a
// parameter of its own.

// CHECK-LABEL: func.func @types
// CHECK-DAG:     %[[W:.*]] = spec.param "p0" = 64 : i32
// CHECK-DAG:     %[[S:.*]] = arith.index_cast %{{.*}} {flyhoist.derived = "p1"} : i32 to index
// CHECK-DAG:     arith.muli %[[S]], %{{.*}} {flyhoist.derived = "p1"} : index
// CHECK-DAG:     %[[E:.*]] = arith.extsi %{{.*}} {flyhoist.derived = "p2"} : i32 to i64
// CHECK-DAG:     arith.addi %[[E]], %{{.*}} {flyhoist.derived = "p2"} : i64
// CHECK-DAG:     arith.constant {flyhoist.derived = "p2"} -3 : i64
// CHECK-DAG:     spec.param "p3" = 256 : i32
// CHECK-DAG:     spec.param "p4" = 65 : i8
module {
  module {
    func.func @types(%r: i32, %i: index, %l: i64, %b: i8) -> (i32, index, i64, i32, i8) {
      %c64 = arith.constant 64 : i32
      %c256 = arith.constant 256 : index
      %c61 = arith.constant 61 : i64
      %c256i = arith.constant 256 : i32
      %c65 = arith.constant 65 : i8
      // expected-remark @+1 {{inferred spec.param 'p0' of type 'i32': 64, 536870912, 7 in the traces (1 use)}}
      %a = arith.muli %r, %c64 : i32
      // expected-remark @+1 {{'p1' of type 'index': 256, 2147483648, 28 in the traces (1 use), computed in the kernel as 4 * p0 + 0}}
      %x = arith.muli %i, %c256 : index
      // expected-remark @+1 {{'p2' of type 'i64': 61, 536870909, 4 in the traces (1 use), computed in the kernel as 1 * p0 + -3}}
      %y = arith.addi %l, %c61 : i64
      // expected-remark @+1 {{'p3' of type 'i32': 256, -2147483648, 28 in the traces (1 use)}}
      %z = arith.muli %r, %c256i : i32
      // expected-remark @+1 {{'p4' of type 'i8': 65, 1, 8 in the traces (1 use)}}
      %v = arith.addi %b, %c65 : i8
      return %a, %x, %y, %z, %v : i32, index, i64, i32, i8
    }
  }
  module {
    func.func @types(%r: i32, %i: index, %l: i64, %b: i8) -> (i32, index, i64, i32, i8) {
      %c64 = arith.constant 536870912 : i32
      %c256 = arith.constant 2147483648 : index
      %c61 = arith.constant 536870909 : i64
      %c256i = arith.constant -2147483648 : i32
      %c65 = arith.constant 1 : i8
      %a = arith.muli %r, %c64 : i32
      %x = arith.muli %i, %c256 : index
      %y = arith.addi %l, %c61 : i64
      %z = arith.muli %r, %c256i : i32
      %v = arith.addi %b, %c65 : i8
      return %a, %x, %y, %z, %v : i32, index, i64, i32, i8
    }
  }
  module {
    func.func @types(%r: i32, %i: index, %l: i64, %b: i8) -> (i32, index, i64, i32, i8) {
      %c64 = arith.constant 7 : i32
      %c256 = arith.constant 28 : index
      %c61 = arith.constant 4 : i64
      %c256i = arith.constant 28 : i32
      %c65 = arith.constant 8 : i8
      %a = arith.muli %r, %c64 : i32
      %x = arith.muli %i, %c256 : index
      %y = arith.addi %l, %c61 : i64
      %z = arith.muli %r, %c256i : i32
      %v = arith.addi %b, %c65 : i8
      return %a, %x, %y, %z, %v : i32, index, i64, i32, i8
    }
  }
}

// -----

// No frontend name among the values: the root is the parameter the others
// are integral functions of (w, not 4*w, which comes first in IR order);
// a negative scale (100 - w) derives as well.

// CHECK-LABEL: func.func @root_choice
// CHECK-DAG:     spec.param "p1" = 2 : i32
// CHECK-DAG:     arith.constant {flyhoist.derived = "p0"} 4 : i32
// CHECK-DAG:     arith.constant {flyhoist.derived = "p2"} -1 : i32
// CHECK-DAG:     arith.constant {flyhoist.derived = "p2"} 100 : i32
// CHECK-NOT:     spec.param "p0"
// CHECK-NOT:     spec.param "p2"
module {
  module {
    func.func @root_choice(%r: i32) -> i32 {
      %c8 = arith.constant 8 : i32
      %c2 = arith.constant 2 : i32
      %c98 = arith.constant 98 : i32
      // expected-remark @+1 {{'p0' of type 'i32': 8, 20, 28 in the traces (1 use), computed in the kernel as 4 * p1 + 0}}
      %a = arith.muli %r, %c8 : i32
      // expected-remark @+1 {{'p1' of type 'i32': 2, 5, 7 in the traces (1 use)}}
      %b = arith.muli %a, %c2 : i32
      // expected-remark @+1 {{'p2' of type 'i32': 98, 95, 93 in the traces (1 use), computed in the kernel as -1 * p1 + 100}}
      %c = arith.addi %b, %c98 : i32
      return %c : i32
    }
  }
  module {
    func.func @root_choice(%r: i32) -> i32 {
      %c8 = arith.constant 20 : i32
      %c2 = arith.constant 5 : i32
      %c98 = arith.constant 95 : i32
      %a = arith.muli %r, %c8 : i32
      %b = arith.muli %a, %c2 : i32
      %c = arith.addi %b, %c98 : i32
      return %c : i32
    }
  }
  module {
    func.func @root_choice(%r: i32) -> i32 {
      %c8 = arith.constant 28 : i32
      %c2 = arith.constant 7 : i32
      %c98 = arith.constant 93 : i32
      %a = arith.muli %r, %c8 : i32
      %b = arith.muli %a, %c2 : i32
      %c = arith.addi %b, %c98 : i32
      return %c : i32
    }
  }
}

// -----

// A 32-bit index (the module's data layout): the kernel would compute a
// derived index at 32 bits, which matching does not evaluate; nothing is
// derived.

// CHECK-LABEL: func.func @narrow_index
// CHECK-DAG:     spec.param "width" = 64 : index
// CHECK-DAG:     spec.param "p0" = 256 : index
// CHECK-NOT:     flyhoist.derived
module {
  module attributes {dlti.dl_spec = #dlti.dl_spec<index = 32>} {
    func.func @narrow_index(%r: index) -> index {
      %c64 = arith.constant 64 : index
      %c256 = arith.constant 256 : index
      // expected-remark @+1 {{'width' of type 'index': 64, 100, 7 in the traces (1 use)}}
      %a = arith.muli %r, %c64 : index
      // expected-remark @+1 {{'p0' of type 'index': 256, 400, 28 in the traces (1 use)}}
      %b = arith.muli %a, %c256 : index
      return %b : index
    }
  }
  module attributes {dlti.dl_spec = #dlti.dl_spec<index = 32>} {
    func.func @narrow_index(%r: index) -> index {
      %c64 = arith.constant 100 : index
      %c256 = arith.constant 400 : index
      %a = arith.muli %r, %c64 : index
      %b = arith.muli %a, %c256 : index
      return %b : index
    }
  }
  module attributes {dlti.dl_spec = #dlti.dl_spec<index = 32>} {
    func.func @narrow_index(%r: index) -> index {
      %c64 = arith.constant 7 : index
      %c256 = arith.constant 28 : index
      %a = arith.muli %r, %c64 : index
      %b = arith.muli %a, %c256 : index
      return %b : index
    }
  }
}
