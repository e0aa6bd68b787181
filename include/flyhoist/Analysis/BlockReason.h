//===- BlockReason.h - Why a use needs a constant ---------------*- C++ -*-===//
//-*-===//
//
// The analysis' own vocabulary: why one use of a parameter-derived value
// needs the parameter as a constant. The hoisting pass maps these to the
// reasons its record keeps (spec::KeepReason, which also has the reasons a
// function cannot take an argument); the analysis knows nothing of records.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_ANALYSIS_BLOCKREASON_H
#define FLYHOIST_ANALYSIS_BLOCKREASON_H

#include "llvm/ADT/StringRef.h"

namespace mlir::flyhoist {

/// Why a use needs a parameter as a constant.
enum class BlockReason {
  /// A loop's bound or step.
  LoopBound,
  /// An operand of a comparison.
  Comparison,
  /// An operand of a select, min or max (a clamp).
  Clamp,
  /// A branch or select condition.
  BranchCondition,
  /// A divisor or remainder.
  Division,
  /// A shift amount.
  ShiftAmount,
  /// The size of an allocation.
  Allocation,
  /// Data stored to memory.
  StoredData,
  /// An operand of a call the analysis cannot follow.
  CallOperand,
  /// An operand of a function's return.
  ReturnOperand,
  /// A launch's grid or block size.
  LaunchDimensions,
  /// A mask, padding, element count or cache-policy operand.
  MaskOrPadding,
  /// A size read back from a view the value built.
  SizeReadBack,
  /// A use by an operation no model or rule knows.
  UnknownOperation,
  /// An operand a known operation's model does not classify.
  UnknownOperand,
  /// An operand the operation needs as an immediate.
  MustBeImmediate,
  /// A position in a vector (an insert or extract index).
  VectorPosition,
};

/// A stable identifier of `reason` ("loop-bound", "size-read-back", ...), for
/// tests and tools; not meant as user-facing text.
llvm::StringRef stringifyBlockReason(BlockReason reason);

} // namespace mlir::flyhoist

#endif // FLYHOIST_ANALYSIS_BLOCKREASON_H
