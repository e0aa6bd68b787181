//===- LaunchValues.h - What launch sites pass ------------------*- C++ -*-===//
//
// The launch-site half of the rewrite: carries out a LaunchPlan, appending
// the host arguments it lists and, at every launch site it lists, the values
// it says, from where it says. It decides nothing.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_LIB_TRANSFORMS_LAUNCHVALUES_H
#define FLYHOIST_LIB_TRANSFORMS_LAUNCHVALUES_H

#include "LaunchPlan.h"

namespace mlir::flyhoist {

/// A runtime value a function holds for a parameter name.
struct KnownValue {
  /// The value, of the parameter's type (or the carrier when the function
  /// has no use of its own for it).
  Value value;
  /// The same value in the type its argument carries it in (see
  /// argumentCarrierType); `value` itself when they agree.
  Value carrier;
};

/// Carries out `launches`: appends the host arguments and replaces the
/// `spec.param`s each replaces, then has every listed site pass its values.
/// `kernelArguments[p][i]` is what the rewrite made of the new argument of
/// parameter `i` of the step's plan `p`; `constants` holds the constants
/// earlier steps created (LaunchPlan::numConstants long once this returns).
void rewriteLaunchSites(const LaunchPlan &launches,
                        ArrayRef<SmallVector<KnownValue>> kernelArguments,
                        SmallVectorImpl<Value> &constants);

} // namespace mlir::flyhoist

#endif // FLYHOIST_LIB_TRANSFORMS_LAUNCHVALUES_H
