//===- LaunchPlan.cpp - What every launch site passes ---------------------===//

#include "LaunchPlan.h"

#include "ArgumentPlanning.h"
#include "CreatedConstants.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include "llvm/ADT/MapVector.h"

#include <iterator>

using namespace mlir;
using namespace mlir::flyhoist;

LaunchPlanner::LaunchPlanner(const DiscoveredModule &discovered,
                             bool hoistIntoHost)
    : discovered(discovered), hoistIntoHost(hoistIntoHost) {
  for (const DiscoveredKernel &kernel : discovered.kernels)
    for (Operation *site : kernel.launchSites) {
      plannedSites.insert(site);
      auto [first, inserted] =
          firstSiteInBlock.try_emplace(site->getBlock(), site);
      if (!inserted && site->isBeforeInBlock(first->second))
        first->second = site;
    }
}

/// Host functions can take a new argument when every use of their symbol
/// is a call the pass can extend (and they are not variadic).
bool LaunchPlanner::canTakeHostArgument(FunctionOpInterface function) const {
  if (function.isExternal() ||
      function->getParentOfType<gpu::GPUModuleOp>() != nullptr)
    return false;
  if (auto llvmFunc = dyn_cast<LLVM::LLVMFuncOp>(function.getOperation());
      llvmFunc && llvmFunc.isVarArg())
    return false;
  auto it = discovered.symbolUses.find(function);
  return it == discovered.symbolUses.end() ||
         llvm::all_of(it->second,
                      [](const SymbolUse &use) { return use.isLaunchSite; });
}

/// The function whose arguments `site` can use: the function it is in,
/// unless a region isolated from above lies between them (planning made
/// sure no hoisting depends on it).
static FunctionOpInterface callerOf(Operation *site) {
  auto function = site->getParentOfType<FunctionOpInterface>();
  if (function && isolatedScope(site) == function.getOperation())
    return function;
  return nullptr;
}

/// A launch site of a planned function inside a host function that can take
/// an argument makes it take one for each hoisted name the site passes, and
/// so in turn its callers; numbered in the order the launch sites are
/// listed.
void LaunchPlanner::planHostArgument(LaunchPlan &result, Operation *site,
                                     StringAttr name, Type type,
                                     int64_t value) {
  FunctionOpInterface caller = callerOf(site);
  if (!caller || held.contains(key(caller, name, type)) ||
      discovered.kernelIndex.count(caller) || !canTakeHostArgument(caller))
    return;
  unsigned number = caller.getNumArguments() + numHostArguments[caller]++;
  held[key(caller, name, type)] = {PassedValue::Source::HostArgument, 0, 0,
                                   unsigned(result.hostArguments.size())};
  result.hostArguments.push_back(
      {caller, name, type, value, argumentCarrierType(caller, type), number});
  if (auto it = discovered.symbolUses.find(caller);
      it != discovered.symbolUses.end())
    for (const SymbolUse &use : it->second)
      planHostArgument(result, use.user, name, type, value);
}

/// Each host argument replaces its function's own `spec.param`s of the name
/// (those the argument can reach).
void LaunchPlanner::findReplacedParams(LaunchPlan &result) {
  for (spec::ParamOp param : discovered.otherParams) {
    auto it = held.find(
        key(isolatedScope(param), param.getNameAttr(), param.getType()));
    if (it == held.end() ||
        it->second.source != PassedValue::Source::HostArgument)
      continue;
    result.hostArguments[it->second.hostArgument].replaces.push_back(param);
    replacedParams.insert(param);
  }
}

LaunchPlanner::SiteFacts LaunchPlanner::factsOf(Operation *site) const {
  SiteFacts facts;
  facts.site = site;
  facts.caller = callerOf(site);
  facts.llvmCodeSite = isLLVMCodeSite(site);
  // Only launch sites of planned functions are at or after the first of
  // their block; a host call that hoist-into-host extended may come before
  // it, where a constant placed there would not dominate it.
  if (plannedSites.contains(site))
    facts.firstInBlock = firstSiteInBlock.lookup(site->getBlock());
  return facts;
}

PassedValue LaunchPlanner::valueAt(const SiteFacts &facts, StringAttr name,
                                   Type type, Type siteType, int64_t value) {
  PassedValue passed;
  passed.name = name;
  passed.value = value;
  passed.siteType = siteType;
  if (facts.caller) {
    auto it = held.find(key(facts.caller, name, type));
    if (it != held.end()) {
      passed.source = it->second.source;
      passed.plan = it->second.plan;
      passed.param = it->second.param;
      passed.hostArgument = it->second.hostArgument;
      return passed;
    }
  }
  // One constant per block, type, value and dialect, before the block's
  // first launch site, shared by all its launch sites (a module launching
  // thousands of kernels from one function would otherwise get thousands
  // of copies for cse to fold). Other calls get their own.
  passed.source = PassedValue::Source::Constant;
  if (!facts.firstInBlock) {
    passed.constant = numConstants++;
    passed.createsConstant = true;
    passed.placedBefore = facts.site;
    return passed;
  }
  auto [it, inserted] = sharedConstants.try_emplace(
      {facts.site->getBlock(), siteType.getAsOpaquePointer(), value,
       static_cast<unsigned>(createsLLVMCode(facts.llvmCodeSite, siteType))},
      numConstants);
  passed.constant = it->second;
  if (inserted) {
    ++numConstants;
    passed.createsConstant = true;
    passed.placedBefore = facts.firstInBlock;
  }
  return passed;
}

/// The record of a planned function names, for each hoisted parameter, the
/// host argument that the function holding its first launch site took.
void LaunchPlanner::recordHostArguments(MutableArrayRef<KernelPlan> plans,
                                        const LaunchPlan &result) {
  for (KernelPlan &plan : plans) {
    if (plan.kernel->launchSites.empty())
      continue;
    Operation *host = plan.kernel->launchSites.front()
                          ->getParentOfType<FunctionOpInterface>();
    for (ParamPlan &param : plan.params) {
      if (param.decision != ParamPlan::Decision::Hoist || !param.argumentIndex)
        continue;
      auto it = held.find(key(host, param.name, param.type));
      if (it != held.end() &&
          it->second.source == PassedValue::Source::HostArgument)
        param.hostArgument =
            result.hostArguments[it->second.hostArgument].index;
    }
  }
}

LaunchPlan LaunchPlanner::plan(MutableArrayRef<KernelPlan> plans) {
  LaunchPlan result;
  held.clear();
  numHostArguments.clear();
  // What each planned function holds: its own new arguments (the rewrite
  // changes every signature before any launch site).
  for (auto [planIndex, plan] : llvm::enumerate(plans))
    for (auto [paramIndex, param] : llvm::enumerate(plan.params))
      if (param.decision == ParamPlan::Decision::Hoist && param.argumentIndex)
        held[key(plan.kernel->function, param.name, param.type)] = {
            PassedValue::Source::CallerArgument, unsigned(planIndex),
            unsigned(paramIndex), 0};
  if (hoistIntoHost) {
    for (const KernelPlan &plan : plans)
      for (Operation *site : plan.kernel->launchSites)
        for (const ParamPlan &param : plan.params)
          if (param.argumentIndex)
            planHostArgument(result, site, param.name, param.type, param.value);
    findReplacedParams(result);
    // The calls of each host function that takes arguments pass them.
    llvm::MapVector<Operation *, SmallVector<unsigned, 1>> byFunction;
    for (auto [index, argument] : llvm::enumerate(result.hostArguments))
      byFunction[argument.function].push_back(index);
    for (auto &[function, arguments] : byFunction) {
      auto uses = discovered.symbolUses.find(function);
      if (uses == discovered.symbolUses.end())
        continue;
      for (const SymbolUse &use : uses->second) {
        SitePlan &site = result.sites.emplace_back();
        site.site = use.user;
        SiteFacts facts = factsOf(use.user);
        for (unsigned index : arguments) {
          const HostArgument &argument = result.hostArguments[index];
          site.values.push_back(valueAt(facts, argument.name, argument.type,
                                        argument.carrierType, argument.value));
        }
      }
    }
    recordHostArguments(plans, result);
  }
  for (const KernelPlan &plan : plans)
    for (Operation *site : plan.kernel->launchSites) {
      SitePlan sitePlan{site, {}};
      SiteFacts facts = factsOf(site);
      for (const ParamPlan &param : plan.params) {
        if (!param.argumentIndex)
          continue;
        sitePlan.values.push_back(valueAt(facts, param.name, param.type,
                                          param.carrierType, param.value));
        sitePlan.values.back().encoding = param.encoding;
      }
      if (!sitePlan.values.empty())
        result.sites.push_back(std::move(sitePlan));
    }
  result.numConstants = numConstants;
  return result;
}

void mlir::flyhoist::planInSteps(
    const DiscoveredModule &discovered, const HoistOptions &options,
    const StrideUseRules &rules, LaunchPlanner &launches,
    function_ref<void(MutableArrayRef<KernelPlan>, const LaunchPlan &)> step) {
  HoistPlanner planner(discovered, options, rules);
  std::vector<KernelPlan> plans, all;
  for (unsigned group = 0, e = planner.getNumGroups(); group < e; ++group) {
    planner.planGroup(group, plans);
    if (options.hoistIntoHost)
      std::move(plans.begin(), plans.end(), std::back_inserter(all));
    else
      step(plans, launches.plan(plans));
  }
  if (options.hoistIntoHost)
    step(all, launches.plan(all));
}

/// `site` as the plan prints it: its operation and location.
static void printSite(raw_ostream &os, Operation *site) {
  os << site->getName() << " at " << site->getLoc();
}

void mlir::flyhoist::printLaunchPlan(raw_ostream &os,
                                     ArrayRef<KernelPlan> plans,
                                     const LaunchPlan &launches) {
  for (const KernelPlan &plan : plans)
    for (const ParamPlan &param : plan.params)
      if (param.hostArgument)
        os << "record " << symbolPath(plan.kernel->function) << ": '"
           << param.name.getValue() << "' names host argument #"
           << *param.hostArgument << "\n";
  for (const HostArgument &argument : launches.hostArguments) {
    os << "host argument " << symbolPath(argument.function) << " #"
       << argument.index << ": '" << argument.name.getValue()
       << "' : " << argument.type;
    if (argument.carrierType != argument.type)
      os << " (carried as " << argument.carrierType << ")";
    os << ", replaces " << argument.replaces.size() << " spec.param\n";
  }
  for (const SitePlan &site : launches.sites) {
    os << "site ";
    printSite(os, site.site);
    os << "\n";
    for (const PassedValue &value : site.values) {
      os << "  '" << value.name.getValue() << "' : " << value.siteType
         << " from ";
      switch (value.source) {
      case PassedValue::Source::CallerArgument: {
        const KernelPlan &plan = plans[value.plan];
        os << "caller argument " << symbolPath(plan.kernel->function) << " #"
           << *plan.params[value.param].argumentIndex;
        break;
      }
      case PassedValue::Source::HostArgument: {
        const HostArgument &argument =
            launches.hostArguments[value.hostArgument];
        os << "host argument " << symbolPath(argument.function) << " #"
           << argument.index;
        break;
      }
      case PassedValue::Source::Constant:
        os << "constant " << value.value << " #" << value.constant;
        if (value.createsConstant) {
          os << ", created before ";
          if (value.placedBefore == site.site)
            os << "this site";
          else
            printSite(os, value.placedBefore);
        }
        break;
      }
      if (value.encoding.divisor > 1)
        os << ", divisible by " << value.encoding.divisor;
      if (value.encoding.narrow)
        os << ", narrowed";
      os << "\n";
    }
  }
}
