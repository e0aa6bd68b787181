//===- StrideUseAnalysis.h - Are a parameter's uses address-only? -*- C++
//-*-===//
//
// The forward use analysis behind hoist-stride-specialization. Starting from
// the results of `spec.param` ops, it follows every use through address
// arithmetic, pointers, views, struct fields and control-flow joins, and
// decides for each parameter whether it only ever ends up in the address
// operands of memory accesses. How each operation uses a value is its
// StrideUseOpInterface (StrideUseOpInterface.h), or a rule given by name
// (StrideUseRules), or what the control-flow interfaces say.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_ANALYSIS_STRIDEUSEANALYSIS_H
#define FLYHOIST_ANALYSIS_STRIDEUSEANALYSIS_H

#include "flyhoist/Analysis/StrideUseOpInterface.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::flyhoist {

/// Attaches the StrideUseOpInterface to the upstream operations the analysis
/// knows (arith, index, affine, memref, vector, gpu, nvgpu, amdgpu, llvm,
/// rocdl, func). The hoisting pass adds this to its context itself; call it
/// when running the analysis without the pass.
void registerStrideUseExternalModels(DialectRegistry &registry);

/// How uses by operations named in pass options count, for dialects whose
/// C++ a tool cannot compile: for each operation name, which operands are
/// addresses and which pass the parameter on to every result. Any other
/// operand of a named operation keeps the parameter.
class StrideUseRules {
public:
  /// Parses entries of the form `dialect.op[i,j,...]` (operand numbers) for
  /// address operands and pass-through operands. Fails with a message in
  /// `error` naming the first malformed entry.
  static FailureOr<StrideUseRules>
  parse(ArrayRef<std::string> addressOperands,
        ArrayRef<std::string> passThroughOperands, std::string &error);

  /// The verdict for `use` if its owner is named in a rule.
  std::optional<UseVerdict> classify(OpOperand &use, unsigned facet) const;

  /// Whether no operation is named.
  bool empty() const { return rules.empty(); }

private:
  enum class OperandRole { Address, PassThrough };
  llvm::StringMap<llvm::SmallDenseMap<unsigned, OperandRole>> rules;
};

/// Classifies `use` of a value whose `facet` carries a parameter: an operand
/// that must be an instruction immediate (isImmediateOperand) first, then
/// the rules named in `rules`, then the owner's StrideUseOpInterface, then
/// the control-flow interfaces; anything else keeps the parameter.
UseVerdict classifyUse(OpOperand &use, unsigned facet,
                       const StrideUseRules &rules = {});

//===----------------------------------------------------------------------===//
// The analysis
//===----------------------------------------------------------------------===//
/// A use that needs a parameter as a constant.
struct BlockingUse {
  /// The operation that uses the parameter-derived value.
  Operation *user = nullptr;
  /// Why it needs a constant.
  BlockReason reason = BlockReason::UnknownOperation;
  /// The position of the parameter-derived operand among `user`'s operands.
  unsigned operandNumber = 0;
};

/// What the analysis found for one parameter.
struct ParamUseSummary {
  /// The blocking use that comes first in the IR (pre-order), if any.
  std::optional<BlockingUse> firstBlockingUse;
  /// Number of blocking uses reached.
  unsigned numBlockingUses = 0;
  /// Number of address operands reached (0 with no blocking use: the
  /// parameter only reaches facets nothing reads, or nothing at all).
  unsigned numAddressSinks = 0;

  /// True when every use is address arithmetic ending in an address (or in
  /// a facet nothing reads).
  bool isAddressOnly() const { return numBlockingUses == 0; }
};

/// Called once per classified use and facet, with the parameters (indices
/// into the `roots` of analyzeParamUses) that reach it for the first time
/// through that facet.
using UseVisitor = std::function<void(OpOperand &use, unsigned facet,
                                      const UseVerdict &verdict,
                                      const llvm::BitVector &params)>;

/// Working storage analyzeParamUses reuses from one call to the next: a
/// caller that analyzes many kernels in turn keeps one for all of them.
class ParamUseScratch {
public:
  ParamUseScratch();
  ~ParamUseScratch();
  ParamUseScratch(const ParamUseScratch &) = delete;
  ParamUseScratch &operator=(const ParamUseScratch &) = delete;

  /// The storage itself, defined with the analysis.
  struct Storage;
  Storage &storage() { return *impl; }

private:
  std::unique_ptr<Storage> impl;
};

/// Follows every use of the parameters forward, all parameters in one
/// propagation. `roots[i]` are the results of parameter i's `spec.param`
/// ops. Each use is classified once per facet, and each value is processed
/// once per facet, in an order where it comes after the values that reach it
/// (and again only when a loop's back edge brings it new parameters), so the
/// cost does not grow with the number of parameters that share address
/// chains. Returns one summary per parameter. `scratch`, when given,
/// provides the working storage (see ParamUseScratch).
SmallVector<ParamUseSummary> analyzeParamUses(
    ArrayRef<SmallVector<Value>> roots, const StrideUseRules &rules = {},
    const UseVisitor &visitor = {}, ParamUseScratch *scratch = nullptr);

} // namespace mlir::flyhoist

#endif // FLYHOIST_ANALYSIS_STRIDEUSEANALYSIS_H
