// RUN: fly-opt %s -split-input-file -verify-diagnostics --hoist-stride-specialization \
// RUN:   --mlir-print-op-on-diagnostic=false -o /dev/null

// The block-table row staged into LDS with the LDS-DMA forms a FlyDSL-style
// lowering emits for async copies: the width is only the row's offset, an
// address operand of the copy, so it is hoisted.
//
// Both forms are classified: the resource, the LDS pointer and the offsets
// are addresses.

module attributes {gpu.container_module} {
  gpu.module @buffer_to_lds {
    llvm.mlir.global internal @row() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<256 x i8>
    gpu.func @k(%bt: !llvm.ptr<1>, %seq: i32, %lane: i32) kernel {
      // expected-remark@+1 {{'max_blocks_per_seq' hoisted in kernel @buffer_to_lds::@k: runtime argument 3}}
      %w = spec.param "max_blocks_per_seq" = 37 : i32
      %z16 = arith.constant 0 : i16
      %z = arith.constant 0 : i32
      %c4 = arith.constant 4 : i32
      %max = arith.constant 4294967295 : i64
      %flags = arith.constant 159744 : i32
      %rsrc = rocdl.make.buffer.rsrc %bt, %z16, %max, %flags : !llvm.ptr<1> to !llvm.ptr<8>
      %u = llvm.mlir.undef : !llvm.struct<(ptr<8>, i32)>
      %f0 = llvm.insertvalue %rsrc, %u[0] : !llvm.struct<(ptr<8>, i32)>
      %elems = arith.muli %seq, %w : i32
      %bytes = arith.muli %elems, %c4 : i32
      %row = llvm.insertvalue %bytes, %f0[1] : !llvm.struct<(ptr<8>, i32)>
      %lds = llvm.mlir.addressof @row : !llvm.ptr<3>
      %r = llvm.extractvalue %row[0] : !llvm.struct<(ptr<8>, i32)>
      %o = llvm.extractvalue %row[1] : !llvm.struct<(ptr<8>, i32)>
      %lane_bytes = arith.muli %lane, %c4 : i32
      %voff = arith.addi %o, %lane_bytes : i32
      rocdl.raw.ptr.buffer.load.lds %r, %lds, %c4, %voff, %z, %z, %z
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @global_to_lds {
    llvm.mlir.global internal @row() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<256 x i8>
    gpu.func @k(%bt: !llvm.ptr<1>, %seq: i32, %lane: i32) kernel {
      // expected-remark@+1 {{'max_blocks_per_seq' hoisted in kernel @global_to_lds::@k: runtime argument 3}}
      %w = spec.param "max_blocks_per_seq" = 37 : i32
      %elems = arith.muli %seq, %w : i32
      %entry = arith.addi %elems, %lane : i32
      %entry64 = arith.extui %entry : i32 to i64
      %src = llvm.getelementptr %bt[%entry64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
      %lds = llvm.mlir.addressof @row : !llvm.ptr<3>
      rocdl.global.load.lds %src, %lds, 4, 0, 0
      gpu.return
    }
  }
}
