//===- SignatureEdits.h - New arguments of functions and calls --*- C++ -*-===//
//
// The signature half of the rewrite: arguments appended to functions and to
// the operations that launch or call them.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_LIB_TRANSFORMS_SIGNATUREEDITS_H
#define FLYHOIST_LIB_TRANSFORMS_SIGNATUREEDITS_H

#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::flyhoist {

/// Appends arguments of `types` to `function`, all at once, and returns them.
SmallVector<Value> appendArguments(FunctionOpInterface function,
                                   ArrayRef<Type> types,
                                   ArrayRef<Location> locs);

/// Appends `values` to the arguments `launchSite` passes, with empty
/// dictionaries in its per-argument attributes when it has them.
void appendPassedArguments(Operation *launchSite, ValueRange values);

/// Casts `carrier` (an integer) to `type` (index) right after it is defined,
/// at the start of `function` for an argument.
Value castCarrier(FunctionOpInterface function, Value carrier, Type type);

} // namespace mlir::flyhoist

#endif // FLYHOIST_LIB_TRANSFORMS_SIGNATUREEDITS_H
