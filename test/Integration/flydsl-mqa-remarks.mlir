// hoist-stride-specialization on the FlyDSL-shaped kernels (gfx942 and gfx950
// texts): the page-table width, which only reaches the block table's element
// offset (aiter's index seq * width + column, scaled to bytes at the buffer
// load), is hoisted into a runtime argument and the launch passes it; heads
// and head_dim (loop bounds), block_k and page_size (divisors) are kept, each
// with a note at the use that needs the constant. Then the analysis itself:
// every use of the width, down to the three block-table loads of the
// software-pipelined loop (two before it, one a tile ahead inside it).
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

// CHECK-DAG: remark: 'max_blocks_per_seq' hoisted in kernel @kernels::@paged_fp4_mqa_logits_flydsl_0: runtime argument 19
// CHECK-DAG: remark: 'heads' kept specialized in kernel @kernels::@paged_fp4_mqa_logits_flydsl_0: loop bound or step
// CHECK-DAG: remark: 'head_dim' kept specialized in kernel @kernels::@paged_fp4_mqa_logits_flydsl_0: loop bound or step
// CHECK-DAG: remark: 'block_k' kept specialized in kernel @kernels::@paged_fp4_mqa_logits_flydsl_0: divisor or remainder (runtime division is slow)
// CHECK-DAG: remark: 'page_size' kept specialized in kernel @kernels::@paged_fp4_mqa_logits_flydsl_0: divisor or remainder (runtime division is slow)
// CHECK-NOT: needs 'max_blocks_per_seq'

// The first use needing each kept parameter: the bound of the w[t] copy
// loop (heads), of the LDS-DMA loop (64 rows of head_dim / 2 bytes), the
// page column of the second tile's first position ((block_k + tid) /
// page_size) and the last live column ((len - 1) / page_size).
// HEADS: note: needs 'heads' as a constant here
// HEADS-NEXT: scf.for %h_idx = %tid_idx to %heads step %c256 {
// HEAD-DIM: note: needs 'head_dim' as a constant here
// HEAD-DIM-NEXT: scf.for %d0_d_idx = %c0 to %tile_bytes_idx step %dma_step {
// BLOCK-K: note: needs 'block_k' as a constant here
// BLOCK-K-NEXT: %e1_col0 = arith.divui %e1_pos, %page_size : i32
// PAGE: note: needs 'page_size' as a constant here
// PAGE-NEXT: %last_col = arith.divui %len_m1, %page_size : i32

// Nine tensors (a pointer and a packed layout struct each), then the
// persistent grid's size; the width is one more i32 after it.
// IR-LABEL: gpu.func @paged_fp4_mqa_logits_flydsl_0(
// IR-SAME: %arg17: !llvm.struct<packed (struct<packed (i32, i32)>, struct<packed (i64)>)>, %arg18: i32, %[[W:.*]]: i32) kernel
// IR-SAME: spec.record = #spec.record<hoisted = [#spec.hoisted<name = "max_blocks_per_seq", type = i32, argument = 19>]
// IR-NOT: spec.param
// IR: arith.muli %{{.*}}, %[[W]] : i32
// IR-NOT: %[[W]]
// The host (emit_c_interface, the stream last) passes the width after the grid.
// IR-LABEL: func.func @paged_fp4_mqa_logits_flydsl(
// IR-SAME: %{{.*}}: !gpu.async.token) attributes {llvm.emit_c_interface}
// IR: %[[C128:.*]] = arith.constant 128 : i32
// IR: gpu.launch_func [%{{.*}}] @kernels::@paged_fp4_mqa_logits_flydsl_0
// IR-SAME: %{{.*}} : i32, %[[C128]] : i32)

// seq * width is the row's element offset; each block-table entry adds its
// column, scales to bytes (x 4, an i32 table) and is the offset operand of a
// buffer load: three address operands, nothing else.
// USES-DAG: 'max_blocks_per_seq' operand #1 (value): pass-through {{ *}}%bt_row = arith.muli %seq, %width : i32
// USES-DAG: 'max_blocks_per_seq' operand #0 (value): pass-through {{ *}}%e0_idx = arith.addi %bt_row, %e0_col : i32
// USES-DAG: 'max_blocks_per_seq' operand #0 (value): pass-through {{ *}}%e0_b = arith.muli %e0_idx, %c4_i32 : i32
// USES-DAG: 'max_blocks_per_seq' operand #1 (value): address {{ *}}%e0 = rocdl.raw.ptr.buffer.load %bt_rsrc, %e0_b, %c0_i32, %c0_i32 : i32
// USES-DAG: 'max_blocks_per_seq' operand #0 (value): pass-through {{ *}}%e1_idx = arith.addi %bt_row, %e1_col : i32
// USES-DAG: 'max_blocks_per_seq' operand #0 (value): pass-through {{ *}}%e1_b = arith.muli %e1_idx, %c4_i32 : i32
// USES-DAG: 'max_blocks_per_seq' operand #1 (value): address {{ *}}%e1 = rocdl.raw.ptr.buffer.load %bt_rsrc, %e1_b, %c0_i32, %c0_i32 : i32
// USES-DAG: 'max_blocks_per_seq' operand #0 (value): pass-through {{ *}}%ea_idx = arith.addi %bt_row, %ea_col : i32
// USES-DAG: 'max_blocks_per_seq' operand #0 (value): pass-through {{ *}}%ea_b = arith.muli %ea_idx, %c4_i32 : i32
// USES-DAG: 'max_blocks_per_seq' operand #1 (value): address {{ *}}%ea = rocdl.raw.ptr.buffer.load %bt_rsrc, %ea_b, %c0_i32, %c0_i32 : i32
// USES-DAG: 'max_blocks_per_seq': address-only, 3 address operand(s)
