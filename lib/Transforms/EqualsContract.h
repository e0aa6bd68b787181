//===- EqualsContract.h - The `equals` contract of spec.param ---*- C++ -*-===//
//
// The one owner of the `equals` contract of `spec.param`: what is known of a
// value while compiling, the checks that reject a contract known to be
// false, and the contract as the record words it (docs/MANIFEST.md).
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_LIB_TRANSFORMS_EQUALSCONTRACT_H
#define FLYHOIST_LIB_TRANSFORMS_EQUALSCONTRACT_H

#include "KernelDiscovery.h"

#include "flyhoist/Dialect/Spec/SpecDialect.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/APInt.h"

#include <optional>

namespace mlir::flyhoist {

/// The value of `value` when it is known while compiling: the result of a
/// constant op holding an integer, or of a `spec.param` (its marked value),
/// or of integer casts (index_cast, ext, trunc; arith or llvm) of such a
/// value, evaluated; as an APInt of the value's width (64 for index).
std::optional<APInt> knownIntegerValue(Value value);

/// The value an `equals` contract names: `equals` with every widening,
/// sign-preserving cast (`arith.index_cast` to a type at least as wide,
/// `arith.extsi`, `llvm.sext`) taken off, so that "value == <subject>" holds
/// exactly when "value == <equals>" does. The record words the contract
/// with it, and the checks of known values (at the parameter and at launch
/// sites) read the same subject: a contract the pass writes is never false
/// for a value it can see.
Value equalsSubject(Value equals);

/// The contract at the parameter: a `spec.param` cannot equal a value known
/// to be another one (the rewrite would silently change what it computes).
/// Reports the error on `param` and fails when it does; succeeds for a
/// parameter without `equals`.
LogicalResult checkEqualsOperand(spec::ParamOp param);

/// The contract at launch sites: a launch site of `function` that passes a
/// value known at compile time for an argument one of `params` equals must
/// pass that parameter's value. Reports the error at the launch site and
/// fails otherwise.
LogicalResult checkEqualsAtLaunchSites(FunctionOpInterface function,
                                       ArrayRef<spec::ParamOp> params,
                                       const SymbolUseMap &symbolUses);

/// The contracts "value == <operand>" of the `equals` ops among `params`
/// (parameters of `function`), in IR order without repeats: #spec.equals
/// and the like, in terms the launcher can check (never a location: the
/// record lives in the gpu.module, whose fingerprint must not depend on where
/// the frontend traced the kernel from).
SmallVector<Attribute> equalsContracts(ArrayRef<spec::ParamOp> params,
                                       FunctionOpInterface function);

} // namespace mlir::flyhoist

#endif // FLYHOIST_LIB_TRANSFORMS_EQUALSCONTRACT_H
