//===- KernelDiscovery.cpp - What is a kernel, and who launches it --------===//
//
// One walk over the module finds the parameters, the functions that launch
// GPU work, and every symbol use (resolved in its nearest symbol table, as
// MLIR does). The kernel rules of KernelDiscovery.h are then applied per
// function holding a parameter.
//
//===----------------------------------------------------------------------===//

#include "KernelDiscovery.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Index/IR/IndexOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Matchers.h"
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
  // Functions are asked for by interface as well: trait TypeIDs are matched
  // by type name, which g++ and clang spell differently, so a shared library
  // built by one may not see the traits of ops registered by the other.
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (parent->hasTrait<OpTrait::IsIsolatedFromAbove>() ||
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

/// The width of an integer or index value (index as 64 bits).
static unsigned integerWidth(Type type) {
  return type.isIndex() ? IndexType::kInternalStorageBitWidth
                        : type.getIntOrFloatBitWidth();
}

/// A constant op's integer, without evaluating anything.
static std::optional<APInt> constantInteger(Operation *def) {
  if (auto param = dyn_cast<ParamOp>(def))
    return IntegerAttr::get(param.getType(), param.getIntValue()).getValue();
  // The usual constants by class first: a trait check (m_Constant) can fail
  // in shared libraries built by another compiler than libMLIR (see
  // isolatedScope()).
  Attribute attr;
  if (auto constant = dyn_cast<arith::ConstantOp>(def))
    attr = constant.getValue();
  else if (auto constant = dyn_cast<LLVM::ConstantOp>(def))
    attr = constant.getValue();
  else if (auto constant = dyn_cast<index::ConstantOp>(def))
    attr = constant.getValueAttr();
  else
    (void)matchPattern(def->getResult(0), m_Constant(&attr));
  if (auto integer = dyn_cast_or_null<IntegerAttr>(attr)) {
    // (index constants hold 64-bit APInts already; other widths as typed.)
    return integer.getValue();
  }
  return std::nullopt;
}

/// Whether `def` is an integer cast knownIntegerValue evaluates.
static bool isIntegerCast(Operation *def) {
  return isa<arith::IndexCastOp, arith::ExtSIOp, LLVM::SExtOp,
             arith::IndexCastUIOp, arith::ExtUIOp, LLVM::ZExtOp,
             arith::TruncIOp, LLVM::TruncOp>(def) &&
         def->getOperand(0).getType().isIntOrIndex() &&
         def->getResult(0).getType().isIntOrIndex();
}

/// knownIntegerValue(), where `given` (if set) is known to hold `givenValue`.
static std::optional<APInt> evaluate(Value value, Value given,
                                     const APInt *givenValue) {
  if (given && value == given)
    return *givenValue;
  Operation *def = value.getDefiningOp();
  if (!def || def->getNumResults() != 1 || !value.getType().isIntOrIndex())
    return std::nullopt;
  unsigned width = integerWidth(value.getType());
  // Casts: the source's known value, as the cast computes it.
  if (isIntegerCast(def)) {
    std::optional<APInt> known =
        evaluate(def->getOperand(0), given, givenValue);
    if (!known)
      return std::nullopt;
    if (isa<arith::IndexCastUIOp, arith::ExtUIOp, LLVM::ZExtOp>(def))
      return known->zextOrTrunc(width);
    return known->sextOrTrunc(width);
  }
  std::optional<APInt> known = constantInteger(def);
  if (known && known->getBitWidth() != width)
    return known->sextOrTrunc(width);
  return known;
}

std::optional<APInt> mlir::flyhoist::knownIntegerValue(Value value) {
  return evaluate(value, Value(), nullptr);
}

/// The value at the start of the integer casts that compute `value`.
static Value castChainSource(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (!isIntegerCast(def))
      break;
    value = def->getOperand(0);
  }
  return value;
}

Value mlir::flyhoist::equalsSubject(Value equals) {
  while (Operation *def = equals.getDefiningOp()) {
    if (!isa<arith::IndexCastOp, arith::ExtSIOp, LLVM::SExtOp>(def))
      break;
    Value source = def->getOperand(0);
    if (!source.getType().isIntOrIndex() || !equals.getType().isIntOrIndex() ||
        integerWidth(source.getType()) > integerWidth(equals.getType()))
      break; // a narrowing index_cast: the number may change
    equals = source;
  }
  return equals;
}

/// Whether `known` (of some width) is the bit pattern of `value`.
static bool sameBits(const APInt &known, int64_t value) {
  unsigned width = known.getBitWidth();
  return known == APInt(width, static_cast<uint64_t>(value), /*isSigned=*/true,
                        /*implicitTrunc=*/true);
}

/// The `equals` contract, first half: a parameter cannot equal a value known
/// to be another one (the rewrite would silently change what it computes).
/// `equals` is the parameter's `equals` operand.
static LogicalResult checkEqualsOperand(ParamOp param, Value equals) {
  // (Evaluated through every cast: this is the value the uses would take.)
  std::optional<APInt> known = knownIntegerValue(equals);
  if (!known || sameBits(*known, param.getIntValue()))
    return success();
  InFlightDiagnostic diag = param.emitError()
                            << "parameter '" << param.getName()
                            << "' = " << param.getIntValue()
                            << " equals a value known to be "
                            << known->getSExtValue()
                            << "; its uses would take that value";
  diag.attachNote(equals.getDefiningOp()->getLoc()) << "value defined here";
  return failure();
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

/// One walk over the module: parameters (checking that each name has one
/// value and each `equals` is possible), launching functions, and every
/// symbol use. Only symbol users are asked for their attributes, which keeps
/// the walk cheap on large modules.
static FailureOr<ModuleScan> scanModule(ModuleOp module) {
  ModuleScan scan;
  SymbolTableCollection symbolTables;
  spec::ParamValueTable values;
  // Parameters come in runs in one block: the list of the last one's
  // function is kept, which saves asking for the function and looking it up
  // per parameter.
  Block *lastBlock = nullptr;
  SmallVector<ParamOp> *lastList = nullptr;
  // Whether ops of a kind may refer to symbols, asked of the first op of
  // each kind (interfaces belong to the kind): two interface lookups per op
  // otherwise.
  DenseMap<OperationName, bool> symbolUsers;
  auto refersToSymbols = [&](Operation *op) {
    auto [it, inserted] = symbolUsers.try_emplace(op->getName(), false);
    if (inserted)
      it->second = isa<SymbolUserOpInterface, CallOpInterface>(op);
    return it->second;
  };
  auto visit = [&](Operation *op) {
    if (auto param = dyn_cast<ParamOp>(op)) {
      if (failed(values.check(param)))
        return WalkResult::interrupt();
      if (Value equals = param.getEquals()) {
        if (failed(checkEqualsOperand(param, equals)))
          return WalkResult::interrupt();
        scan.anyEquals = true;
      }
      if (param->getBlock() != lastBlock) {
        lastBlock = param->getBlock();
        lastList = &scan.paramsByFunction
                        [param->getParentOfType<FunctionOpInterface>()];
      }
      lastList->push_back(param);
      return WalkResult::advance();
    }
    // (A function has a region: the interface lookup is skipped for the
    // many ops that have none.)
    if (op->getNumRegions() != 0 && isa<FunctionOpInterface>(op))
      scan.functionOrder.try_emplace(op, scan.functionOrder.size());
    if (isa<gpu::LaunchFuncOp, gpu::LaunchOp>(op))
      if (auto function = op->getParentOfType<FunctionOpInterface>())
        scan.launchingFunctions.insert(function);
    SymbolRefAttr launched;
    if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op))
      launched = launch.getKernelAttr();
    else if (auto call = dyn_cast<func::CallOp>(op))
      launched = call.getCalleeAttr();
    else if (auto call = dyn_cast<LLVM::CallOp>(op))
      launched = call.getCalleeAttr();
    else if (!refersToSymbols(op))
      return WalkResult::advance();
    if (launched)
      if (Operation *target =
              symbolTables.lookupNearestSymbolFrom(op, launched))
        scan.symbolUses[target].push_back({op, true});
    // gpu.launch_func's inherent attributes are the kernel it launches and
    // its operand segment sizes: only its discardable ones can refer to
    // another symbol. (getAttrs() would build a dictionary holding all of
    // them, the segment sizes as a new attribute, per launch.)
    ArrayRef<NamedAttribute> attrs =
        isa<gpu::LaunchFuncOp>(op) ? op->getRawDictionaryAttrs().getValue()
                                   : op->getAttrs();
    for (NamedAttribute attr : attrs)
      collectReferences(attr.getValue(), op, launched, symbolTables,
                        scan.symbolUses);
    return WalkResult::advance();
  };
  if (walkPostOrder(module, visit))
    return failure();
  return scan;
}

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

/// The `equals` contract, second half: a launch site that passes a value
/// known at compile time for an argument a parameter of the callee equals
/// must pass the parameter's value.
static LogicalResult checkEqualsAtLaunchSites(FunctionOpInterface function,
                                              ArrayRef<ParamOp> params,
                                              const SymbolUseMap &symbolUses) {
  auto uses = symbolUses.find(function);
  if (uses == symbolUses.end() || function.isExternal())
    return success();
  Block *entry = &function.getFunctionBody().front();
  for (ParamOp param : params) {
    Value equals = param.getEquals();
    if (!equals)
      continue;
    // The argument the `equals` value is computed from by integer casts
    // (the one the record names when the casts keep the number).
    auto argument = dyn_cast<BlockArgument>(castChainSource(equals));
    if (!argument || argument.getOwner() != entry ||
        argument.getArgNumber() >= function.getNumArguments())
      continue;
    unsigned index = argument.getArgNumber();
    for (const SymbolUse &use : uses->second) {
      if (!use.isLaunchSite)
        continue;
      OperandRange passed = passedArguments(use.user);
      if (index >= passed.size())
        continue; // reported as an arity mismatch where it matters
      std::optional<APInt> known = knownIntegerValue(passed[index]);
      if (!known)
        continue;
      // What the kernel's `equals` value is when the argument is `known`.
      std::optional<APInt> taken = evaluate(equals, argument, &*known);
      if (!taken || sameBits(*taken, param.getIntValue()))
        continue;
      InFlightDiagnostic diag =
          use.user->emitError()
          << "launch site passes " << known->getSExtValue() << " as argument "
          << index << " of " << symbolPath(function) << ", which parameter '"
          << param.getName() << "' = " << param.getIntValue() << " equals";
      diag.attachNote(param.getLoc()) << "parameter defined here";
      return failure();
    }
  }
  return success();
}

FailureOr<DiscoveredModule> mlir::flyhoist::discoverKernels(ModuleOp module) {
  FailureOr<ModuleScan> scan = scanModule(module);
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

  // Device code passes values on: a function inside a gpu.module that calls
  // one the pass plans for may have to take the callee's new argument too.
  for (size_t next = 0; next < discovered.kernels.size(); ++next) {
    auto uses = scan->symbolUses.find(discovered.kernels[next].function);
    if (uses == scan->symbolUses.end())
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
  // IR order; each function is listed once, and the symbol path breaks a tie
  // all the same, so the order is total (std::stable_sort would need
  // get_temporary_buffer, deprecated in C++17 and an error under clang 22).
  llvm::sort(discovered.kernels,
             [&](const DiscoveredKernel &a, const DiscoveredKernel &b) {
               unsigned orderA = scan->functionOrder.lookup(a.function);
               unsigned orderB = scan->functionOrder.lookup(b.function);
               return std::tie(orderA, a.path) < std::tie(orderB, b.path);
             });
  discovered.kernelIndex.reserve(discovered.kernels.size());
  for (auto [index, kernel] : llvm::enumerate(discovered.kernels)) {
    if (failed(findLaunchSites(kernel, scan->symbolUses)))
      return failure();
    discovered.kernelIndex.try_emplace(kernel.function, index);
  }
  discovered.symbolUses = std::move(scan->symbolUses);
  return discovered;
}
