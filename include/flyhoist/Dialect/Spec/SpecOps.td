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
include "mlir/IR/EnumAttr.td"
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


//===----------------------------------------------------------------------===//
// Why a parameter is kept, and what a launcher must guarantee
//===----------------------------------------------------------------------===//

// The mnemonics are the stable names tools read (the manifest's `reason`,
// flyhoist.cache); spec::describeKeepReason words each case for people.
def Spec_KeepReason : I32EnumAttr<"KeepReason",
    "why a parameter is kept as a constant", [
  // A use needs the constant (the analysis' verdicts).
  I32EnumAttrCase<"LoopBound", 0, "loop-bound">,
  I32EnumAttrCase<"Comparison", 1, "comparison">,
  I32EnumAttrCase<"Clamp", 2, "clamp">,
  I32EnumAttrCase<"BranchCondition", 3, "branch-condition">,
  I32EnumAttrCase<"Division", 4, "division">,
  I32EnumAttrCase<"ShiftAmount", 5, "shift-amount">,
  I32EnumAttrCase<"Allocation", 6, "allocation">,
  I32EnumAttrCase<"StoredData", 7, "stored-data">,
  I32EnumAttrCase<"CallOperand", 8, "call-operand">,
  I32EnumAttrCase<"ReturnOperand", 9, "return-operand">,
  I32EnumAttrCase<"LaunchDimensions", 10, "launch-dimensions">,
  I32EnumAttrCase<"MaskOrPadding", 11, "mask-or-padding">,
  I32EnumAttrCase<"SizeReadBack", 12, "size-read-back">,
  I32EnumAttrCase<"UnknownOperation", 13, "unknown-operation">,
  I32EnumAttrCase<"UnknownOperand", 14, "unknown-operand">,
  I32EnumAttrCase<"MustBeImmediate", 15, "must-be-immediate">,
  I32EnumAttrCase<"VectorPosition", 16, "vector-position">,
  // The function cannot take an argument for the name.
  I32EnumAttrCase<"MixedTypes", 17, "mixed-types">,
  I32EnumAttrCase<"IsolatedScope", 18, "isolated-scope">,
  I32EnumAttrCase<"Variadic", 19, "variadic">,
  I32EnumAttrCase<"UnknownReference", 20, "unknown-reference">,
  I32EnumAttrCase<"PassedTypeMismatch", 21, "passed-type-mismatch">,
  I32EnumAttrCase<"PassedFromIsolatedScope", 22,
                  "passed-from-isolated-scope">,
  // Hoisting would cost instructions: the value only ever folds into an
  // access's immediate offset field (planning decides it, unless
  // hoist-immediate-offsets).
  I32EnumAttrCase<"ImmediateOffset", 23, "immediate-offset">,
]> {
  let cppNamespace = "::mlir::flyhoist::spec";
  let genSpecializedAttr = 0;
}

// Which part of a memref argument an `equals` precondition names.
def Spec_ArgumentPart : I32EnumAttr<"ArgumentPart",
    "the part of a kernel argument a value equals", [
  I32EnumAttrCase<"Value", 0, "value">,
  I32EnumAttrCase<"Offset", 1, "offset">,
  I32EnumAttrCase<"Size", 2, "size">,
  I32EnumAttrCase<"Stride", 3, "stride">,
]> {
  let cppNamespace = "::mlir::flyhoist::spec";
  let genSpecializedAttr = 0;
}

// The kinds of precondition a `#spec.hoisted` can hold (one attribute each),
// as the manifest's `kind` names them.
def Spec_PreconditionKind : I32EnumAttr<"PreconditionKind",
    "the kinds of launch precondition", [
  I32EnumAttrCase<"DivisibleBy", 0, "divisible-by">,
  I32EnumAttrCase<"Range", 1, "range">,
  I32EnumAttrCase<"Equals", 2, "equals">,
  I32EnumAttrCase<"EqualsParameter", 3, "equals-parameter">,
  I32EnumAttrCase<"EqualsConstant", 4, "equals-constant">,
  I32EnumAttrCase<"EqualsUnverifiable", 5, "equals-unverifiable">,
]> {
  let cppNamespace = "::mlir::flyhoist::spec";
  let genSpecializedAttr = 0;
}

// An enum parameter written as its mnemonic, quoted where it is not a bare
// keyword ("loop-bound").
class Spec_EnumParameter<I32EnumAttr enumInfo> : EnumParameter<enumInfo> {
  let parser = [{[&]() -> ::mlir::FailureOr<}] # enumInfo.cppNamespace #
      "::" # enumInfo.className # [{> {
    std::string word;
    ::llvm::SMLoc loc = $_parser.getCurrentLocation();
    if ($_parser.parseKeywordOrString(&word))
      return ::mlir::failure();
    if (auto value = }] # enumInfo.cppNamespace # "::" #
      enumInfo.stringToSymbolFnName # [{(word))
      return *value;
    return $_parser.emitError(loc) << "unknown }] # enumInfo.summary #
      [{ '" << word << "'";
  }()}];
  let printer = [{$_printer.printKeywordOrString(}] #
      enumInfo.cppNamespace # "::" # enumInfo.symbolToStringFnName #
      [{($_self))}];
}

class Spec_Attr<string name, string attrMnemonic>
    : AttrDef<Spec_Dialect, name> {
  let mnemonic = attrMnemonic;
}

def Spec_DivisibleByAttr : Spec_Attr<"DivisibleBy", "divisible_by"> {
  let summary = "precondition: a power of two divides the value";
  let parameters = (ins "int64_t":$divisor);
  let assemblyFormat = "`<` $divisor `>`";
  let genVerifyDecl = 1;
}

def Spec_RangeAttr : Spec_Attr<"Range", "range"> {
  let summary = "precondition: min <= value <= max";
  let parameters = (ins "int64_t":$min, "int64_t":$max);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Spec_EqualsAttr : Spec_Attr<"Equals", "equals"> {
  let summary = "precondition: the value equals (a part of) a kernel argument";
  let description = [{
    `part` is `value` (the argument itself), `offset`, or `size`/`stride`
    number `index` of a memref argument.
  }];
  let parameters = (ins "int64_t":$argument,
                    Spec_EnumParameter<Spec_ArgumentPart>:$part,
                    OptionalParameter<"std::optional<int64_t>">:$index);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Spec_EqualsParameterAttr
    : Spec_Attr<"EqualsParameter", "equals_parameter"> {
  let summary = "precondition: the value equals another parameter's";
  let parameters = (ins "::mlir::StringAttr":$name);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Spec_EqualsConstantAttr : Spec_Attr<"EqualsConstant", "equals_constant"> {
  let summary = "precondition: the value equals a constant";
  let parameters = (ins "int64_t":$value);
  let assemblyFormat = "`<` struct(params) `>`";
}

def Spec_EqualsUnverifiableAttr
    : Spec_Attr<"EqualsUnverifiable", "equals_unverifiable"> {
  let summary = "precondition: the value equals something a launcher cannot read";
  let description = [{
    An `equals` value that is neither an argument (or part of one), another
    parameter nor a constant, described for people ("result 0 of
    'foo.bar'"). A launcher cannot check it: a value other than the marked
    one needs a new compile.
  }];
  let parameters = (ins "::mlir::StringAttr":$description);
  let assemblyFormat = "`<` $description `>`";
}

def Spec_HoistedParamAttr : Spec_Attr<"HoistedParam", "hoisted"> {
  let summary = "a parameter that became a runtime value of a function";
  let description = [{
    `argument` is the function argument that carries it; absent, the uses
    took the `equals` value and the signature did not change. `type` is what
    the launcher passes (i32 when `zero_extended_to` names the parameter's
    own type). `preconditions` is what the launcher must guarantee, as
    `#spec.divisible_by`, `#spec.range`, `#spec.equals`,
    `#spec.equals_parameter`, `#spec.equals_constant` and
    `#spec.equals_unverifiable` attributes (docs/MANIFEST.md). `host_argument` is the
    new argument of the launching host function, with hoist-into-host.
    `immediate_offsets`, for an offset tail hoisted with
    hoist-immediate-offsets, is the number of memory accesses whose
    immediate offset field would have held it, kept: one runtime add each.
    Never the value.
  }];
  let parameters = (ins
    "::mlir::StringAttr":$name,
    "::mlir::Type":$type,
    OptionalParameter<"std::optional<int64_t>">:$argument,
    OptionalParameter<"::mlir::Type">:$zero_extended_to,
    OptionalParameter<"::mlir::ArrayAttr">:$preconditions,
    OptionalParameter<"std::optional<int64_t>">:$host_argument,
    OptionalParameter<"std::optional<int64_t>">:$immediate_offsets);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def Spec_KeptParamAttr : Spec_Attr<"KeptParam", "kept"> {
  let summary = "a parameter a function keeps as a constant";
  let description = [{
    The value baked in and why: a `reason` mnemonic with the details its
    wording names (`op`, `operand`, `callee`, `type`, `passed_type`;
    spec::describeKeepReason words it as the remark does). Where the use that
    needs a constant is lives in the record's `kept_locations`, so that
    kernels keeping the same parameter for the same reason share one entry.
  }];
  let parameters = (ins
    "::mlir::StringAttr":$name,
    "int64_t":$value,
    Spec_EnumParameter<Spec_KeepReason>:$reason,
    OptionalParameter<"::mlir::StringAttr">:$op,
    OptionalParameter<"std::optional<int64_t>">:$operand,
    OptionalParameter<"::mlir::StringAttr">:$callee,
    OptionalParameter<"::mlir::Type">:$type,
    OptionalParameter<"::mlir::Type">:$passed_type);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let builders = [
    AttrBuilder<(ins "::mlir::StringAttr":$name, "int64_t":$value,
                     "const KeepReasonInfo &":$why), [{
      return $_get($_ctxt, name, value, why.reason, why.op, why.operand,
                   why.callee, why.type, why.passedType);
    }]>
  ];
  let extraClassDeclaration = [{
    /// The reason with its details.
    KeepReasonInfo getReasonInfo() const {
      return {getReason(), getOp(), getOperand(), getCallee(), getType(),
              getPassedType()};
    }
  }];
}

def Spec_HoistRecordAttr : Spec_Attr<"HoistRecord", "record"> {
  let summary = "what hoist-stride-specialization did to a function";
  let description = [{
    ```mlir
    spec.record = #spec.record<hoisted = [#spec.hoisted<name = "w",
        type = index, argument = 3>], kept = [#spec.kept<name = "n",
        value = 4, reason = "loop-bound">],
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
