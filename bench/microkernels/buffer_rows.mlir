// (c) Buffer loads: amdgpu.raw_buffer_load takes i32 element offsets (the
// hardware wants a non-negative 32-bit byte offset). The row offset is
// computed in index (64-bit) arithmetic, row * row_stride + 4 * col, and cast
// to i32 at the buffer op; one vector<4xf32> and one scalar f32 per thread.
//   out[r, 4c:4c+4] = in[r, 4c:4c+4] * in[r, 0]
// The width literal is on the `spec.param "row_stride"` line.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @buffer_rows(%in: memref<?xf32>, %out: memref<?xf32>)
        kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %w = spec.param "row_stride" = 128 : index
      %c4 = arith.constant 4 : index
      %tid = gpu.thread_id x
      %row = gpu.block_id x
      %col = arith.muli %tid, %c4 : index
      %base = arith.muli %row, %w : index
      %idx = arith.addi %base, %col : index
      %idx32 = arith.index_cast %idx : index to i32
      %base32 = arith.index_cast %base : index to i32
      %v = amdgpu.raw_buffer_load %in[%idx32] : memref<?xf32>, i32 -> vector<4xf32>
      %s = amdgpu.raw_buffer_load %in[%base32] : memref<?xf32>, i32 -> f32
      %sv = vector.broadcast %s : f32 to vector<4xf32>
      %r = arith.mulf %v, %sv : vector<4xf32>
      amdgpu.raw_buffer_store %r -> %out[%idx32] : vector<4xf32> -> memref<?xf32>, i32
      gpu.return
    }
  }

  func.func @launch(%in: memref<?xf32>, %out: memref<?xf32>, %rows: index) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@buffer_rows
        blocks in (%rows, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%in : memref<?xf32>, %out : memref<?xf32>)
    return
  }
}
