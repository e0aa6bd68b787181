// An offset tail on a buffer resource, in the shape FlyDSL's
// convert-fly-to-rocdl leaves it: the fat pointer's runtime offset and the
// static one stay two separate adds (FlyDSL tests/mlir/Conversion/
// nested_add_offset.mlir, buffer case), so the static part can become the
// MUBUF instruction's 12-bit immediate offset (buffer_load_dword ...
// offset:256). Here it is a specialization parameter, `tail` (f32
// elements, scaled to bytes at the access): out[g] = in[x + g + tail] +
// in[x + g + 2 tail]. The tail literal is on the `spec.param "tail"` line
// (bench/quality.py --param tail).
module attributes {gpu.container_module} {
  gpu.module @kernels [#rocdl.target<chip = "gfx942">] {
    gpu.func @buffer_tail_0(%in: !llvm.ptr<1>, %out: !llvm.ptr<1>, %x: i32) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %tail = spec.param "tail" = 64 : i32
      %c0_i16 = arith.constant 0 : i16
      %c0_i32 = arith.constant 0 : i32
      %c4_i32 = arith.constant 4 : i32
      %c64_i32 = arith.constant 64 : i32
      %max_records = arith.constant 4294967295 : i64
      %flags = arith.constant 159744 : i32
      %tid_idx = gpu.thread_id x
      %bid_idx = gpu.block_id x
      %tid = arith.index_cast %tid_idx : index to i32
      %bid = arith.index_cast %bid_idx : index to i32
      %g0 = arith.muli %bid, %c64_i32 : i32
      %g = arith.addi %g0, %tid : i32
      %in_rsrc = rocdl.make.buffer.rsrc %in, %c0_i16, %max_records, %flags : !llvm.ptr<1> to !llvm.ptr<8>
      %out_rsrc = rocdl.make.buffer.rsrc %out, %c0_i16, %max_records, %flags : !llvm.ptr<1> to !llvm.ptr<8>
      %o = arith.addi %x, %g : i32
      %oa = arith.addi %o, %tail : i32
      %ob = arith.addi %oa, %tail : i32
      %ba = arith.muli %oa, %c4_i32 : i32
      %bb = arith.muli %ob, %c4_i32 : i32
      %a = rocdl.raw.ptr.buffer.load %in_rsrc, %ba, %c0_i32, %c0_i32 : i32
      %b = rocdl.raw.ptr.buffer.load %in_rsrc, %bb, %c0_i32, %c0_i32 : i32
      %af = llvm.bitcast %a : i32 to f32
      %bf = llvm.bitcast %b : i32 to f32
      %s = arith.addf %af, %bf : f32
      %si = llvm.bitcast %s : f32 to i32
      %bo = arith.muli %g, %c4_i32 : i32
      rocdl.raw.ptr.buffer.store %si, %out_rsrc, %bo, %c0_i32, %c0_i32 : i32
      gpu.return
    }
  }
  func.func @buffer_tail(%in: !llvm.ptr<1>, %out: !llvm.ptr<1>, %x: i32, %groups: index, %stream: !gpu.async.token) attributes {llvm.emit_c_interface} {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func [%stream] @kernels::@buffer_tail_0 blocks in (%groups, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%in : !llvm.ptr<1>, %out : !llvm.ptr<1>, %x : i32)
    return
  }
}
