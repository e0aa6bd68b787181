// RUN: fly-opt %s -split-input-file --test-print-hoist-plan -o /dev/null | FileCheck %s
// RUN: fly-opt %s -split-input-file --test-print-hoist-plan="hoist-into-host" -o /dev/null | FileCheck %s --check-prefix=HOST

// The launch plan is complete before the rewrite: what every launch site
// passes, from where, and where each constant goes. Two kernels (two groups,
// two steps) launched from one block share the constant of a value and type,
// created before the block's first launch site; another type is another
// constant; a site in another block gets its own.

// CHECK-LABEL: step 0
// CHECK-NEXT:  site gpu.launch_func at loc("a1")
// CHECK-NEXT:    's' : index from constant 8 #0, created before this site
// CHECK-NEXT:  site gpu.launch_func at loc("a2")
// CHECK-NEXT:    's' : index from constant 8 #0{{$}}
// CHECK-NEXT:  site gpu.launch_func at loc("a3")
// CHECK-NEXT:    's' : index from constant 8 #1, created before this site
// CHECK-NEXT:  step 1
// CHECK-NEXT:  site gpu.launch_func at loc("b1")
// CHECK-NEXT:    's' : index from constant 8 #0{{$}}
// CHECK-NEXT:    't' : i32 from constant 8 #2, created before gpu.launch_func at loc("a1")
// CHECK-NOT:   site

// With hoist-into-host, one step: the host function takes one argument per
// name and type, which every site passes and both records name.
// HOST-LABEL: step 0
// HOST-NEXT:  record @g::@a: 's' names host argument #2
// HOST-NEXT:  record @g::@b: 's' names host argument #2
// HOST-NEXT:  record @g::@b: 't' names host argument #3
// HOST-NEXT:  host argument @launch #2: 's' : index, replaces 0 spec.param
// HOST-NEXT:  host argument @launch #3: 't' : i32, replaces 0 spec.param
// HOST-NEXT:  site gpu.launch_func at loc("a1")
// HOST-NEXT:    's' : index from host argument @launch #2
// HOST:       site gpu.launch_func at loc("b1")
// HOST-NEXT:    's' : index from host argument @launch #2
// HOST-NEXT:    't' : i32 from host argument @launch #3
// HOST-NOT:   constant
module attributes {gpu.container_module} {
  gpu.module @g {
    gpu.func @a(%m: memref<?xf32>) kernel {
      %s = spec.param "s" = 8 : index
      %v = memref.load %m[%s] : memref<?xf32>
      memref.store %v, %m[%s] : memref<?xf32>
      gpu.return
    }
    gpu.func @b(%m: memref<?xf32>) kernel {
      %s = spec.param "s" = 8 : index
      %t = spec.param "t" = 8 : i32
      %ti = arith.index_cast %t : i32 to index
      %o = arith.addi %s, %ti : index
      %v = memref.load %m[%o] : memref<?xf32>
      memref.store %v, %m[%o] : memref<?xf32>
      gpu.return
    }
  }
  func.func @launch(%m: memref<?xf32>, %c: i1) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @g::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>) loc("a1")
    gpu.launch_func @g::@b blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>) loc("b1")
    gpu.launch_func @g::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>) loc("a2")
    scf.if %c {
      gpu.launch_func @g::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>) loc("a3")
    }
    return
  }
}

// -----

// A device function's launch site passes its caller's new argument; the
// kernel's host launch site passes a constant.

// CHECK-LABEL: step 0
// CHECK-NEXT:  site func.call at loc("inner")
// CHECK-NEXT:    's' : index from caller argument @g::@k #1
// CHECK-NEXT:  site gpu.launch_func at loc("outer")
// CHECK-NEXT:    's' : index from constant 4 #0, created before this site

// HOST-LABEL: step 0
// HOST-NEXT:  record @g::@k: 's' names host argument #1
// HOST-NEXT:  host argument @launch #1: 's' : index, replaces 0 spec.param
// HOST-NEXT:  site func.call at loc("inner")
// HOST-NEXT:    's' : index from caller argument @g::@k #1
// HOST-NEXT:  site gpu.launch_func at loc("outer")
// HOST-NEXT:    's' : index from host argument @launch #1
module attributes {gpu.container_module} {
  gpu.module @g {
    func.func @dev(%m: memref<?xf32>) {
      %s = spec.param "s" = 4 : index
      %v = memref.load %m[%s] : memref<?xf32>
      memref.store %v, %m[%s] : memref<?xf32>
      return
    }
    gpu.func @k(%m: memref<?xf32>) kernel {
      func.call @dev(%m) : (memref<?xf32>) -> () loc("inner")
      gpu.return
    }
  }
  func.func @launch(%m: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @g::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>) loc("outer")
    return
  }
}

// -----

// hoist-into-host: host functions take arguments in the order their launch
// sites are listed, callers right after their callee, each replacing the
// function's own spec.params of the name; the record names the argument of
// the first launch site's function. A host caller that cannot take one (its
// symbol is taken) passes a constant, created before its own call.

// CHECK-LABEL: step 0
// CHECK-NOT:   host argument
// CHECK-NOT:   record

// HOST-LABEL: step 0
// HOST-NEXT:  record @k: 'w' names host argument #1
// HOST-NEXT:  host argument @helper #1: 'w' : index, replaces 0 spec.param
// HOST-NEXT:  host argument @entry #1: 'w' : index, replaces 2 spec.param
// HOST-NEXT:  site func.call at loc("h1")
// HOST-NEXT:    'w' : index from host argument @entry #1
// HOST-NEXT:  site func.call at loc("h2")
// HOST-NEXT:    'w' : index from constant 5 #0, created before this site
// HOST-NEXT:  site func.call at loc("k1")
// HOST-NEXT:    'w' : index from host argument @helper #1
// HOST-NOT:   site
func.func @k(%m: memref<?xf32>) attributes {spec.kernel} {
  %w = spec.param "w" = 5 : index
  %v = memref.load %m[%w] : memref<?xf32>
  memref.store %v, %m[%w] : memref<?xf32>
  return
}
func.func private @helper(%m: memref<?xf32>) {
  func.call @k(%m) : (memref<?xf32>) -> () loc("k1")
  return
}
func.func @entry(%m: memref<?xf32>) {
  %w = spec.param "w" = 5 : index
  %v = memref.load %m[%w] : memref<?xf32>
  func.call @helper(%m) : (memref<?xf32>) -> () loc("h1")
  %w2 = spec.param "w" = 5 : index
  memref.store %v, %m[%w2] : memref<?xf32>
  return
}
func.func @taken(%m: memref<?xf32>) {
  func.call @helper(%m) : (memref<?xf32>) -> () loc("h2")
  return
}
func.func @refers() -> ((memref<?xf32>) -> ()) {
  %f = func.constant @taken : (memref<?xf32>) -> ()
  return %f : (memref<?xf32>) -> ()
}
