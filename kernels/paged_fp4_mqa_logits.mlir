// Paged FP4 prefill MQA-logits: the reference kernel of DESIGN.md.
//
//   logits[t, j] = sum_h w[t, h] * relu(q[t, h, :] . k[j, :])   for j < kv_len[t]
//
// Geometry: 512 workgroups x 256 threads, block_k 256 KV positions per tile,
// KV pages of 64 tokens, 64 heads, head_dim 128. Q and K are FP4 e2m1, two
// values per byte (low nibble first), with one E8M0 scale per 32 values.
//
// Memory layouts (all row-major, flat memrefs as a DSL passes raw buffers):
//   q          i8   [T, heads, head_dim / 2]
//   q_scale    i8   [T, heads, head_dim / 32]        E8M0
//   kv         i8   [pages, page_size, head_dim / 2]
//   kv_scale   i8   [pages, page_size, head_dim / 32] E8M0
//   block_table i32 [B, max_blocks_per_seq]
//   weights    bf16 [T, heads]
//   tok_seq    i32  [T]  the sequence of each query token
//   kv_len     i32  [T]  the KV positions token t attends to (causal window)
//   logits     f32  [T, logits_stride]               runtime row stride
//
// Work: grid-stride over items (token t, part s): part s of token t takes
// the tiles s, s + S, s + 2S, ... of its window, S = ceil(2048 / T) at most
// 8 (1 from 2048 tokens on), so that a few long windows do not leave most
// workgroups idle at the end. Each item decodes its token's Q into LDS,
// transposed (q_lds[d * heads + h], 32 KiB f32).
//
// A tile of block_k positions is a 64 x 256 x 128 matrix product (heads x
// positions x head_dim) computed from LDS in chunks of 16 dimensions: each
// thread reads the block-table entry of its own position (kb + tid; 64
// threads share an entry, one cached line), decodes 16 values of that K row
// into k_lds (k_lds[dd * block_k + j], 16 KiB), then every thread
// multiplies an 8 x 8 block (8 heads, 8 positions) over those 16
// dimensions, unrolled: per dimension two 16-byte LDS reads of Q, two of K
// and 64 FMAs into 64 independent accumulators. The next chunk's 8 K bytes
// are loaded before the current chunk is multiplied, so their latency hides
// behind it. Two barriers per chunk; 48 KiB of LDS and 128 registers per
// thread (ptxas, sm_90): two workgroups per SM.
//
// Thread roles in a tile: warp w owns positions 32w..32w+31; lane l takes
// heads 4g..4g+3 and 32+4g..32+4g+3 (g = l % 8) and positions
// 32w + 4p + {0..3} and 32w + 16 + 4p + {0..3} (p = l / 8), which makes
// every LDS read conflict-free. A warp whose positions all lie past the
// window skips the products (short windows cost a fraction of a tile).
// The sum over heads, w[h] * relu(dot), is taken per lane over its 8 heads,
// then across the 8 lanes of the same positions with 7 shuffles (a halving
// exchange: each lane ends with one position's total and writes it). Each
// dot product accumulates its 128 terms in order of d, whatever the tiling.
//
// Decode, exact: the nibble's exponent and mantissa bits placed at f32 bits
// 24..22 and its sign at bit 31 give the e2m1 value times 2^-126 (denormal
// for 0.5 and 0), so a multiply by 2^126 and one by the E8M0 scale 2^(s-127)
// give the value (the same products as sitofp(units) * 2^(s - 128)).
//
// Specialization parameters (spec.param): `max_blocks_per_seq` is used only
// as the block-table row stride and is hoisted into a kernel argument; heads,
// head_dim, block_k and page_size shape loops, tiles and LDS and are kept.
// The width literal appears once, on the `max_blocks_per_seq` line, so a
// script can substitute it (bench/widths.py rewrites that line's `= 128`).

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @paged_fp4_mqa_logits(
        %q: memref<?xi8>, %q_scale: memref<?xi8>,
        %kv: memref<?xi8>, %kv_scale: memref<?xi8>,
        %block_table: memref<?xi32>, %weights: memref<?xbf16>,
        %tok_seq: memref<?xi32>, %kv_len: memref<?xi32>,
        %logits: memref<?xf32>, %num_tokens: index, %logits_stride: index)
        workgroup(%q_lds: memref<8192xf32, 3> {llvm.align = 16 : i64},
                  %k_lds: memref<4096xf32, 3> {llvm.align = 16 : i64})
        kernel attributes {known_block_size = array<i32: 256, 1, 1>,
                           known_grid_size = array<i32: 512, 1, 1>} {
      %width = spec.param "max_blocks_per_seq" = 128 : index
      %heads = spec.param "heads" = 64 : index
      %head_dim = spec.param "head_dim" = 128 : index
      %block_k = spec.param "block_k" = 256 : index
      %page_size = spec.param "page_size" = 64 : index

      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index

      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c24 = arith.constant 24 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %c256 = arith.constant 256 : index
      %c512 = arith.constant 512 : index
      %c4096 = arith.constant 4096 : index
      %c2048 = arith.constant 2048 : index
      %c8192 = arith.constant 8192 : index
      %c1_i32 = arith.constant 1 : i32
      %c2_i32 = arith.constant 2 : i32
      %c4_i32 = arith.constant 4 : i32
      %c32_i32 = arith.constant 32 : i32
      %zero8 = arith.constant dense<0.0> : vector<8xf32>

      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      // Q decode: thread tid owns one scale block of 32 values per step.
      %tid32 = arith.muli %tid, %c32 : index
      %qk_elems = arith.muli %heads, %head_dim : index

      // The thread's 8 heads and 8 positions in a tile (see the header).
      %warp = arith.divui %tid, %c32 : index
      %lane = arith.remui %tid, %c32 : index
      %hgrp = arith.remui %lane, %c8 : index
      %pquad = arith.divui %lane, %c8 : index
      %warp_pos = arith.muli %warp, %c32 : index
      %pquad4 = arith.muli %pquad, %c4 : index
      %pos_lo = arith.addi %warp_pos, %pquad4 : index
      %pos_hi = arith.addi %pos_lo, %c16 : index
      %h_lo = arith.muli %hgrp, %c4 : index
      %h_hi = arith.addi %h_lo, %c32 : index
      // The position whose total this lane holds after the exchange: bit 2
      // of g picks the high quad, bits 1..0 the position inside the quad.
      %g_bit2 = arith.cmpi uge, %hgrp, %c4 : index
      %g_low = arith.remui %hgrp, %c4 : index
      %quad_base = arith.select %g_bit2, %pos_hi, %pos_lo : index
      %my_pos = arith.addi %quad_base, %g_low : index
      %g_bit1 = arith.cmpi uge, %g_low, %c2 : index
      %g_odd = arith.remui %hgrp, %c2 : index
      %g_bit0 = arith.cmpi eq, %g_odd, %c1 : index

      // Work items: (token, part). With few tokens each token's tiles are
      // dealt over S parts (tiles part, part + S, ...), S = 2048 / T
      // rounded up, at most 8, so long and short windows balance out over
      // the 512 workgroups; Q is decoded once per item.
      %tok_den = arith.maxui %num_tokens, %c1 : index
      %parts_num = arith.addi %num_tokens, %c2048 : index
      %parts_num1 = arith.subi %parts_num, %c1 : index
      %parts_want = arith.divui %parts_num1, %tok_den : index
      %parts_lo = arith.maxui %parts_want, %c1 : index
      %parts = arith.minui %parts_lo, %c8 : index
      %items = arith.muli %num_tokens, %parts : index
      scf.for %v = %bid to %items step %c512 {
        %t = arith.divui %v, %parts : index
        %part = arith.remui %v, %parts : index
        %seq_i32 = memref.load %tok_seq[%t] : memref<?xi32>
        %seq = arith.index_cast %seq_i32 : i32 to index
        %len_i32 = memref.load %kv_len[%t] : memref<?xi32>
        %len_any = arith.index_cast %len_i32 : i32 to index
        // A negative window is empty (as an scf.for to it would be).
        %len = arith.maxsi %len_any, %c0 : index
        %len_up = arith.addi %len, %block_k : index
        %len_up1 = arith.subi %len_up, %c1 : index
        %tiles = arith.divui %len_up1, %block_k : index
        %has_work = arith.cmpi ult, %part, %tiles : index
        scf.if %has_work {

          // Decode q[t] into LDS, transposed. 4096 bytes and 256 scales per
          // token; scale block b is head b % heads, dimensions 32 (b / heads)
          // onwards, so the lanes of a warp store consecutive heads.
          %q_row = arith.muli %t, %c4096 : index
          %qs_row = arith.muli %t, %c256 : index
          scf.for %e = %tid32 to %qk_elems step %c8192 {
            %blk = arith.divui %e, %c32 : index
            %qh = arith.remui %blk, %heads : index
            %qc = arith.divui %blk, %heads : index
            %qh64 = arith.muli %qh, %c64 : index
            %qc16 = arith.muli %qc, %c16 : index
            %qoff = arith.addi %qh64, %qc16 : index
            %qaddr = arith.addi %q_row, %qoff : index
            %qbytes = vector.load %q[%qaddr] {alignment = 16} : memref<?xi8>, vector<16xi8>
            %qwords = vector.bitcast %qbytes : vector<16xi8> to vector<4xi32>
            %qh4 = arith.muli %qh, %c4 : index
            %sidx0 = arith.addi %qs_row, %qh4 : index
            %sidx = arith.addi %sidx0, %qc : index
            %s = memref.load %q_scale[%sidx] : memref<?xi8>
            %sf = func.call @e8m0(%s) : (i8) -> f32
            %qd0 = arith.muli %qc, %c32 : index
            %qd1 = arith.addi %qd0, %c8 : index
            %qd2 = arith.addi %qd0, %c16 : index
            %qd3 = arith.addi %qd0, %c24 : index
            %qb0m = arith.muli %qd0, %heads : index
            %qb1m = arith.muli %qd1, %heads : index
            %qb2m = arith.muli %qd2, %heads : index
            %qb3m = arith.muli %qd3, %heads : index
            %qb0 = arith.addi %qb0m, %qh : index
            %qb1 = arith.addi %qb1m, %qh : index
            %qb2 = arith.addi %qb2m, %qh : index
            %qb3 = arith.addi %qb3m, %qh : index
            %x0 = vector.extract %qwords[0] : i32 from vector<4xi32>
            %x1 = vector.extract %qwords[1] : i32 from vector<4xi32>
            %x2 = vector.extract %qwords[2] : i32 from vector<4xi32>
            %x3 = vector.extract %qwords[3] : i32 from vector<4xi32>
            %v0 = func.call @decode_word(%x0, %sf) : (i32, f32) -> vector<8xf32>
            %v1 = func.call @decode_word(%x1, %sf) : (i32, f32) -> vector<8xf32>
            %v2 = func.call @decode_word(%x2, %sf) : (i32, f32) -> vector<8xf32>
            %v3 = func.call @decode_word(%x3, %sf) : (i32, f32) -> vector<8xf32>
            func.call @store_q_column(%v0, %q_lds, %qb0)
                : (vector<8xf32>, memref<8192xf32, 3>, index) -> ()
            func.call @store_q_column(%v1, %q_lds, %qb1)
                : (vector<8xf32>, memref<8192xf32, 3>, index) -> ()
            func.call @store_q_column(%v2, %q_lds, %qb2)
                : (vector<8xf32>, memref<8192xf32, 3>, index) -> ()
            func.call @store_q_column(%v3, %q_lds, %qb3)
                : (vector<8xf32>, memref<8192xf32, 3>, index) -> ()
          }
          gpu.barrier

          // The block-table row in i32, as the table's own indices are: a
          // table of fewer than 2^31 entries (memref<?xi32>) cannot overflow
          // it. A 64-bit multiply by the hoisted width would make the
          // hoisted kernel's register allocation differ from the specialized
          // one's (a shift) across the whole unrolled tile (bench/RESULTS.md).
          %width_i32 = arith.index_cast %width : index to i32
          %bt_row_i32 = arith.muli %seq_i32, %width_i32 overflow<nsw> : i32
          %bt_row = arith.index_cast %bt_row_i32 : i32 to index
          %out_row = arith.muli %t, %logits_stride : index
          %chunks = arith.divui %head_dim, %c16 : index
          %w_row = arith.muli %t, %heads : index
          scf.for %tile = %part to %tiles step %parts {
            %kb = arith.muli %tile, %block_k : index
            // The K row this thread decodes: position kb + tid, its page read
            // from the block table (64 threads read each entry: one L1 line).
            // Past the window it decodes the sequence's first row instead.
            %jd = arith.addi %kb, %tid : index
            %jd_ok = arith.cmpi ult, %jd, %len : index
            %jd_safe = arith.select %jd_ok, %jd, %c0 : index
            %bt_col = arith.divui %jd_safe, %page_size : index
            %k_slot = arith.remui %jd_safe, %page_size : index
            %bt_idx = arith.addi %bt_row, %bt_col : index
            %phys_i32 = memref.load %block_table[%bt_idx] : memref<?xi32>
            %phys = arith.index_cast %phys_i32 : i32 to index
            %page_base = arith.muli %phys, %page_size : index
            %kv_row = arith.addi %page_base, %k_slot : index
            %kaddr = arith.muli %kv_row, %c64 : index
            %saddr = arith.muli %kv_row, %c4 : index
            %kw_first = vector.load %kv[%kaddr] {alignment = 8} : memref<?xi8>, vector<8xi8>
            %ks_first = memref.load %kv_scale[%saddr] : memref<?xi8>
            // Does this warp hold any position inside the window?
            %warp_first = arith.addi %kb, %warp_pos : index
            %active = arith.cmpi ult, %warp_first, %len : index

            %acc:10 = scf.for %dc = %c0 to %chunks step %c1
                iter_args(%a0 = %zero8, %a1 = %zero8, %a2 = %zero8, %a3 = %zero8,
                          %a4 = %zero8, %a5 = %zero8, %a6 = %zero8, %a7 = %zero8,
                          %kw = %kw_first, %ks = %ks_first)
                -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>,
                    vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>,
                    vector<8xi8>, i8) {
              // Decode this chunk's 16 values of the thread's row.
              %kx2 = vector.bitcast %kw : vector<8xi8> to vector<2xi32>
              %kx0 = vector.extract %kx2[0] : i32 from vector<2xi32>
              %kx1 = vector.extract %kx2[1] : i32 from vector<2xi32>
              %ksf = func.call @e8m0(%ks) : (i8) -> f32
              %kv0 = func.call @decode_word(%kx0, %ksf) : (i32, f32) -> vector<8xf32>
              %kv1 = func.call @decode_word(%kx1, %ksf) : (i32, f32) -> vector<8xf32>
              %tid_hi = arith.addi %tid, %c2048 : index
              func.call @store_k_column(%kv0, %k_lds, %tid)
                  : (vector<8xf32>, memref<4096xf32, 3>, index) -> ()
              func.call @store_k_column(%kv1, %k_lds, %tid_hi)
                  : (vector<8xf32>, memref<4096xf32, 3>, index) -> ()
              // The next chunk's bytes (the last chunk reloads its own).
              %dn0 = arith.addi %dc, %c1 : index
              %dlast = arith.subi %chunks, %c1 : index
              %dn = arith.minui %dn0, %dlast : index
              %dn8 = arith.muli %dn, %c8 : index
              %kaddr_n = arith.addi %kaddr, %dn8 : index
              %kw_n = vector.load %kv[%kaddr_n] {alignment = 8} : memref<?xi8>, vector<8xi8>
              %dn_blk = arith.divui %dn, %c2 : index
              %saddr_n = arith.addi %saddr, %dn_blk : index
              %ks_n = memref.load %kv_scale[%saddr_n] : memref<?xi8>
              gpu.barrier

              %d0 = arith.muli %dc, %c16 : index
              %prod:8 = scf.if %active
                  -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>,
                      vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
                %qrow = arith.muli %d0, %heads : index
                %qi = arith.addi %qrow, %h_lo : index
                %r:8 = func.call @fma_chunk(%q_lds, %k_lds, %qi, %pos_lo,
                                            %a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7)
                    : (memref<8192xf32, 3>, memref<4096xf32, 3>, index, index,
                       vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>,
                       vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
                    -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>,
                        vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
                scf.yield %r#0, %r#1, %r#2, %r#3, %r#4, %r#5, %r#6, %r#7
                    : vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>,
                      vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>
              } else {
                scf.yield %a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7
                    : vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>,
                      vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>
              }
              gpu.barrier
              scf.yield %prod#0, %prod#1, %prod#2, %prod#3, %prod#4, %prod#5,
                        %prod#6, %prod#7, %kw_n, %ks_n
                  : vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>,
                    vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>,
                    vector<8xi8>, i8
            }

            // sum over the lane's 8 heads of w[h] * relu(dot), per position.
            %wi_lo = arith.addi %w_row, %h_lo : index
            %wi_hi = arith.addi %w_row, %h_hi : index
            %w16_lo = vector.load %weights[%wi_lo] {alignment = 8} : memref<?xbf16>, vector<4xbf16>
            %w16_hi = vector.load %weights[%wi_hi] {alignment = 8} : memref<?xbf16>, vector<4xbf16>
            %w32_lo = arith.extf %w16_lo : vector<4xbf16> to vector<4xf32>
            %w32_hi = arith.extf %w16_hi : vector<4xbf16> to vector<4xf32>
            %w0 = vector.extract %w32_lo[0] : f32 from vector<4xf32>
            %w1 = vector.extract %w32_lo[1] : f32 from vector<4xf32>
            %w2 = vector.extract %w32_lo[2] : f32 from vector<4xf32>
            %w3 = vector.extract %w32_lo[3] : f32 from vector<4xf32>
            %w4 = vector.extract %w32_hi[0] : f32 from vector<4xf32>
            %w5 = vector.extract %w32_hi[1] : f32 from vector<4xf32>
            %w6 = vector.extract %w32_hi[2] : f32 from vector<4xf32>
            %w7 = vector.extract %w32_hi[3] : f32 from vector<4xf32>
            %p0 = func.call @weigh(%acc#0, %w0, %zero8) : (vector<8xf32>, f32, vector<8xf32>) -> vector<8xf32>
            %p1 = func.call @weigh(%acc#1, %w1, %p0) : (vector<8xf32>, f32, vector<8xf32>) -> vector<8xf32>
            %p2 = func.call @weigh(%acc#2, %w2, %p1) : (vector<8xf32>, f32, vector<8xf32>) -> vector<8xf32>
            %p3 = func.call @weigh(%acc#3, %w3, %p2) : (vector<8xf32>, f32, vector<8xf32>) -> vector<8xf32>
            %p4 = func.call @weigh(%acc#4, %w4, %p3) : (vector<8xf32>, f32, vector<8xf32>) -> vector<8xf32>
            %p5 = func.call @weigh(%acc#5, %w5, %p4) : (vector<8xf32>, f32, vector<8xf32>) -> vector<8xf32>
            %p6 = func.call @weigh(%acc#6, %w6, %p5) : (vector<8xf32>, f32, vector<8xf32>) -> vector<8xf32>
            %p7 = func.call @weigh(%acc#7, %w7, %p6) : (vector<8xf32>, f32, vector<8xf32>) -> vector<8xf32>

            // Across the 8 lanes that share these positions: halve and swap
            // (lane distance 4, 2, 1); each lane keeps the half its bit picks.
            %h4 = func.call @exchange_half(%p7, %g_bit2, %c4_i32)
                : (vector<8xf32>, i1, i32) -> vector<4xf32>
            %h2 = func.call @exchange_half4(%h4, %g_bit1, %c2_i32)
                : (vector<4xf32>, i1, i32) -> vector<2xf32>
            %h2a = vector.extract %h2[0] : f32 from vector<2xf32>
            %h2b = vector.extract %h2[1] : f32 from vector<2xf32>
            %keep1 = arith.select %g_bit0, %h2b, %h2a : f32
            %send1 = arith.select %g_bit0, %h2a, %h2b : f32
            %recv1, %ok1 = gpu.shuffle xor %send1, %c1_i32, %c32_i32 : f32
            %total = arith.addf %keep1, %recv1 : f32

            %j = arith.addi %kb, %my_pos : index
            %valid = arith.cmpi ult, %j, %len : index
            scf.if %valid {
              %oidx = arith.addi %out_row, %j : index
              memref.store %total, %logits[%oidx] : memref<?xf32>
            }
          }
        }
      }
      gpu.return
    }

    // 4 FP4 bytes (8 values, low nibble first) times a scale. Nibble m sits
    // at bits 4m..4m+3: its exponent and mantissa bits go to f32 bits
    // 24..22, its sign to bit 31, giving the value times 2^-126.
    func.func private @decode_word(%x: i32, %scale: f32) -> vector<8xf32>
        attributes {llvm.linkage = #llvm.linkage<internal>,
                    passthrough = ["alwaysinline"]} {
      %xs = vector.broadcast %x : i32 to vector<8xi32>
      %mag_shl = arith.constant dense<[22, 18, 14, 10, 6, 2, 0, 0]> : vector<8xi32>
      %mag_shr = arith.constant dense<[0, 0, 0, 0, 0, 0, 2, 6]> : vector<8xi32>
      %sign_shl = arith.constant dense<[28, 24, 20, 16, 12, 8, 4, 0]> : vector<8xi32>
      %mag_mask = arith.constant dense<0x01C00000> : vector<8xi32>
      %sign_mask = arith.constant dense<0x80000000> : vector<8xi32>
      %m_hi = arith.shli %xs, %mag_shl : vector<8xi32>
      %m_at = arith.shrui %m_hi, %mag_shr : vector<8xi32>
      %mag = arith.andi %m_at, %mag_mask : vector<8xi32>
      %s_at = arith.shli %xs, %sign_shl : vector<8xi32>
      %sign = arith.andi %s_at, %sign_mask : vector<8xi32>
      %bits = arith.ori %mag, %sign : vector<8xi32>
      %tiny = arith.bitcast %bits : vector<8xi32> to vector<8xf32>
      // 2^126: the e2m1 value itself.
      %two126 = arith.constant dense<0x7E800000> : vector<8xf32>
      %val = arith.mulf %tiny, %two126 : vector<8xf32>
      %splat = vector.broadcast %scale : f32 to vector<8xf32>
      %scaled = arith.mulf %val, %splat : vector<8xf32>
      return %scaled : vector<8xf32>
    }

    // The 16 dimensions of a chunk, unrolled: dimension k reads Q at
    // qi + 64 k (stride heads) and K at ki + 256 k (stride block_k).
    func.func private @fma_chunk(%q_lds: memref<8192xf32, 3>, %k_lds: memref<4096xf32, 3>,
                                 %qi: index, %ki: index,
                                 %b0: vector<8xf32>, %b1: vector<8xf32>,
                                 %b2: vector<8xf32>, %b3: vector<8xf32>,
                                 %b4: vector<8xf32>, %b5: vector<8xf32>,
                                 %b6: vector<8xf32>, %b7: vector<8xf32>)
        -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>,
                   vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
        attributes {llvm.linkage = #llvm.linkage<internal>,
                    passthrough = ["alwaysinline"]} {
      %cq1 = arith.constant 64 : index
      %ck1 = arith.constant 256 : index
      %cq2 = arith.constant 128 : index
      %ck2 = arith.constant 512 : index
      %cq3 = arith.constant 192 : index
      %ck3 = arith.constant 768 : index
      %cq4 = arith.constant 256 : index
      %ck4 = arith.constant 1024 : index
      %cq5 = arith.constant 320 : index
      %ck5 = arith.constant 1280 : index
      %cq6 = arith.constant 384 : index
      %ck6 = arith.constant 1536 : index
      %cq7 = arith.constant 448 : index
      %ck7 = arith.constant 1792 : index
      %cq8 = arith.constant 512 : index
      %ck8 = arith.constant 2048 : index
      %cq9 = arith.constant 576 : index
      %ck9 = arith.constant 2304 : index
      %cq10 = arith.constant 640 : index
      %ck10 = arith.constant 2560 : index
      %cq11 = arith.constant 704 : index
      %ck11 = arith.constant 2816 : index
      %cq12 = arith.constant 768 : index
      %ck12 = arith.constant 3072 : index
      %cq13 = arith.constant 832 : index
      %ck13 = arith.constant 3328 : index
      %cq14 = arith.constant 896 : index
      %ck14 = arith.constant 3584 : index
      %cq15 = arith.constant 960 : index
      %ck15 = arith.constant 3840 : index
      %s0:8 = func.call @fma_step(%q_lds, %k_lds, %qi, %ki, %b0, %b1, %b2, %b3, %b4, %b5, %b6, %b7)
          : (memref<8192xf32, 3>, memref<4096xf32, 3>, index, index, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
          -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
      %qi1 = arith.addi %qi, %cq1 : index
      %ki1 = arith.addi %ki, %ck1 : index
      %s1:8 = func.call @fma_step(%q_lds, %k_lds, %qi1, %ki1, %s0#0, %s0#1, %s0#2, %s0#3, %s0#4, %s0#5, %s0#6, %s0#7)
          : (memref<8192xf32, 3>, memref<4096xf32, 3>, index, index, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
          -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
      %qi2 = arith.addi %qi, %cq2 : index
      %ki2 = arith.addi %ki, %ck2 : index
      %s2:8 = func.call @fma_step(%q_lds, %k_lds, %qi2, %ki2, %s1#0, %s1#1, %s1#2, %s1#3, %s1#4, %s1#5, %s1#6, %s1#7)
          : (memref<8192xf32, 3>, memref<4096xf32, 3>, index, index, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
          -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
      %qi3 = arith.addi %qi, %cq3 : index
      %ki3 = arith.addi %ki, %ck3 : index
      %s3:8 = func.call @fma_step(%q_lds, %k_lds, %qi3, %ki3, %s2#0, %s2#1, %s2#2, %s2#3, %s2#4, %s2#5, %s2#6, %s2#7)
          : (memref<8192xf32, 3>, memref<4096xf32, 3>, index, index, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
          -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
      %qi4 = arith.addi %qi, %cq4 : index
      %ki4 = arith.addi %ki, %ck4 : index
      %s4:8 = func.call @fma_step(%q_lds, %k_lds, %qi4, %ki4, %s3#0, %s3#1, %s3#2, %s3#3, %s3#4, %s3#5, %s3#6, %s3#7)
          : (memref<8192xf32, 3>, memref<4096xf32, 3>, index, index, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
          -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
      %qi5 = arith.addi %qi, %cq5 : index
      %ki5 = arith.addi %ki, %ck5 : index
      %s5:8 = func.call @fma_step(%q_lds, %k_lds, %qi5, %ki5, %s4#0, %s4#1, %s4#2, %s4#3, %s4#4, %s4#5, %s4#6, %s4#7)
          : (memref<8192xf32, 3>, memref<4096xf32, 3>, index, index, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
          -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
      %qi6 = arith.addi %qi, %cq6 : index
      %ki6 = arith.addi %ki, %ck6 : index
      %s6:8 = func.call @fma_step(%q_lds, %k_lds, %qi6, %ki6, %s5#0, %s5#1, %s5#2, %s5#3, %s5#4, %s5#5, %s5#6, %s5#7)
          : (memref<8192xf32, 3>, memref<4096xf32, 3>, index, index, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
          -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
      %qi7 = arith.addi %qi, %cq7 : index
      %ki7 = arith.addi %ki, %ck7 : index
      %s7:8 = func.call @fma_step(%q_lds, %k_lds, %qi7, %ki7, %s6#0, %s6#1, %s6#2, %s6#3, %s6#4, %s6#5, %s6#6, %s6#7)
          : (memref<8192xf32, 3>, memref<4096xf32, 3>, index, index, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
          -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
      %qi8 = arith.addi %qi, %cq8 : index
      %ki8 = arith.addi %ki, %ck8 : index
      %s8:8 = func.call @fma_step(%q_lds, %k_lds, %qi8, %ki8, %s7#0, %s7#1, %s7#2, %s7#3, %s7#4, %s7#5, %s7#6, %s7#7)
          : (memref<8192xf32, 3>, memref<4096xf32, 3>, index, index, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
          -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
      %qi9 = arith.addi %qi, %cq9 : index
      %ki9 = arith.addi %ki, %ck9 : index
      %s9:8 = func.call @fma_step(%q_lds, %k_lds, %qi9, %ki9, %s8#0, %s8#1, %s8#2, %s8#3, %s8#4, %s8#5, %s8#6, %s8#7)
          : (memref<8192xf32, 3>, memref<4096xf32, 3>, index, index, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
          -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
      %qi10 = arith.addi %qi, %cq10 : index
      %ki10 = arith.addi %ki, %ck10 : index
      %s10:8 = func.call @fma_step(%q_lds, %k_lds, %qi10, %ki10, %s9#0, %s9#1, %s9#2, %s9#3, %s9#4, %s9#5, %s9#6, %s9#7)
          : (memref<8192xf32, 3>, memref<4096xf32, 3>, index, index, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
          -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
      %qi11 = arith.addi %qi, %cq11 : index
      %ki11 = arith.addi %ki, %ck11 : index
      %s11:8 = func.call @fma_step(%q_lds, %k_lds, %qi11, %ki11, %s10#0, %s10#1, %s10#2, %s10#3, %s10#4, %s10#5, %s10#6, %s10#7)
          : (memref<8192xf32, 3>, memref<4096xf32, 3>, index, index, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
          -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
      %qi12 = arith.addi %qi, %cq12 : index
      %ki12 = arith.addi %ki, %ck12 : index
      %s12:8 = func.call @fma_step(%q_lds, %k_lds, %qi12, %ki12, %s11#0, %s11#1, %s11#2, %s11#3, %s11#4, %s11#5, %s11#6, %s11#7)
          : (memref<8192xf32, 3>, memref<4096xf32, 3>, index, index, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
          -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
      %qi13 = arith.addi %qi, %cq13 : index
      %ki13 = arith.addi %ki, %ck13 : index
      %s13:8 = func.call @fma_step(%q_lds, %k_lds, %qi13, %ki13, %s12#0, %s12#1, %s12#2, %s12#3, %s12#4, %s12#5, %s12#6, %s12#7)
          : (memref<8192xf32, 3>, memref<4096xf32, 3>, index, index, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
          -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
      %qi14 = arith.addi %qi, %cq14 : index
      %ki14 = arith.addi %ki, %ck14 : index
      %s14:8 = func.call @fma_step(%q_lds, %k_lds, %qi14, %ki14, %s13#0, %s13#1, %s13#2, %s13#3, %s13#4, %s13#5, %s13#6, %s13#7)
          : (memref<8192xf32, 3>, memref<4096xf32, 3>, index, index, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
          -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
      %qi15 = arith.addi %qi, %cq15 : index
      %ki15 = arith.addi %ki, %ck15 : index
      %s15:8 = func.call @fma_step(%q_lds, %k_lds, %qi15, %ki15, %s14#0, %s14#1, %s14#2, %s14#3, %s14#4, %s14#5, %s14#6, %s14#7)
          : (memref<8192xf32, 3>, memref<4096xf32, 3>, index, index, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
          -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
      return %s15#0, %s15#1, %s15#2, %s15#3, %s15#4, %s15#5, %s15#6, %s15#7
          : vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>,
                   vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>
    }

    // One dimension of the 8 x 8 block: two 16-byte reads of Q (heads
    // h..h+3, h+32..h+35), two of K (positions p..p+3, p+16..p+19) and 64
    // FMAs into the 8 accumulators (one per head, over the 8 positions).
    func.func private @fma_step(%q_lds: memref<8192xf32, 3>, %k_lds: memref<4096xf32, 3>,
                                %qi: index, %ki: index,
                                %b0: vector<8xf32>, %b1: vector<8xf32>,
                                %b2: vector<8xf32>, %b3: vector<8xf32>,
                                %b4: vector<8xf32>, %b5: vector<8xf32>,
                                %b6: vector<8xf32>, %b7: vector<8xf32>)
        -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>,
            vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
        attributes {llvm.linkage = #llvm.linkage<internal>,
                    passthrough = ["alwaysinline"]} {
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %qi_hi = arith.addi %qi, %c32 : index
      %ki_hi = arith.addi %ki, %c16 : index
      %q_lo = vector.load %q_lds[%qi] {alignment = 16} : memref<8192xf32, 3>, vector<4xf32>
      %q_hi = vector.load %q_lds[%qi_hi] {alignment = 16} : memref<8192xf32, 3>, vector<4xf32>
      %k_lo = vector.load %k_lds[%ki] {alignment = 16} : memref<4096xf32, 3>, vector<4xf32>
      %k_hi = vector.load %k_lds[%ki_hi] {alignment = 16} : memref<4096xf32, 3>, vector<4xf32>
      %k8 = vector.shuffle %k_lo, %k_hi [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xf32>, vector<4xf32>
      %q0 = vector.extract %q_lo[0] : f32 from vector<4xf32>
      %q1 = vector.extract %q_lo[1] : f32 from vector<4xf32>
      %q2 = vector.extract %q_lo[2] : f32 from vector<4xf32>
      %q3 = vector.extract %q_lo[3] : f32 from vector<4xf32>
      %q4 = vector.extract %q_hi[0] : f32 from vector<4xf32>
      %q5 = vector.extract %q_hi[1] : f32 from vector<4xf32>
      %q6 = vector.extract %q_hi[2] : f32 from vector<4xf32>
      %q7 = vector.extract %q_hi[3] : f32 from vector<4xf32>
      %s0 = vector.broadcast %q0 : f32 to vector<8xf32>
      %s1 = vector.broadcast %q1 : f32 to vector<8xf32>
      %s2 = vector.broadcast %q2 : f32 to vector<8xf32>
      %s3 = vector.broadcast %q3 : f32 to vector<8xf32>
      %s4 = vector.broadcast %q4 : f32 to vector<8xf32>
      %s5 = vector.broadcast %q5 : f32 to vector<8xf32>
      %s6 = vector.broadcast %q6 : f32 to vector<8xf32>
      %s7 = vector.broadcast %q7 : f32 to vector<8xf32>
      %n0 = vector.fma %s0, %k8, %b0 : vector<8xf32>
      %n1 = vector.fma %s1, %k8, %b1 : vector<8xf32>
      %n2 = vector.fma %s2, %k8, %b2 : vector<8xf32>
      %n3 = vector.fma %s3, %k8, %b3 : vector<8xf32>
      %n4 = vector.fma %s4, %k8, %b4 : vector<8xf32>
      %n5 = vector.fma %s5, %k8, %b5 : vector<8xf32>
      %n6 = vector.fma %s6, %k8, %b6 : vector<8xf32>
      %n7 = vector.fma %s7, %k8, %b7 : vector<8xf32>
      return %n0, %n1, %n2, %n3, %n4, %n5, %n6, %n7
          : vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>,
            vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>
    }

    // 8 consecutive dimensions of one head into q_lds (stride heads = 64)
    // and of one position into k_lds (stride block_k = 256): one base
    // address, constant offsets.
    func.func private @store_q_column(%v: vector<8xf32>, %buf: memref<8192xf32, 3>,
                                      %base: index)
        attributes {llvm.linkage = #llvm.linkage<internal>,
                    passthrough = ["alwaysinline"]} {
      %i1 = arith.constant 64 : index
      %i2 = arith.constant 128 : index
      %i3 = arith.constant 192 : index
      %i4 = arith.constant 256 : index
      %i5 = arith.constant 320 : index
      %i6 = arith.constant 384 : index
      %i7 = arith.constant 448 : index
      %a1 = arith.addi %base, %i1 : index
      %a2 = arith.addi %base, %i2 : index
      %a3 = arith.addi %base, %i3 : index
      %a4 = arith.addi %base, %i4 : index
      %a5 = arith.addi %base, %i5 : index
      %a6 = arith.addi %base, %i6 : index
      %a7 = arith.addi %base, %i7 : index
      %e0 = vector.extract %v[0] : f32 from vector<8xf32>
      %e1 = vector.extract %v[1] : f32 from vector<8xf32>
      %e2 = vector.extract %v[2] : f32 from vector<8xf32>
      %e3 = vector.extract %v[3] : f32 from vector<8xf32>
      %e4 = vector.extract %v[4] : f32 from vector<8xf32>
      %e5 = vector.extract %v[5] : f32 from vector<8xf32>
      %e6 = vector.extract %v[6] : f32 from vector<8xf32>
      %e7 = vector.extract %v[7] : f32 from vector<8xf32>
      memref.store %e0, %buf[%base] : memref<8192xf32, 3>
      memref.store %e1, %buf[%a1] : memref<8192xf32, 3>
      memref.store %e2, %buf[%a2] : memref<8192xf32, 3>
      memref.store %e3, %buf[%a3] : memref<8192xf32, 3>
      memref.store %e4, %buf[%a4] : memref<8192xf32, 3>
      memref.store %e5, %buf[%a5] : memref<8192xf32, 3>
      memref.store %e6, %buf[%a6] : memref<8192xf32, 3>
      memref.store %e7, %buf[%a7] : memref<8192xf32, 3>
      return
    }

    func.func private @store_k_column(%v: vector<8xf32>, %buf: memref<4096xf32, 3>,
                                      %base: index)
        attributes {llvm.linkage = #llvm.linkage<internal>,
                    passthrough = ["alwaysinline"]} {
      %i1 = arith.constant 256 : index
      %i2 = arith.constant 512 : index
      %i3 = arith.constant 768 : index
      %i4 = arith.constant 1024 : index
      %i5 = arith.constant 1280 : index
      %i6 = arith.constant 1536 : index
      %i7 = arith.constant 1792 : index
      %a1 = arith.addi %base, %i1 : index
      %a2 = arith.addi %base, %i2 : index
      %a3 = arith.addi %base, %i3 : index
      %a4 = arith.addi %base, %i4 : index
      %a5 = arith.addi %base, %i5 : index
      %a6 = arith.addi %base, %i6 : index
      %a7 = arith.addi %base, %i7 : index
      %e0 = vector.extract %v[0] : f32 from vector<8xf32>
      %e1 = vector.extract %v[1] : f32 from vector<8xf32>
      %e2 = vector.extract %v[2] : f32 from vector<8xf32>
      %e3 = vector.extract %v[3] : f32 from vector<8xf32>
      %e4 = vector.extract %v[4] : f32 from vector<8xf32>
      %e5 = vector.extract %v[5] : f32 from vector<8xf32>
      %e6 = vector.extract %v[6] : f32 from vector<8xf32>
      %e7 = vector.extract %v[7] : f32 from vector<8xf32>
      memref.store %e0, %buf[%base] : memref<4096xf32, 3>
      memref.store %e1, %buf[%a1] : memref<4096xf32, 3>
      memref.store %e2, %buf[%a2] : memref<4096xf32, 3>
      memref.store %e3, %buf[%a3] : memref<4096xf32, 3>
      memref.store %e4, %buf[%a4] : memref<4096xf32, 3>
      memref.store %e5, %buf[%a5] : memref<4096xf32, 3>
      memref.store %e6, %buf[%a6] : memref<4096xf32, 3>
      memref.store %e7, %buf[%a7] : memref<4096xf32, 3>
      return
    }

    // E8M0 s -> 2^(s - 127): the f32 whose exponent field is s.
    func.func private @e8m0(%s: i8) -> f32
        attributes {llvm.linkage = #llvm.linkage<internal>,
                    passthrough = ["alwaysinline"]} {
      %s32 = arith.extui %s : i8 to i32
      %c23 = arith.constant 23 : i32
      %bits = arith.shli %s32, %c23 : i32
      %f = arith.bitcast %bits : i32 to f32
      return %f : f32
    }

    // sum + w * relu(dots), elementwise.
    func.func private @weigh(%dots: vector<8xf32>, %w: f32, %sum: vector<8xf32>)
        -> vector<8xf32> attributes {llvm.linkage = #llvm.linkage<internal>,
                                     passthrough = ["alwaysinline"]} {
      %zero = arith.constant dense<0.0> : vector<8xf32>
      %relu = arith.maximumf %dots, %zero : vector<8xf32>
      %ws = vector.broadcast %w : f32 to vector<8xf32>
      %next = vector.fma %ws, %relu, %sum : vector<8xf32>
      return %next : vector<8xf32>
    }

    // Keeps the half of `v` that `upper` picks, adds the other half of the
    // lane `dist` away (which keeps the opposite half).
    func.func private @exchange_half(%v: vector<8xf32>, %upper: i1, %dist: i32)
        -> vector<4xf32> attributes {llvm.linkage = #llvm.linkage<internal>,
                                     passthrough = ["alwaysinline"]} {
      %c32 = arith.constant 32 : i32
      %lo = vector.shuffle %v, %v [0, 1, 2, 3] : vector<8xf32>, vector<8xf32>
      %hi = vector.shuffle %v, %v [4, 5, 6, 7] : vector<8xf32>, vector<8xf32>
      %keep = arith.select %upper, %hi, %lo : vector<4xf32>
      %send = arith.select %upper, %lo, %hi : vector<4xf32>
      %e0 = vector.extract %send[0] : f32 from vector<4xf32>
      %e1 = vector.extract %send[1] : f32 from vector<4xf32>
      %e2 = vector.extract %send[2] : f32 from vector<4xf32>
      %e3 = vector.extract %send[3] : f32 from vector<4xf32>
      %r0, %o0 = gpu.shuffle xor %e0, %dist, %c32 : f32
      %r1, %o1 = gpu.shuffle xor %e1, %dist, %c32 : f32
      %r2, %o2 = gpu.shuffle xor %e2, %dist, %c32 : f32
      %r3, %o3 = gpu.shuffle xor %e3, %dist, %c32 : f32
      %u = vector.from_elements %r0, %r1, %r2, %r3 : vector<4xf32>
      %sum = arith.addf %keep, %u : vector<4xf32>
      return %sum : vector<4xf32>
    }

    // The same on 4 values.
    func.func private @exchange_half4(%v: vector<4xf32>, %upper: i1, %dist: i32)
        -> vector<2xf32> attributes {llvm.linkage = #llvm.linkage<internal>,
                                     passthrough = ["alwaysinline"]} {
      %c32 = arith.constant 32 : i32
      %lo = vector.shuffle %v, %v [0, 1] : vector<4xf32>, vector<4xf32>
      %hi = vector.shuffle %v, %v [2, 3] : vector<4xf32>, vector<4xf32>
      %keep = arith.select %upper, %hi, %lo : vector<2xf32>
      %send = arith.select %upper, %lo, %hi : vector<2xf32>
      %e0 = vector.extract %send[0] : f32 from vector<2xf32>
      %e1 = vector.extract %send[1] : f32 from vector<2xf32>
      %r0, %o0 = gpu.shuffle xor %e0, %dist, %c32 : f32
      %r1, %o1 = gpu.shuffle xor %e1, %dist, %c32 : f32
      %u = vector.from_elements %r0, %r1 : vector<2xf32>
      %sum = arith.addf %keep, %u : vector<2xf32>
      return %sum : vector<2xf32>
    }
  }

  // Host side: what a DSL launcher emits for one call.
  func.func @launch_paged_fp4_mqa_logits(
      %q: memref<?xi8>, %q_scale: memref<?xi8>,
      %kv: memref<?xi8>, %kv_scale: memref<?xi8>,
      %block_table: memref<?xi32>, %weights: memref<?xbf16>,
      %tok_seq: memref<?xi32>, %kv_len: memref<?xi32>,
      %logits: memref<?xf32>, %num_tokens: index, %logits_stride: index) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %c512 = arith.constant 512 : index
    gpu.launch_func @kernels::@paged_fp4_mqa_logits
        blocks in (%c512, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%q : memref<?xi8>, %q_scale : memref<?xi8>,
             %kv : memref<?xi8>, %kv_scale : memref<?xi8>,
             %block_table : memref<?xi32>, %weights : memref<?xbf16>,
             %tok_seq : memref<?xi32>, %kv_len : memref<?xi32>,
             %logits : memref<?xf32>, %num_tokens : index,
             %logits_stride : index)
    return
  }
}
