// The lowering pipelines check their options before anything runs: a chip
// LLVM's backend does not know is an error naming the known ones (LLVM would
// abort the process for an AMDGPU chip, and write PTX for a made-up SM).
// (A malformed value such as O=banana is MLIR's option parser's to report.)

// RUN: not fly-opt %s --pass-pipeline='builtin.module(flyhoist-amdgpu-pipeline{chip=gfx9999})' 2>&1 | FileCheck %s --check-prefix=AMDGPU
// AMDGPU-NOT: LLVM ERROR
// AMDGPU: error: unknown amdgpu chip 'gfx9999'; LLVM {{[0-9.]+}} knows: {{.*}}gfx90a, {{.*}}gfx942, gfx950, {{.*}}gfx1100,
// AMDGPU: failed to add `flyhoist-amdgpu-pipeline` with options `chip=gfx9999`

// RUN: not fly-opt %s --pass-pipeline='builtin.module(flyhoist-nvvm-pipeline{chip=sm_999})' 2>&1 | FileCheck %s --check-prefix=NVVM
// NVVM: error: unknown nvvm chip 'sm_999'; LLVM {{[0-9.]+}} knows: sm_20, {{.*}}sm_90, sm_90a, {{.*}}sm_100,
// NVVM: failed to add `flyhoist-nvvm-pipeline` with options `chip=sm_999`

// An AMDGPU chip is not an NVIDIA one.
// RUN: not fly-opt %s --pass-pipeline='builtin.module(flyhoist-nvvm-pipeline{chip=gfx942})' 2>&1 | FileCheck %s --check-prefix=CROSS
// CROSS: error: unknown nvvm chip 'gfx942'


// Known chips lower.
// RUN: fly-opt %s --pass-pipeline='builtin.module(flyhoist-amdgpu-pipeline{chip=gfx950 format=isa})' | FileCheck %s --check-prefix=KNOWN
// RUN: fly-opt %s --pass-pipeline='builtin.module(flyhoist-nvvm-pipeline{chip=sm_90})' | FileCheck %s --check-prefix=KNOWN
// KNOWN-LABEL: gpu.binary @kernels

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @copy(%m: memref<?xf32>, %i: index) kernel {
      %v = memref.load %m[%i] : memref<?xf32>
      memref.store %v, %m[%i] : memref<?xf32>
      gpu.return
    }
  }
}
