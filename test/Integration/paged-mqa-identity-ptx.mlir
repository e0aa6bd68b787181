// The reference kernel at three page-table widths (not powers of two among
// them) lowered to PTX for sm_90 by flyhoist-nvvm-pipeline: hoisted, the
// three PTX texts are byte-identical and the entry takes the width as one
// more (trailing, 64-bit) parameter; materialized, all three differ.
//
// Only the `assembly` payload is compared: the NVVM target also records the
// serialization time (LLVMIRToISATimeInMs) in the gpu.binary properties,
// which changes from one compile to the next.
//
// RUN: sed 's/"max_blocks_per_seq" = 128/"max_blocks_per_seq" = 7/' %flyhoist_src_root/kernels/paged_fp4_mqa_logits.mlir > %t.w7.mlir
// RUN: sed 's/"max_blocks_per_seq" = 128/"max_blocks_per_seq" = 333/' %flyhoist_src_root/kernels/paged_fp4_mqa_logits.mlir > %t.w333.mlir
// RUN: cp %flyhoist_src_root/kernels/paged_fp4_mqa_logits.mlir %t.w128.mlir
// RUN: grep -c '"max_blocks_per_seq" = 333 : index' %t.w333.mlir | FileCheck %s --check-prefix=SUBST
//
// RUN: fly-opt %t.w7.mlir   --pass-pipeline='builtin.module(hoist-stride-specialization{remarks=false},flyhoist-nvvm-pipeline{chip=sm_90 format=isa})' > %t.h7.out
// RUN: fly-opt %t.w128.mlir --pass-pipeline='builtin.module(hoist-stride-specialization{remarks=false},flyhoist-nvvm-pipeline{chip=sm_90 format=isa})' > %t.h128.out
// RUN: fly-opt %t.w333.mlir --pass-pipeline='builtin.module(hoist-stride-specialization{remarks=false},flyhoist-nvvm-pipeline{chip=sm_90 format=isa})' > %t.h333.out
// RUN: FileCheck %s --check-prefixes=CHECK,HOIST --input-file=%t.h7.out
// RUN: grep -o 'assembly = "[^"]*"' %t.h7.out   > %t.h7
// RUN: grep -o 'assembly = "[^"]*"' %t.h128.out > %t.h128
// RUN: grep -o 'assembly = "[^"]*"' %t.h333.out > %t.h333
// RUN: cat %t.h7 %t.h128 %t.h333 | count 3
// RUN: cat %t.h7 %t.h128 %t.h333 | sort -u | count 1
//
// RUN: fly-opt %t.w7.mlir   --pass-pipeline='builtin.module(materialize-specialization,flyhoist-nvvm-pipeline{chip=sm_90 format=isa})' > %t.m7.out
// RUN: fly-opt %t.w128.mlir --pass-pipeline='builtin.module(materialize-specialization,flyhoist-nvvm-pipeline{chip=sm_90 format=isa})' > %t.m128.out
// RUN: fly-opt %t.w333.mlir --pass-pipeline='builtin.module(materialize-specialization,flyhoist-nvvm-pipeline{chip=sm_90 format=isa})' > %t.m333.out
// RUN: FileCheck %s --check-prefixes=CHECK,SPEC --input-file=%t.m7.out
// RUN: grep -o 'assembly = "[^"]*"' %t.m7.out   > %t.m7
// RUN: grep -o 'assembly = "[^"]*"' %t.m128.out > %t.m128
// RUN: grep -o 'assembly = "[^"]*"' %t.m333.out > %t.m333
// RUN: cat %t.m7 %t.m128 %t.m333 | sort -u | count 3
// Every PTX, hoisted and materialized, is assembled to an sm_90 cubin by
// ptxas (fuzz/lowering.py --assemble; without ptxas it says so).
// RUN: %python %flyhoist_src_root/fuzz/lowering.py --assemble %t.h7.out %t.h128.out %t.h333.out %t.m7.out %t.m128.out %t.m333.out | FileCheck %s --check-prefix=PTXAS
// PTXAS: ptxas: {{6 PTX assembled to sm_90 cubins|none, NVVM outputs checked as PTX only}}

// SUBST: 1

// 9 memrefs x (allocated, aligned, offset, size, stride) + 2 index = 47
// parameters (param_0 .. param_46); the hoisted entry has param_47 too.
// Whether libdevice was found (CUDA_HOME) changes the PTX (math.fma becomes
// a call to __nv_fmaf without it) but not the identity across widths.
// CHECK: gpu.binary @kernels [#gpu.object<#nvvm.target<{{.*}}chip = "sm_90"{{.*}}>, {{.*}}assembly = "{{.*}}.target sm_90{{.*}}.visible .entry paged_fp4_mqa_logits(
// CHECK-SAME: paged_fp4_mqa_logits_param_46
// HOIST-SAME: paged_fp4_mqa_logits_param_47
// SPEC-NOT: paged_fp4_mqa_logits_param_47

// The host launch passes the width to the hoisted kernel, nothing more to
// the materialized one.
// HOIST: %[[W:.*]] = arith.constant 7 : index
// HOIST: gpu.launch_func @kernels::@paged_fp4_mqa_logits {{.*}}%arg10 : index, %[[W]] : index)
// SPEC: gpu.launch_func @kernels::@paged_fp4_mqa_logits {{.*}}%arg10 : index)
