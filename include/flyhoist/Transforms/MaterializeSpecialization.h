//===- MaterializeSpecialization.h - spec.param to constants ----*- C++ -*-===//
//
// The fully specialized baseline: what a frontend that bakes every value in
// compiles, and the last step for parameters the hoisting keeps.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_TRANSFORMS_MATERIALIZESPECIALIZATION_H
#define FLYHOIST_TRANSFORMS_MATERIALIZESPECIALIZATION_H

#include "flyhoist/Dialect/Spec/SpecDialect.h"

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace mlir::flyhoist {

/// Replaces `param` by a constant of its value (`llvm.mlir.constant` inside
/// an `llvm.func`, else `arith.constant`) and erases it. The arith dialect
/// must be loaded.
void materializeParam(spec::ParamOp param);

/// Replaces every `spec.param` nested in `root` by an `arith.constant` of its
/// value. Returns the number replaced.
unsigned materializeSpecialization(Operation *root);

/// Checks that each parameter name has one value across `root`; emits an
/// error at the first conflicting `spec.param` (with a note at the other)
/// and fails otherwise.
LogicalResult verifyConsistentParamValues(Operation *root);

} // namespace mlir::flyhoist

#endif // FLYHOIST_TRANSFORMS_MATERIALIZESPECIALIZATION_H
