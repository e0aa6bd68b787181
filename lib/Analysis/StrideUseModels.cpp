//===- StrideUseModels.cpp - The analysis' rules for upstream ops ---------===//
//
// StrideUseOpInterface external models for the upstream operations kernels
// are written with. The rules follow docs/DESIGN.md: address arithmetic
// passes a parameter on, address operands of memory accesses absorb it, and
// every other use keeps the kernel specialized with a named reason.
//
// Every rule names its operands through the operation's generated accessors
// (`getIndicesMutable()`, ...) and compares operand *positions*, never
// values: one SSA value may be both an offset and a size of one operation,
// and each position is classified on its own. An operand that no rule of
// its operation names is blocking (`unclassified`), never an address.
//
//===----------------------------------------------------------------------===//

#include "flyhoist/Analysis/StrideUseAnalysis.h"
#include "flyhoist/Dialect/Spec/SpecDialect.h"
#include "flyhoist/Support/MLIRCompat.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/Index/IR/IndexOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::flyhoist;

namespace {
using Kind = UseVerdict::Kind;

//===----------------------------------------------------------------------===//
// Naming operands
//===----------------------------------------------------------------------===//

/// Whether `use` is the operand `operand` (by position, not by value).
bool is(OpOperand &use, OpOperand &operand) { return &use == &operand; }

/// Whether `use` is one of `operands` (by position, not by value).
bool in(OpOperand &use, MutableOperandRange operands) {
  for (OpOperand &operand : operands)
    if (&operand == &use)
      return true;
  return false;
}

//===----------------------------------------------------------------------===//
// Roles of operands
//===----------------------------------------------------------------------===//

/// An operand no rule of its operation names: fail closed.
UseVerdict unclassified() {
  return UseVerdict::blocking(BlockReason::UnknownOperand);
}
/// A value stored to memory.
UseVerdict data() { return UseVerdict::blocking(BlockReason::StoredData); }
/// A mask, padding, element count or cache-policy operand.
UseVerdict policy() { return UseVerdict::blocking(BlockReason::MaskOrPadding); }

/// Whether a value of `type` can hold a pointer, and with it a buffer
/// resource's bound.
bool canHoldPointer(Type type) {
  if (isa<LLVM::LLVMPointerType>(type))
    return true;
  if (auto vector = dyn_cast<VectorType>(type))
    return canHoldPointer(vector.getElementType());
  if (auto array = dyn_cast<LLVM::LLVMArrayType>(type))
    return canHoldPointer(array.getElementType());
  if (auto structType = dyn_cast<LLVM::LLVMStructType>(type))
    return llvm::any_of(structType.getBody(), canHoldPointer);
  return false;
}

/// The operand an access goes through or indexes with: an index or offset
/// is an address; a pointer (or vector of pointers) is an address whose
/// buffer bound, for a fat pointer (`!llvm.ptr<7>`) or a buffer resource,
/// the hardware checks the access against; a memref is read through its
/// layout, and its sizes only when `readsSizes`.
UseVerdict address(OpOperand &use, unsigned facet, bool readsSizes = false) {
  Type type = use.get().getType();
  if (isa<BaseMemRefType>(type)) {
    if (facet == kViewSizesFacet)
      return readsSizes ? UseVerdict::blocking(BlockReason::SizeReadBack)
                        : UseVerdict::notRead();
    return UseVerdict::sink();
  }
  if (facet == kBufferBoundFacet && canHoldPointer(type))
    return UseVerdict::blocking(BlockReason::SizeReadBack);
  return UseVerdict::sink();
}

/// Whether the affine map operand `position` (dims first, then symbols)
/// takes part in a division or remainder in `map`.
bool isDividedInMap(AffineMap map, unsigned position) {
  bool isDim = position < map.getNumDims();
  unsigned index = isDim ? position : position - map.getNumDims();
  auto mentions = [&](AffineExpr expr) {
    return isDim ? expr.isFunctionOfDim(index) : expr.isFunctionOfSymbol(index);
  };
  bool divided = false;
  for (AffineExpr result : map.getResults())
    result.walk([&](AffineExpr sub) {
      if (sub.getKind() != AffineExprKind::FloorDiv &&
          sub.getKind() != AffineExprKind::CeilDiv &&
          sub.getKind() != AffineExprKind::Mod)
        return;
      auto binary = cast<AffineBinaryOpExpr>(sub);
      if (mentions(binary.getLHS()) || mentions(binary.getRHS()))
        divided = true;
    });
  return divided;
}

/// A use among the map operands `mapOperands` of an affine op with `map`:
/// `verdict` unless the map divides that operand.
UseVerdict affineMapOperand(AffineMap map, MutableOperandRange mapOperands,
                            OpOperand &use, UseVerdict verdict) {
  unsigned position = 0;
  for (OpOperand &operand : mapOperands) {
    if (&operand == &use)
      return isDividedInMap(map, position)
                 ? UseVerdict::blocking(BlockReason::Division)
                 : verdict;
    ++position;
  }
  return unclassified();
}

/// A dynamic position of `vector.extract`/`vector.insert` into a vector of
/// rank `rank`, whose static positions are `staticPosition`, that takes
/// `positions`: the LLVM lowering indexes nested aggregates with constants
/// only, so every position but a last one that selects a scalar must be an
/// immediate; that last one indexes registers at run time.
UseVerdict vectorPosition(OpOperand &use, MutableOperandRange positions,
                          ArrayRef<int64_t> staticPosition, int64_t rank) {
  unsigned dynamicIndex = 0;
  for (OpOperand &operand : positions) {
    if (&operand == &use)
      break;
    ++dynamicIndex;
  }
  if (dynamicIndex == positions.size())
    return unclassified();
  // The place of this operand among all positions.
  unsigned seen = 0;
  for (auto [place, position] : llvm::enumerate(staticPosition)) {
    if (!ShapedType::isDynamic(position))
      continue;
    if (seen++ != dynamicIndex)
      continue;
    bool selectsScalar = static_cast<int64_t>(staticPosition.size()) == rank;
    if (place + 1 == staticPosition.size() && selectsScalar)
      return UseVerdict::blocking(BlockReason::VectorPosition);
    return UseVerdict::blocking(BlockReason::MustBeImmediate);
  }
  return unclassified();
}

//===----------------------------------------------------------------------===//
// Rules and models
//===----------------------------------------------------------------------===//

/// A StrideUseOpInterface model that classifies with `Rule::classify`.
template <typename Rule, typename OpTy>
struct RuleModel
    : public StrideUseOpInterface::ExternalModel<RuleModel<Rule, OpTy>, OpTy> {
  UseVerdict classifyStrideUse(Operation *op, OpOperand &use,
                               unsigned facet) const {
    return Rule::classify(cast<OpTy>(op), use, facet);
  }
};

/// Attaches the model of `Rule` to each of `OpTys`.
template <typename Rule, typename... OpTys> void attach(MLIRContext *context) {
  (OpTys::template attachInterface<RuleModel<Rule, OpTys>>(*context), ...);
}

/// Address arithmetic: every operand passes the parameter to every result,
/// in the facet it came in.
struct PassThrough {
  static UseVerdict classify(Operation *op, OpOperand &, unsigned facet) {
    return UseVerdict::passThroughResults(op, facet);
  }
};

/// Operations whose every operand keeps the parameter, for `Reason`.
template <BlockReason Reason> struct Blocking {
  static UseVerdict classify(Operation *, OpOperand &, unsigned) {
    return UseVerdict::blocking(Reason);
  }
};

/// Shifts: the shifted value passes on; the amount is not an address.
struct Shift {
  template <typename OpTy>
  static UseVerdict classify(OpTy op, OpOperand &use, unsigned facet) {
    if (is(use, op.getLhsMutable()))
      return UseVerdict::passThroughResults(op, facet);
    if (is(use, op.getRhsMutable()))
      return UseVerdict::blocking(BlockReason::ShiftAmount);
    return unclassified();
  }
};

/// select: choosing between pointers or fat pointers (what canonicalize
/// makes of an scf.if yielding them) passes the chosen value on; choosing
/// between integers is where clamps live, and the condition is a condition.
struct Select {
  template <typename OpTy>
  static UseVerdict classify(OpTy op, OpOperand &use, unsigned facet) {
    if (is(use, op.getConditionMutable()))
      return UseVerdict::blocking(BlockReason::Clamp);
    if (!is(use, op.getTrueValueMutable()) &&
        !is(use, op.getFalseValueMutable()))
      return unclassified();
    if (isa<LLVM::LLVMPointerType, LLVM::LLVMStructType>(op.getType()))
      return UseVerdict::passThroughResults(op, facet);
    return UseVerdict::blocking(BlockReason::Clamp);
  }
};

//===----------------------------------------------------------------------===//
// Memory accesses
//===----------------------------------------------------------------------===//

/// Loads through a memref or pointer and its indices (`memref.load`,
/// `memref.prefetch`, `vector.load`, ...).
struct MemRefLoad {
  template <typename OpTy>
  static UseVerdict classify(OpTy op, OpOperand &use, unsigned facet) {
    if (is(use, op.getMemrefMutable()) || in(use, op.getIndicesMutable()))
      return address(use, facet);
    return unclassified();
  }
};
struct MemRefStore {
  template <typename OpTy>
  static UseVerdict classify(OpTy op, OpOperand &use, unsigned facet) {
    if (is(use, op.getValueMutable()))
      return data();
    return MemRefLoad::classify(op, use, facet);
  }
};
struct MemRefCopy {
  static UseVerdict classify(memref::CopyOp copy, OpOperand &use,
                             unsigned facet) {
    // A copy walks the whole view: its sizes are the trip counts.
    if (is(use, copy.getSourceMutable()) || is(use, copy.getTargetMutable()))
      return address(use, facet, /*readsSizes=*/true);
    return unclassified();
  }
};

struct VectorLoad {
  template <typename OpTy>
  static UseVerdict classify(OpTy op, OpOperand &use, unsigned facet) {
    if (is(use, op.getBaseMutable()) || in(use, op.getIndicesMutable()))
      return address(use, facet);
    return unclassified();
  }
};
struct VectorStore {
  template <typename OpTy>
  static UseVerdict classify(OpTy op, OpOperand &use, unsigned facet) {
    if (is(use, op.getValueToStoreMutable()))
      return data();
    return VectorLoad::classify(op, use, facet);
  }
};
/// vector.maskedload/maskedstore/gather/scatter: the mask and pass-through
/// are policy; gathers' offset vectors are addresses.
struct VectorMasked {
  template <typename OpTy>
  static UseVerdict classify(OpTy op, OpOperand &use, unsigned facet) {
    if (is(use, op.getMaskMutable()))
      return policy();
    if constexpr (std::is_same_v<OpTy, vector::MaskedLoadOp> ||
                  std::is_same_v<OpTy, vector::GatherOp>)
      if (is(use, op.getPassThruMutable()))
        return policy();
    if constexpr (std::is_same_v<OpTy, vector::MaskedStoreOp> ||
                  std::is_same_v<OpTy, vector::ScatterOp>)
      if (is(use, op.getValueToStoreMutable()))
        return data();
    if constexpr (std::is_same_v<OpTy, vector::GatherOp> ||
                  std::is_same_v<OpTy, vector::ScatterOp>)
      if (in(use, op.getOffsetsMutable()))
        return address(use, facet);
    return VectorLoad::classify(op, use, facet);
  }
};
/// Transfers: without in_bounds on every dimension the mask compares the
/// indices against the view's sizes.
struct VectorTransfer {
  template <typename OpTy>
  static UseVerdict classify(OpTy op, OpOperand &use, unsigned facet) {
    if (in(use, op.getMaskMutable()))
      return policy();
    if constexpr (std::is_same_v<OpTy, vector::TransferReadOp>)
      if (is(use, op.getPaddingMutable()))
        return policy();
    if constexpr (std::is_same_v<OpTy, vector::TransferWriteOp>)
      if (is(use, op.getValueToStoreMutable()))
        return data();
    if (is(use, op.getBaseMutable()) || in(use, op.getIndicesMutable()))
      return address(use, facet, op.hasOutOfBoundsDim());
    return unclassified();
  }
};

struct AffineAccess {
  template <typename OpTy>
  static UseVerdict classify(OpTy op, OpOperand &use, unsigned facet) {
    if constexpr (std::is_same_v<OpTy, affine::AffineStoreOp> ||
                  std::is_same_v<OpTy, affine::AffineVectorStoreOp>)
      if (is(use, op.getValueMutable()))
        return data();
    if (is(use, op.getMemrefMutable()))
      return address(use, facet);
    return affineMapOperand(op.getAffineMap(), op.getIndicesMutable(), use,
                            UseVerdict::sink());
  }
};
struct AffineApply {
  static UseVerdict classify(affine::AffineApplyOp apply, OpOperand &use,
                             unsigned facet) {
    return affineMapOperand(apply.getAffineMap(), apply.getMapOperandsMutable(),
                            use, UseVerdict::passThroughResults(apply, facet));
  }
};

struct MmaLoad {
  static UseVerdict classify(gpu::SubgroupMmaLoadMatrixOp load, OpOperand &use,
                             unsigned facet) {
    if (is(use, load.getSrcMemrefMutable()) ||
        in(use, load.getIndicesMutable()))
      return address(use, facet);
    return unclassified();
  }
};
struct MmaStore {
  static UseVerdict classify(gpu::SubgroupMmaStoreMatrixOp store,
                             OpOperand &use, unsigned facet) {
    if (is(use, store.getSrcMutable()))
      return data();
    if (is(use, store.getDstMemrefMutable()) ||
        in(use, store.getIndicesMutable()))
      return address(use, facet);
    return unclassified();
  }
};

struct AsyncCopy {
  static UseVerdict classify(nvgpu::DeviceAsyncCopyOp copy, OpOperand &use,
                             unsigned facet) {
    // srcElements bounds the copy; the token result carries nothing.
    if (in(use, copy.getSrcElementsMutable()))
      return policy();
    if (is(use, copy.getDstMutable()) || in(use, copy.getDstIndicesMutable()) ||
        is(use, copy.getSrcMutable()) || in(use, copy.getSrcIndicesMutable()))
      return address(use, facet);
    return unclassified();
  }
};
struct GatherToLDS {
  static UseVerdict classify(amdgpu::GatherToLDSOp gather, OpOperand &use,
                             unsigned facet) {
    if (is(use, gather.getSrcMutable()) ||
        in(use, gather.getSrcIndicesMutable()) ||
        is(use, gather.getDstMutable()) ||
        in(use, gather.getDstIndicesMutable()))
      return address(use, facet);
    return unclassified();
  }
};

/// amdgpu.raw_buffer_*: the buffer resource's num_records is computed from
/// the view's sizes (a size read-back); indices and the SGPR offset are
/// addresses; value, src and cmp are data.
struct AMDGPUBufferAccess {
  template <typename OpTy>
  static UseVerdict classify(OpTy op, OpOperand &use, unsigned facet) {
    if constexpr (std::is_same_v<OpTy, amdgpu::RawBufferAtomicCmpswapOp>) {
      if (is(use, op.getSrcMutable()) || is(use, op.getCmpMutable()))
        return data();
    } else if constexpr (!std::is_same_v<OpTy, amdgpu::RawBufferLoadOp>) {
      if (is(use, op.getValueMutable()))
        return data();
    }
    if (is(use, op.getMemrefMutable()))
      return address(use, facet, /*readsSizes=*/true);
    if (in(use, op.getIndicesMutable()) || in(use, op.getSgprOffsetMutable()))
      return address(use, facet);
    return unclassified();
  }
};

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

/// `memref.reinterpret_cast` and `memref.subview`: offsets and strides enter
/// the result's address part, sizes its sizes. The source's address part
/// carries on into a subview (whose offset adds to it), not into a
/// reinterpret_cast (which replaces it); sizes never carry on.
template <typename OpTy>
UseVerdict viewConstruction(OpTy op, OpOperand &use, unsigned facet,
                            bool sourceAddressCarriesOn) {
  Value result = op.getResult();
  if (is(use, op.getSourceMutable())) {
    if (facet == kViewAddressFacet && sourceAddressCarriesOn)
      return UseVerdict::passThrough(result, kViewAddressFacet);
    return UseVerdict::notRead();
  }
  if (in(use, op.getSizesMutable()))
    return UseVerdict::passThrough(result, kViewSizesFacet);
  if (in(use, op.getOffsetsMutable()) || in(use, op.getStridesMutable()))
    return UseVerdict::passThrough(result, kViewAddressFacet);
  return unclassified();
}
struct ReinterpretCast {
  static UseVerdict classify(memref::ReinterpretCastOp cast, OpOperand &use,
                             unsigned facet) {
    return viewConstruction(cast, use, facet, /*sourceAddressCarriesOn=*/false);
  }
};
struct SubView {
  static UseVerdict classify(memref::SubViewOp subview, OpOperand &use,
                             unsigned facet) {
    return viewConstruction(subview, use, facet,
                            /*sourceAddressCarriesOn=*/true);
  }
};
struct ExpandShape {
  static UseVerdict classify(memref::ExpandShapeOp expand, OpOperand &use,
                             unsigned facet) {
    Value result = expand.getResult();
    if (is(use, expand.getSrcMutable()))
      return facet == kViewAddressFacet
                 ? UseVerdict::passThrough(result, kViewAddressFacet)
                 : UseVerdict::passThrough({{result, kViewAddressFacet},
                                            {result, kViewSizesFacet}});
    // The expanded strides are products of the new inner sizes and the old
    // strides: sizes reach both facets.
    if (in(use, expand.getOutputShapeMutable()))
      return UseVerdict::passThrough(
          {{result, kViewAddressFacet}, {result, kViewSizesFacet}});
    return unclassified();
  }
};
struct ByteShiftView {
  static UseVerdict classify(memref::ViewOp view, OpOperand &use, unsigned) {
    Value result = view.getResult();
    // The source is a flat byte buffer whose own layout is not read.
    if (is(use, view.getSourceMutable()))
      return UseVerdict::notRead();
    // A byte shift into a buffer is an offset.
    if (is(use, view.getByteShiftMutable()))
      return UseVerdict::passThrough(result, kViewAddressFacet);
    // The view's layout is the identity: its strides are products of its
    // sizes, so a size reaches the address part too.
    if (in(use, view.getSizesMutable()))
      return UseVerdict::passThrough(
          {{result, kViewAddressFacet}, {result, kViewSizesFacet}});
    return unclassified();
  }
};
struct Dim {
  static UseVerdict classify(memref::DimOp dim, OpOperand &use,
                             unsigned facet) {
    if (is(use, dim.getIndexMutable()))
      return UseVerdict::blocking(BlockReason::Allocation);
    if (!is(use, dim.getSourceMutable()))
      return unclassified();
    if (facet == kViewSizesFacet)
      return UseVerdict::passThrough(dim.getResult());
    return UseVerdict::notRead();
  }
};
struct StridedMetadata {
  static UseVerdict classify(memref::ExtractStridedMetadataOp metadata,
                             OpOperand &, unsigned facet) {
    if (facet == kViewSizesFacet)
      return UseVerdict::passThrough(metadata.getSizes());
    SmallVector<FacetedValue> reached{{metadata.getOffset(), kValueFacet}};
    for (Value stride : metadata.getStrides())
      reached.push_back({stride, kValueFacet});
    return UseVerdict::passThrough(reached);
  }
};
/// Neither reads the offset, strides or sizes of its one operand.
struct LayoutNotRead {
  static UseVerdict classify(Operation *, OpOperand &, unsigned) {
    return UseVerdict::notRead();
  }
};
/// `amdgpu.fat_raw_buffer_cast`: the result is a view of the same layout
/// whose buffer resource bounds accesses by the source's sizes (unless
/// `validBytes` gives the bound, which is then read back itself).
struct FatRawBufferCast {
  static UseVerdict classify(amdgpu::FatRawBufferCastOp cast, OpOperand &use,
                             unsigned facet) {
    if (in(use, cast.getValidBytesMutable()))
      return UseVerdict::blocking(BlockReason::SizeReadBack);
    if (in(use, cast.getCacheSwizzleStrideMutable()))
      return policy();
    if (!is(use, cast.getSourceMutable()))
      return unclassified();
    if (facet == kViewSizesFacet && !cast.getValidBytes())
      return UseVerdict::blocking(BlockReason::SizeReadBack);
    return UseVerdict::passThrough(cast.getResult(), facet);
  }
};

//===----------------------------------------------------------------------===//
// Vectors and LLVM aggregates
//===----------------------------------------------------------------------===//

struct VectorExtract {
  static UseVerdict classify(vector::ExtractOp extract, OpOperand &use,
                             unsigned facet) {
    if (is(use, extract.getSourceMutable()))
      return UseVerdict::passThroughResults(extract, facet);
    return vectorPosition(use, extract.getDynamicPositionMutable(),
                          extract.getStaticPosition(),
                          extract.getSourceVectorType().getRank());
  }
};
struct VectorInsert {
  static UseVerdict classify(vector::InsertOp insert, OpOperand &use,
                             unsigned facet) {
    if (is(use, insert.getValueToStoreMutable()) ||
        is(use, insert.getDestMutable()))
      return UseVerdict::passThroughResults(insert, facet);
    return vectorPosition(use, insert.getDynamicPositionMutable(),
                          insert.getStaticPosition(),
                          insert.getDestVectorType().getRank());
  }
};
struct LLVMVectorElement {
  template <typename OpTy>
  static UseVerdict classify(OpTy op, OpOperand &use, unsigned facet) {
    if (is(use, op.getPositionMutable()))
      return UseVerdict::blocking(BlockReason::VectorPosition);
    if (is(use, op.getVectorMutable()))
      return UseVerdict::passThroughResults(op, facet);
    if constexpr (std::is_same_v<OpTy, LLVM::InsertElementOp>)
      if (is(use, op.getValueMutable()))
        return UseVerdict::passThroughResults(op, facet);
    return unclassified();
  }
};

struct InsertValue {
  static UseVerdict classify(LLVM::InsertValueOp insert, OpOperand &use,
                             unsigned facet) {
    Value result = insert.getResult();
    LeafRange range = getLeafRange(result.getType(), insert.getPosition());
    unsigned firstFacet = getStructFacet(range.first, 0);
    if (is(use, insert.getValueMutable())) {
      // The inserted value's facets land on its leaves (into an array: on
      // the array's one leaf, keeping only bound against value).
      return UseVerdict::passThrough(
          result, firstFacet + (range.exact ? facet : facet % 2));
    }
    if (!is(use, insert.getContainerMutable()))
      return unclassified();
    // The container: fields outside the position carry on; those the
    // insertion overwrites do not.
    unsigned leaf = facet / 2;
    if (range.exact && leaf >= range.first && leaf < range.first + range.count)
      return UseVerdict::notRead();
    return UseVerdict::passThrough(result, facet);
  }
};
struct ExtractValue {
  static UseVerdict classify(LLVM::ExtractValueOp extract, OpOperand &use,
                             unsigned facet) {
    if (!is(use, extract.getContainerMutable()))
      return unclassified();
    LeafRange range =
        getLeafRange(extract.getContainer().getType(), extract.getPosition());
    unsigned leaf = facet / 2;
    if (leaf < range.first || leaf >= range.first + range.count)
      return UseVerdict::notRead();
    Value result = extract.getResult();
    if (range.exact)
      return UseVerdict::passThrough(result,
                                     facet - getStructFacet(range.first, 0));
    // Reaching into an array leaf: every leaf of what comes out may hold
    // its value; its bound only where a pointer can be.
    SmallVector<FacetedValue> reached;
    SmallVector<Type> leafTypes;
    auto collectLeaves = [&](Type type, auto &self) -> void {
      auto structType = dyn_cast<LLVM::LLVMStructType>(type);
      if (!structType) {
        leafTypes.push_back(type);
        return;
      }
      if (structType.getBody().empty())
        leafTypes.push_back(type);
      for (Type element : structType.getBody())
        self(element, self);
    };
    collectLeaves(result.getType(), collectLeaves);
    for (auto [resultLeaf, leafType] : llvm::enumerate(leafTypes))
      if (facet % 2 == kValueFacet || canHoldPointer(leafType))
        reached.push_back({result, getStructFacet(resultLeaf, facet % 2)});
    if (reached.empty())
      return UseVerdict::notRead();
    return UseVerdict::passThrough(reached);
  }
};

//===----------------------------------------------------------------------===//
// LLVM pointers and memory
//===----------------------------------------------------------------------===//

/// A pointer computed from a parameter is followed like a view; only its use
/// as an access address is a sink. A GEP moves a fat pointer within its
/// buffer, whose bound it keeps; what a cast of a buffer pointer's bound
/// computes is not known.
struct GEP {
  static UseVerdict classify(LLVM::GEPOp gep, OpOperand &use, unsigned facet) {
    if (is(use, gep.getBaseMutable()))
      return UseVerdict::passThroughResults(gep, facet);
    if (in(use, gep.getDynamicIndicesMutable()))
      return UseVerdict::passThroughResults(gep, kValueFacet);
    return unclassified();
  }
};
struct PointerCast {
  static UseVerdict classify(Operation *op, OpOperand &use, unsigned facet) {
    if (facet == kBufferBoundFacet && canHoldPointer(use.get().getType()))
      return UseVerdict::blocking(BlockReason::SizeReadBack);
    return UseVerdict::passThroughResults(op, facet);
  }
};

struct LLVMLoad {
  static UseVerdict classify(LLVM::LoadOp load, OpOperand &use,
                             unsigned facet) {
    if (is(use, load.getAddrMutable()))
      return address(use, facet);
    return unclassified();
  }
};
struct LLVMStore {
  static UseVerdict classify(LLVM::StoreOp store, OpOperand &use,
                             unsigned facet) {
    if (is(use, store.getValueMutable()))
      return data();
    if (is(use, store.getAddrMutable()))
      return address(use, facet);
    return unclassified();
  }
};
struct LLVMAtomic {
  template <typename OpTy>
  static UseVerdict classify(OpTy op, OpOperand &use, unsigned facet) {
    if constexpr (std::is_same_v<OpTy, LLVM::AtomicCmpXchgOp>)
      if (is(use, op.getCmpMutable()))
        return data();
    if (is(use, op.getValMutable()))
      return data();
    if (is(use, op.getPtrMutable()))
      return address(use, facet);
    return unclassified();
  }
};
/// memcpy/memmove (dst, src, len) and memset (dst, val, len), and their
/// inline forms (whose length is an attribute): the length is how far the
/// access reaches.
struct MemIntrinsic {
  template <typename OpTy>
  static UseVerdict classify(OpTy op, OpOperand &use, unsigned facet) {
    if constexpr (std::is_same_v<OpTy, LLVM::MemcpyOp> ||
                  std::is_same_v<OpTy, LLVM::MemmoveOp> ||
                  std::is_same_v<OpTy, LLVM::MemsetOp>)
      if (is(use, op.getLenMutable()))
        return UseVerdict::blocking(BlockReason::SizeReadBack);
    if constexpr (std::is_same_v<OpTy, LLVM::MemsetOp> ||
                  std::is_same_v<OpTy, LLVM::MemsetInlineOp>) {
      if (is(use, op.getValMutable()))
        return data();
    } else {
      if (is(use, op.getSrcMutable()))
        return address(use, facet);
    }
    if (is(use, op.getDstMutable()))
      return address(use, facet);
    return unclassified();
  }
};
/// llvm.intr.masked.load/store/gather/scatter: pointers (or vectors of
/// them) are addresses; the mask and pass-through are policy.
struct LLVMMasked {
  template <typename OpTy>
  static UseVerdict classify(OpTy op, OpOperand &use, unsigned facet) {
    if (is(use, op.getMaskMutable()))
      return policy();
    if constexpr (std::is_same_v<OpTy, LLVM::MaskedLoadOp> ||
                  std::is_same_v<OpTy, LLVM::masked_gather>)
      if (in(use, op.getPassThruMutable()))
        return policy();
    if constexpr (std::is_same_v<OpTy, LLVM::MaskedStoreOp> ||
                  std::is_same_v<OpTy, LLVM::masked_scatter>)
      if (is(use, op.getValueMutable()))
        return data();
    if constexpr (std::is_same_v<OpTy, LLVM::MaskedLoadOp> ||
                  std::is_same_v<OpTy, LLVM::MaskedStoreOp>) {
      if (is(use, op.getDataMutable()))
        return address(use, facet);
    } else {
      if (is(use, op.getPtrsMutable()))
        return address(use, facet);
    }
    return unclassified();
  }
};
struct LLVMPrefetch {
  static UseVerdict classify(LLVM::Prefetch prefetch, OpOperand &use,
                             unsigned facet) {
    if (is(use, prefetch.getAddrMutable()))
      return address(use, facet);
    return unclassified();
  }
};

//===----------------------------------------------------------------------===//
// ROCDL buffers
//===----------------------------------------------------------------------===//

/// rocdl.make.buffer.rsrc: base and stride are addresses, num_records a
/// bound the hardware reads (kBufferBoundFacet), flags policy.
struct MakeBufferRsrc {
  static UseVerdict classify(ROCDL::MakeBufferRsrcOp make, OpOperand &use,
                             unsigned facet) {
    Value result = make.getResult();
    if (is(use, make.getNumRecordsMutable()))
      return UseVerdict::passThrough(result, kBufferBoundFacet);
    if (is(use, make.getFlagsMutable()))
      return policy();
    if (is(use, make.getStrideMutable()))
      return UseVerdict::passThrough(result, kBufferAddressFacet);
    if (is(use, make.getBaseMutable())) {
      // A base that is itself a buffer pointer: its bound is not known to
      // carry over.
      if (facet == kBufferBoundFacet)
        return UseVerdict::blocking(BlockReason::SizeReadBack);
      return UseVerdict::passThrough(result, kBufferAddressFacet);
    }
    return unclassified();
  }
};
/// rocdl.raw.ptr.buffer.*: the resource's base is an address, its
/// num_records a bound the hardware reads; offsets are addresses; `aux` is
/// cache policy (and an immediate, which the intrinsic's declaration says
/// first); vdata, src and cmp are data.
struct RocdlBufferAccess {
  template <typename OpTy>
  static UseVerdict classify(OpTy op, OpOperand &use, unsigned facet) {
    if constexpr (std::is_same_v<OpTy, ROCDL::RawPtrBufferAtomicCmpSwap>) {
      if (is(use, op.getSrcMutable()) || is(use, op.getCmpMutable()))
        return data();
    } else if constexpr (!std::is_same_v<OpTy, ROCDL::RawPtrBufferLoadOp>) {
      if (is(use, op.getVdataMutable()))
        return data();
    }
    if (compat::isBufferAuxOperand(op, use))
      return policy();
    if (is(use, op.getRsrcMutable()) || is(use, op.getOffsetMutable()) ||
        is(use, op.getSoffsetMutable()))
      return address(use, facet);
    return unclassified();
  }
};
/// rocdl.raw.ptr.buffer.load.lds (rsrc, ldsPtr, size, voffset, soffset,
/// offset, aux): the resource as above, the LDS pointer and the offsets
/// are addresses; the per-lane size and aux are policy. (size, offset and
/// aux are immediates, which the intrinsic's declaration says first.)
struct BufferToLDS {
  static UseVerdict classify(ROCDL::RawPtrBufferLoadLdsOp load, OpOperand &use,
                             unsigned facet) {
    if (is(use, load.getSizeMutable()) || compat::isBufferAuxOperand(load, use))
      return policy();
    if (is(use, load.getRsrcMutable()) || is(use, load.getLdsPtrMutable()) ||
        is(use, load.getVoffsetMutable()) ||
        is(use, load.getSoffsetMutable()) || is(use, load.getOffsetMutable()))
      return address(use, facet);
    return unclassified();
  }
};
struct GlobalLoadLDS {
  static UseVerdict classify(ROCDL::GlobalLoadLDSOp load, OpOperand &use,
                             unsigned facet) {
    if (is(use, load.getGlobalPtrMutable()) || is(use, load.getLdsPtrMutable()))
      return address(use, facet);
    return unclassified();
  }
};

//===----------------------------------------------------------------------===//
// Launches
//===----------------------------------------------------------------------===//

struct LaunchFunc {
  static UseVerdict classify(gpu::LaunchFuncOp launch, OpOperand &use,
                             unsigned) {
    if (in(use, launch.getKernelOperandsMutable()))
      return UseVerdict::blocking(BlockReason::CallOperand);
    if (is(use, launch.getGridSizeXMutable()) ||
        is(use, launch.getGridSizeYMutable()) ||
        is(use, launch.getGridSizeZMutable()) ||
        is(use, launch.getBlockSizeXMutable()) ||
        is(use, launch.getBlockSizeYMutable()) ||
        is(use, launch.getBlockSizeZMutable()) ||
        in(use, launch.getClusterSizeXMutable()) ||
        in(use, launch.getClusterSizeYMutable()) ||
        in(use, launch.getClusterSizeZMutable()) ||
        in(use, launch.getDynamicSharedMemorySizeMutable()))
      return UseVerdict::blocking(BlockReason::LaunchDimensions);
    return unclassified();
  }
};
} // namespace

void mlir::flyhoist::registerStrideUseExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, arith::ArithDialect *) {
    // Bitwise and/or/xor pass the value on: swizzles of offsets are address
    // arithmetic, and whatever the result reaches is classified in turn.
    attach<PassThrough, arith::AddIOp, arith::SubIOp, arith::MulIOp,
           arith::AndIOp, arith::OrIOp, arith::XOrIOp, arith::IndexCastOp,
           arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp,
           arith::TruncIOp>(context);
    attach<Shift, arith::ShLIOp, arith::ShRUIOp, arith::ShRSIOp>(context);
    attach<Blocking<BlockReason::Comparison>, arith::CmpIOp>(context);
    attach<Select, arith::SelectOp>(context);
    attach<Blocking<BlockReason::Clamp>, arith::MinSIOp, arith::MinUIOp,
           arith::MaxSIOp, arith::MaxUIOp>(context);
    attach<Blocking<BlockReason::Division>, arith::DivSIOp, arith::DivUIOp,
           arith::RemSIOp, arith::RemUIOp, arith::CeilDivSIOp,
           arith::CeilDivUIOp, arith::FloorDivSIOp>(context);
  });
  registry.addExtension(+[](MLIRContext *context, index::IndexDialect *) {
    attach<PassThrough, index::AddOp, index::SubOp, index::MulOp, index::AndOp,
           index::OrOp, index::XOrOp, index::CastSOp, index::CastUOp>(context);
    attach<Shift, index::ShlOp, index::ShrUOp, index::ShrSOp>(context);
    attach<Blocking<BlockReason::Comparison>, index::CmpOp>(context);
    attach<Blocking<BlockReason::Clamp>, index::MinSOp, index::MinUOp,
           index::MaxSOp, index::MaxUOp>(context);
    attach<Blocking<BlockReason::Division>, index::DivSOp, index::DivUOp,
           index::RemSOp, index::RemUOp, index::CeilDivSOp, index::CeilDivUOp,
           index::FloorDivSOp>(context);
  });
  registry.addExtension(+[](MLIRContext *context, affine::AffineDialect *) {
    attach<AffineApply, affine::AffineApplyOp>(context);
    // linearize_index is a multiply-add over its basis; delinearize divides.
    attach<PassThrough, affine::AffineLinearizeIndexOp>(context);
    attach<Blocking<BlockReason::Division>, affine::AffineDelinearizeIndexOp>(
        context);
    attach<Blocking<BlockReason::Clamp>, affine::AffineMinOp,
           affine::AffineMaxOp>(context);
    attach<AffineAccess, affine::AffineLoadOp, affine::AffineStoreOp,
           affine::AffineVectorLoadOp, affine::AffineVectorStoreOp>(context);
  });
  registry.addExtension(+[](MLIRContext *context, memref::MemRefDialect *) {
    attach<MemRefLoad, memref::LoadOp, memref::PrefetchOp>(context);
    attach<MemRefStore, memref::StoreOp, memref::AtomicRMWOp>(context);
    attach<MemRefCopy, memref::CopyOp>(context);
    attach<ReinterpretCast, memref::ReinterpretCastOp>(context);
    attach<SubView, memref::SubViewOp>(context);
    // Views that keep their source's layout, their one operand: each facet
    // carries on.
    attach<PassThrough, memref::CastOp, memref::MemorySpaceCastOp,
           memref::TransposeOp, memref::AssumeAlignmentOp,
           memref::CollapseShapeOp>(context);
    attach<ExpandShape, memref::ExpandShapeOp>(context);
    attach<ByteShiftView, memref::ViewOp>(context);
    attach<Dim, memref::DimOp>(context);
    attach<StridedMetadata, memref::ExtractStridedMetadataOp>(context);
    attach<LayoutNotRead, memref::DeallocOp,
           memref::ExtractAlignedPointerAsIndexOp>(context);
    attach<Blocking<BlockReason::Allocation>, memref::AllocOp,
           memref::AllocaOp>(context);
  });
  registry.addExtension(+[](MLIRContext *context, vector::VectorDialect *) {
    attach<PassThrough, vector::BroadcastOp, vector::FromElementsOp>(context);
    attach<VectorExtract, vector::ExtractOp>(context);
    attach<VectorInsert, vector::InsertOp>(context);
    attach<VectorLoad, vector::LoadOp>(context);
    attach<VectorStore, vector::StoreOp>(context);
    attach<VectorTransfer, vector::TransferReadOp, vector::TransferWriteOp>(
        context);
    attach<VectorMasked, vector::MaskedLoadOp, vector::GatherOp,
           vector::MaskedStoreOp, vector::ScatterOp>(context);
    attach<Blocking<BlockReason::MaskOrPadding>, vector::CreateMaskOp,
           vector::ConstantMaskOp>(context);
  });
  registry.addExtension(+[](MLIRContext *context, gpu::GPUDialect *) {
    attach<MmaLoad, gpu::SubgroupMmaLoadMatrixOp>(context);
    attach<MmaStore, gpu::SubgroupMmaStoreMatrixOp>(context);
    attach<Blocking<BlockReason::Allocation>, gpu::AllocOp>(context);
    attach<LaunchFunc, gpu::LaunchFuncOp>(context);
    attach<Blocking<BlockReason::LaunchDimensions>, gpu::LaunchOp>(context);
  });
  registry.addExtension(+[](MLIRContext *context, nvgpu::NVGPUDialect *) {
    attach<AsyncCopy, nvgpu::DeviceAsyncCopyOp>(context);
  });
  registry.addExtension(+[](MLIRContext *context, amdgpu::AMDGPUDialect *) {
    attach<GatherToLDS, amdgpu::GatherToLDSOp>(context);
    attach<AMDGPUBufferAccess, amdgpu::RawBufferLoadOp,
           amdgpu::RawBufferStoreOp, amdgpu::RawBufferAtomicFaddOp,
           amdgpu::RawBufferAtomicFmaxOp, amdgpu::RawBufferAtomicSmaxOp,
           amdgpu::RawBufferAtomicUminOp, amdgpu::RawBufferAtomicCmpswapOp>(
        context);
    attach<FatRawBufferCast, amdgpu::FatRawBufferCastOp>(context);
  });
  registry.addExtension(+[](MLIRContext *context, LLVM::LLVMDialect *) {
    attach<PassThrough, LLVM::AddOp, LLVM::SubOp, LLVM::MulOp, LLVM::AndOp,
           LLVM::OrOp, LLVM::XOrOp, LLVM::SExtOp, LLVM::ZExtOp, LLVM::TruncOp,
           LLVM::ShuffleVectorOp>(context);
    attach<Shift, LLVM::ShlOp, LLVM::LShrOp, LLVM::AShrOp>(context);
    attach<Blocking<BlockReason::Comparison>, LLVM::ICmpOp>(context);
    attach<Select, LLVM::SelectOp>(context);
    attach<Blocking<BlockReason::Clamp>, LLVM::SMinOp, LLVM::SMaxOp,
           LLVM::UMinOp, LLVM::UMaxOp>(context);
    attach<Blocking<BlockReason::Division>, LLVM::SDivOp, LLVM::UDivOp,
           LLVM::SRemOp, LLVM::URemOp>(context);
    attach<GEP, LLVM::GEPOp>(context);
    attach<PointerCast, LLVM::PtrToIntOp, LLVM::IntToPtrOp,
           LLVM::AddrSpaceCastOp, LLVM::BitcastOp>(context);
    attach<LLVMLoad, LLVM::LoadOp>(context);
    attach<LLVMStore, LLVM::StoreOp>(context);
    attach<LLVMAtomic, LLVM::AtomicRMWOp, LLVM::AtomicCmpXchgOp>(context);
    attach<MemIntrinsic, LLVM::MemcpyOp, LLVM::MemmoveOp, LLVM::MemsetOp,
           LLVM::MemcpyInlineOp, LLVM::MemsetInlineOp>(context);
    attach<LLVMMasked, LLVM::MaskedLoadOp, LLVM::MaskedStoreOp,
           LLVM::masked_gather, LLVM::masked_scatter>(context);
    attach<LLVMPrefetch, LLVM::Prefetch>(context);
    attach<LLVMVectorElement, LLVM::InsertElementOp, LLVM::ExtractElementOp>(
        context);
    attach<InsertValue, LLVM::InsertValueOp>(context);
    attach<ExtractValue, LLVM::ExtractValueOp>(context);
    attach<Blocking<BlockReason::CallOperand>, LLVM::CallOp>(context);
  });
  registry.addExtension(+[](MLIRContext *context, ROCDL::ROCDLDialect *) {
    attach<PassThrough, ROCDL::ReadfirstlaneOp>(context);
    attach<MakeBufferRsrc, ROCDL::MakeBufferRsrcOp>(context);
    attach<RocdlBufferAccess, ROCDL::RawPtrBufferLoadOp,
           ROCDL::RawPtrBufferStoreOp, ROCDL::RawPtrBufferAtomicFaddOp,
           ROCDL::RawPtrBufferAtomicFmaxOp, ROCDL::RawPtrBufferAtomicSmaxOp,
           ROCDL::RawPtrBufferAtomicUminOp, ROCDL::RawPtrBufferAtomicCmpSwap>(
        context);
    attach<BufferToLDS, ROCDL::RawPtrBufferLoadLdsOp>(context);
    attach<GlobalLoadLDS, ROCDL::GlobalLoadLDSOp>(context);
  });
  registry.addExtension(+[](MLIRContext *context, spec::SpecDialect *) {
    // `spec.param "a" = 3 equals %v`: a hoisted `a`'s uses take %v, so %v
    // reaches whatever `a` reaches (also when %v is another parameter).
    attach<PassThrough, spec::ParamOp>(context);
  });
  registry.addExtension(+[](MLIRContext *context, func::FuncDialect *) {
    attach<Blocking<BlockReason::CallOperand>, func::CallOp,
           func::CallIndirectOp>(context);
  });
}
