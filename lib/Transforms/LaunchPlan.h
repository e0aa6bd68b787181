//===- LaunchPlan.h - What every launch site passes -------------*- C++ -*-===//
//
// The launch half of planning: for every launch site the rewrite extends,
// the values it appends, in order, and where each comes from (an argument
// of the caller, a new argument of a host function, or a constant placed
// where this plan says); and, with hoist-into-host, the new arguments of
// host functions and the `spec.param`s each replaces. Decided in full
// before anything is rewritten: the rewrite (LaunchValues.h) only reads it.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_LIB_TRANSFORMS_LAUNCHPLAN_H
#define FLYHOIST_LIB_TRANSFORMS_LAUNCHPLAN_H

#include "HoistPlanning.h"

#include "llvm/ADT/DenseSet.h"

#include <tuple>
#include <vector>

namespace mlir::flyhoist {

/// One new argument of a host function (hoist-into-host).
struct HostArgument {
  /// The host function.
  FunctionOpInterface function;
  /// The hoisted name, its type and value (one name launched at two types
  /// is two arguments).
  StringAttr name;
  Type type;
  int64_t value = 0;
  /// The type the argument has (see argumentCarrierType).
  Type carrierType;
  /// Its number in the function's arguments.
  unsigned index = 0;
  /// The function's own `spec.param`s of that name and type (outside any
  /// region isolated from above in it): the argument replaces them.
  SmallVector<spec::ParamOp, 1> replaces = {};
};

/// One value a launch site appends to the arguments it passes.
struct PassedValue {
  /// Where the value comes from.
  enum class Source {
    /// An argument the caller (a planned function) takes for the name:
    /// `plan` and `param` index the step's plans and that plan's params.
    CallerArgument,
    /// A new argument of the caller (a host function): `hostArgument`
    /// indexes LaunchPlan::hostArguments.
    HostArgument,
    /// A constant: `constant` numbers it among every constant launch sites
    /// pass in the module.
    Constant,
  };
  Source source = Source::Constant;
  /// The hoisted name.
  StringAttr name;
  unsigned plan = 0;
  unsigned param = 0;
  unsigned hostArgument = 0;
  unsigned constant = 0;
  /// For Constant: the value, and whether this site is the constant's first
  /// user, which creates it right before `placedBefore` (the first launch
  /// site of a planned function in the block, whose later sites share it;
  /// the site itself for any other call).
  int64_t value = 0;
  bool createsConstant = false;
  Operation *placedBefore = nullptr;
  /// The type the callee's argument carries the value in, before `encoding`.
  Type siteType;
  /// How the value travels in the callee's argument (none for a host
  /// function's).
  ArgumentEncoding encoding;
};

/// One launch site and the values it appends, in the callee's argument
/// order.
struct SitePlan {
  Operation *site = nullptr;
  SmallVector<PassedValue, 1> values;
};

/// What the launch sites of one rewrite step pass (one group of functions,
/// or all of them with hoist-into-host).
struct LaunchPlan {
  /// New arguments of host functions, each function's in argument order.
  std::vector<HostArgument> hostArguments;
  /// The calls of host functions that take new arguments, then the launch
  /// sites of the planned functions, plan by plan in IR order.
  std::vector<SitePlan> sites;
  /// The number of constants launch sites pass, this step's and the earlier
  /// steps' (which this step's sites may share).
  unsigned numConstants = 0;
};

/// Decides what launch sites pass, step by step. Lives for the whole run:
/// launch sites of functions planned in different steps share the constants
/// of their block.
class LaunchPlanner {
public:
  /// `discovered` must outlive the planner.
  LaunchPlanner(const DiscoveredModule &discovered, bool hoistIntoHost);

  /// The plan of the launch sites of `plans` (one rewrite step: a group, or
  /// every group with hoist-into-host) and, with hoist-into-host, the host
  /// arguments their values arrive in. Records in each hoisted ParamPlan
  /// the host argument the record names (see ParamPlan::hostArgument).
  LaunchPlan plan(MutableArrayRef<KernelPlan> plans);

  /// Whether `param` (host code) is replaced by a host argument of a plan
  /// made so far.
  bool isReplaced(spec::ParamOp param) const {
    return replacedParams.contains(param.getOperation());
  }

private:
  /// (function, parameter name, type).
  using Key = std::tuple<Operation *, StringAttr, const void *>;
  static Key key(Operation *function, StringAttr name, Type type) {
    return {function, name, type.getAsOpaquePointer()};
  }
  /// Where a function's value for a name comes from, once it holds one.
  struct Held {
    PassedValue::Source source;
    unsigned plan = 0, param = 0, hostArgument = 0;
  };

  /// What valueAt needs to know of a launch site, whatever the name.
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

  bool canTakeHostArgument(FunctionOpInterface function) const;
  SiteFacts factsOf(Operation *site) const;
  void planHostArgument(LaunchPlan &result, Operation *site, StringAttr name,
                        Type type, int64_t value);
  void findReplacedParams(LaunchPlan &result);
  PassedValue valueAt(const SiteFacts &facts, StringAttr name, Type type,
                      Type siteType, int64_t value);
  void recordHostArguments(MutableArrayRef<KernelPlan> plans,
                           const LaunchPlan &result);

  const DiscoveredModule &discovered;
  bool hoistIntoHost;
  /// What each function holds at run time, for the current step.
  DenseMap<Key, Held> held;
  /// The launch sites of planned functions, and the first of them in each
  /// block.
  llvm::DenseSet<Operation *> plannedSites;
  DenseMap<Block *, Operation *> firstSiteInBlock;
  /// The constants planned so far before a block's first launch site, by
  /// (block, type, value, whether `llvm.mlir.constant`).
  DenseMap<std::tuple<Block *, const void *, int64_t, unsigned>, unsigned>
      sharedConstants;
  unsigned numConstants = 0;
  /// The host arguments each function takes in the current step.
  DenseMap<Operation *, unsigned> numHostArguments;
  llvm::DenseSet<Operation *> replacedParams;
};

/// Plans `discovered` and hands each rewrite step, its functions' plans and
/// the plan of their launch sites, to `step`: one step per group, each
/// planned right before it is handed on (a group's plan reads nothing
/// another group's rewrite changes); with hoist-into-host, whose host
/// arguments callers of any group pass, one step of every group.
void planInSteps(
    const DiscoveredModule &discovered, const HoistOptions &options,
    const StrideUseRules &rules, LaunchPlanner &launches,
    function_ref<void(MutableArrayRef<KernelPlan>, const LaunchPlan &)> step);

/// Prints `launches`, the plan of `plans`' launch sites, one line per host
/// argument and per value a site passes (for tests and -debug-only).
void printLaunchPlan(raw_ostream &os, ArrayRef<KernelPlan> plans,
                     const LaunchPlan &launches);

} // namespace mlir::flyhoist

#endif // FLYHOIST_LIB_TRANSFORMS_LAUNCHPLAN_H
