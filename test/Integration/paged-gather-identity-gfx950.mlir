// The decode-side paged K gather at three page-table widths (not powers of
// two among them) compiled to gfx950 code objects: hoisted, the three
// gpu.binary ops are byte-identical; materialized, they all differ.
//
// RUN: sed 's/"max_blocks_per_seq" = 128/"max_blocks_per_seq" = 7/' %flyhoist_src_root/kernels/paged_fp4_k_gather.mlir > %t.w7.mlir
// RUN: sed 's/"max_blocks_per_seq" = 128/"max_blocks_per_seq" = 333/' %flyhoist_src_root/kernels/paged_fp4_k_gather.mlir > %t.w333.mlir
// RUN: cp %flyhoist_src_root/kernels/paged_fp4_k_gather.mlir %t.w128.mlir
// RUN: grep -c '"max_blocks_per_seq" = 333 : index' %t.w333.mlir | FileCheck %s --check-prefix=SUBST
//
// RUN: fly-opt %t.w7.mlir   --pass-pipeline='builtin.module(hoist-stride-specialization{remarks=false},flyhoist-amdgpu-pipeline{chip=gfx950 format=bin})' | grep gpu.binary > %t.h7
// RUN: fly-opt %t.w128.mlir --pass-pipeline='builtin.module(hoist-stride-specialization{remarks=false},flyhoist-amdgpu-pipeline{chip=gfx950 format=bin})' | grep gpu.binary > %t.h128
// RUN: fly-opt %t.w333.mlir --pass-pipeline='builtin.module(hoist-stride-specialization{remarks=false},flyhoist-amdgpu-pipeline{chip=gfx950 format=bin})' | grep gpu.binary > %t.h333
// RUN: FileCheck %s --input-file=%t.h7
// RUN: cat %t.h7 %t.h128 %t.h333 | sort -u | count 1
//
// RUN: fly-opt %t.w7.mlir   --pass-pipeline='builtin.module(materialize-specialization,flyhoist-amdgpu-pipeline{chip=gfx950 format=bin})' | grep gpu.binary > %t.m7
// RUN: fly-opt %t.w128.mlir --pass-pipeline='builtin.module(materialize-specialization,flyhoist-amdgpu-pipeline{chip=gfx950 format=bin})' | grep gpu.binary > %t.m128
// RUN: fly-opt %t.w333.mlir --pass-pipeline='builtin.module(materialize-specialization,flyhoist-amdgpu-pipeline{chip=gfx950 format=bin})' | grep gpu.binary > %t.m333
// RUN: FileCheck %s --input-file=%t.m7
// RUN: cat %t.m7 %t.m128 %t.m333 | sort -u | count 3
//
// The hoisted kernel keeps the vector accesses of the tuning: each K word is
// one dword load and each bf16 chunk one 16-byte store; the only byte loads
// are the 4 E8M0 scales (a lost alignment would split both).
// RUN: fly-opt %t.w333.mlir --pass-pipeline='builtin.module(hoist-stride-specialization{remarks=false},flyhoist-amdgpu-pipeline{chip=gfx950 format=isa})' \
// RUN:   | grep gpu.binary | sed -e 's/\\0A/\n/g' -e 's/\\09/ /g' > %t.isa
// RUN: grep -c 'global_store_dwordx4' %t.isa | FileCheck %s --check-prefix=FOUR
// RUN: grep -c 'global_load_ubyte' %t.isa | FileCheck %s --check-prefix=FOUR
// RUN: not grep -E 'global_store_(dword|short|byte) ' %t.isa

// SUBST: 1
// CHECK: gpu.binary @kernels [#gpu.object<#rocdl.target<{{.*}}chip = "gfx950"{{.*}}>, bin = "\7FELF
// FOUR: {{^}}4{{$}}
