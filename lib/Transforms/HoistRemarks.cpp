//===- HoistRemarks.cpp - How hoisting decisions are worded ---------------===//

#include "flyhoist/Transforms/HoistRemarks.h"

using namespace mlir;
using namespace mlir::flyhoist;

std::string mlir::flyhoist::describeBlockReason(BlockReason reason,
                                                Operation *user) {
  switch (reason) {
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
    return ("reaches '" + user->getName().getStringRef() +
            "' through an operand the analysis cannot follow")
        .str();
  }
  llvm_unreachable("unknown BlockReason");
}

StringAttr BlockReasonAttrs::get(BlockReason reason, Operation *user) {
  auto [it, inserted] = cache.try_emplace(
      {static_cast<unsigned>(reason), user->getName()}, nullptr);
  if (inserted)
    it->second =
        StringAttr::get(user->getContext(), describeBlockReason(reason, user));
  return it->second;
}
