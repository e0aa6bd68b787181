// Identity: inputs that differ only in a hoisted value give byte-identical
// gpu.modules; materialized, they differ.
// RUN: sed 's/WIDTH/128/' %s > %t.w128.mlir
// RUN: sed 's/WIDTH/77/' %s > %t.w77.mlir
// RUN: fly-opt --hoist-stride-specialization=remarks=false < %t.w128.mlir | sed -n '/^  gpu.module/,/^  }$/p' > %t.h128
// RUN: fly-opt --hoist-stride-specialization=remarks=false < %t.w77.mlir | sed -n '/^  gpu.module/,/^  }$/p' > %t.h77
// RUN: FileCheck %s --input-file=%t.h128
// RUN: diff %t.h128 %t.h77
// RUN: fly-opt %t.w128.mlir --materialize-specialization | sed -n '/^  gpu.module/,/^  }$/p' > %t.m128
// RUN: fly-opt %t.w77.mlir --materialize-specialization | sed -n '/^  gpu.module/,/^  }$/p' > %t.m77
// RUN: FileCheck %s --check-prefix=MAT128 --input-file=%t.m128
// RUN: not diff %t.m128 %t.m77
// The host code still differs (it passes the value) unless hoisted into the host.
// RUN: fly-opt --hoist-stride-specialization="remarks=false hoist-into-host" < %t.w128.mlir > %t.hh128
// RUN: fly-opt --hoist-stride-specialization="remarks=false hoist-into-host" < %t.w77.mlir > %t.hh77
// RUN: diff %t.hh128 %t.hh77

// CHECK: gpu.module @kernels
// CHECK: gpu.func @paged
// CHECK-SAME: spec.record = #spec.record<hoisted = [#spec.hoisted<name = "max_blocks_per_seq", type = i32, argument = 3>]
// MAT128: arith.constant 128 : i32
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @paged(%bt: memref<?xi32>, %out: memref<?xi32>, %seq: i32) kernel {
      %w = spec.param "max_blocks_per_seq" = WIDTH : i32
      %h = spec.param "heads" = 4 : index
      %row = arith.muli %seq, %w : i32
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      scf.for %j = %c0 to %h step %c1 {
        %jj = arith.index_cast %j : index to i32
        %i = arith.addi %row, %jj : i32
        %ii = arith.index_cast %i : i32 to index
        %v = memref.load %bt[%ii] : memref<?xi32>
        memref.store %v, %out[%j] : memref<?xi32>
      }
      gpu.return
    }
  }
  func.func @host(%bt: memref<?xi32>, %out: memref<?xi32>) {
    %c1 = arith.constant 1 : index
    %s = arith.constant 3 : i32
    gpu.launch_func @kernels::@paged blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%bt : memref<?xi32>, %out : memref<?xi32>, %s : i32)
    return
  }
}
