//===- OwnParams.cpp - A function's own parameters, classified ------------===//
//
// The ops of a function are sorted by name (a run of one name is one
// parameter), the use analysis classifies every name in one propagation, and
// each plan takes its decision from the analysis, an earlier run's record, or
// the immediate-offset rule.
//
//===----------------------------------------------------------------------===//

#include "OwnParams.h"

#include "flyhoist/Analysis/ImmediateOffsets.h"

#include "llvm/ADT/STLExtras.h"

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

/// Fills `lists` for `ops`: the ops in name order (the order of the new
/// arguments), each name's run of them in IR order, and each run's results.
/// (Sorting the ops themselves: nearly every name has one op, and grouping
/// them in a map first costs more than it saves.)
static void groupByName(ArrayRef<ParamOp> ops, OwnParamScratch &lists) {
  // (ParamOp's accessors are not const: read through a copy.)
  auto nameAt = [&](unsigned i) { return ParamOp(ops[i]).getNameAttr(); };
  sortByName(
      ops.size(), [&](unsigned i) { return nameAt(i).getValue(); },
      lists.order);
  lists.runs.clear();
  for (unsigned first = 0, end = lists.order.size(); first < end;) {
    StringAttr name = nameAt(lists.order[first]);
    unsigned last = first + 1;
    while (last < end && nameAt(lists.order[last]) == name)
      ++last;
    lists.runs.push_back({first, last});
    first = last;
  }
  // (Resized rather than cleared: each root list keeps its memory.)
  lists.roots.resize(lists.runs.size());
  for (auto [values, run] : llvm::zip_equal(lists.roots, lists.runs)) {
    values.clear();
    for (unsigned index = run.first; index < run.second; ++index)
      values.push_back(ParamOp(ops[lists.order[index]]).getResult());
  }
}

/// Starts the plan of the parameter whose ops are `ops[order[i]]` for `i` in
/// `run`: its name, value and type, its ops, and what planning needs to know
/// of them. Returns whether any op has a use.
static bool describeOps(ArrayRef<ParamOp> ops, ArrayRef<unsigned> order,
                        std::pair<unsigned, unsigned> run, Operation *function,
                        ParamPlan &param) {
  ParamOp front = ops[order[run.first]];
  param.name = front.getNameAttr();
  param.value = front.getIntValue();
  param.type = front.getType();
  bool anyUse = false;
  for (unsigned index : order.slice(run.first, run.second - run.first)) {
    ParamOp op = ops[index];
    param.ops.push_back(op);
    anyUse |= !op.use_empty();
    param.mixedTypes |= op.getType() != param.type;
    if (op.getEquals()) {
      ++param.numWithEquals;
      continue;
    }
    // (An op right in the function's body, the usual case, is reachable
    // without asking the ops around it.)
    if (!param.unreachableScope && op->getParentOp() != function)
      if (Operation *scope = isolatedScope(op); scope != function)
        param.unreachableScope = scope;
  }
  return anyUse;
}

/// The names an earlier run kept (its spec.params left in place by
/// materialize-kept=false), with what it recorded.
static DenseMap<StringAttr, spec::HoistRecordAttr::KeptEntry>
keptBefore(Operation *function) {
  DenseMap<StringAttr, spec::HoistRecordAttr::KeptEntry> kept;
  if (spec::HoistRecordAttr earlier = spec::getHoistRecord(function))
    for (spec::HoistRecordAttr::KeptEntry entry : earlier.getKeptEntries())
      kept.try_emplace(entry.param.getName(), entry);
  return kept;
}

/// The record's reason for the analysis' `reason` (the same case: the
/// analysis keeps its own vocabulary, as upstream analyses do).
static spec::KeepReason keepReasonFor(BlockReason reason) {
  switch (reason) {
#define FLYHOIST_SAME_REASON(Name)                                             \
  case BlockReason::Name:                                                      \
    return spec::KeepReason::Name;
    FLYHOIST_SAME_REASON(LoopBound)
    FLYHOIST_SAME_REASON(Comparison)
    FLYHOIST_SAME_REASON(Clamp)
    FLYHOIST_SAME_REASON(BranchCondition)
    FLYHOIST_SAME_REASON(Division)
    FLYHOIST_SAME_REASON(ShiftAmount)
    FLYHOIST_SAME_REASON(Allocation)
    FLYHOIST_SAME_REASON(StoredData)
    FLYHOIST_SAME_REASON(CallOperand)
    FLYHOIST_SAME_REASON(ReturnOperand)
    FLYHOIST_SAME_REASON(LaunchDimensions)
    FLYHOIST_SAME_REASON(MaskOrPadding)
    FLYHOIST_SAME_REASON(SizeReadBack)
    FLYHOIST_SAME_REASON(UnknownOperation)
    FLYHOIST_SAME_REASON(UnknownOperand)
    FLYHOIST_SAME_REASON(MustBeImmediate)
    FLYHOIST_SAME_REASON(VectorPosition)
#undef FLYHOIST_SAME_REASON
  }
  llvm_unreachable("unknown BlockReason");
}

/// The typed reason (with the details its wording names) of blocking use
/// `use`: what the hoist record keeps. Only the wording of unknown
/// operations and operands names the operation, and only that of
/// unclassified operands the position: other reasons leave them out so that
/// one reason is one record entry.
static spec::KeepReasonInfo keepReasonOf(const BlockingUse &use) {
  spec::KeepReasonInfo why;
  why.reason = keepReasonFor(use.reason);
  if (use.reason == BlockReason::UnknownOperation ||
      use.reason == BlockReason::UnknownOperand)
    why.op = use.user->getName().getIdentifier();
  if (use.reason == BlockReason::UnknownOperand)
    why.operand = use.operandNumber;
  return why;
}

/// Makes `param` kept for `why`, because of the use by `user`.
static void keepFor(ParamPlan &param, Operation *user,
                    const spec::KeepReasonInfo &why) {
  param.decision = ParamPlan::Decision::Keep;
  param.reason = why;
  param.blockingLoc = user->getLoc();
}

void mlir::flyhoist::planOwnParams(const DiscoveredKernel &kernel,
                                   const StrideUseRules &rules,
                                   bool hoistImmediateOffsets,
                                   ParamUseScratch &scratch,
                                   OwnParamScratch &lists,
                                   std::vector<ParamPlan> &plans) {
  plans.clear();
  if (kernel.params.empty())
    return;
  ArrayRef<ParamOp> ops = kernel.params;
  groupByName(ops, lists);
  SmallVector<ParamUseSummary> summaries =
      analyzeParamUses(lists.roots, rules, {}, &scratch);
  // A name an earlier run kept stays kept for the same reason: what made it
  // kept (a callee's parameter type, say) may be gone from the rewritten IR,
  // and twice must be the same as once. That holds even when its uses are
  // gone: the only use may have been another parameter's `equals`, whose
  // op the earlier run erased.
  auto earlier = keptBefore(kernel.function);
  plans.reserve(lists.runs.size());
  for (auto [run, summary, values] :
       llvm::zip(lists.runs, summaries, lists.roots)) {
    ParamPlan &param = plans.emplace_back();
    bool anyUse = describeOps(ops, lists.order, run, kernel.function, param);
    if (auto kept = earlier.find(param.name); kept != earlier.end()) {
      param.decision = ParamPlan::Decision::Keep;
      param.reason = kept->second.param.getReasonInfo();
      param.blockingLoc = Location(kept->second.location);
    } else if (!anyUse) {
      param.decision = ParamPlan::Decision::Unused;
    } else if (!summary.isAddressOnly()) {
      keepFor(param, summary.firstBlockingUse->user,
              keepReasonOf(*summary.firstBlockingUse));
    } else if (std::optional<ImmediateOffsetFold> fold =
                   findImmediateOffsetFold(values, param.value);
               fold && !hoistImmediateOffsets) {
      spec::KeepReasonInfo why;
      why.reason = spec::KeepReason::ImmediateOffset;
      keepFor(param, fold->access, why);
    } else {
      // Hoisted anyway, an offset tail costs an add per access that would
      // have folded it: the record says how many.
      param.decision = ParamPlan::Decision::Hoist;
      if (fold)
        param.immediateOffsets = fold->numAccesses;
    }
  }
}
