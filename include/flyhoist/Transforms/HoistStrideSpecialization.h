//===- HoistStrideSpecialization.h - Frontend-callable API ------*- C++ -*-===//
//
// The transformation behind `hoist-stride-specialization` and
// `materialize-specialization`, callable without a pass manager so that a
// DSL frontend can run it on its own module and read back what it did.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_TRANSFORMS_HOISTSTRIDESPECIALIZATION_H
#define FLYHOIST_TRANSFORMS_HOISTSTRIDESPECIALIZATION_H

#include "flyhoist/Analysis/StrideUseAnalysis.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Types.h"
#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::flyhoist {

/// What the transformation may do.
struct HoistOptions {
  /// Replace kept parameters (and host-side ones) by `arith.constant`. When
  /// false they stay as `spec.param` for a later `materialize-specialization`.
  bool materializeKept = true;
  /// Emit one remark per parameter per kernel, with a note at a blocking use.
  bool emitRemarks = true;
  /// Instead of passing a constant at a launch site, give the host function
  /// that launches the kernel a new trailing argument (its own `spec.param`s
  /// of that name use it too), so host code is also the same for every value.
  /// Private host functions have their callers in the module pass it on.
  bool hoistIntoHost = false;
  /// Keep power-of-two divisibility: when > 1 (a power of two), a hoisted
  /// value v is passed as v / d, d the largest power of two <= this bound
  /// dividing v, and the kernel rebuilds v = (v / d) << log2(d) with no-wrap
  /// flags. d stays a constant in the kernel, so it is part of the
  /// specialization key. 0 or 1: off (one module for every value).
  uint64_t divisibility = 0;
  /// Keep the 32-bit non-negative range: a hoisted index or i64 value in
  /// [0, 2^31) is passed as i32 and zero-extended in the kernel.
  bool narrowRange = false;
};

/// A parameter that became a runtime value of a kernel.
struct HoistedParam {
  /// The parameter's name.
  std::string name;
  /// The type of the kernel argument (i32 when narrowed).
  Type type;
  /// The parameter's own type in the kernel.
  Type valueType;
  /// The launcher passes value / divisor (1: the value itself).
  uint64_t divisor = 1;
  /// The new kernel argument, or std::nullopt when the uses took the
  /// `equals` value and the kernel signature did not change.
  std::optional<unsigned> argumentIndex;
  /// What the launcher must guarantee about the value, e.g.
  /// "value % 16 == 0"; empty when the kernel relies on nothing.
  std::vector<std::string> preconditions;
  /// Set when the value was hoisted into the host too (`hoistIntoHost`):
  /// the index of the new argument of the host entry that launches it.
  std::optional<unsigned> hostArgument;
};

/// A parameter the kernel keeps as a constant.
struct KeptParam {
  /// The parameter's name.
  std::string name;
  /// The value baked in.
  int64_t value = 0;
  /// Why it was kept ("loop bound or step", ...).
  std::string reason;
  /// Where the blocking use is (the parameter's own location when the reason
  /// is not a single use).
  Location location;
};

/// What the transformation did to one kernel.
struct KernelReport {
  /// The kernel's symbol, e.g. "@kernels::@paged_mqa" or "@matvec".
  std::string symbol;
  /// Hoisted parameters, in argument order (sorted by name).
  std::vector<HoistedParam> hoisted;
  /// Kept parameters, sorted by name.
  std::vector<KeptParam> kept;
  /// Where each launch site (gpu.launch_func, call) that was updated is,
  /// in module order; empty when none is visible in the module.
  SmallVector<Location> launchSites;
};

/// What the transformation did to a module.
struct HoistReport {
  /// One entry per kernel holding a `spec.param`, in module order.
  std::vector<KernelReport> kernels;
};

/// Hoists every parameter of every kernel of `module` that is used only in
/// address arithmetic into a runtime kernel argument (or its `equals` value),
/// updates every launch site and materializes the rest.
///
/// On failure (e.g. one name with two values), errors have been emitted at
/// the offending ops and `module` is unchanged.
FailureOr<HoistReport>
hoistStrideSpecialization(ModuleOp module, const HoistOptions &options = {},
                          const StrideUseRegistry &registry =
                              StrideUseRegistry::global());

/// Replaces every `spec.param` nested in `root` by an `arith.constant` of its
/// value. Returns the number replaced.
unsigned materializeSpecialization(Operation *root);

/// Checks that each parameter name has one value across `root`; emits an
/// error at the first conflicting `spec.param` (with a note at the other)
/// and fails otherwise.
LogicalResult verifyConsistentParamValues(Operation *root);

} // namespace mlir::flyhoist

#endif // FLYHOIST_TRANSFORMS_HOISTSTRIDESPECIALIZATION_H
