// The `equals` contract is recorded: a parameter hoisted through `equals`
// lists "value == <operand>" among its preconditions in spec.hoisted and in
// the manifest, so a launcher passing another runtime value knows it breaks
// the kernel's assumption (docs/MANIFEST.md gives the wording). Operands are
// named from what the launcher knows: arguments (through sign-extending
// casts), offset/size/stride of a memref argument, memref.dim, constants
// equal to the marked value, other parameters; anything else by the op
// computing it. No location: the record is part of the gpu.module.
// RUN: fly-opt %s -split-input-file -hoist-stride-specialization=remarks=false | FileCheck %s
// RUN: fly-opt %s -hoist-stride-specialization="remarks=false manifest=%t.json" -split-input-file -o /dev/null
// RUN: FileCheck %s --check-prefix=JSON --input-file=%t.json

// CHECK-LABEL: gpu.func @described
// CHECK-SAME: spec.record = #spec.record<hoisted = [
// CHECK-SAME: #spec.hoisted<name = "a", type = index, preconditions = [#spec.equals<argument = 1, part = value>]>
// CHECK-SAME: #spec.hoisted<name = "b", type = index, preconditions = [#spec.equals<argument = 0, part = stride, index = 0>, #spec.equals<argument = 0, part = size, index = 1>]>
// CHECK-SAME: #spec.hoisted<name = "c", type = index, preconditions = [#spec.equals<argument = 0, part = offset>]>
// CHECK-SAME: #spec.hoisted<name = "d", type = index, preconditions = [#spec.equals<argument = 0, part = size, index = 0>]>
// CHECK-SAME: #spec.hoisted<name = "e", type = i64, preconditions = [#spec.equals<argument = 2, part = value>]>
// CHECK-SAME: #spec.hoisted<name = "f", type = index, preconditions = [#spec.equals_constant<value = 12>]>
// CHECK-SAME: #spec.hoisted<name = "g", type = index, preconditions = [#spec.equals_unverifiable<"result 0 of 'arith.muli'">]>
// CHECK-SAME: #spec.hoisted<name = "h", type = i64, preconditions = [#spec.equals_unverifiable<"result 0 of 'arith.extui'">]>
// CHECK-NOT: spec.param
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @described(%t: memref<?x?xi32>, %i: index, %n: i32) kernel {
      %base, %off, %sizes:2, %strides:2 = memref.extract_strided_metadata %t : memref<?x?xi32> -> memref<i32>, index, index, index, index, index
      %c0 = arith.constant 0 : index
      %c12 = arith.constant 12 : index
      %dim = memref.dim %t, %c0 : memref<?x?xi32>
      %n64 = arith.extsi %n : i32 to i64
      %nu = arith.extui %n : i32 to i64
      %prod = arith.muli %i, %i : index
      %a = spec.param "a" = 4 equals %i : index
      %b = spec.param "b" = 64 equals %strides#0 : index
      %b2 = spec.param "b" = 64 equals %sizes#1 : index
      %b3 = spec.param "b" = 64 equals %strides#0 : index
      %c = spec.param "c" = 0 equals %off : index
      %d = spec.param "d" = 9 equals %dim : index
      %e = spec.param "e" = 3 equals %n64 : i64
      %f = spec.param "f" = 12 equals %c12 : index
      %g = spec.param "g" = 16 equals %prod : index
      %h = spec.param "h" = 3 equals %nu : i64
      %ei = arith.index_cast %e : i64 to index
      %hi = arith.index_cast %h : i64 to index
      %s1 = arith.addi %a, %b : index
      %s2 = arith.addi %s1, %b2 : index
      %s3 = arith.addi %s2, %b3 : index
      %s4 = arith.addi %s3, %c : index
      %s5 = arith.addi %s4, %d : index
      %s6 = arith.addi %s5, %ei : index
      %s7 = arith.addi %s6, %f : index
      %s8 = arith.addi %s7, %g : index
      %s9 = arith.addi %s8, %hi : index
      %flat = memref.reinterpret_cast %t to offset: [0], sizes: [4096], strides: [1] : memref<?x?xi32> to memref<4096xi32>
      %v = memref.load %flat[%s9] : memref<4096xi32>
      memref.store %v, %flat[%i] : memref<4096xi32>
      gpu.return
    }
  }
}

// -----

// One name with and without `equals` in one kernel: a new argument for the
// plain uses, and the contract ties the value to the existing argument.

// CHECK-LABEL: func.func @both
// CHECK-SAME: (%{{.*}}: memref<?xf32>, %[[S:.*]]: index, %[[W:.*]]: index)
// CHECK-SAME: spec.record = #spec.record<hoisted = [#spec.hoisted<name = "w", type = index, argument = 2, preconditions = [#spec.equals<argument = 1, part = value>]>]
// CHECK: memref.load %{{.*}}[%[[W]]]
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[S]]]
// With -split-input-file the manifest is the last chunk's.
// JSON: "hoisted": [
// JSON-NEXT: {
// JSON-NEXT: "argument": 2,
// JSON-NEXT: "host_argument": null,
// JSON-NEXT: "kernel_parameter": {
// JSON-NEXT: "bare_pointers": null,
// JSON-NEXT: "memref_descriptors": 6
// JSON-NEXT: },
// JSON-NEXT: "name": "w",
// JSON-NEXT: "preconditions": [
// JSON-NEXT: {
// JSON-NEXT: "kind": "range",
// JSON-NEXT: "max": 18446744073709551615,
// JSON-NEXT: "min": -9223372036854775808,
// JSON-NEXT: "text": "-9223372036854775808 <= value <= 18446744073709551615 (fits index)"
// JSON-NEXT: },
// JSON-NEXT: {
// JSON-NEXT: "argument": 1,
// JSON-NEXT: "index": null,
// JSON-NEXT: "kind": "equals",
// JSON-NEXT: "part": "value",
// JSON-NEXT: "text": "value == argument 1"
// JSON-NEXT: }
// JSON-NEXT: ],
// JSON-NEXT: "source": "argument",
// JSON: "symbol": "@both"
func.func @both(%m: memref<?xf32>, %s: index) attributes {spec.kernel} {
  %w = spec.param "w" = 32 : index
  %e = spec.param "w" = 32 equals %s : index
  %v = memref.load %m[%w] : memref<?xf32>
  memref.store %v, %m[%e] : memref<?xf32>
  return
}
