//===- HoistRewrite.h - Carry out a hoisting plan ---------------*- C++ -*-===//
//
// The rewrite half of hoist-stride-specialization: given a plan that was
// checked in full, change kernel signatures, launch sites and host code.
// It cannot fail.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_LIB_TRANSFORMS_HOISTREWRITE_H
#define FLYHOIST_LIB_TRANSFORMS_HOISTREWRITE_H

#include "HoistPlanning.h"
#include "LaunchPlan.h"
#include "flyhoist/Transforms/HoistStrideSpecialization.h"

namespace mlir::flyhoist {

/// Carries out plans on the module they were made for, one group at a time
/// (HoistPlanner::planGroup): hoisted parameters become kernel arguments (or
/// their `equals` values), every launch site passes them, kept ones are
/// materialized (unless the options say otherwise), and each function
/// records what was done (`spec.record`). Emits the remarks when
/// `options.emitRemarks`, and always reports the decisions to MLIR's remark
/// engine when the context has one.
class HoistRewriter {
public:
  /// `discovered` and `options` must outlive the rewriter.
  HoistRewriter(const DiscoveredModule &discovered, const HoistOptions &options)
      : discovered(discovered), options(options) {}

  /// Carries out the plans of one group (of all groups at once with
  /// `hoistIntoHost`, whose host arguments planned functions of any group
  /// may pass on), and `launches`, the plan of their launch sites.
  void rewriteGroup(MutableArrayRef<KernelPlan> plans,
                    const LaunchPlan &launches);

  /// After the last group: materializes the parameters left in host code
  /// and outside functions (except those a host argument of `launches`'
  /// plans replaced), and returns what was done, counted.
  HoistSummary finish(const LaunchPlanner &launches);

private:
  const DiscoveredModule &discovered;
  const HoistOptions &options;
  /// The constants launch sites pass, by LaunchPlan number, as created.
  SmallVector<Value> constants;
  HoistSummary summary;
};

} // namespace mlir::flyhoist

#endif // FLYHOIST_LIB_TRANSFORMS_HOISTREWRITE_H
