// Debian's own mlir-opt loads the spec dialect and the flyhoist passes from
// the plugin, parses spec.param and runs the pass. Upstream mlir-opt parses
// its command line before a plugin registers passes, so plugin passes are
// named in --pass-pipeline rather than as --hoist-stride-specialization.
// RUN: mlir-opt --load-dialect-plugin=%flyhoist_plugin --load-pass-plugin=%flyhoist_plugin --pass-pipeline='builtin.module(hoist-stride-specialization)' %s -split-input-file 2>/dev/null | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%flyhoist_plugin --load-pass-plugin=%flyhoist_plugin --pass-pipeline='builtin.module(hoist-stride-specialization)' --verify-diagnostics %s -split-input-file -o /dev/null

// The row stride of the block table is used only in address arithmetic: it
// becomes a trailing kernel argument and the launch passes it.

// CHECK-LABEL: gpu.func @gather
// CHECK-SAME: %[[SEQ:[a-z0-9]+]]: index, %[[BLK:[a-z0-9]+]]: index, %[[W:[a-z0-9]+]]: index) kernel
// CHECK-SAME: spec.record = #spec.record<hoisted = [#spec.hoisted<name = "max_blocks_per_seq", type = index, argument = 4>]
// CHECK-NOT: spec.param
// CHECK: arith.muli %[[SEQ]], %[[W]] : index
// CHECK-LABEL: func.func @host
// CHECK: %[[C128:.*]] = arith.constant 128 : index
// CHECK: gpu.launch_func @kernels::@gather
// CHECK-SAME: %[[C128]] : index)

// CHECK-LABEL: gpu.func @bound
// CHECK-SAME: spec.record = #spec.record<hoisted = []
// CHECK: %[[N:.*]] = arith.constant 4 : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[N]]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gather(%bt: memref<?xi32>, %out: memref<?xi32>, %seq: index, %blk: index) kernel {
      // expected-remark @below {{'max_blocks_per_seq' hoisted in kernel @kernels::@gather}}
      %w = spec.param "max_blocks_per_seq" = 128 : index
      %row = arith.muli %seq, %w : index
      %i = arith.addi %row, %blk : index
      %v = memref.load %bt[%i] : memref<?xi32>
      memref.store %v, %out[%seq] : memref<?xi32>
      gpu.return
    }
  }
  func.func @host(%bt: memref<?xi32>, %out: memref<?xi32>, %seq: index, %blk: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@gather blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%bt : memref<?xi32>, %out : memref<?xi32>, %seq : index, %blk : index)
    return
  }
}

// -----

// A parameter used as a loop bound stays a constant, and the remark says why.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @bound(%out: memref<?xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      // expected-remark @below {{'num_pages' kept}}
      %n = spec.param "num_pages" = 4 : index
      // expected-note @below {{}}
      scf.for %i = %c0 to %n step %c1 {
        %v = arith.index_cast %i : index to i32
        memref.store %v, %out[%i] : memref<?xi32>
      }
      gpu.return
    }
  }
}
