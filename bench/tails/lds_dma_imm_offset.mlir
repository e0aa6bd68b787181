// A specialization parameter in an operand that must be an immediate: the
// imm_offset of FlyDSL's LDS-DMA copy atom (CDNA3/CopyAtom.cpp,
// BufferCopyLDS: the atom state's imm_offset field, operand #5 of
// rocdl.raw.ptr.buffer.load.lds; LLVM's intrinsic takes it as an immarg).
// Specialized, it is the instruction's offset (buffer_load_dword ... offset:64
// lds); hoisted by the pass as it stands, the backend rejects the module:
// "immarg operand has non-immediate parameter", then "Failed creating the
// llvm::Module". The same holds for the size (#2) and aux (#6) operands.
module attributes {gpu.container_module} {
  gpu.module @kernels [#rocdl.target<chip = "gfx942">] {
    llvm.mlir.global external @__shared_alloc_0() {addr_space = 3 : i32, alignment = 1024 : i64, dso_local} : !llvm.array<4096 x i8>
    gpu.func @lds_dma_imm_0(%in: !llvm.ptr<1>, %x: i32) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %tail = spec.param "tail" = 64 : i32
      %c0_i16 = arith.constant 0 : i16
      %c0_i32 = arith.constant 0 : i32
      %c4_i32 = arith.constant 4 : i32
      %max_records = arith.constant 4294967295 : i64
      %flags = arith.constant 159744 : i32
      %rsrc = rocdl.make.buffer.rsrc %in, %c0_i16, %max_records, %flags : !llvm.ptr<1> to !llvm.ptr<8>
      %smem = llvm.mlir.addressof @__shared_alloc_0 : !llvm.ptr<3>
      %tid_idx = gpu.thread_id x
      %tid = arith.index_cast %tid_idx : index to i32
      %v = arith.muli %tid, %c4_i32 : i32
      rocdl.raw.ptr.buffer.load.lds %rsrc, %smem, %c4_i32, %v, %x, %tail, %c0_i32
      gpu.return
    }
  }
}
