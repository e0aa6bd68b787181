//===- HoistRecord.cpp - What a rewritten function records ----------------===//

#include "HoistRecord.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::flyhoist;
using spec::ParamOp;

/// What the launcher must guarantee for a hoisted parameter: the encoding's
/// facts, then the `equals` contracts.
static SmallVector<Attribute> preconditionsOf(MLIRContext *context,
                                              const ParamPlan &param) {
  SmallVector<Attribute> facts;
  if (param.argumentIndex)
    facts = param.encoding.preconditions(context);
  facts.insert(facts.end(), param.equalsContracts.begin(),
               param.equalsContracts.end());
  return facts;
}

/// The record entry of hoisted parameter `param` (never its value).
static spec::HoistedParamAttr hoistedEntry(MLIRContext *context,
                                           const ParamPlan &param) {
  auto number = [](std::optional<unsigned> value) -> std::optional<int64_t> {
    if (!value)
      return std::nullopt;
    return static_cast<int64_t>(*value);
  };
  ArrayAttr facts;
  if (SmallVector<Attribute> preconditions = preconditionsOf(context, param);
      !preconditions.empty())
    facts = ArrayAttr::get(context, preconditions);
  Type type = param.argumentIndex
                  ? param.encoding.argumentType(param.carrierType)
                  : param.type;
  Type zeroExtendedTo = param.encoding.narrow ? param.carrierType : Type();
  return spec::HoistedParamAttr::get(
      context, param.name, type, number(param.argumentIndex), zeroExtendedTo,
      facts, number(param.hostArgument), number(param.immediateOffsets));
}

void mlir::flyhoist::addKeptEntry(FunctionOpInterface function,
                                  const ParamPlan &param,
                                  KeptRecordEntries &kept) {
  Location where = param.blockingLoc   ? *param.blockingLoc
                   : param.ops.empty() ? function.getLoc()
                                       : ParamOp(param.ops.front()).getLoc();
  kept.params.push_back(spec::KeptParamAttr::get(
      function->getContext(), param.name, param.value, param.reason));
  kept.locations.push_back(where);
}

/// The kept entries of a function that has a record already: the earlier
/// entries in their order (each replaced by this run's entry for the name
/// where it decided one, dropped where it decided otherwise), then this
/// run's new names in plan order. A second run thus writes the list the
/// first one did, even where the first listed names this run no longer
/// plans (values passed on to a callee hoisted then, say) before names it
/// still does.
static void mergeEarlierKept(const KernelPlan &plan,
                             spec::HoistRecordAttr earlier,
                             KeptRecordEntries &kept) {
  llvm::SmallDenseMap<StringAttr, unsigned> fresh;
  for (auto [index, param] : llvm::enumerate(kept.params))
    fresh.try_emplace(cast<spec::KeptParamAttr>(param).getName(), index);
  llvm::SmallDenseSet<StringAttr> decided;
  for (const ParamPlan &param : plan.params)
    decided.insert(param.name);
  KeptRecordEntries merged;
  SmallVector<bool> taken(kept.params.size(), false);
  for (spec::HoistRecordAttr::KeptEntry entry : earlier.getKeptEntries()) {
    StringAttr name = entry.param.getName();
    if (auto it = fresh.find(name); it != fresh.end()) {
      if (!taken[it->second]) {
        merged.params.push_back(kept.params[it->second]);
        merged.locations.push_back(kept.locations[it->second]);
        taken[it->second] = true;
      }
    } else if (!decided.contains(name)) {
      merged.params.push_back(entry.param);
      merged.locations.push_back(entry.location);
    }
  }
  for (auto [index, param] : llvm::enumerate(kept.params)) {
    if (taken[index])
      continue;
    merged.params.push_back(param);
    merged.locations.push_back(kept.locations[index]);
  }
  kept = std::move(merged);
}

void mlir::flyhoist::writeRecord(const KernelPlan &plan,
                                 KeptRecordEntries &kept) {
  FunctionOpInterface function = plan.kernel->function;
  MLIRContext *context = function->getContext();
  SmallVector<Attribute> hoisted;
  for (const ParamPlan &param : plan.params)
    if (param.decision == ParamPlan::Decision::Hoist)
      hoisted.push_back(hoistedEntry(context, param));
  // A function hoisted before (e.g. a second run with materialize-kept=false)
  // keeps its earlier entries: the record describes the whole signature.
  if (spec::HoistRecordAttr earlier = spec::getHoistRecord(function)) {
    hoisted.insert(hoisted.begin(), earlier.getHoisted().begin(),
                   earlier.getHoisted().end());
    mergeEarlierKept(plan, earlier, kept);
  }
  SmallVector<Attribute> sites;
  for (Operation *site : plan.kernel->launchSites)
    sites.push_back(site->getLoc());
  function->setAttr(spec::kRecordAttrName,
                    spec::HoistRecordAttr::get(
                        context,
                        plan.kernel->kind == FunctionKind::DeviceFunction,
                        ArrayAttr::get(context, hoisted),
                        ArrayAttr::get(context, kept.params),
                        ArrayAttr::get(context, kept.locations),
                        ArrayAttr::get(context, sites)));
}
