// Keeping what the constant told the backend: divisibility and range.
// RUN: fly-opt %s -split-input-file --hoist-stride-specialization="remarks=false divisibility=32 narrow-range" | FileCheck %s
// RUN: fly-opt %s -split-input-file --hoist-stride-specialization="remarks=false divisibility=32 narrow-range manifest=%t.json" > /dev/null
// The manifest holds the last split (the llvm.func kernel, value 6).
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t.json
// Off by default: the value travels unchanged.
// RUN: fly-opt %s -split-input-file --hoist-stride-specialization=remarks=false | FileCheck %s --check-prefix=OFF
// RUN: not fly-opt %s --hoist-stride-specialization="divisibility=12" 2>&1 | FileCheck %s --check-prefix=BAD
// A divisor the record's signed 64-bit field cannot hold as a positive
// power of two (2^63 printed as a negative divisor that did not re-parse).
// RUN: not fly-opt %s --hoist-stride-specialization="divisibility=9223372036854775808" 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: fly-opt %s -split-input-file --hoist-stride-specialization="remarks=false divisibility=4611686018427387904" | fly-opt -split-input-file -o /dev/null
// Values with the same power-of-two factor share a module; others do not.
// RUN: sed 's/= 96 : index/= 32 : index/' %s | fly-opt -split-input-file --hoist-stride-specialization="remarks=false divisibility=16 narrow-range" | sed -n '/^  gpu.module/,/^  }$/p' > %t.w32
// RUN: sed 's/= 96 : index/= 208 : index/' %s | fly-opt -split-input-file --hoist-stride-specialization="remarks=false divisibility=16 narrow-range" | sed -n '/^  gpu.module/,/^  }$/p' > %t.w208
// RUN: sed 's/= 96 : index/= 40 : index/' %s | fly-opt -split-input-file --hoist-stride-specialization="remarks=false divisibility=16 narrow-range" | sed -n '/^  gpu.module/,/^  }$/p' > %t.w40
// RUN: diff %t.w32 %t.w208
// RUN: not diff %t.w32 %t.w40

// BAD: divisibility=12 must be a power of two
// HUGE: divisibility=9223372036854775808 is larger than 2^62 (4611686018427387904), the largest divisor the record holds

// The value travels as i32 (narrow-range) and unchanged otherwise: the kernel
// zero-extends it and assumes what the record's preconditions say; the uses
// take the extended argument itself (no rebuilt value).
// CHECK-LABEL: gpu.func @k
// CHECK-SAME: %[[I:arg[0-9]+]]: index, %[[Q:arg[0-9]+]]: i32) kernel
// CHECK-SAME: #spec.hoisted<name = "w", type = i32, argument = 2, zero_extended_to = index, preconditions = [#spec.divisible_by<32>, #spec.range<min = 0, max = 2147483647>]>
// CHECK: %[[W:.*]] = arith.index_castui %[[Q]] : i32 to index
// CHECK-DAG: %[[MASK:.*]] = arith.constant 31 : index
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: %[[LOW:.*]] = arith.andi %[[W]], %[[MASK]] : index
// CHECK: %[[DIVIDES:.*]] = arith.cmpi eq, %[[LOW]], %[[ZERO]] : index
// CHECK: llvm.intr.assume %[[DIVIDES]] : i1
// CHECK-NOT: arith.shli
// CHECK: arith.muli %[[I]], %[[W]] : index
// The launch site passes the value itself, narrowed.
// CHECK-LABEL: func.func @host
// CHECK: %[[C96:.*]] = arith.constant 96 : index
// CHECK-NOT: arith.shr
// CHECK: %[[N:.*]] = arith.index_castui %[[C96]] : index to i32
// CHECK: gpu.launch_func @g::@k {{.*}} args(%{{.*}} : memref<?xf32>, %{{.*}} : index, %[[N]] : i32)

// MANIFEST: "preconditions": [
// MANIFEST-NEXT: {
// MANIFEST-NEXT: "kind": "range",
// MANIFEST-NEXT: "max": 4294967295,
// MANIFEST-NEXT: "min": -2147483648,
// MANIFEST-NEXT: "text": "-2147483648 <= value <= 4294967295 (fits i32)"
// MANIFEST-NEXT: },
// MANIFEST-NEXT: {
// MANIFEST-NEXT: "divisor": 2,
// MANIFEST-NEXT: "kind": "divisible-by",
// MANIFEST-NEXT: "text": "value % 2 == 0"
// MANIFEST-NEXT: },
// MANIFEST-NEXT: {
// MANIFEST-NEXT: "kind": "range",
// MANIFEST-NEXT: "max": 2147483647,
// MANIFEST-NEXT: "min": 0,
// MANIFEST-NEXT: "text": "0 <= value <= 2147483647"
// MANIFEST-NEXT: }
// MANIFEST-NEXT: ],

// OFF-LABEL: gpu.func @k
// OFF-SAME: %{{.*}}: index, %{{.*}}: index) kernel
// OFF-NOT: arith.shli
// OFF-NOT: index_castui
module attributes {gpu.container_module} {
  gpu.module @g {
    gpu.func @k(%m: memref<?xf32>, %i: index) kernel {
      %w = spec.param "w" = 96 : index
      %o = arith.muli %i, %w : index
      %v = memref.load %m[%o] : memref<?xf32>
      memref.store %v, %m[%i] : memref<?xf32>
      gpu.return
    }
  }
  func.func @host(%m: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @g::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>, %c1 : index)
    return
  }
}

// -----

// A negative value keeps its divisibility (the kernel uses it unchanged) but
// not the range: the record says nothing about the sign.
// CHECK-LABEL: func.func @negative
// CHECK-SAME: %{{.*}}: index) attributes {spec.kernel, spec.record = #spec.record<hoisted = [#spec.hoisted<name = "back_stride", type = index, argument = 1, preconditions = [#spec.divisible_by<32>]>]
// CHECK: arith.constant 31 : index
// CHECK: llvm.intr.assume
// CHECK-NOT: index_castui
// CHECK-NOT: arith.shli
func.func @negative(%m: memref<?xf32>) attributes {spec.kernel} {
  %w = spec.param "back_stride" = -64 : index
  %c = arith.constant 4096 : index
  %o = arith.addi %c, %w : index
  %v = memref.load %m[%o] : memref<?xf32>
  memref.store %v, %m[%c] : memref<?xf32>
  return
}

// -----

// An odd value keeps divisor 1 (no assumption), an even one divisor 2; an
// llvm.func kernel states the facts with LLVM dialect ops.
// CHECK-LABEL: llvm.func @lk
// CHECK-SAME: %{{.*}}: i32) attributes
// CHECK-SAME: preconditions = [#spec.divisible_by<2>, #spec.range<min = 0, max = 2147483647>]
// CHECK: %[[Z:.*]] = llvm.zext %{{.*}} : i32 to i64
// CHECK: %[[LOW:.*]] = llvm.and %[[Z]], %{{.*}} : i64
// CHECK: %[[DIVIDES:.*]] = llvm.icmp "eq" %[[LOW]], %{{.*}} : i64
// CHECK: llvm.intr.assume %[[DIVIDES]] : i1
// CHECK-NOT: arith.
// CHECK: llvm.getelementptr %{{.*}}[%[[Z]]]
llvm.func @lk(%p: !llvm.ptr) attributes {spec.kernel} {
  %w = spec.param "odd_then_even" = 6 : i64
  %g = llvm.getelementptr %p[%w] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %v = llvm.load %g : !llvm.ptr -> f32
  llvm.store %v, %p : f32, !llvm.ptr
  llvm.return
}
