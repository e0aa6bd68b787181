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

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Triple.h"

#include <algorithm>
#include <memory>
#include <mutex>

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

std::vector<std::string> mlir::flyhoist::getKnownChips(StringRef kind) {
  StringRef tripleName = llvm::StringSwitch<StringRef>(kind)
                             .Case("amdgpu", "amdgcn-amd-amdhsa")
                             .Case("nvvm", "nvptx64-nvidia-cuda")
                             .Default("");
  if (tripleName.empty())
    return {};
  // gpu-module-to-binary initializes the backends it needs the same way.
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargetMCs();
  });
  llvm::Triple triple(tripleName);
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return {};
  std::unique_ptr<llvm::MCSubtargetInfo> info(
      target->createMCSubtargetInfo(triple, "", ""));
  if (!info)
    return {};
  std::vector<std::string> chips;
  for (const llvm::SubtargetSubTypeKV &processor :
       info->getAllProcessorDescriptions())
    chips.emplace_back(processor.Key);
  // gfx90a before gfx1030 before gfx1100, sm_90 before sm_100.
  std::sort(chips.begin(), chips.end(),
            [](const std::string &a, const std::string &b) {
              return StringRef(a).compare_numeric(b) < 0;
            });
  return chips;
}

LogicalResult mlir::flyhoist::verifyChip(
    StringRef kind, StringRef chip,
    function_ref<LogicalResult(const Twine &)> errorHandler) {
  std::vector<std::string> known = getKnownChips(kind);
  // Without the backend there is nothing to check against; the lowering
  // reports the missing target itself.
  if (known.empty() ||
      std::find(known.begin(), known.end(), chip) != known.end())
    return success();
  std::string list;
  for (const std::string &name : known)
    list += (list.empty() ? "" : ", ") + name;
  return errorHandler("unknown " + kind + " chip '" + chip +
                      "'; LLVM " LLVM_VERSION_STRING " knows: " + list);
}

/// Registers a pipeline whose options are checked before it is built: the
/// option parser's own checks, then the chip. PassPipelineRegistration has
/// no way to fail after parsing.
template <typename Options>
static void registerCheckedPipeline(StringRef argument, StringRef description,
                                    StringRef kind,
                                    void (*build)(OpPassManager &,
                                                  const Options &)) {
  registerPassPipeline(
      argument, description,
      [kind, build](OpPassManager &pm, StringRef text,
                    function_ref<LogicalResult(const Twine &)> errorHandler) {
        Options options;
        std::string errors;
        llvm::raw_string_ostream stream(errors);
        if (failed(options.parseFromString(text, stream))) {
          StringRef message = StringRef(errors).trim();
          return message.empty() ? failure() : errorHandler(message);
        }
        if (failed(verifyChip(kind, options.chip, errorHandler)))
          return failure();
        build(pm, options);
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)> handler) {
        handler(Options());
      });
}

void mlir::flyhoist::registerFlyHoistPipelines() {
  registerCheckedPipeline<AMDGPUPipelineOptions>(
      "flyhoist-amdgpu-pipeline",
      "Lower upstream GPU IR to AMDGPU code objects in gpu.binary "
      "(chip=gfx942|gfx950 format=bin|isa toolkit=...)",
      "amdgpu", buildAMDGPUPipeline);
  registerCheckedPipeline<NVVMPipelineOptions>(
      "flyhoist-nvvm-pipeline",
      "Lower upstream GPU IR to PTX in gpu.binary (chip=sm_90 format=isa)",
      "nvvm", buildNVVMPipeline);
}
