//===- HoistOptions.h - Options of hoist-stride-specialization --*- C++ -*-===//
//
// One definition of what the hoisting may do: the options struct mlir-tblgen
// generates from Passes.td. The pass, the C++ API and (through the pass
// pipeline parser) the C API all take it, and validateHoistOptions is the
// one place that says which values are accepted.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_TRANSFORMS_HOISTOPTIONS_H
#define FLYHOIST_TRANSFORMS_HOISTOPTIONS_H

#include "flyhoist/Transforms/Passes.h"

#include "mlir/IR/Diagnostics.h"

namespace mlir::flyhoist {

class StrideUseRules;

/// The options of `hoist-stride-specialization`, as declared in Passes.td
/// (materialize-kept, remarks, hoist-into-host, divisibility, narrow-range,
/// hoist-immediate-offsets, address-operands, pass-through-operands,
/// manifest).
using HoistOptions = HoistStrideSpecializationOptions;

/// The largest `divisibility` bound accepted: 2^62, the largest power of two
/// dividing a positive value of the widest type a parameter can have, which
/// the record's signed 64-bit divisor holds.
inline constexpr uint64_t kMaxDivisibility = uint64_t(1) << 62;

/// Checks `options` (a divisibility bound that is 0, 1 or a power of two
/// up to kMaxDivisibility;
/// well-formed operand rules) and returns their operand rules parsed. On
/// failure emits the error through `emitError`, located where the caller
/// runs.
FailureOr<StrideUseRules>
validateHoistOptions(const HoistOptions &options,
                     function_ref<InFlightDiagnostic()> emitError);

} // namespace mlir::flyhoist

#endif // FLYHOIST_TRANSFORMS_HOISTOPTIONS_H
