// Unknown and malformed pass options are errors with a non-zero exit status,
// and no output module.
//
// RUN: not fly-opt %s -hoist-stride-specialization=bogus=1 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: no such option bogus
// UNKNOWN-NOT: func.func
//
// RUN: not fly-opt %s -hoist-stride-specialization=remarks=maybe 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BOOL
// BOOL: 'maybe' is invalid value for boolean argument
// BOOL-NOT: func.func
//
// RUN: not fly-opt %s \
// RUN:   '-pass-pipeline=builtin.module(hoist-stride-specialization{materialize-kept=2})' \
// RUN:   2>&1 | FileCheck %s --check-prefix=BOOL2
// BOOL2: '2' is invalid value for boolean argument
// BOOL2: failed to add `hoist-stride-specialization` with options `materialize-kept=2`
//
// RUN: not fly-opt %s \
// RUN:   '-pass-pipeline=builtin.module(hoist-stride-specialization{remarks)' \
// RUN:   2>&1 | FileCheck %s --check-prefix=UNCLOSED
// UNCLOSED: missing closing '}' while processing pass options
//
// RUN: not fly-opt %s '-pass-pipeline=func.func(hoist-stride-specialization)' \
// RUN:   2>&1 | FileCheck %s --check-prefix=NESTING
// NESTING: Can't add pass 'HoistStrideSpecialization' restricted to 'builtin.module'
//
// RUN: not fly-opt %s -materialize-specialization=remarks=true 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MATERIALIZE
// MATERIALIZE: no such option remarks

func.func @kernel(%a: memref<?xf32>) {
  %w = spec.param "w" = 4 : index
  %v = memref.load %a[%w] : memref<?xf32>
  return
}
func.func @host(%a: memref<?xf32>) {
  call @kernel(%a) : (memref<?xf32>) -> ()
  return
}
