//===- MemRefVectorModels.cpp - Rules for memref and vector ---------------===//
//
// Accesses through memrefs and vectors, and the views that carry a
// parameter in their address part (offset, strides) or their sizes.
//
//===----------------------------------------------------------------------===//

#include "ModelSupport.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::flyhoist;
using namespace mlir::flyhoist::models;

namespace {
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

//===----------------------------------------------------------------------===//
// Vector positions
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
} // namespace

void mlir::flyhoist::models::registerMemRefVectorModels(
    DialectRegistry &registry) {
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
}
