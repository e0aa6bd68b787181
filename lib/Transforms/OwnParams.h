//===- OwnParams.h - A function's own parameters, classified ----*- C++ -*-===//
//
// The first step of planning: each parameter name a function holds is
// hoisted (used only in addresses), kept (with the first use that needs the
// constant) or unused. Where a hoisted value comes from is decided next, by
// ArgumentPlanning.h.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_LIB_TRANSFORMS_OWNPARAMS_H
#define FLYHOIST_LIB_TRANSFORMS_OWNPARAMS_H

#include "HoistPlanning.h"

namespace mlir::flyhoist {

/// The lists planOwnParams() builds per function, kept by the planner so
/// that a function reuses the memory of the one before (a module's first
/// function touches it; the others find it in cache).
struct OwnParamScratch {
  /// The function's `spec.param` ops (indices) in name order.
  SmallVector<unsigned> order;
  /// Each name's run `[first, last)` of `order`.
  SmallVector<std::pair<unsigned, unsigned>> runs;
  /// Each name's `spec.param` results: the analysis' roots.
  SmallVector<SmallVector<Value>> roots;
};

/// Classifies the parameters of `kernel`, by name, with the use analysis
/// (one propagation for all of them): Hoist (address-only), Keep (with the
/// first blocking use) or Unused, one plan per name in name order. Unless
/// `hoistImmediateOffsets`, an address-only parameter that folds into an
/// access's immediate offset is kept (ImmediateOffsets.h); a name an earlier
/// run kept stays kept. Replaces what `plans` held, reusing its memory.
void planOwnParams(const DiscoveredKernel &kernel, const StrideUseRules &rules,
                   bool hoistImmediateOffsets, ParamUseScratch &scratch,
                   OwnParamScratch &lists, std::vector<ParamPlan> &plans);

} // namespace mlir::flyhoist

#endif // FLYHOIST_LIB_TRANSFORMS_OWNPARAMS_H
