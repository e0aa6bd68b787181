// With hoist-into-host, one host function launching the name `w` at i32 into
// one kernel and at index into another took two host arguments, but both
// kernels' records named the first (host argument indices were kept per
// name). Arguments are numbered per (name, type): each record names its own.
// RUN: fly-opt %s -hoist-stride-specialization="remarks=false hoist-into-host manifest=%t.json" | FileCheck %s
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.json

// CHECK-LABEL: func.func @k32(
// CHECK-SAME: %{{.*}}: i32)
// CHECK-SAME: #spec.hoisted<name = "w", type = i32, argument = 2, host_argument = 2>
// CHECK-LABEL: func.func @kidx(
// CHECK-SAME: %{{.*}}: index)
// CHECK-SAME: #spec.hoisted<name = "w", type = index, argument = 2, host_argument = 3>
// CHECK-LABEL: func.func @host(
// CHECK-SAME: %[[M:.*]]: memref<?xf32>, %[[I:.*]]: index, %[[W32:.*]]: i32, %[[WIDX:.*]]: index)
// CHECK: call @k32(%[[M]], %[[I]], %[[W32]])
// CHECK: call @kidx(%[[M]], %[[I]], %[[WIDX]])
// MANIFEST: "host_argument": 2,
// MANIFEST: "symbol": "@k32"
// MANIFEST: "host_argument": 3,
// MANIFEST: "symbol": "@kidx"
func.func @k32(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %w = spec.param "w" = 16 : i32
  %wi = arith.index_cast %w : i32 to index
  %o = arith.muli %i, %wi : index
  %v = memref.load %m[%o] : memref<?xf32>
  return
}
func.func @kidx(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %w = spec.param "w" = 16 : index
  %o = arith.muli %i, %w : index
  %v = memref.load %m[%o] : memref<?xf32>
  return
}
func.func @host(%m: memref<?xf32>, %i: index) {
  call @k32(%m, %i) : (memref<?xf32>, index) -> ()
  call @kidx(%m, %i) : (memref<?xf32>, index) -> ()
  return
}
