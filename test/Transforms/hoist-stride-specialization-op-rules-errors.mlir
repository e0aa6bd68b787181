// A malformed rule in the pass options is an error of the options, reported
// when they are parsed (the pass's initializeOptions), before anything runs:
// the module is left as it was.
// RUN: not fly-opt %s --hoist-stride-specialization="address-operands=test_stride.opaque_load[0,x]" \
// RUN:   --mlir-print-ir-after-failure 2>&1 | FileCheck %s --check-prefix=NUMBER
// RUN: not fly-opt %s --hoist-stride-specialization="pass-through-operands=opaque[1]" \
// RUN:   2>&1 | FileCheck %s --check-prefix=NAME
// RUN: not fly-opt %s --hoist-stride-specialization="address-operands=test_stride.opaque[1] pass-through-operands=test_stride.opaque[1]" \
// RUN:   2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: not fly-opt %s --hoist-stride-specialization="address-operands=test_stride.opaque" \
// RUN:   2>&1 | FileCheck %s --check-prefix=LIST

// NUMBER: error: address-operands entry 'test_stride.opaque_load[0,x]': 'x' is not an operand number (expected 'dialect.op[operand numbers]'
// NUMBER-NOT: IR Dump After
// NAME: error: pass-through-operands entry 'opaque[1]': the operation name needs a dialect prefix
// BOTH: error: pass-through-operands entry 'test_stride.opaque[1]': operand 1 is declared both an address and pass-through
// LIST: error: address-operands entry 'test_stride.opaque': no operand list

module {
  func.func @k(%m: memref<?xf32>) attributes {spec.kernel} {
    %w = spec.param "w" = 64 : index
    %v = memref.load %m[%w] : memref<?xf32>
    return
  }
}
