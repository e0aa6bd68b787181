//===- ArgumentPlanning.h - Where each hoisted value comes from -*- C++ -*-===//
//
// The second step of planning: given each function's own parameters
// classified (OwnParams.h), which hoisted names each function of a group
// takes a new argument for (numbered, with its encoding), which it passes on
// to the functions it calls, and which it must keep after all, and why.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_LIB_TRANSFORMS_ARGUMENTPLANNING_H
#define FLYHOIST_LIB_TRANSFORMS_ARGUMENTPLANNING_H

#include "HoistPlanning.h"

namespace mlir::flyhoist {

/// The type a new argument of `function` carries a value of `type` in:
/// `type`, or, for an index value and an `llvm.func` (whose arguments must
/// have LLVM types), the integer of the index width its data layout gives.
Type argumentCarrierType(FunctionOpInterface function, Type type);

/// Completes `plans`, the functions of one group (see HoistPlanner) with
/// their own parameters classified: every name a function needs an argument
/// for, its own or one a function it calls takes, gets the next argument
/// number in name order and an encoding `options` allow, unless the function
/// cannot take it (then the name is kept, with the reason); the `equals`
/// contracts of each hoisted parameter are recorded.
void planArguments(std::vector<KernelPlan> &plans, const HoistOptions &options);

} // namespace mlir::flyhoist

#endif // FLYHOIST_LIB_TRANSFORMS_ARGUMENTPLANNING_H
