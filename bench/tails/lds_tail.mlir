// An offset tail in LDS, in the shape FlyDSL's convert-fly-to-rocdl leaves
// it: add_offset(add_offset(smem, runtime), static) stays two GEPs on
// purpose (FlyDSL tests/mlir/Conversion/nested_add_offset.mlir), so that
// the static part becomes the immediate offset of the LDS instruction
// (ds_read_u16 ... offset:128). Here the static part is a specialization
// parameter, `tail` (elements of bf16), used twice: out[g] = tile[x + tid +
// tail] + tile[x + tid + 2 tail] after the workgroup wrote tile[tid] = in[g].
// Specialized it folds into the instructions' offsets; hoisted it is a
// runtime add per access. The tail literal is on the `spec.param "tail"`
// line (bench/quality.py --param tail).
module attributes {gpu.container_module} {
  gpu.module @kernels [#rocdl.target<chip = "gfx942">] {
    llvm.mlir.global external @__shared_alloc_0() {addr_space = 3 : i32, alignment = 128 : i64, dso_local} : !llvm.array<4096 x i8>
    gpu.func @lds_tail_0(%in: !llvm.ptr<1>, %out: !llvm.ptr<1>, %x: i32) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %tail = spec.param "tail" = 64 : i32
      %tid_idx = gpu.thread_id x
      %bid_idx = gpu.block_id x
      %tid = arith.index_cast %tid_idx : index to i32
      %bid = arith.index_cast %bid_idx : index to i32
      %c64_i32 = arith.constant 64 : i32
      %g0 = arith.muli %bid, %c64_i32 : i32
      %g = arith.addi %g0, %tid : i32
      %src = llvm.getelementptr %in[%g] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, bf16
      %v = llvm.load %src {alignment = 2 : i64} : !llvm.ptr<1> -> bf16
      %smem = llvm.mlir.addressof @__shared_alloc_0 : !llvm.ptr<3>
      %w = llvm.getelementptr %smem[%tid] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, bf16
      llvm.store %v, %w {alignment = 2 : i64} : bf16, !llvm.ptr<3>
      gpu.barrier
      %d = arith.addi %x, %tid : i32
      %base = llvm.getelementptr %smem[%d] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, bf16
      %pa = llvm.getelementptr %base[%tail] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, bf16
      %pb = llvm.getelementptr %pa[%tail] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, bf16
      %a = llvm.load %pa {alignment = 2 : i64} : !llvm.ptr<3> -> bf16
      %b = llvm.load %pb {alignment = 2 : i64} : !llvm.ptr<3> -> bf16
      %s = arith.addf %a, %b : bf16
      %dst = llvm.getelementptr %out[%g] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, bf16
      llvm.store %s, %dst {alignment = 2 : i64} : bf16, !llvm.ptr<1>
      gpu.return
    }
  }
  func.func @lds_tail(%in: !llvm.ptr<1>, %out: !llvm.ptr<1>, %x: i32, %groups: index, %stream: !gpu.async.token) attributes {llvm.emit_c_interface} {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func [%stream] @kernels::@lds_tail_0 blocks in (%groups, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%in : !llvm.ptr<1>, %out : !llvm.ptr<1>, %x : i32)
    return
  }
}
