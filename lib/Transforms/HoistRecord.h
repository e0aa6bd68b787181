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
#include "HostArguments.h"

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

/// The hoisted entries made so far, for reuse: modules with many kernels
/// hoist the same name into the same argument number again and again, and
/// an entry found here costs a few comparisons where a new one is hashed
/// and uniqued (guarded by test/Bench/pass-cost.test, shape `many`).
class HoistedEntryCache {
public:
  /// The entry with these fields (see spec::HoistedParamAttr).
  spec::HoistedParamAttr get(MLIRContext *context, StringAttr name, Type type,
                             std::optional<int64_t> argument,
                             Type zeroExtendedTo, ArrayAttr preconditions,
                             std::optional<int64_t> hostArgument);

private:
  /// The last entry made for a name and argument number (-1 for none), used
  /// again when its other fields match: a short key keeps the table small
  /// and cheap to hash, and the fields are compared only on a hit.
  DenseMap<std::pair<const void *, int64_t>, spec::HoistedParamAttr> entries;
};

/// Sets the record of the planned function: what was hoisted (with the host
/// argument `hostArguments` gave the first launch site's function), what was
/// kept (`kept`), where it is launched from, after the entries of an
/// earlier run's record.
void writeRecord(KernelPlan &plan, KeptRecordEntries &kept,
                 const HostArgumentPlan &hostArguments,
                 HoistedEntryCache &entries);

} // namespace mlir::flyhoist

#endif // FLYHOIST_LIB_TRANSFORMS_HOISTRECORD_H
