//===- SpecOps.td - The spec dialect and its operations ----*- tablegen -*-===//
//
// The `spec` dialect is how a kernel frontend marks the values it would
// otherwise bake into a kernel as constants.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_DIALECT_SPEC_SPECOPS_TD
#define FLYHOIST_DIALECT_SPEC_SPECOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Spec_Dialect : Dialect {
  let name = "spec";
  let cppNamespace = "::mlir::flyhoist::spec";
  let summary = "Specialization parameters of JIT-compiled kernels";
  let description = [{
    A frontend that would bake a host integer into a kernel emits a
    `spec.param` instead. The value is the one it would have baked in; the
    op keeps its provenance (the parameter's name) alive through
    canonicalization and CSE until `hoist-stride-specialization` decides
    whether the kernel really needs it as a constant.

    The unit attribute `spec.kernel` marks a host-level function as a kernel
    even when nothing in the module calls it. `spec.record`, a
    `#spec.record` on each kernel and device function the hoisting pass
    changed, records what it did; it is the one source of the manifest.
  }];
  let hasOperationAttrVerify = 1;
  let useDefaultAttributePrinterParser = 1;
}

class Spec_Attr<string name, string attrMnemonic>
    : AttrDef<Spec_Dialect, name> {
  let mnemonic = attrMnemonic;
}

def Spec_HoistedParamAttr : Spec_Attr<"HoistedParam", "hoisted"> {
  let summary = "a parameter that became a runtime value of a function";
  let description = [{
    `argument` is the function argument that carries it; absent, the uses
    took the `equals` value and the signature did not change. `type` is what
    the launcher passes (i32 when `zero_extended_to` names the parameter's
    own type). `divisor` is the power of two the kernel assumes divides the
    value. `preconditions` is what the launcher must guarantee, as text
    (docs/MANIFEST.md); `host_argument` the new argument of the launching
    host function, with hoist-into-host. Never the value.
  }];
  let parameters = (ins
    "::mlir::StringAttr":$name,
    "::mlir::Type":$type,
    OptionalParameter<"std::optional<int64_t>">:$argument,
    OptionalParameter<"std::optional<int64_t>">:$divisor,
    OptionalParameter<"::mlir::Type">:$zero_extended_to,
    OptionalParameter<"::mlir::ArrayAttr">:$preconditions,
    OptionalParameter<"std::optional<int64_t>">:$host_argument);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Spec_KeptParamAttr : Spec_Attr<"KeptParam", "kept"> {
  let summary = "a parameter a function keeps as a constant";
  let description = [{
    The value baked in and why (worded as the remark words it). Where the use
    that needs a constant is lives in the record's `kept_locations`, so that
    kernels keeping the same parameter for the same reason share one entry.
  }];
  let parameters = (ins
    "::mlir::StringAttr":$name,
    "int64_t":$value,
    "::mlir::StringAttr":$reason);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Spec_HoistRecordAttr : Spec_Attr<"HoistRecord", "record"> {
  let summary = "what hoist-stride-specialization did to a function";
  let description = [{
    ```mlir
    spec.record = #spec.record<hoisted = [#spec.hoisted<name = "w",
        type = index, argument = 3>], kept = [#spec.kept<name = "n",
        value = 4, reason = "loop bound or step">],
        kept_locations = [loc("k.py":9:4)], launch_sites = [loc("host.py":12:3)]>
    ```

    On every kernel (and, with `device`, device function) the pass
    rewrote: the parameters hoisted (in argument order), those kept, and the
    launch sites it updated. `kept_locations[i]` is where the use that needs
    `kept[i]` as a constant is. The locations are kept apart from the entries
    because they are the only part that differs from kernel to kernel: the
    entries, and often the whole `kept` list, are shared. Writer, verifier,
    manifest and C API all use this one definition.
  }];
  let parameters = (ins
    DefaultValuedParameter<"bool", "false">:$device,
    "::mlir::ArrayAttr":$hoisted,
    "::mlir::ArrayAttr":$kept,
    "::mlir::ArrayAttr":$kept_locations,
    "::mlir::ArrayAttr":$launch_sites);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// A kept parameter with where the use that needs it is.
    struct KeptEntry {
      KeptParamAttr param;
      ::mlir::LocationAttr location;
    };
    /// The hoisted parameters.
    auto getHoistedParams() const {
      return getHoisted().getAsRange<HoistedParamAttr>();
    }
    /// The kept parameters, in record order.
    auto getKeptParams() const {
      return getKept().getAsRange<KeptParamAttr>();
    }
    /// The kept parameters with their locations (the verifier guarantees
    /// the two lists have the same length).
    ::llvm::SmallVector<KeptEntry> getKeptEntries() const;
    /// The launch sites updated.
    auto getLaunchSiteLocations() const {
      return getLaunchSites().getAsRange<::mlir::LocationAttr>();
    }
    /// The same record with every location unknown (for fingerprints, which
    /// must not depend on where a frontend traced from).
    HoistRecordAttr withoutLocations() const;
  }];
}

class Spec_Op<string mnemonic, list<Trait> traits = []>
    : Op<Spec_Dialect, mnemonic, traits>;

def Spec_ParamOp : Spec_Op<"param", [Pure]> {
  let summary = "a specialization parameter: a named value a frontend would bake in";
  let description = [{
    ```mlir
    %w = spec.param "max_blocks_per_seq" = 128 : i32
    %s = spec.param "max_blocks_per_seq" = 128 equals %stride : i32
    ```

    The result is the integer the frontend would have baked into the kernel.
    The op is pure but deliberately neither constant-like nor foldable, so
    that no folder or CSE merges it with an unrelated constant of the same
    value.

    The name identifies the parameter across kernel and host code: one name
    has one value in a module.

    `equals %v` says that a runtime value the kernel already has (for example
    the dynamic row stride of a memref argument) equals the parameter. When
    the parameter is hoisted, its uses take `%v` and the kernel signature does
    not change.
  }];

  let arguments = (ins StrAttr:$name, I64Attr:$value,
                   Optional<AnySignlessIntegerOrIndex>:$equals);
  let results = (outs AnySignlessIntegerOrIndex:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;

  let builders = [
    OpBuilder<(ins "::llvm::StringRef":$name, "int64_t":$value, "::mlir::Type":$type,
                   CArg<"::mlir::Value", "{}">:$equals)>
  ];

  let extraClassDeclaration = [{
    /// The parameter value, signed (the `value` attribute getter is unsigned).
    int64_t getIntValue() { return getValueAttr().getInt(); }
    /// The parameter value as an attribute of the result type, ready for an
    /// `arith.constant`.
    ::mlir::TypedAttr getValueAsTypedAttr();
  }];
}

#endif // FLYHOIST_DIALECT_SPEC_SPECOPS_TD
