//===- HoistRewrite.h - Carry out a hoisting plan ---------------*- C++ -*-===//
//
// The rewrite half of hoist-stride-specialization: given a plan that was
// checked in full, change kernel signatures, launch sites and host code.
// It cannot fail.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_TRANSFORMS_HOISTREWRITE_H
#define FLYHOIST_TRANSFORMS_HOISTREWRITE_H

#include "flyhoist/Transforms/HoistOptions.h"
#include "flyhoist/Transforms/HoistPlanning.h"

namespace mlir::flyhoist {

struct HoistSummary;

/// Carries out `plan` on the module it was made for: hoisted parameters
/// become kernel arguments (or their `equals` values), every launch site
/// passes them, kept ones are materialized (unless the options say
/// otherwise), and each function records what was done (`spec.record`).
/// Emits the remarks when `options.emitRemarks`, and always reports the
/// decisions to MLIR's remark engine when the context has one. Returns what
/// was done, counted.
HoistSummary rewriteForPlan(ModulePlan &plan, const HoistOptions &options);

} // namespace mlir::flyhoist

#endif // FLYHOIST_TRANSFORMS_HOISTREWRITE_H
