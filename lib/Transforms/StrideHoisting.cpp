//===- StrideHoisting.cpp - Hoist address-only parameters -----------------===//
//
// Implementation of the API in HoistStrideSpecialization.h. It works in two
// phases so that a failure leaves the module as it was: the first phase only
// reads (finds kernels, launch sites, decisions, and every error), the second
// rewrites.
//
//===----------------------------------------------------------------------===//

#include "flyhoist/Transforms/HoistStrideSpecialization.h"

#include "flyhoist/Dialect/Spec/SpecDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

#include <map>

using namespace mlir;
using namespace mlir::flyhoist;
using spec::ParamOp;

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

/// Replaces `param` by an `arith.constant` of its value.
static void materialize(ParamOp param) {
  OpBuilder builder(param);
  Value constant = arith::ConstantOp::create(builder, param.getLoc(),
                                             param.getValueAsTypedAttr());
  param.replaceAllUsesWith(constant);
  param.erase();
}

unsigned mlir::flyhoist::materializeSpecialization(Operation *root) {
  // Called without a pass manager, nothing may have loaded arith yet.
  root->getContext()->getOrLoadDialect<arith::ArithDialect>();
  SmallVector<ParamOp> params;
  root->walk([&](ParamOp param) { params.push_back(param); });
  for (ParamOp param : params)
    materialize(param);
  return params.size();
}

/// Checks `param` against the first parameter of its name met so far.
static LogicalResult checkConsistentValue(ParamOp param,
                                          llvm::StringMap<ParamOp> &firstByName) {
  auto [it, inserted] = firstByName.try_emplace(param.getName(), param);
  if (inserted || it->second.getIntValue() == param.getIntValue())
    return success();
  InFlightDiagnostic diag = param.emitError()
                            << "parameter '" << param.getName()
                            << "' has value " << param.getIntValue()
                            << " here but " << it->second.getIntValue()
                            << " elsewhere; one name has one value";
  diag.attachNote(it->second.getLoc()) << "first defined here";
  return failure();
}

LogicalResult mlir::flyhoist::verifyConsistentParamValues(Operation *root) {
  llvm::StringMap<ParamOp> firstByName;
  WalkResult result = root->walk([&](ParamOp param) {
    return failed(checkConsistentValue(param, firstByName))
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// Kernels and launch sites
//===----------------------------------------------------------------------===//

namespace {

/// The printable path of a symbol, e.g. "@kernels::@paged": its name and
/// those of the named symbol tables around it.
std::string symbolPath(Operation *symbol) {
  std::string path;
  for (Operation *op = symbol; op; op = op->getParentOp()) {
    auto name = op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
    if (!name)
      continue;
    path = path.empty() ? "@" + name.str() : "@" + name.str() + "::" + path;
  }
  return path;
}

/// How a hoisted value is passed so that the kernel keeps the facts its
/// constant told the backend: the launcher passes `value / divisor` (exact),
/// narrowed to i32 when `narrow`; the kernel rebuilds the value with a
/// zero extension and a no-wrap shift the backend can see through.
struct ArgumentEncoding {
  /// Power of two dividing the value (1: none assumed).
  uint64_t divisor = 1;
  /// Passed as i32 and zero-extended: the value is in [0, 2^31).
  bool narrow = false;

  /// The kernel argument's type for a parameter of `type`.
  Type argumentType(Type type) const {
    return narrow ? IntegerType::get(type.getContext(), 32) : type;
  }
};

/// The encoding the options allow for `value` of `type`.
ArgumentEncoding chooseEncoding(int64_t value, Type type,
                                const HoistOptions &options) {
  ArgumentEncoding encoding;
  // Both facts are about non-negative values: the launch site divides with a
  // logical shift and the kernel rebuilds with a no-unsigned-wrap shift.
  if (value < 0)
    return encoding;
  if (options.divisibility > 1) {
    // The largest power of two <= the bound that divides the value (0 is
    // divisible by all of them).
    uint64_t bound = llvm::bit_floor(options.divisibility);
    uint64_t magnitude = static_cast<uint64_t>(value);
    uint64_t lowBit = magnitude == 0 ? bound : (magnitude & (~magnitude + 1));
    encoding.divisor = std::min(bound, lowBit);
  }
  // The recorded precondition is on the value itself (0 <= value < 2^31),
  // which the marked value must meet too.
  bool wide = type.isIndex() || type.getIntOrFloatBitWidth() > 32;
  encoding.narrow =
      options.narrowRange && wide && value < (int64_t(1) << 31);
  return encoding;
}

/// The launcher's preconditions for `encoding`, as text for the manifest.
std::vector<std::string> describePreconditions(const ArgumentEncoding &encoding) {
  std::vector<std::string> facts;
  if (encoding.divisor > 1)
    facts.push_back("value % " + std::to_string(encoding.divisor) + " == 0");
  if (encoding.narrow)
    facts.push_back("0 <= value < 2147483648");
  return facts;
}

/// Rebuilds the parameter's value from its encoded kernel argument, at the
/// start of the kernel's entry block.
Value decodeArgument(FunctionOpInterface function, Value argument, Type type,
                     const ArgumentEncoding &encoding) {
  OpBuilder builder = OpBuilder::atBlockBegin(&function.getFunctionBody().front());
  Location loc = argument.getLoc();
  bool isLLVM = isa<LLVM::LLVMFuncOp>(function.getOperation());
  Value value = argument;
  if (encoding.narrow) {
    if (isLLVM)
      value = LLVM::ZExtOp::create(builder, loc, type, value);
    else if (type.isIndex())
      value = arith::IndexCastUIOp::create(builder, loc, type, value);
    else
      value = arith::ExtUIOp::create(builder, loc, type, value);
  }
  if (encoding.divisor > 1) {
    int64_t shift = llvm::Log2_64(encoding.divisor);
    if (isLLVM) {
      Value amount = LLVM::ConstantOp::create(builder, loc, type,
                                              builder.getIntegerAttr(type, shift));
      value = LLVM::ShlOp::create(builder, loc, value, amount,
                                  LLVM::IntegerOverflowFlags::nsw |
                                      LLVM::IntegerOverflowFlags::nuw);
    } else {
      Value amount = arith::ConstantOp::create(
          builder, loc, builder.getIntegerAttr(type, shift));
      value = arith::ShLIOp::create(builder, loc, value, amount,
                                    arith::IntegerOverflowFlags::nsw |
                                        arith::IntegerOverflowFlags::nuw);
    }
  }
  return value;
}

/// Encodes `value` (of the parameter's type) for a launch site.
Value encodeAtSite(OpBuilder &builder, Location loc, Value value,
                   const ArgumentEncoding &encoding) {
  Type type = value.getType();
  if (encoding.divisor > 1) {
    Value amount = arith::ConstantOp::create(
        builder, loc,
        builder.getIntegerAttr(type, llvm::Log2_64(encoding.divisor)));
    value = arith::ShRUIOp::create(builder, loc, value, amount);
  }
  if (encoding.narrow) {
    Type i32 = builder.getI32Type();
    value = type.isIndex()
                ? arith::IndexCastUIOp::create(builder, loc, i32, value).getResult()
                : arith::TruncIOp::create(builder, loc, i32, value).getResult();
  }
  return value;
}

/// One use of a kernel's symbol.
struct SymbolUse {
  Operation *user;
  /// Set when the user is a launch or call the pass knows how to extend.
  bool isLaunchSite;
};

/// One parameter of one kernel and what will happen to it.
struct ParamPlan {
  std::string name;
  /// The value and type, kept here because `ops` are erased by the rewrite.
  int64_t value = 0;
  Type type;
  SmallVector<ParamOp> ops;
  enum class Decision { Hoist, Keep, Unused } decision = Decision::Keep;
  /// For Keep: why and where.
  std::string reason;
  Operation *blockingUser = nullptr;
  /// For Hoist: whether a new argument is needed (some op has no `equals`).
  bool needsArgument = false;
  std::optional<unsigned> argumentIndex;
  /// How the value travels in the argument (see ArgumentEncoding).
  ArgumentEncoding encoding;
};

/// One kernel and its plan.
struct KernelPlan {
  FunctionOpInterface function;
  /// Printable symbol path, e.g. "@kernels::@paged".
  std::string path;
  std::vector<ParamPlan> params; // sorted by name
  SmallVector<Operation *> launchSites;
  /// Set when an op the pass cannot update refers to the kernel: then no
  /// argument may be added.
  Operation *unknownReference = nullptr;
};

bool isInsideGpuModule(Operation *op) {
  return op->getParentOfType<gpu::GPUModuleOp>() != nullptr;
}

/// Whether `function`, inside a gpu.module, is a kernel entry point.
bool isDeviceKernel(FunctionOpInterface function) {
  if (auto gpuFunc = dyn_cast<gpu::GPUFuncOp>(function.getOperation()))
    return gpuFunc.isKernel();
  return function->hasAttr(gpu::GPUDialect::getKernelFuncAttrName()) ||
         function->hasAttr("rocdl.kernel") || function->hasAttr("nvvm.kernel");
}


/// Uses of each symbol, keyed by the symbol operation they resolve to.
using SymbolUseMap = DenseMap<Operation *, SmallVector<SymbolUse>>;

/// What one walk over the module finds.
struct ModuleScan {
  /// `spec.param` ops by enclosing function (null: none), in IR order.
  llvm::MapVector<Operation *, SmallVector<ParamOp>> paramsByFunction;
  /// Functions holding a gpu.launch_func or gpu.launch.
  llvm::DenseSet<Operation *> launchingFunctions;
  /// Every symbol use, resolved.
  SymbolUseMap symbolUses;
};

/// Records the references `attr` holds, looking into arrays and dictionaries.
void collectReferences(Attribute attr, Operation *user, SymbolRefAttr launched,
                       SymbolTableCollection &symbolTables, SymbolUseMap &uses) {
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

/// One walk over the module: parameters (checking that each name has one
/// value), launching functions, and every symbol use, each reference
/// resolved in its nearest symbol table as MLIR does (so a call inside a
/// gpu.module or a nested module finds that module's function, not a
/// namesake elsewhere). Only symbol users are asked for their attributes,
/// which keeps the walk cheap on large modules.
FailureOr<ModuleScan> scanModule(ModuleOp module) {
  ModuleScan scan;
  SymbolTableCollection symbolTables;
  llvm::StringMap<ParamOp> firstByName;
  WalkResult result = module.walk([&](Operation *op) {
    if (auto param = dyn_cast<ParamOp>(op)) {
      if (failed(checkConsistentValue(param, firstByName)))
        return WalkResult::interrupt();
      scan.paramsByFunction[param->getParentOfType<FunctionOpInterface>()]
          .push_back(param);
      return WalkResult::advance();
    }
    if (isa<gpu::LaunchFuncOp, gpu::LaunchOp>(op))
      if (auto function = op->getParentOfType<FunctionOpInterface>())
        scan.launchingFunctions.insert(function);
    SymbolRefAttr launched;
    if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op))
      launched = launch.getKernel();
    else if (auto call = dyn_cast<func::CallOp>(op))
      launched = call.getCalleeAttr();
    else if (auto call = dyn_cast<LLVM::CallOp>(op))
      launched = call.getCalleeAttr();
    else if (!isa<SymbolUserOpInterface, CallOpInterface>(op))
      return WalkResult::advance();
    if (launched)
      if (Operation *target = symbolTables.lookupNearestSymbolFrom(op, launched))
        scan.symbolUses[target].push_back({op, true});
    for (NamedAttribute attr : op->getAttrs())
      collectReferences(attr.getValue(), op, launched, symbolTables,
                        scan.symbolUses);
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  return scan;
}

/// The operands through which a launch site passes the kernel's arguments.
MutableOperandRange passedArguments(Operation *site) {
  if (auto launch = dyn_cast<gpu::LaunchFuncOp>(site))
    return launch.getKernelOperandsMutable();
  if (auto call = dyn_cast<func::CallOp>(site))
    return call.getOperandsMutable();
  // The ODS group, so that operandSegmentSizes follows.
  return cast<LLVM::CallOp>(site).getCalleeOperandsMutable();
}

/// Position of every operation in a pre-order walk of `root`, so that the
/// blocking use reported is the first one in the IR, whatever the use-list
/// order.
DenseMap<Operation *, unsigned> numberOperations(Operation *root) {
  DenseMap<Operation *, unsigned> order;
  root->walk<WalkOrder::PreOrder>(
      [&](Operation *op) { order.try_emplace(op, order.size()); });
  return order;
}

} // namespace

/// Decides what happens to each parameter of `kernel`.
static void planKernel(KernelPlan &kernel, ArrayRef<ParamOp> params,
                       const StrideUseRegistry &registry) {
  std::map<std::string, SmallVector<ParamOp>> byName;
  for (ParamOp param : params)
    byName[param.getName().str()].push_back(param);
  DenseMap<Operation *, unsigned> order;
  for (auto &[name, ops] : byName) {
    ParamPlan plan;
    plan.name = name;
    plan.value = ops.front().getIntValue();
    plan.type = ops.front().getType();
    plan.ops = ops;
    bool anyUse = llvm::any_of(ops, [](ParamOp op) { return !op.use_empty(); });
    Type firstType = ops.front().getType();
    bool sameType = llvm::all_of(
        ops, [firstType](ParamOp op) { return op.getType() == firstType; });
    plan.needsArgument =
        llvm::any_of(ops, [](ParamOp op) { return !op.getEquals(); });
    SmallVector<Value> roots;
    for (ParamOp op : ops)
      roots.push_back(op.getResult());
    ParamUseSummary summary = analyzeParamUses(roots, registry);
    if (!anyUse) {
      plan.decision = ParamPlan::Decision::Unused;
    } else if (!summary.isAddressOnly()) {
      const BlockingUse *first = &summary.blockingUses.front();
      if (summary.blockingUses.size() > 1) {
        if (order.empty())
          order = numberOperations(kernel.function);
        for (const BlockingUse &use : summary.blockingUses)
          if (order.lookup(use.user) < order.lookup(first->user))
            first = &use;
      }
      plan.decision = ParamPlan::Decision::Keep;
      plan.reason = first->reason;
      plan.blockingUser = first->user;
    } else if (plan.needsArgument && !sameType) {
      plan.decision = ParamPlan::Decision::Keep;
      plan.reason = "used with more than one type in this kernel";
    } else if (plan.needsArgument && kernel.unknownReference) {
      plan.decision = ParamPlan::Decision::Keep;
      plan.reason = ("the kernel is referenced by '" +
                     kernel.unknownReference->getName().getStringRef() +
                     "', which the pass cannot give a new argument")
                        .str();
      plan.blockingUser = kernel.unknownReference;
    } else {
      plan.decision = ParamPlan::Decision::Hoist;
    }
    kernel.params.push_back(std::move(plan));
  }
}

namespace {
/// Everything phase one found.
struct ModulePlan {
  std::vector<KernelPlan> kernels;
  SymbolUseMap symbolUses;
  /// Parameters outside kernels (host code, device functions).
  SmallVector<ParamOp> otherParams;
};
} // namespace

/// Phase one: find kernels and their launch sites, decide, and check
/// everything that could fail. Touches nothing.
static FailureOr<ModulePlan> planModule(ModuleOp module,
                                        const StrideUseRegistry &registry) {
  FailureOr<ModuleScan> scan = scanModule(module);
  if (failed(scan))
    return failure();

  ModulePlan plan;
  plan.symbolUses = std::move(scan->symbolUses);
  SymbolUseMap &symbolUses = plan.symbolUses;
  for (auto &[functionOp, params] : scan->paramsByFunction) {
    auto function = dyn_cast_or_null<FunctionOpInterface>(functionOp);
    auto otherCode = [&, &params = params] {
      plan.otherParams.append(params.begin(), params.end());
    };
    if (!function) {
      otherCode();
      continue;
    }
    KernelPlan kernel;
    kernel.function = function;
    kernel.path = symbolPath(function);
    if (isInsideGpuModule(function)) {
      if (!isDeviceKernel(function)) {
        otherCode(); // a device function
        continue;
      }
    } else {
      auto it = symbolUses.find(function);
      bool called = it != symbolUses.end() &&
                    llvm::any_of(it->second, [](const SymbolUse &use) {
                      return use.isLaunchSite;
                    });
      // Host code: functions nothing calls, and functions that launch GPU
      // work, unless explicitly marked as kernels.
      bool marked = function->hasAttr(spec::kKernelAttrName);
      if (!marked &&
          (!called || scan->launchingFunctions.contains(function))) {
        otherCode();
        continue;
      }
    }

    if (auto it = symbolUses.find(function); it != symbolUses.end()) {
      for (const SymbolUse &use : it->second) {
        if (!use.isLaunchSite) {
          if (!kernel.unknownReference)
            kernel.unknownReference = use.user;
          continue;
        }
        if (passedArguments(use.user).size() != function.getNumArguments()) {
          InFlightDiagnostic diag =
              use.user->emitError()
              << "launch site passes " << passedArguments(use.user).size()
              << " arguments but kernel " << kernel.path
              << " takes " << function.getNumArguments();
          diag.attachNote(function.getLoc()) << "kernel defined here";
          return failure();
        }
        kernel.launchSites.push_back(use.user);
      }
    }
    if (auto llvmFunc = dyn_cast<LLVM::LLVMFuncOp>(function.getOperation());
        llvmFunc && llvmFunc.isVarArg() && !kernel.unknownReference)
      kernel.unknownReference = function;
    planKernel(kernel, params, registry);
    plan.kernels.push_back(std::move(kernel));
  }
  return plan;
}

/// Appends an argument of `type` to `function` and returns it. The generic
/// FunctionOpInterface path cannot rebuild the type of a void `llvm.func`
/// (LLVMFunctionType::clone wants one result), so that case is done here.
static Value appendArgument(FunctionOpInterface function, Type type,
                            Location loc) {
  unsigned index = function.getNumArguments();
  if (auto llvmFunc = dyn_cast<LLVM::LLVMFuncOp>(function.getOperation())) {
    LLVM::LLVMFunctionType oldType = llvmFunc.getFunctionType();
    SmallVector<Type> params(oldType.getParams());
    params.push_back(type);
    llvmFunc.setFunctionType(LLVM::LLVMFunctionType::get(
        oldType.getReturnType(), params, oldType.isVarArg()));
    if (ArrayAttr argAttrs = llvmFunc.getArgAttrsAttr()) {
      SmallVector<Attribute> extended(argAttrs.begin(), argAttrs.end());
      extended.push_back(DictionaryAttr::get(function->getContext()));
      llvmFunc.setArgAttrsAttr(ArrayAttr::get(function->getContext(), extended));
    }
    return llvmFunc.getBody().front().addArgument(type, loc);
  }
  // Cannot fail for func.func and gpu.func, whose types take any signature.
  (void)function.insertArgument(index, type,
                                DictionaryAttr::get(function->getContext()), loc);
  return function.getArgument(index);
}

namespace {
/// Supplies the value a launch site passes for a hoisted parameter: the
/// caller's own hoisted argument when the caller is a kernel that hoisted
/// it, a new host argument with `hoistIntoHost`, else a constant.
class LaunchValueProvider {
public:
  LaunchValueProvider(const ModulePlan &plan, const HoistOptions &options)
      : plan(plan), options(options) {
    for (const KernelPlan &kernel : plan.kernels)
      kernelFunctions.insert(kernel.function);
  }

  /// Records that `function` (a kernel) now takes `name` as `argument`.
  void setKernelArgument(Operation *function, StringRef name, Value argument) {
    arguments[{function, name.str()}] = argument;
  }

  /// The value of `param` for `site`.
  Value valueAt(Operation *site, StringRef name, Type type, int64_t value) {
    auto caller = site->getParentOfType<FunctionOpInterface>();
    if (caller) {
      auto known = arguments.find({caller, name.str()});
      if (known != arguments.end() && known->second.getType() == type)
        return known->second;
      if (options.hoistIntoHost && !kernelFunctions.contains(caller) &&
          canTakeHostArgument(caller))
        return addHostArgument(caller, name, type, value);
    }
    OpBuilder builder(site);
    return arith::ConstantOp::create(builder, site->getLoc(),
                                     IntegerAttr::get(type, value));
  }

  /// Whether `param` (host code) was replaced by a host argument and erased.
  bool wasReplaced(ParamOp param) const {
    return replacedParams.contains(param.getOperation());
  }

  /// The host argument `function` got for `name`, if any.
  std::optional<unsigned> hostArgumentIndex(Operation *function,
                                            StringRef name) const {
    auto it = hostArguments.find({function, name.str()});
    if (it == hostArguments.end())
      return std::nullopt;
    return it->second;
  }

private:
  /// Host functions can take a new argument when every use of their symbol
  /// is a call the pass can extend (and they are not variadic).
  bool canTakeHostArgument(FunctionOpInterface function) const {
    if (function.isExternal() || isInsideGpuModule(function))
      return false;
    if (auto llvmFunc = dyn_cast<LLVM::LLVMFuncOp>(function.getOperation());
        llvmFunc && llvmFunc.isVarArg())
      return false;
    auto it = plan.symbolUses.find(function);
    return it == plan.symbolUses.end() ||
           llvm::all_of(it->second,
                        [](const SymbolUse &use) { return use.isLaunchSite; });
  }

  /// Appends an argument for `name` to host `function`, replaces its own
  /// `spec.param`s of that name, and has every caller pass the value in turn.
  Value addHostArgument(FunctionOpInterface function, StringRef name, Type type,
                        int64_t value) {
    unsigned index = function.getNumArguments();
    Value argument = appendArgument(function, type, function.getLoc());
    arguments[{function, name.str()}] = argument;
    hostArguments[{function, name.str()}] = index;
    SmallVector<ParamOp> own;
    function->walk([&](ParamOp param) {
      if (param.getName() == name && param.getType() == type)
        own.push_back(param);
    });
    for (ParamOp param : own) {
      param.replaceAllUsesWith(argument);
      replacedParams.insert(param);
      param.erase();
    }
    if (auto it = plan.symbolUses.find(function); it != plan.symbolUses.end())
      for (const SymbolUse &use : it->second)
        passedArguments(use.user).append(valueAt(use.user, name, type, value));
    return argument;
  }

  const ModulePlan &plan;
  const HoistOptions &options;
  llvm::DenseSet<Operation *> kernelFunctions;
  std::map<std::pair<Operation *, std::string>, Value> arguments;
  std::map<std::pair<Operation *, std::string>, unsigned> hostArguments;
  llvm::DenseSet<Operation *> replacedParams;
};
} // namespace

static void remarkOnDecision(const KernelPlan &kernel, const ParamPlan &param) {
  ParamOp first = param.ops.front();
  switch (param.decision) {
  case ParamPlan::Decision::Hoist: {
    InFlightDiagnostic remark = first.emitRemark()
                                << "'" << param.name << "' hoisted in kernel "
                                << kernel.path << ": ";
    if (param.argumentIndex)
      remark << "runtime argument " << *param.argumentIndex;
    else
      remark << "uses take its 'equals' value";
    return;
  }
  case ParamPlan::Decision::Keep: {
    InFlightDiagnostic remark = first.emitRemark()
                                << "'" << param.name
                                << "' kept specialized in kernel "
                                << kernel.path << ": "
                                << param.reason;
    if (param.blockingUser)
      remark.attachNote(param.blockingUser->getLoc())
          << "needs '" << param.name << "' as a constant here";
    return;
  }
  case ParamPlan::Decision::Unused:
    first.emitRemark() << "'" << param.name << "' is unused in kernel "
                       << kernel.path << "; removed";
    return;
  }
}

FailureOr<HoistReport>
mlir::flyhoist::hoistStrideSpecialization(ModuleOp module,
                                          const HoistOptions &options,
                                          const StrideUseRegistry &registry) {
  // Called without a pass manager, nothing may have loaded the dialects of
  // the ops the rewrite creates.
  module.getContext()->getOrLoadDialect<arith::ArithDialect>();
  FailureOr<ModulePlan> planned = planModule(module, registry);
  if (failed(planned))
    return failure();
  std::vector<KernelPlan> &kernels = planned->kernels;

  // Phase two: rewrite. First the kernels' signatures and bodies...
  LaunchValueProvider launchValues(*planned, options);
  HoistReport report;
  for (KernelPlan &kernel : kernels) {
    KernelReport &record = report.kernels.emplace_back();
    record.symbol = kernel.path;
    for (Operation *site : kernel.launchSites)
      record.launchSites.push_back(site->getLoc());
    SmallVector<Attribute> hoistedAttrs;
    MLIRContext *context = module.getContext();
    for (ParamPlan &param : kernel.params) {
      Type type = param.type;
      if (param.decision == ParamPlan::Decision::Hoist) {
        Value value;
        if (param.needsArgument) {
          param.encoding = chooseEncoding(param.value, type, options);
          unsigned index = kernel.function.getNumArguments();
          Value argument =
              appendArgument(kernel.function, param.encoding.argumentType(type),
                             param.ops.front().getLoc());
          value = decodeArgument(kernel.function, argument, type, param.encoding);
          param.argumentIndex = index;
          launchValues.setKernelArgument(kernel.function, param.name, value);
        }
        for (ParamOp op : param.ops) {
          op.replaceAllUsesWith(op.getEquals() ? op.getEquals() : value);
        }
        HoistedParam &hoisted = record.hoisted.emplace_back();
        hoisted.name = param.name;
        hoisted.type = param.encoding.argumentType(type);
        hoisted.valueType = type;
        hoisted.argumentIndex = param.argumentIndex;
        hoisted.divisor = param.encoding.divisor;
        hoisted.preconditions = describePreconditions(param.encoding);
        NamedAttrList entry;
        entry.append("name", StringAttr::get(context, param.name));
        entry.append("type", TypeAttr::get(hoisted.type));
        if (param.argumentIndex)
          entry.append("argument", IntegerAttr::get(IntegerType::get(context, 64),
                                                    *param.argumentIndex));
        else
          entry.append("equals", UnitAttr::get(context));
        if (param.encoding.divisor > 1)
          entry.append("divisor",
                       IntegerAttr::get(IntegerType::get(context, 64),
                                        param.encoding.divisor));
        if (param.encoding.narrow)
          entry.append("zero_extended_to", TypeAttr::get(type));
        hoistedAttrs.push_back(entry.getDictionary(context));
      } else if (param.decision == ParamPlan::Decision::Keep) {
        Location where = param.blockingUser ? param.blockingUser->getLoc()
                                            : param.ops.front().getLoc();
        record.kept.push_back(
            {param.name, param.value, param.reason, where});
      }
      if (options.emitRemarks)
        remarkOnDecision(kernel, param);
      if (param.decision != ParamPlan::Decision::Keep) {
        for (ParamOp op : param.ops)
          op.erase();
      } else if (options.materializeKept) {
        for (ParamOp op : param.ops)
          materialize(op);
      }
    }
    // A kernel hoisted before (e.g. a second run with materialize-kept=false)
    // keeps its earlier entries: the record describes the whole signature.
    if (auto earlier =
            kernel.function->getAttrOfType<ArrayAttr>(spec::kHoistedAttrName))
      hoistedAttrs.insert(hoistedAttrs.begin(), earlier.begin(), earlier.end());
    kernel.function->setAttr(spec::kHoistedAttrName,
                             ArrayAttr::get(context, hoistedAttrs));
    kernel.function->setAttr(
        spec::kLaunchSitesAttrName,
        IntegerAttr::get(IntegerType::get(context, 64),
                         kernel.launchSites.size()));
  }

  // ...then every launch site passes the values, in argument order...
  for (auto [kernel, record] : llvm::zip(kernels, report.kernels)) {
    for (Operation *site : kernel.launchSites) {
      for (ParamPlan &param : kernel.params) {
        if (!param.argumentIndex)
          continue;
        Value value =
            launchValues.valueAt(site, param.name, param.type, param.value);
        OpBuilder builder(site);
        passedArguments(site).append(
            encodeAtSite(builder, site->getLoc(), value, param.encoding));
      }
    }
    // The host argument of the first launch site is the one reported.
    for (HoistedParam &hoisted : record.hoisted)
      if (!kernel.launchSites.empty() && hoisted.argumentIndex)
        hoisted.hostArgument = launchValues.hostArgumentIndex(
            kernel.launchSites.front()->getParentOfType<FunctionOpInterface>(),
            hoisted.name);
  }

  // ...and what is left (host code, device functions) is materialized,
  // except what hoist-into-host already replaced by a host argument.
  for (ParamOp param : planned->otherParams)
    if (!launchValues.wasReplaced(param))
      materialize(param);
  return report;
}
