//===- HoistRemarks.h - How hoisting decisions are worded -------*- C++ -*-===//
//
// The analysis returns neutral reason codes; this is where they become the
// words of remarks, the manifest and the C API.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_TRANSFORMS_HOISTREMARKS_H
#define FLYHOIST_TRANSFORMS_HOISTREMARKS_H

#include "flyhoist/Analysis/StrideUseAnalysis.h"

#include <string>

namespace mlir::flyhoist {

/// Why a parameter is kept, worded to follow "kept specialized: ", e.g.
/// "loop bound or step". `user` is the operation with the blocking use (its
/// name is part of the text for operations the analysis does not know).
std::string describeBlockReason(BlockReason reason, Operation *user);

} // namespace mlir::flyhoist

#endif // FLYHOIST_TRANSFORMS_HOISTREMARKS_H
