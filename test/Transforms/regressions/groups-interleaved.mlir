// The pass plans and rewrites one group of functions at a time (a kernel and
// the device functions it calls; most groups are one kernel), each group
// right after it is planned. The groups here interleave in IR order: kernel
// @b calls device function @d, defined after the isolated kernels @a and @c,
// and @e calls itself. What a group's rewrite adds (launch-site operands, the
// block's shared constants, a host argument) must not change what a later
// group plans, and a host argument must be shared by every kernel that
// passes the name, whichever group comes first.
// RUN: fly-opt %s -split-input-file -hoist-stride-specialization=remarks=false | FileCheck %s
// RUN: fly-opt %s -split-input-file -hoist-stride-specialization="remarks=false hoist-into-host" \
// RUN:   | FileCheck %s --check-prefix=HOST
// RUN: fly-opt %s -split-input-file -hoist-stride-specialization -verify-diagnostics \
// RUN:   -mlir-print-op-on-diagnostic=false -o /dev/null

// CHECK-LABEL: gpu.module @g
// CHECK: gpu.func @a(%{{.*}}: memref<?xf32>, %[[AW:.*]]: index) kernel
// CHECK: memref.load %{{.*}}[%[[AW]]]
// CHECK: gpu.func @b(%{{.*}}: memref<?xf32>, %[[BH:.*]]: index, %[[BW:.*]]: index) kernel
// CHECK: func.call @d(%{{.*}}, %[[BW]])
// CHECK: memref.load %{{.*}}[%[[BH]]]
// CHECK: gpu.func @c(%{{.*}}: memref<?xf32>, %[[CW:.*]]: index) kernel
// CHECK: func.func @d(%{{.*}}: memref<?xf32>, %[[DW:.*]]: index)
// CHECK: memref.load %{{.*}}[%[[DW]]]
// CHECK: func.func @e(%{{.*}}: memref<?xf32>, %{{.*}}: index, %[[EW:.*]]: index)
// CHECK: call @e(%{{.*}}, %{{.*}}, %[[EW]])
// CHECK-LABEL: func.func @host
// One constant per value, before the block's first launch site, shared.
// CHECK-DAG: %[[W:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[H:.*]] = arith.constant 9 : index
// CHECK-NOT: arith.constant 4 : index
// CHECK-NOT: arith.constant 9 : index
// CHECK: gpu.launch_func @g::@a {{.*}} args(%{{.*}} : memref<?xf32>, %[[W]] : index)
// CHECK: gpu.launch_func @g::@b {{.*}} args(%{{.*}} : memref<?xf32>, %[[H]] : index, %[[W]] : index)
// CHECK: gpu.launch_func @g::@c {{.*}} args(%{{.*}} : memref<?xf32>, %[[W]] : index)

// HOST-LABEL: func.func @host
// HOST-SAME: (%{{.*}}: memref<?xf32>, %[[W:.*]]: index, %[[H:.*]]: index)
// HOST-NOT: arith.constant 4 : index
// HOST: gpu.launch_func @g::@a {{.*}} args(%{{.*}} : memref<?xf32>, %[[W]] : index)
// HOST: gpu.launch_func @g::@b {{.*}} args(%{{.*}} : memref<?xf32>, %[[H]] : index, %[[W]] : index)
// HOST: gpu.launch_func @g::@c {{.*}} args(%{{.*}} : memref<?xf32>, %[[W]] : index)
module attributes {gpu.container_module} {
  gpu.module @g {
    gpu.func @a(%m: memref<?xf32>) kernel {
      // expected-remark @below {{'w' hoisted in kernel @g::@a: runtime argument 1}}
      %w = spec.param "w" = 4 : index
      %v = memref.load %m[%w] : memref<?xf32>
      memref.store %v, %m[%w] : memref<?xf32>
      gpu.return
    }
    // expected-remark @below {{'w' hoisted in kernel @g::@b: runtime argument 2, passed on to @g::@d}}
    gpu.func @b(%m: memref<?xf32>) kernel {
      // expected-remark @below {{'h' hoisted in kernel @g::@b: runtime argument 1}}
      %h = spec.param "h" = 9 : index
      func.call @d(%m) : (memref<?xf32>) -> ()
      %v = memref.load %m[%h] : memref<?xf32>
      memref.store %v, %m[%h] : memref<?xf32>
      gpu.return
    }
    gpu.func @c(%m: memref<?xf32>) kernel {
      // expected-remark @below {{'w' hoisted in kernel @g::@c: runtime argument 1}}
      %w = spec.param "w" = 4 : index
      %v = memref.load %m[%w] : memref<?xf32>
      memref.store %v, %m[%w] : memref<?xf32>
      gpu.return
    }
    func.func @d(%m: memref<?xf32>) {
      // expected-remark @below {{'w' hoisted in device function @g::@d: runtime argument 1}}
      %w = spec.param "w" = 4 : index
      %v = memref.load %m[%w] : memref<?xf32>
      memref.store %v, %m[%w] : memref<?xf32>
      return
    }
    func.func @e(%m: memref<?xf32>, %n: index) {
      // expected-remark @below {{'w' hoisted in device function @g::@e: runtime argument 2, passed on to @g::@e}}
      %w = spec.param "w" = 4 : index
      %v = memref.load %m[%w] : memref<?xf32>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %done = arith.cmpi eq, %n, %c0 : index
      scf.if %done {
        memref.store %v, %m[%w] : memref<?xf32>
      } else {
        %k = arith.subi %n, %c1 : index
        func.call @e(%m, %k) : (memref<?xf32>, index) -> ()
      }
      return
    }
  }
  func.func @host(%m: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @g::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>)
    gpu.launch_func @g::@b blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>)
    gpu.launch_func @g::@c blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>)
    return
  }
}
