//===- HostArguments.cpp - Which host functions take which value ----------===//

#include "HostArguments.h"

#include "ArgumentPlanning.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::flyhoist;

ArrayRef<HostArgument>
HostArgumentPlan::argumentsOf(Operation *function) const {
  auto it = arguments.find(function);
  if (it == arguments.end())
    return {};
  return it->second;
}

const HostArgument *HostArgumentPlan::find(Operation *function, StringAttr name,
                                           Type type) const {
  for (const HostArgument &argument : argumentsOf(function))
    if (argument.name == name && argument.type == type)
      return &argument;
  return nullptr;
}

const HostArgument &HostArgumentPlan::add(FunctionOpInterface function,
                                          StringAttr name, Type type) {
  SmallVector<HostArgument, 1> &list = arguments[function];
  unsigned index = function.getNumArguments() + list.size();
  list.push_back({name, type, argumentCarrierType(function, type), index});
  return list.back();
}

namespace {
/// Walks the launch sites in the rewrite's order, deciding as it goes.
class HostArgumentPlanner {
public:
  explicit HostArgumentPlanner(const DiscoveredModule &discovered)
      : discovered(discovered) {}

  /// Records that planned function `function` holds `name` at run time (its
  /// own new argument), so its launch sites pass that.
  void setKnown(Operation *function, StringAttr name, Type type) {
    known.insert(key(function, name, type));
  }

  /// Decides what `site` passes for `name` at `type`: the caller's value,
  /// a new argument of a host caller, or a constant (nothing to decide).
  void visit(Operation *site, StringAttr name, Type type);

  HostArgumentPlan plan;

private:
  using Key = std::tuple<Operation *, StringAttr, const void *>;
  static Key key(Operation *function, StringAttr name, Type type) {
    return {function, name, type.getAsOpaquePointer()};
  }
  bool canTakeHostArgument(FunctionOpInterface function) const;

  const DiscoveredModule &discovered;
  /// The (function, name, type)s that a function holds at run time.
  llvm::DenseSet<Key> known;
};
} // namespace

/// Host functions can take a new argument when every use of their symbol
/// is a call the pass can extend (and they are not variadic).
bool HostArgumentPlanner::canTakeHostArgument(
    FunctionOpInterface function) const {
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

void HostArgumentPlanner::visit(Operation *site, StringAttr name, Type type) {
  // A site inside a region isolated from above cannot use the caller's
  // arguments (planning made sure no hoisting depends on it).
  auto caller = site->getParentOfType<FunctionOpInterface>();
  if (!caller || isolatedScope(site) != caller.getOperation() ||
      known.contains(key(caller, name, type)) ||
      discovered.kernelIndex.count(caller) || !canTakeHostArgument(caller))
    return;
  plan.add(caller, name, type);
  known.insert(key(caller, name, type));
  // Every caller passes the value in turn.
  if (auto it = discovered.symbolUses.find(caller);
      it != discovered.symbolUses.end())
    for (const SymbolUse &use : it->second)
      visit(use.user, name, type);
}

HostArgumentPlan
mlir::flyhoist::planHostArguments(const DiscoveredModule &discovered,
                                  ArrayRef<KernelPlan> plans) {
  HostArgumentPlanner planner(discovered);
  // Every planned function's own new arguments first: the rewrite changes
  // every signature before any launch site.
  for (const KernelPlan &plan : plans)
    for (const ParamPlan &param : plan.params)
      if (param.decision == ParamPlan::Decision::Hoist && param.argumentIndex)
        planner.setKnown(plan.kernel->function, param.name, param.type);
  for (const KernelPlan &plan : plans) {
    if (plan.params.empty())
      continue;
    for (Operation *site : plan.kernel->launchSites)
      for (const ParamPlan &param : plan.params)
        if (param.argumentIndex)
          planner.visit(site, param.name, param.type);
  }
  return std::move(planner.plan);
}
