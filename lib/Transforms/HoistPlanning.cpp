//===- HoistPlanning.cpp - What happens to each parameter -----------------===//
//
// Functions are planned in groups connected by calls (HoistPlanner). Within
// a group, two steps: each function's own parameters are classified by the
// use analysis (planOwnParams); then the names that need a new argument are
// passed up through the device call graph until nothing changes
// (ArgumentPlanner), which also finds every reason a function cannot take an
// argument it would need. A group of one function that calls none of the
// others, the usual kernel, needs no call graph (finishIsolated).
//
//===----------------------------------------------------------------------===//

#include "HoistPlanning.h"

#include "HoistRemarks.h"
#include "flyhoist/Analysis/ImmediateOffsets.h"
#include "flyhoist/Transforms/HoistStrideSpecialization.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "llvm/ADT/STLExtras.h"

#include <map>
#include <numeric>

using namespace mlir;
using namespace mlir::flyhoist;
using spec::ParamOp;

/// Sets `order` to the indices 0..count-1 sorted by `nameOf(index)`,
/// lexicographically; equal names keep their order. (The index breaks ties,
/// so the order is total: std::stable_sort would need
/// get_temporary_buffer, deprecated in C++17 and an error under clang 22.)
template <typename NameOf>
static void sortByName(unsigned count, NameOf nameOf,
                       SmallVectorImpl<unsigned> &order) {
  order.resize(count);
  std::iota(order.begin(), order.end(), 0u);
  llvm::sort(order, [&](unsigned a, unsigned b) {
    return std::make_pair(nameOf(a), a) < std::make_pair(nameOf(b), b);
  });
}

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

/// The lists planOwnParams() builds per function, kept by the planner so
/// that a function reuses the memory of the one before (a module's first
/// function touches it; the others find it in cache).
struct HoistPlanner::OwnParamScratch {
  /// The function's `spec.param` ops (indices) in name order.
  SmallVector<unsigned> order;
  /// Each name's run `[first, last)` of `order`.
  SmallVector<std::pair<unsigned, unsigned>> runs;
  /// Each name's `spec.param` results: the analysis' roots.
  SmallVector<SmallVector<Value>> roots;
};

/// Classifies the function's own parameters, by name, with the use analysis
/// (one propagation for all of them): Hoist (address-only), Keep (with the
/// first blocking use) or Unused. Where the value comes from (argument or
/// `equals`) is decided by ArgumentPlanner. Unless `hoistImmediateOffsets`,
/// an address-only parameter that folds into an access's immediate offset
/// is kept (ImmediateOffsets.h). Replaces what `plans` held, reusing its
/// memory (see HoistPlanner::planGroup).
static void planOwnParams(const DiscoveredKernel &kernel,
                          const StrideUseRules &rules,
                          bool hoistImmediateOffsets, ParamUseScratch &scratch,
                          HoistPlanner::OwnParamScratch &lists,
                          std::vector<ParamPlan> &plans) {
  plans.clear();
  if (kernel.params.empty())
    return;
  // The ops in name order, the order of the new arguments, and each name's
  // ops in IR order: a run of one name is one parameter. (Sorting the ops
  // themselves: nearly every name has one op, and grouping them in a map
  // first costs more than it saves.)
  ArrayRef<ParamOp> ops = kernel.params;
  // (ParamOp's accessors are not const: read through a copy.)
  auto nameAt = [&](unsigned i) { return ParamOp(ops[i]).getNameAttr(); };
  SmallVector<unsigned> &order = lists.order;
  sortByName(
      ops.size(), [&](unsigned i) { return nameAt(i).getValue(); }, order);
  SmallVector<std::pair<unsigned, unsigned>> &runs = lists.runs;
  runs.clear();
  for (unsigned first = 0, end = order.size(); first < end;) {
    StringAttr name = nameAt(order[first]);
    unsigned last = first + 1;
    while (last < end && nameAt(order[last]) == name)
      ++last;
    runs.push_back({first, last});
    first = last;
  }
  auto opsOf = [&](std::pair<unsigned, unsigned> run) {
    return llvm::map_range(
        ArrayRef(order).slice(run.first, run.second - run.first),
        [&](unsigned index) { return ParamOp(ops[index]); });
  };
  // (Resized rather than cleared: each root list keeps its memory.)
  SmallVector<SmallVector<Value>> &roots = lists.roots;
  roots.resize(runs.size());
  for (auto [values, run] : llvm::zip_equal(roots, runs)) {
    values.clear();
    for (ParamOp op : opsOf(run))
      values.push_back(op.getResult());
  }
  SmallVector<ParamUseSummary> summaries =
      analyzeParamUses(roots, rules, {}, &scratch);
  // A name an earlier run kept (its spec.params left in place by
  // materialize-kept=false) stays kept for the same reason: what made it
  // kept (a callee's parameter type, say) may be gone from the rewritten IR,
  // and twice must be the same as once. That holds even when its uses are
  // gone: the only use may have been another parameter's `equals`, whose
  // op the earlier run erased.
  DenseMap<StringAttr, spec::HoistRecordAttr::KeptEntry> keptBefore;
  if (spec::HoistRecordAttr earlier = spec::getHoistRecord(kernel.function))
    for (spec::HoistRecordAttr::KeptEntry kept : earlier.getKeptEntries())
      keptBefore.try_emplace(kept.param.getName(), kept);
  plans.reserve(runs.size());
  for (auto [run, summary, values] : llvm::zip(runs, summaries, roots)) {
    ParamPlan &param = plans.emplace_back();
    ParamOp front = ops[order[run.first]];
    param.name = front.getNameAttr();
    param.value = front.getIntValue();
    param.type = front.getType();
    llvm::append_range(param.ops, opsOf(run));
    bool anyUse = false;
    for (ParamOp op : param.ops) {
      anyUse |= !op.use_empty();
      param.mixedTypes |= op.getType() != param.type;
      if (op.getEquals()) {
        ++param.numWithEquals;
        continue;
      }
      // (An op right in the function's body, the usual case, is reachable
      // without asking the ops around it.)
      if (!param.unreachableScope && op->getParentOp() != kernel.function)
        if (Operation *scope = isolatedScope(op); scope != kernel.function)
          param.unreachableScope = scope;
    }
    if (auto kept = keptBefore.find(param.name); kept != keptBefore.end()) {
      param.decision = ParamPlan::Decision::Keep;
      param.reason = kept->second.param.getReasonInfo();
      param.blockingLoc = Location(kept->second.location);
    } else if (!anyUse) {
      param.decision = ParamPlan::Decision::Unused;
    } else if (!summary.isAddressOnly()) {
      const BlockingUse &first = *summary.firstBlockingUse;
      param.decision = ParamPlan::Decision::Keep;
      param.reason = keepReasonOf(first);
      param.blockingLoc = first.user->getLoc();
    } else if (std::optional<ImmediateOffsetFold> fold =
                   hoistImmediateOffsets
                       ? std::nullopt
                       : findImmediateOffsetFold(values, param.value)) {
      param.decision = ParamPlan::Decision::Keep;
      param.reason = keepReasonOf(
          {fold->access, BlockReason::ImmediateOffset, fold->operandNumber});
      param.blockingLoc = fold->access->getLoc();
    } else {
      param.decision = ParamPlan::Decision::Hoist;
    }
  }
}

//===----------------------------------------------------------------------===//
// The `equals` contract, as recorded
//===----------------------------------------------------------------------===//

/// The operand `contract` (a precondition "value == X") names, as text: X.
static std::string operandText(Attribute contract) {
  return StringRef(spec::describePrecondition(contract))
      .drop_front(StringRef("value == ").size())
      .str();
}

/// The `part` (number `index`) of `source`, as the launcher can check it
/// when `source` is a kernel argument.
static Attribute describePart(Attribute source, spec::ArgumentPart part,
                              std::optional<int64_t> index) {
  MLIRContext *context = source.getContext();
  auto argument = dyn_cast<spec::EqualsAttr>(source);
  if (argument && argument.getPart() == spec::ArgumentPart::Value)
    return spec::EqualsAttr::get(context, argument.getArgument(), part, index);
  std::string text = spec::stringifyArgumentPart(part).str();
  if (index)
    text += " " + std::to_string(*index);
  return spec::EqualsUnverifiableAttr::get(
      context, StringAttr::get(context, text + " of " + operandText(source)));
}

/// The contract "value == `value`", from what the launcher knows: the
/// function's arguments, the layout of memref arguments, constants and other
/// parameters (#spec.equals_unverifiable, described, for anything else).
/// Never a location: the record lives in the gpu.module, whose fingerprint
/// must not depend on where the frontend traced the kernel from.
static Attribute describeOperand(Value value, FunctionOpInterface function) {
  MLIRContext *context = function->getContext();
  auto unverifiable = [&](const Twine &text) -> Attribute {
    return spec::EqualsUnverifiableAttr::get(context,
                                             StringAttr::get(context, text));
  };
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    if (!function.isExternal() &&
        argument.getOwner() == &function.getFunctionBody().front() &&
        argument.getArgNumber() < function.getNumArguments())
      return spec::EqualsAttr::get(context, argument.getArgNumber(),
                                   spec::ArgumentPart::Value, std::nullopt);
    return unverifiable(
        "block argument " + Twine(argument.getArgNumber()) +
        " of a region of '" +
        argument.getOwner()->getParentOp()->getName().getStringRef() + "'");
  }
  // Sign-preserving widening casts keep the number, which is what the
  // contract is about: the subject the discovery checks also read.
  if (Value subject = equalsSubject(value); subject != value)
    return describeOperand(subject, function);
  Operation *def = value.getDefiningOp();
  unsigned result = cast<OpResult>(value).getResultNumber();
  if (auto param = dyn_cast<ParamOp>(def))
    return spec::EqualsParameterAttr::get(context, param.getNameAttr());
  if (std::optional<APInt> known = knownIntegerValue(value))
    return spec::EqualsConstantAttr::get(context, known->getSExtValue());
  if (auto metadata = dyn_cast<memref::ExtractStridedMetadataOp>(def)) {
    Attribute source = describeOperand(metadata.getSource(), function);
    unsigned rank = metadata.getSizes().size();
    if (result == 1)
      return describePart(source, spec::ArgumentPart::Offset, std::nullopt);
    if (result >= 2 && result < 2 + rank)
      return describePart(source, spec::ArgumentPart::Size, result - 2);
    if (result >= 2 + rank)
      return describePart(source, spec::ArgumentPart::Stride,
                          result - 2 - rank);
  }
  if (auto dim = dyn_cast<memref::DimOp>(def))
    if (std::optional<int64_t> index = dim.getConstantIndex())
      return describePart(describeOperand(dim.getSource(), function),
                          spec::ArgumentPart::Size, *index);
  return unverifiable("result " + Twine(result) + " of '" +
                      def->getName().getStringRef() + "'");
}

/// The contracts "value == <operand>" of the `equals` ops of `param`.
static SmallVector<Attribute> equalsContracts(const ParamPlan &param,
                                              FunctionOpInterface function) {
  SmallVector<Attribute> contracts;
  if (param.numWithEquals == 0)
    return contracts;
  for (ParamOp op : param.ops) {
    Value equals = op.getEquals();
    if (!equals)
      continue;
    Attribute contract = describeOperand(equals, function);
    if (!llvm::is_contained(contracts, contract))
      contracts.push_back(contract);
  }
  return contracts;
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
      : reason(std::move(reason)) {
    if (blockingUser)
      blockingLoc = blockingUser->getLoc();
  }

  spec::KeepReasonInfo reason;
  std::optional<Location> blockingLoc;
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

/// Why `kernel` cannot take an argument for the name of `param` (its own
/// parameter of that name) because of how it holds the name.
static std::optional<ForcedKeep>
whyNoArgumentForParam(const DiscoveredKernel &kernel, const ParamPlan &param) {
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
  param.blockingLoc = keep.blockingLoc;
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

/// The plan of a function that calls none of the functions planned and that
/// none of them calls: each hoisted parameter without `equals` gets an
/// argument, unless the function cannot take it. The same decisions as
/// ArgumentPlanner on a group of one, without its call graph.
static void finishIsolated(KernelPlan &plan, const HoistOptions &options) {
  FunctionOpInterface callable = plan.kernel->function;
  unsigned nextArgument = callable.getNumArguments();
  std::optional<ForcedKeep> noArgumentAtAll = whyNoArgumentAtAll(*plan.kernel);
  for (ParamPlan &param : plan.params) {
    if (needsOwnArgument(param)) {
      std::optional<ForcedKeep> keep =
          whyNoArgumentForParam(*plan.kernel, param);
      if (!keep)
        keep = noArgumentAtAll;
      if (keep)
        keepForced(param, *keep);
      else
        assignArgument(param, callable, nextArgument, options);
    }
    if (param.decision == ParamPlan::Decision::Hoist)
      param.equalsContracts = equalsContracts(param, callable);
  }
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
      if (std::optional<ForcedKeep> keep =
              whyNoArgumentForParam(kernel, *param))
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
    for (unsigned function = 0; function < plans.size(); ++function) {
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
      for (unsigned name : stillForced[function])
        addPassedOnly(name, forced.at({function, name}).type);
      // Own parameters come sorted; only names passed on may be out of
      // place (sorting moves whole plans: skip it when nothing is).
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
        } else if (llvm::is_contained(stillForced[function], name)) {
          keepForced(param, forced.at(key));
        } else if (demand.count(key)) {
          assignArgument(param, callable, nextArgument, options);
          if (auto calls = incoming.find(key); calls != incoming.end())
            param.passedTo = StringAttr::get(
                callable->getContext(),
                plans[calls->second.front().function].kernel->path);
        }
        if (param.decision == ParamPlan::Decision::Hoist)
          param.equalsContracts = equalsContracts(param, callable);
      }
      plan.params = std::move(params);
    }
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

HoistPlanner::HoistPlanner(const DiscoveredModule &discovered,
                           const HoistOptions &options,
                           const StrideUseRules &rules)
    : discovered(discovered), options(options), rules(rules),
      ownParamScratch(std::make_unique<OwnParamScratch>()) {
  // Union-find over the calls between planned functions; each group is then
  // listed at its first function, which keeps groups and their functions in
  // IR order.
  unsigned count = discovered.kernels.size();
  std::vector<unsigned> parent(count);
  std::iota(parent.begin(), parent.end(), 0u);
  auto root = [&](unsigned function) {
    while (parent[function] != function)
      function = parent[function] = parent[parent[function]];
    return function;
  };
  callsPlanned.assign(count, false);
  for (auto [callee, kernel] : llvm::enumerate(discovered.kernels))
    for (Operation *site : kernel.launchSites) {
      auto caller = site->getParentOfType<FunctionOpInterface>();
      auto it = caller ? discovered.kernelIndex.find(caller)
                       : discovered.kernelIndex.end();
      if (it == discovered.kernelIndex.end())
        continue;
      callsPlanned[it->second] = true;
      unsigned a = root(callee), b = root(it->second);
      parent[std::max(a, b)] = std::min(a, b);
    }
  std::vector<unsigned> groupOf(count, ~0u);
  for (unsigned function = 0; function < count; ++function) {
    unsigned &group = groupOf[root(function)];
    if (group == ~0u) {
      group = groups.size();
      groups.emplace_back();
    }
    groups[group].push_back(function);
  }
}

HoistPlanner::~HoistPlanner() = default;

void HoistPlanner::planGroup(unsigned index, std::vector<KernelPlan> &plans) {
  // The plans of the last group are overwritten in place, reusing their
  // storage.
  plans.resize(groups[index].size());
  for (auto [plan, function] : llvm::zip_equal(plans, groups[index])) {
    plan.kernel = &discovered.kernels[function];
    plan.callsPlannedFunction = callsPlanned[function];
    planOwnParams(*plan.kernel, rules, options.hoistImmediateOffsets, scratch,
                  *ownParamScratch, plan.params);
  }
  if (plans.size() == 1 && !plans.front().callsPlannedFunction)
    finishIsolated(plans.front(), options);
  else
    ArgumentPlanner(plans).run(options);
}
