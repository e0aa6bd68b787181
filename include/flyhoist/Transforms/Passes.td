//===- Passes.td - flyhoist passes -------------------------*- tablegen -*-===//

#ifndef FLYHOIST_TRANSFORMS_PASSES_TD
#define FLYHOIST_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def HoistStrideSpecialization
    : Pass<"hoist-stride-specialization", "::mlir::ModuleOp"> {
  let summary = "Turn specialization parameters used only in addresses into "
                "runtime kernel arguments";
  let description = [{
    For every kernel (`gpu.func` kernels, kernel functions inside a
    `gpu.module`, and host-level `func.func`/`llvm.func` that the module calls
    or that carry `spec.kernel`), follows every use of each `spec.param`
    forward. A parameter that only ever reaches index and offset operands of
    memory accesses through address arithmetic is hoisted: the kernel gets
    one new trailing argument per such parameter (sorted by name), or uses
    the `equals` value, and every launch site passes the value. Every other
    parameter is kept and materialized, with a remark naming the reason and a
    note at the blocking use. Host-side parameters are materialized.

    Kernels record the hoisted parameters in `spec.hoisted` (name, argument
    index, type; never a value) and the number of launch sites updated in
    `spec.launch_sites`. Inputs that differ only in hoisted values give
    byte-identical `gpu.module`s.

    With `hoist-into-host`, the host function that launches a kernel takes
    the value as a new trailing argument instead of a constant (private host
    functions have their callers pass it on). With `manifest=<file>`, a JSON
    manifest of every decision and a SHA-256 fingerprint of each gpu.module
    is written there.

    Errors (one name with two values, a launch site that does not match its
    kernel, a manifest file that cannot be written) are reported at the
    offending op and leave the module unchanged.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let options = [
    Option<"materializeKept", "materialize-kept", "bool", /*default=*/"true",
           "Replace kept parameters by arith.constant">,
    Option<"emitRemarks", "remarks", "bool", /*default=*/"true",
           "Emit one remark per parameter per kernel">,
    Option<"hoistIntoHost", "hoist-into-host", "bool", /*default=*/"false",
           "Pass hoisted values as new trailing arguments of the host "
           "functions that launch the kernels instead of constants">,
    Option<"divisibility", "divisibility", "uint64_t", /*default=*/"0",
           "Keep power-of-two divisibility up to this bound: pass v / d and "
           "rebuild v = (v / d) << log2(d) in the kernel (d becomes part of "
           "the specialization key; 0: off)">,
    Option<"narrowRange", "narrow-range", "bool", /*default=*/"false",
           "Pass hoisted index/i64 values in [0, 2^31) as i32, zero-extended "
           "in the kernel">,
    Option<"manifestPath", "manifest", "std::string", /*default=*/"\"\"",
           "Write the JSON manifest (docs/MANIFEST.md) to this file">,
  ];
}

def MaterializeSpecialization
    : Pass<"materialize-specialization"> {
  let summary = "Replace every spec.param by an arith.constant of its value";
  let description = [{
    The fully specialized baseline (what a frontend that bakes every value in
    compiles), and the last step for parameters that were kept. Fails with an
    error if one name has two values.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

#endif // FLYHOIST_TRANSFORMS_PASSES_TD
