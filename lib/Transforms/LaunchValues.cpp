//===- LaunchValues.cpp - What launch sites pass --------------------------===//

#include "LaunchValues.h"

#include "CreatedConstants.h"
#include "SignatureEdits.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::flyhoist;
using spec::ParamOp;

LaunchValueProvider::LaunchValueProvider(const DiscoveredModule &discovered,
                                         const HostArgumentPlan &hostArguments)
    : discovered(discovered), hostArguments(hostArguments) {
  for (const DiscoveredKernel &kernel : discovered.kernels)
    for (Operation *site : kernel.launchSites) {
      plannedSites.insert(site);
      auto [first, inserted] =
          firstSiteInBlock.try_emplace(site->getBlock(), site);
      if (!inserted && site->isBeforeInBlock(first->second))
        first->second = site;
    }
}

/// `known` in `siteType`: its carrier or its value when one has that type
/// (the usual case), else cast at `site` (an index value passed to an
/// llvm.func, or the other way round).
static Value convert(Operation *site, KnownValue known, Type siteType) {
  if (known.carrier.getType() == siteType)
    return known.carrier;
  if (known.value.getType() == siteType)
    return known.value;
  OpBuilder builder(site);
  return arith::IndexCastOp::create(builder, site->getLoc(), siteType,
                                    known.value);
}

const LaunchValueProvider::SiteFacts &
LaunchValueProvider::factsOf(Operation *site) {
  if (site == last.site)
    return last;
  last = SiteFacts();
  last.site = site;
  auto function = site->getParentOfType<FunctionOpInterface>();
  // A site inside a region isolated from above cannot use the caller's
  // arguments (planning made sure no hoisting depends on it).
  if (function && isolatedScope(site) == function.getOperation())
    last.caller = function;
  last.llvmCodeSite = isLLVMCodeSite(site);
  // Only launch sites of planned functions are at or after the first of
  // their block; a host call that hoist-into-host extended may come before
  // it, where a constant placed there would not dominate it.
  if (plannedSites.contains(site))
    last.firstInBlock = firstSiteInBlock.lookup(site->getBlock());
  return last;
}

Value LaunchValueProvider::valueAt(Operation *site, StringAttr name, Type type,
                                   Type siteType, int64_t value) {
  // (A copy: addHostArgument asks for the facts of other sites.)
  SiteFacts facts = factsOf(site);
  if (FunctionOpInterface caller = facts.caller) {
    auto known = arguments.find(key(caller, name, type));
    if (known != arguments.end())
      return convert(site, known->second, siteType);
    if (const HostArgument *argument = hostArguments.find(caller, name, type))
      return convert(site, addHostArgument(caller, *argument, value), siteType);
  }
  return constantFor(facts, siteType, value);
}

/// The constant `facts.site` passes: one per block, type, value and dialect,
/// before the block's first launch site, shared by all its launch sites (a
/// module launching thousands of kernels from one function would otherwise
/// get thousands of copies for cse to fold). Sites that are not launch sites
/// of a planned function (a host call that hoist-into-host extended) get
/// their own.
Value LaunchValueProvider::constantFor(const SiteFacts &facts, Type type,
                                       int64_t value) {
  Operation *site = facts.site;
  if (!facts.firstInBlock) {
    OpBuilder builder(site);
    return createConstant(builder, site->getLoc(), site,
                          IntegerAttr::get(type, value));
  }
  bool llvmConstant = createsLLVMCode(facts.llvmCodeSite, type);
  auto [it, inserted] =
      constants.try_emplace({site->getBlock(), type.getAsOpaquePointer(), value,
                             static_cast<unsigned>(llvmConstant)});
  if (inserted) {
    OpBuilder builder(facts.firstInBlock);
    it->second = createConstant(builder, facts.firstInBlock->getLoc(), site,
                                IntegerAttr::get(type, value));
  }
  return it->second;
}

/// Appends the planned `argument` to host `function`, replaces its own
/// `spec.param`s of that name (those a new argument can reach), and has
/// every caller pass the value in turn.
KnownValue LaunchValueProvider::addHostArgument(FunctionOpInterface function,
                                                const HostArgument &argument,
                                                int64_t value) {
  Value appended =
      appendArguments(function, argument.carrierType, function.getLoc())
          .front();
  assert(cast<BlockArgument>(appended).getArgNumber() == argument.index &&
         "host arguments appended out of plan order");
  KnownValue known{castCarrier(function, appended, argument.type), appended};
  arguments[key(function, argument.name, argument.type)] = known;
  SmallVector<ParamOp> own;
  function->walk([&](ParamOp param) {
    if (param.getNameAttr() == argument.name &&
        param.getType() == argument.type &&
        isolatedScope(param) == function.getOperation())
      own.push_back(param);
  });
  for (ParamOp param : own) {
    param.replaceAllUsesWith(known.value);
    replacedParams.insert(param);
    param.erase();
  }
  if (auto it = discovered.symbolUses.find(function);
      it != discovered.symbolUses.end())
    for (const SymbolUse &use : it->second)
      appendPassedArguments(use.user,
                            valueAt(use.user, argument.name, argument.type,
                                    argument.carrierType, value));
  return known;
}

void mlir::flyhoist::updateLaunchSites(KernelPlan &plan,
                                       LaunchValueProvider &launchValues) {
  for (Operation *site : plan.kernel->launchSites) {
    SmallVector<Value> passed;
    for (ParamPlan &param : plan.params) {
      if (!param.argumentIndex)
        continue;
      Value value = launchValues.valueAt(site, param.name, param.type,
                                         param.carrierType, param.value);
      OpBuilder builder(site);
      passed.push_back(
          encodeAtSite(builder, site->getLoc(), value, param.encoding));
    }
    appendPassedArguments(site, passed);
  }
}
