//===- LLVMModels.cpp - Rules for the llvm dialect ------------------------===//
//
// Pointers followed like views, struct fields as facets, and the LLVM
// memory operations and intrinsics whose pointers are addresses.
//
//===----------------------------------------------------------------------===//

#include "ModelSupport.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::flyhoist;
using namespace mlir::flyhoist::models;

namespace {
//===----------------------------------------------------------------------===//
// LLVM vectors and aggregates
//===----------------------------------------------------------------------===//

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

} // namespace

void mlir::flyhoist::models::registerLLVMModels(DialectRegistry &registry) {
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
}
