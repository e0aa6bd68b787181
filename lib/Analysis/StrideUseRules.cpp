//===- StrideUseRules.cpp - How one use of a parameter counts -------------===//
//
// How a use counts comes from, in order: an operand that must be an
// instruction immediate, a rule named in the pass options, the user's
// StrideUseOpInterface (the *Models.cpp files for upstream ops), the
// control-flow interfaces. Anything else keeps the parameter: the analysis
// only hoists what it can prove.
//
//===----------------------------------------------------------------------===//

#include "UseClassification.h"
#include "flyhoist/Analysis/ImmediateOperands.h"
#include "flyhoist/Analysis/StrideUseAnalysis.h"
#include "flyhoist/Analysis/UpstreamTraits.h"
#include "flyhoist/Support/MLIRCompat.h"

#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace mlir::flyhoist;

namespace {
//===----------------------------------------------------------------------===//
// Control flow (the region-successor API is used here only)
//===----------------------------------------------------------------------===//

/// If `use` is among the `forwarded` operands, adds the successor input it
/// reaches, in the same facet, to `reached`.
void addForwardedInput(OperandRange forwarded, ValueRange inputs,
                       OpOperand &use, unsigned facet,
                       SmallVectorImpl<FacetedValue> &reached) {
  if (forwarded.empty()) // an empty range has no operand index to ask for
    return;
  unsigned first = forwarded.getBeginOperandIndex();
  unsigned number = use.getOperandNumber();
  if (number < first || number >= first + forwarded.size())
    return;
  if (unsigned index = number - first; index < inputs.size())
    reached.push_back({inputs[index], facet});
}

/// Uses by region-holding control flow (scf.for, scf.if, scf.while, ...):
/// forwarded operands reach block arguments and results; the others are
/// bounds or conditions.
UseVerdict regionBranchOperand(RegionBranchOpInterface branch, OpOperand &use,
                               unsigned facet) {
  SmallVector<RegionSuccessor> successors;
  branch.getSuccessorRegions(RegionBranchPoint::parent(), successors);
  SmallVector<FacetedValue> reached;
  for (const RegionSuccessor &successor : successors)
    addForwardedInput(branch.getEntrySuccessorOperands(successor),
                      compat::successorInputs(branch, successor), use, facet,
                      reached);
  if (!reached.empty())
    return UseVerdict::passThrough(reached);
  if (isa<LoopLikeOpInterface>(branch.getOperation()))
    return UseVerdict::blocking(BlockReason::LoopBound);
  return UseVerdict::blocking(BlockReason::BranchCondition);
}

/// Uses by region terminators (scf.yield, scf.condition): forwarded operands
/// reach the parent's results or the next iteration's block arguments.
UseVerdict regionTerminatorOperand(RegionBranchTerminatorOpInterface terminator,
                                   OpOperand &use, unsigned facet) {
  auto parent = dyn_cast<RegionBranchOpInterface>(terminator->getParentOp());
  if (!parent)
    return UseVerdict::blocking(BlockReason::UnknownOperand);
  SmallVector<RegionSuccessor> successors;
  parent.getSuccessorRegions(RegionBranchPoint(terminator), successors);
  SmallVector<FacetedValue> reached;
  for (const RegionSuccessor &successor : successors)
    addForwardedInput(terminator.getSuccessorOperands(successor),
                      compat::successorInputs(parent, successor), use, facet,
                      reached);
  if (!reached.empty())
    return UseVerdict::passThrough(reached);
  return UseVerdict::blocking(BlockReason::BranchCondition);
}
} // namespace

//===----------------------------------------------------------------------===//
// Rules named in options
//===----------------------------------------------------------------------===//

FailureOr<StrideUseRules>
StrideUseRules::parse(ArrayRef<std::string> addressOperands,
                      ArrayRef<std::string> passThroughOperands,
                      std::string &error) {
  StrideUseRules result;
  auto parseEntries = [&](ArrayRef<std::string> entries, OperandRole role,
                          StringRef optionName) -> LogicalResult {
    for (StringRef entry : entries) {
      entry = entry.trim();
      auto malformed = [&](StringRef why) {
        error = (optionName + " entry '" + entry + "': " + why +
                 " (expected 'dialect.op[operand numbers]', e.g. "
                 "'fly.buffer_load[1,2]')")
                    .str();
        return failure();
      };
      size_t open = entry.find('[');
      if (open == StringRef::npos || !entry.ends_with("]"))
        return malformed("no operand list");
      StringRef name = entry.take_front(open).trim();
      if (!name.contains('.') || name.starts_with(".") || name.ends_with("."))
        return malformed("the operation name needs a dialect prefix");
      SmallVector<StringRef> numbers;
      entry.drop_front(open + 1).drop_back().split(numbers, ',');
      for (StringRef text : numbers) {
        unsigned number;
        if (text.trim().getAsInteger(10, number))
          return malformed("'" + text.trim().str() +
                           "' is not an operand number");
        auto [it, inserted] = result.rules[name].try_emplace(number, role);
        if (!inserted && it->second != role)
          return malformed("operand " + std::to_string(number) +
                           " is declared both an address and pass-through");
      }
    }
    return success();
  };
  if (failed(parseEntries(addressOperands, OperandRole::Address,
                          "address-operands")) ||
      failed(parseEntries(passThroughOperands, OperandRole::PassThrough,
                          "pass-through-operands")))
    return failure();
  return result;
}

std::optional<UseVerdict> StrideUseRules::classify(OpOperand &use,
                                                   unsigned facet) const {
  // Most runs name no operation.
  if (rules.empty())
    return std::nullopt;
  Operation *op = use.getOwner();
  auto it = rules.find(op->getName().getStringRef());
  if (it == rules.end())
    return std::nullopt;
  auto role = it->second.find(use.getOperandNumber());
  if (role == it->second.end())
    return UseVerdict::blocking(BlockReason::UnknownOperand);
  if (role->second == OperandRole::Address)
    return UseVerdict::sink();
  return UseVerdict::passThroughResults(op, facet);
}

//===----------------------------------------------------------------------===//
// Classification
//===----------------------------------------------------------------------===//

/// Uses by control flow that no StrideUseOpInterface describes: function
/// returns, region-holding ops and their terminators, branches.
static UseVerdict classifyControlFlowUse(OpOperand &use, unsigned facet) {
  Operation *op = use.getOwner();
  // Function returns are return-like terminators too: test them first
  // (hasUpstreamTrait: the same answer in every host process).
  if (hasUpstreamTrait<OpTrait::ReturnLike>(op) &&
      isa_and_nonnull<FunctionOpInterface>(op->getParentOp()))
    return UseVerdict::blocking(BlockReason::ReturnOperand);
  if (auto branch = dyn_cast<RegionBranchOpInterface>(op))
    return regionBranchOperand(branch, use, facet);
  if (auto terminator = dyn_cast<RegionBranchTerminatorOpInterface>(op))
    return regionTerminatorOperand(terminator, use, facet);
  if (auto branch = dyn_cast<BranchOpInterface>(op)) {
    if (std::optional<BlockArgument> argument =
            branch.getSuccessorBlockArgument(use.getOperandNumber()))
      return UseVerdict::passThrough(*argument, facet);
    return UseVerdict::blocking(BlockReason::BranchCondition);
  }
  return UseVerdict::blocking(BlockReason::UnknownOperation);
}

UseVerdict mlir::flyhoist::classifyUseWithModel(OpOperand &use, unsigned facet,
                                                const StrideUseRules &rules,
                                                StrideUseOpInterface model) {
  // An immediate stays one whatever a rule says of the operand.
  if (isImmediateOperand(use))
    return UseVerdict::blocking(BlockReason::MustBeImmediate);
  if (std::optional<UseVerdict> verdict = rules.classify(use, facet))
    return *verdict;
  if (model)
    return model.classifyStrideUse(use, facet);
  return classifyControlFlowUse(use, facet);
}

UseVerdict mlir::flyhoist::classifyUse(OpOperand &use, unsigned facet,
                                       const StrideUseRules &rules) {
  return classifyUseWithModel(use, facet, rules,
                              dyn_cast<StrideUseOpInterface>(use.getOwner()));
}
