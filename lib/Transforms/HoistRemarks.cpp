//===- HoistRemarks.cpp - How hoisting decisions are worded ---------------===//

#include "flyhoist/Transforms/HoistRemarks.h"

using namespace mlir;
using namespace mlir::flyhoist;

spec::KeepReasonInfo mlir::flyhoist::keepReasonOf(const BlockingUse &use) {
  spec::KeepReasonInfo why;
  why.reason = use.reason;
  // Only the wording of unknown operations and operands names the operation,
  // and only that of unclassified operands the position: other reasons leave
  // them out so that one reason is one record entry.
  if (use.reason == BlockReason::UnknownOperation ||
      use.reason == BlockReason::UnknownOperand)
    why.op = use.user->getName().getIdentifier();
  if (use.reason == BlockReason::UnknownOperand)
    why.operand = use.operandNumber;
  return why;
}
