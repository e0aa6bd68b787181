// Paged FP4 prefill MQA-logits, as a FlyDSL-style frontend hands it over after
// its `convert-fly-to-rocdl` lowering and canonicalize, before
// `convert-gpu-to-rocdl`: the same function and geometry as
// kernels/paged_fp4_mqa_logits.mlir, in the IR shapes such a lowering emits.
// This is the gfx950 (CDNA4) text: the head dot products are the scaled-FP4
// matrix instruction `rocdl.mfma.scale.f32.16x16x128.f8f6f4` on the raw FP4
// bytes and E8M0 scales, with no decode. The gfx942 text
// (paged_fp4_mqa_logits_flydsl_gfx942.mlir) decodes to f32 instead; FlyDSL
// picks its MMA atom per architecture while tracing, so a frontend produces
// one text per chip. Both share the block-table path, the only place the
// page-table width lives, and everything said there about the lowered forms
// (fat pointers, buffer resources and their num_records, plain pointers,
// shared allocations, LDS-DMA copies, the swizzle) holds here.
//
//   logits[t, j] = sum_h w[t, h] * relu(q[t, h, :] . k[row(t, j), :])   for j < kv_len[t]
//   row(t, j)    = block_table[tok_seq[t] * max_blocks_per_seq + j / 64] * 64 + j % 64
//
// Geometry: 512 workgroups x 256 threads (4 waves of 64), block_k 256 KV
// positions per tile, KV pages of 64 tokens, 64 heads, head_dim 128; FP4 e2m1
// Q and K (two values a byte, low nibble first), one E8M0 scale per 32
// values; layouts as in kernels/paged_fp4_mqa_logits.mlir.
//
// The matrix product: S[h, j] = q[t, h, :] . k[j, :] is a 16 x 16 x 128 MFMA
// per 16 heads (A = Q rows, M) and 16 KV positions (B = K rows, N), head_dim
// the reduction (K). Lane l of a wave supplies row l % 16 and the 32-value
// scale block l / 16 of each operand (16 bytes, one register quad) with that
// block's E8M0 scale (opsel 0: the scale's low byte), and receives C rows
// 4 (l / 16) + i, i < 4, of column l % 16. Wave w owns the tile's positions
// kb + 64 w + [0, 64), four N-subtiles of 16 in one KV page (page_size is a
// multiple of the wave size), so its block-table entry is one uniform load.
// Per subtile a lane sums w[h] * relu(S[h, j]) over its 16 rows of the 64
// heads, two xor-shuffles add the four lane groups of a column, and lane l
// keeps subtile l / 16: position kb + 64 w + 16 (l / 16) + l % 16 = kb + tid,
// the one it writes, as in the gfx942 text.
//
// q[t] stays in LDS as loaded (4096 FP4 bytes + 256 scales, by LDS-DMA,
// swizzled with Swizzle<3,4,3>, which puts the 16-byte A reads of eight
// consecutive heads on distinct banks); the weights as f32.
//
// Specialization parameters (spec.param): `max_blocks_per_seq` is used only
// as the block-table row stride (i32 elements, scaled to bytes in the fat
// pointer's offset) and is hoisted into a kernel argument; heads and head_dim
// bound loops (the q[t] copy, the 16-head M loop, the 128-value K loop),
// block_k steps the KV loop and, with page_size, divides: those are kept. The
// width literal appears once, on the `max_blocks_per_seq` line, so a script
// can substitute it (bench/widths.py rewrites that line's `= 128`).

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // q[t] as loaded: 4096 FP4 bytes, then 256 E8M0 scales.
    llvm.mlir.global internal @__shared_alloc_0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<4352 x i8>
    // w[t], f32 [64].
    llvm.mlir.global internal @__shared_alloc_1() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<256 x i8>

    gpu.func @paged_fp4_mqa_logits_flydsl(
        %q: !llvm.ptr<1>, %q_scale: !llvm.ptr<1>,
        %kv: !llvm.ptr<1>, %kv_scale: !llvm.ptr<1>,
        %block_table: !llvm.ptr<1>, %weights: !llvm.ptr<1>,
        %tok_seq: !llvm.ptr<1>, %kv_len: !llvm.ptr<1>,
        %logits: !llvm.ptr<1>, %num_tokens: i32, %logits_stride: i32)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>,
                           known_grid_size = array<i32: 512, 1, 1>} {
      %width = spec.param "max_blocks_per_seq" = 128 : i32
      %heads = spec.param "heads" = 64 : index
      %head_dim = spec.param "head_dim" = 128 : index
      %block_k = spec.param "block_k" = 256 : index
      %page_size = spec.param "page_size" = 64 : i32

      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %c128 = arith.constant 128 : index
      %c32 = arith.constant 32 : index
      %c256 = arith.constant 256 : index
      %c512 = arith.constant 512 : index
      %c1024 = arith.constant 1024 : index
      %c8192 = arith.constant 8192 : index
      %c0_i16 = arith.constant 0 : i16
      %c0_i32 = arith.constant 0 : i32
      %c1_i32 = arith.constant 1 : i32
      %c4_i32 = arith.constant 4 : i32
      %c5_i32 = arith.constant 5 : i32
      %c6_i32 = arith.constant 6 : i32
      %c15_i32 = arith.constant 15 : i32
      %c16_i32 = arith.constant 16 : i32
      %c32_i32 = arith.constant 32 : i32
      %c48_i32 = arith.constant 48 : i32
      %c63_i32 = arith.constant 63 : i32
      %c64_i32 = arith.constant 64 : i32
      %c128_i32 = arith.constant 128 : i32
      %c256_i32 = arith.constant 256 : i32
      %c512_i32 = arith.constant 512 : i32
      %c4096_i32 = arith.constant 4096 : i32
      %zero = arith.constant 0.0 : f32
      %zero4 = arith.constant dense<0.0> : vector<4xf32>
      // Buffer descriptors: raw buffer, stride 0, FlyDSL's maximum size, and
      // the CDNA data/number format word ((7 << 12) | (4 << 15)).
      %max_records = arith.constant 4294967295 : i64
      %flags = arith.constant 159744 : i32

      %tid_idx = gpu.thread_id x
      %bid_idx = gpu.block_id x
      %tid = arith.index_cast %tid_idx : index to i32
      %lane = arith.andi %tid, %c63_i32 : i32
      %wave_v = arith.shrui %tid, %c6_i32 : i32
      %wave = rocdl.readfirstlane %wave_v : i32
      // MFMA operand lanes: row l % 16, scale block l / 16 (its 16 bytes, its
      // 4 C rows).
      %lane_row = arith.andi %lane, %c15_i32 : i32
      %lane_grp = arith.shrui %lane, %c4_i32 : i32
      %grp_bytes = arith.muli %lane_grp, %c16_i32 : i32
      %grp_rows = arith.muli %lane_grp, %c4_i32 : i32

      // make_buffer_ptr for every buffer tensor: {resource, offset 0}.
      %undef_fp = llvm.mlir.undef : !llvm.struct<(ptr<8>, i32)>
      %q_rsrc = rocdl.make.buffer.rsrc %q, %c0_i16, %max_records, %flags : !llvm.ptr<1> to !llvm.ptr<8>
      %q_fp0 = llvm.insertvalue %q_rsrc, %undef_fp[0] : !llvm.struct<(ptr<8>, i32)>
      %q_fp = llvm.insertvalue %c0_i32, %q_fp0[1] : !llvm.struct<(ptr<8>, i32)>
      %kv_rsrc = rocdl.make.buffer.rsrc %kv, %c0_i16, %max_records, %flags : !llvm.ptr<1> to !llvm.ptr<8>
      %kv_fp0 = llvm.insertvalue %kv_rsrc, %undef_fp[0] : !llvm.struct<(ptr<8>, i32)>
      %kv_fp = llvm.insertvalue %c0_i32, %kv_fp0[1] : !llvm.struct<(ptr<8>, i32)>
      %ks_rsrc = rocdl.make.buffer.rsrc %kv_scale, %c0_i16, %max_records, %flags : !llvm.ptr<1> to !llvm.ptr<8>
      %ks_fp0 = llvm.insertvalue %ks_rsrc, %undef_fp[0] : !llvm.struct<(ptr<8>, i32)>
      %ks_fp = llvm.insertvalue %c0_i32, %ks_fp0[1] : !llvm.struct<(ptr<8>, i32)>
      %bt_rsrc = rocdl.make.buffer.rsrc %block_table, %c0_i16, %max_records, %flags : !llvm.ptr<1> to !llvm.ptr<8>
      %bt_fp0 = llvm.insertvalue %bt_rsrc, %undef_fp[0] : !llvm.struct<(ptr<8>, i32)>
      %bt_fp = llvm.insertvalue %c0_i32, %bt_fp0[1] : !llvm.struct<(ptr<8>, i32)>
      %out_rsrc = rocdl.make.buffer.rsrc %logits, %c0_i16, %max_records, %flags : !llvm.ptr<1> to !llvm.ptr<8>
      %out_fp0 = llvm.insertvalue %out_rsrc, %undef_fp[0] : !llvm.struct<(ptr<8>, i32)>
      %out_fp = llvm.insertvalue %c0_i32, %out_fp0[1] : !llvm.struct<(ptr<8>, i32)>

      // Shared allocations.
      %q_raw = llvm.mlir.addressof @__shared_alloc_0 : !llvm.ptr<3>
      %q_raw_scales = llvm.getelementptr %q_raw[4096] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
      %w_f32 = llvm.mlir.addressof @__shared_alloc_1 : !llvm.ptr<3>

      %num_tokens_idx = arith.index_cast %num_tokens : i32 to index
      %qk_elems = arith.muli %heads, %head_dim : index
      // q[t] is heads * head_dim / 2 bytes; wave w copies 256-byte chunks
      // 256 w + 1024 i of it, lane l 4 bytes of each.
      %q_tok_bytes = arith.shrui %qk_elems, %c1 : index
      %wave_idx = arith.index_cast %wave : i32 to index
      %wave_chunk = arith.muli %wave_idx, %c256 : index
      %lane_bytes = arith.muli %lane, %c4_i32 : i32
      %is_wave0 = arith.cmpi eq, %wave, %c0_i32 : i32

      scf.for %t_idx = %bid_idx to %num_tokens_idx step %c512 {
        %t = arith.index_cast %t_idx : index to i32
        %t64 = arith.index_cast %t_idx : index to i64
        %seq_ptr = llvm.getelementptr %tok_seq[%t64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
        %seq = llvm.load %seq_ptr {alignment = 4 : i64} : !llvm.ptr<1> -> i32
        %len_ptr = llvm.getelementptr %kv_len[%t64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
        %len = llvm.load %len_ptr {alignment = 4 : i64} : !llvm.ptr<1> -> i32
        %len_idx = arith.index_cast %len : i32 to index

        // q[t] to LDS: add_offset(q, 4096 t), then buffer-to-LDS copies of 256
        // bytes per wave instruction (4 bytes a lane, to M0 + 4 lane). The
        // LDS copy is swizzled: the lane whose bytes land at d fetches logical
        // byte swizzle(d) (an involution), so a reader finds logical byte o at
        // swizzle(o).
        %q_tok = arith.muli %t, %c4096_i32 : i32
        %q_o = llvm.extractvalue %q_fp[1] : !llvm.struct<(ptr<8>, i32)>
        %q_o1 = arith.addi %q_o, %q_tok : i32
        %q_r = llvm.extractvalue %q_fp[0] : !llvm.struct<(ptr<8>, i32)>
        %q_row0 = llvm.insertvalue %q_r, %undef_fp[0] : !llvm.struct<(ptr<8>, i32)>
        %q_row = llvm.insertvalue %q_o1, %q_row0[1] : !llvm.struct<(ptr<8>, i32)>
        scf.for %chunk_idx = %wave_chunk to %q_tok_bytes step %c1024 {
          %chunk = arith.index_cast %chunk_idx : index to i32
          %dst = llvm.getelementptr %q_raw[%chunk] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %d = arith.addi %chunk, %lane_bytes : i32
          %src_byte = func.call @swizzle_343(%d) : (i32) -> i32
          %src_r = llvm.extractvalue %q_row[0] : !llvm.struct<(ptr<8>, i32)>
          %src_o = llvm.extractvalue %q_row[1] : !llvm.struct<(ptr<8>, i32)>
          %src_o1 = arith.addi %src_o, %src_byte : i32
          rocdl.raw.ptr.buffer.load.lds %src_r, %dst, %c4_i32, %src_o1, %c0_i32, %c0_i32, %c0_i32
        }
        // Its 256 scales (LDS bytes 4096..4351, swizzled alike): one
        // global-to-LDS copy by wave 0.
        scf.if %is_wave0 {
          %qs_d = arith.addi %lane_bytes, %c4096_i32 : i32
          %qs_swz = func.call @swizzle_343(%qs_d) : (i32) -> i32
          %qs_col = arith.subi %qs_swz, %c4096_i32 : i32
          %qs_tok = arith.muli %t, %c256_i32 : i32
          %qs_elem = arith.addi %qs_tok, %qs_col : i32
          %qs_elem64 = arith.extui %qs_elem : i32 to i64
          %qs_src = llvm.getelementptr %q_scale[%qs_elem64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
          rocdl.global.load.lds %qs_src, %q_raw_scales, 4, 0, 0
        }
        // Per-head weights, bf16 -> f32.
        %is_head = arith.cmpi ult, %tid_idx, %heads : index
        scf.if %is_head {
          %w_row = arith.muli %t_idx, %heads : index
          %w_idx = arith.addi %w_row, %tid_idx : index
          %w_idx64 = arith.index_cast %w_idx : index to i64
          %w_src = llvm.getelementptr %weights[%w_idx64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, bf16
          %w16 = llvm.load %w_src {alignment = 2 : i64} : !llvm.ptr<1> -> bf16
          %w32 = arith.extf %w16 : bf16 to f32
          %w_dst = llvm.getelementptr %w_f32[%tid] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
          llvm.store %w32, %w_dst {alignment = 4 : i64} : f32, !llvm.ptr<3>
        }
        // The LDS-DMA writes complete under vmcnt, which a barrier does not
        // wait for on CDNA: vmcnt(0) first (expcnt 7, lgkmcnt 15: no wait).
        rocdl.s.waitcnt 3952
        gpu.barrier

        // The block-table row of the token's sequence: add_offset(block_table,
        // seq * max_blocks_per_seq) on an i32 tensor, in bytes.
        %bt_row_elems = arith.muli %seq, %width : i32
        %bt_row_bytes = arith.muli %bt_row_elems, %c4_i32 : i32
        %bt_o = llvm.extractvalue %bt_fp[1] : !llvm.struct<(ptr<8>, i32)>
        %bt_o1 = arith.addi %bt_o, %bt_row_bytes : i32
        %bt_r = llvm.extractvalue %bt_fp[0] : !llvm.struct<(ptr<8>, i32)>
        %bt_row0 = llvm.insertvalue %bt_r, %undef_fp[0] : !llvm.struct<(ptr<8>, i32)>
        %bt_row = llvm.insertvalue %bt_o1, %bt_row0[1] : !llvm.struct<(ptr<8>, i32)>
        // One tile covers block_k / page_size pages: the row pointer's step.
        %block_k_i32 = arith.index_cast %block_k : index to i32
        %pages_per_tile = arith.divui %block_k_i32, %page_size : i32
        %bt_step = arith.muli %pages_per_tile, %c4_i32 : i32
        %out_row = arith.muli %t, %logits_stride : i32

        %bt_end = scf.for %kb = %c0 to %len_idx step %block_k
            iter_args(%bt_cur = %bt_row) -> (!llvm.struct<(ptr<8>, i32)>) {
          %kb32 = arith.index_cast %kb : index to i32
          // The wave's positions kb + 64 w + [0, 64): live if the first is
          // in the window (a uniform branch: the shuffles below need the
          // whole wave).
          %wave_pos = arith.muli %wave, %c64_i32 : i32
          %wave_first = arith.addi %kb32, %wave_pos : i32
          %wave_live = arith.cmpi ult, %wave_first, %len : i32
          %logit = scf.if %wave_live -> (f32) {
            // The wave's page: entry 64 w / page_size of the tile's pages,
            // one uniform load.
            %local_page = arith.divui %wave_pos, %page_size : i32
            %slot0 = arith.remui %wave_pos, %page_size : i32
            %lp_bytes = arith.muli %local_page, %c4_i32 : i32
            %cur_o = llvm.extractvalue %bt_cur[1] : !llvm.struct<(ptr<8>, i32)>
            %cur_o1 = arith.addi %cur_o, %lp_bytes : i32
            %cur_r = llvm.extractvalue %bt_cur[0] : !llvm.struct<(ptr<8>, i32)>
            %entry0 = llvm.insertvalue %cur_r, %undef_fp[0] : !llvm.struct<(ptr<8>, i32)>
            %entry = llvm.insertvalue %cur_o1, %entry0[1] : !llvm.struct<(ptr<8>, i32)>
            %entry_r = llvm.extractvalue %entry[0] : !llvm.struct<(ptr<8>, i32)>
            %entry_o = llvm.extractvalue %entry[1] : !llvm.struct<(ptr<8>, i32)>
            %phys_v = rocdl.raw.ptr.buffer.load %entry_r, %entry_o, %c0_i32, %c0_i32 : i32
            %phys = rocdl.readfirstlane %phys_v : i32
            %page_base = arith.muli %phys, %page_size : i32
            %wave_row0 = arith.addi %page_base, %slot0 : i32

            %mine = scf.for %s = %c0 to %c4 step %c1 iter_args(%kept = %zero) -> (f32) {
              %s32 = arith.index_cast %s : index to i32
              %sub_rows = arith.muli %s32, %c16_i32 : i32
              %sub_row0 = arith.addi %wave_row0, %sub_rows : i32
              %k_row = arith.addi %sub_row0, %lane_row : i32
              %k_row_bytes = arith.muli %k_row, %c64_i32 : i32
              %ks_row_bytes = arith.muli %k_row, %c4_i32 : i32

              // Sum over the heads of w[h] * relu(S[h, j]) for this lane's
              // rows: 16 heads an MFMA, head_dim / 128 MFMAs each.
              %partial = scf.for %m = %c0 to %heads step %c16 iter_args(%p = %zero) -> (f32) {
                %m32 = arith.index_cast %m : index to i32
                %head = arith.addi %m32, %lane_row : i32
                %a_row_bytes = arith.muli %head, %c64_i32 : i32
                %sa_row_bytes = arith.muli %head, %c4_i32 : i32
                %c = scf.for %kk = %c0 to %head_dim step %c128
                    iter_args(%acc = %zero4) -> (vector<4xf32>) {
                  %kk32 = arith.index_cast %kk : index to i32
                  %kk_bytes = arith.shrui %kk32, %c1_i32 : i32
                  %kk_blocks = arith.shrui %kk32, %c5_i32 : i32
                  %blk_bytes = arith.addi %kk_bytes, %grp_bytes : i32
                  %blk = arith.addi %kk_blocks, %lane_grp : i32
                  // A: q[t, head, blk] from the swizzled LDS copy.
                  %a_byte = arith.addi %a_row_bytes, %blk_bytes : i32
                  %a_swz = func.call @swizzle_343(%a_byte) : (i32) -> i32
                  %a_src = llvm.getelementptr %q_raw[%a_swz] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
                  %a = llvm.load %a_src {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xi32>
                  %sa_byte0 = arith.addi %sa_row_bytes, %blk : i32
                  %sa_byte = arith.addi %sa_byte0, %c4096_i32 : i32
                  %sa_swz = func.call @swizzle_343(%sa_byte) : (i32) -> i32
                  %sa_src = llvm.getelementptr %q_raw[%sa_swz] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
                  %sa8 = llvm.load %sa_src : !llvm.ptr<3> -> i8
                  %sa = arith.extui %sa8 : i8 to i32
                  // B: the K row's block, and its scale.
                  %kv_o = llvm.extractvalue %kv_fp[1] : !llvm.struct<(ptr<8>, i32)>
                  %kv_o1 = arith.addi %kv_o, %k_row_bytes : i32
                  %kv_o2 = arith.addi %kv_o1, %blk_bytes : i32
                  %kv_r = llvm.extractvalue %kv_fp[0] : !llvm.struct<(ptr<8>, i32)>
                  %b = rocdl.raw.ptr.buffer.load %kv_r, %kv_o2, %c0_i32, %c0_i32 : vector<4xi32>
                  %ks_o = llvm.extractvalue %ks_fp[1] : !llvm.struct<(ptr<8>, i32)>
                  %ks_o1 = arith.addi %ks_o, %ks_row_bytes : i32
                  %ks_o2 = arith.addi %ks_o1, %blk : i32
                  %ks_r = llvm.extractvalue %ks_fp[0] : !llvm.struct<(ptr<8>, i32)>
                  %sb8 = rocdl.raw.ptr.buffer.load %ks_r, %ks_o2, %c0_i32, %c0_i32 : i8
                  %sb = arith.extui %sb8 : i8 to i32
                  // A and B FP4 e2m1 (format 4), each block times 2^(scale - 127).
                  %acc_next = rocdl.mfma.scale.f32.16x16x128.f8f6f4 %a, %b, %acc, %c4_i32, %c4_i32, %c0_i32, %sa, %c0_i32, %sb
                      : (vector<4xi32>, vector<4xi32>, vector<4xf32>, i32, i32, i32, i32, i32, i32) -> vector<4xf32>
                  scf.yield %acc_next : vector<4xf32>
                }
                %relu = arith.maximumf %c, %zero4 : vector<4xf32>
                // w[t, h] for this lane's rows h = m + 4 (l / 16) + i.
                %w_row = arith.addi %m32, %grp_rows : i32
                %w_src = llvm.getelementptr %w_f32[%w_row] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
                %w4 = llvm.load %w_src {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
                %wr = arith.mulf %w4, %relu : vector<4xf32>
                %wsum = vector.reduction <add>, %wr : vector<4xf32> into f32
                %p_next = arith.addf %p, %wsum : f32
                scf.yield %p_next : f32
              }
              // Lanes l, l ^ 16, l ^ 32, l ^ 48 hold the same column.
              %x16, %ok16 = gpu.shuffle xor %partial, %c16_i32, %c64_i32 : f32
              %sum2 = arith.addf %partial, %x16 : f32
              %x32, %ok32 = gpu.shuffle xor %sum2, %c32_i32, %c64_i32 : f32
              %total = arith.addf %sum2, %x32 : f32
              %is_mine = arith.cmpi eq, %lane_grp, %s32 : i32
              %kept_next = arith.select %is_mine, %total, %kept : f32
              scf.yield %kept_next : f32
            }
            scf.yield %mine : f32
          } else {
            scf.yield %zero : f32
          }

          // logits[t, j] for j = kb + tid: add_offset(logits, t * logits_stride + j), f32.
          %j = arith.addi %kb32, %tid : i32
          %valid = arith.cmpi ult, %j, %len : i32
          scf.if %valid {
            %out_elem = arith.addi %out_row, %j : i32
            %out_bytes = arith.muli %out_elem, %c4_i32 : i32
            %out_o = llvm.extractvalue %out_fp[1] : !llvm.struct<(ptr<8>, i32)>
            %out_o1 = arith.addi %out_o, %out_bytes : i32
            %out_r = llvm.extractvalue %out_fp[0] : !llvm.struct<(ptr<8>, i32)>
            rocdl.raw.ptr.buffer.store %logit, %out_r, %out_o1, %c0_i32, %c0_i32 : f32
          }
          // Next tile: the row pointer advances by one tile's pages.
          %next_o = llvm.extractvalue %bt_cur[1] : !llvm.struct<(ptr<8>, i32)>
          %next_o1 = arith.addi %next_o, %bt_step : i32
          %next_r = llvm.extractvalue %bt_cur[0] : !llvm.struct<(ptr<8>, i32)>
          %bt_next0 = llvm.insertvalue %next_r, %undef_fp[0] : !llvm.struct<(ptr<8>, i32)>
          %bt_next = llvm.insertvalue %next_o1, %bt_next0[1] : !llvm.struct<(ptr<8>, i32)>
          scf.yield %bt_next : !llvm.struct<(ptr<8>, i32)>
        }
        // Every thread is done with q[t] and w[t] before the next token's
        // copies overwrite them.
        gpu.barrier
      }
      gpu.return
    }

    // FlyDSL's Swizzle<3,4,3> on a byte offset: bits 7..9 into bits 4..6,
    // o ^ ((o & 0x380) >> 3). It permutes the 16-byte chunks of each 128-byte
    // row by the row's low three bits and keeps every chunk whole.
    func.func private @swizzle_343(%o: i32) -> i32
        attributes {llvm.linkage = #llvm.linkage<internal>,
                    passthrough = ["alwaysinline"]} {
      %mask = arith.constant 896 : i32
      %c3 = arith.constant 3 : i32
      %masked = arith.andi %o, %mask : i32
      %shifted = arith.shrui %masked, %c3 : i32
      %swizzled = arith.xori %o, %shifted : i32
      return %swizzled : i32
    }
  }

  // Host side: what the frontend's launcher emits for one call.
  func.func @launch_paged_fp4_mqa_logits_flydsl(
      %q: !llvm.ptr<1>, %q_scale: !llvm.ptr<1>,
      %kv: !llvm.ptr<1>, %kv_scale: !llvm.ptr<1>,
      %block_table: !llvm.ptr<1>, %weights: !llvm.ptr<1>,
      %tok_seq: !llvm.ptr<1>, %kv_len: !llvm.ptr<1>,
      %logits: !llvm.ptr<1>, %num_tokens: i32, %logits_stride: i32) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %c512 = arith.constant 512 : index
    gpu.launch_func @kernels::@paged_fp4_mqa_logits_flydsl
        blocks in (%c512, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%q : !llvm.ptr<1>, %q_scale : !llvm.ptr<1>,
             %kv : !llvm.ptr<1>, %kv_scale : !llvm.ptr<1>,
             %block_table : !llvm.ptr<1>, %weights : !llvm.ptr<1>,
             %tok_seq : !llvm.ptr<1>, %kv_len : !llvm.ptr<1>,
             %logits : !llvm.ptr<1>, %num_tokens : i32,
             %logits_stride : i32)
    return
  }
}
