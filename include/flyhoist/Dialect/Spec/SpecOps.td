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
    even when nothing in the module calls it. Discardable attributes of this
    dialect record what the pass did:
    `spec.hoisted` on a kernel lists the parameters that became runtime
    arguments, and `spec.launch_sites` counts the launch sites it updated.
  }];
  let hasOperationAttrVerify = 1;
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
