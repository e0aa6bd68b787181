// (a) Row-major 2-D copy with 16-byte f16 rows: out[r, 8c:8c+8] = in[r, 8c:8c+8] + 1.
// The row stride (in f16 elements) is a spec.param; each vector<8xf16> is at
// row * row_stride + 8 * col. The element alignment is only 2 bytes, so a
// 16-byte access needs the offset's divisibility to be known aligned.
// One workgroup of 64 threads per row; the width literal is on the
// `spec.param "row_stride"` line (bench/facts.py rewrites it).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @vec8_f16_rows(%in: memref<?xf16>, %out: memref<?xf16>)
        kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %w = spec.param "row_stride" = 128 : index
      %c8 = arith.constant 8 : index
      %one = arith.constant dense<1.0> : vector<8xf16>
      %tid = gpu.thread_id x
      %row = gpu.block_id x
      %col = arith.muli %tid, %c8 : index
      %base = arith.muli %row, %w : index
      %idx = arith.addi %base, %col : index
      %v = vector.load %in[%idx] : memref<?xf16>, vector<8xf16>
      %r = arith.addf %v, %one : vector<8xf16>
      vector.store %r, %out[%idx] : memref<?xf16>, vector<8xf16>
      gpu.return
    }
  }

  func.func @launch(%in: memref<?xf16>, %out: memref<?xf16>, %rows: index) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@vec8_f16_rows
        blocks in (%rows, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%in : memref<?xf16>, %out : memref<?xf16>)
    return
  }
}
