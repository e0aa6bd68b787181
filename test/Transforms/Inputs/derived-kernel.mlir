// A kernel as a frontend that marks nothing traces it at width W: the
// width, its index byte stride 4*W (wrapping at 64 bits), W + 1 in i64 and
// 4*W in i32 (the frontend's wrapped value). differential-derived.test
// substitutes W, S, P and Q.
func.func @kernel(%out: memref<4xi64>) {
  %w = arith.constant W : index
  %s = arith.constant S : index
  %p = arith.constant P : i64
  %q = arith.constant Q : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : i64
  %a = arith.muli %c5, %w : index
  %b = arith.muli %c5, %s : index
  %ai = arith.index_cast %a : index to i64
  %bi = arith.index_cast %b : index to i64
  memref.store %ai, %out[%c0] : memref<4xi64>
  memref.store %bi, %out[%c1] : memref<4xi64>
  %pp = arith.muli %p, %c7 : i64
  memref.store %pp, %out[%c2] : memref<4xi64>
  %qq = arith.extsi %q : i32 to i64
  memref.store %qq, %out[%c3] : memref<4xi64>
  return
}

func.func private @printMemrefI64(memref<*xi64>)

func.func @main() {
  %out = memref.alloc() : memref<4xi64>
  call @kernel(%out) : (memref<4xi64>) -> ()
  %u = memref.cast %out : memref<4xi64> to memref<*xi64>
  call @printMemrefI64(%u) : (memref<*xi64>) -> ()
  memref.dealloc %out : memref<4xi64>
  return
}
