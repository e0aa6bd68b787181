//===- StrideUseAnalysis.cpp - Are a parameter's uses address-only? -------===//
//
// The rules follow DESIGN.md: address arithmetic passes the parameter on,
// index and offset operands of memory accesses absorb it, and every other use
// keeps the kernel specialized with a named reason. Unknown operations block:
// the analysis only hoists what it can prove.
//
//===----------------------------------------------------------------------===//

#include "flyhoist/Analysis/StrideUseAnalysis.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Index/IR/IndexOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <deque>

using namespace mlir;
using namespace mlir::flyhoist;

//===----------------------------------------------------------------------===//
// UseClassification and the registry
//===----------------------------------------------------------------------===//

UseClassification UseClassification::passThrough(ValueRange values) {
  UseClassification result;
  result.kind = UseKind::PassThrough;
  result.forwardedTo.assign(values.begin(), values.end());
  return result;
}

UseClassification UseClassification::sink(ValueRange metadataOf) {
  UseClassification result;
  result.kind = UseKind::AddressSink;
  result.forwardedTo.assign(metadataOf.begin(), metadataOf.end());
  return result;
}

UseClassification UseClassification::blocking(StringRef reason) {
  UseClassification result;
  result.kind = UseKind::Blocking;
  result.reason = reason.str();
  return result;
}

void StrideUseRegistry::registerClassifier(StringRef operationName,
                                           UseClassifier classifier) {
  classifiers[operationName] = std::move(classifier);
}

const UseClassifier *StrideUseRegistry::lookup(StringRef operationName) const {
  if (classifiers.empty()) // the common case: skip hashing the name per use
    return nullptr;
  auto it = classifiers.find(operationName);
  return it == classifiers.end() ? nullptr : &it->second;
}

StrideUseRegistry &StrideUseRegistry::global() {
  static StrideUseRegistry registry;
  return registry;
}

//===----------------------------------------------------------------------===//
// Built-in rules
//===----------------------------------------------------------------------===//

// Reasons, worded to follow "kept specialized: ".
static constexpr StringLiteral kLoopBound = "loop bound or step";
static constexpr StringLiteral kComparison = "comparison";
static constexpr StringLiteral kClamp = "select/min/max (a clamp)";
static constexpr StringLiteral kBranchCondition = "branch condition";
static constexpr StringLiteral kDivision =
    "divisor or remainder (runtime division is slow)";
static constexpr StringLiteral kAllocation = "allocation or shape size";
static constexpr StringLiteral kStoredData = "the value stored as data";
static constexpr StringLiteral kCallOrReturn = "call or return operand";
static constexpr StringLiteral kLaunchDims = "launch dimensions";
static constexpr StringLiteral kShiftAmount = "shift amount";
static constexpr StringLiteral kMaskOrPadding =
    "mask, padding or cache-policy operand of a memory access";

/// Whether `use` is in ODS operand group `group` of `op`.
template <typename OpTy>
static bool inOdsGroup(OpTy op, unsigned group, OpOperand &use) {
  auto [start, length] = op.getODSOperandIndexAndLength(group);
  unsigned number = use.getOperandNumber();
  return number >= start && number < start + length;
}

/// A memory access: `dataGroups` are ODS groups that hold data (stored value,
/// atomic operand), `otherGroups` hold masks, padding or policy bits. Every
/// other operand (the base and the indices/offsets) is an address.
template <typename OpTy>
static UseClassification
memoryAccess(OpTy op, OpOperand &use, std::initializer_list<unsigned> dataGroups,
             std::initializer_list<unsigned> otherGroups = {}) {
  for (unsigned group : dataGroups)
    if (inOdsGroup(op, group, use))
      return UseClassification::blocking(kStoredData);
  for (unsigned group : otherGroups)
    if (inOdsGroup(op, group, use))
      return UseClassification::blocking(kMaskOrPadding);
  return UseClassification::sink();
}

/// An affine map with a division or remainder would put a runtime division
/// on the parameter; one without is address arithmetic.
static bool hasDivision(AffineMap map) {
  bool found = false;
  for (AffineExpr expr : map.getResults())
    expr.walk([&](AffineExpr sub) {
      if (sub.getKind() == AffineExprKind::FloorDiv ||
          sub.getKind() == AffineExprKind::CeilDiv ||
          sub.getKind() == AffineExprKind::Mod)
        found = true;
    });
  return found;
}

/// Affine accesses: map operands are addresses unless the map divides.
template <typename OpTy>
static UseClassification affineAccess(OpTy op, OpOperand &use,
                                      bool firstOperandIsData) {
  if (firstOperandIsData && use.getOperandNumber() == 0)
    return UseClassification::blocking(kStoredData);
  if (hasDivision(op.getAffineMap()))
    return UseClassification::blocking(kDivision);
  return UseClassification::sink();
}

/// A view (reinterpret_cast, subview): offsets and strides are address
/// operands, sizes are metadata. In both cases the view's layout now holds
/// the parameter, so reads of that layout are followed through the result.
static UseClassification viewOperand(Operation *view) {
  return UseClassification::sink(view->getResults());
}

/// If `use` is among the `forwarded` operands, adds the successor input it
/// reaches to `reached`.
static void addForwardedInput(OperandRange forwarded, ValueRange inputs,
                              OpOperand &use, SmallVectorImpl<Value> &reached) {
  if (forwarded.empty()) // an empty range has no operand index to ask for
    return;
  unsigned first = forwarded.getBeginOperandIndex();
  unsigned number = use.getOperandNumber();
  if (number < first || number >= first + forwarded.size())
    return;
  if (unsigned index = number - first; index < inputs.size())
    reached.push_back(inputs[index]);
}

/// Uses by region-holding control flow (scf.for, scf.if, scf.while, ...):
/// forwarded operands reach block arguments and results; the others are
/// bounds or conditions.
static UseClassification regionBranchOperand(RegionBranchOpInterface branch,
                                             OpOperand &use) {
  SmallVector<RegionSuccessor> successors;
  branch.getSuccessorRegions(RegionBranchPoint::parent(), successors);
  SmallVector<Value> reached;
  for (const RegionSuccessor &successor : successors)
    addForwardedInput(branch.getEntrySuccessorOperands(successor),
                      successor.getSuccessorInputs(), use, reached);
  if (!reached.empty())
    return UseClassification::passThrough(reached);
  if (isa<scf::ForOp, scf::ParallelOp, scf::ForallOp, affine::AffineForOp,
          affine::AffineParallelOp>(branch.getOperation()))
    return UseClassification::blocking(kLoopBound);
  return UseClassification::blocking(kBranchCondition);
}

/// Uses by region terminators (scf.yield, scf.condition): forwarded operands
/// reach the parent's results or the next iteration's block arguments.
static UseClassification regionTerminatorOperand(
    RegionBranchTerminatorOpInterface terminator, OpOperand &use) {
  auto parent = dyn_cast<RegionBranchOpInterface>(terminator->getParentOp());
  if (!parent)
    return UseClassification::blocking(kCallOrReturn);
  SmallVector<RegionSuccessor> successors;
  parent.getSuccessorRegions(RegionBranchPoint(terminator), successors);
  SmallVector<Value> reached;
  for (const RegionSuccessor &successor : successors)
    addForwardedInput(terminator.getSuccessorOperands(successor),
                      successor.getSuccessorInputs(), use, reached);
  if (!reached.empty())
    return UseClassification::passThrough(reached);
  return UseClassification::blocking(kBranchCondition);
}

/// The rules for operations the analysis knows by their class.
static std::optional<UseClassification> classifyKnownOp(OpOperand &use) {
  Operation *op = use.getOwner();
  unsigned number = use.getOperandNumber();
  auto all = [&] { return UseClassification::passThrough(op->getResults()); };
  auto shiftLeft = [&] {
    return number == 0 ? all() : UseClassification::blocking(kShiftAmount);
  };
  using Result = std::optional<UseClassification>;
  return llvm::TypeSwitch<Operation *, Result>(op)
      // Address arithmetic.
      .Case<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::IndexCastOp,
            arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp,
            arith::TruncIOp, index::AddOp, index::SubOp, index::MulOp,
            index::CastSOp, index::CastUOp, LLVM::AddOp, LLVM::SubOp,
            LLVM::MulOp, LLVM::SExtOp, LLVM::ZExtOp, LLVM::TruncOp>(
          [&](Operation *) { return all(); })
      .Case<arith::ShLIOp, index::ShlOp, LLVM::ShlOp>(
          [&](Operation *) { return shiftLeft(); })
      .Case([&](affine::AffineApplyOp apply) -> Result {
        if (hasDivision(apply.getAffineMap()))
          return UseClassification::blocking(kDivision);
        return all();
      })
      // Blocking arithmetic.
      .Case<arith::CmpIOp, index::CmpOp, LLVM::ICmpOp>(
          [&](Operation *) { return UseClassification::blocking(kComparison); })
      .Case<arith::SelectOp, arith::MinSIOp, arith::MinUIOp, arith::MaxSIOp,
            arith::MaxUIOp, index::MinSOp, index::MinUOp, index::MaxSOp,
            index::MaxUOp, LLVM::SelectOp, LLVM::SMinOp, LLVM::SMaxOp,
            LLVM::UMinOp, LLVM::UMaxOp>(
          [&](Operation *) { return UseClassification::blocking(kClamp); })
      .Case<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
            arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp,
            index::DivSOp, index::DivUOp, index::RemSOp, index::RemUOp,
            index::CeilDivSOp, index::CeilDivUOp, index::FloorDivSOp,
            LLVM::SDivOp, LLVM::UDivOp, LLVM::SRemOp, LLVM::URemOp>(
          [&](Operation *) { return UseClassification::blocking(kDivision); })
      // Memory accesses (ODS operand groups as in the op definitions).
      .Case([&](memref::LoadOp load) { return memoryAccess(load, use, {}); })
      .Case([&](memref::StoreOp store) { return memoryAccess(store, use, {0}); })
      .Case([&](memref::AtomicRMWOp rmw) { return memoryAccess(rmw, use, {0}); })
      .Case([&](memref::PrefetchOp prefetch) {
        return memoryAccess(prefetch, use, {});
      })
      .Case([&](vector::LoadOp load) { return memoryAccess(load, use, {}); })
      .Case([&](vector::StoreOp store) { return memoryAccess(store, use, {0}); })
      .Case([&](vector::TransferReadOp read) {
        return memoryAccess(read, use, {}, {2, 3});
      })
      .Case([&](vector::TransferWriteOp write) {
        return memoryAccess(write, use, {0}, {3});
      })
      .Case([&](vector::MaskedLoadOp load) {
        return memoryAccess(load, use, {}, {2, 3});
      })
      .Case([&](vector::MaskedStoreOp store) {
        return memoryAccess(store, use, {3}, {2});
      })
      .Case([&](affine::AffineLoadOp load) {
        return affineAccess(load, use, /*firstOperandIsData=*/false);
      })
      .Case([&](affine::AffineStoreOp store) {
        return affineAccess(store, use, /*firstOperandIsData=*/true);
      })
      .Case([&](affine::AffineVectorLoadOp load) {
        return affineAccess(load, use, /*firstOperandIsData=*/false);
      })
      .Case([&](affine::AffineVectorStoreOp store) {
        return affineAccess(store, use, /*firstOperandIsData=*/true);
      })
      .Case([&](LLVM::LoadOp load) { return memoryAccess(load, use, {}); })
      .Case([&](LLVM::StoreOp store) { return memoryAccess(store, use, {0}); })
      .Case([&](LLVM::GEPOp gep) { return memoryAccess(gep, use, {}); })
      .Case([&](amdgpu::RawBufferLoadOp load) {
        return memoryAccess(load, use, {});
      })
      .Case<amdgpu::RawBufferStoreOp, amdgpu::RawBufferAtomicFaddOp,
            amdgpu::RawBufferAtomicFmaxOp, amdgpu::RawBufferAtomicSmaxOp,
            amdgpu::RawBufferAtomicUminOp>([&](auto store) {
        return memoryAccess(store, use, {0});
      })
      .Case([&](amdgpu::RawBufferAtomicCmpswapOp cmpswap) {
        return memoryAccess(cmpswap, use, {0, 1});
      })
      .Case([&](ROCDL::RawPtrBufferLoadOp load) {
        return memoryAccess(load, use, {}, {3});
      })
      .Case([&](ROCDL::RawPtrBufferStoreOp store) {
        return memoryAccess(store, use, {0}, {4});
      })
      .Case([&](ROCDL::RawPtrBufferAtomicCmpSwap cmpswap) {
        return memoryAccess(cmpswap, use, {0, 1}, {5});
      })
      .Case<ROCDL::RawPtrBufferAtomicFaddOp, ROCDL::RawPtrBufferAtomicFmaxOp,
            ROCDL::RawPtrBufferAtomicSmaxOp, ROCDL::RawPtrBufferAtomicUminOp>(
          [&](auto atomic) { return memoryAccess(atomic, use, {0}, {4}); })
      // Views: the parameter enters the layout; reads of it are followed.
      .Case<memref::ReinterpretCastOp, memref::SubViewOp, memref::CastOp,
            memref::ExpandShapeOp, memref::CollapseShapeOp,
            memref::TransposeOp, memref::MemorySpaceCastOp>(
          [&](Operation *view) { return viewOperand(view); })
      .Case<memref::DimOp>([&](Operation *) { return all(); })
      .Case([&](memref::ExtractStridedMetadataOp metadata) {
        // The base buffer carries no layout; offset, sizes and strides may.
        SmallVector<Value> layout(metadata->getResults().drop_front());
        return UseClassification::passThrough(layout);
      })
      .Case<memref::DeallocOp, memref::ExtractAlignedPointerAsIndexOp>(
          [&](Operation *) { return UseClassification::sink(); })
      // Allocations and shapes.
      .Case<memref::AllocOp, memref::AllocaOp, memref::ViewOp, gpu::AllocOp,
            vector::CreateMaskOp>(
          [&](Operation *) { return UseClassification::blocking(kAllocation); })
      // Calls, returns and launches.
      .Case<func::CallOp, func::CallIndirectOp, LLVM::CallOp>(
          [&](Operation *) { return UseClassification::blocking(kCallOrReturn); })
      .Case([&](gpu::LaunchFuncOp launch) -> Result {
        OperandRange kernelOperands = launch.getKernelOperands();
        unsigned first = kernelOperands.getBeginOperandIndex();
        if (number >= first && number < first + kernelOperands.size())
          return UseClassification::blocking(kCallOrReturn);
        return UseClassification::blocking(kLaunchDims);
      })
      .Case<gpu::LaunchOp>(
          [&](Operation *) { return UseClassification::blocking(kLaunchDims); })
      .Default([](Operation *) -> Result { return std::nullopt; });
}

UseClassification mlir::flyhoist::classifyUse(OpOperand &use,
                                              const StrideUseRegistry &registry) {
  Operation *op = use.getOwner();
  if (const UseClassifier *custom = registry.lookup(op->getName().getStringRef()))
    if (std::optional<UseClassification> verdict = (*custom)(use))
      return *verdict;
  if (std::optional<UseClassification> verdict = classifyKnownOp(use))
    return *verdict;
  // Function returns are return-like terminators too: test them first.
  if (op->hasTrait<OpTrait::ReturnLike>() &&
      isa<FunctionOpInterface>(op->getParentOp()))
    return UseClassification::blocking(kCallOrReturn);
  if (auto branch = dyn_cast<RegionBranchOpInterface>(op))
    return regionBranchOperand(branch, use);
  if (auto terminator = dyn_cast<RegionBranchTerminatorOpInterface>(op))
    return regionTerminatorOperand(terminator, use);
  if (auto branch = dyn_cast<BranchOpInterface>(op)) {
    if (std::optional<BlockArgument> argument =
            branch.getSuccessorBlockArgument(use.getOperandNumber()))
      return UseClassification::passThrough({*argument});
    return UseClassification::blocking(kBranchCondition);
  }
  return UseClassification::blocking(
      ("used by '" + op->getName().getStringRef() +
       "', which the analysis does not know as address arithmetic")
          .str());
}

ParamUseSummary mlir::flyhoist::analyzeParamUses(
    ArrayRef<Value> roots, const StrideUseRegistry &registry) {
  ParamUseSummary summary;
  llvm::DenseSet<Value> visited;
  std::deque<Value> worklist;
  auto enqueue = [&](Value value) {
    if (visited.insert(value).second)
      worklist.push_back(value);
  };
  for (Value root : roots)
    enqueue(root);
  while (!worklist.empty()) {
    Value value = worklist.front();
    worklist.pop_front();
    for (OpOperand &use : value.getUses()) {
      UseClassification verdict = classifyUse(use, registry);
      switch (verdict.kind) {
      case UseKind::Blocking:
        summary.blockingUses.push_back(
            BlockingUse{use.getOwner(), std::move(verdict.reason)});
        break;
      case UseKind::AddressSink:
        ++summary.numAddressSinks;
        break;
      case UseKind::PassThrough:
        break;
      }
      for (Value reached : verdict.forwardedTo)
        enqueue(reached);
    }
  }
  return summary;
}
