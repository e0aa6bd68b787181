//===- StripHoistRecords.h - drop #spec.record attributes -------*- C++ -*-===//
//
// For IR handed to tools that do not load the spec dialect.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_TRANSFORMS_STRIPHOISTRECORDS_H
#define FLYHOIST_TRANSFORMS_STRIPHOISTRECORDS_H

#include "mlir/IR/Operation.h"

namespace mlir::flyhoist {

/// Removes the `spec.record` attribute from `root` and every operation nested
/// in it. Returns how many were removed.
unsigned stripHoistRecords(Operation *root);

} // namespace mlir::flyhoist

#endif // FLYHOIST_TRANSFORMS_STRIPHOISTRECORDS_H
