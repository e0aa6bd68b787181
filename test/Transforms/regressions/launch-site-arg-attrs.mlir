// A launch-site func.call/llvm.call with per-argument attributes (arg_attrs):
// the pass appended the hoisted value without extending the array, so
// printing the llvm.call read past its end (segfault in
// call_interface_impl::printFunctionSignature) and the func.call kept an
// array shorter than its arguments. Every op whose attributes follow its
// operands (arg_attrs, operandSegmentSizes of gpu.launch_func and llvm.call
// with async dependencies, cluster sizes, dynamic shared memory, operand
// bundles) must stay consistent, print, and read back.
// RUN: fly-opt %s -split-input-file -hoist-stride-specialization=remarks=false | FileCheck %s
// RUN: fly-opt %s -split-input-file -hoist-stride-specialization="remarks=false hoist-into-host" \
// RUN:   | fly-opt -split-input-file -verify-each -mlir-print-op-generic \
// RUN:   | fly-opt -split-input-file -verify-each | FileCheck %s --check-prefix=ROUND
// A launch site whose arg_attrs do not match its arguments is refused:
// test/Transforms/hoist-stride-specialization-contract-errors.mlir.

// func.call with arg_attrs and res_attrs, two results.

// CHECK-LABEL: func.func @host_func
// CHECK: %[[C:.*]] = arith.constant 4 : index
// CHECK: call @fk(%{{.*}}, %[[C]]) {arg_attrs = [{llvm.noalias}, {}], res_attrs = [{llvm.zeroext}, {}]} : (memref<?xf32>, index) -> (i32, i64)
// ROUND-LABEL: func.func @host_func
// ROUND-SAME: (%{{.*}}: memref<?xf32>, %[[HW:.*]]: index)
// ROUND: call @fk(%{{.*}}, %[[HW]]) {arg_attrs = [{llvm.noalias}, {}], res_attrs = [{llvm.zeroext}, {}]}
func.func @fk(%m: memref<?xf32>) -> (i32, i64) {
  %w = spec.param "w" = 4 : index
  %v = memref.load %m[%w] : memref<?xf32>
  memref.store %v, %m[%w] : memref<?xf32>
  %a = arith.constant 0 : i32
  %b = arith.constant 0 : i64
  return %a, %b : i32, i64
}
func.func @host_func(%m: memref<?xf32>) {
  %r:2 = func.call @fk(%m) {arg_attrs = [{llvm.noalias}], res_attrs = [{llvm.zeroext}, {}]} : (memref<?xf32>) -> (i32, i64)
  return
}

// -----

// llvm.call with arg_attrs (printed inside the signature), res_attrs, a result,
// and an operand bundle after the arguments; two hoisted values.

// CHECK-LABEL: llvm.func @host_llvm
// CHECK-DAG: %[[A:.*]] = llvm.mlir.constant(2 : i64) : i64
// CHECK-DAG: %[[B:.*]] = llvm.mlir.constant(6 : i32) : i32
// CHECK: llvm.call @lk(%{{.*}}, %{{.*}}, %[[A]], %[[B]]) ["tag"(%{{.*}} : i32)] : (!llvm.ptr {llvm.noalias, llvm.nonnull}, i32 {llvm.signext}, i64, i32) -> (i32 {llvm.zeroext})
// ROUND-LABEL: llvm.func @host_llvm
// ROUND-SAME: (%{{.*}}: !llvm.ptr, %{{.*}}: i32, %[[HA:.*]]: i64, %[[HB:.*]]: i32)
// ROUND: llvm.call @lk(%{{.*}}, %{{.*}}, %[[HA]], %[[HB]]) ["tag"
llvm.func @lk(%p: !llvm.ptr, %x: i32) -> i32 {
  %a = spec.param "a" = 2 : i64
  %b = spec.param "b" = 6 : i32
  %g = llvm.getelementptr %p[%a] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %h = llvm.getelementptr %g[%b] : (!llvm.ptr, i32) -> !llvm.ptr, f32
  %v = llvm.load %h : !llvm.ptr -> f32
  llvm.store %v, %p : f32, !llvm.ptr
  llvm.return %x : i32
}
llvm.func @host_llvm(%p: !llvm.ptr, %x: i32) {
  %r = llvm.call @lk(%p, %x) ["tag"(%x : i32)] {arg_attrs = [{llvm.noalias, llvm.nonnull}, {llvm.signext}], res_attrs = [{llvm.zeroext}]} : (!llvm.ptr, i32) -> i32
  llvm.return
}

// -----

// gpu.launch_func with async dependencies and token, cluster sizes and dynamic
// shared memory: the kernel operands are one segment among many.

// CHECK-LABEL: func.func @host_launch
// CHECK: %[[C:.*]] = arith.constant 8 : index
// CHECK: gpu.launch_func async [%{{.*}}]{{ ?}}<%{{.*}} : !gpu.async.token> @m::@gk clusters in (%{{.*}}, %{{.*}}, %{{.*}}) blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) : i64 dynamic_shared_memory_size %{{.*}} args(%{{.*}} : memref<?xf32>, %[[C]] : index)
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @gk(%m: memref<?xf32>) kernel {
      %w = spec.param "w" = 8 : index
      %v = memref.load %m[%w] : memref<?xf32>
      memref.store %v, %m[%w] : memref<?xf32>
      gpu.return
    }
  }
  func.func @host_launch(%m: memref<?xf32>, %s: i32) {
    %c1 = arith.constant 1 : i64
    %t = gpu.wait async
    %done = gpu.launch_func async [%t] <%t : !gpu.async.token> @m::@gk clusters in (%c1, %c1, %c1) blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64 dynamic_shared_memory_size %s args(%m : memref<?xf32>)
    return
  }
}
