// The decisions reach MLIR's optimization-remark engine (YAML here) whether
// or not the pass's own diagnostic remarks are on: one !Passed per hoisted or
// removed parameter per function, one !Missed with the reason per kept one.
// (The pass's Statistics count the same; Debian's LLVM 22 is built without
// LLVM_ENABLE_STATS, so --mlir-pass-statistics shows them only with an LLVM
// that has statistics.)
// RUN: fly-opt %s --hoist-stride-specialization=remarks=false --remarks-filter=hoist-stride-specialization --remark-format=yaml --remarks-output-file=%t.yaml | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s --check-prefix=YAML < %t.yaml
// RUN: fly-opt %s --hoist-stride-specialization=remarks=false --remarks-filter-missed=hoist-stride-specialization --remark-format=yaml --remarks-output-file=%t.missed.yaml > /dev/null
// RUN: FileCheck %s --check-prefix=MISSED < %t.missed.yaml

// 'w' is hoisted in both kernels, 'h' is kept in @a (a loop bound) and 'u'
// is unused in @b.

// IR-LABEL: gpu.func @a
// IR-SAME: %{{.*}}: index, %{{.*}}: index) kernel

// YAML-LABEL: --- !Missed
// YAML-NEXT: Pass: 'hoist-stride-specialization:h'
// YAML-NEXT: Name: StrideSpecialization
// YAML-NEXT: DebugLoc: { File: '{{.*}}remark-engine.mlir',
// YAML: Line: [[#LINE_H:]], Column: 12 }
// YAML-NEXT: Function: '@g::@a'
// YAML-NEXT: Args:
// YAML-NEXT:   - Remark: '''h'' kept'
// YAML-NEXT:   - Reason: loop bound or step
// YAML-LABEL: --- !Passed
// YAML-NEXT: Pass: 'hoist-stride-specialization:w'
// YAML-NEXT: Name: StrideSpecialization
// YAML-NEXT: DebugLoc: { File: '{{.*}}remark-engine.mlir',
// YAML: Line: [[#LINE_H - 1]], Column: 12 }
// YAML-NEXT: Function: '@g::@a'
// YAML-NEXT: Args:
// YAML-NEXT:   - Remark: '''w'' hoisted'
// YAML-NEXT:   - argument: '2'
// YAML-LABEL: --- !Passed
// YAML-NEXT: Pass: 'hoist-stride-specialization:u'
// YAML: Function: '@g::@b'
// YAML-NEXT: Args:
// YAML-NEXT:   - Remark: '''u'' unused; removed'
// YAML-LABEL: --- !Passed
// YAML-NEXT: Pass: 'hoist-stride-specialization:w'
// YAML: Function: '@g::@b'
// YAML-NOT: !Missed

// MISSED-COUNT-1: --- !Missed
// MISSED-NOT: !Passed

module attributes {gpu.container_module} {
  gpu.module @g {
    gpu.func @a(%m: memref<?xf32>, %i: index) kernel {
      %w = spec.param "w" = 8 : index
      %h = spec.param "h" = 4 : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      scf.for %j = %c0 to %h step %c1 {
        %o = arith.muli %j, %w : index
        %v = memref.load %m[%o] : memref<?xf32>
        memref.store %v, %m[%i] : memref<?xf32>
      }
      gpu.return
    }
    gpu.func @b(%m: memref<?xf32>, %i: index) kernel {
      %w = spec.param "w" = 8 : index
      %u = spec.param "u" = 2 : index
      %o = arith.muli %i, %w : index
      %v = memref.load %m[%o] : memref<?xf32>
      memref.store %v, %m[%i] : memref<?xf32>
      gpu.return
    }
  }
  func.func @host(%m: memref<?xf32>, %i: index) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @g::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>, %i : index)
    gpu.launch_func @g::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>, %i : index)
    gpu.launch_func @g::@b blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<?xf32>, %i : index)
    return
  }
}
