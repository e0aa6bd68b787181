// The manifest's `kernel_parameter`: where each hoisted value sits among the
// parameters of the lowered kernel (the code object's explicit kernel
// arguments), under both memref conventions of the shipped pipelines, checked
// against the llvm.func that convert-gpu-to-rocdl and convert-gpu-to-nvvm
// make of the hoisted kernel (test/Python/launch_abi.py checks the code
// objects themselves).
// RUN: split-file %s %t
//
// Dynamic memrefs: 7 + 5 parameters before `n` with descriptors; bare
// pointers cannot lower the kernel (null).
// RUN: fly-opt %t/dynamic.mlir --hoist-stride-specialization="remarks=false manifest=%t/dynamic.json" -o %t/dynamic.hoisted.mlir
// RUN: FileCheck %s --check-prefix=DYN-JSON --input-file=%t/dynamic.json
// RUN: fly-opt %t/dynamic.hoisted.mlir --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-rocdl))' | FileCheck %s --check-prefix=DYN-LOWERED
// RUN: fly-opt %t/dynamic.hoisted.mlir --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm))' | FileCheck %s --check-prefix=DYN-LOWERED
// RUN: not fly-opt %t/dynamic.hoisted.mlir --pass-pipeline='builtin.module(flyhoist-amdgpu-pipeline{use-bare-ptr-memref-call-conv=true format=isa})' 2>&1 | FileCheck %s --check-prefix=DYN-BARE
//
// Static memrefs, a 0-d memref and one-parameter types of every kind.
// RUN: fly-opt %t/static.mlir --hoist-stride-specialization="remarks=false manifest=%t/static.json" -o %t/static.hoisted.mlir
// RUN: FileCheck %s --check-prefix=STATIC-JSON --input-file=%t/static.json
// RUN: fly-opt %t/static.hoisted.mlir --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-rocdl))' | FileCheck %s --check-prefix=STATIC-DESC
// RUN: fly-opt %t/static.hoisted.mlir --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm))' | FileCheck %s --check-prefix=STATIC-DESC
// RUN: fly-opt %t/static.hoisted.mlir --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-rocdl{use-bare-ptr-memref-call-conv=true}))' | FileCheck %s --check-prefix=STATIC-BARE
// RUN: fly-opt %t/static.hoisted.mlir --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=true}))' | FileCheck %s --check-prefix=STATIC-BARE
// The pipelines' option reaches the conversion (PTX names parameters by
// position: the hoisted i32 is parameter 7 with bare pointers, 19 without).
// RUN: fly-opt %t/static.hoisted.mlir --pass-pipeline='builtin.module(flyhoist-nvvm-pipeline{use-bare-ptr-memref-call-conv=true})' | FileCheck %s --check-prefix=STATIC-PTX-BARE
// RUN: fly-opt %t/static.hoisted.mlir --pass-pipeline='builtin.module(flyhoist-nvvm-pipeline)' | FileCheck %s --check-prefix=STATIC-PTX-DESC
//
// An unranked memref is two parameters; an `equals` value has no slot; a
// host-level llvm.func kernel's arguments are already lowered.
// RUN: fly-opt %t/other.mlir --hoist-stride-specialization="remarks=false manifest=%t/other.json" -o %t/other.hoisted.mlir
// RUN: FileCheck %s --check-prefix=OTHER-JSON --input-file=%t/other.json
// RUN: fly-opt %t/other.hoisted.mlir --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-rocdl))' | FileCheck %s --check-prefix=OTHER-LOWERED

//--- dynamic.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<?x?xf32>, %b: memref<?xi32>, %n: index,
                %rsrc: !llvm.struct<(ptr<8>, i32)>) kernel {
      %w = spec.param "w" = 128 : i32
      %r = spec.param "rows" = 7 : index
      %i = arith.index_cast %w : i32 to index
      %j = arith.muli %i, %r : index
      %v = memref.load %b[%j] : memref<?xi32>
      memref.store %v, %b[%n] : memref<?xi32>
      gpu.return
    }
  }
}

// DYN-JSON:      "argument": 4,
// DYN-JSON:      "kernel_parameter": {
// DYN-JSON-NEXT:   "bare_pointers": null,
// DYN-JSON-NEXT:   "memref_descriptors": 14
// DYN-JSON-NEXT: },
// DYN-JSON-NEXT: "name": "rows",
// DYN-JSON:      "argument": 5,
// DYN-JSON:      "kernel_parameter": {
// DYN-JSON-NEXT:   "bare_pointers": null,
// DYN-JSON-NEXT:   "memref_descriptors": 15
// DYN-JSON-NEXT: },
// DYN-JSON-NEXT: "name": "w",

// DYN-LOWERED: llvm.func @k(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i64, %arg3: i64, %arg4: i64, %arg5: i64, %arg6: i64, %arg7: !llvm.ptr, %arg8: !llvm.ptr, %arg9: i64, %arg10: i64, %arg11: i64, %arg12: i64, %arg13: !llvm.struct<(ptr<8>, i32)>, %arg14: i64, %arg15: i32)

// DYN-BARE: error: bare pointer calling convention requires all memrefs to have static shape and use the identity map

//--- static.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<4x8xf32>, %s: memref<f32>, %flag: i1,
                %v: vector<4xf32>, %c: complex<f32>, %p: !llvm.ptr,
                %b: memref<16xi32>) kernel {
      %w = spec.param "w" = 2 : i32
      %i = arith.index_cast %w : i32 to index
      %x = memref.load %b[%i] : memref<16xi32>
      memref.store %x, %b[%i] : memref<16xi32>
      gpu.return
    }
  }
}

// STATIC-JSON:      "argument": 7,
// STATIC-JSON:      "kernel_parameter": {
// STATIC-JSON-NEXT:   "bare_pointers": 7,
// STATIC-JSON-NEXT:   "memref_descriptors": 19
// STATIC-JSON-NEXT: },

// STATIC-DESC: llvm.func @k(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i64, %arg3: i64, %arg4: i64, %arg5: i64, %arg6: i64, %arg7: !llvm.ptr, %arg8: !llvm.ptr, %arg9: i64, %arg10: i1, %arg11: vector<4xf32>, %arg12: !llvm.struct<(f32, f32)>, %arg13: !llvm.ptr, %arg14: !llvm.ptr, %arg15: !llvm.ptr, %arg16: i64, %arg17: i64, %arg18: i64, %arg19: i32)
// STATIC-BARE: llvm.func @k(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: i1, %arg3: vector<4xf32>, %arg4: !llvm.struct<(f32, f32)>, %arg5: !llvm.ptr, %arg6: !llvm.ptr, %arg7: i32)

// STATIC-PTX-BARE: .param .u32 k_param_7
// STATIC-PTX-BARE-NOT: k_param_8
// STATIC-PTX-DESC: .param .u32 k_param_19
// STATIC-PTX-DESC-NOT: k_param_20

//--- other.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%u: memref<*xf32>, %b: memref<?xi32>, %stride: index) kernel {
      %e = spec.param "e" = 4 equals %stride : index
      %w = spec.param "w" = 2 : index
      %j = arith.muli %e, %w : index
      %x = memref.load %b[%j] : memref<?xi32>
      memref.store %x, %b[%j] : memref<?xi32>
      gpu.return
    }
  }
  llvm.func @host_kernel(%p: !llvm.ptr, %q: !llvm.ptr) attributes {spec.kernel} {
    %w = spec.param "hw" = 8 : i64
    %g = llvm.getelementptr %p[%w] : (!llvm.ptr, i64) -> !llvm.ptr, i32
    %x = llvm.load %g : !llvm.ptr -> i32
    llvm.store %x, %q : i32, !llvm.ptr
    llvm.return
  }
}

// OTHER-JSON:      "kernel_parameter": null,
// OTHER-JSON-NEXT: "name": "e",
// OTHER-JSON:      "argument": 3,
// OTHER-JSON:      "kernel_parameter": {
// OTHER-JSON-NEXT:   "bare_pointers": null,
// OTHER-JSON-NEXT:   "memref_descriptors": 8
// OTHER-JSON-NEXT: },
// OTHER-JSON-NEXT: "name": "w",
// OTHER-JSON:      "argument": 2,
// OTHER-JSON:      "kernel_parameter": {
// OTHER-JSON-NEXT:   "bare_pointers": 2,
// OTHER-JSON-NEXT:   "memref_descriptors": 2
// OTHER-JSON-NEXT: },
// OTHER-JSON-NEXT: "name": "hw",
// OTHER-JSON:      "symbol": "@host_kernel"

// OTHER-LOWERED: llvm.func @k(%arg0: i64, %arg1: !llvm.ptr, %arg2: !llvm.ptr, %arg3: !llvm.ptr, %arg4: i64, %arg5: i64, %arg6: i64, %arg7: i64, %arg8: i64)
