//===- HoistStrideSpecialization.cpp - The hoisting pass ------------------===//
//
// A thin driver over hoistStrideSpecialization(), which frontends can call
// directly.
//
//===----------------------------------------------------------------------===//

#include "flyhoist/Transforms/HoistStrideSpecialization.h"
#include "flyhoist/Transforms/Passes.h"

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
    HoistOptions options;
    options.materializeKept = materializeKept;
    options.emitRemarks = emitRemarks;
    if (failed(hoistStrideSpecialization(getOperation(), options)))
      return signalPassFailure();
  }
};
} // namespace
