// The match results as data: values-file=<path> writes, per trace in order,
// its values (the object flyhoistMatchSpecParams gives, in order of first
// use) or its mismatch (the reason, and the error's and the note's locations
// as the C API words them). fuzz/diff_kernels.py reads it.

// RUN: rm -rf %t && mkdir -p %t
// RUN: fly-opt %s -verify-diagnostics \
// RUN:   --match-spec-params=values-file=%t/values.json -o /dev/null
// RUN: FileCheck %s --input-file=%t/values.json
// Without -verify-diagnostics the mismatch fails the pass; the file is
// written all the same, byte for byte.
// RUN: not fly-opt %s --match-spec-params=values-file=%t/again.json \
// RUN:   -o /dev/null 2>/dev/null
// RUN: diff %t/values.json %t/again.json
// A path that cannot be written: an error at the module before any trace is
// matched (no remark, no mismatch), the pass fails, nothing is left behind.
// RUN: not fly-opt %s --match-spec-params=values-file=%t/no-such-dir/v.json \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not fly-opt %s --match-spec-params=values-file=%t \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=DIR
// RUN: not ls %t/no-such-dir

// BAD: match-spec-params-values-file.mlir:[[# @LINE + 9]]:1: error: cannot write match values '{{.*}}no-such-dir/v.json': {{.*}}No such file or directory
// BAD-NOT: remark: matched
// BAD-NOT: error: trace does not match
// DIR: match-spec-params-values-file.mlir:[[# @LINE + 6]]:1: error: cannot write match values '{{.*}}': {{.*}}directory
// DIR-NOT: remark: matched

// CHECK:      [
// CHECK-NEXT:   {
// CHECK-NEXT:     "location": "{{.*}}match-spec-params-values-file.mlir:[[# @LINE + 20]]:3",
module {
  // A name JSON must escape, and an order that is not the names' order.
  module {
    func.func @row(%m: memref<?xf32>, %r: index) -> f32 {
      %c4 = arith.constant 4 : index
      %w = spec.param "tile \"w\"\\" = 128 : index
      %s = spec.param "p0" = 512 : index
      %a = arith.muli %r, %w : index
      %b = arith.muli %r, %s : index
      %c = arith.addi %a, %c4 : index
      // expected-error @+1 {{trace does not match the template: 'arith.addi' vs 'arith.subi'}}
      %d = arith.addi %c, %b : index
      %v = memref.load %m[%d] : memref<?xf32>
      return %v : f32
    }
  }
// CHECK-NEXT:     "values": {"tile \"w\"\\": 32, "p0": 128}
// CHECK-NEXT:   },
  // expected-remark @+1 {{matched: tile "w"\ = 32, p0 = 128}}
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
// CHECK-NEXT:   {
// CHECK-NEXT:     "location": "{{.*}}match-spec-params-values-file.mlir:[[# @LINE + 8]]:3",
// CHECK-NEXT:     "mismatch": {
// CHECK-NEXT:       "reason": "'arith.addi' vs 'arith.subi'",
// CHECK-NEXT:       "template_location": "{{.*}}match-spec-params-values-file.mlir:[[# @LINE - 25]]:12",
// CHECK-NEXT:       "trace_location": "{{.*}}match-spec-params-values-file.mlir:[[# @LINE + 13]]:12"
// CHECK-NEXT:     }
// CHECK-NEXT:   },
  // Another op where the template adds: a mismatch, located in both.
  module {
    func.func @row(%m: memref<?xf32>, %r: index) -> f32 {
      %c4 = arith.constant 4 : index
      %c32 = arith.constant 32 : index
      %c128 = arith.constant 128 : index
      %a = arith.muli %r, %c32 : index
      %b = arith.muli %r, %c128 : index
      %c = arith.addi %a, %c4 : index
      // expected-note @+1 {{the trace here}}
      %d = arith.subi %c, %b : index
      %v = memref.load %m[%d] : memref<?xf32>
      return %v : f32
    }
  }
// A trace after a mismatch is still matched, and canonicalize merging the
// width with the 4 is still one use each.
// CHECK-NEXT:   {
// CHECK-NEXT:     "location": "{{.*}}match-spec-params-values-file.mlir:[[# @LINE + 5]]:3",
// CHECK-NEXT:     "values": {"tile \"w\"\\": 4, "p0": 16}
// CHECK-NEXT:   }
// CHECK-NEXT: ]
  // expected-remark @+1 {{matched: tile "w"\ = 4, p0 = 16}}
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
