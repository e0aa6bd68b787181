// A trace whose integer constants carry a discardable attribute matched a
// template whose constants carry none: the aligner skipped leaves
// (constants) in its walk and compared only their values, per use, so the
// attributes of a leaf were never compared; the trace was accepted
// ("matched: width = 8") and served the template's code object. No lowering
// here reads such an attribute (arith-to-llvm drops it), but the trace is
// not the template up to its values in the module the pipeline sees. Found
// by fuzz/jit_differential.py (kind `leaf`). Two leaves facing each other
// now have the same discardable attributes, and inference gives a parameter
// those of the constant it replaces.
// RUN: not fly-opt %s --match-spec-params -o /dev/null 2>&1 | FileCheck %s
// CHECK: trace does not match the template: operand 1 (spec.param 'width'): the other trace has attribute 'frontend.tag'

module {
  module {
    func.func @row(%m: memref<?xi64>, %r: index) -> i64 {
      %w = spec.param "width" = 4 : index
      %c1 = arith.constant 1 : index
      %a = arith.muli %r, %w : index
      %b = arith.addi %a, %c1 : index
      %v = memref.load %m[%b] : memref<?xi64>
      return %v : i64
    }
  }
  module {
    func.func @row(%m: memref<?xi64>, %r: index) -> i64 {
      %c8 = arith.constant {frontend.tag = "tile"} 8 : index
      %c1 = arith.constant {frontend.tag = "tail"} 1 : index
      %a = arith.muli %r, %c8 : index
      %b = arith.addi %a, %c1 : index
      %v = memref.load %m[%b] : memref<?xi64>
      return %v : i64
    }
  }
}
