//===- HoistStrideSpecialization.h - Frontend-callable API ------*- C++ -*-===//
//
// The transformation behind `hoist-stride-specialization` and
// `materialize-specialization`, callable without a pass manager so that a
// DSL frontend can run it on its own module and read back what it did.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_TRANSFORMS_HOISTSTRIDESPECIALIZATION_H
#define FLYHOIST_TRANSFORMS_HOISTSTRIDESPECIALIZATION_H

#include "flyhoist/Transforms/HoistOptions.h"
#include "flyhoist/Transforms/MaterializeSpecialization.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/JSON.h"

namespace mlir::flyhoist {

/// What one run of the transformation did, summed over the module (the
/// pass's statistics; the details are in each function's `spec.record`).
struct HoistSummary {
  /// (function, parameter) pairs that became a runtime value.
  unsigned hoisted = 0;
  /// (function, parameter) pairs kept as constants.
  unsigned kept = 0;
  /// (function, parameter) pairs removed because nothing used them.
  unsigned removed = 0;
  /// Launch sites (gpu.launch_func, calls) that pass new arguments.
  unsigned launchSitesUpdated = 0;
};

/// Hoists every parameter of every kernel of `module` that is used only in
/// address arithmetic into a runtime kernel argument (or its `equals` value),
/// updates every launch site and materializes the rest.
///
/// A failure leaves the module as it was: discovery (KernelDiscovery.h)
/// only reads and finds every error; then each group of functions is
/// planned (HoistPlanning.h), which only reads and cannot fail, and
/// rewritten (HoistRewrite.h), which cannot fail either. On failure
/// (e.g. one name with two values), errors have been emitted at the
/// offending ops and `module` is unchanged. Invalid options are rejected the
/// same way (validateHoistOptions), as is an unwritable `manifestPath`, which
/// is opened before anything changes and written after the rewrite. What was
/// done is in the `spec.record` of each function rewritten
/// (spec::collectHoistRecords, renderManifestJSON).
FailureOr<HoistSummary>
hoistStrideSpecialization(ModuleOp module, const HoistOptions &options = {});

/// Parses `options` as hoist-stride-specialization does (every check of the
/// pass's initializeOptions, each reason through `errorHandler`) and returns
/// them as data: {"values": {name: typed value, for every option},
/// "explicit": [the names `options` sets, whatever their value]}.
FailureOr<llvm::json::Object>
describeHoistOptions(StringRef options,
                     function_ref<LogicalResult(const Twine &)> errorHandler);

} // namespace mlir::flyhoist

#endif // FLYHOIST_TRANSFORMS_HOISTSTRIDESPECIALIZATION_H
