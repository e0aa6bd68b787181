// Keeping what the constant told the backend: divisibility and range.
// RUN: fly-opt %s -split-input-file --hoist-stride-specialization="remarks=false divisibility=16 narrow-range" | FileCheck %s
// RUN: fly-opt %s -split-input-file --hoist-stride-specialization="remarks=false divisibility=16 narrow-range manifest=%t.json" > /dev/null
// The manifest holds the last split (the llvm.func kernel, value 6).
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t.json
// Off by default: the value travels unchanged.
// RUN: fly-opt %s -split-input-file --hoist-stride-specialization=remarks=false | FileCheck %s --check-prefix=OFF
// RUN: not fly-opt %s --hoist-stride-specialization="divisibility=12" 2>&1 | FileCheck %s --check-prefix=BAD
// Values with the same power-of-two factor share a module; others do not.
// RUN: sed 's/= 96 : index/= 32 : index/' %s | fly-opt -split-input-file --hoist-stride-specialization="remarks=false divisibility=16 narrow-range" | sed -n '/^  gpu.module/,/^  }$/p' > %t.w32
// RUN: sed 's/= 96 : index/= 208 : index/' %s | fly-opt -split-input-file --hoist-stride-specialization="remarks=false divisibility=16 narrow-range" | sed -n '/^  gpu.module/,/^  }$/p' > %t.w208
// RUN: sed 's/= 96 : index/= 40 : index/' %s | fly-opt -split-input-file --hoist-stride-specialization="remarks=false divisibility=16 narrow-range" | sed -n '/^  gpu.module/,/^  }$/p' > %t.w40
// RUN: diff %t.w32 %t.w208
// RUN: not diff %t.w32 %t.w40

// BAD: divisibility=12 must be a power of two

// CHECK-LABEL: gpu.func @k
// CHECK-SAME: %[[I:arg[0-9]+]]: index, %[[Q:arg[0-9]+]]: i32) kernel
// CHECK-SAME: {argument = 2 : i64, divisor = 16 : i64, name = "w", type = i32, zero_extended_to = index}
// CHECK: %[[Z:.*]] = arith.index_castui %[[Q]] : i32 to index
// CHECK: %[[S:.*]] = arith.constant 4 : index
// CHECK: %[[W:.*]] = arith.shli %[[Z]], %[[S]] overflow<nsw, nuw> : index
// CHECK: arith.muli %[[I]], %[[W]] : index
// CHECK-LABEL: func.func @host
// CHECK: %[[C96:.*]] = arith.constant 96 : index
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[D:.*]] = arith.shrui %[[C96]], %[[C4]] : index
// CHECK: %[[N:.*]] = arith.index_castui %[[D]] : index to i32
// CHECK: gpu.launch_func @g::@k {{.*}} args(%{{.*}} : memref<?xf32>, %{{.*}} : index, %[[N]] : i32)

// MANIFEST: "preconditions": [
// MANIFEST-NEXT: "value % 2 == 0",
// MANIFEST-NEXT: "0 <= value < 2147483648"
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

// A negative value has no fact to keep: a logical shift at the launch site
// would not divide it, and a no-wrap shift would not rebuild it.
// CHECK-LABEL: func.func @negative
// CHECK-SAME: %{{.*}}: index) attributes {spec.hoisted = [{argument = 1 : i64, name = "back_stride", type = index}]
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

// An i32 value is already narrow; an odd value keeps divisor 1; an llvm.func
// kernel decodes with LLVM ops.
// CHECK-LABEL: llvm.func @lk
// CHECK-SAME: %{{.*}}: i32) attributes
// CHECK-SAME: divisor = 2 : i64
// CHECK: %[[Z:.*]] = llvm.zext
// CHECK: llvm.shl %[[Z]], %{{.*}} overflow<nsw, nuw>
llvm.func @lk(%p: !llvm.ptr) attributes {spec.kernel} {
  %w = spec.param "odd_then_even" = 6 : i64
  %g = llvm.getelementptr %p[%w] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %v = llvm.load %g : !llvm.ptr -> f32
  llvm.store %v, %p : f32, !llvm.ptr
  llvm.return
}

