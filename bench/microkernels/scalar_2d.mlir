// (d) Plain scalar 2-D row-major loads through a strided view: the flat
// buffer is viewed as [rows, row_stride] with strides [row_stride, 1]
// (memref.reinterpret_cast), and each thread adds two rows of one column:
//   out[r, c] = in[r, c] + in[r + 1, c]
// The width literal is on the `spec.param "row_stride"` line.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scalar_2d(%in: memref<?xf32>, %out: memref<?xf32>, %rows: index)
        kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %w = spec.param "row_stride" = 128 : index
      %c1 = arith.constant 1 : index
      %tid = gpu.thread_id x
      %row = gpu.block_id x
      %col = gpu.block_id y
      %c64 = arith.constant 64 : index
      %cbase = arith.muli %col, %c64 : index
      %c = arith.addi %cbase, %tid : index
      %a = memref.reinterpret_cast %in to offset: [0], sizes: [%rows, %w], strides: [%w, 1]
          : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %o = memref.reinterpret_cast %out to offset: [0], sizes: [%rows, %w], strides: [%w, 1]
          : memref<?xf32> to memref<?x?xf32, strided<[?, 1]>>
      %r1 = arith.addi %row, %c1 : index
      %x = memref.load %a[%row, %c] : memref<?x?xf32, strided<[?, 1]>>
      %y = memref.load %a[%r1, %c] : memref<?x?xf32, strided<[?, 1]>>
      %s = arith.addf %x, %y : f32
      memref.store %s, %o[%row, %c] : memref<?x?xf32, strided<[?, 1]>>
      gpu.return
    }
  }

  func.func @launch(%in: memref<?xf32>, %out: memref<?xf32>, %rows: index) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@scalar_2d
        blocks in (%rows, %c2, %c1) threads in (%c64, %c1, %c1)
        args(%in : memref<?xf32>, %out : memref<?xf32>, %rows : index)
    return
  }
}
