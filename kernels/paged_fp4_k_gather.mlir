// Decode-side paged FP4 K gather: the memory-bound paged kernel.
//
//   out[start[b] + j, :] = bf16(K(row(b, j)))                for j < seq_len[b]
//   row(b, j) = block_table[b * max_blocks_per_seq + j / 64] * 64 + j % 64
//
// Each sequence's K rows are read through its row of the block table (pages
// of 64 tokens in a shared pool, in any order), dequantized from FP4 e2m1
// (two values per byte, low nibble first) with one E8M0 scale per 32 values,
// and written as one contiguous bf16 matrix (the layout a dense attention or
// indexer kernel reads). Nothing is computed on the values beyond the decode:
// the kernel moves 68 bytes in and 256 bytes out per token, so its ceiling is
// the memory bandwidth.
//
// Memory layouts (row-major, flat memrefs as a DSL passes raw buffers):
//   kv          i8   [pages, page_size, 64]   FP4, 128 values per row
//   kv_scale    i8   [pages, page_size, 4]    E8M0, 2^(s - 127)
//   block_table i32  [B, max_blocks_per_seq]
//   seq_len     i32  [B]                      tokens of each sequence
//   out_start   i32  [B]                      first output row of each sequence
//   out         bf16 [rows, 128]
//
// Grid: blocks (B, splits), 256 threads. Block (b, s) handles pages s,
// s + splits, ... of sequence b; `splits` is chosen by the launcher from the
// sequence lengths, not from the table width, and passed as an argument too
// (gpu.grid_dim would need the ROCm device library on AMDGPU). One page is 1024 words of 4
// FP4 bytes (8 values, a 16-byte bf16 output chunk); thread t takes words
// t, t + 256, t + 512, t + 768, so each warp load reads 128 contiguous bytes
// and each warp store writes 512 contiguous bytes. The four loads of a page
// are issued before the first store. Rows past the sequence's end re-read
// row 0 of the page (a word another thread loads anyway: no extra DRAM
// traffic) and are not written.
//
// Decode, exact (the product of two powers of two and an e2m1 value): the
// nibble's exponent and mantissa bits placed at f32 bits 24..22 and its sign
// at bit 31 give the e2m1 value times 2^-126 (denormal for the two smallest
// magnitudes), so one multiply by 2^126 then one by the scale give the value.
// Scales from 2 to 254 and their products are normal f32 and exact in bf16
// (at most 2 mantissa bits); 12 * 2^127 overflows to inf as in f32.
//
// Specialization parameters: `max_blocks_per_seq` is only the block-table row
// stride and is hoisted; `page_size` divides the sequence length and stays.
// The width literal appears once, on the `max_blocks_per_seq` line
// (bench/common.py: kernel_with_width rewrites it).

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @paged_fp4_k_gather(
        %kv: memref<?xi8>, %kv_scale: memref<?xi8>,
        %block_table: memref<?xi32>, %seq_len: memref<?xi32>,
        %out_start: memref<?xi32>, %out: memref<?xbf16>, %splits: index)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %width = spec.param "max_blocks_per_seq" = 128 : index
      %page_size = spec.param "page_size" = 64 : index

      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c48 = arith.constant 48 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index

      %tid = gpu.thread_id x
      %b = gpu.block_id x
      %split = gpu.block_id y

      %len_i32 = memref.load %seq_len[%b] : memref<?xi32>
      %len_any = arith.index_cast %len_i32 : i32 to index
      // A negative length is an empty sequence.
      %len = arith.maxsi %len_any, %c0 : index
      %start_i32 = memref.load %out_start[%b] : memref<?xi32>
      %start = arith.index_cast %start_i32 : i32 to index
      %last = arith.subi %page_size, %c1 : index
      %len_up = arith.addi %len, %last : index
      %npages = arith.divui %len_up, %page_size : index
      %bt_row = arith.muli %b, %width : index

      // The thread's column of words (8 values each) and its first row.
      %col = arith.remui %tid, %c16 : index
      %row0 = arith.divui %tid, %c16 : index
      %row1 = arith.addi %row0, %c16 : index
      %row2 = arith.addi %row0, %c32 : index
      %row3 = arith.addi %row0, %c48 : index
      %byte_col = arith.muli %col, %c4 : index
      %scale_col = arith.divui %col, %c4 : index
      %out_col = arith.muli %col, %c8 : index

      scf.for %p = %split to %npages step %splits {
        %bt_idx = arith.addi %bt_row, %p : index
        %phys_i32 = memref.load %block_table[%bt_idx] : memref<?xi32>
        %phys = arith.index_cast %phys_i32 : i32 to index
        %page_row = arith.muli %phys, %page_size : index
        %tok0 = arith.muli %p, %page_size : index
        %rows = arith.subi %len, %tok0 : index

        %ok0 = arith.cmpi ult, %row0, %rows : index
        %ok1 = arith.cmpi ult, %row1, %rows : index
        %ok2 = arith.cmpi ult, %row2, %rows : index
        %ok3 = arith.cmpi ult, %row3, %rows : index
        %r0 = arith.select %ok0, %row0, %c0 : index
        %r1 = arith.select %ok1, %row1, %c0 : index
        %r2 = arith.select %ok2, %row2, %c0 : index
        %r3 = arith.select %ok3, %row3, %c0 : index
        %kr0 = arith.addi %page_row, %r0 : index
        %kr1 = arith.addi %page_row, %r1 : index
        %kr2 = arith.addi %page_row, %r2 : index
        %kr3 = arith.addi %page_row, %r3 : index
        %ka0r = arith.muli %kr0, %c64 : index
        %ka1r = arith.muli %kr1, %c64 : index
        %ka2r = arith.muli %kr2, %c64 : index
        %ka3r = arith.muli %kr3, %c64 : index
        %ka0 = arith.addi %ka0r, %byte_col : index
        %ka1 = arith.addi %ka1r, %byte_col : index
        %ka2 = arith.addi %ka2r, %byte_col : index
        %ka3 = arith.addi %ka3r, %byte_col : index
        %sa0r = arith.muli %kr0, %c4 : index
        %sa1r = arith.muli %kr1, %c4 : index
        %sa2r = arith.muli %kr2, %c4 : index
        %sa3r = arith.muli %kr3, %c4 : index
        %sa0 = arith.addi %sa0r, %scale_col : index
        %sa1 = arith.addi %sa1r, %scale_col : index
        %sa2 = arith.addi %sa2r, %scale_col : index
        %sa3 = arith.addi %sa3r, %scale_col : index

        // All loads of the page first: 8 independent loads in flight.
        %w0 = vector.load %kv[%ka0] {alignment = 4} : memref<?xi8>, vector<4xi8>
        %w1 = vector.load %kv[%ka1] {alignment = 4} : memref<?xi8>, vector<4xi8>
        %w2 = vector.load %kv[%ka2] {alignment = 4} : memref<?xi8>, vector<4xi8>
        %w3 = vector.load %kv[%ka3] {alignment = 4} : memref<?xi8>, vector<4xi8>
        %s0 = memref.load %kv_scale[%sa0] : memref<?xi8>
        %s1 = memref.load %kv_scale[%sa1] : memref<?xi8>
        %s2 = memref.load %kv_scale[%sa2] : memref<?xi8>
        %s3 = memref.load %kv_scale[%sa3] : memref<?xi8>

        %v0 = func.call @decode_word(%w0, %s0) : (vector<4xi8>, i8) -> vector<8xbf16>
        %v1 = func.call @decode_word(%w1, %s1) : (vector<4xi8>, i8) -> vector<8xbf16>
        %v2 = func.call @decode_word(%w2, %s2) : (vector<4xi8>, i8) -> vector<8xbf16>
        %v3 = func.call @decode_word(%w3, %s3) : (vector<4xi8>, i8) -> vector<8xbf16>

        %orow = arith.addi %start, %tok0 : index
        %o0r = arith.addi %orow, %row0 : index
        %o1r = arith.addi %orow, %row1 : index
        %o2r = arith.addi %orow, %row2 : index
        %o3r = arith.addi %orow, %row3 : index
        %o0m = arith.muli %o0r, %c128 : index
        %o1m = arith.muli %o1r, %c128 : index
        %o2m = arith.muli %o2r, %c128 : index
        %o3m = arith.muli %o3r, %c128 : index
        %o0 = arith.addi %o0m, %out_col : index
        %o1 = arith.addi %o1m, %out_col : index
        %o2 = arith.addi %o2m, %out_col : index
        %o3 = arith.addi %o3m, %out_col : index
        scf.if %ok0 {
          vector.store %v0, %out[%o0] {alignment = 16} : memref<?xbf16>, vector<8xbf16>
        }
        scf.if %ok1 {
          vector.store %v1, %out[%o1] {alignment = 16} : memref<?xbf16>, vector<8xbf16>
        }
        scf.if %ok2 {
          vector.store %v2, %out[%o2] {alignment = 16} : memref<?xbf16>, vector<8xbf16>
        }
        scf.if %ok3 {
          vector.store %v3, %out[%o3] {alignment = 16} : memref<?xbf16>, vector<8xbf16>
        }
      }
      gpu.return
    }

    // 4 FP4 bytes (8 values, low nibble first) times the E8M0 scale, as bf16.
    // Nibble m sits at bits 4m..4m+3: its exponent and mantissa bits go to
    // f32 bits 24..22, its sign to bit 31.
    func.func private @decode_word(%word: vector<4xi8>, %scale: i8)
        -> vector<8xbf16> attributes {llvm.linkage = #llvm.linkage<internal>,
                                      passthrough = ["alwaysinline"]} {
      %x1 = vector.bitcast %word : vector<4xi8> to vector<1xi32>
      %x = vector.extract %x1[0] : i32 from vector<1xi32>
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
      %s32 = arith.extui %scale : i8 to i32
      %c23 = arith.constant 23 : i32
      %sbits = arith.shli %s32, %c23 : i32
      %sf = arith.bitcast %sbits : i32 to f32
      %splat = vector.broadcast %sf : f32 to vector<8xf32>
      %scaled = arith.mulf %val, %splat : vector<8xf32>
      %bf = arith.truncf %scaled : vector<8xf32> to vector<8xbf16>
      return %bf : vector<8xbf16>
    }
  }

  // Host side: what a DSL launcher emits for one call; `splits` is its choice
  // of blocks per sequence.
  func.func @launch_paged_fp4_k_gather(
      %kv: memref<?xi8>, %kv_scale: memref<?xi8>,
      %block_table: memref<?xi32>, %seq_len: memref<?xi32>,
      %out_start: memref<?xi32>, %out: memref<?xbf16>,
      %num_seqs: index, %splits: index) {
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @kernels::@paged_fp4_k_gather
        blocks in (%num_seqs, %splits, %c1) threads in (%c256, %c1, %c1)
        args(%kv : memref<?xi8>, %kv_scale : memref<?xi8>,
             %block_table : memref<?xi32>, %seq_len : memref<?xi32>,
             %out_start : memref<?xi32>, %out : memref<?xbf16>,
             %splits : index)
    return
  }
}
