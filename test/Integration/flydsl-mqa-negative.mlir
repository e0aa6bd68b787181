// Variants of the FlyDSL-shaped kernels in which the page-table width
// reaches something that needs its value, so it stays specialized (and the
// kernel is left as materialize-specialization makes it), next to the
// positive control. Each variant rewrites one line of the kernel text.
//
// Positive control: the block table's exact byte size passed by the launcher
// as a kernel argument (the i32 num_workgroups argument stands for it) is a
// bound the width does not reach: hoisted. (The width inside num_records
// itself: flydsl-mqa-num-records.mlir.)
// RUN: sed 's/%bt_rsrc = rocdl.make.buffer.rsrc %block_table, %c0_i16, %max_records, %flags/%bt_records = arith.extui %num_workgroups : i32 to i64\n      %bt_rsrc = rocdl.make.buffer.rsrc %block_table, %c0_i16, %bt_records, %flags/' \
// RUN:   %flyhoist_src_root/kernels/paged_fp4_mqa_logits_flydsl_gfx942.mlir > %t.arg.mlir
// RUN: grep -c '%bt_records, %flags' %t.arg.mlir | FileCheck %s --check-prefix=ONE
// RUN: fly-opt %t.arg.mlir --hoist-stride-specialization -o /dev/null 2>&1 | FileCheck %s --check-prefix=HOISTED
//
// Clamp: the window clipped to the row, kv_len = min(kv_len, width * page_size).
// RUN: sed 's/%len = llvm.load %len_ptr {alignment = 4 : i64} : !llvm.ptr<1> -> i32/%len_raw = llvm.load %len_ptr {alignment = 4 : i64} : !llvm.ptr<1> -> i32\n        %len_cap = arith.muli %width, %%page_size : i32\n        %len = arith.minui %len_raw, %len_cap : i32/' \
// RUN:   %flyhoist_src_root/kernels/paged_fp4_mqa_logits_flydsl_gfx942.mlir > %t.clamp.mlir
// RUN: grep -c 'arith.minui %len_raw, %len_cap' %t.clamp.mlir | FileCheck %s --check-prefix=ONE
// RUN: fly-opt %t.clamp.mlir --hoist-stride-specialization -o /dev/null 2>&1 | FileCheck %s --check-prefix=CLAMP
//
// Loop bound: the KV loop over the whole row (width * page_size positions,
// those past the window masked as before).
// RUN: sed 's/%kv_end:2 = scf.for %kb = %c0 to %len_idx step %block_k/%row_positions = arith.muli %width, %%page_size : i32\n          %row_end = arith.index_cast %row_positions : i32 to index\n          &/; s/%kv_end:2 = scf.for %kb = %c0 to %len_idx step %block_k/%kv_end:2 = scf.for %kb = %c0 to %row_end step %block_k/' \
// RUN:   %flyhoist_src_root/kernels/paged_fp4_mqa_logits_flydsl_gfx942.mlir > %t.loop.mlir
// RUN: grep -c 'scf.for %kb = %c0 to %row_end step %block_k' %t.loop.mlir | FileCheck %s --check-prefix=ONE
// RUN: fly-opt %t.loop.mlir --hoist-stride-specialization -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOOP
//
// Comparison: a predicate from the table's shape, page column < width, on
// top of the window test.
// RUN: sed 's/%live = arith.cmpi slt, %j, %len : i32/%in_window = arith.cmpi slt, %j, %len : i32\n            %%page_col = arith.divui %j, %%page_size : i32\n            %in_row = arith.cmpi ult, %%page_col, %width : i32\n            %live = arith.andi %in_window, %in_row : i1/' \
// RUN:   %flyhoist_src_root/kernels/paged_fp4_mqa_logits_flydsl_gfx942.mlir > %t.cmp.mlir
// RUN: grep -c 'arith.cmpi ult, %%page_col, %width' %t.cmp.mlir | FileCheck %s --check-prefix=ONE
// RUN: fly-opt %t.cmp.mlir --hoist-stride-specialization -o /dev/null 2>&1 | FileCheck %s --check-prefix=CMP

// ONE: 1

// HOISTED: remark: 'max_blocks_per_seq' hoisted in kernel @kernels::@paged_fp4_mqa_logits_flydsl_0: runtime argument 19

// CLAMP: remark: 'max_blocks_per_seq' kept specialized in kernel @kernels::@paged_fp4_mqa_logits_flydsl_0: select/min/max (a clamp)
// CLAMP: note: needs 'max_blocks_per_seq' as a constant here
// CLAMP-NEXT: %len = arith.minui %len_raw, %len_cap : i32

// CMP: remark: 'max_blocks_per_seq' kept specialized in kernel @kernels::@paged_fp4_mqa_logits_flydsl_0: comparison
// CMP: note: needs 'max_blocks_per_seq' as a constant here
// CMP-NEXT: %in_row = arith.cmpi ult, %page_col, %width : i32

// LOOP: remark: 'max_blocks_per_seq' kept specialized in kernel @kernels::@paged_fp4_mqa_logits_flydsl_0: loop bound or step
// LOOP: note: needs 'max_blocks_per_seq' as a constant here
// LOOP-NEXT: %kv_end:2 = scf.for %kb = %c0 to %row_end step %block_k
