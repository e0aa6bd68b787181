// RUN: fly-opt %s -split-input-file -verify-diagnostics \
// RUN:   -hoist-stride-specialization=remarks=false
// RUN: fly-opt %s -split-input-file -verify-diagnostics \
// RUN:   -materialize-specialization
// One name, two values: both passes reject it at the second definition, with
// a note at the first.

func.func @kernel(%a: memref<?xf32>) {
  // expected-note @+1 {{first defined here}}
  %w = spec.param "w" = 4 : index
  // expected-error @+1 {{parameter 'w' has value 8 here but 4 elsewhere; one name has one value}}
  %v = spec.param "w" = 8 : index
  %x = memref.load %a[%w] : memref<?xf32>
  memref.store %x, %a[%v] : memref<?xf32>
  return
}

// -----

// The two values are in different functions (kernel and host).
func.func @kernel(%a: memref<?xf32>) {
  // expected-note @+1 {{first defined here}}
  %w = spec.param "w" = 4 : index
  %x = memref.load %a[%w] : memref<?xf32>
  return
}
func.func @host(%a: memref<?xf32>) {
  // expected-error @+1 {{parameter 'w' has value -4 here but 4 elsewhere; one name has one value}}
  %w = spec.param "w" = -4 : index
  call @kernel(%a) : (memref<?xf32>) -> ()
  return
}

// -----

// Across a gpu.module and its host.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<?xf32>) kernel {
      // expected-note @+1 {{first defined here}}
      %w = spec.param "bt_stride" = 128 : i32
      %i = arith.index_cast %w : i32 to index
      %x = memref.load %a[%i] : memref<?xf32>
      gpu.return
    }
  }
  func.func @host(%a: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{parameter 'bt_stride' has value 64 here but 128 elsewhere; one name has one value}}
    %w = spec.param "bt_stride" = 64 : i32
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>)
    return
  }
}
