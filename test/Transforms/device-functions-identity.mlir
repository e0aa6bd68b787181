// Identity through device functions: widths that differ only in a value
// hoisted through callers give byte-identical gpu.modules and fingerprints
// (before the fix, the device functions baked each width in while the
// kernels' remarks said "hoisted"); materialized, they differ. The manifest
// lists the device functions.
// RUN: sed 's/WIDTH/128/' %s > %t.w128.mlir
// RUN: sed 's/WIDTH/77/' %s > %t.w77.mlir
// RUN: sed 's/WIDTH/2147483647/' %s > %t.wmax.mlir
// RUN: fly-opt %t.w128.mlir --hoist-stride-specialization="remarks=false manifest=%t.128.json" | sed -n '/^  gpu.module/,/^  }$/p' > %t.h128
// RUN: fly-opt %t.w77.mlir --hoist-stride-specialization="remarks=false manifest=%t.77.json" | sed -n '/^  gpu.module/,/^  }$/p' > %t.h77
// RUN: fly-opt %t.wmax.mlir --hoist-stride-specialization=remarks=false | sed -n '/^  gpu.module/,/^  }$/p' > %t.hmax
// RUN: FileCheck %s --input-file=%t.h128
// RUN: diff %t.h128 %t.h77
// RUN: diff %t.h128 %t.hmax
// RUN: grep fingerprint %t.128.json > %t.fp128
// RUN: grep fingerprint %t.77.json > %t.fp77
// RUN: diff %t.fp128 %t.fp77
// RUN: FileCheck %s --check-prefix=JSON --input-file=%t.128.json
// With narrow-range, too (every width here is below 2^31).
// RUN: fly-opt %t.w128.mlir --hoist-stride-specialization="remarks=false narrow-range" | sed -n '/^  gpu.module/,/^  }$/p' > %t.n128
// RUN: fly-opt %t.w77.mlir --hoist-stride-specialization="remarks=false narrow-range" | sed -n '/^  gpu.module/,/^  }$/p' > %t.n77
// RUN: diff %t.n128 %t.n77
// RUN: fly-opt %t.w128.mlir --materialize-specialization | sed -n '/^  gpu.module/,/^  }$/p' > %t.m128
// RUN: fly-opt %t.w77.mlir --materialize-specialization | sed -n '/^  gpu.module/,/^  }$/p' > %t.m77
// RUN: not diff %t.m128 %t.m77

// CHECK: gpu.module @kernels
// CHECK-NOT: spec.param
// CHECK-NOT: 128
// CHECK: llvm.func @row(%{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64)
// CHECK-NOT: 128

// JSON: "device_functions": [
// JSON: "argument": 2,
// JSON: "kept": [],
// JSON: "symbol": "@kernels::@scan"
// JSON: "kept": [],
// JSON: "symbol": "@kernels::@row"
// JSON: "kernels": [
// JSON: "argument": 2,
// JSON: "source": "argument",
// JSON: "symbol": "@kernels::@entry"
module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.func @entry(%p: !llvm.ptr, %n: i64) attributes {gpu.kernel} {
      llvm.call @scan(%p, %n) : (!llvm.ptr, i64) -> ()
      llvm.return
    }
    llvm.func @scan(%p: !llvm.ptr, %n: i64) {
      %c0 = llvm.mlir.constant(0 : i64) : i64
      %c1 = llvm.mlir.constant(1 : i64) : i64
      %done = llvm.icmp "eq" %n, %c0 : i64
      llvm.cond_br %done, ^end, ^more
    ^more:
      llvm.call @row(%p, %n) : (!llvm.ptr, i64) -> ()
      %m = llvm.sub %n, %c1 : i64
      llvm.call @scan(%p, %m) : (!llvm.ptr, i64) -> ()
      llvm.br ^end
    ^end:
      llvm.return
    }
    llvm.func @row(%p: !llvm.ptr, %r: i64) {
      %w = spec.param "w" = WIDTH : index
      %wi = arith.index_cast %w : index to i64
      %o = llvm.mul %r, %wi : i64
      %g = llvm.getelementptr %p[%o] : (!llvm.ptr, i64) -> !llvm.ptr, i32
      %v = llvm.load %g : !llvm.ptr -> i32
      llvm.store %v, %p : i32, !llvm.ptr
      llvm.return
    }
  }
  llvm.func @host(%p: !llvm.ptr) {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %c4 = llvm.mlir.constant(4 : i64) : i64
    gpu.launch_func @kernels::@entry blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64 args(%p : !llvm.ptr, %c4 : i64)
    llvm.return
  }
}
