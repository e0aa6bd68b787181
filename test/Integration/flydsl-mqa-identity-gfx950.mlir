// The FlyDSL-shaped kernel for gfx950 (kernels/paged_fp4_mqa_logits_flydsl_gfx950.mlir:
// tensors as pointers with packed layout structs, buffer resources, K tiles
// through LDS by 16-byte LDS-DMA in a software-pipelined loop, the head dot
// products on the scaled-FP4 MFMA) at three page-table widths (not powers of
// two among them) compiled to code objects: hoisted, the three gpu.binary ops
// are byte-identical; materialized, they all differ. O=2, as FlyDSL
// compiles: the pipeline then attaches the same target the module carries,
// and each gpu.binary holds one object. The ISA keeps the lowering's forms,
// and the hoisted kernel takes the width as one more 4-byte argument.
//
// RUN: sed 's/"max_blocks_per_seq" = 128/"max_blocks_per_seq" = 7/' %flyhoist_src_root/kernels/paged_fp4_mqa_logits_flydsl_gfx950.mlir > %t.w7.mlir
// RUN: sed 's/"max_blocks_per_seq" = 128/"max_blocks_per_seq" = 333/' %flyhoist_src_root/kernels/paged_fp4_mqa_logits_flydsl_gfx950.mlir > %t.w333.mlir
// RUN: cp %flyhoist_src_root/kernels/paged_fp4_mqa_logits_flydsl_gfx950.mlir %t.w128.mlir
// RUN: grep -c '"max_blocks_per_seq" = 333 : i32' %t.w333.mlir | FileCheck %s --check-prefix=SUBST
//
// RUN: fly-opt %t.w7.mlir   --pass-pipeline='builtin.module(hoist-stride-specialization{remarks=false},flyhoist-amdgpu-pipeline{chip=gfx950 O=2 format=bin})' | grep gpu.binary > %t.h7
// RUN: fly-opt %t.w128.mlir --pass-pipeline='builtin.module(hoist-stride-specialization{remarks=false},flyhoist-amdgpu-pipeline{chip=gfx950 O=2 format=bin})' | grep gpu.binary > %t.h128
// RUN: fly-opt %t.w333.mlir --pass-pipeline='builtin.module(hoist-stride-specialization{remarks=false},flyhoist-amdgpu-pipeline{chip=gfx950 O=2 format=bin})' | grep gpu.binary > %t.h333
// RUN: FileCheck %s --input-file=%t.h7
// RUN: grep -o '#gpu.object' %t.h7 | count 1
// RUN: cat %t.h7 %t.h128 %t.h333 | count 3
// RUN: cat %t.h7 %t.h128 %t.h333 | sort -u | count 1
//
// RUN: fly-opt %t.w7.mlir   --pass-pipeline='builtin.module(materialize-specialization,flyhoist-amdgpu-pipeline{chip=gfx950 O=2 format=bin})' | grep gpu.binary > %t.m7
// RUN: fly-opt %t.w128.mlir --pass-pipeline='builtin.module(materialize-specialization,flyhoist-amdgpu-pipeline{chip=gfx950 O=2 format=bin})' | grep gpu.binary > %t.m128
// RUN: fly-opt %t.w333.mlir --pass-pipeline='builtin.module(materialize-specialization,flyhoist-amdgpu-pipeline{chip=gfx950 O=2 format=bin})' | grep gpu.binary > %t.m333
// RUN: FileCheck %s --input-file=%t.m7
// RUN: cat %t.m7 %t.m128 %t.m333 | sort -u | count 3
//
// RUN: fly-opt %t.w7.mlir --pass-pipeline='builtin.module(hoist-stride-specialization{remarks=false},flyhoist-amdgpu-pipeline{chip=gfx950 O=2 format=isa})' \
// RUN:   | grep gpu.binary | sed -e 's/\\0A/\n/g' -e 's/\\09/ /g' > %t.h7.s
// RUN: fly-opt %t.w7.mlir --pass-pipeline='builtin.module(materialize-specialization,flyhoist-amdgpu-pipeline{chip=gfx950 O=2 format=isa})' \
// RUN:   | grep gpu.binary | sed -e 's/\\0A/\n/g' -e 's/\\09/ /g' > %t.m7.s
// RUN: FileCheck %s --check-prefixes=ISA,HOIST --input-file=%t.h7.s
// RUN: FileCheck %s --check-prefixes=ISA,SPEC --input-file=%t.m7.s
// RUN: grep -c 'buffer_load_dwordx4 .*offen lds' %t.h7.s | FileCheck %s --check-prefix=DMA16
// RUN: grep -c 'buffer_load_dword .*offen lds' %t.h7.s | FileCheck %s --check-prefix=DMA4

// SUBST: 1
// CHECK: gpu.binary @kernels [#gpu.object<#rocdl.target<chip = "gfx950">, bin = "\7FELF

// The K tiles by buffer-to-LDS DMA, 16 bytes a lane (gfx950), 4 instructions
// for tile 0 before the loop and 4 for the next tile inside it; the scales
// 4 bytes a lane, one instruction each time.
// DMA16: {{^}}8{{$}}
// DMA4: {{^}}2{{$}}

// ISA-LABEL: paged_fp4_mqa_logits_flydsl_0:
// The four 16-head blocks of a subtile, FP4 A and B (cbsz/blgp 4), Q in
// registers, K from LDS; the head sum across lane groups by ds_bpermute; the
// logit stored through the buffer resource.
// ISA-COUNT-16: v_mfma_scale_f32_16x16x128_f8f6f4 {{.*}} cbsz:4 blgp:4
// ISA-NOT: v_mfma_scale
// ISA: ds_bpermute_b32
// ISA: buffer_store_dword
// ISA: s_endpgm
// Nine pointers, four 28-, three 4- and two 16-byte layout structs and the
// grid size: 260 bytes; the hoisted width (i32) 4 more.
// HOIST: .amdhsa_kernarg_size 264
// SPEC: .amdhsa_kernarg_size 260
