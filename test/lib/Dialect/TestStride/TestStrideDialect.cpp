//===- TestStrideDialect.cpp - A DSL-like dialect for the tests -----------===//

#include "TestStrideDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::flyhoist;
using namespace mlir::flyhoist::test;

#include "TestStrideOpsDialect.cpp.inc"

void TestStrideDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "TestStrideOps.cpp.inc"
      >();
}

#define GET_OP_CLASSES
#include "TestStrideOps.cpp.inc"

// The buffer and the offset are addresses; the mask is not.
UseVerdict BufferLoadOp::classifyStrideUse(OpOperand &use, unsigned facet) {
  if (use.get() == getMask())
    return UseVerdict::blocking(BlockReason::MaskOrPadding);
  if (use.get() == getBuffer() && facet == kViewSizesFacet)
    return UseVerdict::notRead();
  return UseVerdict::sink();
}

// offset + step * count: offset and step are address arithmetic; the count
// is a trip count the DSL unrolls by, so it needs a constant.
UseVerdict AdvanceOp::classifyStrideUse(OpOperand &use, unsigned facet) {
  if (use.get() == getCount())
    return UseVerdict::blocking(BlockReason::LoopBound);
  return UseVerdict::passThrough(getResult());
}

namespace {
/// What a plugin attaches to an op it does not own.
struct UnownedModel
    : public StrideUseOpInterface::ExternalModel<UnownedModel, UnownedOp> {
  UseVerdict classifyStrideUse(Operation *op, OpOperand &use,
                               unsigned facet) const {
    return UseVerdict::passThrough(op->getResults());
  }
};
} // namespace

void mlir::flyhoist::test::registerTestStrideDialect(
    DialectRegistry &registry) {
  registry.insert<TestStrideDialect>();
  registry.addExtension(+[](MLIRContext *context, TestStrideDialect *) {
    UnownedOp::attachInterface<UnownedModel>(*context);
  });
}
