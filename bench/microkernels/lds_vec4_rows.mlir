// (a') The vector rows of (a) in workgroup memory (LDS): a tile of rows with
// a row stride that is a spec.param, stored and read back as vector<4xf32>
// at row * row_stride + 4 * col. The LDS base is 16-byte aligned, so a known
// multiple-of-4 offset lets the backend use 16-byte LDS accesses.
//   out[g, 4c:4c+4] = tile[(r + 1) % 4, 4c:4c+4] after each thread r, c
//   wrote tile[r, 4c:4c+4] = in[g, 4c:4c+4]
// 4 rows x 16 threads per workgroup; the width literal is on the
// `spec.param "row_stride"` line.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @lds_vec4_rows(%in: memref<?xf32>, %out: memref<?xf32>)
        workgroup(%tile: memref<4096xf32, 3>)
        kernel attributes {known_block_size = array<i32: 16, 4, 1>} {
      %w = spec.param "row_stride" = 128 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c64 = arith.constant 64 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bid = gpu.block_id x
      %col = arith.muli %tx, %c4 : index
      %lin = arith.muli %ty, %c64 : index
      %g0 = arith.muli %bid, %c64 : index
      %g1 = arith.addi %g0, %lin : index
      %g = arith.addi %g1, %col : index
      %v = vector.load %in[%g] : memref<?xf32>, vector<4xf32>
      %wr0 = arith.muli %ty, %w : index
      %wr = arith.addi %wr0, %col : index
      vector.store %v, %tile[%wr] : memref<4096xf32, 3>, vector<4xf32>
      gpu.barrier
      %ty1 = arith.addi %ty, %c1 : index
      %ry = arith.andi %ty1, %c3 : index
      %rd0 = arith.muli %ry, %w : index
      %rd = arith.addi %rd0, %col : index
      %u = vector.load %tile[%rd] : memref<4096xf32, 3>, vector<4xf32>
      vector.store %u, %out[%g] : memref<?xf32>, vector<4xf32>
      gpu.return
    }
  }

  func.func @launch(%in: memref<?xf32>, %out: memref<?xf32>, %groups: index) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @kernels::@lds_vec4_rows
        blocks in (%groups, %c1, %c1) threads in (%c16, %c4, %c1)
        args(%in : memref<?xf32>, %out : memref<?xf32>)
    return
  }
}
