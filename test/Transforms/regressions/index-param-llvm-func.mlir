// An index-typed spec.param of an llvm.func kernel became an `index` argument
// of the llvm.func, which the LLVM dialect rejects ("'llvm.func' op entry
// block argument #1 is not of LLVM type"), and the llvm.call passing it
// failed too. The argument is now the integer of the index width (64 by
// default, the data layout's otherwise), cast back to index for the kernel's
// own uses; the launch site passes that integer.
// RUN: fly-opt %s -split-input-file -hoist-stride-specialization=remarks=false | FileCheck %s
// RUN: fly-opt %s -split-input-file -hoist-stride-specialization="remarks=false divisibility=16 narrow-range hoist-into-host" \
// RUN:   | fly-opt -split-input-file -verify-each -mlir-print-op-generic | fly-opt -split-input-file -verify-each -o /dev/null
// RUN: fly-opt %s -split-input-file -hoist-stride-specialization="remarks=false hoist-into-host" | FileCheck %s --check-prefix=HOST

// Launched by llvm.call from LLVM host code.

// CHECK-LABEL: llvm.func @k(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %[[W:.*]]: i64)
// CHECK-SAME: spec.record = #spec.record<hoisted = [#spec.hoisted<name = "w", type = i64, argument = 1>]
// CHECK: %[[IDX:.*]] = arith.index_cast %[[W]] : i64 to index
// CHECK: arith.index_cast %[[IDX]] : index to i64
// CHECK-LABEL: llvm.func @host(
// CHECK: %[[C:.*]] = llvm.mlir.constant(40 : i64) : i64
// CHECK: llvm.call @k(%{{.*}}, %[[C]]) : (!llvm.ptr, i64) -> ()
// HOST-LABEL: llvm.func @host(
// HOST-SAME: %{{.*}}: !llvm.ptr, %[[HW:.*]]: i64)
// HOST: llvm.call @k(%{{.*}}, %[[HW]]) : (!llvm.ptr, i64) -> ()
llvm.func @k(%p: !llvm.ptr) {
  %w = spec.param "w" = 40 : index
  %wi = arith.index_cast %w : index to i64
  %g = llvm.getelementptr %p[%wi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %v = llvm.load %g : !llvm.ptr -> f32
  llvm.store %v, %p : f32, !llvm.ptr
  llvm.return
}
llvm.func @host(%p: !llvm.ptr) {
  llvm.call @k(%p) : (!llvm.ptr) -> ()
  llvm.return
}

// -----

// A 32-bit index (data layout): the argument is i32. The host is a func.func
// holding the value as index, with hoist-into-host: it takes an index
// argument and casts it for the llvm.call.

// CHECK-LABEL: llvm.func @k32(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %[[W:.*]]: i32)
// CHECK: arith.index_cast %[[W]] : i32 to index
// CHECK-LABEL: func.func @fhost(
// CHECK: %[[C:.*]] = llvm.mlir.constant(40 : i32) : i32
// CHECK: llvm.call @k32(%{{.*}}, %[[C]]) : (!llvm.ptr, i32) -> ()
// HOST-LABEL: func.func @fhost(
// HOST-SAME: %{{.*}}: !llvm.ptr, %[[HW:.*]]: index) -> index
// HOST: %[[CAST:.*]] = arith.index_cast %[[HW]] : index to i32
// HOST: llvm.call @k32(%{{.*}}, %[[CAST]]) : (!llvm.ptr, i32) -> ()
// HOST: return %[[HW]] : index
module attributes {dlti.dl_spec = #dlti.dl_spec<index = 32 : i64>} {
  llvm.func @k32(%p: !llvm.ptr) {
    %w = spec.param "w" = 40 : index
    %wi = arith.index_cast %w : index to i32
    %g = llvm.getelementptr %p[%wi] : (!llvm.ptr, i32) -> !llvm.ptr, f32
    %v = llvm.load %g : !llvm.ptr -> f32
    llvm.store %v, %p : f32, !llvm.ptr
    llvm.return
  }
  func.func @fhost(%p: !llvm.ptr) -> index {
    %w = spec.param "w" = 40 : index
    llvm.call @k32(%p) : (!llvm.ptr) -> ()
    return %w : index
  }
}

// -----

// An llvm.func kernel in a gpu.module, launched by gpu.launch_func; `equals`
// next to a plain use in the same kernel.

// CHECK-LABEL: llvm.func @gk(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %{{.*}}: i64, %[[W:.*]]: i64)
// CHECK-SAME: spec.record = #spec.record<hoisted = [#spec.hoisted<name = "w", type = i64, argument = 2, preconditions = [#spec.equals<argument = 1, part = value>]>]
// CHECK-LABEL: func.func @launch(
// CHECK: %[[C:.*]] = arith.constant 40 : i64
// CHECK: gpu.launch_func @m::@gk {{.*}} args(%{{.*}} : !llvm.ptr, %{{.*}} : i64, %[[C]] : i64)
module attributes {gpu.container_module} {
  gpu.module @m {
    llvm.func @gk(%p: !llvm.ptr, %n: i64) attributes {gpu.kernel} {
      %ni = arith.index_cast %n : i64 to index
      %w = spec.param "w" = 40 : index
      %e = spec.param "w" = 40 equals %ni : index
      %wi = arith.index_cast %w : index to i64
      %ei = arith.index_cast %e : index to i64
      %g = llvm.getelementptr %p[%wi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %h = llvm.getelementptr %g[%ei] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %h : !llvm.ptr -> f32
      llvm.store %v, %p : f32, !llvm.ptr
      llvm.return
    }
  }
  func.func @launch(%p: !llvm.ptr, %n: i64) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @m::@gk blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%p : !llvm.ptr, %n : i64)
    return
  }
}

// -----

// An llvm.func device function with an index parameter, called by an llvm.func
// kernel that holds none: both take i64, the kernel passes its argument on
// without a cast.

// CHECK-LABEL: llvm.func @pass(
// CHECK-SAME: %[[P:.*]]: !llvm.ptr, %[[W:.*]]: i64)
// CHECK-NOT: arith.index_cast
// CHECK: llvm.call @dev(%[[P]], %[[W]]) : (!llvm.ptr, i64) -> ()
// CHECK-LABEL: llvm.func @dev(
// CHECK-SAME: %{{.*}}: !llvm.ptr, %[[DW:.*]]: i64)
// CHECK: arith.index_cast %[[DW]] : i64 to index
module attributes {gpu.container_module} {
  gpu.module @m {
    llvm.func @pass(%p: !llvm.ptr) attributes {gpu.kernel} {
      llvm.call @dev(%p) : (!llvm.ptr) -> ()
      llvm.return
    }
    llvm.func @dev(%p: !llvm.ptr) {
      %w = spec.param "w" = 40 : index
      %wi = arith.index_cast %w : index to i64
      %g = llvm.getelementptr %p[%wi] : (!llvm.ptr, i64) -> !llvm.ptr, f32
      %v = llvm.load %g : !llvm.ptr -> f32
      llvm.store %v, %p : f32, !llvm.ptr
      llvm.return
    }
  }
}
