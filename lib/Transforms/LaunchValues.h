//===- LaunchValues.h - What launch sites pass ------------------*- C++ -*-===//
//
// The launch-site half of the rewrite: the value each launch site passes for
// a hoisted parameter, and the host arguments planning gave hoist-into-host
// appended on the way.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_LIB_TRANSFORMS_LAUNCHVALUES_H
#define FLYHOIST_LIB_TRANSFORMS_LAUNCHVALUES_H

#include "HoistPlanning.h"
#include "HostArguments.h"

#include "llvm/ADT/DenseSet.h"

#include <optional>
#include <tuple>

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

/// Supplies the value a launch site passes for a hoisted parameter: the
/// caller's own argument when the caller is a kernel or device function that
/// took one for the name, the host argument planning gave the caller
/// (appended the first time it is needed), else a constant.
class LaunchValueProvider {
public:
  /// `discovered` and `hostArguments` must outlive the provider.
  LaunchValueProvider(const DiscoveredModule &discovered,
                      const HostArgumentPlan &hostArguments);

  /// Records that `function` now holds `name` (of type `type`) at run time.
  void setKnown(Operation *function, StringAttr name, Type type,
                KnownValue known) {
    arguments[key(function, name, type)] = known;
  }

  /// The value of parameter `name` (of type `type`, marked `value`) that
  /// `site` passes, in `siteType` (the callee's carrier type).
  Value valueAt(Operation *site, StringAttr name, Type type, Type siteType,
                int64_t value);

  /// Whether `param` (host code) was replaced by a host argument and erased.
  bool wasReplaced(spec::ParamOp param) const {
    return replacedParams.contains(param.getOperation());
  }

private:
  /// (function, parameter name, type).
  using Key = std::tuple<Operation *, StringAttr, const void *>;
  static Key key(Operation *function, StringAttr name, Type type) {
    return {function, name, type.getAsOpaquePointer()};
  }

  /// What valueAt needs to know of a launch site, whatever the parameter.
  struct SiteFacts {
    Operation *site = nullptr;
    /// The function whose arguments the site can use: the function it is
    /// in, unless a region isolated from above lies between them.
    FunctionOpInterface caller;
    /// Whether constants of LLVM types passed there are
    /// `llvm.mlir.constant` (isLLVMCodeSite).
    bool llvmCodeSite = false;
    /// The first launch site of a planned function in its block; null when
    /// the site is not one.
    Operation *firstInBlock = nullptr;
  };

  /// The facts of `site`. valueAt is asked once per site and parameter, in
  /// runs of one site: the last answer is kept (guarded by
  /// test/Bench/pass-cost.test, shape `many`).
  const SiteFacts &factsOf(Operation *site);
  Value constantFor(const SiteFacts &facts, Type type, int64_t value);
  KnownValue addHostArgument(FunctionOpInterface function,
                             const HostArgument &argument, int64_t value);

  const DiscoveredModule &discovered;
  const HostArgumentPlan &hostArguments;
  /// The values functions hold at run time: their own new arguments (only
  /// for functions that pass them on) and host arguments.
  DenseMap<Key, KnownValue> arguments;
  llvm::DenseSet<Operation *> replacedParams;
  /// The facts of the site asked for last.
  SiteFacts last;
  /// The launch sites of the functions the pass plans for, and the first of
  /// them in each block.
  llvm::DenseSet<Operation *> plannedSites;
  DenseMap<Block *, Operation *> firstSiteInBlock;
  /// The constants created for launch sites, by (block, type, value, whether
  /// `llvm.mlir.constant`).
  DenseMap<std::tuple<Block *, const void *, int64_t, unsigned>, Value>
      constants;
};

/// Every launch site of the planned function passes the hoisted values, in
/// argument order.
void updateLaunchSites(KernelPlan &plan, LaunchValueProvider &launchValues);

} // namespace mlir::flyhoist

#endif // FLYHOIST_LIB_TRANSFORMS_LAUNCHVALUES_H
