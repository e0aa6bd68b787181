//===- StructureMutator.cpp - IR-level mutations for the hoist fuzzer -----===//
//
// Each mutation works on a parsed module and either changes it or reports
// that it does not apply; the driver tries mutations until one applies and
// the result verifies. The mutations aim at the classes of bugs the pass had:
// a parameter in a role the analysis must see (loop bound, compare, store,
// call, branch operand), in a nested or isolated region, in a device
// function, with a value at the edge of its type, sharing a name with
// another parameter, tied to another value through `equals`, under every
// option set; calls and launch sites in another order, and functions that
// something other than a call refers to. Since issue 26 also the shapes of
// its defect classes: a value through an aggregate, a fat-pointer access of
// a buffer resource, one value in two operand roles, a compared stride, a
// parameter as an immediate, `equals` through a cast, a variadic call, one
// name at two types, divisibility bounds up to and past 2^63.
//
//===----------------------------------------------------------------------===//

#include "StructureMutator.h"

#include "flyhoist/Dialect/Spec/SpecDialect.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <random>

using namespace mlir;
namespace spec = mlir::flyhoist::spec;

namespace hoistfuzz {

std::optional<std::string> optionsOf(llvm::StringRef source) {
  if (!source.starts_with(kOptionsPrefix))
    return std::nullopt;
  llvm::StringRef line = source.take_until([](char c) { return c == '\n'; });
  return line.drop_front(kOptionsPrefix.size()).trim().str();
}

const DialectRegistry &fuzzRegistry() {
  // Built once and never freed: libFuzzer runs millions of inputs in one
  // process, each in a fresh context made from this registry.
  static DialectRegistry *registry = [] {
    auto *result = new DialectRegistry();
    result
        ->insert<affine::AffineDialect, amdgpu::AMDGPUDialect,
                 arith::ArithDialect, cf::ControlFlowDialect, func::FuncDialect,
                 gpu::GPUDialect, index::IndexDialect, LLVM::LLVMDialect,
                 memref::MemRefDialect, ROCDL::ROCDLDialect, scf::SCFDialect,
                 vector::VectorDialect, spec::SpecDialect>();
    return result;
  }();
  return *registry;
}

namespace {

using Random = std::mt19937;

/// A uniformly chosen element of `items` (which must not be empty).
template <typename T> T &pick(llvm::SmallVectorImpl<T> &items, Random &random) {
  return items[std::uniform_int_distribution<size_t>(0,
                                                     items.size() - 1)(random)];
}

bool coin(Random &random, unsigned oneIn) {
  return std::uniform_int_distribution<unsigned>(0, oneIn - 1)(random) == 0;
}

/// Everything the mutations choose from, collected once per mutant.
struct ModuleView {
  llvm::SmallVector<spec::ParamOp> params;
  llvm::SmallVector<Operation *> integerConstants;
  llvm::SmallVector<Operation *> opsWithOperands;
  llvm::SmallVector<FunctionOpInterface> functions;

  explicit ModuleView(ModuleOp module) {
    module.walk([&](Operation *op) {
      if (auto param = dyn_cast<spec::ParamOp>(op))
        params.push_back(param);
      else if (isIntegerConstant(op) &&
               op->getParentOfType<FunctionOpInterface>())
        integerConstants.push_back(op);
      if (op->getNumOperands() > 0 && !isa<spec::ParamOp>(op))
        opsWithOperands.push_back(op);
      if (auto function = dyn_cast<FunctionOpInterface>(op))
        if (!function.isExternal())
          functions.push_back(function);
    });
  }

  static bool isIntegerConstant(Operation *op) {
    Attribute value;
    if (auto constant = dyn_cast<arith::ConstantOp>(op))
      value = constant.getValue();
    else if (auto constant = dyn_cast<LLVM::ConstantOp>(op))
      value = constant.getValue();
    auto integer = dyn_cast_or_null<IntegerAttr>(value);
    return integer && integer.getType().isSignlessIntOrIndex() &&
           (integer.getType().isIndex() ||
            integer.getType().getIntOrFloatBitWidth() <= 64) &&
           op->getResult(0).getType() == integer.getType();
  }
};

/// The values usable as operand `use` of `user`: same type, defined in the
/// same isolated-from-above scope, and dominating the user.
llvm::SmallVector<Value> candidatesFor(Operation *user, OpOperand &use,
                                       DominanceInfo &dominance) {
  llvm::SmallVector<Value> result;
  Operation *scope = user->getParentWithTrait<OpTrait::IsIsolatedFromAbove>();
  if (!scope)
    return result;
  Type type = use.get().getType();
  auto consider = [&](Value value) {
    if (value != use.get() && value.getType() == type &&
        dominance.properlyDominates(value, user))
      result.push_back(value);
  };
  // Values of a nested isolated region never dominate `user` (which is not
  // in it), so walking the whole scope is enough.
  scope->walk([&](Operation *op) {
    for (Value value : op->getResults())
      consider(value);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Value argument : block.getArguments())
          consider(argument);
  });
  return result;
}

/// The values of integer type `type` a parameter of that type may take at
/// the edges: zero, one, all ones, the signed extremes, the top bit, and
/// 2^31 - 1, 2^31, 2^32 where they fit.
llvm::SmallVector<int64_t> edgeValues(Type type) {
  unsigned width = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
  llvm::SmallVector<int64_t> values = {0, 1, -1};
  if (width >= 2 && width <= 64) {
    values.push_back(llvm::minIntN(width));
    values.push_back(llvm::maxIntN(width));
  }
  if (width >= 1 && width < 64)
    values.push_back(static_cast<int64_t>(llvm::maxUIntN(width)));
  for (int64_t value :
       {int64_t(2147483647), int64_t(2147483648), int64_t(4294967296),
        int64_t(128), int64_t(255), int64_t(1) << 62, int64_t(3) << 61})
    if (width >= 64 || llvm::isIntN(width, value) ||
        llvm::isUIntN(width, static_cast<uint64_t>(value)))
      values.push_back(value);
  return values;
}

using Mutation = bool (*)(ModuleOp, ModuleView &, Random &, std::string &);

/// A constant inside a function becomes a parameter with its value: a fresh
/// name, or (sometimes) the name of a parameter that exists already.
bool constantToParam(ModuleOp, ModuleView &view, Random &random,
                     std::string &options) {
  if (view.integerConstants.empty())
    return false;
  Operation *constant = pick(view.integerConstants, random);
  Attribute attr = isa<arith::ConstantOp>(constant)
                       ? cast<arith::ConstantOp>(constant).getValue()
                       : cast<LLVM::ConstantOp>(constant).getValue();
  auto integer = cast<IntegerAttr>(attr);
  int64_t value = integer.getType().isInteger(1)
                      ? integer.getValue().getZExtValue()
                      : integer.getValue().getSExtValue();
  std::string name = "fuzz" + std::to_string(view.params.size());
  if (!view.params.empty() && coin(random, 4))
    name = pick(view.params, random).getName().str();
  OpBuilder builder(constant);
  Value param = spec::ParamOp::create(builder, constant->getLoc(), name, value,
                                      integer.getType());
  constant->getResult(0).replaceAllUsesWith(param);
  constant->erase();
  return true;
}

/// A parameter takes a value at the edge of its type.
bool paramEdgeValue(ModuleOp, ModuleView &view, Random &random, std::string &) {
  if (view.params.empty())
    return false;
  spec::ParamOp param = pick(view.params, random);
  llvm::SmallVector<int64_t> values = edgeValues(param.getType());
  int64_t value = pick(values, random);
  param.setValueAttr(
      IntegerAttr::get(IntegerType::get(param.getContext(), 64), value));
  return true;
}

/// A parameter takes the name of another one (then one name has one value,
/// or the module is a conflict the pass must reject unchanged).
bool paramShareName(ModuleOp, ModuleView &view, Random &random, std::string &) {
  if (view.params.size() < 2)
    return false;
  spec::ParamOp from = pick(view.params, random);
  spec::ParamOp to = pick(view.params, random);
  if (from == to)
    return false;
  to.setName(from.getName());
  return true;
}

/// An operand of some op is replaced by another value of its type that is in
/// scope there, a parameter's result most of the time: a parameter gets a
/// new use in whatever role that operand has (bound, compare, store, call,
/// branch, launch operand, ...).
bool replaceOperand(ModuleOp module, ModuleView &view, Random &random,
                    std::string &) {
  if (view.opsWithOperands.empty())
    return false;
  DominanceInfo dominance(module);
  for (int attempt = 0; attempt < 8; ++attempt) {
    Operation *user = pick(view.opsWithOperands, random);
    OpOperand &use = user->getOpOperand(std::uniform_int_distribution<unsigned>(
        0, user->getNumOperands() - 1)(random));
    llvm::SmallVector<Value> candidates = candidatesFor(user, use, dominance);
    if (candidates.empty())
      continue;
    llvm::SmallVector<Value> params;
    for (Value value : candidates)
      if (value.getDefiningOp<spec::ParamOp>())
        params.push_back(value);
    use.set(!params.empty() && !coin(random, 4) ? pick(params, random)
                                                : pick(candidates, random));
    return true;
  }
  return false;
}

/// Two operands of one type of an op swap places.
bool swapOperands(ModuleOp, ModuleView &view, Random &random, std::string &) {
  if (view.opsWithOperands.empty())
    return false;
  Operation *op = pick(view.opsWithOperands, random);
  unsigned count = op->getNumOperands();
  if (count < 2)
    return false;
  std::uniform_int_distribution<unsigned> index(0, count - 1);
  unsigned a = index(random), b = index(random);
  if (a == b || op->getOperand(a).getType() != op->getOperand(b).getType() ||
      op->getOperand(a) == op->getOperand(b))
    return false;
  Value first = op->getOperand(a);
  op->setOperand(a, op->getOperand(b));
  op->setOperand(b, first);
  return true;
}

/// A parameter is copied into a block nested below it (a loop or branch
/// body, or an isolated region such as a `gpu.all_reduce` body), and the
/// uses in that block take the copy, or, where it has none, one operand of
/// that type there does.
bool paramIntoRegion(ModuleOp, ModuleView &view, Random &random,
                     std::string &) {
  if (view.params.empty())
    return false;
  spec::ParamOp param = pick(view.params, random);
  if (param.getEquals())
    return false;
  llvm::SmallVector<Block *> blocks;
  param->getParentRegion()->walk([&](Block *block) {
    if (block != param->getBlock() && !block->empty())
      blocks.push_back(block);
  });
  if (blocks.empty())
    return false;
  Block *block = pick(blocks, random);
  auto inBlock = [&](OpOperand &use) {
    return block->findAncestorOpInBlock(*use.getOwner()) != nullptr;
  };
  llvm::SmallVector<OpOperand *> targets;
  if (llvm::none_of(param->getUses(), inBlock))
    for (Operation &op : *block)
      for (OpOperand &operand : op.getOpOperands())
        if (operand.get().getType() == param.getType())
          targets.push_back(&operand);
  if (llvm::none_of(param->getUses(), inBlock) && targets.empty())
    return false;
  OpBuilder builder = OpBuilder::atBlockBegin(block);
  Operation *copy = builder.clone(*param);
  if (!targets.empty())
    pick(targets, random)->set(copy->getResult(0));
  else
    param.getResult().replaceUsesWithIf(copy->getResult(0), inBlock);
  return true;
}

/// `equals %v` is added to a parameter (with a value of its type in scope
/// where it is defined) or dropped.
bool paramEquals(ModuleOp module, ModuleView &view, Random &random,
                 std::string &) {
  if (view.params.empty())
    return false;
  spec::ParamOp param = pick(view.params, random);
  if (param.getEquals()) {
    param.getEqualsMutable().clear();
    return true;
  }
  Operation *scope = param->getParentWithTrait<OpTrait::IsIsolatedFromAbove>();
  if (!scope)
    return false;
  DominanceInfo dominance(module);
  llvm::SmallVector<Value> candidates;
  scope->walk([&](Block *block) {
    for (Value argument : block->getArguments())
      if (argument.getType() == param.getType() &&
          dominance.properlyDominates(argument, param))
        candidates.push_back(argument);
  });
  if (candidates.empty())
    return false;
  param.getEqualsMutable().assign(pick(candidates, random));
  return true;
}

/// A function gains or loses `spec.kernel`.
bool toggleKernel(ModuleOp, ModuleView &view, Random &random, std::string &) {
  if (view.functions.empty())
    return false;
  FunctionOpInterface function = pick(view.functions, random);
  if (function->hasAttr(spec::kKernelAttrName))
    function->removeAttr(spec::kKernelAttrName);
  else
    function->setAttr(spec::kKernelAttrName,
                      UnitAttr::get(function.getContext()));
  return true;
}

/// An op without regions whose results are unused is erased (a launch
/// site, a store, a call): kernels lose launch sites, parameters lose uses.
bool eraseOp(ModuleOp module, ModuleView &view, Random &random, std::string &) {
  llvm::SmallVector<Operation *> erasable;
  module.walk([&](Operation *op) {
    // Ops with regions stay: erasing a whole loop or kernel body removes
    // more than it tests.
    if (op != module && op->use_empty() && op->getNumRegions() == 0 &&
        !op->hasTrait<OpTrait::IsTerminator>() &&
        !isa<FunctionOpInterface, gpu::GPUModuleOp, ModuleOp>(op))
      erasable.push_back(op);
  });
  if (erasable.empty())
    return false;
  pick(erasable, random)->erase();
  return true;
}

/// The pass options change: each option on or off, divisibility bounds
/// (valid and invalid), an operand rule for an op the module may hold.
bool changeOptions(ModuleOp, ModuleView &, Random &random,
                   std::string &options) {
  llvm::SmallVector<std::string> parts;
  if (coin(random, 2)) {
    // Up to the extremes: 2^62, 2^63, 2^64 - 1 and past what the option's
    // integer holds.
    llvm::SmallVector<std::string> bounds = {"0",
                                             "1",
                                             "2",
                                             "4",
                                             "8",
                                             "16",
                                             "64",
                                             "256",
                                             "512",
                                             "3",
                                             "4611686018427387904",
                                             "9223372036854775808",
                                             "18446744073709551615",
                                             "36893488147419103232"};
    parts.push_back("divisibility=" + pick(bounds, random));
  }
  if (coin(random, 2))
    parts.push_back("narrow-range=true");
  if (coin(random, 2))
    parts.push_back("hoist-into-host=true");
  if (coin(random, 3))
    parts.push_back("materialize-kept=false");
  if (coin(random, 3))
    parts.push_back("remarks=false");
  if (coin(random, 6)) {
    llvm::SmallVector<std::string> rules = {
        "address-operands=memref.store[2]", "address-operands=llvm.call[0]",
        "pass-through-operands=arith.select[1]",
        "pass-through-operands=func.call[0]", "address-operands=bad"};
    parts.push_back(pick(rules, random));
  }
  options = llvm::join(parts, " ");
  return true;
}

/// An op moves up its block, to just after the last of its operands defined
/// there (or to the block's start): calls and launch sites change places
/// with each other and with what the rewrite inserts before them.
bool moveOpEarlier(ModuleOp, ModuleView &view, Random &random, std::string &) {
  if (view.opsWithOperands.empty())
    return false;
  Operation *op = pick(view.opsWithOperands, random);
  Block *block = op->getBlock();
  if (!block || op == &block->front() || op->hasTrait<OpTrait::IsTerminator>())
    return false;
  Operation *after = nullptr;
  for (Operation *prev = op->getPrevNode(); prev && !after;
       prev = prev->getPrevNode())
    for (Value operand : op->getOperands())
      if (operand.getDefiningOp() == prev)
        after = prev;
  if (after == op->getPrevNode())
    return false;
  if (after)
    op->moveAfter(after);
  else
    op->moveBefore(&block->front());
  return true;
}

/// A host function gets a `func.constant` referring to some `func.func` of
/// the module: a reference that is no call, so that function can take no
/// new argument (hoist-into-host then passes constants to what it calls).
bool referenceFunction(ModuleOp module, ModuleView &, Random &random,
                       std::string &) {
  llvm::SmallVector<func::FuncOp> targets;
  llvm::SmallVector<func::FuncOp> hosts;
  for (auto function : module.getOps<func::FuncOp>()) {
    targets.push_back(function);
    if (!function.isExternal())
      hosts.push_back(function);
  }
  if (targets.empty() || hosts.empty())
    return false;
  func::FuncOp target = pick(targets, random);
  func::FuncOp host = pick(hosts, random);
  OpBuilder builder = OpBuilder::atBlockBegin(&host.getBody().front());
  func::ConstantOp::create(builder, host.getLoc(), target.getFunctionType(),
                           SymbolRefAttr::get(target));
  return true;
}

// -- The defect classes of issue 26 ------------------------------------------

/// The operands of functions' ops, those of `rocdl`/`amdgpu`/`memref.view`-
/// like ops (where bounds and sizes are read) first when `preferBounds`.
llvm::SmallVector<OpOperand *> operandsOfType(ModuleOp module,
                                              llvm::function_ref<bool(Type)> ok,
                                              bool preferBounds) {
  llvm::SmallVector<OpOperand *> all, bounds;
  module.walk([&](Operation *op) {
    if (!op->getParentOfType<FunctionOpInterface>() || isa<spec::ParamOp>(op))
      return;
    bool bound = isa<ROCDL::MakeBufferRsrcOp, memref::ViewOp, memref::SubViewOp,
                     memref::AllocOp, memref::AllocaOp>(op) ||
                 op->getDialect() ==
                     op->getContext()->getLoadedDialect<ROCDL::ROCDLDialect>();
    for (OpOperand &operand : op->getOpOperands())
      if (ok(operand.get().getType())) {
        all.push_back(&operand);
        if (bound)
          bounds.push_back(&operand);
      }
  });
  return preferBounds && !bounds.empty() ? bounds : all;
}

/// One operand travels through an aggregate before its use (a buffer bound
/// or resource through `!llvm.array`, a nested array in a struct, or a
/// vector): facets must follow every aggregate kind.
bool wrapInAggregate(ModuleOp module, ModuleView &, Random &random,
                     std::string &) {
  auto llvmElement = [](Type type) {
    return type.isSignlessInteger() || isa<LLVM::LLVMPointerType>(type);
  };
  auto vectorElement = [](Type type) {
    return type.isSignlessIntOrIndex() || isa<LLVM::LLVMPointerType>(type);
  };
  llvm::SmallVector<OpOperand *> operands =
      operandsOfType(module, vectorElement, !coin(random, 3));
  if (operands.empty())
    return false;
  OpOperand *use = pick(operands, random);
  Value value = use->get();
  Type type = value.getType();
  OpBuilder builder(use->getOwner());
  Location loc = use->getOwner()->getLoc();
  int64_t slot = std::uniform_int_distribution<int64_t>(0, 1)(random);
  Value result;
  unsigned form = std::uniform_int_distribution<unsigned>(0, 2)(random);
  if (form < 2 && !llvmElement(type))
    form = 2;
  if (form == 0) {
    auto array = LLVM::LLVMArrayType::get(type, 2);
    Value undef = LLVM::UndefOp::create(builder, loc, array);
    Value filled = LLVM::InsertValueOp::create(builder, loc, undef, value,
                                               ArrayRef<int64_t>{slot});
    result = LLVM::ExtractValueOp::create(builder, loc, filled,
                                          ArrayRef<int64_t>{slot});
  } else if (form == 1) {
    auto array = LLVM::LLVMArrayType::get(type, 2);
    auto outer = LLVM::LLVMStructType::getLiteral(
        builder.getContext(), {builder.getI32Type(), array});
    Value undef = LLVM::UndefOp::create(builder, loc, outer);
    Value filled = LLVM::InsertValueOp::create(builder, loc, undef, value,
                                               ArrayRef<int64_t>{1, slot});
    Value inner = LLVM::ExtractValueOp::create(builder, loc, filled,
                                               ArrayRef<int64_t>{1});
    result = LLVM::ExtractValueOp::create(builder, loc, inner,
                                          ArrayRef<int64_t>{slot});
  } else {
    auto vector = VectorType::get({2}, type);
    Value filled = vector::FromElementsOp::create(builder, loc, vector,
                                                  ValueRange{value, value});
    result = vector::ExtractOp::create(builder, loc, filled, slot);
  }
  use->set(result);
  return true;
}

/// A buffer resource is made again as an `!llvm.ptr<7>` fat pointer (same
/// base, stride, num_records and flags) and accessed by an LLVM memory op:
/// the access reads num_records whatever op it is.
bool fatPointerAccess(ModuleOp module, ModuleView &, Random &random,
                      std::string &) {
  llvm::SmallVector<ROCDL::MakeBufferRsrcOp> rsrcs;
  module.walk([&](ROCDL::MakeBufferRsrcOp op) { rsrcs.push_back(op); });
  if (rsrcs.empty())
    return false;
  ROCDL::MakeBufferRsrcOp rsrc = pick(rsrcs, random);
  OpBuilder builder(rsrc->getContext());
  builder.setInsertionPointAfter(rsrc);
  Location loc = rsrc.getLoc();
  auto fatType = LLVM::LLVMPointerType::get(builder.getContext(), 7);
  Value fat = ROCDL::MakeBufferRsrcOp::create(
      builder, loc, fatType, rsrc.getBase(), rsrc.getStride(),
      rsrc.getNumRecords(), rsrc.getFlags());
  Value zero = arith::ConstantOp::create(builder, loc, builder.getI32Type(),
                                         builder.getI32IntegerAttr(0));
  switch (std::uniform_int_distribution<unsigned>(0, 2)(random)) {
  case 0:
    LLVM::LoadOp::create(builder, loc, builder.getI32Type(), fat);
    break;
  case 1:
    LLVM::StoreOp::create(builder, loc, zero, fat);
    break;
  default:
    LLVM::AtomicRMWOp::create(builder, loc, LLVM::AtomicBinOp::add, fat, zero,
                              LLVM::AtomicOrdering::monotonic);
  }
  return true;
}

/// One value in two roles of one op: an operand takes the value of another
/// operand of the same type (shift and size of a view, offset and size of
/// a subview, base and bound of a resource...).
bool duplicateOperand(ModuleOp module, ModuleView &view, Random &random,
                      std::string &) {
  llvm::SmallVector<Operation *> ops;
  for (Operation *op : view.opsWithOperands)
    if (op->getNumOperands() >= 2)
      ops.push_back(op);
  if (ops.empty())
    return false;
  Operation *op = pick(ops, random);
  llvm::SmallVector<std::pair<unsigned, unsigned>> pairs;
  for (unsigned a = 0; a < op->getNumOperands(); ++a)
    for (unsigned b = 0; b < op->getNumOperands(); ++b)
      if (a != b && op->getOperand(a) != op->getOperand(b) &&
          op->getOperand(a).getType() == op->getOperand(b).getType())
        pairs.push_back({a, b});
  if (pairs.empty())
    return false;
  auto [a, b] = pick(pairs, random);
  op->setOperand(b, op->getOperand(a));
  return true;
}

/// A view's derived stride reaches a comparison: its strided metadata is
/// extracted and stride 0 compared against a constant.
bool compareStride(ModuleOp module, ModuleView &, Random &random,
                   std::string &) {
  llvm::SmallVector<Value> memrefs;
  module.walk([&](Operation *op) {
    if (!op->getParentOfType<FunctionOpInterface>())
      return;
    for (Value result : op->getResults())
      if (auto type = dyn_cast<MemRefType>(result.getType()))
        if (type.getRank() >= 1 && type.getLayout().isIdentity())
          memrefs.push_back(result);
  });
  if (memrefs.empty())
    return false;
  Value memref = pick(memrefs, random);
  OpBuilder builder(memref.getContext());
  builder.setInsertionPointAfterValue(memref);
  Location loc = memref.getLoc();
  auto metadata =
      memref::ExtractStridedMetadataOp::create(builder, loc, memref);
  Value bound = arith::ConstantOp::create(builder, loc, builder.getIndexType(),
                                          builder.getIndexAttr(64));
  arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                        metadata.getStrides().front(), bound);
  return true;
}

/// A parameter becomes an operand that must stay a compile-time immediate:
/// the immarg of `llvm.amdgcn.s.sleep` through `llvm.call_intrinsic`, or
/// a position of a multi-dimensional `vector.extract`.
bool paramToImmediate(ModuleOp, ModuleView &view, Random &random,
                      std::string &) {
  llvm::SmallVector<spec::ParamOp> params;
  for (spec::ParamOp param : view.params)
    if (param.getType().isSignlessIntOrIndex() && !param.getEquals())
      params.push_back(param);
  if (params.empty())
    return false;
  spec::ParamOp param = pick(params, random);
  OpBuilder builder(param->getContext());
  builder.setInsertionPointAfter(param);
  Location loc = param.getLoc();
  Type type = param.getType();
  if (coin(random, 2)) {
    Value index = param.getResult();
    if (!type.isIndex())
      index = arith::IndexCastOp::create(builder, loc, builder.getIndexType(),
                                         index);
    auto vectorType = VectorType::get({4, 4}, builder.getI32Type());
    Value vector = arith::ConstantOp::create(
        builder, loc, vectorType,
        DenseElementsAttr::get(vectorType, builder.getI32IntegerAttr(3)));
    Value zero = arith::ConstantOp::create(builder, loc, builder.getIndexType(),
                                           builder.getIndexAttr(0));
    vector::ExtractOp::create(builder, loc, vector,
                              ArrayRef<OpFoldResult>{index, zero});
    return true;
  }
  Value value = param.getResult();
  if (type.isIndex())
    value =
        arith::IndexCastOp::create(builder, loc, builder.getI32Type(), value);
  else if (type.getIntOrFloatBitWidth() > 32)
    value = arith::TruncIOp::create(builder, loc, builder.getI32Type(), value);
  else if (type.getIntOrFloatBitWidth() < 32)
    value = arith::ExtUIOp::create(builder, loc, builder.getI32Type(), value);
  LLVM::CallIntrinsicOp::create(builder, loc,
                                builder.getStringAttr("llvm.amdgcn.s.sleep"),
                                ValueRange{value});
  return true;
}

/// `equals` takes a value through a cast (index_cast, extsi, extui, trunci)
/// of a block argument or of a constant of another value: the contract and
/// the checks against known values must look through the same casts.
bool paramEqualsCast(ModuleOp module, ModuleView &view, Random &random,
                     std::string &) {
  if (view.params.empty())
    return false;
  spec::ParamOp param = pick(view.params, random);
  Type type = param.getType();
  if (!type.isSignlessIntOrIndex())
    return false;
  Operation *scope = param->getParentWithTrait<OpTrait::IsIsolatedFromAbove>();
  if (!scope)
    return false;
  DominanceInfo dominance(module);
  llvm::SmallVector<Value> sources;
  scope->walk([&](Block *block) {
    for (Value argument : block->getArguments())
      if (argument.getType() != type &&
          argument.getType().isSignlessIntOrIndex() &&
          dominance.properlyDominates(argument, param))
        sources.push_back(argument);
  });
  OpBuilder builder(param);
  Location loc = param.getLoc();
  Type other = type.isIndex() ? Type(builder.getI32Type())
                              : Type(builder.getIndexType());
  Value source;
  if (sources.empty() || coin(random, 3)) {
    // A constant that differs from the marked value: known at the
    // parameter.
    // (Wrapping, not overflowing: the marked value may be INT64_MAX.)
    int64_t value = static_cast<int64_t>(
        static_cast<uint64_t>(param.getValueAttr().getInt()) + 1);
    Type constantType = coin(random, 2) ? other : Type(builder.getI64Type());
    source =
        arith::ConstantOp::create(builder, loc, constantType,
                                  builder.getIntegerAttr(constantType, value));
  } else {
    source = pick(sources, random);
  }
  Type from = source.getType();
  Value cast;
  if (from.isIndex() || type.isIndex())
    cast = arith::IndexCastOp::create(builder, loc, type, source);
  else if (from.getIntOrFloatBitWidth() < type.getIntOrFloatBitWidth())
    cast = coin(random, 2)
               ? arith::ExtSIOp::create(builder, loc, type, source).getResult()
               : arith::ExtUIOp::create(builder, loc, type, source).getResult();
  else if (from.getIntOrFloatBitWidth() > type.getIntOrFloatBitWidth())
    cast = arith::TruncIOp::create(builder, loc, type, source);
  else
    cast = source;
  param.getEqualsMutable().assign(cast);
  return true;
}

/// An `llvm.func` becomes variadic and every `llvm.call` of it passes one
/// variadic argument more: a valid launch site, not an arity mismatch.
bool variadicCall(ModuleOp module, ModuleView &, Random &random,
                  std::string &) {
  llvm::SmallVector<LLVM::LLVMFuncOp> functions;
  module.walk([&](LLVM::LLVMFuncOp function) {
    if (!function.isExternal() && !function.isVarArg())
      functions.push_back(function);
  });
  if (functions.empty())
    return false;
  LLVM::LLVMFuncOp function = pick(functions, random);
  LLVM::LLVMFunctionType oldType = function.getFunctionType();
  auto newType = LLVM::LLVMFunctionType::get(
      oldType.getReturnType(), oldType.getParams(), /*isVarArg=*/true);
  function.setFunctionType(newType);
  std::optional<SymbolTable::UseRange> uses =
      SymbolTable::getSymbolUses(function, module);
  if (!uses)
    return true;
  for (const SymbolTable::SymbolUse &use : *uses) {
    auto call = dyn_cast<LLVM::CallOp>(use.getUser());
    if (!call)
      continue;
    OpBuilder builder(call);
    Value extra =
        LLVM::ConstantOp::create(builder, call.getLoc(), builder.getI32Type(),
                                 builder.getI32IntegerAttr(7));
    call.getCalleeOperandsMutable().append(extra);
    call.setVarCalleeTypeAttr(TypeAttr::get(newType));
    // Argument attributes, where the call has them, are one per operand:
    // the printer indexes them by operand (and crashes past their end).
    if (ArrayAttr argAttrs = call.getArgAttrsAttr()) {
      llvm::SmallVector<Attribute> attrs(argAttrs.begin(), argAttrs.end());
      attrs.push_back(builder.getDictionaryAttr({}));
      call.setArgAttrsAttr(builder.getArrayAttr(attrs));
    }
  }
  return true;
}

/// A parameter is made again at another integer type (index, i32, i64) and
/// cast back, so that one name has two types across kernels: under
/// hoist-into-host, a host gets one argument per (name, type).
bool paramRetype(ModuleOp, ModuleView &view, Random &random, std::string &) {
  llvm::SmallVector<spec::ParamOp> params;
  for (spec::ParamOp param : view.params)
    if (param.getType().isSignlessIntOrIndex() && !param.getEquals() &&
        (param.getType().isIndex() ||
         param.getType().getIntOrFloatBitWidth() >= 32))
      params.push_back(param);
  if (params.empty())
    return false;
  spec::ParamOp param = pick(params, random);
  OpBuilder builder(param);
  Location loc = param.getLoc();
  Type type = param.getType();
  llvm::SmallVector<Type> others;
  for (Type candidate :
       {Type(builder.getIndexType()), Type(builder.getI32Type()),
        Type(builder.getI64Type())})
    if (candidate != type)
      others.push_back(candidate);
  Type other = pick(others, random);
  int64_t value = param.getValueAttr().getInt();
  if (other.isInteger(32))
    value = static_cast<int32_t>(value);
  Value retyped =
      spec::ParamOp::create(builder, loc, param.getName(), value, other);
  Value back;
  if (other.isIndex() || type.isIndex())
    back = arith::IndexCastOp::create(builder, loc, type, retyped);
  else if (other.getIntOrFloatBitWidth() < type.getIntOrFloatBitWidth())
    back = arith::ExtSIOp::create(builder, loc, type, retyped);
  else
    back = arith::TruncIOp::create(builder, loc, type, retyped);
  param.getResult().replaceAllUsesWith(back);
  param.erase();
  return true;
}

constexpr std::pair<const char *, Mutation> kMutations[] = {
    {"constant-to-param", constantToParam},
    {"param-edge-value", paramEdgeValue},
    {"param-share-name", paramShareName},
    {"replace-operand", replaceOperand},
    {"swap-operands", swapOperands},
    {"param-into-region", paramIntoRegion},
    {"param-equals", paramEquals},
    {"toggle-kernel", toggleKernel},
    {"erase-op", eraseOp},
    {"options", changeOptions},
    {"move-op-earlier", moveOpEarlier},
    {"reference-function", referenceFunction},
    {"wrap-in-aggregate", wrapInAggregate},
    {"fat-pointer-access", fatPointerAccess},
    {"duplicate-operand", duplicateOperand},
    {"compare-stride", compareStride},
    {"param-to-immediate", paramToImmediate},
    {"param-equals-cast", paramEqualsCast},
    {"variadic-call", variadicCall},
    {"param-retype", paramRetype},
};

} // namespace

std::optional<Mutant> mutateStructure(llvm::StringRef source, uint32_t seed) {
  MLIRContext context(fuzzRegistry(), MLIRContext::Threading::DISABLED);
  ScopedDiagnosticHandler quiet(&context,
                                [](Diagnostic &) { return success(); });
  // Mutations create spec.params in modules that may hold none yet.
  context.getOrLoadDialect<spec::SpecDialect>();
  // And the ops of the issue-26 mutations (aggregates, fat pointers,
  // strided metadata, casts) in modules that may hold none yet.
  context.loadDialect<arith::ArithDialect, LLVM::LLVMDialect,
                      memref::MemRefDialect, ROCDL::ROCDLDialect,
                      vector::VectorDialect>();
  // The parser reads up to a NUL; a std::string has one after its text.
  std::string text = source.str();
  std::optional<std::string> options = optionsOf(text);
  Random random(seed);
  std::uniform_int_distribution<size_t> which(0, std::size(kMutations) - 1);
  for (int attempt = 0; attempt < 16; ++attempt) {
    // A fresh parse per attempt: a mutation that leaves an invalid module
    // is thrown away with it.
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
    if (!module || failed(verify(*module)))
      return std::nullopt;
    ModuleView view(*module);
    const auto &[kind, mutation] = kMutations[which(random)];
    std::string newOptions = options.value_or("");
    if (!mutation(*module, view, random, newOptions) || failed(verify(*module)))
      continue;
    Mutant mutant;
    mutant.kind = kind;
    llvm::raw_string_ostream os(mutant.text);
    if (!newOptions.empty())
      os << kOptionsPrefix << " " << newOptions << "\n";
    module->print(os);
    return mutant;
  }
  return std::nullopt;
}

} // namespace hoistfuzz
