// flyhoist-pass-faults (bench/pass_faults.cpp): one line per pass, in pipeline
// order, with its page faults and microseconds; a failing pass is reported
// too and makes the exit status non-zero.
// RUN: flyhoist-pass-faults 'builtin.module(hoist-stride-specialization{remarks=false},cse)' %s | FileCheck %s
// RUN: not flyhoist-pass-faults 2>&1 | FileCheck %s --check-prefix=USAGE
// RUN: not flyhoist-pass-faults 'builtin.module(no-such-pass)' %s 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: not flyhoist-pass-faults 'builtin.module(hoist-stride-specialization{divisibility=3})' %s 2>&1 | FileCheck %s --check-prefix=FAILED

// CHECK: {{^}}HoistStrideSpecialization {{[0-9]+}} {{[0-9.e+-]+$}}
// CHECK-NEXT: {{^}}CSE {{[0-9]+}} {{[0-9.e+-]+$}}
// CHECK-NOT: {{.}}

// USAGE: usage: flyhoist-pass-faults PIPELINE FILE

// PIPELINE: {{.*}}'no-such-pass'

// FAILED: divisibility=3 must be a power of two
// FAILED: {{^}}HoistStrideSpecialization {{[0-9]+}}

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%buf: memref<?xf32>) kernel {
      %tid = gpu.thread_id x
      %stride = spec.param "stride" = 17 : index
      %at = arith.muli %tid, %stride : index
      %v = memref.load %buf[%at] : memref<?xf32>
      memref.store %v, %buf[%tid] : memref<?xf32>
      gpu.return
    }
  }
  func.func @host(%buf: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%buf : memref<?xf32>)
    return
  }
}
