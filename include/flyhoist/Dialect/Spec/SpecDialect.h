//===- SpecDialect.h - The spec dialect -------------------------*- C++ -*-===//
#ifndef FLYHOIST_DIALECT_SPEC_SPECDIALECT_H
#define FLYHOIST_DIALECT_SPEC_SPECDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>

#include "flyhoist/Dialect/Spec/SpecOpsDialect.h.inc"

#include "flyhoist/Dialect/Spec/SpecOpsEnums.h.inc"

namespace mlir::flyhoist::spec {
/// Why a parameter is kept, with the details its wording names: the
/// operation (`op`) for unknown operations and operands, isolated regions and
/// references; the operand number for unknown operands; the callee and the
/// two types for a value passed on with another type.
struct KeepReasonInfo {
  KeepReason reason = KeepReason::UnknownOperation;
  StringAttr op;
  std::optional<int64_t> operand;
  StringAttr callee;
  Type type;
  Type passedType;
};

/// The words of `why`, as remarks, the manifest and the C API give it:
/// "loop bound or step", "the kernel is variadic: ..."; `functionKind` is
/// "kernel" or "device function" (the kind of function that keeps it). The
/// one place a reason is worded.
std::string describeKeepReason(const KeepReasonInfo &why,
                               StringRef functionKind);

/// The values a `spec.param` (or a launched argument) of integer or index
/// `type` may hold: the type read as signed or as unsigned (frontends bake
/// in both kinds); index as 64 bits.
struct ValueBounds {
  int64_t min;
  uint64_t max;
};
ValueBounds getValueBounds(Type type);
} // namespace mlir::flyhoist::spec

#define GET_ATTRDEF_CLASSES
#include "flyhoist/Dialect/Spec/SpecOpsAttributes.h.inc"

#define GET_OP_CLASSES
#include "flyhoist/Dialect/Spec/SpecOps.h.inc"

namespace mlir::flyhoist::spec {
/// Unit attribute marking a host-level `func.func`/`llvm.func` as a kernel
/// even when the module has no call to it.
inline constexpr llvm::StringLiteral kKernelAttrName = "spec.kernel";
/// Name of the discardable attribute holding a function's HoistRecordAttr.
inline constexpr llvm::StringLiteral kRecordAttrName = "spec.record";

/// The hoist record of `op`, or null.
HoistRecordAttr getHoistRecord(Operation *op);

/// Every operation nested in `root` that carries a hoist record, with it, in
/// IR order.
SmallVector<std::pair<Operation *, HoistRecordAttr>>
collectHoistRecords(Operation *root);

/// The manifest kind of precondition attribute `precondition` (one of the
/// #spec.divisible_by, ... attributes), or nullopt for another attribute.
std::optional<PreconditionKind> getPreconditionKind(Attribute precondition);

/// `precondition` in words for people ("value % 16 == 0", "value ==
/// stride 0 of argument 1").
std::string describePrecondition(Attribute precondition);

/// What an equality precondition (#spec.equals, #spec.equals_parameter,
/// #spec.equals_constant, #spec.equals_unverifiable) says the value equals,
/// in the same words ("stride 0 of argument 1"); nullopt for another
/// attribute. describePrecondition() is "value == " and this.
std::optional<std::string> describeEqualsSubject(Attribute precondition);

/// Where `location` points, in words for people and the manifest:
/// "file:line:col" of its first file location (looking through names, the
/// callee of a call site, and each part of a fused location in turn), or
/// "unknown". The one rendering of locations: the manifest, the C API's
/// inference results and the Python package's diagnostics all use it.
std::string describeLocation(Location location);

/// Enforces the contract "one parameter name has one value in a module",
/// one `spec.param` at a time.
class ParamValueTable {
public:
  /// Records `param`, or emits an error at it (with a note at the first
  /// parameter of its name) and fails when that one has another value.
  LogicalResult check(ParamOp param);

private:
  /// The value and the op of each name's first parameter, keyed by the name
  /// attribute: uniqued, so equal names are one key, hashed by pointer
  /// rather than by their text. (The value is kept to compare without
  /// reading the first op's attribute again.)
  llvm::DenseMap<StringAttr, std::pair<int64_t, ParamOp>> firstByName;
};
} // namespace mlir::flyhoist::spec

#endif // FLYHOIST_DIALECT_SPEC_SPECDIALECT_H
