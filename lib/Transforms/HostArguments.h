//===- HostArguments.h - Which host functions take which value --*- C++ -*-===//
//
// The hoist-into-host half of planning: which host functions take a new
// argument for which hoisted name, numbered, decided before anything is
// rewritten. The rewrite (LaunchValues.cpp) only appends what this plan
// lists.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_LIB_TRANSFORMS_HOSTARGUMENTS_H
#define FLYHOIST_LIB_TRANSFORMS_HOSTARGUMENTS_H

#include "HoistPlanning.h"

#include <optional>
#include <tuple>

namespace mlir::flyhoist {

/// One new argument of a host function.
struct HostArgument {
  /// The hoisted name and its type (one name launched at two types is two
  /// arguments).
  StringAttr name;
  Type type;
  /// The type the argument has (see argumentCarrierType).
  Type carrierType;
  /// Its number in the function's arguments.
  unsigned index = 0;
};

/// The new arguments of every host function, each function's in the order
/// they are appended.
class HostArgumentPlan {
public:
  /// The new arguments of `function`, in order (none for most).
  ArrayRef<HostArgument> argumentsOf(Operation *function) const;

  /// The new argument `function` takes for `name` at `type`, if any.
  const HostArgument *find(Operation *function, StringAttr name,
                           Type type) const;

  /// Appends an argument for `name` at `type` to `function`'s list, numbered
  /// after its arguments and those listed before.
  const HostArgument &add(FunctionOpInterface function, StringAttr name,
                          Type type);

private:
  DenseMap<Operation *, SmallVector<HostArgument, 1>> arguments;
};

/// Decides the host arguments of hoist-into-host for `plans` (every group's,
/// in group order): a launch site of a planned function inside a host
/// function that can take an argument (every use of its symbol is a call the
/// pass can extend, it has a body and is not variadic), outside any region
/// isolated from above, makes it take one for each hoisted name the site
/// passes, and so in turn its callers. The order is the one in which the
/// rewrite reaches the launch sites: plan by plan, site by site, name by
/// name, a function's callers right after it takes the argument.
HostArgumentPlan planHostArguments(const DiscoveredModule &discovered,
                                   ArrayRef<KernelPlan> plans);

} // namespace mlir::flyhoist

#endif // FLYHOIST_LIB_TRANSFORMS_HOSTARGUMENTS_H
