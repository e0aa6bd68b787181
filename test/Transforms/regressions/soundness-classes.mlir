// Each case is an input an adversarial review wrote against the operand
// rules; before the rule layer named operands by accessor and failed closed,
// each was hoisted (a wrong result, an output that no longer lowered) or
// rewritten wrongly. Every case must now keep the parameter with its reason,
// or fail with a located error that leaves the module unchanged.
// RUN: fly-opt %s -split-input-file -verify-diagnostics \
// RUN:   -hoist-stride-specialization -mlir-print-op-on-diagnostic=false \
// RUN:   | FileCheck %s

// Class 1: a buffer's bound that travels through an !llvm.array before the
// access is still the bound the hardware checks.
// CHECK-LABEL: func.func @bound_through_array
// CHECK: arith.constant 4096 : i64
func.func @bound_through_array(%base: !llvm.ptr<1>, %i: i32) attributes {spec.kernel} {
  %n = spec.param "n" = 4096 : i64 // expected-remark {{'n' kept specialized in kernel @bound_through_array: a view size or buffer bound that an access reads back}}
  %z16 = llvm.mlir.constant(0 : i16) : i16
  %f = llvm.mlir.constant(159744 : i32) : i32
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %r = rocdl.make.buffer.rsrc %base, %z16, %n, %f : !llvm.ptr<1> to !llvm.ptr<8>
  %u = llvm.mlir.undef : !llvm.array<2 x ptr<8>>
  %a = llvm.insertvalue %r, %u[1] : !llvm.array<2 x ptr<8>>
  %e = llvm.extractvalue %a[1] : !llvm.array<2 x ptr<8>>
  %v = rocdl.raw.ptr.buffer.load %e, %i, %c0, %c0 : f32 // expected-note {{needs 'n' as a constant here}}
  return
}

// -----

// Class 1, vectors: through vector.from_elements / vector.extract.
// CHECK-LABEL: func.func @bound_through_vector
// CHECK: arith.constant 4096 : i64
func.func @bound_through_vector(%base: !llvm.ptr<1>, %i: i32) attributes {spec.kernel} {
  %n = spec.param "n" = 4096 : i64 // expected-remark {{'n' kept specialized in kernel @bound_through_vector: a view size or buffer bound that an access reads back}}
  %z16 = llvm.mlir.constant(0 : i16) : i16
  %f = llvm.mlir.constant(159744 : i32) : i32
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %r = rocdl.make.buffer.rsrc %base, %z16, %n, %f : !llvm.ptr<1> to !llvm.ptr<8>
  %vec = vector.from_elements %r, %r : vector<2x!llvm.ptr<8>>
  %e = vector.extract %vec[0] : !llvm.ptr<8> from vector<2x!llvm.ptr<8>>
  %v = rocdl.raw.ptr.buffer.load %e, %i, %c0, %c0 : f32 // expected-note {{needs 'n' as a constant here}}
  return
}

// -----

// Class 1, llvm.insertelement / extractelement.
// CHECK-LABEL: func.func @bound_through_llvm_vector
// CHECK: arith.constant 4096 : i64
func.func @bound_through_llvm_vector(%base: !llvm.ptr<1>, %i: i32) attributes {spec.kernel} {
  %n = spec.param "n" = 4096 : i64 // expected-remark {{'n' kept specialized in kernel @bound_through_llvm_vector: a view size or buffer bound that an access reads back}}
  %z16 = llvm.mlir.constant(0 : i16) : i16
  %f = llvm.mlir.constant(159744 : i32) : i32
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %r = rocdl.make.buffer.rsrc %base, %z16, %n, %f : !llvm.ptr<1> to !llvm.ptr<8>
  %u = llvm.mlir.undef : vector<2x!llvm.ptr<8>>
  %vec = llvm.insertelement %r, %u[%c0 : i32] : vector<2x!llvm.ptr<8>>
  %e = llvm.extractelement %vec[%c0 : i32] : vector<2x!llvm.ptr<8>>
  %v = rocdl.raw.ptr.buffer.load %e, %i, %c0, %c0 : f32 // expected-note {{needs 'n' as a constant here}}
  return
}

// -----

// Class 2: an llvm.load through a fat pointer (!llvm.ptr<7>) made by
// rocdl.make.buffer.rsrc reads the bound.
// CHECK-LABEL: func.func @fat_pointer_load
// CHECK: arith.constant 4096 : i64
func.func @fat_pointer_load(%base: !llvm.ptr<1>, %i: i32) attributes {spec.kernel} {
  %n = spec.param "n" = 4096 : i64 // expected-remark {{'n' kept specialized in kernel @fat_pointer_load: a view size or buffer bound that an access reads back}}
  %z16 = llvm.mlir.constant(0 : i16) : i16
  %f = llvm.mlir.constant(159744 : i32) : i32
  %fat = rocdl.make.buffer.rsrc %base, %z16, %n, %f : !llvm.ptr<1> to !llvm.ptr<7>
  %g = llvm.getelementptr %fat[%i] : (!llvm.ptr<7>, i32) -> !llvm.ptr<7>, f32
  %v = llvm.load %g : !llvm.ptr<7> -> f32 // expected-note {{needs 'n' as a constant here}}
  return
}

// -----

// Class 2, through an atomic and a memcpy.
// CHECK-LABEL: func.func @fat_pointer_atomic
// CHECK: arith.constant 4096 : i64
func.func @fat_pointer_atomic(%base: !llvm.ptr<1>, %x: f32, %dst: !llvm.ptr<1>) attributes {spec.kernel} {
  %n = spec.param "n" = 4096 : i64 // expected-remark {{'n' kept specialized in kernel @fat_pointer_atomic: a view size or buffer bound that an access reads back}}
  %z16 = llvm.mlir.constant(0 : i16) : i16
  %f = llvm.mlir.constant(159744 : i32) : i32
  %len = llvm.mlir.constant(16 : i64) : i64
  %fat = rocdl.make.buffer.rsrc %base, %z16, %n, %f : !llvm.ptr<1> to !llvm.ptr<7>
  %old = llvm.atomicrmw fadd %fat, %x monotonic : !llvm.ptr<7>, f32 // expected-note {{needs 'n' as a constant here}}
  "llvm.intr.memcpy"(%dst, %fat, %len) <{isVolatile = false}> : (!llvm.ptr<1>, !llvm.ptr<7>, i64) -> ()
  return
}

// -----

// Class 3: one value both the byte shift and a size of a memref.view. The
// size is an identity-layout size read back by a masked transfer.
// CHECK-LABEL: func.func @one_value_two_roles
// CHECK: arith.constant 64 : index
func.func @one_value_two_roles(%buf: memref<?xi8>) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : index // expected-remark {{'w' kept specialized in kernel @one_value_two_roles: a view size or buffer bound that an access reads back}}
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %v = memref.view %buf[%w][%w] : memref<?xi8> to memref<?xf32>
  %r = vector.transfer_read %v[%c0], %pad : memref<?xf32>, vector<4xf32> // expected-note {{needs 'w' as a constant here}}
  return
}

// -----

// Class 4: the sizes of an identity-layout view are its strides: a stride
// read back through extract_strided_metadata and compared keeps the size.
// CHECK-LABEL: func.func @sizes_are_strides
// CHECK: arith.constant 64 : index
func.func @sizes_are_strides(%buf: memref<?xi8>, %j: index) -> i1 attributes {spec.kernel} {
  %w = spec.param "w" = 64 : index // expected-remark {{'w' kept specialized in kernel @sizes_are_strides: comparison}}
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %v = memref.view %buf[%c0][%c4, %w] : memref<?xi8> to memref<?x?xf32>
  %base, %off, %sizes:2, %strides:2 = memref.extract_strided_metadata %v : memref<?x?xf32> -> memref<f32>, index, index, index, index, index
  %lt = arith.cmpi ult, %strides#0, %j : index // expected-note {{needs 'w' as a constant here}}
  return %lt : i1
}

// -----

// Class 5: the immediate offset of rocdl.raw.ptr.buffer.load.lds is an
// `immarg` of the LLVM intrinsic: a runtime value there does not lower.
// CHECK-LABEL: func.func @immediate_offset
// CHECK: arith.constant 256 : i32
func.func @immediate_offset(%rsrc: !llvm.ptr<8>, %lds: !llvm.ptr<3>, %i: i32) attributes {spec.kernel} {
  %t = spec.param "tail" = 256 : i32 // expected-remark {{'tail' kept specialized in kernel @immediate_offset: must be a compile-time immediate}}
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c4 = llvm.mlir.constant(4 : i32) : i32
  rocdl.raw.ptr.buffer.load.lds %rsrc, %lds, %c4, %i, %c0, %t, %c0 // expected-note {{needs 'tail' as a constant here}}
  return
}

// -----

// Class 5: a leading position of a multi-dimensional vector.extract must be
// static for the LLVM lowering; the last one selecting a scalar indexes
// registers.
// CHECK-LABEL: func.func @vector_positions
// CHECK-DAG: arith.constant 1 : index
// CHECK-DAG: arith.constant 2 : index
func.func @vector_positions(%v: vector<4x8xf32>) -> (vector<8xf32>, f32) attributes {spec.kernel} {
  %r = spec.param "row" = 1 : index // expected-remark {{'row' kept specialized in kernel @vector_positions: must be a compile-time immediate}}
  %c = spec.param "col" = 2 : index // expected-remark {{'col' kept specialized in kernel @vector_positions: position into a vector (a runtime one indexes registers)}}
  %c0 = arith.constant 0 : index
  %row = vector.extract %v[%r] : vector<8xf32> from vector<4x8xf32> // expected-note {{needs 'row' as a constant here}}
  %x = vector.extract %v[%c0, %c] : f32 from vector<4x8xf32> // expected-note {{needs 'col' as a constant here}}
  return %row, %x : vector<8xf32>, f32
}

// -----

// Class 6: an `equals` value that is a cast of a known different constant
// is the value the uses would take: an error, not a recorded contract.
func.func @equals_through_cast(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %c32 = arith.constant 32 : i32
  %e = arith.index_cast %c32 : i32 to index
  // expected-error @below {{parameter 'w' = 16 equals a value known to be 32; its uses would take that value}}
  // expected-note @-2 {{value defined here}}
  %w = spec.param "w" = 16 equals %e : index
  %o = arith.muli %i, %w : index
  %v = memref.load %m[%o] : memref<?xf32>
  return
}

// -----

// Class 6 at a launch site: the kernel's `equals` value sign-extends its
// argument; the launch site passes a known different value for it.
module attributes {gpu.container_module} {
gpu.module @g {
  gpu.func @k(%m: memref<?xf32>, %s: i32) kernel {
    %e = arith.extsi %s : i32 to i64
    // expected-note @below {{parameter defined here}}
    %w = spec.param "w" = 128 equals %e : i64
    %wi = arith.index_cast %w : i64 to index
    %v = memref.load %m[%wi] : memref<?xf32>
    gpu.return
  }
}
func.func @launch_known_different(%m: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : i32
  // expected-error @below {{launch site passes 64 as argument 1 of @g::@k, which parameter 'w' = 128 equals}}
  gpu.launch_func @g::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>, %c64 : i32)
  return
}
}

// -----

// Class 6, the record: "value == argument 1" holds through the
// sign-preserving cast, which the launch-site check reads too.
// CHECK-LABEL: gpu.func @k
// CHECK-SAME: preconditions = [#spec.equals<argument = 1, part = value>]
module attributes {gpu.container_module} {
gpu.module @g {
  gpu.func @k(%m: memref<?xf32>, %s: i32) kernel {
    %e = arith.extsi %s : i32 to i64
    %w = spec.param "w" = 128 equals %e : i64 // expected-remark {{'w' hoisted in kernel @g::@k: uses take its 'equals' value}}
    %wi = arith.index_cast %w : i64 to index
    %v = memref.load %m[%wi] : memref<?xf32>
    gpu.return
  }
}
func.func @launch_same(%m: memref<?xf32>) {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : i32
  gpu.launch_func @g::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>, %c128 : i32)
  return
}
}

// -----

// Class 7: a call passing variadic arguments to a variadic llvm.func kernel
// is a valid launch site; no argument can be added after them.
// CHECK-LABEL: llvm.func @vk
// CHECK: llvm.mlir.constant(8 : i64) : i64
llvm.func @vk(%p: !llvm.ptr, ...) attributes {spec.kernel} {
  %w = spec.param "w" = 8 : i64 // expected-remark {{'w' kept specialized in kernel @vk: the kernel is variadic: its calls pass variadic arguments where a new argument would go}}
  %g = llvm.getelementptr %p[%w] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %v = llvm.load %g : !llvm.ptr -> f32
  llvm.return
}
llvm.func @host_variadic(%p: !llvm.ptr) {
  %x = llvm.mlir.constant(1 : i32) : i32
  llvm.call @vk(%p, %x) vararg(!llvm.func<void (ptr, ...)>) : (!llvm.ptr, i32) -> ()
  llvm.return
}
