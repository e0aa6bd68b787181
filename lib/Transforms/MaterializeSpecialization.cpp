//===- MaterializeSpecialization.cpp - spec.param to constants ------------===//
//
// A thin driver over materializeSpecialization(): the fully specialized
// baseline.
//
//===----------------------------------------------------------------------===//

#include "flyhoist/Transforms/HoistStrideSpecialization.h"
#include "flyhoist/Transforms/Passes.h"

namespace mlir::flyhoist {
#define GEN_PASS_DEF_MATERIALIZESPECIALIZATION
#include "flyhoist/Transforms/Passes.h.inc"
} // namespace mlir::flyhoist

using namespace mlir;
using namespace mlir::flyhoist;

namespace {
struct MaterializeSpecializationPass
    : public flyhoist::impl::MaterializeSpecializationBase<
          MaterializeSpecializationPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(verifyConsistentParamValues(getOperation())))
      return signalPassFailure();
    materializeSpecialization(getOperation());
  }
};
} // namespace
