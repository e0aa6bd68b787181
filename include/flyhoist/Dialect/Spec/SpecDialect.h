//===- SpecDialect.h - The spec dialect -------------------------*- C++ -*-===//
#ifndef FLYHOIST_DIALECT_SPEC_SPECDIALECT_H
#define FLYHOIST_DIALECT_SPEC_SPECDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "flyhoist/Dialect/Spec/SpecOpsDialect.h.inc"

#define GET_OP_CLASSES
#include "flyhoist/Dialect/Spec/SpecOps.h.inc"

namespace mlir::flyhoist::spec {
/// Unit attribute marking a host-level `func.func`/`llvm.func` as a kernel
/// even when the module has no call to it.
inline constexpr llvm::StringLiteral kKernelAttrName = "spec.kernel";
/// Name of the discardable kernel attribute listing the hoisted parameters.
inline constexpr llvm::StringLiteral kHoistedAttrName = "spec.hoisted";
/// Name of the discardable kernel attribute counting the launch sites the
/// pass updated (0: none was visible in the module).
inline constexpr llvm::StringLiteral kLaunchSitesAttrName = "spec.launch_sites";
} // namespace mlir::flyhoist::spec

#endif // FLYHOIST_DIALECT_SPEC_SPECDIALECT_H
