//===- HoistRemarks.cpp - How hoisting decisions are worded ---------------===//

#include "flyhoist/Transforms/HoistRemarks.h"

using namespace mlir;
using namespace mlir::flyhoist;

std::string mlir::flyhoist::describeBlockReason(const BlockingUse &use) {
  Operation *user = use.user;
  switch (use.reason) {
  case BlockReason::LoopBound:
    return "loop bound or step";
  case BlockReason::Comparison:
    return "comparison";
  case BlockReason::Clamp:
    return "select/min/max (a clamp)";
  case BlockReason::BranchCondition:
    return "branch condition";
  case BlockReason::Division:
    return "divisor or remainder (runtime division is slow)";
  case BlockReason::ShiftAmount:
    return "shift amount";
  case BlockReason::Allocation:
    return "allocation or shape size";
  case BlockReason::StoredData:
    return "the value stored as data";
  case BlockReason::CallOperand:
    return "call operand";
  case BlockReason::ReturnOperand:
    return "return operand";
  case BlockReason::LaunchDimensions:
    return "launch dimensions";
  case BlockReason::MaskOrPadding:
    return "mask, padding or cache-policy operand of a memory access";
  case BlockReason::SizeReadBack:
    return "a view size or buffer bound that an access reads back";
  case BlockReason::UnknownOperation:
    return ("used by '" + user->getName().getStringRef() +
            "', which the analysis does not know as address arithmetic")
        .str();
  case BlockReason::UnknownOperand:
    return ("used by '" + user->getName().getStringRef() + "' as operand " +
            std::to_string(use.operandNumber) + ", which no rule classifies")
        .str();
  case BlockReason::MustBeImmediate:
    return "must be a compile-time immediate";
  case BlockReason::VectorPosition:
    return "position into a vector (a runtime one indexes registers)";
  case BlockReason::ImmediateOffset:
    return "folds into an instruction's immediate offset";
  }
  llvm_unreachable("unknown BlockReason");
}

StringAttr BlockReasonAttrs::get(const BlockingUse &use) {
  // Only the wording of unclassified operands names the position.
  unsigned position =
      use.reason == BlockReason::UnknownOperand ? use.operandNumber : 0;
  auto [it, inserted] = cache.try_emplace(
      {static_cast<unsigned>(use.reason), use.user->getName(), position},
      nullptr);
  if (inserted)
    it->second =
        StringAttr::get(use.user->getContext(), describeBlockReason(use));
  return it->second;
}
