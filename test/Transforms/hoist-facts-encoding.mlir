// The divisibility and narrow-range encoding for the values that used to be
// rebuilt wrong (`shli (zext a), log2 d` with nsw/nuw): the top bit set, a
// divisor reaching 2^width, i1/i8 with divisors larger than the type, and a
// negative multiple of d relaunched on a module hoisted from a positive
// value. The kernel uses the launched value itself and assumes exactly the
// recorded preconditions; the launch site written by the pass passes the
// value itself (narrowed to i32 with narrow-range). fuzz/encoding_exhaustive.py
// runs all of them (test/Transforms/encoding-exhaustive.test).
//
// RUN: fly-opt %s -split-input-file --hoist-stride-specialization="remarks=false hoist-into-host divisibility=512 narrow-range" | FileCheck %s
// The preconditions reach the manifest too (the last split: every width).
// RUN: fly-opt %s -split-input-file --hoist-stride-specialization="remarks=false hoist-into-host divisibility=512 narrow-range manifest=%t.json" > /dev/null
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t.json

// 128 : i8 is -128: a multiple of 128, with the top bit set. It is not
// shifted or extended; the kernel assumes the low 7 bits are zero.
// CHECK-LABEL: func.func @top_bit_i8
// CHECK-SAME: %[[V:arg[0-9]+]]: i8) attributes {spec.record = #spec.record<hoisted = [#spec.hoisted<name = "top_bit", type = i8, argument = 1, preconditions = [#spec.divisible_by<128>], host_argument = 1>]
// CHECK-DAG: %[[MASK:.*]] = arith.constant 127 : i8
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i8
// CHECK: %[[LOW:.*]] = arith.andi %[[V]], %[[MASK]] : i8
// CHECK: %[[DIVIDES:.*]] = arith.cmpi eq, %[[LOW]], %[[ZERO]] : i8
// CHECK: llvm.intr.assume %[[DIVIDES]] : i1
// CHECK-NOT: arith.shli
// CHECK: arith.index_cast %[[V]] : i8 to index
// CHECK-LABEL: func.func @launch_top_bit_i8
// CHECK-SAME: (%[[M:.*]]: memref<?xf32>, %[[HOST:.*]]: i8)
// CHECK-NOT: arith.shr
// CHECK: call @top_bit_i8(%[[M]], %[[HOST]])
func.func @top_bit_i8(%m: memref<?xf32>) {
  %w = spec.param "top_bit" = 128 : i8
  %i = arith.index_cast %w : i8 to index
  %v = memref.load %m[%i] : memref<?xf32>
  memref.store %v, %m[%i] : memref<?xf32>
  return
}
func.func @launch_top_bit_i8(%m: memref<?xf32>) {
  func.call @top_bit_i8(%m) : (memref<?xf32>) -> ()
  return
}

// -----

// 0 : i8 is a multiple of every divisor; the bound 512 reaches past the
// type, so the fact stops at 2^7 (the old encoding shifted by 9 bits).
// CHECK-LABEL: func.func @zero_i8
// CHECK-SAME: #spec.hoisted<name = "zero", type = i8, argument = 1, preconditions = [#spec.divisible_by<128>], host_argument = 1>
// CHECK: arith.constant 127 : i8
// CHECK: llvm.intr.assume
// CHECK-NOT: arith.shli
func.func @zero_i8(%m: memref<?xf32>) {
  %w = spec.param "zero" = 0 : i8
  %i = arith.index_castui %w : i8 to index
  %v = memref.load %m[%i] : memref<?xf32>
  memref.store %v, %m[%i] : memref<?xf32>
  return
}
func.func @launch_zero_i8(%m: memref<?xf32>) {
  func.call @zero_i8(%m) : (memref<?xf32>) -> ()
  return
}

// -----

// i1 has no divisor but 1: no fact at all, for 0 and for 1 (-1).
// CHECK-LABEL: func.func @flags_i1
// CHECK-SAME: spec.record = #spec.record<hoisted = [#spec.hoisted<name = "flag_false", type = i1, argument = 1, host_argument = 1>, #spec.hoisted<name = "flag_true", type = i1, argument = 2, host_argument = 2>]
// CHECK-NOT: llvm.intr.assume
// CHECK-NOT: arith.shli
// CHECK: return
func.func @flags_i1(%m: memref<?xf32>) {
  %f = spec.param "flag_false" = 0 : i1
  %t = spec.param "flag_true" = 1 : i1
  %fi = arith.index_cast %f : i1 to index
  %ti = arith.index_castui %t : i1 to index
  %v = memref.load %m[%fi] : memref<?xf32>
  memref.store %v, %m[%ti] : memref<?xf32>
  return
}
func.func @launch_flags_i1(%m: memref<?xf32>) {
  func.call @flags_i1(%m) : (memref<?xf32>) -> ()
  return
}

// -----

// Hoisted from a positive value without narrow-range, the kernel must also
// hold for a negative multiple of d relaunched later (-64 meets
// value % 64 == 0): nothing about the sign is assumed or recorded, and the
// value is not zero-extended. i32 is never narrowed.
// CHECK-LABEL: func.func @positive_i32
// CHECK-SAME: %[[V:arg[0-9]+]]: i32) attributes {spec.record = #spec.record<hoisted = [#spec.hoisted<name = "stride32", type = i32, argument = 1, preconditions = [#spec.divisible_by<64>], host_argument = 1>]
// CHECK: arith.constant 63 : i32
// CHECK: llvm.intr.assume
// CHECK-NOT: arith.extui
// CHECK-NOT: index_castui
// CHECK-NOT: arith.cmpi ult
// CHECK: arith.index_cast %[[V]] : i32 to index
func.func @positive_i32(%m: memref<?xf32>) {
  %w = spec.param "stride32" = 64 : i32
  %i = arith.index_cast %w : i32 to index
  %v = memref.load %m[%i] : memref<?xf32>
  memref.store %v, %m[%i] : memref<?xf32>
  return
}
func.func @launch_positive_i32(%m: memref<?xf32>) {
  func.call @positive_i32(%m) : (memref<?xf32>) -> ()
  return
}

// -----

// Narrow-range only for values in [0, 2^31): 2^31 : i64 stays i64 (with its
// divisibility), 2^31 - 64 travels as i32 and records its range; a negative
// index value keeps only its divisibility.
// CHECK-LABEL: func.func @ranges
// CHECK-SAME: %[[BIG:arg[0-9]+]]: i64, %[[NEG:arg[0-9]+]]: index, %[[SMALL:arg[0-9]+]]: i32)
// CHECK-SAME: #spec.hoisted<name = "a_big", type = i64, argument = 1, preconditions = [#spec.divisible_by<512>], host_argument = 1>
// CHECK-SAME: #spec.hoisted<name = "b_negative", type = index, argument = 2, preconditions = [#spec.divisible_by<512>], host_argument = 2>
// CHECK-SAME: #spec.hoisted<name = "c_small", type = i32, argument = 3, zero_extended_to = i64, preconditions = [#spec.divisible_by<64>, #spec.range<min = 0, max = 2147483647>], host_argument = 3>
// CHECK: arith.extui %[[SMALL]] : i32 to i64
// CHECK-LABEL: func.func @launch_ranges
// CHECK-SAME: %[[HBIG:[^:]*]]: i64, %[[HNEG:[^:]*]]: index, %[[HSMALL:[^:]*]]: i64)
// CHECK: %[[T:.*]] = arith.trunci %[[HSMALL]] : i64 to i32
// CHECK: call @ranges(%{{.*}}, %[[HBIG]], %[[HNEG]], %[[T]])
func.func @ranges(%m: memref<?xf32>) {
  %big = spec.param "a_big" = 2147483648 : i64
  %neg = spec.param "b_negative" = -1024 : index
  %small = spec.param "c_small" = 2147483584 : i64
  %bi = arith.index_cast %big : i64 to index
  %si = arith.index_cast %small : i64 to index
  %o = arith.addi %bi, %neg : index
  %p = arith.addi %o, %si : index
  %v = memref.load %m[%p] : memref<?xf32>
  memref.store %v, %m[%p] : memref<?xf32>
  return
}
func.func @launch_ranges(%m: memref<?xf32>) {
  func.call @ranges(%m) : (memref<?xf32>) -> ()
  return
}

// -----

// A module entirely in the LLVM dialect stays so: the kernel's facts and the
// launch site's narrowing are LLVM dialect ops, not arith.
// CHECK-LABEL: llvm.func @llvm_kernel
// CHECK-SAME: %[[A:arg[0-9]+]]: i8, %[[B:arg[0-9]+]]: i32)
// CHECK-SAME: #spec.hoisted<name = "llvm_top_bit", type = i8, argument = 1, preconditions = [#spec.divisible_by<128>], host_argument = 1>
// CHECK-SAME: #spec.hoisted<name = "llvm_wide", type = i32, argument = 2, zero_extended_to = i64, preconditions = [#spec.divisible_by<16>, #spec.range<min = 0, max = 2147483647>], host_argument = 2>
// CHECK-NOT: arith.
// CHECK-DAG: %[[LA:.*]] = llvm.and %[[A]], %{{.*}} : i8
// CHECK-DAG: %[[CA:.*]] = llvm.icmp "eq" %[[LA]], %{{.*}} : i8
// CHECK-DAG: llvm.intr.assume %[[CA]] : i1
// CHECK-DAG: %[[Z:.*]] = llvm.zext %[[B]] : i32 to i64
// CHECK-DAG: %[[LZ:.*]] = llvm.and %[[Z]], %{{.*}} : i64
// CHECK-DAG: %[[CZ:.*]] = llvm.icmp "eq" %[[LZ]], %{{.*}} : i64
// CHECK-DAG: llvm.intr.assume %[[CZ]] : i1
// CHECK-NOT: arith.
// CHECK: llvm.getelementptr
// CHECK-NOT: arith.
// CHECK-LABEL: llvm.func @llvm_launch
// CHECK-SAME: (%[[P:.*]]: !llvm.ptr, %[[HA:.*]]: i8, %[[HB:.*]]: i64)
// CHECK-NOT: arith.
// CHECK: %[[T:.*]] = llvm.trunc %[[HB]] : i64 to i32
// CHECK-NOT: arith.
// CHECK: llvm.call @llvm_kernel(%[[P]], %[[HA]], %[[T]])
// CHECK-NOT: arith.
// CHECK: llvm.return
llvm.func @llvm_kernel(%p: !llvm.ptr) {
  %a = spec.param "llvm_top_bit" = 128 : i8
  %b = spec.param "llvm_wide" = 48 : i64
  %ae = llvm.sext %a : i8 to i64
  %o = llvm.add %ae, %b : i64
  %g = llvm.getelementptr %p[%o] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %v = llvm.load %g : !llvm.ptr -> f32
  llvm.store %v, %p : f32, !llvm.ptr
  llvm.return
}
llvm.func @llvm_launch(%p: !llvm.ptr) {
  llvm.call @llvm_kernel(%p) : (!llvm.ptr) -> ()
  llvm.return
}

// The last split's kernel in the manifest.
// MANIFEST: "name": "llvm_top_bit",
// MANIFEST-NEXT: "preconditions": [
// MANIFEST-NEXT: {
// MANIFEST-NEXT: "kind": "range",
// MANIFEST-NEXT: "max": 255,
// MANIFEST-NEXT: "min": -128,
// MANIFEST-NEXT: "text": "-128 <= value <= 255 (fits i8)"
// MANIFEST-NEXT: },
// MANIFEST-NEXT: {
// MANIFEST-NEXT: "divisor": 128,
// MANIFEST-NEXT: "kind": "divisible-by",
// MANIFEST-NEXT: "text": "value % 128 == 0"
// MANIFEST-NEXT: }
// MANIFEST-NEXT: ],
// MANIFEST-NEXT: "source": "argument",
// MANIFEST-NEXT: "type": "i8"
// MANIFEST: "name": "llvm_wide",
// MANIFEST-NEXT: "preconditions": [
// MANIFEST-NEXT: {
// MANIFEST-NEXT: "kind": "range",
// MANIFEST-NEXT: "max": 4294967295,
// MANIFEST-NEXT: "min": -2147483648,
// MANIFEST-NEXT: "text": "-2147483648 <= value <= 4294967295 (fits i32)"
// MANIFEST-NEXT: },
// MANIFEST-NEXT: {
// MANIFEST-NEXT: "divisor": 16,
// MANIFEST-NEXT: "kind": "divisible-by",
// MANIFEST-NEXT: "text": "value % 16 == 0"
// MANIFEST-NEXT: },
// MANIFEST-NEXT: {
// MANIFEST-NEXT: "kind": "range",
// MANIFEST-NEXT: "max": 2147483647,
// MANIFEST-NEXT: "min": 0,
// MANIFEST-NEXT: "text": "0 <= value <= 2147483647"
// MANIFEST-NEXT: }
// MANIFEST-NEXT: ],
// MANIFEST-NEXT: "source": "argument",
// MANIFEST-NEXT: "type": "i32"
// MANIFEST: "symbol": "@llvm_kernel"
