//===- StrideUseAnalysis.h - Are a parameter's uses address-only? -*- C++ -*-===//
//
// The forward use analysis behind hoist-stride-specialization: starting from
// the results of `spec.param` ops, it follows every use through address
// arithmetic and control-flow joins and decides whether the value only ever
// ends up in the index or offset operands of memory accesses.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_ANALYSIS_STRIDEUSEANALYSIS_H
#define FLYHOIST_ANALYSIS_STRIDEUSEANALYSIS_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "mlir/IR/ValueRange.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <functional>
#include <optional>
#include <string>

namespace mlir::flyhoist {

/// How one use of a value derived from a parameter counts.
enum class UseKind {
  /// Address arithmetic: the parameter flows on into `forwardedTo`.
  PassThrough,
  /// The index or offset operand of a memory access (or of a view whose
  /// metadata is then followed through `forwardedTo`): the parameter is a stride.
  AddressSink,
  /// Anything else: the kernel needs the parameter as a constant.
  Blocking,
};

/// The verdict on one use (an `OpOperand`).
struct UseClassification {
  UseKind kind = UseKind::Blocking;
  /// Values the parameter reaches through this use and that must be followed.
  llvm::SmallVector<Value, 2> forwardedTo;
  /// Why the use blocks hoisting (only for `UseKind::Blocking`), phrased to
  /// complete "kept specialized: ...", e.g. "loop bound or step".
  std::string reason;

  /// A use through which the parameter reaches `values`.
  static UseClassification passThrough(ValueRange values);
  /// A memory-access operand; `metadataOf` are results that carry the
  /// parameter in their layout (views) and are followed in turn.
  static UseClassification sink(ValueRange metadataOf = {});
  /// A use that needs the parameter as a constant, with the reason.
  static UseClassification blocking(llvm::StringRef reason);
};

/// Classifies a use the built-in rules do not know, or overrides them. Returns
/// std::nullopt to fall back to the built-in rules.
using UseClassifier =
    std::function<std::optional<UseClassification>(OpOperand &use)>;

/// Extension point for other dialects (a DSL's buffer or layout ops): declares
/// how uses by an operation, named by its full name, count. Thread-compatible:
/// register before running passes.
class StrideUseRegistry {
public:
  /// Registers `classifier` for operations named `operationName`
  /// (e.g. "fly.buffer_load"). A later registration replaces an earlier one.
  void registerClassifier(llvm::StringRef operationName,
                          UseClassifier classifier);
  /// The classifier registered for `operationName`, or null.
  const UseClassifier *lookup(llvm::StringRef operationName) const;

  /// The process-wide registry the passes consult.
  static StrideUseRegistry &global();

private:
  llvm::StringMap<UseClassifier> classifiers;
};

/// Classifies one use with the built-in rules (registry entries first).
UseClassification classifyUse(OpOperand &use,
                              const StrideUseRegistry &registry =
                                  StrideUseRegistry::global());

/// The first use found that keeps a parameter specialized.
struct BlockingUse {
  /// The operation that uses the parameter-derived value.
  Operation *user = nullptr;
  /// Why it needs a constant.
  std::string reason;
};

/// What the analysis found for one parameter in one kernel.
struct ParamUseSummary {
  /// Every use that needs the parameter as a constant, in the order met.
  llvm::SmallVector<BlockingUse, 1> blockingUses;
  /// Number of address sinks reached (0: the parameter is unused).
  unsigned numAddressSinks = 0;

  /// True when every use is address arithmetic ending in an address.
  bool isAddressOnly() const { return blockingUses.empty(); }
};

/// Follows every use of `roots` (the results of a parameter's `spec.param`
/// ops) forward and decides whether they are used only in address arithmetic.
/// Linear in the number of uses reached: each value is visited once.
ParamUseSummary analyzeParamUses(llvm::ArrayRef<Value> roots,
                                 const StrideUseRegistry &registry =
                                     StrideUseRegistry::global());

} // namespace mlir::flyhoist

#endif // FLYHOIST_ANALYSIS_STRIDEUSEANALYSIS_H
