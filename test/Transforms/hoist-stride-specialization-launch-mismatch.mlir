// RUN: fly-opt %s -split-input-file -verify-diagnostics \
// RUN:   -hoist-stride-specialization=remarks=false
// Launches whose operands do not match their kernel. The verifier catches
// the plain cases; the pass catches the kernels the verifier does not check.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-note @+1 {{kernel defined here}}
    func.func @k(%a: memref<?xf32>) attributes {gpu.kernel} {
      %w = spec.param "w" = 4 : index
      %v = memref.load %a[%w] : memref<?xf32>
      memref.store %v, %a[%w] : memref<?xf32>
      return
    }
  }
  func.func @host(%a: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{launch site passes 2 arguments but kernel @kernels::@k takes 1}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>, %c1 : index)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-note @+1 {{kernel defined here}}
    func.func @k(%a: memref<?xf32>, %b: index) attributes {gpu.kernel} {
      %w = spec.param "w" = 4 : index
      %v = memref.load %a[%w] : memref<?xf32>
      return
    }
  }
  func.func @host(%a: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{launch site passes 1 arguments but kernel @kernels::@k takes 2}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<?xf32>) kernel {
      %w = spec.param "w" = 4 : index
      %v = memref.load %a[%w] : memref<?xf32>
      gpu.return
    }
  }
  func.func @host(%a: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{got 2 kernel operands but expected 1}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>, %c1 : index)
    return
  }
}

// -----

func.func @k(%a: memref<?xf32>) {
  %w = spec.param "w" = 4 : index
  %v = memref.load %a[%w] : memref<?xf32>
  return
}
func.func @host(%a: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{incorrect number of operands for callee}}
  call @k(%a, %c1) : (memref<?xf32>, index) -> ()
  return
}
