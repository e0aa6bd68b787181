// RUN: fly-opt %s -split-input-file --hoist-stride-specialization -verify-diagnostics | FileCheck %s
// RUN: fly-opt %s -split-input-file --hoist-stride-specialization='remarks=false hoist-immediate-offsets=true' | FileCheck %s --check-prefix=HOIST

// An offset tail in LDS (FlyDSL's nested add_offset: the static part a GEP
// of its own) folds into ds_read's offset: kept by default, the constant
// stays in the GEPs; with hoist-immediate-offsets it is an argument.

// CHECK-LABEL: gpu.func @lds_tail(
// CHECK-SAME: reason = "immediate-offset"
// CHECK: %[[T:.*]] = arith.constant 64 : i32
// CHECK: llvm.getelementptr %{{.*}}[%[[T]]]
// HOIST-LABEL: gpu.func @lds_tail(
// HOIST-SAME: %[[T:[a-z0-9]*]]: i32) kernel
// The record counts the accesses whose offset field would have held it (the
// load through %pa and the store through %pb): one runtime add each.
// HOIST-SAME: hoisted = [#spec.hoisted<name = "tail", type = i32, argument = 1, immediate_offsets = 2>]
// HOIST: llvm.getelementptr %{{.*}}[%[[T]]]
module attributes {gpu.container_module} {
  gpu.module @m [#rocdl.target<chip = "gfx942">] {
    llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 128 : i64, dso_local} : !llvm.array<4096 x i8>
    gpu.func @lds_tail(%x: i32) kernel {
      // expected-remark @below {{'tail' kept specialized in kernel @m::@lds_tail: folds into an instruction's immediate offset}}
      %tail = spec.param "tail" = 64 : i32
      %base = llvm.mlir.addressof @smem : !llvm.ptr<3>
      %p = llvm.getelementptr %base[%x] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, bf16
      %pa = llvm.getelementptr %p[%tail] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, bf16
      %pb = llvm.getelementptr %pa[%tail] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, bf16
      // expected-note @below {{needs 'tail' as a constant here}}
      %a = llvm.load %pa : !llvm.ptr<3> -> bf16
      llvm.store %a, %pb : bf16, !llvm.ptr<3>
      gpu.return
    }
  }
}

// -----

// Buffer accesses: the tail added to voffset (x + g + tail, scaled to
// bytes) and a tail that is the soffset itself fold into MUBUF's 12-bit
// offset.

// CHECK-LABEL: gpu.func @buffer_voffset(
// CHECK-SAME: reason = "immediate-offset"
// CHECK-LABEL: gpu.func @buffer_soffset(
// CHECK-SAME: reason = "immediate-offset"
// HOIST-LABEL: gpu.func @buffer_voffset(
// HOIST-SAME: hoisted = [#spec.hoisted<name = "tail"
// HOIST-LABEL: gpu.func @buffer_soffset(
// HOIST-SAME: hoisted = [#spec.hoisted<name = "soff"
module attributes {gpu.container_module} {
  gpu.module @b [#rocdl.target<chip = "gfx950">] {
    gpu.func @buffer_voffset(%rsrc: !llvm.ptr<8>, %x: i32) kernel {
      // expected-remark @below {{'tail' kept specialized in kernel @b::@buffer_voffset: folds into an instruction's immediate offset}}
      %tail = spec.param "tail" = 64 : i32
      %c0 = arith.constant 0 : i32
      %c4 = arith.constant 4 : i32
      %o = arith.addi %x, %tail : i32
      %bytes = arith.muli %o, %c4 : i32
      // expected-note @below {{needs 'tail' as a constant here}}
      %v = rocdl.raw.ptr.buffer.load %rsrc, %bytes, %c0, %c0 : i32
      rocdl.raw.ptr.buffer.store %v, %rsrc, %x, %c0, %c0 : i32
      gpu.return
    }
    gpu.func @buffer_soffset(%rsrc: !llvm.ptr<8>, %x: i32) kernel {
      // expected-remark @below {{'soff' kept specialized in kernel @b::@buffer_soffset: folds into an instruction's immediate offset}}
      %soff = spec.param "soff" = 256 : i32
      %c0 = arith.constant 0 : i32
      // expected-note @below {{needs 'soff' as a constant here}}
      %v = rocdl.raw.ptr.buffer.load %rsrc, %x, %soff, %c0 : i32
      rocdl.raw.ptr.buffer.store %v, %rsrc, %x, %c0, %c0 : i32
      gpu.return
    }
  }
}

// -----

// Strides are hoisted as before: a parameter multiplied by a runtime index
// (base + w * i), and one used both as an addend and as a stride (the
// stride decides).

// CHECK-LABEL: gpu.func @stride(
// CHECK-SAME: hoisted = [#spec.hoisted<name = "w"
// CHECK-LABEL: gpu.func @mixed(
// CHECK-SAME: hoisted = [#spec.hoisted<name = "w"
// With hoist-immediate-offsets too, and then no access is counted: a
// stride never fits an immediate offset field.
// HOIST-LABEL: gpu.func @stride(
// HOIST-SAME: hoisted = [#spec.hoisted<name = "w", type = i32, argument = 1>]
// HOIST-LABEL: gpu.func @mixed(
// HOIST-SAME: hoisted = [#spec.hoisted<name = "w", type = i32, argument = 1>]
module attributes {gpu.container_module} {
  gpu.module @s [#rocdl.target<chip = "gfx942">] {
    llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 128 : i64, dso_local} : !llvm.array<4096 x i8>
    gpu.func @stride(%i: i32) kernel {
      // expected-remark @below {{'w' hoisted in kernel @s::@stride: runtime argument 1}}
      %w = spec.param "w" = 64 : i32
      %base = llvm.mlir.addressof @smem : !llvm.ptr<3>
      %row = arith.muli %w, %i : i32
      %p = llvm.getelementptr %base[%row] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
      %v = llvm.load %p : !llvm.ptr<3> -> f32
      llvm.store %v, %base : f32, !llvm.ptr<3>
      gpu.return
    }
    gpu.func @mixed(%i: i32) kernel {
      // expected-remark @below {{'w' hoisted in kernel @s::@mixed: runtime argument 1}}
      %w = spec.param "w" = 64 : i32
      %base = llvm.mlir.addressof @smem : !llvm.ptr<3>
      %tail = llvm.getelementptr %base[%w] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
      %v = llvm.load %tail : !llvm.ptr<3> -> f32
      %row = arith.muli %i, %w : i32
      %p = llvm.getelementptr %base[%row] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
      llvm.store %v, %p : f32, !llvm.ptr<3>
      gpu.return
    }
  }
}

// -----

// Through casts (i32 -> index -> i64, ptrtoint/inttoptr, a constant
// multiplier and shift) and inside a loop body; but a value carried by the
// loop (p += tail every iteration: tail is a stride of the iteration
// count) is not proven a tail, and is hoisted.

// CHECK-LABEL: gpu.func @casts(
// CHECK-SAME: reason = "immediate-offset"
// CHECK-LABEL: gpu.func @loop_body(
// CHECK-SAME: reason = "immediate-offset"
// CHECK-LABEL: gpu.func @loop_carried(
// CHECK-SAME: hoisted = [#spec.hoisted<name = "step"
module attributes {gpu.container_module} {
  gpu.module @c [#rocdl.target<chip = "gfx942">] {
    llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 128 : i64, dso_local} : !llvm.array<4096 x i8>
    gpu.func @casts(%x: i64) kernel {
      // expected-remark @below {{'tail8' kept specialized in kernel @c::@casts: folds into an instruction's immediate offset}}
      %tail = spec.param "tail8" = 8 : i32
      %c2 = arith.constant 2 : i64
      %c1 = arith.constant 1 : i64
      %ti = arith.index_cast %tail : i32 to index
      %t64 = arith.index_cast %ti : index to i64
      %scaled = arith.muli %t64, %c2 : i64
      %shifted = arith.shli %scaled, %c1 : i64
      %base = llvm.mlir.addressof @smem : !llvm.ptr<3>
      %bi = llvm.ptrtoint %base : !llvm.ptr<3> to i64
      %sum = arith.addi %bi, %x : i64
      %addr = arith.addi %sum, %shifted : i64
      %p = llvm.inttoptr %addr : i64 to !llvm.ptr<3>
      // expected-note @below {{needs 'tail8' as a constant here}}
      %v = llvm.load %p : !llvm.ptr<3> -> f32
      llvm.store %v, %base : f32, !llvm.ptr<3>
      gpu.return
    }
    gpu.func @loop_body(%n: index) kernel {
      // expected-remark @below {{'tail16' kept specialized in kernel @c::@loop_body: folds into an instruction's immediate offset}}
      %tail = spec.param "tail16" = 16 : i64
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %base = llvm.mlir.addressof @smem : !llvm.ptr<3>
      scf.for %i = %c0 to %n step %c1 {
        %ii = arith.index_cast %i : index to i64
        %row = llvm.getelementptr %base[%ii] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
        %p = llvm.getelementptr %row[%tail] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
        // expected-note @below {{needs 'tail16' as a constant here}}
        %v = llvm.load %p : !llvm.ptr<3> -> f32
        llvm.store %v, %row : f32, !llvm.ptr<3>
      }
      gpu.return
    }
    gpu.func @loop_carried(%n: index) kernel {
      // expected-remark @below {{'step' hoisted in kernel @c::@loop_carried: runtime argument 1}}
      %tail = spec.param "step" = 16 : i64
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %base = llvm.mlir.addressof @smem : !llvm.ptr<3>
      %end = scf.for %i = %c0 to %n step %c1 iter_args(%p = %base) -> (!llvm.ptr<3>) {
        %v = llvm.load %p : !llvm.ptr<3> -> f32
        llvm.store %v, %base : f32, !llvm.ptr<3>
        %next = llvm.getelementptr %p[%tail] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
        scf.yield %next : !llvm.ptr<3>
      }
      gpu.return
    }
  }
}

// -----

// Constant GEP indices into arrays scale the tail by the element they step
// over; a global access folds within [-4096, 4095] on gfx9.

// CHECK-LABEL: gpu.func @array_gep(
// CHECK-SAME: reason = "immediate-offset"
// CHECK-LABEL: gpu.func @global_tail(
// CHECK-SAME: reason = "immediate-offset"
module attributes {gpu.container_module} {
  gpu.module @g [#rocdl.target<chip = "gfx942">] {
    llvm.mlir.global external @tile() {addr_space = 3 : i32, alignment = 128 : i64, dso_local} : !llvm.array<16 x array<64 x f32>>
    gpu.func @array_gep(%row: i32) kernel {
      // expected-remark @below {{'col' kept specialized in kernel @g::@array_gep: folds into an instruction's immediate offset}}
      %col = spec.param "col" = 3 : i32
      %tile = llvm.mlir.addressof @tile : !llvm.ptr<3>
      %p = llvm.getelementptr %tile[0, %row, %col] : (!llvm.ptr<3>, i32, i32) -> !llvm.ptr<3>, !llvm.array<16 x array<64 x f32>>
      // expected-note @below {{needs 'col' as a constant here}}
      %v = llvm.load %p : !llvm.ptr<3> -> f32
      llvm.store %v, %tile : f32, !llvm.ptr<3>
      gpu.return
    }
    gpu.func @global_tail(%in: !llvm.ptr<1>, %x: i64) kernel {
      // expected-remark @below {{'tail' kept specialized in kernel @g::@global_tail: folds into an instruction's immediate offset}}
      %tail = spec.param "tail" = 1000 : i64
      %p = llvm.getelementptr %in[%x] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
      %q = llvm.getelementptr %p[%tail] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
      // expected-note @below {{needs 'tail' as a constant here}}
      %v = llvm.load %q : !llvm.ptr<1> -> f32
      llvm.store %v, %in : f32, !llvm.ptr<1>
      gpu.return
    }
  }
}

// -----

// What no immediate can hold costs nothing to hoist: a buffer tail of
// 4096 bytes (MUBUF's offset is 12-bit), an LDS tail below the base (ds
// offsets are unsigned), a global one of 4096 bytes. Without a ROCDL
// target the address space says nothing of the instruction, and memref
// accesses are not classified: all hoisted.

// CHECK-LABEL: gpu.func @too_far_buffer(
// CHECK-SAME: hoisted = [#spec.hoisted<name = "tail1k"
// CHECK-LABEL: gpu.func @negative_lds(
// CHECK-SAME: hoisted = [#spec.hoisted<name = "below"
// CHECK-LABEL: gpu.func @too_far_global(
// CHECK-SAME: hoisted = [#spec.hoisted<name = "far"
// CHECK-LABEL: gpu.func @no_target(
// CHECK-SAME: hoisted = [#spec.hoisted<name = "nt"
// CHECK-LABEL: gpu.func @memref_tail(
// CHECK-SAME: hoisted = [#spec.hoisted<name = "mt"
module attributes {gpu.container_module} {
  gpu.module @far [#rocdl.target<chip = "gfx942">] {
    llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 128 : i64, dso_local} : !llvm.array<4096 x i8>
    gpu.func @too_far_buffer(%rsrc: !llvm.ptr<8>, %x: i32) kernel {
      // expected-remark @below {{'tail1k' hoisted in kernel @far::@too_far_buffer: runtime argument 2}}
      %tail = spec.param "tail1k" = 1024 : i32
      %c0 = arith.constant 0 : i32
      %c4 = arith.constant 4 : i32
      %o = arith.addi %x, %tail : i32
      %bytes = arith.muli %o, %c4 : i32
      %v = rocdl.raw.ptr.buffer.load %rsrc, %bytes, %c0, %c0 : i32
      rocdl.raw.ptr.buffer.store %v, %rsrc, %x, %c0, %c0 : i32
      gpu.return
    }
    gpu.func @negative_lds(%x: i32) kernel {
      // expected-remark @below {{'below' hoisted in kernel @far::@negative_lds: runtime argument 1}}
      %tail = spec.param "below" = 4 : i32
      %base = llvm.mlir.addressof @smem : !llvm.ptr<3>
      %d = arith.subi %x, %tail : i32
      %p = llvm.getelementptr %base[%d] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
      %v = llvm.load %p : !llvm.ptr<3> -> f32
      llvm.store %v, %base : f32, !llvm.ptr<3>
      gpu.return
    }
    gpu.func @too_far_global(%in: !llvm.ptr<1>, %x: i64) kernel {
      // expected-remark @below {{'far' hoisted in kernel @far::@too_far_global: runtime argument 2}}
      %tail = spec.param "far" = 1024 : i64
      %p = llvm.getelementptr %in[%x] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
      %q = llvm.getelementptr %p[%tail] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
      %v = llvm.load %q : !llvm.ptr<1> -> f32
      llvm.store %v, %in : f32, !llvm.ptr<1>
      gpu.return
    }
  }
  gpu.module @plain {
    llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 128 : i64, dso_local} : !llvm.array<4096 x i8>
    gpu.func @no_target(%x: i32) kernel {
      // expected-remark @below {{'nt' hoisted in kernel @plain::@no_target: runtime argument 1}}
      %tail = spec.param "nt" = 4 : i32
      %base = llvm.mlir.addressof @smem : !llvm.ptr<3>
      %p = llvm.getelementptr %base[%tail] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f32
      %v = llvm.load %p : !llvm.ptr<3> -> f32
      llvm.store %v, %base : f32, !llvm.ptr<3>
      gpu.return
    }
    gpu.func @memref_tail(%m: memref<?xf32>, %x: index) kernel {
      // expected-remark @below {{'mt' hoisted in kernel @plain::@memref_tail: runtime argument 2}}
      %tail = spec.param "mt" = 4 : index
      %i = arith.addi %x, %tail : index
      %v = memref.load %m[%i] : memref<?xf32>
      memref.store %v, %m[%x] : memref<?xf32>
      gpu.return
    }
  }
}
