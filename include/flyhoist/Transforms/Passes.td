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
    note at the blocking use. Device functions (non-kernel functions inside a
    `gpu.module`) are planned the same way; the kernels and device functions
    calling one pass its new arguments on, taking them as arguments in turn
    (or keeping the name, with a remark, where they cannot). Host-side
    parameters are materialized. A launch site passes a hoisted value as a
    constant unless its caller holds it as an argument: one constant per
    value and type in each block, before the block's first launch site and
    shared by its sites (`llvm.mlir.constant` in LLVM dialect code).

    Each kernel and device function it rewrote carries a `#spec.record`: the
    hoisted parameters (name, type, argument, divisor, preconditions; never
    a value), the kept ones (value, reason, location) and the launch sites
    updated. Inputs that differ only in hoisted values give byte-identical
    `gpu.module`s.

    ```mlir
    // before
    gpu.func @paged(%bt: memref<?xi32>, %seq: index, %blk: index) kernel {
      %w = spec.param "max_blocks_per_seq" = 128 : index
      %row = arith.muli %seq, %w : index
      %i = arith.addi %row, %blk : index
      %v = memref.load %bt[%i] : memref<?xi32>
      ...
    }
    gpu.launch_func @kernels::@paged ... args(%bt : memref<?xi32>,
        %s : index, %b : index)
    // after
    gpu.func @paged(%bt: memref<?xi32>, %seq: index, %blk: index,
        %w: index) kernel attributes {spec.record = #spec.record<hoisted = [
        #spec.hoisted<name = "max_blocks_per_seq", type = index,
        argument = 3>], kept = [], kept_locations = [],
        launch_sites = [loc("host.py":12:3)]>} {
      %row = arith.muli %seq, %w : index
      ...
    }
    %c128 = arith.constant 128 : index
    gpu.launch_func @kernels::@paged ... args(%bt : memref<?xi32>,
        %s : index, %b : index, %c128 : index)
    ```

    With `hoist-into-host`, the host function that launches a kernel takes
    the value as a new trailing argument instead of a constant, and its
    callers pass it on in turn, up to the entry points. A host function
    whose symbol is used other than by calls (`func.constant`, say), or that
    is external, cannot take an argument: it passes a constant of its own,
    right before the call. With
    `manifest=<file>`, a JSON manifest of every decision and a SHA-256
    fingerprint of each gpu.module is written there.

    Errors (one name with two values, a launch site that does not match its
    kernel, an `equals` operand or launch-site value known to differ from the
    marked value, a manifest file that cannot be written) are reported at the
    offending op and leave the module unchanged.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect"];
  let options = [
    Option<"materializeKept", "materialize-kept", "bool", /*default=*/"true",
           "Replace kept parameters by arith.constant">,
    Option<"emitRemarks", "remarks", "bool", /*default=*/"true",
           "Emit one remark per parameter per kernel">,
    Option<"hoistIntoHost", "hoist-into-host", "bool", /*default=*/"false",
           "Pass hoisted values as new trailing arguments of the host "
           "functions that launch the kernels instead of constants">,
    Option<"divisibility", "divisibility", "uint64_t", /*default=*/"0",
           "Keep power-of-two divisibility up to this bound: the kernel "
           "assumes (llvm.intr.assume) that the value is a multiple of d, the "
           "largest power of two <= the bound dividing the marked value, and "
           "records 'value % d == 0' for the launcher to check (d becomes part "
           "of the specialization key; 0: off)">,
    Option<"narrowRange", "narrow-range", "bool", /*default=*/"false",
           "Pass hoisted index/i64 values in [0, 2^31) as i32, zero-extended "
           "in the kernel, and record 'value >= 0', 'value < 2147483648' for "
           "the launcher to check">,
    Option<"hoistImmediateOffsets", "hoist-immediate-offsets", "bool",
           /*default=*/"false",
           "Also hoist parameters that are only ever constant addends of "
           "addresses the backend folds into an instruction's immediate "
           "offset (kept by default: hoisted, each costs a runtime add per "
           "access), for one module whatever the cost">,
    ListOption<"addressOperands", "address-operands", "std::string",
               "Operations whose StrideUseOpInterface a tool cannot "
               "compile: `dialect.op[i,j]` makes operands i and j address "
               "operands (repeatable)">,
    ListOption<"passThroughOperands", "pass-through-operands", "std::string",
               "Likewise, `dialect.op[i]` makes operand i pass the "
               "parameter on to every result">,
    Option<"manifestPath", "manifest", "std::string", /*default=*/"\"\"",
           "Write the JSON manifest (docs/MANIFEST.md) to this file">,
  ];
  let statistics = [
    Statistic<"numHoisted", "num-hoisted",
              "Parameters hoisted (per function)">,
    Statistic<"numKept", "num-kept",
              "Parameters kept specialized (per function)">,
    Statistic<"numRemoved", "num-removed",
              "Parameters removed as unused (per function)">,
    Statistic<"numLaunchSitesUpdated", "num-launch-sites-updated",
              "Launch sites that pass new arguments">,
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

def InferSpecParams : Pass<"infer-spec-params", "::mlir::ModuleOp"> {
  let summary = "Turn the integer constants that differ between traces of "
                "one kernel into spec.params";
  let description = [{
    For a frontend that marks nothing: the module is one trace of a kernel,
    `traces` names files holding other traces of it (for other values).
    Without `traces`, the module holds the traces as nested
    `builtin.module`s; the first becomes the result and the others are
    dropped. The traces are aligned op by op; each use of an integer
    `arith.constant` whose value differs between them takes a `spec.param`
    (one per type and list of values; named after a `values` entry with
    those values, else `p0`, `p1`, ...). Uses are compared one by one, so a
    constant that canonicalize shared between a use that depends on the
    value and one that does not is split. Any other difference (an op, an
    attribute, a type, a region's structure) is an error at the first
    differing op with a note at the other trace's, and leaves the module
    unchanged. A remark per parameter says where it came from.

    ```mlir
    // fly-opt a.mlir --infer-spec-params='traces=b.mlir values=width=128:64'
    ```
  }];
  let options = [
    ListOption<"traces", "traces", "std::string",
               "files holding other traces of the kernel">,
    ListOption<"values", "values", "std::string",
               "the frontend's values per trace, name=v0:v1:... (the "
               "module's trace first)">,
    Option<"derive", "derive", "bool", /*default=*/"true",
           "compute a parameter that is an integral affine function of "
           "another (over three or more distinct values) from it in the "
           "kernel instead of taking it">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::flyhoist::spec::SpecDialect"];
}

def MatchSpecParams : Pass<"match-spec-params", "::mlir::ModuleOp"> {
  let summary = "Match traces against an inferred template and report the "
                "values of its parameters";
  let description = [{
    The module holds nested `builtin.module`s: the first is a template (what
    `infer-spec-params` made, before hoisting), each next one a new trace of
    the kernel. For each trace, a remark at it lists the value of each of
    the template's parameters in it (`matched: p0 = 512, width = 128`), or
    an error at the first template op the trace differs from, with a note
    at the trace's op; the pass fails when a trace does not match.

    With `values-file=<path>`, the same results are written there as data,
    for tools that read them (the remark's wording is for people): a JSON
    array with one object per trace, in order, each with the trace's
    `location` and either its `values` (the object flyhoistMatchSpecParams
    gives, in order of first use) or its `mismatch` (`reason`,
    `template_location`, `trace_location`: the error's and the note's
    locations as the C API words them). A path that cannot be written is an
    error at the module, before any trace is matched.
  }];
  let options = [
    Option<"valuesFile", "values-file", "std::string", /*default=*/"\"\"",
           "Write each trace's values or mismatch as JSON to this file">,
  ];
}

def StripHoistRecords : Pass<"strip-hoist-records"> {
  let summary = "Drop the #spec.record attributes the hoisting pass wrote";
  let description = [{
    The record is the hoisting pass's account to the frontend (the manifest
    is rendered from it). Once the frontend has read it, a module lowered to
    the LLVM dialect still carries it on every rewritten function, and tools
    that do not load the spec dialect (`mlir-runner`, `mlir-translate`,
    upstream `mlir-opt` without the plugin) cannot parse it. Run this last,
    before handing the IR to such a tool:

    ```mlir
    // before
    llvm.func @k(%arg0: i64) attributes {spec.record = #spec.record<hoisted =
        [#spec.hoisted<name = "w", type = i64, argument = 0>], kept = [],
        kept_locations = [], launch_sites = []>} { ... }
    // after --strip-hoist-records
    llvm.func @k(%arg0: i64) { ... }
    ```
  }];
}

#endif // FLYHOIST_TRANSFORMS_PASSES_TD
