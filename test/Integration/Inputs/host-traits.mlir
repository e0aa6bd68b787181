// Decisions that once depended on the host process: each rule below read
// an upstream op trait (ConstantLike, ReturnLike; IsIsolatedFromAbove in
// host-traits-isolated.mlir) by a
// TypeID that g++ and clang spell differently, which only fly-opt shared
// with libMLIR (four-routes.test).
module attributes {gpu.container_module} {
  gpu.module @b [#rocdl.target<chip = "gfx942">] {
    // The tail times a constant (m_ConstantInt) reaches a MUBUF voffset:
    // kept, it folds into the 12-bit immediate offset.
    gpu.func @voffset(%rsrc: !llvm.ptr<8>, %x: i32) kernel {
      %tail = spec.param "tail" = 64 : i32
      %c0 = arith.constant 0 : i32
      %c4 = arith.constant 4 : i32
      %o = arith.addi %x, %tail : i32
      %bytes = arith.muli %o, %c4 : i32
      %v = rocdl.raw.ptr.buffer.load %rsrc, %bytes, %c0, %c0 : i32
      rocdl.raw.ptr.buffer.store %v, %rsrc, %x, %c0, %c0 : i32
      gpu.return
    }
    // An immarg operand (the buffer load's aux bits): kept.
    gpu.func @aux(%rsrc: !llvm.ptr<8>, %x: i32) kernel {
      %aux = spec.param "aux" = 1 : i32
      %c0 = arith.constant 0 : i32
      %v = rocdl.raw.ptr.buffer.load %rsrc, %x, %c0, %aux : i32
      rocdl.raw.ptr.buffer.store %v, %rsrc, %x, %c0, %c0 : i32
      gpu.return
    }
  }
  // A function return (ReturnLike) of a parameter-derived value: kept.
  func.func @returns(%m: memref<?xf32>, %r: index) -> index attributes {spec.kernel} {
    %w = spec.param "row" = 96 : index
    %i = arith.muli %r, %w : index
    %v = memref.load %m[%i] : memref<?xf32>
    memref.store %v, %m[%r] : memref<?xf32>
    return %i : index
  }
}
