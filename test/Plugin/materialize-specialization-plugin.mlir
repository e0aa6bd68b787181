// The fully specialized baseline through the plugin.
// RUN: mlir-opt --load-dialect-plugin=%flyhoist_plugin --load-pass-plugin=%flyhoist_plugin --pass-pipeline='builtin.module(materialize-specialization)' %s | FileCheck %s

// CHECK-LABEL: func.func @scale
// CHECK-NOT: spec.param
// CHECK: %[[C:.*]] = arith.constant 128 : i32
// CHECK: arith.muli %{{.*}}, %[[C]] : i32
func.func @scale(%x: i32) -> i32 {
  %w = spec.param "max_blocks_per_seq" = 128 : i32
  %r = arith.muli %x, %w : i32
  return %r : i32
}
