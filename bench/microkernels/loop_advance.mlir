// (b) Column sums of a row-major matrix walking down the rows: the offset is
// loop-carried (scf.for iter_args) and advanced by the row stride each
// iteration; each step loads a vector<4xf32> at the running offset.
//   out[4c:4c+4] = sum over r < rows of in[r * row_stride + 4c : +4]
// The width literal is on the `spec.param "row_stride"` line.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @loop_advance(%in: memref<?xf32>, %out: memref<?xf32>, %rows: index)
        kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %w = spec.param "row_stride" = 128 : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %gtid = arith.muli %bid, %c64 : index
      %lane = arith.addi %gtid, %tid : index
      %col = arith.muli %lane, %c4 : index
      %res:2 = scf.for %r = %c0 to %rows step %c1
          iter_args(%off = %col, %acc = %zero) -> (index, vector<4xf32>) {
        %v = vector.load %in[%off] : memref<?xf32>, vector<4xf32>
        %sum = arith.addf %acc, %v : vector<4xf32>
        %next = arith.addi %off, %w : index
        scf.yield %next, %sum : index, vector<4xf32>
      }
      vector.store %res#1, %out[%col] : memref<?xf32>, vector<4xf32>
      gpu.return
    }
  }

  func.func @launch(%in: memref<?xf32>, %out: memref<?xf32>, %rows: index) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@loop_advance
        blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%in : memref<?xf32>, %out : memref<?xf32>, %rows : index)
    return
  }
}
