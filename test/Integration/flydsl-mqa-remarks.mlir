// hoist-stride-specialization on the FlyDSL-shaped kernels (gfx942 and gfx950
// texts): the page-table width, which only reaches the block-table fat
// pointer's offset field, is hoisted into a runtime argument and the launch
// passes it; heads and head_dim (loop bounds), block_k and page_size
// (divisors) are kept, each with a note at the use that needs the constant.
// Then the analysis itself: every use of the width along the fat-pointer path.
//
// RUN: fly-opt %flyhoist_src_root/kernels/paged_fp4_mqa_logits_flydsl_gfx942.mlir --hoist-stride-specialization -o %t.942.mlir 2> %t.942.err
// RUN: FileCheck %s --input-file=%t.942.err
// RUN: FileCheck %s --check-prefix=HEADS --input-file=%t.942.err
// RUN: FileCheck %s --check-prefix=HEAD-DIM --input-file=%t.942.err
// RUN: FileCheck %s --check-prefix=BLOCK-K --input-file=%t.942.err
// RUN: FileCheck %s --check-prefix=PAGE --input-file=%t.942.err
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.942.mlir
//
// RUN: fly-opt %flyhoist_src_root/kernels/paged_fp4_mqa_logits_flydsl_gfx950.mlir --hoist-stride-specialization -o %t.950.mlir 2> %t.950.err
// RUN: FileCheck %s --input-file=%t.950.err
// RUN: FileCheck %s --check-prefix=HEADS --input-file=%t.950.err
// RUN: FileCheck %s --check-prefix=HEAD-DIM --input-file=%t.950.err
// RUN: FileCheck %s --check-prefix=BLOCK-K --input-file=%t.950.err
// RUN: FileCheck %s --check-prefix=PAGE --input-file=%t.950.err
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.950.mlir
//
// Each verdict of the analysis on a use of the width, joined with the source
// line of that use.
// RUN: fly-opt %flyhoist_src_root/kernels/paged_fp4_mqa_logits_flydsl_gfx942.mlir --test-stride-use-analysis \
// RUN:   --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 \
// RUN:   | grep -A1 --no-group-separator "remark: 'max_blocks_per_seq'" | paste -d ' ' - - > %t.942.uses
// RUN: FileCheck %s --check-prefix=USES --input-file=%t.942.uses
// RUN: not grep blocking %t.942.uses
// RUN: fly-opt %flyhoist_src_root/kernels/paged_fp4_mqa_logits_flydsl_gfx950.mlir --test-stride-use-analysis \
// RUN:   --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 \
// RUN:   | grep -A1 --no-group-separator "remark: 'max_blocks_per_seq'" | paste -d ' ' - - > %t.950.uses
// RUN: FileCheck %s --check-prefix=USES --input-file=%t.950.uses
// RUN: not grep blocking %t.950.uses

// CHECK-DAG: remark: 'max_blocks_per_seq' hoisted in kernel @kernels::@paged_fp4_mqa_logits_flydsl: runtime argument 11
// CHECK-DAG: remark: 'heads' kept specialized in kernel @kernels::@paged_fp4_mqa_logits_flydsl: loop bound or step
// CHECK-DAG: remark: 'head_dim' kept specialized in kernel @kernels::@paged_fp4_mqa_logits_flydsl: loop bound or step
// CHECK-DAG: remark: 'block_k' kept specialized in kernel @kernels::@paged_fp4_mqa_logits_flydsl: divisor or remainder (runtime division is slow)
// CHECK-DAG: remark: 'page_size' kept specialized in kernel @kernels::@paged_fp4_mqa_logits_flydsl: divisor or remainder (runtime division is slow)
// CHECK-NOT: needs 'max_blocks_per_seq'

// The first use needing each kept parameter: the bound of the q[t] copy
// loop (heads * head_dim / 2 bytes), the pages of a tile (block_k / page_size).
// HEADS: note: needs 'heads' as a constant here
// HEADS-NEXT: scf.for %chunk_idx = %wave_chunk to %q_tok_bytes step %c1024 {
// HEAD-DIM: note: needs 'head_dim' as a constant here
// HEAD-DIM-NEXT: scf.for %chunk_idx = %wave_chunk to %q_tok_bytes step %c1024 {
// BLOCK-K: note: needs 'block_k' as a constant here
// BLOCK-K-NEXT: %pages_per_tile = arith.divui %block_k_i32, %page_size : i32
// PAGE: note: needs 'page_size' as a constant here
// PAGE-NEXT: %pages_per_tile = arith.divui %block_k_i32, %page_size : i32

// IR-LABEL: gpu.func @paged_fp4_mqa_logits_flydsl(
// IR-SAME: %arg10: i32, %[[W:.*]]: i32) kernel
// IR-SAME: spec.record = #spec.record<hoisted = [#spec.hoisted<name = "max_blocks_per_seq", type = i32, argument = 11>]
// IR-NOT: spec.param
// IR: arith.muli %{{.*}}, %[[W]] : i32
// IR-NOT: %[[W]]
// IR-LABEL: func.func @launch_paged_fp4_mqa_logits_flydsl(
// IR: %[[C128:.*]] = arith.constant 128 : i32
// IR: gpu.launch_func @kernels::@paged_fp4_mqa_logits_flydsl
// IR-SAME: %arg10 : i32, %[[C128]] : i32)

// The row offset seq * width, scaled to bytes, enters the offset field
// (field 1) of the fat pointer, rides the KV loop's iter_args, is read back
// by extracting field 1 (field 0, the resource, does not carry it) and ends
// as the offset operand of the block-table buffer load: one address operand.
// USES-DAG: 'max_blocks_per_seq' operand #1 (value): pass-through {{ *}}%bt_row_elems = arith.muli %seq, %width : i32
// USES-DAG: 'max_blocks_per_seq' operand #0 (value): pass-through {{ *}}%bt_row_bytes = arith.muli %bt_row_elems, %c4_i32 : i32
// USES-DAG: 'max_blocks_per_seq' operand #1 (value): pass-through {{ *}}%bt_row = llvm.insertvalue %bt_o1, %bt_row0[1]
// USES-DAG: 'max_blocks_per_seq' operand #3 (field 1): pass-through {{ *}}%bt_end = scf.for %kb = %c0 to %len_idx step %block_k
// USES-DAG: 'max_blocks_per_seq' operand #0 (field 1): not read {{ *}}%cur_r = llvm.extractvalue %bt_cur[0]
// USES-DAG: 'max_blocks_per_seq' operand #0 (field 1): pass-through {{ *}}%cur_o = llvm.extractvalue %bt_cur[1]
// USES-DAG: 'max_blocks_per_seq' operand #0 (field 1): pass-through {{ *}}%entry_o = llvm.extractvalue %entry[1]
// USES-DAG: 'max_blocks_per_seq' operand #0 (field 1): not read {{ *}}%entry_r = llvm.extractvalue %entry[0]
// USES-DAG: 'max_blocks_per_seq' operand #1 (value): address {{ *}}%phys{{(_v)?}} = rocdl.raw.ptr.buffer.load %entry_r, %entry_o, %c0_i32, %c0_i32 : i32
// USES-DAG: 'max_blocks_per_seq' operand #0 (field 1): pass-through {{ *}}scf.yield %bt_next
// USES-DAG: 'max_blocks_per_seq': address-only, 1 address operand(s)
