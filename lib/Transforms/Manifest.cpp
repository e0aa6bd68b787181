//===- Manifest.cpp - What the hoisting did, for frontends ----------------===//

#include "flyhoist/Transforms/Manifest.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::flyhoist;

std::string mlir::flyhoist::fingerprintGPUModule(gpu::GPUModuleOp module) {
  // Generic form and no locations: the hash must not depend on the printer's
  // pretty forms or on where the frontend traced the kernel from.
  std::string text;
  llvm::raw_string_ostream os(text);
  OpPrintingFlags flags;
  flags.printGenericOpForm().enableDebugInfo(false).assumeVerified();
  module->print(os, flags);
  std::array<uint8_t, 32> digest = llvm::SHA256::hash(
      ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(text.data()),
                        text.size()));
  return "sha256:" + llvm::toHex(digest, /*LowerCase=*/true);
}

/// "file:line:col" for file locations (looking through names and call
/// sites), "unknown" otherwise.
static std::string describeLocation(Location location) {
  if (auto fileLoc = dyn_cast<FileLineColLoc>(location))
    return (fileLoc.getFilename().getValue() + ":" +
            Twine(fileLoc.getLine()) + ":" + Twine(fileLoc.getColumn()))
        .str();
  if (auto nameLoc = dyn_cast<NameLoc>(location))
    return describeLocation(nameLoc.getChildLoc());
  if (auto callLoc = dyn_cast<CallSiteLoc>(location))
    return describeLocation(callLoc.getCallee());
  if (auto fusedLoc = dyn_cast<FusedLoc>(location))
    for (Location inner : fusedLoc.getLocations())
      if (std::string text = describeLocation(inner); text != "unknown")
        return text;
  return "unknown";
}

static std::string typeToString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

std::string mlir::flyhoist::renderManifestJSON(ModuleOp module,
                                               const HoistReport &report) {
  llvm::json::Array kernels;
  for (const KernelReport &kernel : report.kernels) {
    llvm::json::Array hoisted;
    for (const HoistedParam &param : kernel.hoisted) {
      llvm::json::Object entry{
          {"name", param.name},
          {"type", typeToString(param.type)},
          {"source", param.argumentIndex ? "argument" : "equals"},
      };
      if (param.argumentIndex)
        entry["argument"] = static_cast<int64_t>(*param.argumentIndex);
      else
        entry["argument"] = nullptr;
      llvm::json::Array preconditions;
      for (const std::string &fact : param.preconditions)
        preconditions.push_back(fact);
      entry["preconditions"] = std::move(preconditions);
      entry["host_argument"] =
          param.hostArgument ? llvm::json::Value(static_cast<int64_t>(
                                   *param.hostArgument))
                             : llvm::json::Value(nullptr);
      hoisted.push_back(std::move(entry));
    }
    llvm::json::Array kept;
    for (const KeptParam &param : kernel.kept)
      kept.push_back(llvm::json::Object{
          {"name", param.name},
          {"value", param.value},
          {"reason", param.reason},
          {"location", describeLocation(param.location)},
      });
    llvm::json::Array launchSites;
    for (Location site : kernel.launchSites)
      launchSites.push_back(describeLocation(site));
    kernels.push_back(llvm::json::Object{
        {"symbol", kernel.symbol},
        {"hoisted", std::move(hoisted)},
        {"kept", std::move(kept)},
        {"launch_sites", std::move(launchSites)},
    });
  }

  llvm::json::Array gpuModules;
  module.walk([&](gpu::GPUModuleOp gpuModule) {
    gpuModules.push_back(llvm::json::Object{
        {"symbol", "@" + gpuModule.getName().str()},
        {"fingerprint", fingerprintGPUModule(gpuModule)},
    });
  });

  llvm::json::Object manifest{
      {"schema", "flyhoist-manifest"},
      {"version", kManifestSchemaVersion},
      {"kernels", std::move(kernels)},
      {"gpu_modules", std::move(gpuModules)},
  };
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(manifest))) << "\n";
  return text;
}
