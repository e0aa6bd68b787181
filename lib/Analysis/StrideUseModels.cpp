//===- StrideUseModels.cpp - The analysis' rules for upstream ops ---------===//
//
// StrideUseOpInterface external models for the upstream operations kernels
// are written with. The rules follow docs/DESIGN.md: address arithmetic
// passes a parameter on, address operands of memory accesses absorb it, and
// every other use keeps the kernel specialized with a named reason.
//
//===----------------------------------------------------------------------===//

#include "flyhoist/Analysis/StrideUseAnalysis.h"
#include "flyhoist/Dialect/Spec/SpecDialect.h"

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
// Rule helpers
//===----------------------------------------------------------------------===//

/// Whether `use` is in ODS operand group `group` of `op`.
template <typename OpTy>
bool inOdsGroup(OpTy op, unsigned group, OpOperand &use) {
  auto [start, length] = op.getODSOperandIndexAndLength(group);
  unsigned number = use.getOperandNumber();
  return number >= start && number < start + length;
}

/// The verdict for the memory operand (a memref) of an access that reads
/// through its layout: the address part is an address; the sizes are read
/// back only when `readsSizes`.
UseVerdict viewAccess(unsigned facet, bool readsSizes) {
  if (facet == kViewSizesFacet)
    return readsSizes ? UseVerdict::blocking(BlockReason::SizeReadBack)
                      : UseVerdict::notRead();
  return UseVerdict::sink();
}

/// A memory access: operands in `dataGroups` hold stored data, those in
/// `otherGroups` masks, padding or policy bits; memref operands are views
/// read through their layout (sizes read back when `readsSizes`); every
/// other operand (indices, offsets, pointers) is an address.
template <typename OpTy>
UseVerdict memoryAccess(OpTy op, OpOperand &use, unsigned facet,
                        std::initializer_list<unsigned> dataGroups,
                        std::initializer_list<unsigned> otherGroups = {},
                        bool readsSizes = false) {
  for (unsigned group : dataGroups)
    if (inOdsGroup(op, group, use))
      return UseVerdict::blocking(BlockReason::StoredData);
  for (unsigned group : otherGroups)
    if (inOdsGroup(op, group, use))
      return UseVerdict::blocking(BlockReason::MaskOrPadding);
  if (isa<BaseMemRefType>(use.get().getType()))
    return viewAccess(facet, readsSizes);
  return UseVerdict::sink();
}

/// A buffer-resource access (`rocdl.raw.ptr.buffer.*`): the resource's base
/// is an address, its num_records a bound the hardware reads; offsets are
/// addresses; `dataGroups` and `otherGroups` as in memoryAccess.
template <typename OpTy>
UseVerdict bufferAccess(OpTy op, OpOperand &use, unsigned facet,
                        std::initializer_list<unsigned> dataGroups,
                        std::initializer_list<unsigned> otherGroups) {
  UseVerdict verdict = memoryAccess(op, use, facet, dataGroups, otherGroups);
  if (verdict.kind == Kind::AddressSink && use.get() == op.getRsrc() &&
      facet == kBufferBoundFacet)
    return UseVerdict::blocking(BlockReason::SizeReadBack);
  return verdict;
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
/// address arithmetic unless the map divides that operand.
UseVerdict affineMapOperand(AffineMap map, OperandRange mapOperands,
                            OpOperand &use, UseVerdict addressVerdict) {
  unsigned position =
      use.getOperandNumber() - mapOperands.getBeginOperandIndex();
  if (isDividedInMap(map, position))
    return UseVerdict::blocking(BlockReason::Division);
  return addressVerdict;
}

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
  if (use.get() == op.getSource()) {
    if (facet == kViewAddressFacet && sourceAddressCarriesOn)
      return UseVerdict::passThrough(result, kViewAddressFacet);
    return UseVerdict::notRead();
  }
  if (inOdsGroup(op, /*sizes=*/2, use))
    return UseVerdict::passThrough(result, kViewSizesFacet);
  return UseVerdict::passThrough(result, kViewAddressFacet);
}

UseVerdict expandShape(memref::ExpandShapeOp expand, OpOperand &use,
                       unsigned facet) {
  Value result = expand.getResult();
  // The expanded strides are products of the new inner sizes and the old
  // strides: sizes reach both facets.
  if (use.get() == expand.getSrc() && facet == kViewAddressFacet)
    return UseVerdict::passThrough(result, kViewAddressFacet);
  return UseVerdict::passThrough(
      {{result, kViewAddressFacet}, {result, kViewSizesFacet}});
}

UseVerdict extractStridedMetadata(memref::ExtractStridedMetadataOp metadata,
                                  unsigned facet) {
  if (facet == kViewSizesFacet)
    return UseVerdict::passThrough(metadata.getSizes());
  SmallVector<FacetedValue> reached{{metadata.getOffset(), kValueFacet}};
  for (Value stride : metadata.getStrides())
    reached.push_back({stride, kValueFacet});
  return UseVerdict::passThrough(reached);
}

/// `amdgpu.fat_raw_buffer_cast`: the result is a view of the same layout
/// whose buffer resource bounds accesses by the source's sizes (unless
/// `validBytes` gives the bound, which is then read back itself).
UseVerdict fatRawBufferCast(amdgpu::FatRawBufferCastOp cast, OpOperand &use,
                            unsigned facet) {
  if (use.get() != cast.getSource())
    return UseVerdict::blocking(use.get() == cast.getValidBytes()
                                    ? BlockReason::SizeReadBack
                                    : BlockReason::MaskOrPadding);
  if (facet == kViewSizesFacet && !cast.getValidBytes())
    return UseVerdict::blocking(BlockReason::SizeReadBack);
  return UseVerdict::passThrough(cast.getResult(), facet);
}

//===----------------------------------------------------------------------===//
// LLVM structs
//===----------------------------------------------------------------------===//

UseVerdict insertValue(LLVM::InsertValueOp insert, OpOperand &use,
                       unsigned facet) {
  Value result = insert.getResult();
  LeafRange range = getLeafRange(result.getType(), insert.getPosition());
  unsigned firstFacet = getStructFacet(range.first, 0);
  if (use.get() == insert.getValue()) {
    // The inserted value's facets land on its leaves (into an array: on the
    // array's one leaf, keeping only bound against value).
    return UseVerdict::passThrough(
        result, firstFacet + (range.exact ? facet : facet % 2));
  }
  // The container: fields outside the position carry on; those the
  // insertion overwrites do not.
  unsigned leaf = facet / 2;
  if (range.exact && leaf >= range.first && leaf < range.first + range.count)
    return UseVerdict::notRead();
  return UseVerdict::passThrough(result, facet);
}

UseVerdict extractValue(LLVM::ExtractValueOp extract, unsigned facet) {
  LeafRange range =
      getLeafRange(extract.getContainer().getType(), extract.getPosition());
  unsigned leaf = facet / 2;
  if (leaf < range.first || leaf >= range.first + range.count)
    return UseVerdict::notRead();
  Value result = extract.getResult();
  if (range.exact)
    return UseVerdict::passThrough(result,
                                   facet - getStructFacet(range.first, 0));
  // Reaching into an array leaf: every leaf of what comes out may hold it.
  SmallVector<FacetedValue> reached;
  for (unsigned resultLeaf = 0, e = getNumLeafFields(result.getType());
       resultLeaf < e; ++resultLeaf)
    reached.push_back({result, getStructFacet(resultLeaf, facet % 2)});
  return UseVerdict::passThrough(reached);
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

/// Shifts: the shifted value passes on; the amount is not an address.
struct Shift {
  static UseVerdict classify(Operation *op, OpOperand &use, unsigned facet) {
    if (use.getOperandNumber() != 0)
      return UseVerdict::blocking(BlockReason::ShiftAmount);
    return UseVerdict::passThroughResults(op, facet);
  }
};

/// Operations whose every operand keeps the parameter, for `Reason`.
template <BlockReason Reason> struct Blocking {
  static UseVerdict classify(Operation *, OpOperand &, unsigned) {
    return UseVerdict::blocking(Reason);
  }
};

/// Memory accesses described by ODS operand groups: `Data` hold stored
/// values, `Other` masks, padding or policy; `ReadsSizes` when the access
/// reads a memref operand's sizes back.
template <bool ReadsSizes, unsigned... Data> struct AccessWithData {
  template <typename OpTy>
  static UseVerdict classify(OpTy op, OpOperand &use, unsigned facet) {
    return memoryAccess(op, use, facet, {Data...}, {}, ReadsSizes);
  }
};
template <unsigned... Other> struct AccessWithPolicy {
  template <typename OpTy>
  static UseVerdict classify(OpTy op, OpOperand &use, unsigned facet) {
    return memoryAccess(op, use, facet, {}, {Other...});
  }
};
using Load = AccessWithData<false>;
using Store = AccessWithData<false, 0>;

struct TransferRead {
  static UseVerdict classify(vector::TransferReadOp read, OpOperand &use,
                             unsigned facet) {
    // Without in_bounds on every dimension the mask compares the indices
    // against the view's sizes.
    return memoryAccess(read, use, facet, {}, {2, 3}, read.hasOutOfBoundsDim());
  }
};
struct TransferWrite {
  static UseVerdict classify(vector::TransferWriteOp write, OpOperand &use,
                             unsigned facet) {
    return memoryAccess(write, use, facet, {0}, {3}, write.hasOutOfBoundsDim());
  }
};
struct MaskedStore {
  template <typename OpTy>
  static UseVerdict classify(OpTy op, OpOperand &use, unsigned facet) {
    // vector.maskedstore: base, indices, mask (2), value (3);
    // vector.scatter: base, offsets, indices, mask (3), value (4).
    if constexpr (std::is_same_v<OpTy, vector::MaskedStoreOp>)
      return memoryAccess(op, use, facet, {3}, {2});
    else
      return memoryAccess(op, use, facet, {4}, {3});
  }
};

struct AffineAccess {
  template <typename OpTy>
  static UseVerdict classify(OpTy op, OpOperand &use, unsigned facet) {
    constexpr bool hasStoredValue =
        std::is_same_v<OpTy, affine::AffineStoreOp> ||
        std::is_same_v<OpTy, affine::AffineVectorStoreOp>;
    if (hasStoredValue && use.getOperandNumber() == 0)
      return UseVerdict::blocking(BlockReason::StoredData);
    if (use.get() == op.getMemRef())
      return viewAccess(facet, /*readsSizes=*/false);
    return affineMapOperand(op.getAffineMap(), op.getMapOperands(), use,
                            UseVerdict::sink());
  }
};

struct AffineApply {
  static UseVerdict classify(affine::AffineApplyOp apply, OpOperand &use,
                             unsigned facet) {
    return affineMapOperand(apply.getAffineMap(), apply.getMapOperands(), use,
                            PassThrough::classify(apply, use, facet));
  }
};

/// select: choosing between pointers or fat pointers (what canonicalize
/// makes of an scf.if yielding them) passes the chosen value on; choosing
/// between integers is where clamps live, and the condition is a condition.
struct Select {
  static UseVerdict classify(Operation *op, OpOperand &use, unsigned facet) {
    Type type = op->getResult(0).getType();
    if (use.getOperandNumber() != 0 &&
        isa<LLVM::LLVMPointerType, LLVM::LLVMStructType>(type))
      return UseVerdict::passThroughResults(op, facet);
    return UseVerdict::blocking(BlockReason::Clamp);
  }
};

/// A pointer computed from a parameter is followed like a view; only its use
/// as an access address is a sink. A buffer resource's bound is not an
/// address: what a cast or GEP of it computes is not known.
struct PointerArithmetic {
  static UseVerdict classify(Operation *op, OpOperand &use, unsigned facet) {
    if (facet == kBufferBoundFacet &&
        isa<LLVM::LLVMPointerType>(use.get().getType()))
      return UseVerdict::blocking(BlockReason::SizeReadBack);
    return PassThrough::classify(op, use, facet);
  }
};

/// memcpy/memmove (dst, src, len) and memset (dst, val, len): the length is
/// how far the access reaches.
struct MemIntrinsic {
  static UseVerdict classify(Operation *op, OpOperand &use, unsigned) {
    unsigned number = use.getOperandNumber();
    if (number == 2)
      return UseVerdict::blocking(BlockReason::SizeReadBack);
    if (number == 1 && isa<LLVM::MemsetOp>(op))
      return UseVerdict::blocking(BlockReason::StoredData);
    return UseVerdict::sink();
  }
};

struct InsertValue {
  static UseVerdict classify(LLVM::InsertValueOp insert, OpOperand &use,
                             unsigned facet) {
    return insertValue(insert, use, facet);
  }
};
struct ExtractValue {
  static UseVerdict classify(LLVM::ExtractValueOp extract, OpOperand &,
                             unsigned facet) {
    return extractValue(extract, facet);
  }
};

/// rocdl.make.buffer.rsrc: base and stride are addresses, num_records a
/// bound the hardware reads (kBufferBoundFacet), flags policy.
struct MakeBufferRsrc {
  static UseVerdict classify(ROCDL::MakeBufferRsrcOp make, OpOperand &use,
                             unsigned) {
    Value result = make.getResult();
    if (use.get() == make.getNumRecords())
      return UseVerdict::passThrough(result, kBufferBoundFacet);
    if (use.get() == make.getFlags())
      return UseVerdict::blocking(BlockReason::MaskOrPadding);
    return UseVerdict::passThrough(result, kBufferAddressFacet);
  }
};
template <unsigned Policy, unsigned... Data> struct BufferAccess {
  template <typename OpTy>
  static UseVerdict classify(OpTy op, OpOperand &use, unsigned facet) {
    return bufferAccess(op, use, facet, {Data...}, {Policy});
  }
};

/// rocdl.raw.ptr.buffer.load.lds (rsrc, ldsPtr, size, voffset, soffset,
/// offset, aux): the resource as in bufferAccess, the LDS pointer and the
/// offsets are addresses; the per-lane size and aux are policy.
struct BufferToLDS {
  static UseVerdict classify(ROCDL::RawPtrBufferLoadLdsOp load, OpOperand &use,
                             unsigned facet) {
    if (use.get() == load.getSize() || use.get() == load.getAux())
      return UseVerdict::blocking(BlockReason::MaskOrPadding);
    if (use.get() == load.getRsrc() && facet == kBufferBoundFacet)
      return UseVerdict::blocking(BlockReason::SizeReadBack);
    return UseVerdict::sink();
  }
};

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
    return expandShape(expand, use, facet);
  }
};
struct ByteShiftView {
  static UseVerdict classify(memref::ViewOp view, OpOperand &use, unsigned) {
    // A byte shift into a buffer is an offset; sizes are sizes; the source
    // is a flat buffer whose own layout is not read.
    if (use.get() == view.getSource())
      return UseVerdict::notRead();
    if (use.get() == view.getByteShift())
      return UseVerdict::passThrough(view.getResult(), kViewAddressFacet);
    return UseVerdict::passThrough(view.getResult(), kViewSizesFacet);
  }
};
struct Dim {
  static UseVerdict classify(memref::DimOp dim, OpOperand &use,
                             unsigned facet) {
    if (use.get() != dim.getSource())
      return UseVerdict::blocking(BlockReason::Allocation);
    if (facet == kViewSizesFacet)
      return UseVerdict::passThrough(dim.getResult());
    return UseVerdict::notRead();
  }
};
struct StridedMetadata {
  static UseVerdict classify(memref::ExtractStridedMetadataOp metadata,
                             OpOperand &, unsigned facet) {
    return extractStridedMetadata(metadata, facet);
  }
};
struct FatRawBufferCast {
  static UseVerdict classify(amdgpu::FatRawBufferCastOp cast, OpOperand &use,
                             unsigned facet) {
    return fatRawBufferCast(cast, use, facet);
  }
};
/// Neither reads the offset, strides or sizes.
struct LayoutNotRead {
  static UseVerdict classify(Operation *, OpOperand &, unsigned) {
    return UseVerdict::notRead();
  }
};

struct LaunchFunc {
  static UseVerdict classify(gpu::LaunchFuncOp launch, OpOperand &use,
                             unsigned) {
    // The ODS group, which exists even when no kernel operand does.
    if (inOdsGroup(launch, /*kernelOperands=*/11, use))
      return UseVerdict::blocking(BlockReason::CallOperand);
    return UseVerdict::blocking(BlockReason::LaunchDimensions);
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
    attach<Load, memref::LoadOp, memref::PrefetchOp>(context);
    attach<Store, memref::StoreOp, memref::AtomicRMWOp>(context);
    // A copy walks the whole view: its sizes are the trip counts.
    attach<AccessWithData<true>, memref::CopyOp>(context);
    attach<ReinterpretCast, memref::ReinterpretCastOp>(context);
    attach<SubView, memref::SubViewOp>(context);
    // Views that keep their source's layout: each facet carries on.
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
    attach<PassThrough, vector::BroadcastOp, vector::FromElementsOp,
           vector::InsertOp, vector::ExtractOp>(context);
    attach<Load, vector::LoadOp>(context);
    attach<Store, vector::StoreOp>(context);
    attach<TransferRead, vector::TransferReadOp>(context);
    attach<TransferWrite, vector::TransferWriteOp>(context);
    attach<AccessWithPolicy<2, 3>, vector::MaskedLoadOp>(context);
    attach<AccessWithPolicy<3, 4>, vector::GatherOp>(context);
    attach<MaskedStore, vector::MaskedStoreOp, vector::ScatterOp>(context);
    attach<Blocking<BlockReason::MaskOrPadding>, vector::CreateMaskOp,
           vector::ConstantMaskOp>(context);
  });
  registry.addExtension(+[](MLIRContext *context, gpu::GPUDialect *) {
    attach<Load, gpu::SubgroupMmaLoadMatrixOp>(context);
    attach<Store, gpu::SubgroupMmaStoreMatrixOp>(context);
    attach<Blocking<BlockReason::Allocation>, gpu::AllocOp>(context);
    attach<LaunchFunc, gpu::LaunchFuncOp>(context);
    attach<Blocking<BlockReason::LaunchDimensions>, gpu::LaunchOp>(context);
  });
  registry.addExtension(+[](MLIRContext *context, nvgpu::NVGPUDialect *) {
    // srcElements bounds the copy; the token result carries nothing.
    attach<AccessWithPolicy<4>, nvgpu::DeviceAsyncCopyOp>(context);
  });
  registry.addExtension(+[](MLIRContext *context, amdgpu::AMDGPUDialect *) {
    attach<Load, amdgpu::GatherToLDSOp>(context);
    // Raw buffer accesses build a buffer resource whose num_records comes
    // from the view's sizes: a size read-back.
    attach<AccessWithData<true>, amdgpu::RawBufferLoadOp>(context);
    attach<AccessWithData<true, 0>, amdgpu::RawBufferStoreOp,
           amdgpu::RawBufferAtomicFaddOp, amdgpu::RawBufferAtomicFmaxOp,
           amdgpu::RawBufferAtomicSmaxOp, amdgpu::RawBufferAtomicUminOp>(
        context);
    attach<AccessWithData<true, 0, 1>, amdgpu::RawBufferAtomicCmpswapOp>(
        context);
    attach<FatRawBufferCast, amdgpu::FatRawBufferCastOp>(context);
  });
  registry.addExtension(+[](MLIRContext *context, LLVM::LLVMDialect *) {
    attach<PassThrough, LLVM::AddOp, LLVM::SubOp, LLVM::MulOp, LLVM::AndOp,
           LLVM::OrOp, LLVM::XOrOp, LLVM::SExtOp, LLVM::ZExtOp, LLVM::TruncOp>(
        context);
    attach<Shift, LLVM::ShlOp, LLVM::LShrOp, LLVM::AShrOp>(context);
    attach<Blocking<BlockReason::Comparison>, LLVM::ICmpOp>(context);
    attach<Select, LLVM::SelectOp>(context);
    attach<Blocking<BlockReason::Clamp>, LLVM::SMinOp, LLVM::SMaxOp,
           LLVM::UMinOp, LLVM::UMaxOp>(context);
    attach<Blocking<BlockReason::Division>, LLVM::SDivOp, LLVM::UDivOp,
           LLVM::SRemOp, LLVM::URemOp>(context);
    attach<PointerArithmetic, LLVM::GEPOp, LLVM::PtrToIntOp, LLVM::IntToPtrOp,
           LLVM::AddrSpaceCastOp, LLVM::BitcastOp>(context);
    attach<Load, LLVM::LoadOp>(context);
    attach<Store, LLVM::StoreOp>(context);
    attach<AccessWithData<false, 1>, LLVM::AtomicRMWOp>(context);
    attach<AccessWithData<false, 1, 2>, LLVM::AtomicCmpXchgOp>(context);
    attach<MemIntrinsic, LLVM::MemcpyOp, LLVM::MemmoveOp, LLVM::MemsetOp>(
        context);
    attach<InsertValue, LLVM::InsertValueOp>(context);
    attach<ExtractValue, LLVM::ExtractValueOp>(context);
    attach<Blocking<BlockReason::CallOperand>, LLVM::CallOp>(context);
  });
  registry.addExtension(+[](MLIRContext *context, ROCDL::ROCDLDialect *) {
    attach<PassThrough, ROCDL::ReadfirstlaneOp>(context);
    attach<MakeBufferRsrc, ROCDL::MakeBufferRsrcOp>(context);
    attach<BufferAccess<3>, ROCDL::RawPtrBufferLoadOp>(context);
    attach<BufferAccess<4, 0>, ROCDL::RawPtrBufferStoreOp,
           ROCDL::RawPtrBufferAtomicFaddOp, ROCDL::RawPtrBufferAtomicFmaxOp,
           ROCDL::RawPtrBufferAtomicSmaxOp, ROCDL::RawPtrBufferAtomicUminOp>(
        context);
    attach<BufferAccess<5, 0, 1>, ROCDL::RawPtrBufferAtomicCmpSwap>(context);
    attach<BufferToLDS, ROCDL::RawPtrBufferLoadLdsOp>(context);
    attach<Load, ROCDL::GlobalLoadLDSOp>(context);
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
