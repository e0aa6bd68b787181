//===- KernelDiscovery.cpp - What is a kernel, and who launches it --------===//
//
// One walk over the module finds the parameters, the functions that launch
// GPU work, and every symbol use (resolved in its nearest symbol table, as
// MLIR does). The kernel rules of KernelDiscovery.h are then applied per
// function holding a parameter.
//
//===----------------------------------------------------------------------===//

#include "KernelDiscovery.h"

#include "EqualsContract.h"

#include "flyhoist/Analysis/UpstreamTraits.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mlir::flyhoist;
using spec::ParamOp;

std::string mlir::flyhoist::symbolPath(Operation *symbol) {
  std::string path;
  for (Operation *op = symbol; op; op = op->getParentOp()) {
    auto name = op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
    if (!name)
      continue;
    path = path.empty() ? "@" + name.str() : "@" + name.str() + "::" + path;
  }
  return path;
}

MutableOperandRange mlir::flyhoist::passedArguments(Operation *launchSite) {
  if (auto launch = dyn_cast<gpu::LaunchFuncOp>(launchSite))
    return launch.getKernelOperandsMutable();
  if (auto call = dyn_cast<func::CallOp>(launchSite))
    return call.getOperandsMutable();
  // The ODS group, so that operandSegmentSizes follows.
  return cast<LLVM::CallOp>(launchSite).getCalleeOperandsMutable();
}

Operation *mlir::flyhoist::isolatedScope(Operation *op) {
  // hasUpstreamTrait, not hasTrait: trait TypeIDs are matched by type name,
  // which g++ and clang spell differently, so the plugin and the C API
  // library would not see the trait on ops libMLIR registered (an op in a
  // gpu.all_reduce body was hoisted there, out of its isolated region).
  // Functions are asked for by interface as well.
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (hasUpstreamTrait<OpTrait::IsIsolatedFromAbove>(parent) ||
        isa<FunctionOpInterface>(parent))
      return parent;
  return nullptr;
}

namespace {
/// What one walk over the module finds.
struct ModuleScan {
  /// `spec.param` ops by enclosing function (null: none), in IR order.
  llvm::MapVector<Operation *, SmallVector<ParamOp>> paramsByFunction;
  /// Functions holding a gpu.launch_func or gpu.launch.
  llvm::DenseSet<Operation *> launchingFunctions;
  /// Every symbol use, resolved.
  SymbolUseMap symbolUses;
  /// Position of each function in the walk, to keep results in IR order.
  DenseMap<Operation *, unsigned> functionOrder;
  /// Whether any `spec.param` has an `equals` value (most modules have
  /// none, and then no launch site needs checking against one).
  bool anyEquals = false;
};
} // namespace

/// Records the references `attr` holds, looking into arrays and dictionaries.
static void collectReferences(Attribute attr, Operation *user,
                              SymbolRefAttr launched,
                              SymbolTableCollection &symbolTables,
                              SymbolUseMap &uses) {
  if (auto ref = dyn_cast<SymbolRefAttr>(attr)) {
    if (ref == launched)
      return;
    if (Operation *target = symbolTables.lookupNearestSymbolFrom(user, ref))
      uses[target].push_back({user, false});
  } else if (auto array = dyn_cast<ArrayAttr>(attr)) {
    for (Attribute element : array)
      collectReferences(element, user, launched, symbolTables, uses);
  } else if (auto dict = dyn_cast<DictionaryAttr>(attr)) {
    for (NamedAttribute element : dict)
      collectReferences(element.getValue(), user, launched, symbolTables, uses);
  }
}

/// Calls `visit` on `op` and every op nested in it, in post-order (as
/// Operation::walk does), until it returns WalkResult::interrupt(); whether
/// it did. The scan visits every op of the module: here the callback is
/// inlined, where Operation::walk makes an indirect call per op and guards
/// each block's iteration against the callback erasing ops, which this one
/// does not.
template <typename Visit>
static bool walkPostOrder(Operation *op, Visit &visit) {
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (Operation &nested : block)
        if (walkPostOrder(&nested, visit))
          return true;
  return visit(op).wasInterrupted();
}

namespace {
/// One walk over the module: parameters (checking that each name has one
/// value and each `equals` is possible), launching functions, and every
/// symbol use. Only symbol users are asked for their attributes, which keeps
/// the walk cheap on large modules.
class ModuleScanner {
public:
  FailureOr<ModuleScan> scan(ModuleOp module) {
    auto visit = [&](Operation *op) {
      if (auto param = dyn_cast<ParamOp>(op))
        return visitParam(param);
      visitOther(op);
      return WalkResult::advance();
    };
    if (walkPostOrder(module, visit))
      return failure();
    return std::move(found);
  }

private:
  WalkResult visitParam(ParamOp param) {
    if (failed(values.check(param)) || failed(checkEqualsOperand(param)))
      return WalkResult::interrupt();
    found.anyEquals |= static_cast<bool>(param.getEquals());
    if (param->getBlock() != lastBlock) {
      lastBlock = param->getBlock();
      lastList =
          &found
               .paramsByFunction[param->getParentOfType<FunctionOpInterface>()];
    }
    lastList->push_back(param);
    return WalkResult::advance();
  }

  void visitOther(Operation *op) {
    // (A function has a region: the interface lookup is skipped for the
    // many ops that have none.)
    if (op->getNumRegions() != 0 && isa<FunctionOpInterface>(op))
      found.functionOrder.try_emplace(op, found.functionOrder.size());
    if (isa<gpu::LaunchFuncOp, gpu::LaunchOp>(op))
      if (auto function = op->getParentOfType<FunctionOpInterface>())
        found.launchingFunctions.insert(function);
    SymbolRefAttr launched;
    if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op))
      launched = launch.getKernelAttr();
    else if (auto call = dyn_cast<func::CallOp>(op))
      launched = call.getCalleeAttr();
    else if (auto call = dyn_cast<LLVM::CallOp>(op))
      launched = call.getCalleeAttr();
    else if (!refersToSymbols(op))
      return;
    if (launched)
      if (Operation *target =
              symbolTables.lookupNearestSymbolFrom(op, launched))
        found.symbolUses[target].push_back({op, true});
    // gpu.launch_func's inherent attributes are the kernel it launches and
    // its operand segment sizes: only its discardable ones can refer to
    // another symbol. (getAttrs() would build a dictionary holding all of
    // them, the segment sizes as a new attribute, per launch.)
    ArrayRef<NamedAttribute> attrs =
        isa<gpu::LaunchFuncOp>(op) ? op->getRawDictionaryAttrs().getValue()
                                   : op->getAttrs();
    for (NamedAttribute attr : attrs)
      collectReferences(attr.getValue(), op, launched, symbolTables,
                        found.symbolUses);
  }

  /// Whether ops of `op`'s kind may refer to symbols, asked of the first op
  /// of each kind (interfaces belong to the kind): two interface lookups
  /// per op otherwise.
  bool refersToSymbols(Operation *op) {
    auto [it, inserted] = symbolUsers.try_emplace(op->getName(), false);
    if (inserted)
      it->second = isa<SymbolUserOpInterface, CallOpInterface>(op);
    return it->second;
  }

  ModuleScan found;
  SymbolTableCollection symbolTables;
  spec::ParamValueTable values;
  /// Parameters come in runs in one block: the list of the last one's
  /// function is kept, which saves asking for the function and looking it
  /// up per parameter.
  Block *lastBlock = nullptr;
  SmallVector<ParamOp> *lastList = nullptr;
  DenseMap<OperationName, bool> symbolUsers;
};
} // namespace

static bool isInsideGpuModule(Operation *op) {
  return op->getParentOfType<gpu::GPUModuleOp>() != nullptr;
}

/// Whether `function`, inside a gpu.module, is a kernel entry point.
static bool isDeviceKernel(FunctionOpInterface function) {
  if (auto gpuFunc = dyn_cast<gpu::GPUFuncOp>(function.getOperation()))
    return gpuFunc.isKernel();
  return function->hasAttr(gpu::GPUDialect::getKernelFuncAttrName()) ||
         function->hasAttr("rocdl.kernel") || function->hasAttr("nvvm.kernel");
}

/// What `function` (holding a parameter) is under the rules of
/// discoverKernels(); std::nullopt for host code.
static std::optional<FunctionKind>
classifyFunction(FunctionOpInterface function, const ModuleScan &scan) {
  if (isInsideGpuModule(function))
    return isDeviceKernel(function) ? FunctionKind::Kernel
                                    : FunctionKind::DeviceFunction;
  if (function->hasAttr(spec::kKernelAttrName))
    return FunctionKind::Kernel;
  // Host code: functions nothing calls, and functions that launch GPU work.
  auto it = scan.symbolUses.find(function);
  bool called = it != scan.symbolUses.end() &&
                llvm::any_of(it->second, [](const SymbolUse &use) {
                  return use.isLaunchSite;
                });
  if (called && !scan.launchingFunctions.contains(function))
    return FunctionKind::Kernel;
  return std::nullopt;
}

/// Per-argument attributes of a launch site (`arg_attrs` of func.call and
/// llvm.call), which the rewrite extends with the operands it appends.
static ArrayAttr argumentAttributes(Operation *launchSite) {
  if (auto withAttrs = dyn_cast<ArgAndResultAttrsOpInterface>(launchSite))
    return withAttrs.getArgAttrsAttr();
  return nullptr;
}

/// Fills in the launch sites of `kernel` and the first reference the pass
/// cannot update; fails when a launch site does not match the function.
static LogicalResult findLaunchSites(DiscoveredKernel &kernel,
                                     const SymbolUseMap &symbolUses) {
  FunctionOpInterface function = kernel.function;
  if (auto it = symbolUses.find(function); it != symbolUses.end()) {
    for (const SymbolUse &use : it->second) {
      if (!use.isLaunchSite) {
        if (!kernel.unknownReference)
          kernel.unknownReference = use.user;
        continue;
      }
      unsigned passed = passedArguments(use.user).size();
      // A call of a variadic function passes its variadic arguments after
      // the fixed ones (the kernel then keeps its parameters, below).
      auto llvmFunc = dyn_cast<LLVM::LLVMFuncOp>(function.getOperation());
      bool variadic = llvmFunc && llvmFunc.isVarArg();
      if (variadic ? passed < function.getNumArguments()
                   : passed != function.getNumArguments()) {
        InFlightDiagnostic diag =
            use.user->emitError()
            << "launch site passes " << passed << " arguments but "
            << kernel.kindName() << " " << kernel.path << " takes "
            << (variadic ? "at least " : "") << function.getNumArguments();
        diag.attachNote(function.getLoc())
            << kernel.kindName() << " defined here";
        return failure();
      }
      if (ArrayAttr argAttrs = argumentAttributes(use.user);
          argAttrs && argAttrs.size() != passed) {
        use.user->emitError() << "launch site has " << argAttrs.size()
                              << " argument attribute dictionaries for "
                              << passed << " arguments";
        return failure();
      }
      kernel.launchSites.push_back(use.user);
    }
  }
  if (auto llvmFunc = dyn_cast<LLVM::LLVMFuncOp>(function.getOperation());
      llvmFunc && llvmFunc.isVarArg() && !kernel.unknownReference)
    kernel.unknownReference = function;
  return success();
}

/// Adds to `discovered` the functions inside a gpu.module that call one it
/// holds (and so on, up the calls): device code passes values on, so such a
/// function may have to take the callee's new argument too. `planned` holds
/// the functions `discovered` holds.
static void addPassingCallers(DiscoveredModule &discovered,
                              llvm::DenseSet<Operation *> &planned,
                              const SymbolUseMap &symbolUses) {
  for (size_t next = 0; next < discovered.kernels.size(); ++next) {
    auto uses = symbolUses.find(discovered.kernels[next].function);
    if (uses == symbolUses.end())
      continue;
    for (const SymbolUse &use : uses->second) {
      auto caller = use.user->getParentOfType<FunctionOpInterface>();
      if (!use.isLaunchSite || !caller || !isInsideGpuModule(caller) ||
          !planned.insert(caller).second)
        continue;
      DiscoveredKernel passer;
      passer.function = caller;
      passer.kind = isDeviceKernel(caller) ? FunctionKind::Kernel
                                           : FunctionKind::DeviceFunction;
      passer.path = symbolPath(caller);
      discovered.kernels.push_back(std::move(passer));
    }
  }
}

/// Puts the functions of `discovered` in IR order, finds their launch sites
/// and indexes them.
static LogicalResult indexKernels(DiscoveredModule &discovered,
                                  const ModuleScan &scan) {
  // Each function is listed once, and the symbol path breaks a tie all the
  // same, so the order is total (std::stable_sort would need
  // get_temporary_buffer, deprecated in C++17 and an error under clang 22).
  llvm::sort(discovered.kernels,
             [&](const DiscoveredKernel &a, const DiscoveredKernel &b) {
               unsigned orderA = scan.functionOrder.lookup(a.function);
               unsigned orderB = scan.functionOrder.lookup(b.function);
               return std::tie(orderA, a.path) < std::tie(orderB, b.path);
             });
  discovered.kernelIndex.reserve(discovered.kernels.size());
  for (auto [index, kernel] : llvm::enumerate(discovered.kernels)) {
    if (failed(findLaunchSites(kernel, scan.symbolUses)))
      return failure();
    discovered.kernelIndex.try_emplace(kernel.function, index);
  }
  return success();
}

FailureOr<DiscoveredModule> mlir::flyhoist::discoverKernels(ModuleOp module) {
  FailureOr<ModuleScan> scan = ModuleScanner().scan(module);
  if (failed(scan))
    return failure();

  DiscoveredModule discovered;
  llvm::DenseSet<Operation *> planned;
  discovered.kernels.reserve(scan->paramsByFunction.size());
  for (auto &[functionOp, params] : scan->paramsByFunction) {
    auto function = dyn_cast_or_null<FunctionOpInterface>(functionOp);
    if (function && scan->anyEquals &&
        failed(checkEqualsAtLaunchSites(function, params, scan->symbolUses)))
      return failure();
    std::optional<FunctionKind> kind =
        function ? classifyFunction(function, *scan) : std::nullopt;
    if (!kind) {
      discovered.otherParams.append(params.begin(), params.end());
      continue;
    }
    DiscoveredKernel kernel;
    kernel.function = function;
    kernel.kind = *kind;
    kernel.path = symbolPath(function);
    kernel.params = std::move(params);
    planned.insert(function);
    discovered.kernels.push_back(std::move(kernel));
  }
  addPassingCallers(discovered, planned, scan->symbolUses);
  if (failed(indexKernels(discovered, *scan)))
    return failure();
  discovered.symbolUses = std::move(scan->symbolUses);
  return discovered;
}
