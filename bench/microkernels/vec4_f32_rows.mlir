// (a) Row-major 2-D copy with 16-byte rows: out[r, 4c:4c+4] = 2 * in[r, 4c:4c+4].
// The row stride (in f32 elements) is a spec.param; the address of each
// vector<4xf32> is row * row_stride + 4 * col. A specialized stride tells the
// backend the offset is a multiple of 4 elements (16 bytes) and fits 32 bits.
// One workgroup of 64 threads per row; the width literal is on the
// `spec.param "row_stride"` line (bench/facts.py rewrites it).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @vec4_f32_rows(%in: memref<?xf32>, %out: memref<?xf32>)
        kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %w = spec.param "row_stride" = 128 : index
      %c4 = arith.constant 4 : index
      %two = arith.constant dense<2.0> : vector<4xf32>
      %tid = gpu.thread_id x
      %row = gpu.block_id x
      %col = arith.muli %tid, %c4 : index
      %base = arith.muli %row, %w : index
      %idx = arith.addi %base, %col : index
      %v = vector.load %in[%idx] : memref<?xf32>, vector<4xf32>
      %r = arith.mulf %v, %two : vector<4xf32>
      vector.store %r, %out[%idx] : memref<?xf32>, vector<4xf32>
      gpu.return
    }
  }

  func.func @launch(%in: memref<?xf32>, %out: memref<?xf32>, %rows: index) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@vec4_f32_rows
        blocks in (%rows, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%in : memref<?xf32>, %out : memref<?xf32>)
    return
  }
}
