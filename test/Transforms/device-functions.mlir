// Device functions (non-kernel functions inside a gpu.module) holding a
// spec.param were materialized silently while the kernel calling them said
// "hoisted": two widths gave two gpu.modules. They are now planned like
// kernels and hoisted through their callers: the device function takes an
// argument, every kernel or device function calling it takes the name too
// (whether or not it uses it) and passes it; a caller that cannot keeps the
// name with the reason and passes the constant.
// RUN: fly-opt %s -split-input-file -hoist-stride-specialization -verify-diagnostics \
// RUN:   -mlir-print-op-on-diagnostic=false -o /dev/null
// RUN: fly-opt %s -split-input-file -hoist-stride-specialization=remarks=false | FileCheck %s
// RUN: fly-opt %s -split-input-file -hoist-stride-specialization="remarks=false divisibility=8 narrow-range" \
// RUN:   | fly-opt -split-input-file -verify-each -mlir-print-op-generic | fly-opt -split-input-file -verify-each -o /dev/null

// A kernel that holds no parameter calls a device function that does; the
// device function is also reached through a chain and calls itself.

// CHECK-LABEL: gpu.module @chain
// CHECK: func.func @entry(%[[A:.*]]: memref<?xf32>, %[[W:.*]]: index) attributes {gpu.kernel, spec.record = #spec.record<hoisted = [#spec.hoisted<name = "w", type = index, argument = 1>], kept = [], kept_locations = [], launch_sites = [#loc{{[0-9]*}}]>}
// CHECK: call @middle(%[[A]], %[[W]])
// CHECK: func.func @middle(%[[MA:.*]]: memref<?xf32>, %[[MW:.*]]: index) attributes {spec.record = #spec.record<device = true, hoisted = [#spec.hoisted<name = "w", type = index, argument = 1>], kept = [], kept_locations = [], launch_sites = [#loc{{[0-9]*}}]>} {
// CHECK: call @leaf(%[[MA]], %{{.*}}, %[[MW]])
// CHECK: func.func @leaf(%[[LA:.*]]: memref<?xf32>, %[[LN:.*]]: index, %[[LW:.*]]: index) attributes {spec.record = #spec.record<device = true, hoisted = [#spec.hoisted<name = "w", type = index, argument = 2>], kept = [], kept_locations = [], launch_sites = [#loc{{[0-9]*}}, #loc{{[0-9]*}}]>} {
// CHECK-NOT: spec.
// CHECK: memref.load %[[LA]][%[[LW]]]
// CHECK: call @leaf(%[[LA]], %{{.*}}, %[[LW]])
// CHECK-LABEL: func.func @launch_chain
// CHECK: %[[C:.*]] = arith.constant 4 : index
// CHECK: gpu.launch_func @chain::@entry {{.*}} args(%{{.*}} : memref<?xf32>, %[[C]] : index)
module attributes {gpu.container_module} {
  gpu.module @chain {
    // expected-remark @below {{'w' hoisted in kernel @chain::@entry: runtime argument 1, passed on to @chain::@middle}}
    func.func @entry(%a: memref<?xf32>) attributes {gpu.kernel} {
      func.call @middle(%a) : (memref<?xf32>) -> ()
      return
    }
    // expected-remark @below {{'w' hoisted in device function @chain::@middle: runtime argument 1, passed on to @chain::@leaf}}
    func.func @middle(%a: memref<?xf32>) {
      %c3 = arith.constant 3 : index
      func.call @leaf(%a, %c3) : (memref<?xf32>, index) -> ()
      return
    }
    func.func @leaf(%a: memref<?xf32>, %n: index) {
      // expected-remark @below {{'w' hoisted in device function @chain::@leaf: runtime argument 2, passed on to @chain::@leaf}}
      %w = spec.param "w" = 4 : index
      %v = memref.load %a[%w] : memref<?xf32>
      memref.store %v, %a[%n] : memref<?xf32>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %done = arith.cmpi eq, %n, %c0 : index
      scf.if %done {
      } else {
        %m = arith.subi %n, %c1 : index
        func.call @leaf(%a, %m) : (memref<?xf32>, index) -> ()
      }
      return
    }
  }
  func.func @launch_chain(%a: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @chain::@entry blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>)
    return
  }
}

// -----

// Mutual recursion between two device functions, one holding the parameter:
// both take it and pass it to each other. A gpu.func kernel calls in.

// CHECK-LABEL: gpu.module @mutual
// CHECK: gpu.func @k(%[[A:.*]]: memref<?xf32>, %[[W:.*]]: i32) kernel
// CHECK: call @ping(%[[A]], %{{.*}}, %[[W]])
// CHECK: func.func @ping(%{{.*}}: memref<?xf32>, %{{.*}}: index, %[[PW:.*]]: i32)
// CHECK: call @pong(%{{.*}}, %{{.*}}, %[[PW]])
// CHECK: func.func @pong(%{{.*}}: memref<?xf32>, %{{.*}}: index, %[[QW:.*]]: i32)
// CHECK: arith.index_cast %[[QW]]
// CHECK: call @ping(%{{.*}}, %{{.*}}, %[[QW]])
module attributes {gpu.container_module} {
  gpu.module @mutual {
    // expected-remark @below {{'w' hoisted in kernel @mutual::@k: runtime argument 1, passed on to @mutual::@ping}}
    gpu.func @k(%a: memref<?xf32>) kernel {
      %c2 = arith.constant 2 : index
      func.call @ping(%a, %c2) : (memref<?xf32>, index) -> ()
      gpu.return
    }
    // expected-remark @below {{'w' hoisted in device function @mutual::@ping: runtime argument 2, passed on to @mutual::@pong}}
    func.func @ping(%a: memref<?xf32>, %n: index) {
      func.call @pong(%a, %n) : (memref<?xf32>, index) -> ()
      return
    }
    func.func @pong(%a: memref<?xf32>, %n: index) {
      // expected-remark @below {{'w' hoisted in device function @mutual::@pong: runtime argument 2, passed on to @mutual::@ping}}
      %w = spec.param "w" = 16 : i32
      %wi = arith.index_cast %w : i32 to index
      %i = arith.addi %wi, %n : index
      %v = memref.load %a[%i] : memref<?xf32>
      memref.store %v, %a[%n] : memref<?xf32>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %more = arith.cmpi ne, %n, %c0 : index
      scf.if %more {
        %m = arith.subi %n, %c1 : index
        func.call @ping(%a, %m) : (memref<?xf32>, index) -> ()
      }
      return
    }
  }
}

// -----

// Callers that cannot take the argument keep the name and pass the constant:
// one uses it as a loop bound, one holds it as another type, one calls from
// inside gpu.all_reduce, one's address is taken. The device function still
// hoists it (other callers may pass a runtime value), and a device function
// with a blocking use keeps its own, saying so.

// CHECK-LABEL: gpu.module @refuse
// CHECK: func.func @bound(%[[A:.*]]: memref<?xf32>) attributes {gpu.kernel, spec.record = #spec.record<hoisted = []
// CHECK: scf.for
// CHECK: %[[C:.*]] = arith.constant 4 : index
// CHECK: call @dev(%[[A]], %[[C]])
// CHECK: func.func @dev(%{{.*}}: memref<?xf32>, %{{.*}}: index) attributes {spec.record = #spec.record<device = true, hoisted = [#spec.hoisted<name = "w", type = index, argument = 1>], kept = [], kept_locations = [], launch_sites = [#loc{{[0-9]*}}, #loc{{[0-9]*}}, #loc{{[0-9]*}}]>} {
// CHECK: func.func @typed(%{{.*}}: memref<?xf32>) attributes {gpu.kernel, spec.record = #spec.record<hoisted = []
// CHECK: arith.constant 4 : i32
// CHECK: call @dev(%{{.*}}, %{{.*}}) : (memref<?xf32>, index) -> ()
// CHECK: gpu.func @reducer(%{{.*}}: memref<?xf32>, %{{.*}}: f32) kernel
// CHECK: gpu.all_reduce
// CHECK: arith.constant 4 : index
// CHECK: call @dev(
// CHECK: func.func @taken(%{{.*}}: memref<?xf32>) attributes {spec.record = #spec.record<device = true, hoisted = [], kept = [#spec.kept<name = "w", value = 4, reason = "unknown-reference", op = "func.constant">], kept_locations = [#loc{{[0-9]*}}], launch_sites = []>} {
// CHECK: arith.constant 4 : index
// CHECK: func.func @loops(%{{.*}}: memref<?xf32>) attributes {spec.record = #spec.record<device = true, hoisted = [], kept = [#spec.kept<name = "n", value = 7, reason = "loop-bound">], kept_locations = [#loc{{[0-9]*}}], launch_sites = []>} {
// CHECK: arith.constant 7 : index
module attributes {gpu.container_module} {
  gpu.module @refuse {
    func.func @bound(%a: memref<?xf32>) attributes {gpu.kernel} {
      // expected-remark @below {{'w' kept specialized in kernel @refuse::@bound: loop bound or step}}
      %w = spec.param "w" = 4 : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      // expected-note @below {{needs 'w' as a constant here}}
      scf.for %i = %c0 to %w step %c1 {
        func.call @dev(%a) : (memref<?xf32>) -> ()
      }
      return
    }
    func.func @dev(%a: memref<?xf32>) {
      // expected-remark @below {{'w' hoisted in device function @refuse::@dev: runtime argument 1}}
      %w = spec.param "w" = 4 : index
      %v = memref.load %a[%w] : memref<?xf32>
      memref.store %v, %a[%w] : memref<?xf32>
      return
    }
    func.func @typed(%a: memref<?xf32>) attributes {gpu.kernel} {
      // expected-remark @below {{'w' kept specialized in kernel @refuse::@typed: used as i32 here but passed as index to @refuse::@dev}}
      %w = spec.param "w" = 4 : i32
      %wi = arith.index_cast %w : i32 to index
      %v = memref.load %a[%wi] : memref<?xf32>
      memref.store %v, %a[%wi] : memref<?xf32>
      // expected-note @below {{needs 'w' as a constant here}}
      func.call @dev(%a) : (memref<?xf32>) -> ()
      return
    }
    // expected-remark @below {{'w' kept specialized in kernel @refuse::@reducer: passed to @refuse::@dev from inside 'gpu.all_reduce', whose region is isolated from above: no argument can reach it}}
    gpu.func @reducer(%a: memref<?xf32>, %x: f32) kernel {
      %r = gpu.all_reduce %x uniform {
      ^bb0(%l: f32, %rr: f32):
        %buf = memref.alloca() : memref<8xf32>
        %cast = memref.cast %buf : memref<8xf32> to memref<?xf32>
        // expected-note @below {{needs 'w' as a constant here}}
        func.call @dev(%cast) : (memref<?xf32>) -> ()
        %s = arith.addf %l, %rr : f32
        gpu.yield %s : f32
      } : (f32) -> f32
      gpu.return
    }
    func.func @taken(%a: memref<?xf32>) {
      // expected-remark @below {{'w' kept specialized in device function @refuse::@taken: the device function is referenced by 'func.constant', which the pass cannot give a new argument}}
      %w = spec.param "w" = 4 : index
      %v = memref.load %a[%w] : memref<?xf32>
      memref.store %v, %a[%w] : memref<?xf32>
      return
    }
    func.func @table() {
      // expected-note @below {{needs 'w' as a constant here}}
      %f = func.constant @taken : (memref<?xf32>) -> ()
      return
    }
    func.func @loops(%a: memref<?xf32>) {
      // expected-remark @below {{'n' kept specialized in device function @refuse::@loops: loop bound or step}}
      %n = spec.param "n" = 7 : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      // expected-note @below {{needs 'n' as a constant here}}
      scf.for %i = %c0 to %n step %c1 {
        %v = memref.load %a[%i] : memref<?xf32>
        memref.store %v, %a[%i] : memref<?xf32>
      }
      return
    }
  }
}

// -----

// A device function calling a kernel (by its local name) and a device
// function nobody calls: both hoist; the caller passes its own argument.

// CHECK-LABEL: gpu.module @around
// CHECK: func.func @kern(%{{.*}}: memref<?xf32>, %{{.*}}: index) attributes {gpu.kernel
// CHECK: func.func @caller(%[[A:.*]]: memref<?xf32>, %[[W:.*]]: index) attributes {spec.record = #spec.record<device = true, hoisted = [#spec.hoisted<name = "w", type = index, argument = 1>], kept = [], kept_locations = [], launch_sites = []>} {
// CHECK: call @kern(%[[A]], %[[W]])
// CHECK: func.func @orphan(%{{.*}}: memref<?xf32>, %{{.*}}: index) attributes {spec.record = #spec.record<device = true, hoisted = [#spec.hoisted<name = "v", type = index, argument = 1>], kept = [], kept_locations = [], launch_sites = []>} {
module attributes {gpu.container_module} {
  gpu.module @around {
    func.func @kern(%a: memref<?xf32>) attributes {gpu.kernel} {
      // expected-remark @below {{'w' hoisted in kernel @around::@kern: runtime argument 1}}
      %w = spec.param "w" = 4 : index
      %v = memref.load %a[%w] : memref<?xf32>
      memref.store %v, %a[%w] : memref<?xf32>
      return
    }
    // expected-remark @below {{'w' hoisted in device function @around::@caller: runtime argument 1, passed on to @around::@kern}}
    func.func @caller(%a: memref<?xf32>) {
      func.call @kern(%a) : (memref<?xf32>) -> ()
      return
    }
    func.func @orphan(%a: memref<?xf32>) {
      // expected-remark @below {{'v' hoisted in device function @around::@orphan: runtime argument 1}}
      %w = spec.param "v" = 2 : index
      %v = memref.load %a[%w] : memref<?xf32>
      memref.store %v, %a[%w] : memref<?xf32>
      return
    }
  }
}

// -----

// A parameter in a gpu.module outside any function is baked into the module:
// it is materialized, and the remark says so.

// CHECK-LABEL: gpu.module @global
// CHECK: llvm.mlir.global internal constant @offset()
// CHECK: arith.constant 9 : i64
module attributes {gpu.container_module} {
  gpu.module @global {
    llvm.mlir.global internal constant @offset() : i64 {
      // expected-remark @below {{'o' kept specialized in @global: outside any function, nothing can pass it at run time}}
      %o = spec.param "o" = 9 : i64
      llvm.return %o : i64
    }
  }
}
