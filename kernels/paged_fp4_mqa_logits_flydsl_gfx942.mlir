// Paged FP4 prefill MQA-logits, as a FlyDSL-style frontend hands it over after
// its `convert-fly-to-rocdl` lowering and canonicalize, before
// `convert-gpu-to-rocdl`: the same function and geometry as
// kernels/paged_fp4_mqa_logits.mlir, in the IR shapes such a lowering emits.
// This is the gfx942 (CDNA3) text: CDNA3 has no FP4 matrix instruction, so K
// and Q are decoded to f32 and the head dot products are FMAs. The work is
// organised simply: one workgroup per token (grid-stride), one KV position
// per thread, the thread's decoded K row in registers against Q broadcast
// from LDS; each head's dot product is four 32-wide FMA chains reduced once,
// the head sum an FMA chain in head order. The gfx950 text
// (paged_fp4_mqa_logits_flydsl_gfx950.mlir) uses the scaled-FP4 MFMA instead;
// FlyDSL picks its MMA atom per architecture while tracing, so a frontend
// produces one text per chip. Both share the block-table path, the only place
// the page-table width lives.
//
//   logits[t, j] = sum_h w[t, h] * relu(q[t, h, :] . k[row(t, j), :])   for j < kv_len[t]
//   row(t, j)    = block_table[tok_seq[t] * max_blocks_per_seq + j / 64] * 64 + j % 64
//
// Geometry: 512 workgroups x 256 threads (4 waves of 64), block_k 256 KV
// positions per tile (one per thread), KV pages of 64 tokens, 64 heads,
// head_dim 128; FP4 e2m1 Q and K (two values a byte, low nibble first), one
// E8M0 scale per 32 values. Layouts as in the memref kernel
// kernels/paged_fp4_mqa_logits.mlir:
//   q [T, 64, 64] i8, q_scale [T, 64, 4] i8, kv [pages, 64, 64] i8,
//   kv_scale [pages, 64, 4] i8, block_table [B, max_blocks_per_seq] i32,
//   weights [T, 64] bf16, tok_seq [T] i32, kv_len [T] i32,
//   logits [T, logits_stride] f32.
//
// What the lowering turned into what:
// - Kernel tensors are `!llvm.ptr<1>` arguments; scalars are i32.
// - Buffer tensors (q, q_scale, kv, kv_scale, block_table, logits) are fat
//   pointers `!llvm.struct<(ptr<8>, i32)>`: a buffer resource from
//   `rocdl.make.buffer.rsrc` and a byte offset, packed with llvm.mlir.undef +
//   llvm.insertvalue, advanced by extracting the offset, adding and packing
//   again (FlyDSL's add_offset), read by extracting both fields into
//   `rocdl.raw.ptr.buffer.load/store` (its ptr.load/ptr.store).
// - num_records of every resource is 0xFFFFFFFF: FlyDSL's default
//   (`max_size=True`), which keeps the tensor's shape out of the descriptor.
//   With the block table's exact byte size (num_seqs * max_blocks_per_seq * 4)
//   the width would reach a bound the hardware checks on every access, and
//   stay specialized; a byte size the launcher passes as an argument would
//   not (test/Integration/flydsl-mqa-num-records.mlir and
//   flydsl-mqa-negative.mlir). The cost of the maximum is that out-of-window
//   reads are not clipped by the hardware, so every access below is guarded.
// - The block-table row is a fat pointer carried through the KV loop in
//   scf.for iter_args and advanced by one tile's pages each iteration.
// - tok_seq, kv_len and weights are plain global pointers: llvm.getelementptr
//   + llvm.load. Workgroup memory is one addrspace(3) llvm.mlir.global per
//   shared allocation, reached through llvm.mlir.addressof and GEPs.
// - q[t] and its scales go to LDS with the LDS-DMA forms
//   (`rocdl.raw.ptr.buffer.load.lds`, `rocdl.global.load.lds`: each lane
//   moves 4 bytes to M0 + 4 * lane), then every thread decodes one block of
//   32 values into an f32 copy of Q. That copy is XOR-swizzled in 16-byte
//   chunks (FlyDSL's Swizzle<3,4,3> on byte offsets: o ^ ((o & 0x380) >> 3),
//   as arith.andi/shrui/xori): the decode writes of adjacent threads then
//   spread over the banks; the head loop reads are broadcasts either way.
// - The decode and the swizzled LDS copies are the device helpers below;
//   FlyDSL traces such Python helpers inline, and the pipeline's inliner
//   does the same here before anything else looks at them.
//
// Specialization parameters (spec.param): `max_blocks_per_seq` is used only
// as the block-table row stride (i32 elements, scaled to bytes in the fat
// pointer's offset) and is hoisted into a kernel argument; heads and head_dim
// bound loops, block_k steps the KV loop and, with page_size, divides: those
// are kept. The width literal appears once, on the `max_blocks_per_seq` line,
// so a script can substitute it (bench/widths.py rewrites that line's `= 128`).

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // q[t] as loaded: 4096 FP4 bytes, then 256 E8M0 scales.
    llvm.mlir.global internal @__shared_alloc_0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<4352 x i8>
    // q[t] decoded, f32 [64 heads][128], swizzled in 16-byte chunks.
    llvm.mlir.global internal @__shared_alloc_1() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<32768 x i8>
    // w[t], f32 [64].
    llvm.mlir.global internal @__shared_alloc_2() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<256 x i8>

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
      %q_f32 = llvm.mlir.addressof @__shared_alloc_1 : !llvm.ptr<3>
      %w_f32 = llvm.mlir.addressof @__shared_alloc_2 : !llvm.ptr<3>

      %num_tokens_idx = arith.index_cast %num_tokens : i32 to index
      // Q decode: thread tid owns one scale block of 32 values per step.
      %tid32 = arith.muli %tid_idx, %c32 : index
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
        // The LDS-DMA writes complete under vmcnt, which a barrier does not
        // wait for on CDNA: vmcnt(0) first (expcnt 7, lgkmcnt 15: no wait).
        rocdl.s.waitcnt 3952
        gpu.barrier

        // Decode q[t] into the swizzled f32 copy.
        scf.for %e = %tid32 to %qk_elems step %c8192 {
          %e32 = arith.index_cast %e : index to i32
          %byte = arith.shrui %e32, %c1_i32 : i32
          %byte_swz = func.call @swizzle_343(%byte) : (i32) -> i32
          %src = llvm.getelementptr %q_raw[%byte_swz] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %q_bytes = llvm.load %src {alignment = 16 : i64} : !llvm.ptr<3> -> vector<16xi8>
          %blk = arith.shrui %e32, %c5_i32 : i32
          %s_byte = arith.addi %blk, %c4096_i32 : i32
          %s_swz = func.call @swizzle_343(%s_byte) : (i32) -> i32
          %s_src = llvm.getelementptr %q_raw[%s_swz] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
          %s = llvm.load %s_src : !llvm.ptr<3> -> i8
          %vals = func.call @decode_block(%q_bytes, %s) : (vector<16xi8>, i8) -> vector<32xf32>
          func.call @store_q_block(%q_f32, %e32, %vals) : (!llvm.ptr<3>, i32, vector<32xf32>) -> ()
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
          %j = arith.addi %kb32, %tid : i32
          %valid = arith.cmpi ult, %j, %len : i32
          scf.if %valid {
            // The physical page of position j: entry tid / page_size of the
            // tile's pages (the wave's page: all lanes read one address).
            %local_page = arith.divui %tid, %page_size : i32
            %slot = arith.remui %tid, %page_size : i32
            %lp_bytes = arith.muli %local_page, %c4_i32 : i32
            %cur_o = llvm.extractvalue %bt_cur[1] : !llvm.struct<(ptr<8>, i32)>
            %cur_o1 = arith.addi %cur_o, %lp_bytes : i32
            %cur_r = llvm.extractvalue %bt_cur[0] : !llvm.struct<(ptr<8>, i32)>
            %entry0 = llvm.insertvalue %cur_r, %undef_fp[0] : !llvm.struct<(ptr<8>, i32)>
            %entry = llvm.insertvalue %cur_o1, %entry0[1] : !llvm.struct<(ptr<8>, i32)>
            %entry_r = llvm.extractvalue %entry[0] : !llvm.struct<(ptr<8>, i32)>
            %entry_o = llvm.extractvalue %entry[1] : !llvm.struct<(ptr<8>, i32)>
            %phys = rocdl.raw.ptr.buffer.load %entry_r, %entry_o, %c0_i32, %c0_i32 : i32
            %page_base = arith.muli %phys, %page_size : i32
            %kv_row = arith.addi %page_base, %slot : i32

            // The K row (64 bytes, four 16-byte loads) and its 4 scales.
            %k_row_bytes = arith.muli %kv_row, %c64_i32 : i32
            %kv_o = llvm.extractvalue %kv_fp[1] : !llvm.struct<(ptr<8>, i32)>
            %kv_o1 = arith.addi %kv_o, %k_row_bytes : i32
            %kv_r = llvm.extractvalue %kv_fp[0] : !llvm.struct<(ptr<8>, i32)>
            %k_o1 = arith.addi %kv_o1, %c16_i32 : i32
            %k_o2 = arith.addi %kv_o1, %c32_i32 : i32
            %k_o3 = arith.addi %kv_o1, %c48_i32 : i32
            %kw0 = rocdl.raw.ptr.buffer.load %kv_r, %kv_o1, %c0_i32, %c0_i32 : vector<4xi32>
            %kw1 = rocdl.raw.ptr.buffer.load %kv_r, %k_o1, %c0_i32, %c0_i32 : vector<4xi32>
            %kw2 = rocdl.raw.ptr.buffer.load %kv_r, %k_o2, %c0_i32, %c0_i32 : vector<4xi32>
            %kw3 = rocdl.raw.ptr.buffer.load %kv_r, %k_o3, %c0_i32, %c0_i32 : vector<4xi32>
            %ks_row_bytes = arith.muli %kv_row, %c4_i32 : i32
            %ks_o = llvm.extractvalue %ks_fp[1] : !llvm.struct<(ptr<8>, i32)>
            %ks_o1 = arith.addi %ks_o, %ks_row_bytes : i32
            %ks_r = llvm.extractvalue %ks_fp[0] : !llvm.struct<(ptr<8>, i32)>
            %ks_word = rocdl.raw.ptr.buffer.load %ks_r, %ks_o1, %c0_i32, %c0_i32 : i32
            %kscales = llvm.bitcast %ks_word : i32 to vector<4xi8>
            %kb0 = llvm.bitcast %kw0 : vector<4xi32> to vector<16xi8>
            %kb1 = llvm.bitcast %kw1 : vector<4xi32> to vector<16xi8>
            %kb2 = llvm.bitcast %kw2 : vector<4xi32> to vector<16xi8>
            %kb3 = llvm.bitcast %kw3 : vector<4xi32> to vector<16xi8>
            %ks0 = vector.extract %kscales[0] : i8 from vector<4xi8>
            %ks1 = vector.extract %kscales[1] : i8 from vector<4xi8>
            %ks2 = vector.extract %kscales[2] : i8 from vector<4xi8>
            %ks3 = vector.extract %kscales[3] : i8 from vector<4xi8>
            %k0 = func.call @decode_block(%kb0, %ks0) : (vector<16xi8>, i8) -> vector<32xf32>
            %k1 = func.call @decode_block(%kb1, %ks1) : (vector<16xi8>, i8) -> vector<32xf32>
            %k2 = func.call @decode_block(%kb2, %ks2) : (vector<16xi8>, i8) -> vector<32xf32>
            %k3 = func.call @decode_block(%kb3, %ks3) : (vector<16xi8>, i8) -> vector<32xf32>

            // 64 head dot products against Q broadcast from LDS.
            %acc = scf.for %h = %c0 to %heads step %c1 iter_args(%sum = %zero) -> (f32) {
              %h32 = arith.index_cast %h : index to i32
              %q_head = arith.muli %h32, %c512_i32 : i32
              %qa1 = arith.addi %q_head, %c128_i32 : i32
              %qa2 = arith.addi %qa1, %c128_i32 : i32
              %qa3 = arith.addi %qa2, %c128_i32 : i32
              %q0 = func.call @load_q_row(%q_f32, %q_head) : (!llvm.ptr<3>, i32) -> vector<32xf32>
              %q1 = func.call @load_q_row(%q_f32, %qa1) : (!llvm.ptr<3>, i32) -> vector<32xf32>
              %q2 = func.call @load_q_row(%q_f32, %qa2) : (!llvm.ptr<3>, i32) -> vector<32xf32>
              %q3 = func.call @load_q_row(%q_f32, %qa3) : (!llvm.ptr<3>, i32) -> vector<32xf32>
              %p0 = arith.mulf %q0, %k0 fastmath<contract> : vector<32xf32>
              %p1 = vector.fma %q1, %k1, %p0 : vector<32xf32>
              %p2 = vector.fma %q2, %k2, %p1 : vector<32xf32>
              %p3 = vector.fma %q3, %k3, %p2 : vector<32xf32>
              %dot = vector.reduction <add>, %p3 fastmath<reassoc, contract> : vector<32xf32> into f32
              %relu = arith.maximumf %dot, %zero : f32
              %w_src = llvm.getelementptr %w_f32[%h32] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
              %w = llvm.load %w_src {alignment = 4 : i64} : !llvm.ptr<3> -> f32
              %next = math.fma %w, %relu, %sum : f32
              scf.yield %next : f32
            }

            // logits[t, j]: add_offset(logits, t * logits_stride + j), f32.
            %out_elem = arith.addi %out_row, %j : i32
            %out_bytes = arith.muli %out_elem, %c4_i32 : i32
            %out_o = llvm.extractvalue %out_fp[1] : !llvm.struct<(ptr<8>, i32)>
            %out_o1 = arith.addi %out_o, %out_bytes : i32
            %out_r = llvm.extractvalue %out_fp[0] : !llvm.struct<(ptr<8>, i32)>
            rocdl.raw.ptr.buffer.store %acc, %out_r, %out_o1, %c0_i32, %c0_i32 : f32
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

    // FP4 e2m1 x 32 (16 bytes, low nibble first) times an E8M0 scale (the
    // values of bench/gpu/refcore.py's decode_row). e2m1 magnitude m = n & 7
    // in units of 0.5: m < 4 ? m : (2 | m & 1) << (m/2 - 1), i.e.
    // {0, 1, 2, 3, 4, 6, 8, 12}; bit 3 is the sign. E8M0 s is 2^(s - 127).
    func.func private @decode_block(%bytes: vector<16xi8>, %scale: i8)
        -> vector<32xf32> attributes {llvm.linkage = #llvm.linkage<internal>,
                                      passthrough = ["alwaysinline"]} {
      %c4_i8 = arith.constant dense<4> : vector<16xi8>
      %c15_i8 = arith.constant dense<15> : vector<16xi8>
      %lo = arith.andi %bytes, %c15_i8 : vector<16xi8>
      %hi = arith.shrui %bytes, %c4_i8 : vector<16xi8>
      %nib8 = vector.interleave %lo, %hi : vector<16xi8> -> vector<32xi8>
      %nib = arith.extui %nib8 : vector<32xi8> to vector<32xi32>
      %c1 = arith.constant dense<1> : vector<32xi32>
      %c2 = arith.constant dense<2> : vector<32xi32>
      %c4 = arith.constant dense<4> : vector<32xi32>
      %c7 = arith.constant dense<7> : vector<32xi32>
      %c8 = arith.constant dense<8> : vector<32xi32>
      %c0 = arith.constant dense<0> : vector<32xi32>
      %mag = arith.andi %nib, %c7 : vector<32xi32>
      %odd = arith.andi %mag, %c1 : vector<32xi32>
      %mant = arith.ori %odd, %c2 : vector<32xi32>
      %exp = arith.shrui %mag, %c1 : vector<32xi32>
      %shift = arith.subi %exp, %c1 : vector<32xi32>
      %big = arith.shli %mant, %shift : vector<32xi32>
      %is_small = arith.cmpi ult, %mag, %c4 : vector<32xi32>
      %units = arith.select %is_small, %mag, %big : vector<32xi1>, vector<32xi32>
      %sign = arith.andi %nib, %c8 : vector<32xi32>
      %neg = arith.cmpi ne, %sign, %c0 : vector<32xi32>
      %minus = arith.subi %c0, %units : vector<32xi32>
      %signed = arith.select %neg, %minus, %units : vector<32xi1>, vector<32xi32>
      %vals = arith.sitofp %signed : vector<32xi32> to vector<32xf32>
      // 0.5 * 2^(s - 127) = 2^(s - 128): the f32 whose exponent field is s - 1.
      %s32 = arith.extui %scale : i8 to i32
      %c1s = arith.constant 1 : i32
      %c23 = arith.constant 23 : i32
      %sm1 = arith.subi %s32, %c1s : i32
      %sbits = arith.shli %sm1, %c23 : i32
      %sf = arith.bitcast %sbits : i32 to f32
      %splat = vector.broadcast %sf : f32 to vector<32xf32>
      %scaled = arith.mulf %vals, %splat : vector<32xf32>
      return %scaled : vector<32xf32>
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

    // Writes 32 decoded values (128 bytes) at element `e` of the swizzled
    // f32 copy of Q: eight 16-byte chunks, each at its swizzled offset.
    func.func private @store_q_block(%base: !llvm.ptr<3>, %e: i32, %vals: vector<32xf32>)
        attributes {llvm.linkage = #llvm.linkage<internal>,
                    passthrough = ["alwaysinline"]} {
      %c2 = arith.constant 2 : i32
      %row = arith.shli %e, %c2 : i32
      %c16 = arith.constant 16 : i32
      %c32 = arith.constant 32 : i32
      %c48 = arith.constant 48 : i32
      %c64 = arith.constant 64 : i32
      %c80 = arith.constant 80 : i32
      %c96 = arith.constant 96 : i32
      %c112 = arith.constant 112 : i32
      %o1 = arith.addi %row, %c16 : i32
      %o2 = arith.addi %row, %c32 : i32
      %o3 = arith.addi %row, %c48 : i32
      %o4 = arith.addi %row, %c64 : i32
      %o5 = arith.addi %row, %c80 : i32
      %o6 = arith.addi %row, %c96 : i32
      %o7 = arith.addi %row, %c112 : i32
      %s0 = func.call @swizzle_343(%row) : (i32) -> i32
      %s1 = func.call @swizzle_343(%o1) : (i32) -> i32
      %s2 = func.call @swizzle_343(%o2) : (i32) -> i32
      %s3 = func.call @swizzle_343(%o3) : (i32) -> i32
      %s4 = func.call @swizzle_343(%o4) : (i32) -> i32
      %s5 = func.call @swizzle_343(%o5) : (i32) -> i32
      %s6 = func.call @swizzle_343(%o6) : (i32) -> i32
      %s7 = func.call @swizzle_343(%o7) : (i32) -> i32
      %p0 = llvm.getelementptr %base[%s0] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
      %p1 = llvm.getelementptr %base[%s1] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
      %p2 = llvm.getelementptr %base[%s2] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
      %p3 = llvm.getelementptr %base[%s3] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
      %p4 = llvm.getelementptr %base[%s4] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
      %p5 = llvm.getelementptr %base[%s5] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
      %p6 = llvm.getelementptr %base[%s6] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
      %p7 = llvm.getelementptr %base[%s7] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
      %v0 = vector.shuffle %vals, %vals [0, 1, 2, 3] : vector<32xf32>, vector<32xf32>
      %v1 = vector.shuffle %vals, %vals [4, 5, 6, 7] : vector<32xf32>, vector<32xf32>
      %v2 = vector.shuffle %vals, %vals [8, 9, 10, 11] : vector<32xf32>, vector<32xf32>
      %v3 = vector.shuffle %vals, %vals [12, 13, 14, 15] : vector<32xf32>, vector<32xf32>
      %v4 = vector.shuffle %vals, %vals [16, 17, 18, 19] : vector<32xf32>, vector<32xf32>
      %v5 = vector.shuffle %vals, %vals [20, 21, 22, 23] : vector<32xf32>, vector<32xf32>
      %v6 = vector.shuffle %vals, %vals [24, 25, 26, 27] : vector<32xf32>, vector<32xf32>
      %v7 = vector.shuffle %vals, %vals [28, 29, 30, 31] : vector<32xf32>, vector<32xf32>
      llvm.store %v0, %p0 {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
      llvm.store %v1, %p1 {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
      llvm.store %v2, %p2 {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
      llvm.store %v3, %p3 {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
      llvm.store %v4, %p4 {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
      llvm.store %v5, %p5 {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
      llvm.store %v6, %p6 {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
      llvm.store %v7, %p7 {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
      return
    }

    // Reads 32 values (one 128-byte row starting at byte `row`) of the
    // swizzled f32 copy of Q.
    func.func private @load_q_row(%base: !llvm.ptr<3>, %row: i32) -> vector<32xf32>
        attributes {llvm.linkage = #llvm.linkage<internal>,
                    passthrough = ["alwaysinline"]} {
      %c16 = arith.constant 16 : i32
      %c32 = arith.constant 32 : i32
      %c48 = arith.constant 48 : i32
      %c64 = arith.constant 64 : i32
      %c80 = arith.constant 80 : i32
      %c96 = arith.constant 96 : i32
      %c112 = arith.constant 112 : i32
      %o1 = arith.addi %row, %c16 : i32
      %o2 = arith.addi %row, %c32 : i32
      %o3 = arith.addi %row, %c48 : i32
      %o4 = arith.addi %row, %c64 : i32
      %o5 = arith.addi %row, %c80 : i32
      %o6 = arith.addi %row, %c96 : i32
      %o7 = arith.addi %row, %c112 : i32
      %s0 = func.call @swizzle_343(%row) : (i32) -> i32
      %s1 = func.call @swizzle_343(%o1) : (i32) -> i32
      %s2 = func.call @swizzle_343(%o2) : (i32) -> i32
      %s3 = func.call @swizzle_343(%o3) : (i32) -> i32
      %s4 = func.call @swizzle_343(%o4) : (i32) -> i32
      %s5 = func.call @swizzle_343(%o5) : (i32) -> i32
      %s6 = func.call @swizzle_343(%o6) : (i32) -> i32
      %s7 = func.call @swizzle_343(%o7) : (i32) -> i32
      %p0 = llvm.getelementptr %base[%s0] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
      %p1 = llvm.getelementptr %base[%s1] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
      %p2 = llvm.getelementptr %base[%s2] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
      %p3 = llvm.getelementptr %base[%s3] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
      %p4 = llvm.getelementptr %base[%s4] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
      %p5 = llvm.getelementptr %base[%s5] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
      %p6 = llvm.getelementptr %base[%s6] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
      %p7 = llvm.getelementptr %base[%s7] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
      %v0 = llvm.load %p0 {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
      %v1 = llvm.load %p1 {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
      %v2 = llvm.load %p2 {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
      %v3 = llvm.load %p3 {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
      %v4 = llvm.load %p4 {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
      %v5 = llvm.load %p5 {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
      %v6 = llvm.load %p6 {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
      %v7 = llvm.load %p7 {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
      %v01 = vector.shuffle %v0, %v1 [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xf32>, vector<4xf32>
      %v23 = vector.shuffle %v2, %v3 [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xf32>, vector<4xf32>
      %v45 = vector.shuffle %v4, %v5 [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xf32>, vector<4xf32>
      %v67 = vector.shuffle %v6, %v7 [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xf32>, vector<4xf32>
      %v0123 = vector.shuffle %v01, %v23 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] : vector<8xf32>, vector<8xf32>
      %v4567 = vector.shuffle %v45, %v67 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] : vector<8xf32>, vector<8xf32>
      %row_vals = vector.shuffle %v0123, %v4567 [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31] : vector<16xf32>, vector<16xf32>
      return %row_vals : vector<32xf32>
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
