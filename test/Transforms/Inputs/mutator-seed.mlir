// Seed for the structure-aware mutator's test (structure-mutator.test): one
// module with the shapes the mutations act on. A gpu.module with a kernel,
// a device function it calls, an isolated region (gpu.all_reduce), loops and
// a host function launching the kernel; an llvm.func marked spec.kernel; a
// parameter with `equals`; constants of i8/i32/i64/index inside functions; a
// buffer resource whose num_records is a parameter and an identity-layout
// view sized by one (for the mutations of the issue-26 defect classes:
// aggregates, fat pointers, strides); an llvm.func host calling the
// llvm.func kernel (made variadic by a mutation).
module attributes {gpu.container_module} {
  gpu.module @m {
    func.func @device(%a: memref<?xf32>, %i: index) {
      %c2 = arith.constant 2 : index
      %j = arith.muli %i, %c2 : index
      %v = memref.load %a[%j] : memref<?xf32>
      memref.store %v, %a[%i] : memref<?xf32>
      return
    }
    gpu.func @k(%a: memref<?xf32>, %n: index, %ld: index) kernel {
      %w = spec.param "w" = 16 : index
      %s = spec.param "s" = 16 equals %ld : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %tid = gpu.thread_id x
      %row = arith.muli %tid, %w : index
      %col = arith.muli %tid, %s : index
      scf.for %i = %c0 to %c4 step %c1 {
        %idx = arith.addi %row, %i : index
        %v = memref.load %a[%idx] : memref<?xf32>
        %sum = gpu.all_reduce %v {
        ^bb(%x: f32, %y: f32):
          %c3 = arith.constant 3 : index
          %z = arith.addf %x, %y : f32
          gpu.yield %z : f32
        } : (f32) -> (f32)
        memref.store %sum, %a[%col] : memref<?xf32>
      }
      func.call @device(%a, %row) : (memref<?xf32>, index) -> ()
      %c8 = arith.constant 8 : i8
      %c7 = arith.constant 7 : i32
      %big = arith.constant 4294967296 : i64
      gpu.return
    }
    gpu.func @buffers(%p: !llvm.ptr<1>, %i: i32, %raw: memref<4096xi8>) kernel {
      %records = spec.param "records" = 256 : i64
      %z16 = arith.constant 0 : i16
      %z = arith.constant 0 : i32
      %flags = arith.constant 159744 : i32
      %rsrc = rocdl.make.buffer.rsrc %p, %z16, %records, %flags : !llvm.ptr<1> to !llvm.ptr<8>
      %v = rocdl.raw.ptr.buffer.load %rsrc, %i, %z, %z : i32
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %cols = spec.param "cols" = 8 : index
      %view = memref.view %raw[%c0][%cols] : memref<4096xi8> to memref<4x?xi32>
      memref.store %v, %view[%c1, %c1] : memref<4x?xi32>
      gpu.return
    }
  }
  llvm.func @llvm_host(%p: !llvm.ptr) {
    %n = llvm.mlir.constant(3 : i64) : i64
    llvm.call @llvm_kernel(%p, %n) : (!llvm.ptr, i64) -> ()
    llvm.return
  }
  llvm.func @llvm_kernel(%p: !llvm.ptr, %n: i64) attributes {spec.kernel} {
    %w = llvm.mlir.constant(64 : i64) : i64
    %o = llvm.mul %n, %w : i64
    %q = llvm.getelementptr %p[%o] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %v = llvm.load %q : !llvm.ptr -> f32
    llvm.store %v, %p : f32, !llvm.ptr
    llvm.return
  }
  func.func @host(%a: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%a : memref<?xf32>, %n : index, %c16 : index)
    return
  }
}
