//===- UseClassification.h - classifyUse with its model given ---*- C++ -*-===//
//
// Private to lib/Analysis: the propagation looks up each operation name's
// StrideUseOpInterface once and classifies with it (StrideUseRules.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_LIB_ANALYSIS_USECLASSIFICATION_H
#define FLYHOIST_LIB_ANALYSIS_USECLASSIFICATION_H

#include "flyhoist/Analysis/StrideUseAnalysis.h"

namespace mlir::flyhoist {

/// classifyUse() with the owner's StrideUseOpInterface already looked up
/// (null when it has none).
UseVerdict classifyUseWithModel(OpOperand &use, unsigned facet,
                                const StrideUseRules &rules,
                                StrideUseOpInterface model);

} // namespace mlir::flyhoist

#endif // FLYHOIST_LIB_ANALYSIS_USECLASSIFICATION_H
