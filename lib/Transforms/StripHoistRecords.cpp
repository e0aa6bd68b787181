//===- StripHoistRecords.cpp - drop #spec.record attributes ---------------===//
//
// stripHoistRecords() and the pass, a thin driver over it.
//
//===----------------------------------------------------------------------===//

#include "flyhoist/Transforms/StripHoistRecords.h"
#include "flyhoist/Dialect/Spec/SpecDialect.h"
#include "flyhoist/Transforms/Passes.h"

namespace mlir::flyhoist {
#define GEN_PASS_DEF_STRIPHOISTRECORDS
#include "flyhoist/Transforms/Passes.h.inc"
} // namespace mlir::flyhoist

using namespace mlir;
using namespace mlir::flyhoist;

unsigned mlir::flyhoist::stripHoistRecords(Operation *root) {
  unsigned removed = 0;
  root->walk([&](Operation *op) {
    if (op->removeAttr(spec::kRecordAttrName))
      ++removed;
  });
  return removed;
}

namespace {
struct StripHoistRecordsPass
    : public flyhoist::impl::StripHoistRecordsBase<StripHoistRecordsPass> {
  using Base::Base;

  void runOnOperation() override { stripHoistRecords(getOperation()); }
};
} // namespace
