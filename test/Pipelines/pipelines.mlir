// What the two lowering pipelines run: first flyhoist-lowering-interfaces
// (what they add to the context, printable and parseable like any pass),
// then materialize-specialization, and use-bare-ptr-memref-call-conv reaches
// the GPU conversion. A printed pipeline parses again.
// (This kernel's dynamic memrefs cannot take bare pointers: the conversion says so.)
// RUN: not fly-opt %s --pass-pipeline='builtin.module(flyhoist-amdgpu-pipeline{format=isa use-bare-ptr-memref-call-conv=true})' --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=AMDGPU
// RUN: fly-opt %s --pass-pipeline='builtin.module(flyhoist-nvvm-pipeline)' --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=NVVM
// RUN: fly-opt %s --pass-pipeline='builtin.module(flyhoist-lowering-interfaces{target=nvvm},materialize-specialization)' | FileCheck %s --check-prefix=MATERIALIZED
// RUN: not fly-opt %s --pass-pipeline='builtin.module(flyhoist-lowering-interfaces{target=spirv})' 2>&1 | FileCheck %s --check-prefix=BAD-TARGET

// AMDGPU: builtin.module(
// AMDGPU-NEXT: flyhoist-lowering-interfaces{target=rocdl},
// AMDGPU-NEXT: materialize-specialization,
// AMDGPU-NEXT: rocdl-attach-target{
// AMDGPU: convert-gpu-to-rocdl{{{.*}}use-bare-ptr-memref-call-conv=true}
// AMDGPU: gpu-module-to-binary{format=isa
// AMDGPU: error: bare pointer calling convention requires all memrefs to have static shape and use the identity map

// NVVM: builtin.module(
// NVVM-NEXT: flyhoist-lowering-interfaces{target=nvvm},
// NVVM-NEXT: materialize-specialization,
// NVVM: convert-gpu-to-nvvm{{{.*}}use-bare-ptr-memref-call-conv=false}

// MATERIALIZED: arith.constant 128 : index
// MATERIALIZED-NOT: spec.param

// BAD-TARGET: error: flyhoist-lowering-interfaces: target='spirv' is neither 'rocdl' nor 'nvvm'

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gather(%bt: memref<?xi32>, %out: memref<?xi32>, %seq: index) kernel {
      %w = spec.param "max_blocks_per_seq" = 128 : index
      %row = arith.muli %seq, %w : index
      %v = memref.load %bt[%row] : memref<?xi32>
      memref.store %v, %out[%seq] : memref<?xi32>
      gpu.return
    }
  }
}
