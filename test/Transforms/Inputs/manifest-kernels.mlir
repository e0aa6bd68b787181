module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @paged(%bt: memref<?xi32>, %out: memref<?xi32>, %seq: i32) kernel {
      %w = spec.param "max_blocks_per_seq" = WIDTH : i32
      %h = spec.param "heads" = HEADS : index
      %row = arith.muli %seq, %w : i32
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      scf.for %j = %c0 to %h step %c1 {
        %jj = arith.index_cast %j : index to i32
        %i = arith.addi %row, %jj : i32
        %ii = arith.index_cast %i : i32 to index
        %v = memref.load %bt[%ii] : memref<?xi32>
        memref.store %v, %out[%j] : memref<?xi32>
      }
      gpu.return
    }
    gpu.func @with_equals(%bt: memref<?x?xi32>, %i: index) kernel {
      %base, %off, %sizes:2, %strides:2 = memref.extract_strided_metadata %bt : memref<?x?xi32> -> memref<i32>, index, index, index, index, index
      %w = spec.param "max_blocks_per_seq" = WIDTH equals %strides#0 : index
      %o = arith.muli %i, %w : index
      %flat = memref.reinterpret_cast %bt to offset: [0], sizes: [4096], strides: [1] : memref<?x?xi32> to memref<4096xi32>
      %v = memref.load %flat[%o] : memref<4096xi32>
      memref.store %v, %flat[%i] : memref<4096xi32>
      gpu.return
    }
  }
  func.func @host(%bt: memref<?xi32>, %out: memref<?xi32>, %bt2: memref<?x?xi32>) {
    %c1 = arith.constant 1 : index
    %s = arith.constant 3 : i32
    gpu.launch_func @kernels::@paged blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%bt : memref<?xi32>, %out : memref<?xi32>, %s : i32)
    gpu.launch_func @kernels::@with_equals blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%bt2 : memref<?x?xi32>, %c1 : index)
    return
  }
}
