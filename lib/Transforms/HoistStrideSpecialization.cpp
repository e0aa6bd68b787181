//===- HoistStrideSpecialization.cpp - The hoisting pass ------------------===//
//
// A thin driver over hoistStrideSpecialization(), which frontends can call
// directly.
//
//===----------------------------------------------------------------------===//

#include "flyhoist/Transforms/HoistStrideSpecialization.h"
#include "flyhoist/Transforms/Manifest.h"
#include "flyhoist/Transforms/Passes.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::flyhoist {
#define GEN_PASS_DEF_HOISTSTRIDESPECIALIZATION
#include "flyhoist/Transforms/Passes.h.inc"
} // namespace mlir::flyhoist

using namespace mlir;
using namespace mlir::flyhoist;

namespace {
struct HoistStrideSpecializationPass
    : public flyhoist::impl::HoistStrideSpecializationBase<
          HoistStrideSpecializationPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Open the manifest first: an unwritable path must fail before the
    // module changes.
    std::unique_ptr<llvm::ToolOutputFile> manifestFile;
    if (!manifestPath.empty()) {
      std::string error;
      manifestFile = openOutputFile(manifestPath, &error);
      if (!manifestFile) {
        module.emitError() << "cannot write manifest '" << manifestPath
                           << "': " << error;
        return signalPassFailure();
      }
    }

    if (divisibility > 1 && !llvm::isPowerOf2_64(divisibility)) {
      module.emitError() << "divisibility=" << static_cast<uint64_t>(divisibility)
                         << " must be a power of two (or 0 for off)";
      return signalPassFailure();
    }

    HoistOptions options;
    options.materializeKept = materializeKept;
    options.emitRemarks = emitRemarks;
    options.hoistIntoHost = hoistIntoHost;
    options.divisibility = divisibility;
    options.narrowRange = narrowRange;
    FailureOr<HoistReport> report = hoistStrideSpecialization(module, options);
    if (failed(report))
      return signalPassFailure();

    if (manifestFile) {
      manifestFile->os() << renderManifestJSON(module, *report);
      manifestFile->keep();
    }
  }
};
} // namespace
