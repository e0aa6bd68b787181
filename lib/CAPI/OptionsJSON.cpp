//===- OptionsJSON.cpp - Option strings parsed by their owners, as data ---===//
//
// flyhoistPrintHoistOptions and flyhoistPrintPipelineOptions: an option
// string parsed by the pass or pipeline it is for, with every check those
// make, and handed back as typed values, so that a host asks what a string
// sets instead of matching its text.
//
//===----------------------------------------------------------------------===//

#include "flyhoist-c/FlyHoist.h"

#include "flyhoist/Pipelines/Pipelines.h"
#include "flyhoist/Transforms/HoistStrideSpecialization.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"

#include "llvm/Support/JSON.h"

#include <string>

using namespace mlir;

/// Parses `options` with `describe` and passes the JSON it returns to
/// `callback`; on failure, emits one error in `context`, "invalid options
/// for <what>: '<options>'", with a note per reason, as
/// flyhoistHoistStrideSpecialization does for the same options.
static MlirLogicalResult
printOptions(MlirContext context, StringRef what, StringRef options,
             function_ref<FailureOr<llvm::json::Object>(
                 function_ref<LogicalResult(const Twine &)>)>
                 describe,
             MlirStringCallback callback, void *userData) {
  SmallVector<std::string> reasons;
  FailureOr<llvm::json::Object> parsed = describe([&](const Twine &reason) {
    reasons.push_back(reason.str());
    return failure();
  });
  if (failed(parsed)) {
    InFlightDiagnostic diag = emitError(UnknownLoc::get(unwrap(context)))
                              << "invalid options for " << what << ": '"
                              << options << "'";
    for (StringRef reason : reasons)
      if (!reason.trim().empty())
        diag.attachNote() << reason.trim();
    return mlirLogicalResultFailure();
  }
  mlir::detail::CallbackOstream stream(callback, userData);
  stream << llvm::json::Value(std::move(*parsed));
  stream.flush();
  return mlirLogicalResultSuccess();
}

MlirLogicalResult flyhoistPrintHoistOptions(MlirContext context,
                                            MlirStringRef options,
                                            MlirStringCallback callback,
                                            void *userData) {
  if (mlirContextIsNull(context))
    return mlirLogicalResultFailure();
  StringRef text = unwrap(options);
  return printOptions(
      context, "hoist-stride-specialization", text,
      [&](function_ref<LogicalResult(const Twine &)> errorHandler) {
        return flyhoist::describeHoistOptions(text, errorHandler);
      },
      callback, userData);
}

MlirLogicalResult flyhoistPrintPipelineOptions(MlirContext context,
                                               MlirStringRef pipeline,
                                               MlirStringRef options,
                                               MlirStringCallback callback,
                                               void *userData) {
  if (mlirContextIsNull(context))
    return mlirLogicalResultFailure();
  StringRef name = unwrap(pipeline), text = unwrap(options);
  return printOptions(
      context, name, text,
      [&](function_ref<LogicalResult(const Twine &)> errorHandler) {
        return flyhoist::describePipelineOptions(name, text, errorHandler);
      },
      callback, userData);
}
