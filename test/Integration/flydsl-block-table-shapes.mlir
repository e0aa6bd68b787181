// RUN: fly-opt %s -split-input-file -verify-diagnostics --hoist-stride-specialization \
// RUN:   --mlir-print-op-on-diagnostic=false | FileCheck %s

// The block-table read of kernels/paged_fp4_mqa_logits_flydsl_*.mlir, cut
// down, in the shapes a FlyDSL-style convert-fly-to-rocdl lowering gives it:
// a fat pointer !llvm.struct<(ptr<8>, i32)> = {buffer resource, byte offset}
// built with undef + insertvalue, advanced by extract/add/re-insert, read
// through rocdl.raw.ptr.buffer.load. The width is hoisted where it only
// reaches the offset field; kept where the field is compared, where it sits
// in the bound of a resource used directly, or where it shifts.

// The kernel's path: max num_records, the row offset in the offset field,
// the fat pointer carried and advanced through the KV loop's iter_args.

// CHECK-LABEL: gpu.module @loop_carried
// CHECK: gpu.func @k(%{{.*}}: !llvm.ptr<1>, %[[SEQ:.*]]: i32, %[[N:.*]]: index, %[[W:.*]]: i32) kernel
// CHECK: arith.muli %[[SEQ]], %[[W]] : i32
// CHECK-LABEL: func.func @host
// CHECK: %[[C:.*]] = arith.constant 37 : i32
// CHECK: gpu.launch_func @loop_carried::@k {{.*}}, %[[C]] : i32)
module attributes {gpu.container_module} {
  gpu.module @loop_carried {
    gpu.func @k(%bt: !llvm.ptr<1>, %seq: i32, %n: index) kernel {
      // expected-remark@+1 {{'max_blocks_per_seq' hoisted in kernel @loop_carried::@k: runtime argument 3}}
      %w = spec.param "max_blocks_per_seq" = 37 : i32
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %z16 = arith.constant 0 : i16
      %z = arith.constant 0 : i32
      %c4 = arith.constant 4 : i32
      %c16 = arith.constant 16 : i32
      %max = arith.constant 4294967295 : i64
      %flags = arith.constant 159744 : i32
      %rsrc = rocdl.make.buffer.rsrc %bt, %z16, %max, %flags : !llvm.ptr<1> to !llvm.ptr<8>
      %u = llvm.mlir.undef : !llvm.struct<(ptr<8>, i32)>
      %f0 = llvm.insertvalue %rsrc, %u[0] : !llvm.struct<(ptr<8>, i32)>
      %fp = llvm.insertvalue %z, %f0[1] : !llvm.struct<(ptr<8>, i32)>
      %elems = arith.muli %seq, %w : i32
      %bytes = arith.muli %elems, %c4 : i32
      %o = llvm.extractvalue %fp[1] : !llvm.struct<(ptr<8>, i32)>
      %o1 = arith.addi %o, %bytes : i32
      %r = llvm.extractvalue %fp[0] : !llvm.struct<(ptr<8>, i32)>
      %row0 = llvm.insertvalue %r, %u[0] : !llvm.struct<(ptr<8>, i32)>
      %row = llvm.insertvalue %o1, %row0[1] : !llvm.struct<(ptr<8>, i32)>
      %end = scf.for %i = %c0 to %n step %c1 iter_args(%cur = %row) -> (!llvm.struct<(ptr<8>, i32)>) {
        %cr = llvm.extractvalue %cur[0] : !llvm.struct<(ptr<8>, i32)>
        %co = llvm.extractvalue %cur[1] : !llvm.struct<(ptr<8>, i32)>
        %page = rocdl.raw.ptr.buffer.load %cr, %co, %z, %z : i32
        %next_o = arith.addi %co, %c16 : i32
        %n0 = llvm.insertvalue %cr, %u[0] : !llvm.struct<(ptr<8>, i32)>
        %next = llvm.insertvalue %next_o, %n0[1] : !llvm.struct<(ptr<8>, i32)>
        scf.yield %next : !llvm.struct<(ptr<8>, i32)>
      }
      gpu.return
    }
  }
  func.func @host(%bt: !llvm.ptr<1>, %seq: i32, %n: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @loop_carried::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%bt : !llvm.ptr<1>, %seq : i32, %n : index)
    return
  }
}

// -----

// The entry chosen by an scf.if yielding fat pointers, the row offset
// swizzled (FlyDSL's Swizzle<3,4,3>: o ^ ((o & 0x380) >> 3)) before the
// load, and the resource field compared with null on the way: only the
// offset field carries the width, and all of it ends in an address.

// CHECK-LABEL: gpu.module @if_and_swizzle
// CHECK: spec.record = #spec.record<hoisted = [#spec.hoisted<name = "max_blocks_per_seq", type = i32, argument = 3>]
module attributes {gpu.container_module} {
  gpu.module @if_and_swizzle {
    gpu.func @k(%bt: !llvm.ptr<1>, %seq: i32, %flag: i1) kernel {
      // expected-remark@+1 {{'max_blocks_per_seq' hoisted in kernel @if_and_swizzle::@k: runtime argument 3}}
      %w = spec.param "max_blocks_per_seq" = 37 : i32
      %z16 = arith.constant 0 : i16
      %z = arith.constant 0 : i32
      %c3 = arith.constant 3 : i32
      %c4 = arith.constant 4 : i32
      %mask = arith.constant 896 : i32
      %max = arith.constant 4294967295 : i64
      %flags = arith.constant 159744 : i32
      %rsrc = rocdl.make.buffer.rsrc %bt, %z16, %max, %flags : !llvm.ptr<1> to !llvm.ptr<8>
      %u = llvm.mlir.undef : !llvm.struct<(ptr<8>, i32)>
      %f0 = llvm.insertvalue %rsrc, %u[0] : !llvm.struct<(ptr<8>, i32)>
      %elems = arith.muli %seq, %w : i32
      %bytes = arith.muli %elems, %c4 : i32
      %m = arith.andi %bytes, %mask : i32
      %s = arith.shrui %m, %c3 : i32
      %swz = arith.xori %bytes, %s : i32
      %row = llvm.insertvalue %swz, %f0[1] : !llvm.struct<(ptr<8>, i32)>
      %first = llvm.insertvalue %z, %f0[1] : !llvm.struct<(ptr<8>, i32)>
      %pick = scf.if %flag -> (!llvm.struct<(ptr<8>, i32)>) {
        scf.yield %row : !llvm.struct<(ptr<8>, i32)>
      } else {
        scf.yield %first : !llvm.struct<(ptr<8>, i32)>
      }
      %pr = llvm.extractvalue %pick[0] : !llvm.struct<(ptr<8>, i32)>
      %null = llvm.mlir.zero : !llvm.ptr<8>
      %is_null = llvm.icmp "eq" %pr, %null : !llvm.ptr<8>
      %po = llvm.extractvalue %pick[1] : !llvm.struct<(ptr<8>, i32)>
      %page = rocdl.raw.ptr.buffer.load %pr, %po, %z, %z : i32
      gpu.return
    }
  }
}

// -----

// The offset field compared with the row's end (a loop over the row by
// pointer comparison): kept, with the note at the comparison.

// CHECK-LABEL: gpu.module @offset_compared
// CHECK: spec.record = #spec.record<hoisted = []
module attributes {gpu.container_module} {
  gpu.module @offset_compared {
    gpu.func @k(%bt: !llvm.ptr<1>, %seq: i32, %o_cur: i32) kernel {
      // expected-remark@+1 {{'max_blocks_per_seq' kept specialized in kernel @offset_compared::@k: comparison}}
      %w = spec.param "max_blocks_per_seq" = 37 : i32
      %z16 = arith.constant 0 : i16
      %z = arith.constant 0 : i32
      %c4 = arith.constant 4 : i32
      %max = arith.constant 4294967295 : i64
      %flags = arith.constant 159744 : i32
      %rsrc = rocdl.make.buffer.rsrc %bt, %z16, %max, %flags : !llvm.ptr<1> to !llvm.ptr<8>
      %u = llvm.mlir.undef : !llvm.struct<(ptr<8>, i32)>
      %f0 = llvm.insertvalue %rsrc, %u[0] : !llvm.struct<(ptr<8>, i32)>
      %seq1 = arith.addi %seq, %c4 : i32
      %end_elems = arith.muli %seq1, %w : i32
      %end_bytes = arith.muli %end_elems, %c4 : i32
      %end = llvm.insertvalue %end_bytes, %f0[1] : !llvm.struct<(ptr<8>, i32)>
      %end_o = llvm.extractvalue %end[1] : !llvm.struct<(ptr<8>, i32)>
      // expected-note@+1 {{needs 'max_blocks_per_seq' as a constant here}}
      %in_row = arith.cmpi ult, %o_cur, %end_o : i32
      scf.if %in_row {
        %page = rocdl.raw.ptr.buffer.load %rsrc, %o_cur, %z, %z : i32
      }
      gpu.return
    }
  }
}

// -----

// FlyDSL's older buffer_ops form: the resource used directly, sized with the
// table's exact bytes (num_seqs * width * 4). The hardware checks every
// access against num_records: kept, noted at the access that reads the
// bound. The same resource with a byte size the launcher passes: hoisted.

// CHECK-LABEL: gpu.module @direct_resource
// CHECK: gpu.func @exact_bound
// CHECK-SAME: spec.record = #spec.record<hoisted = []
// CHECK: gpu.func @argument_bound(%{{.*}}: !llvm.ptr<1>, %{{.*}}: i32, %{{.*}}: i64, %{{.*}}: i32) kernel
// CHECK-SAME: spec.record = #spec.record<hoisted = [#spec.hoisted<name = "max_blocks_per_seq", type = i32, argument = 3>]
module attributes {gpu.container_module} {
  gpu.module @direct_resource {
    gpu.func @exact_bound(%bt: !llvm.ptr<1>, %seq: i32, %num_seqs: i32) kernel {
      // expected-remark@+1 {{'max_blocks_per_seq' kept specialized in kernel @direct_resource::@exact_bound: a view size or buffer bound that an access reads back}}
      %w = spec.param "max_blocks_per_seq" = 37 : i32
      %z16 = arith.constant 0 : i16
      %z = arith.constant 0 : i32
      %c4 = arith.constant 4 : i32
      %flags = arith.constant 159744 : i32
      %elems = arith.muli %num_seqs, %w : i32
      %bytes = arith.muli %elems, %c4 : i32
      %records = arith.extui %bytes : i32 to i64
      %rsrc = rocdl.make.buffer.rsrc %bt, %z16, %records, %flags : !llvm.ptr<1> to !llvm.ptr<8>
      %row = arith.muli %seq, %w : i32
      %off = arith.muli %row, %c4 : i32
      // expected-note@+1 {{needs 'max_blocks_per_seq' as a constant here}}
      %page = rocdl.raw.ptr.buffer.load %rsrc, %off, %z, %z : i32
      gpu.return
    }
    gpu.func @argument_bound(%bt: !llvm.ptr<1>, %seq: i32, %bt_bytes: i64) kernel {
      // expected-remark@+1 {{'max_blocks_per_seq' hoisted in kernel @direct_resource::@argument_bound: runtime argument 3}}
      %w = spec.param "max_blocks_per_seq" = 37 : i32
      %z16 = arith.constant 0 : i16
      %z = arith.constant 0 : i32
      %c4 = arith.constant 4 : i32
      %flags = arith.constant 159744 : i32
      %rsrc = rocdl.make.buffer.rsrc %bt, %z16, %bt_bytes, %flags : !llvm.ptr<1> to !llvm.ptr<8>
      %row = arith.muli %seq, %w : i32
      %off = arith.muli %row, %c4 : i32
      %page = rocdl.raw.ptr.buffer.load %rsrc, %off, %z, %z : i32
      gpu.return
    }
  }
}

// -----

// A swizzle whose shift amount comes from the width: kept (shift amount).

// CHECK-LABEL: gpu.module @shift_by_width
// CHECK: spec.record = #spec.record<hoisted = []
module attributes {gpu.container_module} {
  gpu.module @shift_by_width {
    gpu.func @k(%bt: !llvm.ptr<1>, %o: i32) kernel {
      // expected-remark@+1 {{'max_blocks_per_seq' kept specialized in kernel @shift_by_width::@k: shift amount}}
      %w = spec.param "max_blocks_per_seq" = 3 : i32
      %z16 = arith.constant 0 : i16
      %z = arith.constant 0 : i32
      %mask = arith.constant 896 : i32
      %max = arith.constant 4294967295 : i64
      %flags = arith.constant 159744 : i32
      %rsrc = rocdl.make.buffer.rsrc %bt, %z16, %max, %flags : !llvm.ptr<1> to !llvm.ptr<8>
      %m = arith.andi %o, %mask : i32
      // expected-note@+1 {{needs 'max_blocks_per_seq' as a constant here}}
      %s = arith.shrui %m, %w : i32
      %swz = arith.xori %o, %s : i32
      %page = rocdl.raw.ptr.buffer.load %rsrc, %swz, %z, %z : i32
      gpu.return
    }
  }
}
