//===- SpecDialect.h - The spec dialect -------------------------*- C++ -*-===//
#ifndef FLYHOIST_DIALECT_SPEC_SPECDIALECT_H
#define FLYHOIST_DIALECT_SPEC_SPECDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"

#include "flyhoist/Dialect/Spec/SpecOpsDialect.h.inc"

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
