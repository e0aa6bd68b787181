//===- ImmediateOperands.h - Operands that must stay constants --*- C++ -*-===//
//
// Some operands reach the target only as instruction immediates: the LLVM
// intrinsic an operation becomes marks them `immarg`, and a value there that
// is not a constant makes the module fail to lower. Which operands these are
// is read from LLVM's own intrinsic tables, never listed by hand.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_ANALYSIS_IMMEDIATEOPERANDS_H
#define FLYHOIST_ANALYSIS_IMMEDIATEOPERANDS_H

#include "mlir/IR/Operation.h"

#include <string>

namespace mlir::flyhoist {

/// The name of the LLVM intrinsic `op` becomes by its dialect's naming
/// convention (`llvm.intr.X` -> `llvm.X`, `rocdl.X` -> `llvm.amdgcn.X`,
/// `nvvm.X` -> `llvm.nvvm.X`, with `_` read as `.`), or "" for operations of
/// other dialects.
std::string conventionalIntrinsicName(Operation *op);

/// Whether `use` must be a compile-time immediate: `use.getOwner()` becomes
/// an LLVM intrinsic whose signature its operands and results match one to
/// one, and the intrinsic's parameter at `use`'s position is `immarg`.
/// False whenever that cannot be established (the operation is then
/// classified by its other rules, which fail closed).
bool isImmediateOperand(OpOperand &use);

} // namespace mlir::flyhoist

#endif // FLYHOIST_ANALYSIS_IMMEDIATEOPERANDS_H
