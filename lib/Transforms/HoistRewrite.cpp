//===- HoistRewrite.cpp - Carry out a hoisting plan -----------------------===//
//
// The steps, in order: each kernel's signature, body and record; every
// launch site (which may give host functions new arguments); then the
// parameters left in host code and device functions.
//
//===----------------------------------------------------------------------===//

#include "flyhoist/Transforms/HoistRewrite.h"

#include "flyhoist/Transforms/HoistStrideSpecialization.h"
#include "flyhoist/Transforms/MaterializeSpecialization.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Remarks.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

#include <tuple>

using namespace mlir;
using namespace mlir::flyhoist;
using spec::ParamOp;

/// Appends arguments of `types` to `function`, all at once (one new
/// signature, one new argument-attribute array, however many there are), and
/// returns them. The generic FunctionOpInterface path cannot rebuild the type
/// of a void `llvm.func` (LLVMFunctionType::clone wants one result), so that
/// case is done here.
static SmallVector<Value> appendArguments(FunctionOpInterface function,
                                          ArrayRef<Type> types,
                                          ArrayRef<Location> locs) {
  unsigned first = function.getNumArguments();
  MLIRContext *context = function->getContext();
  if (auto llvmFunc = dyn_cast<LLVM::LLVMFuncOp>(function.getOperation())) {
    LLVM::LLVMFunctionType oldType = llvmFunc.getFunctionType();
    SmallVector<Type> params(oldType.getParams());
    llvm::append_range(params, types);
    llvmFunc.setFunctionType(LLVM::LLVMFunctionType::get(
        oldType.getReturnType(), params, oldType.isVarArg()));
    if (ArrayAttr argAttrs = llvmFunc.getArgAttrsAttr()) {
      SmallVector<Attribute> extended(argAttrs.begin(), argAttrs.end());
      extended.append(types.size(), DictionaryAttr::get(context));
      llvmFunc.setArgAttrsAttr(ArrayAttr::get(context, extended));
    }
    llvmFunc.getBody().front().addArguments(types, locs);
  } else if (isa<func::FuncOp, gpu::GPUFuncOp>(function.getOperation()) &&
             !function.getArgAttrsAttr() && !function.isExternal() &&
             function.front().getNumArguments() == first) {
    Block &entry = function.front();
    // The usual case, a func.func or gpu.func without argument attributes
    // or workgroup/private attributions: the new arguments go at the end of
    // the entry block, and the type is rebuilt once. (The generic path
    // below inserts one block argument at a time, renumbering the rest,
    // and builds an empty attribute dictionary per argument.)
    SmallVector<Type> inputs(function.getArgumentTypes());
    llvm::append_range(inputs, types);
    function.setFunctionTypeAttr(TypeAttr::get(
        function.cloneTypeWith(inputs, function.getResultTypes())));
    entry.addArguments(types, locs);
  } else {
    // Cannot fail for func.func and gpu.func, whose types take any
    // signature.
    SmallVector<unsigned> indices(types.size(), first);
    SmallVector<DictionaryAttr> attrs(types.size(),
                                      DictionaryAttr::get(context));
    (void)function.insertArguments(indices, types, attrs, locs);
  }
  return llvm::to_vector_of<Value>(function.getArguments().drop_front(first));
}

/// Appends `values` to the arguments `launchSite` passes, with empty
/// dictionaries in its per-argument attributes when it has them (discovery
/// checked that they match the arguments). One operand-list update per
/// site, however many values.
static void appendPassedArguments(Operation *launchSite, ValueRange values) {
  if (values.empty())
    return;
  passedArguments(launchSite).append(values);
  auto withAttrs = dyn_cast<ArgAndResultAttrsOpInterface>(launchSite);
  if (!withAttrs)
    return;
  if (ArrayAttr argAttrs = withAttrs.getArgAttrsAttr()) {
    SmallVector<Attribute> extended(argAttrs.begin(), argAttrs.end());
    extended.append(values.size(),
                    DictionaryAttr::get(launchSite->getContext()));
    withAttrs.setArgAttrsAttr(
        ArrayAttr::get(launchSite->getContext(), extended));
  }
}

/// Casts `carrier` (an integer) to `type` (index) right after it is defined,
/// at the start of `function` for an argument.
static Value castCarrier(FunctionOpInterface function, Value carrier,
                         Type type) {
  if (carrier.getType() == type)
    return carrier;
  OpBuilder builder(function->getContext());
  if (Operation *def = carrier.getDefiningOp())
    builder.setInsertionPointAfter(def);
  else
    builder.setInsertionPointToStart(&function.getFunctionBody().front());
  return arith::IndexCastOp::create(builder, carrier.getLoc(), type, carrier);
}

/// Whether the code around `op`, which sits in `function` (or in none), is
/// LLVM dialect code, where the constants the pass creates are
/// `llvm.mlir.constant`: `op` is an LLVM op or sits in an `llvm.func`.
static bool inLLVMCode(Operation *op, FunctionOpInterface function) {
  return isa_and_nonnull<LLVM::LLVMDialect>(op->getDialect()) ||
         (function && isa<LLVM::LLVMFuncOp>(function.getOperation()));
}

/// A constant `value` of `type` before `where`: `llvm.mlir.constant` when
/// `llvmConstant`, else `arith.constant`.
static Value createConstant(Operation *where, bool llvmConstant, Type type,
                            int64_t value) {
  OpBuilder builder(where);
  if (llvmConstant)
    return LLVM::ConstantOp::create(builder, where->getLoc(), type,
                                    builder.getIntegerAttr(type, value));
  return arith::ConstantOp::create(builder, where->getLoc(),
                                   IntegerAttr::get(type, value));
}

static bool isInsideGpuModule(Operation *op) {
  return op->getParentOfType<gpu::GPUModuleOp>() != nullptr;
}

namespace {
/// A runtime value a function holds for a parameter name.
struct KnownValue {
  /// The value, of the parameter's type (or the carrier when the function
  /// has no use of its own for it).
  Value value;
  /// The same value in the type its argument carries it in (see
  /// argumentCarrierType); `value` itself when they agree.
  Value carrier;
};

} // namespace

namespace mlir::flyhoist {
/// Supplies the value a launch site passes for a hoisted parameter: the
/// caller's own argument when the caller is a kernel or device function that
/// took one for the name, a new host argument with `hoistIntoHost`, else a
/// constant.
class LaunchValueProvider {
public:
  LaunchValueProvider(const DiscoveredModule &discovered,
                      const HoistOptions &options)
      : discovered(discovered), options(options) {
    for (const DiscoveredKernel &kernel : discovered.kernels)
      for (Operation *site : kernel.launchSites) {
        plannedSites.insert(site);
        auto [first, inserted] =
            firstSiteInBlock.try_emplace(site->getBlock(), site);
        if (!inserted && site->isBeforeInBlock(first->second))
          first->second = site;
      }
  }

  /// Records that `function` now holds `name` (of type `type`) at run time.
  void setKnown(Operation *function, StringAttr name, Type type,
                KnownValue known) {
    arguments[key(function, name, type)] = known;
  }

  /// The value of parameter `name` (of type `type`, marked `value`) that
  /// `site` passes, in `siteType` (the callee's carrier type).
  Value valueAt(Operation *site, StringAttr name, Type type, Type siteType,
                int64_t value) {
    // A site inside a region isolated from above cannot use the caller's
    // arguments (planning made sure no hoisting depends on it).
    SiteFacts facts = factsOf(site);
    if (FunctionOpInterface caller = facts.caller) {
      auto known = arguments.empty() ? arguments.end()
                                     : arguments.find(key(caller, name, type));
      if (known != arguments.end())
        return convert(site, known->second, siteType);
      if (options.hoistIntoHost && !discovered.kernelIndex.count(caller) &&
          canTakeHostArgument(caller))
        return convert(site, addHostArgument(caller, name, type, value),
                       siteType);
    }
    return constantFor(site, facts, siteType, value);
  }

  /// Whether `param` (host code) was replaced by a host argument and erased.
  bool wasReplaced(ParamOp param) const {
    return replacedParams.contains(param.getOperation());
  }

  /// The host argument `function` got for `name` at `type`, if any (one
  /// name launched at two types is two arguments).
  std::optional<unsigned> hostArgumentIndex(Operation *function,
                                            StringAttr name, Type type) const {
    if (hostArguments.empty())
      return std::nullopt;
    auto it = hostArguments.find(key(function, name, type));
    if (it == hostArguments.end())
      return std::nullopt;
    return it->second;
  }

private:
  /// What valueAt needs to know of a launch site.
  struct SiteFacts {
    Operation *site = nullptr;
    /// The function whose arguments the site can use: the function it is
    /// in, unless a region isolated from above lies between them.
    FunctionOpInterface caller;
    /// Whether constants passed there are `llvm.mlir.constant` for LLVM
    /// types (see inLLVMCode).
    bool llvmCode = false;
    /// The first launch site of a planned function in its block; null when
    /// the site is not one (a host call that hoist-into-host extended).
    Operation *firstInBlock = nullptr;
  };

  /// The facts of `site`. Asked once per site and parameter, in runs of one
  /// site: the last answer is kept.
  SiteFacts factsOf(Operation *site) {
    if (site == last.site)
      return last;
    last = SiteFacts();
    last.site = site;
    auto function = site->getParentOfType<FunctionOpInterface>();
    last.llvmCode = inLLVMCode(site, function);
    if (function && isolatedScope(site) == function.getOperation())
      last.caller = function;
    // Only launch sites of planned functions are at or after the first of
    // their block; a host call that hoist-into-host extended may come
    // before it, where a constant placed there would not dominate it.
    if (plannedSites.contains(site))
      last.firstInBlock = firstSiteInBlock.lookup(site->getBlock());
    return last;
  }

  /// The constant `site` passes: one per block, type, value and dialect,
  /// before the block's first launch site, shared by all its launch sites (a
  /// module launching thousands of kernels from one function would
  /// otherwise get thousands of copies for cse to fold). Sites that are not
  /// launch sites of a planned function (a host call that hoist-into-host
  /// extended) get their own.
  Value constantFor(Operation *site, const SiteFacts &facts, Type type,
                    int64_t value) {
    bool llvmConstant = facts.llvmCode && LLVM::isCompatibleType(type);
    if (!facts.firstInBlock)
      return createConstant(site, llvmConstant, type, value);
    auto [it, inserted] =
        constants.try_emplace({site->getBlock(), type.getAsOpaquePointer(),
                               value, static_cast<unsigned>(llvmConstant)});
    if (inserted)
      it->second =
          createConstant(facts.firstInBlock, llvmConstant, type, value);
    return it->second;
  }

  /// (function, parameter name, type).
  using Key = std::tuple<Operation *, StringAttr, const void *>;
  static Key key(Operation *function, StringAttr name, Type type) {
    return {function, name, type.getAsOpaquePointer()};
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

  /// Host functions can take a new argument when every use of their symbol
  /// is a call the pass can extend (and they are not variadic).
  bool canTakeHostArgument(FunctionOpInterface function) const {
    if (function.isExternal() || isInsideGpuModule(function))
      return false;
    if (auto llvmFunc = dyn_cast<LLVM::LLVMFuncOp>(function.getOperation());
        llvmFunc && llvmFunc.isVarArg())
      return false;
    auto it = discovered.symbolUses.find(function);
    return it == discovered.symbolUses.end() ||
           llvm::all_of(it->second,
                        [](const SymbolUse &use) { return use.isLaunchSite; });
  }

  /// Appends an argument for `name` to host `function`, replaces its own
  /// `spec.param`s of that name (those a new argument can reach), and has
  /// every caller pass the value in turn.
  KnownValue addHostArgument(FunctionOpInterface function, StringAttr name,
                             Type type, int64_t value) {
    unsigned index = function.getNumArguments();
    Type carrierType = argumentCarrierType(function, type);
    Value argument =
        appendArguments(function, carrierType, function.getLoc()).front();
    KnownValue known{castCarrier(function, argument, type), argument};
    arguments[key(function, name, type)] = known;
    hostArguments.try_emplace(key(function, name, type), index);
    SmallVector<ParamOp> own;
    function->walk([&](ParamOp param) {
      if (param.getNameAttr() == name && param.getType() == type &&
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
        appendPassedArguments(
            use.user, valueAt(use.user, name, type, carrierType, value));
    return known;
  }

  const DiscoveredModule &discovered;
  const HoistOptions &options;
  /// The values functions hold at run time: their own new arguments (only
  /// for functions that pass them on) and host arguments.
  DenseMap<Key, KnownValue> arguments;
  DenseMap<Key, unsigned> hostArguments;
  llvm::DenseSet<Operation *> replacedParams;
  /// The facts of the site asked for last.
  SiteFacts last;
  /// The launch sites of the functions the pass plans for, and the first of
  /// them in each block.
  llvm::DenseSet<Operation *> plannedSites;
  DenseMap<Block *, Operation *> firstSiteInBlock;
  /// The constants created for launch sites, by (block, type, value, whether
  /// `llvm.mlir.constant`).
  DenseMap<std::tuple<Block *, const void *, int64_t, unsigned>, Value>
      constants;
};
} // namespace mlir::flyhoist

/// One remark per parameter per kernel or device function: hoisted where,
/// or kept and why. At the first `spec.param` of the name, or at the
/// function for a name it only passes on.
static void remarkOnDecision(const KernelPlan &kernel, const ParamPlan &param) {
  Operation *anchor = param.ops.empty()
                          ? static_cast<Operation *>(kernel.kernel->function)
                          : static_cast<Operation *>(param.ops.front());
  std::string where =
      (kernel.kernel->kindName() + " " + kernel.kernel->path).str();
  switch (param.decision) {
  case ParamPlan::Decision::Hoist: {
    InFlightDiagnostic remark = anchor->emitRemark()
                                << "'" << param.name.getValue()
                                << "' hoisted in " << where << ": ";
    if (param.argumentIndex)
      remark << "runtime argument " << *param.argumentIndex;
    else
      remark << "uses take its 'equals' value";
    if (param.passedTo)
      remark << ", passed on to " << param.passedTo.getValue();
    return;
  }
  case ParamPlan::Decision::Keep: {
    InFlightDiagnostic remark =
        anchor->emitRemark()
        << "'" << param.name.getValue() << "' kept specialized in " << where
        << ": "
        << spec::describeKeepReason(param.reason, kernel.kernel->kindName());
    if (param.blockingLoc)
      remark.attachNote(*param.blockingLoc)
          << "needs '" << param.name.getValue() << "' as a constant here";
    return;
  }
  case ParamPlan::Decision::Unused:
    anchor->emitRemark() << "'" << param.name.getValue() << "' is unused in "
                         << where << "; removed";
    return;
  }
}

namespace {
/// The same decision for MLIR's optimization-remark engine (`--remarks-filter=
/// hoist-stride-specialization`, YAML output), when the context has one:
/// passed for a hoisted parameter, missed with its reason for a kept one.
class RemarkEngineReporter {
public:
  void report(const KernelPlan &kernel, const ParamPlan &param);

private:
  /// Whether the engine takes passed (index 0) and missed (1) remarks of the
  /// category, once it has been asked: it filters by kind and category only,
  /// so the first answer holds for the rest of the rewrite, and one call per
  /// parameter adds up.
  std::optional<bool> takes[2];
};
} // namespace

void RemarkEngineReporter::report(const KernelPlan &kernel,
                                  const ParamPlan &param) {
  bool kept = param.decision == ParamPlan::Decision::Keep;
  std::optional<bool> &taken = takes[kept];
  if (taken == false ||
      !kernel.kernel->function->getContext()->getRemarkEngine())
    return;
  Location loc = param.ops.empty() ? kernel.kernel->function->getLoc()
                                   : param.ops.front()->getLoc();
  StringRef name = param.name.getValue();
  auto opts = remark::RemarkOpts::name("StrideSpecialization")
                  .category("hoist-stride-specialization")
                  .subCategory(name)
                  .function(kernel.kernel->path);
  // An engine that filters the category out returns an empty remark: the
  // text is then not built at all.
  remark::detail::InFlightRemark remark =
      kept ? remark::missed(loc, opts) : remark::passed(loc, opts);
  taken = static_cast<bool>(remark);
  if (!remark)
    return;
  switch (param.decision) {
  case ParamPlan::Decision::Hoist:
    remark << remark::add("'{0}' hoisted", name)
           << remark::metric("argument",
                             param.argumentIndex
                                 ? static_cast<int64_t>(*param.argumentIndex)
                                 : int64_t(-1));
    return;
  case ParamPlan::Decision::Keep:
    remark << remark::add("'{0}' kept", name)
           << remark::reason(
                  "{0}", spec::describeKeepReason(param.reason,
                                                  kernel.kernel->kindName()));
    return;
  case ParamPlan::Decision::Unused:
    remark << remark::add("'{0}' unused; removed", name);
    return;
  }
}

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

namespace mlir::flyhoist {
/// The record entries of hoisted and kept parameters (never a hoisted one's
/// value). The same entry recurs in kernel after kernel (a name, its argument
/// number and encoding; a name, its value and why it is kept), and uniquing an
/// attribute hashes all of its fields and takes the context's lock: entries
/// are kept here, found by their name and number and checked field by field.
class RecordEntryCache {
public:
  spec::HoistedParamAttr get(MLIRContext *context, const ParamPlan &param,
                             std::optional<unsigned> hostArgument) {
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
    auto orMinusOne = [](std::optional<int64_t> value) {
      return value ? *value : int64_t(-1);
    };
    auto [it, inserted] =
        entries.try_emplace({param.name.getAsOpaquePointer(),
                             orMinusOne(number(param.argumentIndex))});
    spec::HoistedParamAttr &entry = it->second;
    if (inserted || entry.getType() != type ||
        entry.getZeroExtendedTo() != zeroExtendedTo ||
        entry.getPreconditions() != facts ||
        entry.getHostArgument() != number(hostArgument))
      entry = spec::HoistedParamAttr::get(
          context, param.name, type, number(param.argumentIndex),
          zeroExtendedTo, facts, number(hostArgument));
    return entry;
  }

  /// The record entry of a kept parameter, shared by every function that
  /// keeps it with the same value for the same reason.
  spec::KeptParamAttr getKept(MLIRContext *context, StringAttr name,
                              int64_t value,
                              const spec::KeepReasonInfo &reason) {
    return spec::KeptParamAttr::get(context, name, value, reason);
  }

private:
  /// The last entry made for a name and argument number (-1 for none), used
  /// again when its other fields match: a short key keeps the table small
  /// and cheap to hash, and the fields are compared only on a hit.
  DenseMap<std::pair<const void *, int64_t>, spec::HoistedParamAttr> entries;
};
} // namespace mlir::flyhoist

namespace {
/// The kept parameters' record entries and, in the same order, where the use
/// that needs each as a constant is.
struct KeptRecordEntries {
  SmallVector<Attribute> params;
  SmallVector<Attribute> locations;
};
} // namespace

/// Step 1: the function's new arguments, its parameters replaced,
/// materialized or erased. Returns the record entries of the kept ones.
static KeptRecordEntries rewriteKernel(KernelPlan &plan,
                                       LaunchValueProvider &launchValues,
                                       RecordEntryCache &entries,
                                       RemarkEngineReporter &remarkEngine,
                                       const HoistOptions &options) {
  FunctionOpInterface function = plan.kernel->function;
  MLIRContext *context = function->getContext();
  KeptRecordEntries kept;
  // The new arguments, appended in one step (planning numbered them in
  // plan order).
  SmallVector<Type> argumentTypes;
  SmallVector<Location> argumentLocs;
  for (ParamPlan &param : plan.params) {
    if (param.decision != ParamPlan::Decision::Hoist || !param.argumentIndex)
      continue;
    argumentTypes.push_back(param.encoding.argumentType(param.carrierType));
    argumentLocs.push_back(param.ops.empty() ? function.getLoc()
                                             : param.ops.front().getLoc());
  }
  SmallVector<Value> arguments =
      appendArguments(function, argumentTypes, argumentLocs);
  auto nextArgument = arguments.begin();
  for (ParamPlan &param : plan.params) {
    if (param.decision == ParamPlan::Decision::Hoist) {
      Value value;
      if (param.argumentIndex) {
        Value argument = *nextArgument++;
        assert(argument.getArgNumber() == *param.argumentIndex &&
               "arguments appended out of plan order");
        Value carrier = decodeArgument(function, argument, param.carrierType,
                                       param.encoding);
        // Cast back to index only for the function's own uses: a function
        // that passes the value on passes the carrier.
        bool ownUses = param.numWithEquals < param.ops.size();
        value = ownUses ? castCarrier(function, carrier, param.type) : carrier;
        // Read where the function passes the value on: at its launch sites
        // of planned functions, and (hoist-into-host) at its calls of host
        // functions that take a new argument.
        if (plan.callsPlannedFunction || options.hoistIntoHost)
          launchValues.setKnown(function, param.name, param.type,
                                {value, carrier});
      }
      for (ParamOp op : param.ops) {
        Value equals = param.numWithEquals ? op.getEquals() : Value();
        op.replaceAllUsesWith(equals ? equals : value);
      }
    } else if (param.decision == ParamPlan::Decision::Keep) {
      Location where = param.blockingLoc   ? *param.blockingLoc
                       : param.ops.empty() ? function.getLoc()
                                           : param.ops.front().getLoc();
      kept.params.push_back(
          entries.getKept(context, param.name, param.value, param.reason));
      kept.locations.push_back(where);
    }
    if (options.emitRemarks)
      remarkOnDecision(plan, param);
    remarkEngine.report(plan, param);
    if (param.decision != ParamPlan::Decision::Keep) {
      for (ParamOp op : param.ops)
        op.erase();
    } else if (options.materializeKept) {
      for (ParamOp op : param.ops)
        materializeParam(op);
    }
  }
  return kept;
}

/// Step 2: every launch site of the function passes the hoisted values, in
/// argument order.
static void updateLaunchSites(KernelPlan &plan,
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

/// Step 3: the function's record: what was hoisted (with the host argument
/// of the first launch site), what was kept, where it is launched from.
static void writeRecord(KernelPlan &plan, KeptRecordEntries &kept,
                        const LaunchValueProvider &launchValues,
                        RecordEntryCache &entries) {
  FunctionOpInterface function = plan.kernel->function;
  MLIRContext *context = function->getContext();
  Operation *host = plan.kernel->launchSites.empty()
                        ? nullptr
                        : plan.kernel->launchSites.front()
                              ->getParentOfType<FunctionOpInterface>();
  SmallVector<Attribute> hoisted;
  for (ParamPlan &param : plan.params) {
    if (param.decision != ParamPlan::Decision::Hoist)
      continue;
    std::optional<unsigned> hostArgument;
    if (host && param.argumentIndex)
      hostArgument =
          launchValues.hostArgumentIndex(host, param.name, param.type);
    hoisted.push_back(entries.get(context, param, hostArgument));
  }
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

/// A parameter left in a gpu.module outside any kernel or device function
/// (e.g. in a global's initializer) is baked into the module: say so.
static void remarkOnDeviceConstant(ParamOp param) {
  auto gpuModule = param->getParentOfType<gpu::GPUModuleOp>();
  if (!gpuModule)
    return;
  param.emitRemark() << "'" << param.getName() << "' kept specialized in "
                     << symbolPath(gpuModule)
                     << ": outside any function, nothing can pass it at run "
                        "time";
}

HoistRewriter::HoistRewriter(const DiscoveredModule &discovered,
                             const HoistOptions &options)
    : discovered(discovered), options(options),
      launchValues(std::make_unique<LaunchValueProvider>(discovered, options)),
      recordEntries(std::make_unique<RecordEntryCache>()) {}

HoistRewriter::~HoistRewriter() = default;

void HoistRewriter::rewriteGroup(MutableArrayRef<KernelPlan> plans) {
  for (const KernelPlan &kernel : plans) {
    for (const ParamPlan &param : kernel.params) {
      switch (param.decision) {
      case ParamPlan::Decision::Hoist:
        ++summary.hoisted;
        break;
      case ParamPlan::Decision::Keep:
        ++summary.kept;
        break;
      case ParamPlan::Decision::Unused:
        ++summary.removed;
        break;
      }
    }
    if (llvm::any_of(kernel.params, [](const ParamPlan &param) {
          return param.argumentIndex;
        }))
      summary.launchSitesUpdated += kernel.kernel->launchSites.size();
  }
  // Every function of the group first (a launch site inside one passes its
  // new argument), then the launch sites, then the records (which name the
  // host arguments the launch sites got). Functions that hold no parameter
  // and pass none on stay as they are.
  SmallVector<std::pair<KernelPlan *, KeptRecordEntries>, 1> rewritten;
  RemarkEngineReporter remarkEngine;
  for (KernelPlan &kernel : plans)
    if (!kernel.params.empty())
      rewritten.push_back(
          {&kernel, rewriteKernel(kernel, *launchValues, *recordEntries,
                                  remarkEngine, options)});
  for (auto &[kernel, kept] : rewritten)
    updateLaunchSites(*kernel, *launchValues);
  for (auto &[kernel, kept] : rewritten)
    writeRecord(*kernel, kept, *launchValues, *recordEntries);
}

HoistSummary HoistRewriter::finish() {
  // Step 4: what is left (host code, parameters outside any function) is
  // materialized, except what hoist-into-host already replaced by a host
  // argument.
  for (ParamOp param : discovered.otherParams) {
    if (launchValues->wasReplaced(param))
      continue;
    if (options.emitRemarks)
      remarkOnDeviceConstant(param);
    materializeParam(param);
  }
  return summary;
}
