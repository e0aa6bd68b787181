// The width inside the block table's num_records: the resource built with
// the table's exact byte size, num_seqs * max_blocks_per_seq * 4
// (num_tokens standing for num_seqs), as a lowering that sizes descriptors
// from the tensor's layout would. The hardware checks every access against
// num_records, a bound the analysis keeps the parameter for (size read back
// at the block-table load), so the width must stay specialized.
//
// The bound reaches the block-table loads through their resource operand
// (canonicalize has folded the fat pointer's pack and unpack, so the
// resource is used directly); the first of them gets the note.
//
// RUN: sed 's/%bt_rsrc = rocdl.make.buffer.rsrc %block_table, %c0_i16, %max_records, %flags/%bt_elems = arith.muli %num_tokens, %width : i32\n      %bt_bytes = arith.muli %bt_elems, %c4_i32 : i32\n      %bt_records = arith.extui %bt_bytes : i32 to i64\n      &/; s/%bt_rsrc = rocdl.make.buffer.rsrc %block_table, %c0_i16, %max_records, %flags/%bt_rsrc = rocdl.make.buffer.rsrc %block_table, %c0_i16, %bt_records, %flags/' \
// RUN:   %flyhoist_src_root/kernels/paged_fp4_mqa_logits_flydsl_gfx942.mlir > %t.bound942.mlir
// RUN: grep -c '%bt_records, %flags' %t.bound942.mlir | FileCheck %s --check-prefix=ONE
// RUN: fly-opt %t.bound942.mlir --hoist-stride-specialization -o %t.bound942.out 2>&1 | FileCheck %s --check-prefix=BOUND
// RUN: FileCheck %s --check-prefix=KEPT --input-file=%t.bound942.out
// RUN: sed 's/%bt_rsrc = rocdl.make.buffer.rsrc %block_table, %c0_i16, %max_records, %flags/%bt_elems = arith.muli %num_tokens, %width : i32\n      %bt_bytes = arith.muli %bt_elems, %c4_i32 : i32\n      %bt_records = arith.extui %bt_bytes : i32 to i64\n      &/; s/%bt_rsrc = rocdl.make.buffer.rsrc %block_table, %c0_i16, %max_records, %flags/%bt_rsrc = rocdl.make.buffer.rsrc %block_table, %c0_i16, %bt_records, %flags/' \
// RUN:   %flyhoist_src_root/kernels/paged_fp4_mqa_logits_flydsl_gfx950.mlir > %t.bound950.mlir
// RUN: grep -c '%bt_records, %flags' %t.bound950.mlir | FileCheck %s --check-prefix=ONE
// RUN: fly-opt %t.bound950.mlir --hoist-stride-specialization -o %t.bound950.out 2>&1 | FileCheck %s --check-prefix=BOUND
// RUN: FileCheck %s --check-prefix=KEPT --input-file=%t.bound950.out

// ONE: 1

// BOUND: remark: 'max_blocks_per_seq' kept specialized in kernel @kernels::@paged_fp4_mqa_logits_flydsl_0: a view size or buffer bound that an access reads back
// BOUND: note: needs 'max_blocks_per_seq' as a constant here
// BOUND-NEXT: %e0 = rocdl.raw.ptr.buffer.load %bt_rsrc, %e0_b, %c0_i32, %c0_i32 : i32
// BOUND-NOT: 'max_blocks_per_seq' hoisted

// Kept means materialized: the kernel signature is unchanged (nine tensors
// and the grid size) and the width is a constant feeding both the row offset
// and the bound.
// KEPT-LABEL: gpu.func @paged_fp4_mqa_logits_flydsl_0(
// KEPT-SAME: %arg18: i32) kernel
// KEPT-NOT: spec.record = #spec.record<hoisted = [{
// KEPT: %[[W:.*]] = arith.constant 128 : i32
// KEPT-DAG: arith.muli %{{.*}}, %[[W]] : i32
// KEPT-DAG: arith.muli %{{.*}}, %[[W]] : i32
// KEPT-LABEL: func.func @paged_fp4_mqa_logits_flydsl(
// KEPT: gpu.launch_func [%{{.*}}] @kernels::@paged_fp4_mqa_logits_flydsl_0
// KEPT-SAME: %{{.*}} : i32)
