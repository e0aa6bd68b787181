// The FlyDSL-shaped kernel for gfx942 (kernels/paged_fp4_mqa_logits_flydsl_gfx942.mlir:
// fat-pointer buffer resources, the block-table row in scf.for iter_args;
// it decodes FP4 to f32: CDNA3 has no FP4 matrix instruction) at three
// page-table widths (not powers of two among them) compiled to code objects:
// hoisted, the three gpu.binary ops are byte-identical; materialized, they
// all differ. The ISA keeps the lowering's
// forms, and the hoisted kernel takes the width as one more 4-byte argument.
//
// RUN: sed 's/"max_blocks_per_seq" = 128/"max_blocks_per_seq" = 7/' %flyhoist_src_root/kernels/paged_fp4_mqa_logits_flydsl_gfx942.mlir > %t.w7.mlir
// RUN: sed 's/"max_blocks_per_seq" = 128/"max_blocks_per_seq" = 333/' %flyhoist_src_root/kernels/paged_fp4_mqa_logits_flydsl_gfx942.mlir > %t.w333.mlir
// RUN: cp %flyhoist_src_root/kernels/paged_fp4_mqa_logits_flydsl_gfx942.mlir %t.w128.mlir
// RUN: grep -c '"max_blocks_per_seq" = 333 : i32' %t.w333.mlir | FileCheck %s --check-prefix=SUBST
//
// RUN: fly-opt %t.w7.mlir   --pass-pipeline='builtin.module(hoist-stride-specialization{remarks=false},flyhoist-amdgpu-pipeline{chip=gfx942 format=bin})' | grep gpu.binary > %t.h7
// RUN: fly-opt %t.w128.mlir --pass-pipeline='builtin.module(hoist-stride-specialization{remarks=false},flyhoist-amdgpu-pipeline{chip=gfx942 format=bin})' | grep gpu.binary > %t.h128
// RUN: fly-opt %t.w333.mlir --pass-pipeline='builtin.module(hoist-stride-specialization{remarks=false},flyhoist-amdgpu-pipeline{chip=gfx942 format=bin})' | grep gpu.binary > %t.h333
// RUN: FileCheck %s --input-file=%t.h7
// RUN: cat %t.h7 %t.h128 %t.h333 | count 3
// RUN: cat %t.h7 %t.h128 %t.h333 | sort -u | count 1
//
// RUN: fly-opt %t.w7.mlir   --pass-pipeline='builtin.module(materialize-specialization,flyhoist-amdgpu-pipeline{chip=gfx942 format=bin})' | grep gpu.binary > %t.m7
// RUN: fly-opt %t.w128.mlir --pass-pipeline='builtin.module(materialize-specialization,flyhoist-amdgpu-pipeline{chip=gfx942 format=bin})' | grep gpu.binary > %t.m128
// RUN: fly-opt %t.w333.mlir --pass-pipeline='builtin.module(materialize-specialization,flyhoist-amdgpu-pipeline{chip=gfx942 format=bin})' | grep gpu.binary > %t.m333
// RUN: FileCheck %s --input-file=%t.m7
// RUN: cat %t.m7 %t.m128 %t.m333 | sort -u | count 3
//
// RUN: fly-opt %t.w7.mlir --pass-pipeline='builtin.module(hoist-stride-specialization{remarks=false},flyhoist-amdgpu-pipeline{chip=gfx942 format=isa})' \
// RUN:   | grep gpu.binary | sed -e 's/\\0A/\n/g' -e 's/\\09/ /g' > %t.h7.s
// RUN: fly-opt %t.w7.mlir --pass-pipeline='builtin.module(materialize-specialization,flyhoist-amdgpu-pipeline{chip=gfx942 format=isa})' \
// RUN:   | grep gpu.binary | sed -e 's/\\0A/\n/g' -e 's/\\09/ /g' > %t.m7.s
// RUN: FileCheck %s --check-prefixes=ISA,HOIST --input-file=%t.h7.s
// RUN: FileCheck %s --check-prefixes=ISA,SPEC --input-file=%t.m7.s
// RUN: FileCheck %s --check-prefix=DMA --input-file=%t.h7.s

// SUBST: 1
// CHECK: gpu.binary @kernels [#gpu.object<#rocdl.target<{{.*}}chip = "gfx942"{{.*}}>, bin = "\7FELF

// q[t] to LDS by buffer-to-LDS DMA, its scales by a global-to-LDS copy.
// DMA-DAG: buffer_load_dword {{.*}} offen lds
// DMA-DAG: global_load_lds_dword

// ISA-LABEL: paged_fp4_mqa_logits_flydsl:
// K rows as four 16-byte buffer loads; the logit stored through the buffer
// resource.
// ISA-COUNT-4: buffer_load_dwordx4 {{.*}} offen
// ISA: buffer_store_dword
// ISA: s_endpgm
// 9 pointers and 2 i32 scalars: 80 bytes; the hoisted width (i32) 4 more.
// HOIST: .amdhsa_kernarg_size 84
// SPEC: .amdhsa_kernarg_size 80
