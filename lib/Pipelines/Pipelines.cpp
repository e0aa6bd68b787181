//===- Pipelines.cpp - Named lowering pipelines of fly-opt ----------------===//

#include "flyhoist/Pipelines/Pipelines.h"

#include "flyhoist/Transforms/OptionValues.h"
#include "flyhoist/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ComplexToLLVM/ComplexToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/GPUToROCDL/GPUToROCDLPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVM/ROCDL/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/ROCDL/ROCDLToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Triple.h"

#include <algorithm>
#include <memory>
#include <mutex>

#include <dlfcn.h>

using namespace mlir;
using namespace mlir::flyhoist;

#ifndef FLYHOIST_DEFAULT_AMDGPU_TOOLKIT
#define FLYHOIST_DEFAULT_AMDGPU_TOOLKIT ""
#endif

StringRef mlir::flyhoist::getDefaultAMDGPUToolkitPath() {
  static const std::string path = [] {
    // Installed (`cmake --install`): <prefix>/lib/flyhoist/toolkit, next to
    // the library (lib/) or executable (bin/) holding this code. Otherwise
    // the folder the build made.
    Dl_info info;
    if (dladdr(reinterpret_cast<void *>(&getDefaultAMDGPUToolkitPath), &info) &&
        info.dli_fname) {
      StringRef here = llvm::sys::path::parent_path(info.dli_fname);
      for (StringRef relative :
           {"flyhoist/toolkit", "../lib/flyhoist/toolkit"}) {
        SmallString<256> toolkit(here);
        llvm::sys::path::append(toolkit, relative);
        SmallString<256> lld(toolkit);
        llvm::sys::path::append(lld, "llvm", "bin", "ld.lld");
        if (llvm::sys::fs::exists(lld))
          return std::string(toolkit);
      }
    }
    return std::string(FLYHOIST_DEFAULT_AMDGPU_TOOLKIT);
  }();
  return path;
}

namespace {

/// The first pass of each pipeline (`flyhoist-lowering-interfaces{target=
/// rocdl|nvvm}`, registered with the pipelines for a frontend's own lowering
/// pipeline and so that printed pipelines parse). It does nothing to the IR; it
/// exists for what it adds to the context before the pipeline runs (a pass's
/// dependent dialects and registry extensions are appended to the context by
/// the pass manager): the target attribute models that gpu-module-to-binary
/// calls through (without them MLIR 22 dereferences a null interface and
/// crashes in the serializer), the conversion interfaces through which
/// convert-gpu-to-rocdl/nvvm lower the other dialects of a kernel (without
/// them arith and memref ops are left behind as unrealized casts), and the
/// LLVM IR translations of the dialects a lowered gpu.module holds. A host that
/// registered only its own dialects (through the C API, say) gets a working
/// pipeline; one that registered everything already loses nothing, as
/// registering a model twice keeps the first.
struct RegisterLoweringInterfacesPass
    : public PassWrapper<RegisterLoweringInterfacesPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(RegisterLoweringInterfacesPass)

  RegisterLoweringInterfacesPass() = default;
  RegisterLoweringInterfacesPass(const RegisterLoweringInterfacesPass &other)
      : PassWrapper(other) {}
  explicit RegisterLoweringInterfacesPass(StringRef targetName) {
    target = targetName.str();
  }

  StringRef getArgument() const override {
    return "flyhoist-lowering-interfaces";
  }
  StringRef getDescription() const override {
    return "Add to the context the target models, conversion interfaces and "
           "LLVM IR translations the ROCDL or NVVM lowering needs";
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    arith::registerConvertArithToLLVMInterface(registry);
    cf::registerConvertControlFlowToLLVMInterface(registry);
    index::registerConvertIndexToLLVMInterface(registry);
    registerConvertComplexToLLVMInterface(registry);
    registerConvertFuncToLLVMInterface(registry);
    registerConvertMathToLLVMInterface(registry);
    registerConvertMemRefToLLVMInterface(registry);
    ub::registerConvertUBToLLVMInterface(registry);
    vector::registerConvertVectorToLLVMInterface(registry);
    registerBuiltinDialectTranslation(registry);
    registerLLVMDialectTranslation(registry);
    registerGPUDialectTranslation(registry);
    if (target == "nvvm") {
      NVVM::registerNVVMTargetInterfaceExternalModels(registry);
      registerConvertNVVMToLLVMInterface(registry);
      registerNVVMDialectTranslation(registry);
    } else {
      ROCDL::registerROCDLTargetInterfaceExternalModels(registry);
      registerROCDLDialectTranslation(registry);
    }
  }

  void runOnOperation() override {
    if (target != "rocdl" && target != "nvvm") {
      getOperation()->emitError("flyhoist-lowering-interfaces: target='")
          << target << "' is neither 'rocdl' nor 'nvvm'";
      signalPassFailure();
    }
  }

  Option<std::string> target{*this, "target", llvm::cl::desc("rocdl or nvvm"),
                             llvm::cl::init("rocdl")};
};

} // namespace

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
  pm.addPass(std::make_unique<RegisterLoweringInterfacesPass>("rocdl"));
  // Kept parameters become constants; the lowering cannot take spec.param.
  pm.addPass(createMaterializeSpecialization());
  GpuROCDLAttachTargetOptions target;
  target.chip = options.chip;
  target.optLevel = options.optLevel;
  pm.addPass(createGpuROCDLAttachTarget(target));

  addCommonDeviceLowering(pm);
  ConvertGpuOpsToROCDLOpsOptions convert;
  convert.chipset = options.chip;
  convert.useBarePtrCallConv = options.useBarePtrCallConv;
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
  pm.addPass(std::make_unique<RegisterLoweringInterfacesPass>("nvvm"));
  pm.addPass(createMaterializeSpecialization());
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
  ConvertGpuOpsToNVVMOpsOptions convert;
  convert.useBarePtrCallConv = options.useBarePtrCallConv;
  pm.nest<gpu::GPUModuleOp>().addPass(createConvertGpuOpsToNVVMOps(convert));
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

/// Parses `text` into `options` with every check a pipeline makes before it
/// is built: the typed values first (LLVM's parsers would report a bad one
/// on stderr only, flyhoist/Transforms/OptionValues.h), then the option
/// parser's own checks, then the chip.
template <typename Options>
static LogicalResult
parseCheckedOptions(Options &options, StringRef kind, StringRef text,
                    function_ref<LogicalResult(const Twine &)> errorHandler) {
  auto kindOf = [](StringRef key) -> std::optional<OptionKind> {
    if (key == "O")
      return OptionKind::Unsigned32;
    if (key == "use-bare-ptr-memref-call-conv")
      return OptionKind::Bool;
    return std::nullopt;
  };
  if (failed(checkOptionString(text, kindOf, errorHandler)))
    return failure();
  std::string errors;
  llvm::raw_string_ostream stream(errors);
  if (failed(options.parseFromString(text, stream))) {
    StringRef message = StringRef(errors).trim();
    return message.empty() ? failure() : errorHandler(message);
  }
  return verifyChip(kind, options.chip, errorHandler);
}

/// Registers a pipeline whose options are checked before it is built.
/// PassPipelineRegistration has no way to fail after parsing.
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
        if (failed(parseCheckedOptions(options, kind, text, errorHandler)))
          return failure();
        build(pm, options);
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)> handler) {
        handler(Options());
      });
}

FailureOr<llvm::json::Object> mlir::flyhoist::describePipelineOptions(
    StringRef pipeline, StringRef text,
    function_ref<LogicalResult(const Twine &)> errorHandler) {
  OptionsDescription json;
  if (pipeline == "flyhoist-amdgpu-pipeline") {
    AMDGPUPipelineOptions options;
    if (failed(parseCheckedOptions(options, "amdgpu", text, errorHandler)))
      return failure();
    json.add(options.chip);
    json.add(options.format);
    json.add(options.toolkit);
    json.add(options.optLevel);
    json.add(options.useBarePtrCallConv);
    return json.take();
  }
  if (pipeline == "flyhoist-nvvm-pipeline") {
    NVVMPipelineOptions options;
    if (failed(parseCheckedOptions(options, "nvvm", text, errorHandler)))
      return failure();
    json.add(options.chip);
    json.add(options.format);
    json.add(options.features);
    json.add(options.optLevel);
    json.add(options.useBarePtrCallConv);
    return json.take();
  }
  (void)errorHandler("unknown pipeline '" + pipeline +
                     "'; flyhoist-amdgpu-pipeline or flyhoist-nvvm-pipeline");
  return failure();
}

void mlir::flyhoist::registerFlyHoistPipelines() {
  PassRegistration<RegisterLoweringInterfacesPass>();
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
