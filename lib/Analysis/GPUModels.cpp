//===- GPUModels.cpp - Rules for gpu, nvgpu, amdgpu, rocdl ----------------===//
//
// Matrix and asynchronous copies, AMDGPU buffer accesses and resources
// (whose bound the hardware reads back), and kernel launches.
//
//===----------------------------------------------------------------------===//

#include "ModelSupport.h"
#include "flyhoist/Support/MLIRCompat.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::flyhoist;
using namespace mlir::flyhoist::models;

namespace {
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
/// num_records a bound the hardware reads; offsets are addresses; `aux`
/// (cache policy) is an immediate; vdata, src and cmp are data.
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
      return immediate();
    if (is(use, op.getRsrcMutable()) || is(use, op.getOffsetMutable()) ||
        is(use, op.getSoffsetMutable()))
      return address(use, facet);
    return unclassified();
  }
};
/// rocdl.raw.ptr.buffer.load.lds (rsrc, ldsPtr, size, voffset, soffset,
/// offset, aux): the resource as above, the LDS pointer and voffset and
/// soffset are addresses; the per-lane size, the instruction's offset and
/// aux are immediates.
struct BufferToLDS {
  static UseVerdict classify(ROCDL::RawPtrBufferLoadLdsOp load, OpOperand &use,
                             unsigned facet) {
    if (is(use, load.getSizeMutable()) || is(use, load.getOffsetMutable()) ||
        compat::isBufferAuxOperand(load, use))
      return immediate();
    if (is(use, load.getRsrcMutable()) || is(use, load.getLdsPtrMutable()) ||
        is(use, load.getVoffsetMutable()) || is(use, load.getSoffsetMutable()))
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

void mlir::flyhoist::models::registerGPUModels(DialectRegistry &registry) {
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
}
