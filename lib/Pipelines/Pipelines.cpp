//===- Pipelines.cpp - Named lowering pipelines of fly-opt ----------------===//

#include "flyhoist/Pipelines/Pipelines.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/GPUToROCDL/GPUToROCDLPass.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::flyhoist;

#ifndef FLYHOIST_DEFAULT_AMDGPU_TOOLKIT
#define FLYHOIST_DEFAULT_AMDGPU_TOOLKIT ""
#endif

StringRef mlir::flyhoist::getDefaultAMDGPUToolkitPath() {
  return FLYHOIST_DEFAULT_AMDGPU_TOOLKIT;
}

/// The device-side lowering both targets share, before the target-specific
/// conversion: inline device helpers, then lower affine, views and scf.
static void addCommonDeviceLowering(OpPassManager &pm) {
  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  device.addPass(createInlinerPass());
  device.addPass(createSymbolDCEPass());
  device.addPass(memref::createExpandStridedMetadataPass());
  device.addPass(createLowerAffinePass());
  device.addPass(createSCFToControlFlowPass());
}

/// Cleanup after the conversion to LLVM, on each gpu.module.
static void addDeviceCleanup(OpPassManager &pm) {
  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  device.addPass(createCanonicalizerPass());
  device.addPass(createCSEPass());
  device.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::flyhoist::buildAMDGPUPipeline(OpPassManager &pm,
                                         const AMDGPUPipelineOptions &options) {
  GpuROCDLAttachTargetOptions target;
  target.chip = options.chip;
  target.optLevel = options.optLevel;
  pm.addPass(createGpuROCDLAttachTarget(target));

  addCommonDeviceLowering(pm);
  ConvertGpuOpsToROCDLOpsOptions convert;
  convert.chipset = options.chip;
  pm.nest<gpu::GPUModuleOp>().addPass(createConvertGpuOpsToROCDLOps(convert));
  addDeviceCleanup(pm);

  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.format;
  binary.toolkitPath = options.toolkit.empty()
                           ? getDefaultAMDGPUToolkitPath().str()
                           : std::string(options.toolkit);
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

void mlir::flyhoist::buildNVVMPipeline(OpPassManager &pm,
                                       const NVVMPipelineOptions &options) {
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));

  addCommonDeviceLowering(pm);
  // math.fma and friends to LLVM intrinsics first: convert-gpu-to-nvvm would
  // turn them into libdevice calls, which only link where a CUDA toolkit is
  // found, leaving an undefined __nv_fmaf in the PTX otherwise.
  pm.nest<gpu::GPUModuleOp>().addPass(createConvertMathToLLVMPass());
  pm.nest<gpu::GPUModuleOp>().addPass(createConvertGpuOpsToNVVMOps());
  addDeviceCleanup(pm);

  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = options.format;
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

void mlir::flyhoist::registerFlyHoistPipelines() {
  PassPipelineRegistration<AMDGPUPipelineOptions>(
      "flyhoist-amdgpu-pipeline",
      "Lower upstream GPU IR to AMDGPU code objects in gpu.binary "
      "(chip=gfx942|gfx950 format=bin|isa toolkit=...)",
      buildAMDGPUPipeline);
  PassPipelineRegistration<NVVMPipelineOptions>(
      "flyhoist-nvvm-pipeline",
      "Lower upstream GPU IR to PTX in gpu.binary (chip=sm_90 format=isa)",
      buildNVVMPipeline);
}
