//===- ArgumentPlanning.cpp - Where each hoisted value comes from ---------===//
//
// The second step of planning. The names that need a new argument are passed
// up through the device call graph until nothing changes (ArgumentPlanner),
// which also finds every reason a function cannot take an argument it would
// need. A kernel that calls no planned function, the usual case, is a group
// of one without calls, planned by the same code.
//
//===----------------------------------------------------------------------===//

#include "ArgumentPlanning.h"

#include "EqualsContract.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "llvm/ADT/STLExtras.h"

#include <map>

using namespace mlir;
using namespace mlir::flyhoist;

/// A function-level reason with the details its words name.
static spec::KeepReasonInfo reasonInfo(spec::KeepReason reason,
                                       StringAttr op = {},
                                       StringAttr callee = {}) {
  spec::KeepReasonInfo why;
  why.reason = reason;
  why.op = op;
  why.callee = callee;
  return why;
}

Type mlir::flyhoist::argumentCarrierType(FunctionOpInterface function,
                                         Type type) {
  if (!isa<LLVM::LLVMFuncOp>(function.getOperation()) || !type.isIndex())
    return type;
  uint64_t width =
      DataLayout::closest(function).getTypeSizeInBits(type).getFixedValue();
  return IntegerType::get(type.getContext(), width);
}

//===----------------------------------------------------------------------===//
// Arguments: the rules every function follows
//===----------------------------------------------------------------------===//

namespace {
/// Why a function keeps a name it would need an argument for.
struct ForcedKeep {
  ForcedKeep() = default;
  ForcedKeep(spec::KeepReasonInfo reason, Operation *blockingUser)
      : reason(std::move(reason)),
        blockingLoc(blockingUser ? LocationAttr(blockingUser->getLoc())
                                 : LocationAttr()) {}

  spec::KeepReasonInfo reason;
  /// Where the use that blocks the argument is; null when the reason is not
  /// one use. A nullable attribute rather than std::optional<Location>: the
  /// value is always initialized, so moving a ForcedKeep into an optional
  /// copies no indeterminate bytes (which g++ 12 reports as
  /// maybe-uninitialized once the planner is inlined into planArguments).
  LocationAttr blockingLoc;
  /// The type the name had in the function when it was forced.
  Type type;
};
} // namespace

/// Whether `param` is hoisted and some op of it takes the value from an
/// argument (not from its `equals` value).
static bool needsOwnArgument(const ParamPlan &param) {
  return param.decision == ParamPlan::Decision::Hoist &&
         param.numWithEquals < param.ops.size();
}

/// Why a function cannot take an argument for the name of `param` (its own
/// parameter of that name) because of how it holds the name.
static std::optional<ForcedKeep> whyNoArgumentForParam(const ParamPlan &param) {
  // (The demand for a name the function holds has the type of its first
  // op, so "another type" is "more than one type".)
  if (param.mixedTypes)
    return ForcedKeep{reasonInfo(spec::KeepReason::MixedTypes), nullptr};
  if (Operation *scope = param.unreachableScope)
    return ForcedKeep{reasonInfo(spec::KeepReason::IsolatedScope,
                                 scope->getName().getIdentifier()),
                      scope};
  return std::nullopt;
}

/// Why `kernel` cannot take any new argument: something the pass cannot
/// update refers to it.
static std::optional<ForcedKeep>
whyNoArgumentAtAll(const DiscoveredKernel &kernel) {
  if (!kernel.unknownReference)
    return std::nullopt;
  if (kernel.unknownReference == FunctionOpInterface(kernel.function))
    return ForcedKeep{reasonInfo(spec::KeepReason::Variadic), nullptr};
  return ForcedKeep{
      reasonInfo(spec::KeepReason::UnknownReference,
                 kernel.unknownReference->getName().getIdentifier()),
      kernel.unknownReference};
}

/// Makes `param` kept for `keep`'s reason.
static void keepForced(ParamPlan &param, const ForcedKeep &keep) {
  param.decision = ParamPlan::Decision::Keep;
  param.reason = keep.reason;
  param.blockingLoc = keep.blockingLoc
                          ? std::optional<Location>(Location(keep.blockingLoc))
                          : std::nullopt;
}

/// Records the `equals` contracts of `param` (of `function`) when it is
/// hoisted.
static void recordEqualsContracts(ParamPlan &param,
                                  FunctionOpInterface function) {
  if (param.decision == ParamPlan::Decision::Hoist && param.numWithEquals != 0)
    param.equalsContracts = equalsContracts(param.ops, function);
}

/// Makes `param` hoisted into argument `nextArgument` of `callable` (then
/// advanced), with the encoding `options` allow.
static void assignArgument(ParamPlan &param, FunctionOpInterface callable,
                           unsigned &nextArgument,
                           const HoistOptions &options) {
  param.decision = ParamPlan::Decision::Hoist;
  param.argumentIndex = nextArgument++;
  param.carrierType = argumentCarrierType(callable, param.type);
  param.encoding = chooseEncoding(param.value, param.carrierType, options);
}

//===----------------------------------------------------------------------===//
// Arguments, passed up through callers
//===----------------------------------------------------------------------===//

namespace {
/// A (function index, parameter name id) pair.
using FunctionName = std::pair<unsigned, unsigned>;

/// A call from one planned function to another.
struct CallEdge {
  Operation *site;
  /// The other end: the caller in `callers`, the callee in `callees` and
  /// `incoming`.
  unsigned function;
};

/// The state of the argument planning: the functions, what their own
/// parameters need, and which calls connect them. Names are interned (ids
/// into `names`) so that large modules cost integer keys, not strings.
class ArgumentPlanner {
public:
  /// Plans `plans`, the functions of one group with their own parameters
  /// classified.
  ArgumentPlanner(std::vector<KernelPlan> &plans) : plans(plans) {
    DenseMap<Operation *, unsigned> index;
    ownIndex.resize(plans.size());
    for (auto [i, plan] : llvm::enumerate(plans)) {
      index[plan.kernel->function] = i;
      for (auto [j, param] : llvm::enumerate(plan.params)) {
        unsigned id = intern(param.name, param.value);
        ownIndex[i][id] = j;
      }
    }
    callers.resize(plans.size());
    callees.resize(plans.size());
    for (auto [i, plan] : llvm::enumerate(plans))
      for (Operation *site : plan.kernel->launchSites)
        if (auto caller = site->getParentOfType<FunctionOpInterface>())
          if (auto it = index.find(caller); it != index.end()) {
            callers[i].push_back({site, it->second});
            callees[it->second].push_back({site, static_cast<unsigned>(i)});
          }
  }

  /// Runs to the fixpoint and leaves the final plan in `plans`.
  void run(const HoistOptions &options) {
    while (findDemand(), addForcedKeeps()) {
    }
    finish(options);
  }

private:
  unsigned intern(StringAttr name, int64_t value) {
    auto [it, inserted] = nameIds.try_emplace(name, names.size());
    if (inserted) {
      names.push_back(name);
      values.push_back(value);
    }
    return it->second;
  }

  const ParamPlan *own(unsigned function, unsigned name) const {
    auto it = ownIndex[function].find(name);
    if (it == ownIndex[function].end())
      return nullptr;
    return &plans[function].params[it->second];
  }

  /// Whether `function` passes a constant for `name` whatever its callees
  /// need: it keeps the name for its own uses or was forced to.
  bool keeps(unsigned function, unsigned name) const {
    const ParamPlan *param = own(function, name);
    return (param && param->decision == ParamPlan::Decision::Keep) ||
           forced.count({function, name});
  }

  /// The names each function needs an argument for, given `forced`: its own
  /// parameters without `equals` that it hoists, and every name a function it
  /// calls needs, unless it keeps that name.
  void findDemand() {
    demand.clear();
    incoming.clear();
    demandedNames.assign(plans.size(), {});
    std::vector<FunctionName> worklist;
    auto add = [&](FunctionName key, Type type) {
      if (!demand.try_emplace(key, type).second)
        return;
      demandedNames[key.first].push_back(key.second);
      worklist.push_back(key);
    };
    for (unsigned function = 0; function < plans.size(); ++function)
      for (const ParamPlan &param : plans[function].params) {
        unsigned name = nameIds.lookup(param.name);
        if (needsOwnArgument(param) && !forced.count({function, name}))
          add({function, name}, param.type);
      }
    while (!worklist.empty()) {
      auto [callee, name] = worklist.back();
      worklist.pop_back();
      Type type = demand.lookup({callee, name});
      for (const CallEdge &call : callers[callee]) {
        unsigned caller = call.function;
        if (keeps(caller, name))
          continue;
        incoming[{caller, name}].push_back({call.site, callee});
        const ParamPlan *param = own(caller, name);
        add({caller, name}, param ? param->type : type);
      }
    }
  }

  /// Finds the names a function needs an argument for but cannot take one
  /// for; returns whether any was new. (Each verdict reads only the demand,
  /// so the order of the visit does not matter.)
  bool addForcedKeeps() {
    bool changed = false;
    for (auto &[key, type] : demand) {
      if (forced.count(key))
        continue;
      std::optional<ForcedKeep> keep = whyNoArgument(key.first, key.second);
      if (!keep)
        continue;
      keep->type = type;
      forced[key] = std::move(*keep);
      changed = true;
    }
    return changed;
  }

  std::optional<ForcedKeep> whyNoArgument(unsigned function,
                                          unsigned name) const {
    const DiscoveredKernel &kernel = *plans[function].kernel;
    Operation *functionOp = kernel.function;
    Type type = demand.lookup({function, name});
    if (const ParamPlan *param = own(function, name))
      if (std::optional<ForcedKeep> keep = whyNoArgumentForParam(*param))
        return keep;
    auto calls = incoming.find({function, name});
    if (calls != incoming.end()) {
      for (const CallEdge &call : calls->second) {
        auto callee = StringAttr::get(functionOp->getContext(),
                                      plans[call.function].kernel->path);
        Type calleeType = demand.lookup({call.function, name});
        if (calleeType != type)
          return ForcedKeep{{spec::KeepReason::PassedTypeMismatch,
                             {},
                             std::nullopt,
                             callee,
                             type,
                             calleeType},
                            call.site};
        Operation *scope = isolatedScope(call.site);
        if (scope != functionOp)
          return ForcedKeep{
              reasonInfo(spec::KeepReason::PassedFromIsolatedScope,
                         scope->getName().getIdentifier(), callee),
              call.site};
      }
    }
    return whyNoArgumentAtAll(kernel);
  }

  /// Whether `function` would need an argument for `name` were it not
  /// forced to keep it: for its own uses, or to pass it to a callee that
  /// takes it. A keep forced in an earlier round may have lost its cause when
  /// the callee was forced to keep the name too.
  bool wouldNeedArgument(unsigned function, unsigned name) const {
    if (const ParamPlan *param = own(function, name))
      if (needsOwnArgument(*param))
        return true;
    return llvm::any_of(callees[function], [&](const CallEdge &call) {
      return demand.count({call.function, name});
    });
  }

  /// The final plan: decisions, argument indices in name order, encodings.
  void finish(const HoistOptions &options) {
    // Which forced keeps still have a cause, before the plans are rebuilt.
    std::vector<SmallVector<unsigned>> stillForced(plans.size());
    for (auto &[key, keep] : forced)
      if (wouldNeedArgument(key.first, key.second))
        stillForced[key.first].push_back(key.second);
    for (unsigned function = 0; function < plans.size(); ++function)
      finishFunction(function, stillForced[function], options);
  }

  /// The final plan of `function`, which is still forced to keep
  /// `stillForced`.
  void finishFunction(unsigned function, ArrayRef<unsigned> stillForced,
                      const HoistOptions &options) {
    KernelPlan &plan = plans[function];
    FunctionOpInterface callable = plan.kernel->function;
    // Names the function holds no parameter of but passes on, or would.
    std::vector<ParamPlan> params = std::move(plan.params);
    auto addPassedOnly = [&](unsigned name, Type type) {
      if (ownIndex[function].count(name))
        return;
      ParamPlan &param = params.emplace_back();
      param.name = names[name];
      param.value = values[name];
      param.type = type;
    };
    plan.params.clear();
    for (unsigned name : demandedNames[function])
      addPassedOnly(name, demand.lookup({function, name}));
    for (unsigned name : stillForced)
      addPassedOnly(name, forced.at({function, name}).type);
    // Own parameters come sorted; only names passed on may be out of place
    // (sorting moves whole plans: skip it when nothing is).
    auto byName = [](const ParamPlan &a, const ParamPlan &b) {
      return a.name.getValue() < b.name.getValue();
    };
    if (!llvm::is_sorted(params, byName))
      llvm::sort(params, byName);

    unsigned nextArgument = callable.getNumArguments();
    for (ParamPlan &param : params) {
      unsigned name = nameIds.lookup(param.name);
      FunctionName key{function, name};
      if (param.decision == ParamPlan::Decision::Keep && !param.ops.empty()) {
        // Kept for its own uses: the analysis said why.
      } else if (llvm::is_contained(stillForced, name)) {
        keepForced(param, forced.at(key));
      } else if (demand.count(key)) {
        assignArgument(param, callable, nextArgument, options);
        if (auto calls = incoming.find(key); calls != incoming.end())
          param.passedTo = StringAttr::get(
              callable->getContext(),
              plans[calls->second.front().function].kernel->path);
      }
      recordEqualsContracts(param, callable);
    }
    plan.params = std::move(params);
  }

  std::vector<KernelPlan> &plans;
  /// Interned names, their ids and their values (one name has one value in
  /// a module).
  std::vector<StringAttr> names;
  DenseMap<StringAttr, unsigned> nameIds;
  std::vector<int64_t> values;
  /// For each function, its own parameter plans by name id.
  std::vector<DenseMap<unsigned, unsigned>> ownIndex;
  /// For each function, the calls planned functions make to it, and the
  /// calls it makes to planned functions.
  std::vector<SmallVector<CallEdge>> callers;
  std::vector<SmallVector<CallEdge>> callees;
  /// Names a function needs an argument for, with the type; per function,
  /// the names in the order found.
  DenseMap<FunctionName, Type> demand;
  std::vector<SmallVector<unsigned>> demandedNames;
  /// The calls through which a function passes a name on (each with the
  /// callee's index).
  DenseMap<FunctionName, SmallVector<CallEdge>> incoming;
  /// Names kept because the function cannot take the argument it needs.
  std::map<FunctionName, ForcedKeep> forced;
};
} // namespace

void mlir::flyhoist::planArguments(std::vector<KernelPlan> &plans,
                                   const HoistOptions &options) {
  ArgumentPlanner(plans).run(options);
}
