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
// One workgroup per query token at a time (grid-stride over T). The token's
// Q is decoded once into LDS (32 KiB f32), with its weights; every tile of
// block_k KV positions gives one position to each thread. The block table is
// read once per page: one thread per page of the tile loads the physical page
// into LDS. Each thread then loads its 64-byte K row with 16-byte vector
// loads (adjacent threads read adjacent rows of the same page: coalesced),
// decodes it into 128 f32 registers and runs the 64 head dot products
// against Q broadcast from LDS.
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
        workgroup(%q_lds: memref<8192xf32, 3>, %w_lds: memref<64xf32, 3>,
                  %page_lds: memref<4xi32, 3>)
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
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c48 = arith.constant 48 : index
      %c64 = arith.constant 64 : index
      %c96 = arith.constant 96 : index
      %c256 = arith.constant 256 : index
      %c512 = arith.constant 512 : index
      %c4096 = arith.constant 4096 : index
      %c8192 = arith.constant 8192 : index
      %zero = arith.constant 0.0 : f32

      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      // Q decode: thread tid owns one scale block of 32 values per step.
      %tid32 = arith.muli %tid, %c32 : index
      %qk_elems = arith.muli %heads, %head_dim : index

      scf.for %t = %bid to %num_tokens step %c512 {
        %seq_i32 = memref.load %tok_seq[%t] : memref<?xi32>
        %seq = arith.index_cast %seq_i32 : i32 to index
        %len_i32 = memref.load %kv_len[%t] : memref<?xi32>
        %len = arith.index_cast %len_i32 : i32 to index

        // Decode q[t] into LDS. 4096 bytes and 256 scales per token.
        %q_row = arith.muli %t, %c4096 : index
        %qs_row = arith.muli %t, %c256 : index
        scf.for %e = %tid32 to %qk_elems step %c8192 {
          %blk = arith.divui %e, %c32 : index
          %byte_off = arith.muli %blk, %c16 : index
          %qaddr = arith.addi %q_row, %byte_off : index
          %qbytes = vector.load %q[%qaddr] : memref<?xi8>, vector<16xi8>
          %sidx = arith.addi %qs_row, %blk : index
          %s = memref.load %q_scale[%sidx] : memref<?xi8>
          %vals = func.call @decode_block(%qbytes, %s)
              : (vector<16xi8>, i8) -> vector<32xf32>
          vector.store %vals, %q_lds[%e] : memref<8192xf32, 3>, vector<32xf32>
        }
        // Per-head weights, bf16 -> f32.
        %is_head = arith.cmpi ult, %tid, %heads : index
        scf.if %is_head {
          %w_row = arith.muli %t, %heads : index
          %widx = arith.addi %w_row, %tid : index
          %w16 = memref.load %weights[%widx] : memref<?xbf16>
          %w32 = arith.extf %w16 : bf16 to f32
          memref.store %w32, %w_lds[%tid] : memref<64xf32, 3>
        }
        gpu.barrier

        %bt_row = arith.muli %seq, %width : index
        %pages_per_tile = arith.divui %block_k, %page_size : index
        %out_row = arith.muli %t, %logits_stride : index
        scf.for %kb = %c0 to %len step %block_k {
          // The block table, once per page of the tile.
          %first_page = arith.divui %kb, %page_size : index
          %is_reader = arith.cmpi ult, %tid, %pages_per_tile : index
          %tok0 = arith.muli %tid, %page_size : index
          %pos0 = arith.addi %kb, %tok0 : index
          %in_window = arith.cmpi ult, %pos0, %len : index
          %read = arith.andi %is_reader, %in_window : i1
          scf.if %read {
            %bt_col = arith.addi %first_page, %tid : index
            %bt_idx = arith.addi %bt_row, %bt_col : index
            %page = memref.load %block_table[%bt_idx] : memref<?xi32>
            memref.store %page, %page_lds[%tid] : memref<4xi32, 3>
          }
          gpu.barrier

          %j = arith.addi %kb, %tid : index
          %valid = arith.cmpi ult, %j, %len : index
          scf.if %valid {
            %local_page = arith.divui %tid, %page_size : index
            %slot = arith.remui %tid, %page_size : index
            %phys_i32 = memref.load %page_lds[%local_page] : memref<4xi32, 3>
            %phys = arith.index_cast %phys_i32 : i32 to index
            %page_base = arith.muli %phys, %page_size : index
            %kv_row = arith.addi %page_base, %slot : index
            %kaddr = arith.muli %kv_row, %c64 : index
            %saddr = arith.muli %kv_row, %c4 : index
            %kscales = vector.load %kv_scale[%saddr] : memref<?xi8>, vector<4xi8>

            %ka0 = arith.addi %kaddr, %c0 : index
            %ka1 = arith.addi %kaddr, %c16 : index
            %ka2 = arith.addi %kaddr, %c32 : index
            %ka3 = arith.addi %kaddr, %c48 : index
            %kb0 = vector.load %kv[%ka0] : memref<?xi8>, vector<16xi8>
            %kb1 = vector.load %kv[%ka1] : memref<?xi8>, vector<16xi8>
            %kb2 = vector.load %kv[%ka2] : memref<?xi8>, vector<16xi8>
            %kb3 = vector.load %kv[%ka3] : memref<?xi8>, vector<16xi8>
            %ks0 = vector.extract %kscales[0] : i8 from vector<4xi8>
            %ks1 = vector.extract %kscales[1] : i8 from vector<4xi8>
            %ks2 = vector.extract %kscales[2] : i8 from vector<4xi8>
            %ks3 = vector.extract %kscales[3] : i8 from vector<4xi8>
            %k0 = func.call @decode_block(%kb0, %ks0) : (vector<16xi8>, i8) -> vector<32xf32>
            %k1 = func.call @decode_block(%kb1, %ks1) : (vector<16xi8>, i8) -> vector<32xf32>
            %k2 = func.call @decode_block(%kb2, %ks2) : (vector<16xi8>, i8) -> vector<32xf32>
            %k3 = func.call @decode_block(%kb3, %ks3) : (vector<16xi8>, i8) -> vector<32xf32>

            %acc = scf.for %h = %c0 to %heads step %c1 iter_args(%sum = %zero) -> (f32) {
              %qbase = arith.muli %h, %head_dim : index
              %qa1 = arith.addi %qbase, %c32 : index
              %qa2 = arith.addi %qbase, %c64 : index
              %qa3 = arith.addi %qbase, %c96 : index
              %q0 = vector.load %q_lds[%qbase] : memref<8192xf32, 3>, vector<32xf32>
              %q1 = vector.load %q_lds[%qa1] : memref<8192xf32, 3>, vector<32xf32>
              %q2 = vector.load %q_lds[%qa2] : memref<8192xf32, 3>, vector<32xf32>
              %q3 = vector.load %q_lds[%qa3] : memref<8192xf32, 3>, vector<32xf32>
              %p0 = arith.mulf %q0, %k0 fastmath<contract> : vector<32xf32>
              %p1 = vector.fma %q1, %k1, %p0 : vector<32xf32>
              %p2 = vector.fma %q2, %k2, %p1 : vector<32xf32>
              %p3 = vector.fma %q3, %k3, %p2 : vector<32xf32>
              %dot = vector.reduction <add>, %p3 fastmath<reassoc, contract> : vector<32xf32> into f32
              %relu = arith.maximumf %dot, %zero : f32
              %w = memref.load %w_lds[%h] : memref<64xf32, 3>
              %next = math.fma %w, %relu, %sum : f32
              scf.yield %next : f32
            }
            %oidx = arith.addi %out_row, %j : index
            memref.store %acc, %logits[%oidx] : memref<?xf32>
          }
          gpu.barrier
        }
      }
      gpu.return
    }

    // FP4 e2m1 x 32 (16 bytes, low nibble first) times an E8M0 scale.
    // e2m1 magnitude m = n & 7 in units of 0.5: m < 4 ? m : (2 | m & 1) << (m/2 - 1),
    // i.e. {0, 1, 2, 3, 4, 6, 8, 12}; bit 3 is the sign. E8M0 s is 2^(s - 127).
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
