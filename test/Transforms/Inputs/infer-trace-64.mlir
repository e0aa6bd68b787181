// The trace of infer-spec-params-hoist.mlir's kernel for width 64 (a loop of
// 4 steps, an unrelated 256 and the byte stride 4 * 64 = 256, which
// canonicalize merged into one constant).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @paged(%bt: memref<?xi32>, %out: memref<?xi32>, %seq: index, %blk: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %c256 = arith.constant 256 : index
      %row = arith.muli %seq, %c64 : index
      %i = arith.addi %row, %blk : index
      %v = memref.load %bt[%i] : memref<?xi32>
      %bytes = arith.muli %blk, %c256 : index
      %j = arith.addi %bytes, %c256 : index
      memref.store %v, %out[%j] : memref<?xi32>
      scf.for %k = %c0 to %c1 step %c1 {
        memref.store %v, %out[%k] : memref<?xi32>
      }
      gpu.return
    }
  }
  func.func @host(%bt: memref<?xi32>, %out: memref<?xi32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@paged blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%bt : memref<?xi32>, %out : memref<?xi32>, %c1 : index, %c1 : index)
    return
  }
}
