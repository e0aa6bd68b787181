//===- Pipelines.h - Named lowering pipelines of fly-opt --------*- C++ -*-===//
//
// Pipelines from upstream GPU IR (gpu, arith, memref, vector, scf, math) to a
// `gpu.binary`: `flyhoist-amdgpu-pipeline` for AMDGPU code objects and
// `flyhoist-nvvm-pipeline` for PTX. Only device code is lowered; host code
// (the functions holding `gpu.launch_func`) is left as it is.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_PIPELINES_PIPELINES_H
#define FLYHOIST_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace mlir::flyhoist {

/// The folder holding `llvm/bin/ld.lld`, a link to LLVM 22's ld.lld, which
/// `gpu-module-to-binary` runs for `format=bin`: the installed one
/// (`<prefix>/lib/flyhoist/toolkit`, found next to the library or executable
/// holding this code) or else the one the build made. Empty when the build
/// found no ld.lld.
StringRef getDefaultAMDGPUToolkitPath();

/// Options of `flyhoist-amdgpu-pipeline`.
struct AMDGPUPipelineOptions
    : public PassPipelineOptions<AMDGPUPipelineOptions> {
  /// The AMDGPU target, e.g. gfx942 or gfx950.
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("AMDGPU chip"), llvm::cl::init("gfx942")};
  /// `bin` (HSA code object, needs ld.lld), `isa` (assembly text) or `llvm`.
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("Object format: bin (code object), isa or llvm"),
      llvm::cl::init("bin")};
  /// A folder holding `llvm/bin/ld.lld`; empty: the one the build made.
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("Folder holding llvm/bin/ld.lld (default: the build's)"),
      llvm::cl::init("")};
  /// LLVM optimization level of the device code.
  PassOptions::Option<unsigned> optLevel{
      *this, "O", llvm::cl::desc("Device code optimization level"),
      llvm::cl::init(3)}; /// Lower memref kernel arguments to one bare pointer
                          /// each instead of the
  /// unpacked descriptor (3 + 2 * rank parameters; docs/MANIFEST.md,
  /// `kernel_parameter`). Every memref argument of every gpu.func must then
  /// have a static shape and the identity layout.
  PassOptions::Option<bool> useBarePtrCallConv{
      *this, "use-bare-ptr-memref-call-conv",
      llvm::cl::desc("Pass memref kernel arguments as bare pointers "
                     "(static shapes only)"),
      llvm::cl::init(false)};
};

/// Options of `flyhoist-nvvm-pipeline`.
struct NVVMPipelineOptions : public PassPipelineOptions<NVVMPipelineOptions> {
  /// The NVIDIA target, e.g. sm_90.
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("NVIDIA SM"), llvm::cl::init("sm_90")};
  /// `isa` (PTX, needs no CUDA toolkit), `bin` or `fatbin` (need ptxas).
  PassOptions::Option<std::string> format{
      *this, "format", llvm::cl::desc("Object format: isa (PTX), bin, fatbin"),
      llvm::cl::init("isa")};
  /// PTX features, e.g. +ptx80; empty: LLVM's default for the chip.
  PassOptions::Option<std::string> features{
      *this, "features", llvm::cl::desc("PTX features"), llvm::cl::init("")};
  /// LLVM optimization level of the device code.
  PassOptions::Option<unsigned> optLevel{
      *this, "O", llvm::cl::desc("Device code optimization level"),
      llvm::cl::init(3)}; /// Lower memref kernel arguments to one bare pointer
                          /// each instead of the
  /// unpacked descriptor (3 + 2 * rank parameters; docs/MANIFEST.md,
  /// `kernel_parameter`). Every memref argument of every gpu.func must then
  /// have a static shape and the identity layout.
  PassOptions::Option<bool> useBarePtrCallConv{
      *this, "use-bare-ptr-memref-call-conv",
      llvm::cl::desc("Pass memref kernel arguments as bare pointers "
                     "(static shapes only)"),
      llvm::cl::init(false)};
};

/// Lowers every `gpu.module` to ROCDL and serializes it into a `gpu.binary`
/// for `options.chip`: materialize-specialization, inlining, scf/affine/view
/// lowering, convert-gpu-to-rocdl and gpu-module-to-binary. The pipeline adds
/// to the context what it needs besides the dialects of the input (the ROCDL
/// target model and the LLVM IR translations of builtin, llvm, gpu, rocdl).
void buildAMDGPUPipeline(OpPassManager &pm,
                         const AMDGPUPipelineOptions &options);

/// Lowers every `gpu.module` to NVVM and serializes it into a `gpu.binary`
/// (PTX by default) for `options.chip`, adding to the context what it needs
/// as the AMDGPU pipeline does (the NVVM target model and translations).
void buildNVVMPipeline(OpPassManager &pm, const NVVMPipelineOptions &options);

/// The processor names LLVM's backend knows for `kind` ("amdgpu": the
/// amdgcn-amd-amdhsa processors, gfx942 and the like; "nvvm": the
/// nvptx64-nvidia-cuda ones, sm_90 and the like), sorted. Empty when `kind`
/// is neither or LLVM was built without that backend. This is the one list
/// of known chips: the pipelines check their `chip=` against it and the C
/// API hands it to hosts (flyhoistPrintKnownChips).
std::vector<std::string> getKnownChips(StringRef kind);

/// Fails, with an error through `errorHandler` that names the known chips,
/// when `chip` is not one LLVM's backend for `kind` knows. LLVM itself would
/// abort the process (AMDGPU) or write PTX for a made-up target (NVPTX).
LogicalResult
verifyChip(StringRef kind, StringRef chip,
           function_ref<LogicalResult(const Twine &)> errorHandler);

/// Parses `options` as `pipeline` (flyhoist-amdgpu-pipeline or
/// flyhoist-nvvm-pipeline) does before it is built, every check included
/// (each reason through `errorHandler`), and returns them as data:
/// {"values": {name: typed value, for every option}, "explicit": [the names
/// `options` sets, whatever their value]}.
FailureOr<llvm::json::Object> describePipelineOptions(
    StringRef pipeline, StringRef options,
    function_ref<LogicalResult(const Twine &)> errorHandler);

/// Registers `flyhoist-amdgpu-pipeline` and `flyhoist-nvvm-pipeline`.
void registerFlyHoistPipelines();

} // namespace mlir::flyhoist

#endif // FLYHOIST_PIPELINES_PIPELINES_H
