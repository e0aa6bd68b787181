//===- HoistRemarks.h - How hoisting decisions are worded -------*- C++ -*-===//
//
// The analysis returns neutral reason codes; this is where they become the
// typed reasons of the hoist record (worded by spec::describeKeepReason).
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_TRANSFORMS_HOISTREMARKS_H
#define FLYHOIST_TRANSFORMS_HOISTREMARKS_H

#include "flyhoist/Analysis/StrideUseAnalysis.h"

#include "flyhoist/Dialect/Spec/SpecDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OperationSupport.h"

#include <string>

namespace mlir::flyhoist {

/// The typed reason (with the details its wording names) of blocking use
/// `use`: what the hoist record keeps.
spec::KeepReasonInfo keepReasonOf(const BlockingUse &use);

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

#endif // FLYHOIST_TRANSFORMS_HOISTREMARKS_H
