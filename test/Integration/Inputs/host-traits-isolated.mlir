// A parameter inside an isolated region: no kernel argument reaches it,
// so it is kept. The rule read IsIsolatedFromAbove by a TypeID only fly-opt
// shared with libMLIR: elsewhere it was hoisted, and its use took a value
// from outside the region (invalid IR, the pass failed). four-routes.test.
module attributes {gpu.container_module} {
  gpu.module @b [#rocdl.target<chip = "gfx942">] {
    gpu.func @isolated(%m: memref<?xi32>, %x: index) kernel {
      %v = memref.load %m[%x] : memref<?xi32>
      %r = gpu.all_reduce %v uniform {
      ^bb(%a: i32, %b: i32):
        %w = spec.param "w" = 4 : index
        %buf = memref.alloca() : memref<64xi32>
        %j = arith.index_cast %a : i32 to index
        %k = arith.muli %j, %w : index
        %l = memref.load %buf[%k] : memref<64xi32>
        %s = arith.addi %l, %b : i32
        gpu.yield %s : i32
      } : (i32) -> i32
      memref.store %r, %m[%x] : memref<?xi32>
      gpu.return
    }
  }
}
