//===- ModelSupport.h - Shared pieces of the upstream models ----*- C++ -*-===//
//
// Private to lib/Analysis: how the external models of each dialect family
// (ArithModels.cpp, MemRefVectorModels.cpp, GPUModels.cpp, LLVMModels.cpp)
// name operands, the roles operands play, and the generic rules.
//
// Every rule names its operands through the operation's generated accessors
// (`getIndicesMutable()`, ...) and compares operand *positions*, never
// values: one SSA value may be both an offset and a size of one operation,
// and each position is classified on its own. An operand that no rule of
// its operation names is blocking (`unclassified`), never an address.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_LIB_ANALYSIS_MODELSUPPORT_H
#define FLYHOIST_LIB_ANALYSIS_MODELSUPPORT_H

#include "flyhoist/Analysis/StrideUseAnalysis.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/DialectRegistry.h"

namespace mlir::flyhoist::models {

//===----------------------------------------------------------------------===//
// Naming operands
//===----------------------------------------------------------------------===//

/// Whether `use` is the operand `operand` (by position, not by value).
inline bool is(OpOperand &use, OpOperand &operand) { return &use == &operand; }

/// Whether `use` is one of `operands` (by position, not by value).
inline bool in(OpOperand &use, MutableOperandRange operands) {
  for (OpOperand &operand : operands)
    if (&operand == &use)
      return true;
  return false;
}

//===----------------------------------------------------------------------===//
// Roles of operands
//===----------------------------------------------------------------------===//

/// An operand no rule of its operation names: fail closed.
inline UseVerdict unclassified() {
  return UseVerdict::blocking(BlockReason::UnknownOperand);
}
/// A value stored to memory.
inline UseVerdict data() {
  return UseVerdict::blocking(BlockReason::StoredData);
}
/// A mask, padding, element count or cache-policy operand.
inline UseVerdict policy() {
  return UseVerdict::blocking(BlockReason::MaskOrPadding);
}
/// An operand the instruction encodes as an immediate. LLVM's tables say so
/// first (isImmediateOperand), but only while the op's operands match the
/// intrinsic's parameters one to one; the model names it too, so that it
/// stays blocked where an MLIR release moves another immediate to an
/// attribute and the match fails (docs/INTEGRATION.md, porting notes).
inline UseVerdict immediate() {
  return UseVerdict::blocking(BlockReason::MustBeImmediate);
}

/// Whether a value of `type` can hold a pointer, and with it a buffer
/// resource's bound.
bool canHoldPointer(Type type);

/// The operand an access goes through or indexes with: an index or offset
/// is an address; a pointer (or vector of pointers) is an address whose
/// buffer bound, for a fat pointer (`!llvm.ptr<7>`) or a buffer resource,
/// the hardware checks the access against; a memref is read through its
/// layout, and its sizes only when `readsSizes`.
UseVerdict address(OpOperand &use, unsigned facet, bool readsSizes = false);

//===----------------------------------------------------------------------===//
// Rules and models
//===----------------------------------------------------------------------===//

/// A StrideUseOpInterface model that classifies with `Rule::classify`.
template <typename Rule, typename OpTy>
struct RuleModel
    : public StrideUseOpInterface::ExternalModel<RuleModel<Rule, OpTy>, OpTy> {
  UseVerdict classifyStrideUse(Operation *op, OpOperand &use,
                               unsigned facet) const {
    return Rule::classify(cast<OpTy>(op), use, facet);
  }
};

/// Attaches the model of `Rule` to each of `OpTys`.
template <typename Rule, typename... OpTys> void attach(MLIRContext *context) {
  (OpTys::template attachInterface<RuleModel<Rule, OpTys>>(*context), ...);
}

/// Address arithmetic: every operand passes the parameter to every result,
/// in the facet it came in.
struct PassThrough {
  static UseVerdict classify(Operation *op, OpOperand &, unsigned facet) {
    return UseVerdict::passThroughResults(op, facet);
  }
};

/// Operations whose every operand keeps the parameter, for `Reason`.
template <BlockReason Reason> struct Blocking {
  static UseVerdict classify(Operation *, OpOperand &, unsigned) {
    return UseVerdict::blocking(Reason);
  }
};

/// Shifts: the shifted value passes on; the amount is not an address.
struct Shift {
  template <typename OpTy>
  static UseVerdict classify(OpTy op, OpOperand &use, unsigned facet) {
    if (is(use, op.getLhsMutable()))
      return UseVerdict::passThroughResults(op, facet);
    if (is(use, op.getRhsMutable()))
      return UseVerdict::blocking(BlockReason::ShiftAmount);
    return unclassified();
  }
};

/// select: choosing between pointers or fat pointers (what canonicalize
/// makes of an scf.if yielding them) passes the chosen value on; choosing
/// between integers is where clamps live, and the condition is a condition.
struct Select {
  template <typename OpTy>
  static UseVerdict classify(OpTy op, OpOperand &use, unsigned facet) {
    if (is(use, op.getConditionMutable()))
      return UseVerdict::blocking(BlockReason::Clamp);
    if (!is(use, op.getTrueValueMutable()) &&
        !is(use, op.getFalseValueMutable()))
      return unclassified();
    if (isa<LLVM::LLVMPointerType, LLVM::LLVMStructType>(op.getType()))
      return UseVerdict::passThroughResults(op, facet);
    return UseVerdict::blocking(BlockReason::Clamp);
  }
};

//===----------------------------------------------------------------------===//
// The families
//===----------------------------------------------------------------------===//

/// arith, index and affine (ArithModels.cpp).
void registerArithModels(DialectRegistry &registry);
/// memref and vector (MemRefVectorModels.cpp).
void registerMemRefVectorModels(DialectRegistry &registry);
/// gpu, nvgpu, amdgpu and rocdl (GPUModels.cpp).
void registerGPUModels(DialectRegistry &registry);
/// llvm (LLVMModels.cpp).
void registerLLVMModels(DialectRegistry &registry);

} // namespace mlir::flyhoist::models

#endif // FLYHOIST_LIB_ANALYSIS_MODELSUPPORT_H
