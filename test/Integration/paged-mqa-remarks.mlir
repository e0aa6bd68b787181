// hoist-stride-specialization on the reference kernel: the page-table width
// is hoisted into a runtime argument (and the launch passes it); heads,
// head_dim, block_k and page_size are kept, each with its reason and a note
// at the use that needs the constant.
//
// RUN: fly-opt %flyhoist_src_root/kernels/paged_fp4_mqa_logits.mlir --hoist-stride-specialization -o %t.mlir 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.mlir

// CHECK-DAG: remark: 'max_blocks_per_seq' hoisted in kernel @kernels::@paged_fp4_mqa_logits: runtime argument 11
// CHECK-DAG: remark: 'heads' kept specialized in kernel @kernels::@paged_fp4_mqa_logits: loop bound or step
// CHECK-DAG: note: needs 'heads' as a constant here
// CHECK-DAG: remark: 'head_dim' kept specialized in kernel @kernels::@paged_fp4_mqa_logits: loop bound or step
// CHECK-DAG: note: needs 'head_dim' as a constant here
// CHECK-DAG: remark: 'block_k' kept specialized in kernel @kernels::@paged_fp4_mqa_logits: divisor or remainder (runtime division is slow)
// CHECK-DAG: note: needs 'block_k' as a constant here
// CHECK-DAG: remark: 'page_size' kept specialized in kernel @kernels::@paged_fp4_mqa_logits: divisor or remainder (runtime division is slow)
// CHECK-DAG: note: needs 'page_size' as a constant here
// CHECK-NOT: hoisted in kernel

// IR-LABEL: gpu.func @paged_fp4_mqa_logits(
// IR-SAME: %arg10: index, %[[W:.*]]: index) workgroup
// IR-SAME: spec.record = #spec.record<hoisted = [#spec.hoisted<name = "max_blocks_per_seq", type = index, argument = 11>]
// IR-NOT: spec.param
// IR: %[[W32:.*]] = arith.index_cast %[[W]] : index to i32
// IR: arith.muli %{{.*}}, %[[W32]] overflow<nsw> : i32
// IR-LABEL: func.func @launch_paged_fp4_mqa_logits(
// IR: %[[C128:.*]] = arith.constant 128 : index
// IR: gpu.launch_func @kernels::@paged_fp4_mqa_logits
// IR-SAME: %[[C128]] : index)
