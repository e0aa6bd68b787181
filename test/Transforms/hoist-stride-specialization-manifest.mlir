// The manifest: a golden file (with the fingerprint's digest left out: what
// it hashes is MLIR's generic printing, not this project's to pin), and
// fingerprints that are equal across widths and runs and differ when
// anything else changes.
// RUN: sed 's/WIDTH/128/; s/HEADS/4/' %S/Inputs/manifest-kernels.mlir > %t.w128.mlir
// RUN: sed 's/WIDTH/77/; s/HEADS/4/' %S/Inputs/manifest-kernels.mlir > %t.w77.mlir
// RUN: sed 's/WIDTH/128/; s/HEADS/8/' %S/Inputs/manifest-kernels.mlir > %t.h8.mlir
// Golden (read from stdin so locations do not hold the build path):
// RUN: fly-opt --hoist-stride-specialization="remarks=false hoist-into-host manifest=%t.golden.json" < %t.w128.mlir > /dev/null
// RUN: sed -E 's/"sha256:[0-9a-f]{64}"/"sha256:FINGERPRINT"/' %t.golden.json > %t.golden.normalized.json
// RUN: diff %S/Inputs/manifest-golden.json %t.golden.normalized.json
// Equal across widths and across runs:
// RUN: fly-opt --hoist-stride-specialization="remarks=false manifest=%t.a.json" < %t.w128.mlir > /dev/null
// RUN: fly-opt --hoist-stride-specialization="remarks=false manifest=%t.b.json" < %t.w128.mlir > /dev/null
// RUN: fly-opt --hoist-stride-specialization="remarks=false manifest=%t.c.json" < %t.w77.mlir > /dev/null
// RUN: grep fingerprint %t.a.json > %t.a.fp
// RUN: grep fingerprint %t.b.json > %t.b.fp
// RUN: grep fingerprint %t.c.json > %t.c.fp
// RUN: FileCheck %s --input-file=%t.a.fp
// RUN: diff %t.a.fp %t.b.fp
// RUN: diff %t.a.fp %t.c.fp
// Different when a kept parameter changes, or when anything in the kernel does:
// RUN: fly-opt --hoist-stride-specialization="remarks=false manifest=%t.d.json" < %t.h8.mlir > /dev/null
// RUN: grep fingerprint %t.d.json > %t.d.fp
// RUN: not diff %t.a.fp %t.d.fp
// RUN: sed 's/%c1 = arith.constant 1 : index/%c1 = arith.constant 1 : index\n      %unused = arith.constant 9 : index/' %t.w128.mlir > %t.edit.mlir
// RUN: fly-opt --hoist-stride-specialization="remarks=false manifest=%t.e.json" < %t.edit.mlir > /dev/null
// RUN: grep fingerprint %t.e.json > %t.e.fp
// RUN: not diff %t.a.fp %t.e.fp

// CHECK: "fingerprint": "sha256:{{[0-9a-f]{64}"}},
