//===- HoistRemarks.h - How hoisting decisions are worded -------*- C++ -*-===//
//
// The remarks of hoist-stride-specialization: each decision of the plan, in
// words (a kept parameter's reason worded by spec::describeKeepReason), for
// the `remarks` option and for MLIR's remark engine.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_LIB_TRANSFORMS_HOISTREMARKS_H
#define FLYHOIST_LIB_TRANSFORMS_HOISTREMARKS_H

#include "flyhoist/Dialect/Spec/SpecDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OperationSupport.h"

#include <string>

namespace mlir::flyhoist {

struct KernelPlan;
struct ParamPlan;

/// One remark per parameter per kernel or device function (the
/// `remarks` option): hoisted where, or kept and why.
void remarkOnDecision(const KernelPlan &kernel, const ParamPlan &param);

/// The same decision for MLIR's optimization-remark engine
/// (`--remarks-filter=hoist-stride-specialization`), when the context has
/// one: passed for a hoisted parameter, missed with its reason for a kept one.
void reportToRemarkEngine(const KernelPlan &kernel, const ParamPlan &param);

/// A parameter left in a gpu.module outside any kernel or device function
/// (e.g. in a global's initializer) is baked into the module: says so.
void remarkOnDeviceConstant(spec::ParamOp param);

} // namespace mlir::flyhoist

#endif // FLYHOIST_LIB_TRANSFORMS_HOISTREMARKS_H
