// Paged FP4 prefill MQA logits in the IR shapes FlyDSL hands to the rest of
// its pipeline after `convert-fly-to-rocdl` and canonicalize (before
// `gpu.module(convert-scf-to-cf, cse, convert-gpu-to-rocdl)`): what a
// FlyDSL kernel of this function would be at the hoisting pass's slot. This
// is the gfx950 (CDNA4) text: the head dot products are the scaled-FP4
// matrix instruction rocdl.mfma.scale.f32.16x16x128.f8f6f4 on the raw FP4
// bytes and E8M0 scales (lane l: row l % 16, 32-value block l / 16), and K
// tiles move to LDS 16 bytes a lane (gfx950's 128-bit LDS-DMA). The gfx942
// text (paged_fp4_mqa_logits_flydsl_gfx942.mlir) widens to FP8 instead;
// FlyDSL picks its MMA atom per architecture while tracing, so a frontend
// produces one text per chip.
//
//   logits[t, j] = sum_h w[t, h] * relu(q[t, h, :] . k[row(t, j), :])   for j < kv_len[t]
//   row(t, j)    = block_table[tok_seq[t], j / 64] * 64 + j % 64
//
// Geometry: 256 threads (4 waves of 64) per workgroup, a persistent grid of
// min(num_tokens, CUs) workgroups striding over the tokens, 256 KV positions
// per tile (64 a wave), KV pages of 64 tokens, 64 heads, head_dim 128; FP4
// e2m1 Q and K (two values a byte, low nibble first), one E8M0 scale per 32
// values. Tensors, torch layouts: q [T, 64, 64] i8, q_scale [T, 64, 4] i8,
// kv [pages, 64, 64] i8, kv_scale [pages, 64, 4] i8, block_table
// [B, max_blocks_per_seq] i32, weights [T, 64] bf16, tok_seq [T] i32,
// kv_len [T] i32, logits [T, S] f32.
//
// The algorithm is aiter's paged MQA logits (aiter/ops/triton/_triton_kernels/
// pa_mqa_logits.py, the CDNA path of its Gluon kernel): all heads of a token
// in one workgroup, Q and the weights loaded once per token into registers,
// a software-pipelined KV loop whose block-table entries run ahead of the K
// loads, clamped to the last live column as aiter clamps them, each lane
// computing its own block-table index as aiter does,
// seq * max_blocks_per_seq + (kb + tid) / page_size, and the head sum
// finished across lanes (here with ds_bpermute). One difference: aiter's
// CDNA path loads K tiles straight into registers; here they go through LDS
// by LDS-DMA in two stages (tile i computes from one stage while tile i + 1
// lands in the other), as FlyDSL's kernels stage tiles, which gives the
// text FlyDSL's LDS, swizzle and copy-atom shapes.
//
// Shapes, and the FlyDSL source each follows (ROCm/FlyDSL; pipeline of
// python/flydsl/compiler/backends/rocm.py, up to convert-fly-to-rocdl and
// the canonicalize after it):
//
// | shape here                                          | FlyDSL source                                      |
// |-----------------------------------------------------|----------------------------------------------------|
// | gpu.module @kernels [#rocdl.target<chip = ...>]     | jit_function.py (create_gpu_module "kernels"), backends/rocm.py gpu_module_targets |
// | kernel name <fn>_0, known_block_size only           | kernel_function.py (unique_kernel_name, create_gpu_func) |
// | each tensor: !llvm.ptr<1> + packed layout struct,   | Transforms/RewriteFuncSignature.cpp (1:N carrier), jit_argument.py |
// |   shapes i32, non-unit strides i64 (dynamic layout) |   (mark_layout_dynamic: torch tensors' default)    |
// | host: llvm.emit_c_interface, trailing              | jit_function.py (_ensure_stream_arg, emit_c_interface), |
// |   !gpu.async.token, gpu.launch_func [%stream]       |   kernel_function.py (async_dependencies = [stream]) |
// | host packs layouts: undef + insertvalue             | RewriteFuncSignature.cpp (RewriteLaunchFuncOperands) |
// | layout leaves: llvm.extractvalue %layout[i, j]      | RewriteFuncSignature.cpp (source materialization)  |
// | crd2idx in i64 (i32 coords extsi'd), trunci to i32  | Utils/IntUtils.cpp (widest leaf), BufferFatPtr.h addOffset |
// | make_buffer_tensor: rocdl.make.buffer.rsrc base,    | python/flydsl/expr/rocdl/universal.py (max_size: 0xFFFFFFFF, |
// |   0 : i16, 4294967295 : i64, 159744 : i32           |   flags (7 << 12) | (4 << 15)), FlyToROCDL.cpp MakePtrOpLowering |
// | fat pointer {ptr<8>, i32}: offset in elements,      | Utils/BufferFatPtr.h (pack, addOffset, byteOffset); |
// |   scaled to bytes at each access (muli 2, 4); the   |   canonicalize folds extractvalue(insertvalue)     |
// |   undef/insertvalue/extractvalue pairs folded       |                                                    |
// | buffer copy atom: rocdl.raw.ptr.buffer.load of iN   | FlyROCDL/CDNA3/CopyAtom.cpp (BufferCopy emitAtomCallSSA) |
// |   (i8, i16, i32, i128) then llvm.bitcast; stores    |                                                    |
// |   bitcast to iN first                               |                                                    |
// | copy-atom state {soffset, imm_offset}: built with   | CDNA3/CopyAtom.cpp (getDefaultState, setAtomState), |
// |   undef + insertvalue, folded by canonicalize; what |   FlyToROCDL.cpp (AtomSetValueOpLowering)          |
// |   is left: soffset the page base (SGPR), imm_offset |                                                    |
// |   the constant operand 0 (the instruction immediate)|                                                    |
// | LDS-DMA: rocdl.raw.ptr.buffer.load.lds rsrc, lds,   | CDNA3/CopyAtom.cpp (BufferCopyLDS: 32, or 128 on gfx950) |
// |   size, voffset, soffset, imm_offset, aux           |                                                    |
// | LDS: llvm.mlir.global external @__shared_alloc_N    | FlyToROCDL.cpp (createLDSGlobal: external, dso_local) |
// |   dso_local, reached by llvm.mlir.addressof + GEP   |                                                    |
// | swizzled LDS read: ptrtoint -> i64, andi/shrui/xori | Utils/PointerUtils.cpp (applySwizzleOnPtr), FlyToROCDL.cpp PtrLoad |
// |   -> inttoptr on the final pointer (Swizzle<3,4,3>) |                                                    |
// | the DMA side's swizzle on i32 offsets (andi/shrui/  | Transforms/IntSwizzleSimplify.cpp (int swizzle)    |
// |   xori)                                             |                                                    |
// | plain scalar loads: llvm.getelementptr + llvm.load  | FlyToROCDL.cpp (AddOffset GEP, PtrLoadOpLowering)  |
// | cross-lane sums: rocdl.ds_bpermute on i32 bits      | kernels/attention/flash_attn_utils.py (REDUCE_MODE ds_bpermute) |
// | no device functions: helpers traced inline          | kernel_function.py (Python helpers run at trace time) |
//
// Specialization parameters (spec.param): `max_blocks_per_seq` is the block
// table's row stride. The frontend traces it as a spec.param and builds the
// table's layout, (num_seqs, W):(W, 1), in the kernel with that value as a
// dynamic stride (an int tuple made from the SSA value; a static stride would
// be folded into constants by fly-layout-lowering, and torch's default layout
// would bring it in as an i64 leaf of the argument's layout struct, so the
// table's argument carries its shape leaf only). It reaches only the table's
// element offset and is hoisted into a kernel argument. heads bounds the
// w[t] copy loop, head_dim the LDS-DMA loop, block_k steps the KV loop and,
// with page_size, divides: those are kept. The width literal
// appears once, on the `max_blocks_per_seq` line, so a script can substitute
// it (bench/widths.py rewrites that line's `= 128`).
//
// Lower with flyhoist-amdgpu-pipeline{chip=CHIP O=2}: FlyDSL's O=2 makes the
// attached target equal to the module's own, so the module keeps one target
// and gives one code object (the default O=3 adds a second target).

module attributes {gpu.container_module} {
  gpu.module @kernels [#rocdl.target<chip = "gfx950">] {
    // make_ptr(shared) of the K tiles (two stages of 256 rows x 64 bytes),
    // their E8M0 scales (two stages of 256 x 4 bytes) and w[t] as f32.
    llvm.mlir.global external @__shared_alloc_0() {addr_space = 3 : i32, alignment = 1024 : i64, dso_local} : !llvm.array<32768 x i8>
    llvm.mlir.global external @__shared_alloc_1() {addr_space = 3 : i32, alignment = 1024 : i64, dso_local} : !llvm.array<2048 x i8>
    llvm.mlir.global external @__shared_alloc_2() {addr_space = 3 : i32, alignment = 16 : i64, dso_local} : !llvm.array<256 x i8>

    gpu.func @paged_fp4_mqa_logits_flydsl_0(
        %q: !llvm.ptr<1>, %q_layout: !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>,
        %q_scale: !llvm.ptr<1>, %q_scale_layout: !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>,
        %kv: !llvm.ptr<1>, %kv_layout: !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>,
        %kv_scale: !llvm.ptr<1>, %kv_scale_layout: !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>,
        %block_table: !llvm.ptr<1>, %block_table_layout: !llvm.struct<packed (struct<packed (i32)>)>,
        %weights: !llvm.ptr<1>, %weights_layout: !llvm.struct<packed (struct<packed (i32, i32)>, struct<packed (i64)>)>,
        %tok_seq: !llvm.ptr<1>, %tok_seq_layout: !llvm.struct<packed (struct<packed (i32)>)>,
        %kv_len: !llvm.ptr<1>, %kv_len_layout: !llvm.struct<packed (struct<packed (i32)>)>,
        %logits: !llvm.ptr<1>, %logits_layout: !llvm.struct<packed (struct<packed (i32, i32)>, struct<packed (i64)>)>,
        %num_workgroups: i32)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %width = spec.param "max_blocks_per_seq" = 128 : i32
      %heads = spec.param "heads" = 64 : index
      %head_dim = spec.param "head_dim" = 128 : index
      %block_k = spec.param "block_k" = 256 : index
      %page_size = spec.param "page_size" = 64 : i32
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c64 = arith.constant 64 : index
      %c256 = arith.constant 256 : index
      %c0_i16 = arith.constant 0 : i16
      %c0_i32 = arith.constant 0 : i32
      %c1_i32 = arith.constant 1 : i32
      %c2_i32 = arith.constant 2 : i32
      %c3_i32 = arith.constant 3 : i32
      %c4_i32 = arith.constant 4 : i32
      %c6_i32 = arith.constant 6 : i32
      %c15_i32 = arith.constant 15 : i32
      %c16_i32 = arith.constant 16 : i32
      %c32_i32 = arith.constant 32 : i32
      %c63_i32 = arith.constant 63 : i32
      %c64_i32 = arith.constant 64 : i32
      %c256_i32 = arith.constant 256 : i32
      %c1024_i32 = arith.constant 1024 : i32
      %c4096_i32 = arith.constant 4096 : i32
      %c16384_i32 = arith.constant 16384 : i32
      %c896_i32 = arith.constant 896 : i32
      %c3_i64 = arith.constant 3 : i64
      %c896_i64 = arith.constant 896 : i64
      %zero = arith.constant 0.000000e+00 : f32
      %zero4 = arith.constant dense<0.000000e+00> : vector<4xf32>
      %max_records = arith.constant 4294967295 : i64
      %flags = arith.constant 159744 : i32

      // The dynamic leaves of the layouts (shapes i32, strides i64).
      %num_tokens = llvm.extractvalue %q_layout[0, 0] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
      %q_s0 = llvm.extractvalue %q_layout[1, 0] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
      %q_s1 = llvm.extractvalue %q_layout[1, 1] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
      %qs_s0 = llvm.extractvalue %q_scale_layout[1, 0] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
      %qs_s1 = llvm.extractvalue %q_scale_layout[1, 1] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
      %kv_s0 = llvm.extractvalue %kv_layout[1, 0] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
      %kv_s1 = llvm.extractvalue %kv_layout[1, 1] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
      %ks_s0 = llvm.extractvalue %kv_scale_layout[1, 0] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
      %ks_s1 = llvm.extractvalue %kv_scale_layout[1, 1] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
      %w_s0 = llvm.extractvalue %weights_layout[1, 0] : !llvm.struct<packed (struct<packed (i32, i32)>, struct<packed (i64)>)>
      %out_s0 = llvm.extractvalue %logits_layout[1, 0] : !llvm.struct<packed (struct<packed (i32, i32)>, struct<packed (i64)>)>

      %tid_idx = gpu.thread_id x
      %bid_idx = gpu.block_id x
      %grid_idx = arith.index_cast %num_workgroups : i32 to index
      %tid = arith.index_cast %tid_idx : index to i32
      %lane = arith.andi %tid, %c63_i32 : i32
      %wave_v = arith.shrui %tid, %c6_i32 : i32
      %wave = rocdl.readfirstlane %wave_v : i32
      %lane_row = arith.andi %lane, %c15_i32 : i32
      %lane_grp = arith.shrui %lane, %c4_i32 : i32
      %wave_pos = arith.muli %wave, %c64_i32 : i32

      // make_buffer_tensor: one buffer resource each (the fat pointers'
      // {resource, 0} packs fold away; offsets below are their element
      // offsets, scaled to bytes at each access).
      %q_rsrc = rocdl.make.buffer.rsrc %q, %c0_i16, %max_records, %flags : !llvm.ptr<1> to !llvm.ptr<8>
      %qs_rsrc = rocdl.make.buffer.rsrc %q_scale, %c0_i16, %max_records, %flags : !llvm.ptr<1> to !llvm.ptr<8>
      %kv_rsrc = rocdl.make.buffer.rsrc %kv, %c0_i16, %max_records, %flags : !llvm.ptr<1> to !llvm.ptr<8>
      %ks_rsrc = rocdl.make.buffer.rsrc %kv_scale, %c0_i16, %max_records, %flags : !llvm.ptr<1> to !llvm.ptr<8>
      %bt_rsrc = rocdl.make.buffer.rsrc %block_table, %c0_i16, %max_records, %flags : !llvm.ptr<1> to !llvm.ptr<8>
      %w_rsrc = rocdl.make.buffer.rsrc %weights, %c0_i16, %max_records, %flags : !llvm.ptr<1> to !llvm.ptr<8>
      %out_rsrc = rocdl.make.buffer.rsrc %logits, %c0_i16, %max_records, %flags : !llvm.ptr<1> to !llvm.ptr<8>

      %k_lds = llvm.mlir.addressof @__shared_alloc_0 : !llvm.ptr<3>
      %ks_lds = llvm.mlir.addressof @__shared_alloc_1 : !llvm.ptr<3>
      %w_lds = llvm.mlir.addressof @__shared_alloc_2 : !llvm.ptr<3>
      %wave_k = arith.muli %wave, %c4096_i32 : i32
      %wave_ks = arith.muli %wave, %c256_i32 : i32
      %num_tokens_idx = arith.index_cast %num_tokens : i32 to index
      // The DMA loop covers the wave's 64 rows of head_dim / 2 bytes.
      %row_bytes_idx = arith.shrui %head_dim, %c1 : index
      %tile_bytes_idx = arith.muli %row_bytes_idx, %c64 : index
      %dma_step = arith.constant 1024 : index
      %lane_dma = arith.muli %lane, %c16_i32 : i32
      // The lane's KV scale row and its xor partners for ds_bpermute.
      %x16 = arith.xori %lane, %c16_i32 : i32
      %bp16 = arith.shli %x16, %c2_i32 : i32
      %x32 = arith.xori %lane, %c32_i32 : i32
      %bp32 = arith.shli %x32, %c2_i32 : i32

      // Persistent grid: workgroup b takes tokens b, b + grid, ...
      scf.for %t_idx = %bid_idx to %num_tokens_idx step %grid_idx {
        %t = arith.index_cast %t_idx : index to i32
        %t64 = arith.extsi %t : i32 to i64
        %t_off = arith.index_cast %t_idx : index to i64
        %seq_ptr = llvm.getelementptr %tok_seq[%t_off] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
        %seq = llvm.load %seq_ptr {alignment = 4 : i64} : !llvm.ptr<1> -> i32
        %len_ptr = llvm.getelementptr %kv_len[%t_off] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
        %len = llvm.load %len_ptr {alignment = 4 : i64} : !llvm.ptr<1> -> i32
        %len_idx = arith.index_cast %len : i32 to index

        // w[t] to LDS as f32, one head a thread (bf16: an i16 copy + bitcast).
        %w_row = arith.muli %t64, %w_s0 : i64
        scf.for %h_idx = %tid_idx to %heads step %c256 {
          %h = arith.index_cast %h_idx : index to i32
          %h64 = arith.extsi %h : i32 to i64
          %w_e = arith.addi %w_row, %h64 : i64
          %w_o = arith.trunci %w_e : i64 to i32
          %w_b = arith.muli %w_o, %c2_i32 : i32
          %w_raw = rocdl.raw.ptr.buffer.load %w_rsrc, %w_b, %c0_i32, %c0_i32 : i16
          %w_bf = llvm.bitcast %w_raw : i16 to bf16
          %w_f = arith.extf %w_bf : bf16 to f32
          %w_dst = llvm.getelementptr %w_lds[%h] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          llvm.store %w_f, %w_dst {alignment = 4 : i64} : f32, !llvm.ptr<3>
        }

        // q[t] in registers for the whole token: the MFMA A operands of the
        // four 16-head blocks (row lane % 16, K group lane / 16).
        %q_tok = arith.muli %t64, %q_s0 : i64
        %qs_tok = arith.muli %t64, %qs_s0 : i64
        %grp_bytes = arith.muli %lane_grp, %c16_i32 : i32
        %grp_bytes64 = arith.extsi %grp_bytes : i32 to i64
        %grp64 = arith.extsi %lane_grp : i32 to i64
        %qh0_c = arith.constant 0 : i32
        %qh0 = arith.addi %lane_row, %qh0_c : i32
        %qh0_64 = arith.extsi %qh0 : i32 to i64
        %qr0 = arith.muli %qh0_64, %q_s1 : i64
        %qo0_0 = arith.addi %q_tok, %qr0 : i64
        %qo0_1 = arith.addi %qo0_0, %grp_bytes64 : i64
        %qo0 = arith.trunci %qo0_1 : i64 to i32
        %qa0_raw = rocdl.raw.ptr.buffer.load %q_rsrc, %qo0, %c0_i32, %c0_i32 : i128
        %qa0 = llvm.bitcast %qa0_raw : i128 to vector<4xi32>
        %sr0 = arith.muli %qh0_64, %qs_s1 : i64
        %so0_0 = arith.addi %qs_tok, %sr0 : i64
        %so0_1 = arith.addi %so0_0, %grp64 : i64
        %so0 = arith.trunci %so0_1 : i64 to i32
        %sa0_8 = rocdl.raw.ptr.buffer.load %qs_rsrc, %so0, %c0_i32, %c0_i32 : i8
        %sa0 = arith.extui %sa0_8 : i8 to i32
        %qh1_c = arith.constant 16 : i32
        %qh1 = arith.addi %lane_row, %qh1_c : i32
        %qh1_64 = arith.extsi %qh1 : i32 to i64
        %qr1 = arith.muli %qh1_64, %q_s1 : i64
        %qo1_0 = arith.addi %q_tok, %qr1 : i64
        %qo1_1 = arith.addi %qo1_0, %grp_bytes64 : i64
        %qo1 = arith.trunci %qo1_1 : i64 to i32
        %qa1_raw = rocdl.raw.ptr.buffer.load %q_rsrc, %qo1, %c0_i32, %c0_i32 : i128
        %qa1 = llvm.bitcast %qa1_raw : i128 to vector<4xi32>
        %sr1 = arith.muli %qh1_64, %qs_s1 : i64
        %so1_0 = arith.addi %qs_tok, %sr1 : i64
        %so1_1 = arith.addi %so1_0, %grp64 : i64
        %so1 = arith.trunci %so1_1 : i64 to i32
        %sa1_8 = rocdl.raw.ptr.buffer.load %qs_rsrc, %so1, %c0_i32, %c0_i32 : i8
        %sa1 = arith.extui %sa1_8 : i8 to i32
        %qh2_c = arith.constant 32 : i32
        %qh2 = arith.addi %lane_row, %qh2_c : i32
        %qh2_64 = arith.extsi %qh2 : i32 to i64
        %qr2 = arith.muli %qh2_64, %q_s1 : i64
        %qo2_0 = arith.addi %q_tok, %qr2 : i64
        %qo2_1 = arith.addi %qo2_0, %grp_bytes64 : i64
        %qo2 = arith.trunci %qo2_1 : i64 to i32
        %qa2_raw = rocdl.raw.ptr.buffer.load %q_rsrc, %qo2, %c0_i32, %c0_i32 : i128
        %qa2 = llvm.bitcast %qa2_raw : i128 to vector<4xi32>
        %sr2 = arith.muli %qh2_64, %qs_s1 : i64
        %so2_0 = arith.addi %qs_tok, %sr2 : i64
        %so2_1 = arith.addi %so2_0, %grp64 : i64
        %so2 = arith.trunci %so2_1 : i64 to i32
        %sa2_8 = rocdl.raw.ptr.buffer.load %qs_rsrc, %so2, %c0_i32, %c0_i32 : i8
        %sa2 = arith.extui %sa2_8 : i8 to i32
        %qh3_c = arith.constant 48 : i32
        %qh3 = arith.addi %lane_row, %qh3_c : i32
        %qh3_64 = arith.extsi %qh3 : i32 to i64
        %qr3 = arith.muli %qh3_64, %q_s1 : i64
        %qo3_0 = arith.addi %q_tok, %qr3 : i64
        %qo3_1 = arith.addi %qo3_0, %grp_bytes64 : i64
        %qo3 = arith.trunci %qo3_1 : i64 to i32
        %qa3_raw = rocdl.raw.ptr.buffer.load %q_rsrc, %qo3, %c0_i32, %c0_i32 : i128
        %qa3 = llvm.bitcast %qa3_raw : i128 to vector<4xi32>
        %sr3 = arith.muli %qh3_64, %qs_s1 : i64
        %so3_0 = arith.addi %qs_tok, %sr3 : i64
        %so3_1 = arith.addi %so3_0, %grp64 : i64
        %so3 = arith.trunci %so3_1 : i64 to i32
        %sa3_8 = rocdl.raw.ptr.buffer.load %qs_rsrc, %so3, %c0_i32, %c0_i32 : i8
        %sa3 = arith.extui %sa3_8 : i8 to i32

        %q_kv = arith.cmpi sgt, %len, %c0_i32 : i32
        scf.if %q_kv {
          // The block-table row of the sequence and its last live column.
          %bt_row = arith.muli %seq, %width : i32
          %len_m1 = arith.subi %len, %c1_i32 : i32
          %last_col = arith.divui %len_m1, %page_size : i32
          %block_k_i32 = arith.index_cast %block_k : index to i32
          %two_tiles = arith.muli %block_k_i32, %c2_i32 : i32
          %e0_pos = arith.addi %c0_i32, %tid : i32
          %e0_col0 = arith.divui %e0_pos, %page_size : i32
          %e0_col = arith.minui %e0_col0, %last_col : i32
          %e0_idx = arith.addi %bt_row, %e0_col : i32
          %e0_b = arith.muli %e0_idx, %c4_i32 : i32
          %e0 = rocdl.raw.ptr.buffer.load %bt_rsrc, %e0_b, %c0_i32, %c0_i32 : i32
          %e1_pos = arith.addi %block_k_i32, %tid : i32
          %e1_col0 = arith.divui %e1_pos, %page_size : i32
          %e1_col = arith.minui %e1_col0, %last_col : i32
          %e1_idx = arith.addi %bt_row, %e1_col : i32
          %e1_b = arith.muli %e1_idx, %c4_i32 : i32
          %e1 = rocdl.raw.ptr.buffer.load %bt_rsrc, %e1_b, %c0_i32, %c0_i32 : i32
          // Stage 0: tile 0 into LDS stage 0.
          %d0_page = rocdl.readfirstlane %e0 : i32
          %d0_page64 = arith.extsi %d0_page : i32 to i64
          %d0_pb = arith.muli %d0_page64, %kv_s0 : i64
          %d0_soff = arith.trunci %d0_pb : i64 to i32
          %d0_first = arith.addi %c0_i32, %wave_pos : i32
          %d0_k_stage = arith.muli %c0_i32, %c16384_i32 : i32
          %d0_k_base = arith.addi %d0_k_stage, %wave_k : i32
          scf.for %d0_d_idx = %c0 to %tile_bytes_idx step %dma_step {
            %d0_d = arith.index_cast %d0_d_idx : index to i32
            %d0_dl = arith.addi %d0_d, %lane_dma : i32
            // The lane whose bytes land at d fetches logical byte swizzle(d).
            %d0_om = arith.andi %d0_dl, %c896_i32 : i32
            %d0_os = arith.shrui %d0_om, %c3_i32 : i32
            %d0_o = arith.xori %d0_dl, %d0_os : i32
            %d0_p = arith.shrui %d0_o, %c6_i32 : i32
            %d0_c0 = arith.andi %d0_o, %c63_i32 : i32
            %d0_pos = arith.addi %d0_first, %d0_p : i32
            %d0_slot = arith.remui %d0_pos, %page_size : i32
            %d0_slot64 = arith.extsi %d0_slot : i32 to i64
            %d0_row = arith.muli %d0_slot64, %kv_s1 : i64
            %d0_col64 = arith.extsi %d0_c0 : i32 to i64
            %d0_v64 = arith.addi %d0_row, %d0_col64 : i64
            %d0_voff = arith.trunci %d0_v64 : i64 to i32
            %d0_dst_o = arith.addi %d0_k_base, %d0_d : i32
            %d0_dst = llvm.getelementptr %k_lds[%d0_dst_o] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
            rocdl.raw.ptr.buffer.load.lds %kv_rsrc, %d0_dst, %c16_i32, %d0_voff, %d0_soff, %c0_i32, %c0_i32
          }
          // The rows' E8M0 scales: lane l moves row l's four bytes.
          %d0_spb = arith.muli %d0_page64, %ks_s0 : i64
          %d0_ssoff = arith.trunci %d0_spb : i64 to i32
          %d0_spos = arith.addi %d0_first, %lane : i32
          %d0_sslot = arith.remui %d0_spos, %page_size : i32
          %d0_sslot64 = arith.extsi %d0_sslot : i32 to i64
          %d0_srow = arith.muli %d0_sslot64, %ks_s1 : i64
          %d0_svoff = arith.trunci %d0_srow : i64 to i32
          %d0_s_stage = arith.muli %c0_i32, %c1024_i32 : i32
          %d0_s_base = arith.addi %d0_s_stage, %wave_ks : i32
          %d0_sdst = llvm.getelementptr %ks_lds[%d0_s_base] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          rocdl.raw.ptr.buffer.load.lds %ks_rsrc, %d0_sdst, %c4_i32, %d0_svoff, %d0_ssoff, %c0_i32, %c0_i32
          gpu.barrier
          // w[t] in registers: rows 16 m + 4 (lane / 16) + i of this lane.
          %w_grp = arith.muli %lane_grp, %c4_i32 : i32
          %wr0_c = arith.constant 0 : i32
          %wr0 = arith.addi %w_grp, %wr0_c : i32
          %wp0 = llvm.getelementptr %w_lds[%wr0] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          %w4_0 = llvm.load %wp0 {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
          %wr1_c = arith.constant 16 : i32
          %wr1 = arith.addi %w_grp, %wr1_c : i32
          %wp1 = llvm.getelementptr %w_lds[%wr1] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          %w4_1 = llvm.load %wp1 {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
          %wr2_c = arith.constant 32 : i32
          %wr2 = arith.addi %w_grp, %wr2_c : i32
          %wp2 = llvm.getelementptr %w_lds[%wr2] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          %w4_2 = llvm.load %wp2 {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
          %wr3_c = arith.constant 48 : i32
          %wr3 = arith.addi %w_grp, %wr3_c : i32
          %wp3 = llvm.getelementptr %w_lds[%wr3] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          %w4_3 = llvm.load %wp3 {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
          %out_row = arith.muli %t64, %out_s0 : i64

          // The software-pipelined KV loop: tile i computes from LDS stage
          // i % 2 while tile i + 1 lands in the other stage; the block-table
          // entries run one tile further ahead.
          %kv_end:2 = scf.for %kb = %c0 to %len_idx step %block_k
              iter_args(%next_entry = %e1, %stage = %c0_i32) -> (i32, i32) {
            %kb32 = arith.index_cast %kb : index to i32
            // vmcnt(0): the stage's LDS-DMA writes are done (expcnt 7, lgkmcnt 15).
            rocdl.s.waitcnt 3952
            gpu.barrier
            %other = arith.xori %stage, %c1_i32 : i32
            %kb_next = arith.addi %kb32, %block_k_i32 : i32
            %has_next = arith.cmpi slt, %kb_next, %len : i32
            scf.if %has_next {
              %dn_page = rocdl.readfirstlane %next_entry : i32
              %dn_page64 = arith.extsi %dn_page : i32 to i64
              %dn_pb = arith.muli %dn_page64, %kv_s0 : i64
              %dn_soff = arith.trunci %dn_pb : i64 to i32
              %dn_first = arith.addi %kb_next, %wave_pos : i32
              %dn_k_stage = arith.muli %other, %c16384_i32 : i32
              %dn_k_base = arith.addi %dn_k_stage, %wave_k : i32
              scf.for %dn_d_idx = %c0 to %tile_bytes_idx step %dma_step {
                %dn_d = arith.index_cast %dn_d_idx : index to i32
                %dn_dl = arith.addi %dn_d, %lane_dma : i32
                // The lane whose bytes land at d fetches logical byte swizzle(d).
                %dn_om = arith.andi %dn_dl, %c896_i32 : i32
                %dn_os = arith.shrui %dn_om, %c3_i32 : i32
                %dn_o = arith.xori %dn_dl, %dn_os : i32
                %dn_p = arith.shrui %dn_o, %c6_i32 : i32
                %dn_c0 = arith.andi %dn_o, %c63_i32 : i32
                %dn_pos = arith.addi %dn_first, %dn_p : i32
                %dn_slot = arith.remui %dn_pos, %page_size : i32
                %dn_slot64 = arith.extsi %dn_slot : i32 to i64
                %dn_row = arith.muli %dn_slot64, %kv_s1 : i64
                %dn_col64 = arith.extsi %dn_c0 : i32 to i64
                %dn_v64 = arith.addi %dn_row, %dn_col64 : i64
                %dn_voff = arith.trunci %dn_v64 : i64 to i32
                %dn_dst_o = arith.addi %dn_k_base, %dn_d : i32
                %dn_dst = llvm.getelementptr %k_lds[%dn_dst_o] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
                rocdl.raw.ptr.buffer.load.lds %kv_rsrc, %dn_dst, %c16_i32, %dn_voff, %dn_soff, %c0_i32, %c0_i32
              }
              // The rows' E8M0 scales: lane l moves row l's four bytes.
              %dn_spb = arith.muli %dn_page64, %ks_s0 : i64
              %dn_ssoff = arith.trunci %dn_spb : i64 to i32
              %dn_spos = arith.addi %dn_first, %lane : i32
              %dn_sslot = arith.remui %dn_spos, %page_size : i32
              %dn_sslot64 = arith.extsi %dn_sslot : i32 to i64
              %dn_srow = arith.muli %dn_sslot64, %ks_s1 : i64
              %dn_svoff = arith.trunci %dn_srow : i64 to i32
              %dn_s_stage = arith.muli %other, %c1024_i32 : i32
              %dn_s_base = arith.addi %dn_s_stage, %wave_ks : i32
              %dn_sdst = llvm.getelementptr %ks_lds[%dn_s_base] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
              rocdl.raw.ptr.buffer.load.lds %ks_rsrc, %dn_sdst, %c4_i32, %dn_svoff, %dn_ssoff, %c0_i32, %c0_i32
            }
            %kb_after = arith.addi %kb32, %two_tiles : i32
            %ea_pos = arith.addi %kb_after, %tid : i32
            %ea_col0 = arith.divui %ea_pos, %page_size : i32
            %ea_col = arith.minui %ea_col0, %last_col : i32
            %ea_idx = arith.addi %bt_row, %ea_col : i32
            %ea_b = arith.muli %ea_idx, %c4_i32 : i32
            %ea = rocdl.raw.ptr.buffer.load %bt_rsrc, %ea_b, %c0_i32, %c0_i32 : i32

            %k_stage = arith.muli %stage, %c16384_i32 : i32
            %k_base = arith.addi %k_stage, %wave_k : i32
            %ks_stage = arith.muli %stage, %c1024_i32 : i32
            %ks_base = arith.addi %ks_stage, %wave_ks : i32
            %mine = scf.for %s = %c0 to %c4 step %c1 iter_args(%kept = %zero) -> (f32) {
              %s32 = arith.index_cast %s : index to i32
              %sub = arith.muli %s32, %c16_i32 : i32
              %p = arith.addi %sub, %lane_row : i32
              %p_bytes = arith.muli %p, %c64_i32 : i32
              %b_row = arith.addi %k_base, %p_bytes : i32
              %b_grp = arith.muli %lane_grp, %c16_i32 : i32
              %b_off = arith.addi %b_row, %b_grp : i32
              %b_ptr = llvm.getelementptr %k_lds[%b_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
              %b_swz_i = llvm.ptrtoint %b_ptr : !llvm.ptr<3> to i64
              %b_swz_m = arith.andi %b_swz_i, %c896_i64 : i64
              %b_swz_s = arith.shrui %b_swz_m, %c3_i64 : i64
              %b_swz_x = arith.xori %b_swz_i, %b_swz_s : i64
              %b_swz = llvm.inttoptr %b_swz_x : i64 to !llvm.ptr<3>
              %b = llvm.load %b_swz {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
              %p4 = arith.muli %p, %c4_i32 : i32
              %sb_row = arith.addi %ks_base, %p4 : i32
              %sb_off = arith.addi %sb_row, %lane_grp : i32
              %sb_ptr = llvm.getelementptr %ks_lds[%sb_off] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
              %sb8 = llvm.load %sb_ptr {alignment = 1 : i64} : !llvm.ptr<3> -> i8
              %sb = arith.extui %sb8 : i8 to i32
              %mm0 = rocdl.mfma.scale.f32.16x16x128.f8f6f4 %qa0, %b, %zero4, %c4_i32, %c4_i32, %c0_i32, %sa0, %c0_i32, %sb
                  : (vector<4xi32>, vector<4xi32>, vector<4xf32>, i32, i32, i32, i32, i32, i32) -> vector<4xf32>
              %relu0 = arith.maximumf %mm0, %zero4 : vector<4xf32>
              %wr0v = arith.mulf %w4_0, %relu0 : vector<4xf32>
              %ws0 = vector.reduction <add>, %wr0v : vector<4xf32> into f32
              %part0 = arith.addf %zero, %ws0 : f32
              %mm1 = rocdl.mfma.scale.f32.16x16x128.f8f6f4 %qa1, %b, %zero4, %c4_i32, %c4_i32, %c0_i32, %sa1, %c0_i32, %sb
                  : (vector<4xi32>, vector<4xi32>, vector<4xf32>, i32, i32, i32, i32, i32, i32) -> vector<4xf32>
              %relu1 = arith.maximumf %mm1, %zero4 : vector<4xf32>
              %wr1v = arith.mulf %w4_1, %relu1 : vector<4xf32>
              %ws1 = vector.reduction <add>, %wr1v : vector<4xf32> into f32
              %part1 = arith.addf %part0, %ws1 : f32
              %mm2 = rocdl.mfma.scale.f32.16x16x128.f8f6f4 %qa2, %b, %zero4, %c4_i32, %c4_i32, %c0_i32, %sa2, %c0_i32, %sb
                  : (vector<4xi32>, vector<4xi32>, vector<4xf32>, i32, i32, i32, i32, i32, i32) -> vector<4xf32>
              %relu2 = arith.maximumf %mm2, %zero4 : vector<4xf32>
              %wr2v = arith.mulf %w4_2, %relu2 : vector<4xf32>
              %ws2 = vector.reduction <add>, %wr2v : vector<4xf32> into f32
              %part2 = arith.addf %part1, %ws2 : f32
              %mm3 = rocdl.mfma.scale.f32.16x16x128.f8f6f4 %qa3, %b, %zero4, %c4_i32, %c4_i32, %c0_i32, %sa3, %c0_i32, %sb
                  : (vector<4xi32>, vector<4xi32>, vector<4xf32>, i32, i32, i32, i32, i32, i32) -> vector<4xf32>
              %relu3 = arith.maximumf %mm3, %zero4 : vector<4xf32>
              %wr3v = arith.mulf %w4_3, %relu3 : vector<4xf32>
              %ws3 = vector.reduction <add>, %wr3v : vector<4xf32> into f32
              %part3 = arith.addf %part2, %ws3 : f32
              // Lanes l, l ^ 16, l ^ 32, l ^ 48 hold the same column.
              %pi = llvm.bitcast %part3 : f32 to i32
              %pi16 = rocdl.ds_bpermute %bp16, %pi : (i32, i32) -> i32
              %pf16 = llvm.bitcast %pi16 : i32 to f32
              %sum16 = arith.addf %part3, %pf16 : f32
              %si = llvm.bitcast %sum16 : f32 to i32
              %si32 = rocdl.ds_bpermute %bp32, %si : (i32, i32) -> i32
              %sf32 = llvm.bitcast %si32 : i32 to f32
              %total = arith.addf %sum16, %sf32 : f32
              %is_mine = arith.cmpi eq, %lane_grp, %s32 : i32
              %kept_next = arith.select %is_mine, %total, %kept : f32
              scf.yield %kept_next : f32
            }
            // logits[t, kb + tid] (an i32 copy of the f32 bits).
            %j = arith.addi %kb32, %tid : i32
            %live = arith.cmpi slt, %j, %len : i32
            scf.if %live {
              %j64 = arith.extsi %j : i32 to i64
              %out_e = arith.addi %out_row, %j64 : i64
              %out_o = arith.trunci %out_e : i64 to i32
              %out_b = arith.muli %out_o, %c4_i32 : i32
              %mine_i = llvm.bitcast %mine : f32 to i32
              rocdl.raw.ptr.buffer.store %mine_i, %out_rsrc, %out_b, %c0_i32, %c0_i32 : i32
            }
            scf.yield %ea, %other : i32, i32
          }
        }
        // Every thread is done with w[t] and both stages before the next
        // token's copies overwrite them.
        gpu.barrier
      }
      gpu.return
    }
  }

  func.func @paged_fp4_mqa_logits_flydsl(
      %q: !llvm.ptr<1>, %q_layout: !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>,
      %q_scale: !llvm.ptr<1>, %q_scale_layout: !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>,
      %kv: !llvm.ptr<1>, %kv_layout: !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>,
      %kv_scale: !llvm.ptr<1>, %kv_scale_layout: !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>,
      %block_table: !llvm.ptr<1>, %block_table_layout: !llvm.struct<packed (struct<packed (i32)>)>,
      %weights: !llvm.ptr<1>, %weights_layout: !llvm.struct<packed (struct<packed (i32, i32)>, struct<packed (i64)>)>,
      %tok_seq: !llvm.ptr<1>, %tok_seq_layout: !llvm.struct<packed (struct<packed (i32)>)>,
      %kv_len: !llvm.ptr<1>, %kv_len_layout: !llvm.struct<packed (struct<packed (i32)>)>,
      %logits: !llvm.ptr<1>, %logits_layout: !llvm.struct<packed (struct<packed (i32, i32)>, struct<packed (i64)>)>,
      %stream: !gpu.async.token) attributes {llvm.emit_c_interface} {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %c1_i32 = arith.constant 1 : i32
    %cus = arith.constant 256 : i32
    %num_tokens = llvm.extractvalue %q_layout[0, 0] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
    %grid_min = arith.minsi %num_tokens, %cus : i32
    %grid_i32 = arith.maxsi %grid_min, %c1_i32 : i32
    %grid = arith.index_cast %grid_i32 : i32 to index
    %q_l0 = llvm.extractvalue %q_layout[0, 0] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
    %q_l1 = llvm.extractvalue %q_layout[0, 1] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
    %q_l2 = llvm.extractvalue %q_layout[0, 2] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
    %q_l3 = llvm.extractvalue %q_layout[1, 0] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
    %q_l4 = llvm.extractvalue %q_layout[1, 1] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
    %q_u = llvm.mlir.undef : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
    %q_u0 = llvm.mlir.undef : !llvm.struct<packed (i32, i32, i32)>
    %q_s0_0 = llvm.insertvalue %q_l0, %q_u0[0] : !llvm.struct<packed (i32, i32, i32)>
    %q_s0_1 = llvm.insertvalue %q_l1, %q_s0_0[1] : !llvm.struct<packed (i32, i32, i32)>
    %q_s0_2 = llvm.insertvalue %q_l2, %q_s0_1[2] : !llvm.struct<packed (i32, i32, i32)>
    %q_p0 = llvm.insertvalue %q_s0_2, %q_u[0] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
    %q_u1 = llvm.mlir.undef : !llvm.struct<packed (i64, i64)>
    %q_s1_0 = llvm.insertvalue %q_l3, %q_u1[0] : !llvm.struct<packed (i64, i64)>
    %q_s1_1 = llvm.insertvalue %q_l4, %q_s1_0[1] : !llvm.struct<packed (i64, i64)>
    %q_p1 = llvm.insertvalue %q_s1_1, %q_p0[1] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
    %q_scale_l0 = llvm.extractvalue %q_scale_layout[0, 0] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
    %q_scale_l1 = llvm.extractvalue %q_scale_layout[0, 1] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
    %q_scale_l2 = llvm.extractvalue %q_scale_layout[0, 2] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
    %q_scale_l3 = llvm.extractvalue %q_scale_layout[1, 0] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
    %q_scale_l4 = llvm.extractvalue %q_scale_layout[1, 1] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
    %q_scale_u = llvm.mlir.undef : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
    %q_scale_u0 = llvm.mlir.undef : !llvm.struct<packed (i32, i32, i32)>
    %q_scale_s0_0 = llvm.insertvalue %q_scale_l0, %q_scale_u0[0] : !llvm.struct<packed (i32, i32, i32)>
    %q_scale_s0_1 = llvm.insertvalue %q_scale_l1, %q_scale_s0_0[1] : !llvm.struct<packed (i32, i32, i32)>
    %q_scale_s0_2 = llvm.insertvalue %q_scale_l2, %q_scale_s0_1[2] : !llvm.struct<packed (i32, i32, i32)>
    %q_scale_p0 = llvm.insertvalue %q_scale_s0_2, %q_scale_u[0] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
    %q_scale_u1 = llvm.mlir.undef : !llvm.struct<packed (i64, i64)>
    %q_scale_s1_0 = llvm.insertvalue %q_scale_l3, %q_scale_u1[0] : !llvm.struct<packed (i64, i64)>
    %q_scale_s1_1 = llvm.insertvalue %q_scale_l4, %q_scale_s1_0[1] : !llvm.struct<packed (i64, i64)>
    %q_scale_p1 = llvm.insertvalue %q_scale_s1_1, %q_scale_p0[1] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
    %kv_l0 = llvm.extractvalue %kv_layout[0, 0] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
    %kv_l1 = llvm.extractvalue %kv_layout[0, 1] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
    %kv_l2 = llvm.extractvalue %kv_layout[0, 2] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
    %kv_l3 = llvm.extractvalue %kv_layout[1, 0] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
    %kv_l4 = llvm.extractvalue %kv_layout[1, 1] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
    %kv_u = llvm.mlir.undef : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
    %kv_u0 = llvm.mlir.undef : !llvm.struct<packed (i32, i32, i32)>
    %kv_s0_0 = llvm.insertvalue %kv_l0, %kv_u0[0] : !llvm.struct<packed (i32, i32, i32)>
    %kv_s0_1 = llvm.insertvalue %kv_l1, %kv_s0_0[1] : !llvm.struct<packed (i32, i32, i32)>
    %kv_s0_2 = llvm.insertvalue %kv_l2, %kv_s0_1[2] : !llvm.struct<packed (i32, i32, i32)>
    %kv_p0 = llvm.insertvalue %kv_s0_2, %kv_u[0] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
    %kv_u1 = llvm.mlir.undef : !llvm.struct<packed (i64, i64)>
    %kv_s1_0 = llvm.insertvalue %kv_l3, %kv_u1[0] : !llvm.struct<packed (i64, i64)>
    %kv_s1_1 = llvm.insertvalue %kv_l4, %kv_s1_0[1] : !llvm.struct<packed (i64, i64)>
    %kv_p1 = llvm.insertvalue %kv_s1_1, %kv_p0[1] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
    %kv_scale_l0 = llvm.extractvalue %kv_scale_layout[0, 0] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
    %kv_scale_l1 = llvm.extractvalue %kv_scale_layout[0, 1] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
    %kv_scale_l2 = llvm.extractvalue %kv_scale_layout[0, 2] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
    %kv_scale_l3 = llvm.extractvalue %kv_scale_layout[1, 0] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
    %kv_scale_l4 = llvm.extractvalue %kv_scale_layout[1, 1] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
    %kv_scale_u = llvm.mlir.undef : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
    %kv_scale_u0 = llvm.mlir.undef : !llvm.struct<packed (i32, i32, i32)>
    %kv_scale_s0_0 = llvm.insertvalue %kv_scale_l0, %kv_scale_u0[0] : !llvm.struct<packed (i32, i32, i32)>
    %kv_scale_s0_1 = llvm.insertvalue %kv_scale_l1, %kv_scale_s0_0[1] : !llvm.struct<packed (i32, i32, i32)>
    %kv_scale_s0_2 = llvm.insertvalue %kv_scale_l2, %kv_scale_s0_1[2] : !llvm.struct<packed (i32, i32, i32)>
    %kv_scale_p0 = llvm.insertvalue %kv_scale_s0_2, %kv_scale_u[0] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
    %kv_scale_u1 = llvm.mlir.undef : !llvm.struct<packed (i64, i64)>
    %kv_scale_s1_0 = llvm.insertvalue %kv_scale_l3, %kv_scale_u1[0] : !llvm.struct<packed (i64, i64)>
    %kv_scale_s1_1 = llvm.insertvalue %kv_scale_l4, %kv_scale_s1_0[1] : !llvm.struct<packed (i64, i64)>
    %kv_scale_p1 = llvm.insertvalue %kv_scale_s1_1, %kv_scale_p0[1] : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>
    %block_table_l0 = llvm.extractvalue %block_table_layout[0, 0] : !llvm.struct<packed (struct<packed (i32)>)>
    %block_table_u = llvm.mlir.undef : !llvm.struct<packed (struct<packed (i32)>)>
    %block_table_u0 = llvm.mlir.undef : !llvm.struct<packed (i32)>
    %block_table_s0_0 = llvm.insertvalue %block_table_l0, %block_table_u0[0] : !llvm.struct<packed (i32)>
    %block_table_p0 = llvm.insertvalue %block_table_s0_0, %block_table_u[0] : !llvm.struct<packed (struct<packed (i32)>)>
    %weights_l0 = llvm.extractvalue %weights_layout[0, 0] : !llvm.struct<packed (struct<packed (i32, i32)>, struct<packed (i64)>)>
    %weights_l1 = llvm.extractvalue %weights_layout[0, 1] : !llvm.struct<packed (struct<packed (i32, i32)>, struct<packed (i64)>)>
    %weights_l2 = llvm.extractvalue %weights_layout[1, 0] : !llvm.struct<packed (struct<packed (i32, i32)>, struct<packed (i64)>)>
    %weights_u = llvm.mlir.undef : !llvm.struct<packed (struct<packed (i32, i32)>, struct<packed (i64)>)>
    %weights_u0 = llvm.mlir.undef : !llvm.struct<packed (i32, i32)>
    %weights_s0_0 = llvm.insertvalue %weights_l0, %weights_u0[0] : !llvm.struct<packed (i32, i32)>
    %weights_s0_1 = llvm.insertvalue %weights_l1, %weights_s0_0[1] : !llvm.struct<packed (i32, i32)>
    %weights_p0 = llvm.insertvalue %weights_s0_1, %weights_u[0] : !llvm.struct<packed (struct<packed (i32, i32)>, struct<packed (i64)>)>
    %weights_u1 = llvm.mlir.undef : !llvm.struct<packed (i64)>
    %weights_s1_0 = llvm.insertvalue %weights_l2, %weights_u1[0] : !llvm.struct<packed (i64)>
    %weights_p1 = llvm.insertvalue %weights_s1_0, %weights_p0[1] : !llvm.struct<packed (struct<packed (i32, i32)>, struct<packed (i64)>)>
    %tok_seq_l0 = llvm.extractvalue %tok_seq_layout[0, 0] : !llvm.struct<packed (struct<packed (i32)>)>
    %tok_seq_u = llvm.mlir.undef : !llvm.struct<packed (struct<packed (i32)>)>
    %tok_seq_u0 = llvm.mlir.undef : !llvm.struct<packed (i32)>
    %tok_seq_s0_0 = llvm.insertvalue %tok_seq_l0, %tok_seq_u0[0] : !llvm.struct<packed (i32)>
    %tok_seq_p0 = llvm.insertvalue %tok_seq_s0_0, %tok_seq_u[0] : !llvm.struct<packed (struct<packed (i32)>)>
    %kv_len_l0 = llvm.extractvalue %kv_len_layout[0, 0] : !llvm.struct<packed (struct<packed (i32)>)>
    %kv_len_u = llvm.mlir.undef : !llvm.struct<packed (struct<packed (i32)>)>
    %kv_len_u0 = llvm.mlir.undef : !llvm.struct<packed (i32)>
    %kv_len_s0_0 = llvm.insertvalue %kv_len_l0, %kv_len_u0[0] : !llvm.struct<packed (i32)>
    %kv_len_p0 = llvm.insertvalue %kv_len_s0_0, %kv_len_u[0] : !llvm.struct<packed (struct<packed (i32)>)>
    %logits_l0 = llvm.extractvalue %logits_layout[0, 0] : !llvm.struct<packed (struct<packed (i32, i32)>, struct<packed (i64)>)>
    %logits_l1 = llvm.extractvalue %logits_layout[0, 1] : !llvm.struct<packed (struct<packed (i32, i32)>, struct<packed (i64)>)>
    %logits_l2 = llvm.extractvalue %logits_layout[1, 0] : !llvm.struct<packed (struct<packed (i32, i32)>, struct<packed (i64)>)>
    %logits_u = llvm.mlir.undef : !llvm.struct<packed (struct<packed (i32, i32)>, struct<packed (i64)>)>
    %logits_u0 = llvm.mlir.undef : !llvm.struct<packed (i32, i32)>
    %logits_s0_0 = llvm.insertvalue %logits_l0, %logits_u0[0] : !llvm.struct<packed (i32, i32)>
    %logits_s0_1 = llvm.insertvalue %logits_l1, %logits_s0_0[1] : !llvm.struct<packed (i32, i32)>
    %logits_p0 = llvm.insertvalue %logits_s0_1, %logits_u[0] : !llvm.struct<packed (struct<packed (i32, i32)>, struct<packed (i64)>)>
    %logits_u1 = llvm.mlir.undef : !llvm.struct<packed (i64)>
    %logits_s1_0 = llvm.insertvalue %logits_l2, %logits_u1[0] : !llvm.struct<packed (i64)>
    %logits_p1 = llvm.insertvalue %logits_s1_0, %logits_p0[1] : !llvm.struct<packed (struct<packed (i32, i32)>, struct<packed (i64)>)>
    gpu.launch_func [%stream] @kernels::@paged_fp4_mqa_logits_flydsl_0
        blocks in (%grid, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%q : !llvm.ptr<1>,
             %q_p1 : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>,
             %q_scale : !llvm.ptr<1>,
             %q_scale_p1 : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>,
             %kv : !llvm.ptr<1>,
             %kv_p1 : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>,
             %kv_scale : !llvm.ptr<1>,
             %kv_scale_p1 : !llvm.struct<packed (struct<packed (i32, i32, i32)>, struct<packed (i64, i64)>)>,
             %block_table : !llvm.ptr<1>,
             %block_table_p0 : !llvm.struct<packed (struct<packed (i32)>)>,
             %weights : !llvm.ptr<1>,
             %weights_p1 : !llvm.struct<packed (struct<packed (i32, i32)>, struct<packed (i64)>)>,
             %tok_seq : !llvm.ptr<1>,
             %tok_seq_p0 : !llvm.struct<packed (struct<packed (i32)>)>,
             %kv_len : !llvm.ptr<1>,
             %kv_len_p0 : !llvm.struct<packed (struct<packed (i32)>)>,
             %logits : !llvm.ptr<1>,
             %logits_p1 : !llvm.struct<packed (struct<packed (i32, i32)>, struct<packed (i64)>)>,
             %grid_i32 : i32)
    return
  }
}
