//===- HoistRemarks.cpp - How hoisting decisions are worded ---------------===//

#include "HoistRemarks.h"

#include "HoistPlanning.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Remarks.h"

using namespace mlir;
using namespace mlir::flyhoist;

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
    InFlightDiagnostic remark =
        anchor->emitRemark()
        << "'" << param.name.getValue() << "' kept specialized in " << where
        << ": "
        << spec::describeKeepReason(param.reason, kernel.kernel->kindName());
    if (param.blockingLoc)
      remark.attachNote(param.blockingLoc)
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
           << remark::reason(
                  "{0}", spec::describeKeepReason(param.reason,
                                                  kernel.kernel->kindName()));
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
