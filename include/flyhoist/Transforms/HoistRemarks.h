//===- HoistRemarks.h - How hoisting decisions are worded -------*- C++ -*-===//
//
// The analysis returns neutral reason codes; this is where they become the
// typed reasons of the hoist record (worded by spec::describeKeepReason).
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_TRANSFORMS_HOISTREMARKS_H
#define FLYHOIST_TRANSFORMS_HOISTREMARKS_H

#include "flyhoist/Analysis/StrideUseAnalysis.h"

#include "flyhoist/Dialect/Spec/SpecDialect.h"

#include <string>

namespace mlir::flyhoist {

/// The typed reason (with the details its wording names) of blocking use
/// `use`: what the hoist record keeps.
spec::KeepReasonInfo keepReasonOf(const BlockingUse &use);

/// The typed reasons of blocking uses, as planning asks for them.
class BlockReasonAttrs {
public:
  /// The reason of blocking use `use`.
  spec::KeepReasonInfo get(const BlockingUse &use) const {
    return keepReasonOf(use);
  }
};

} // namespace mlir::flyhoist

#endif // FLYHOIST_TRANSFORMS_HOISTREMARKS_H
