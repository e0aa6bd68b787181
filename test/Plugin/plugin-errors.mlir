// Errors through the plugin are located diagnostics, never crashes.
// RUN: mlir-opt --load-dialect-plugin=%flyhoist_plugin --load-pass-plugin=%flyhoist_plugin --pass-pipeline='builtin.module(hoist-stride-specialization)' --verify-diagnostics %s -split-input-file -o /dev/null

// One name, two values.
func.func @conflict(%m: memref<?xi32>) {
  // expected-note @below {{first defined here}}
  %a = spec.param "w" = 1 : index
  // expected-error @below {{}}
  %b = spec.param "w" = 2 : index
  return
}

// -----

func.func @bad_type() {
  // expected-error @below {{}}
  %a = spec.param "w" = 1 : f32
  return
}
