//===- HoistRemarks.cpp - How hoisting decisions are worded ---------------===//

#include "HoistRemarks.h"

#include "HoistPlanning.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Remarks.h"

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

StringAttr mlir::flyhoist::blockReasonAttr(const BlockingUse &use) {
  return StringAttr::get(use.user->getContext(), describeBlockReason(use));
}

/// One remark per parameter per kernel or device function: hoisted where,
/// or kept and why. At the first `spec.param` of the name, or at the
/// function for a name it only passes on.
void mlir::flyhoist::remarkOnDecision(const KernelPlan &kernel,
                                      const ParamPlan &param) {
  Operation *anchor = param.ops.empty()
                          ? static_cast<Operation *>(kernel.kernel->function)
                          : static_cast<Operation *>(param.ops.front());
  std::string where =
      (kernel.kernel->kindName() + " " + kernel.kernel->path).str();
  switch (param.decision) {
  case ParamPlan::Decision::Hoist: {
    InFlightDiagnostic remark = anchor->emitRemark()
                                << "'" << param.name.getValue()
                                << "' hoisted in " << where << ": ";
    if (param.argumentIndex)
      remark << "runtime argument " << *param.argumentIndex;
    else
      remark << "uses take its 'equals' value";
    if (param.passedTo)
      remark << ", passed on to " << param.passedTo.getValue();
    return;
  }
  case ParamPlan::Decision::Keep: {
    InFlightDiagnostic remark = anchor->emitRemark()
                                << "'" << param.name.getValue()
                                << "' kept specialized in " << where << ": "
                                << param.reason.getValue();
    if (param.blockingLoc)
      remark.attachNote(*param.blockingLoc)
          << "needs '" << param.name.getValue() << "' as a constant here";
    return;
  }
  case ParamPlan::Decision::Unused:
    anchor->emitRemark() << "'" << param.name.getValue() << "' is unused in "
                         << where << "; removed";
    return;
  }
}

void mlir::flyhoist::reportToRemarkEngine(const KernelPlan &kernel,
                                          const ParamPlan &param) {
  bool kept = param.decision == ParamPlan::Decision::Keep;
  if (!kernel.kernel->function->getContext()->getRemarkEngine())
    return;
  Location loc = param.ops.empty() ? kernel.kernel->function->getLoc()
                                   : param.ops.front()->getLoc();
  StringRef name = param.name.getValue();
  auto opts = remark::RemarkOpts::name("StrideSpecialization")
                  .category("hoist-stride-specialization")
                  .subCategory(name)
                  .function(kernel.kernel->path);
  // An engine that filters the category out returns an empty remark: the
  // text is then not built at all.
  remark::detail::InFlightRemark remark =
      kept ? remark::missed(loc, opts) : remark::passed(loc, opts);
  if (!remark)
    return;
  switch (param.decision) {
  case ParamPlan::Decision::Hoist:
    remark << remark::add("'{0}' hoisted", name)
           << remark::metric("argument",
                             param.argumentIndex
                                 ? static_cast<int64_t>(*param.argumentIndex)
                                 : int64_t(-1));
    return;
  case ParamPlan::Decision::Keep:
    remark << remark::add("'{0}' kept", name)
           << remark::reason("{0}", param.reason.getValue());
    return;
  case ParamPlan::Decision::Unused:
    remark << remark::add("'{0}' unused; removed", name);
    return;
  }
}

/// A parameter left in a gpu.module outside any kernel or device function
/// (e.g. in a global's initializer) is baked into the module: say so.
void mlir::flyhoist::remarkOnDeviceConstant(spec::ParamOp param) {
  auto gpuModule = param->getParentOfType<gpu::GPUModuleOp>();
  if (!gpuModule)
    return;
  param.emitRemark() << "'" << param.getName() << "' kept specialized in "
                     << symbolPath(gpuModule)
                     << ": outside any function, nothing can pass it at run "
                        "time";
}
