//===- MaterializeSpecialization.cpp - spec.param to constants ------------===//
//
// materializeSpecialization() and the pass, a thin driver over it.
//
//===----------------------------------------------------------------------===//

#include "flyhoist/Transforms/MaterializeSpecialization.h"
#include "flyhoist/Transforms/Passes.h"

#include "CreatedConstants.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace mlir::flyhoist {
#define GEN_PASS_DEF_MATERIALIZESPECIALIZATION
#include "flyhoist/Transforms/Passes.h.inc"
} // namespace mlir::flyhoist

using namespace mlir;
using namespace mlir::flyhoist;
using spec::ParamOp;

void mlir::flyhoist::materializeParam(ParamOp param) {
  OpBuilder builder(param);
  Value constant = createConstant(builder, param.getLoc(), param,
                                  param.getValueAsTypedAttr());
  param.replaceAllUsesWith(constant);
  param.erase();
}

unsigned mlir::flyhoist::materializeSpecialization(Operation *root) {
  // Called without a pass manager, nothing may have loaded arith yet.
  root->getContext()->getOrLoadDialect<arith::ArithDialect>();
  SmallVector<ParamOp> params;
  root->walk([&](ParamOp param) { params.push_back(param); });
  for (ParamOp param : params)
    materializeParam(param);
  return params.size();
}

LogicalResult mlir::flyhoist::verifyConsistentParamValues(Operation *root) {
  spec::ParamValueTable table;
  WalkResult result = root->walk([&](ParamOp param) {
    return failed(table.check(param)) ? WalkResult::interrupt()
                                      : WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

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
