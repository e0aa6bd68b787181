// hoist-stride-specialization on the decode-side paged K gather: the
// page-table width is hoisted into a runtime argument (the launch passes
// it); page_size is kept (materialized), with its reason and a note at the
// division that needs the constant. The launcher's own `splits` stays what it was.
//
// RUN: fly-opt %flyhoist_src_root/kernels/paged_fp4_k_gather.mlir --hoist-stride-specialization -o %t.mlir 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=IR --input-file=%t.mlir

// CHECK-DAG: remark: 'max_blocks_per_seq' hoisted in kernel @kernels::@paged_fp4_k_gather: runtime argument 7
// CHECK-DAG: remark: 'page_size' kept specialized in kernel @kernels::@paged_fp4_k_gather: divisor or remainder (runtime division is slow)
// CHECK-DAG: note: needs 'page_size' as a constant here
// CHECK-NOT: hoisted in kernel
// CHECK-NOT: kept specialized in kernel

// IR-LABEL: gpu.func @paged_fp4_k_gather(
// IR-SAME: %[[SPLITS:.*]]: index, %[[W:.*]]: index) kernel
// IR-SAME: spec.record = #spec.record<hoisted = [#spec.hoisted<name = "max_blocks_per_seq", type = index, argument = 7>]
// IR-NOT: spec.param
// IR: arith.muli %{{.*}}, %[[W]] : index
// IR-LABEL: func.func @launch_paged_fp4_k_gather(
// IR: %[[C128:.*]] = arith.constant 128 : index
// IR: gpu.launch_func @kernels::@paged_fp4_k_gather
// IR-SAME: %arg7 : index, %[[C128]] : index)
