//===- HoistRecord.h - What a rewritten function records --------*- C++ -*-===//
//
// The record half of the rewrite: the `spec.record` attribute of each
// rewritten function (what was hoisted, with its preconditions; what was
// kept, and why; where the function is launched from).
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_LIB_TRANSFORMS_HOISTRECORD_H
#define FLYHOIST_LIB_TRANSFORMS_HOISTRECORD_H

#include "HoistPlanning.h"

namespace mlir::flyhoist {

/// The kept parameters' record entries and, in the same order, where the use
/// that needs each as a constant is.
struct KeptRecordEntries {
  SmallVector<Attribute> params;
  SmallVector<Attribute> locations;
};

/// Adds the record entry of kept parameter `param` of `function` to `kept`.
void addKeptEntry(FunctionOpInterface function, const ParamPlan &param,
                  KeptRecordEntries &kept);

/// Sets the record of the planned function: what was hoisted (with the host
/// argument planning named, ParamPlan::hostArgument), what was kept
/// (`kept`), where it is launched from, after the entries of an earlier
/// run's record.
void writeRecord(const KernelPlan &plan, KeptRecordEntries &kept);

} // namespace mlir::flyhoist

#endif // FLYHOIST_LIB_TRANSFORMS_HOISTRECORD_H
