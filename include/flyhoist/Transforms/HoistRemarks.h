//===- HoistRemarks.h - How hoisting decisions are worded -------*- C++ -*-===//
//
// The analysis returns neutral reason codes; this is where they become the
// words of remarks, the manifest and the C API.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_TRANSFORMS_HOISTREMARKS_H
#define FLYHOIST_TRANSFORMS_HOISTREMARKS_H

#include "flyhoist/Analysis/StrideUseAnalysis.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/DenseMap.h"

#include <string>

namespace mlir::flyhoist {

/// Why a parameter is kept, worded to follow "kept specialized: ", e.g.
/// "loop bound or step". `use.user` is the operation with the blocking use
/// (its name and the operand's position are part of the text for operations
/// and operands no rule classifies).
std::string describeBlockReason(const BlockingUse &use);

/// describeBlockReason() as a StringAttr (the form the hoist record keeps),
/// built once per reason and operation name: a module can keep thousands of
/// parameters for a handful of reasons.
class BlockReasonAttrs {
public:
  /// The wording of the reason of blocking use `use`.
  StringAttr get(const BlockingUse &use);

private:
  llvm::DenseMap<std::tuple<unsigned, OperationName, unsigned>, StringAttr>
      cache;
};

} // namespace mlir::flyhoist

#endif // FLYHOIST_TRANSFORMS_HOISTREMARKS_H
