//===- ImmediateOffsets.h - Parameters that fold into immediates -*- C++
//-*-===//
//
// A parameter that only ever reaches addresses as a constant addend (an
// offset tail: `base + i * 4 + p`, a GEP index `p`, a buffer access's
// voffset `x + p`) is a constant the backend folds into the access's
// immediate offset field (`ds_read_u16 v0, v1 offset:128`). Hoisted, it is a
// runtime add per access instead. This finds such parameters, so that the
// hoisting pass can keep them specialized unless asked for one module
// whatever the cost.
//
// The rule proves a fold or says nothing: every path from the parameter to
// an address must be linear in it with constant coefficients (adds, subs,
// multiplications and left shifts by constants, integer and pointer casts,
// GEP indices scaled by constant element sizes), and at least one access
// must be of a kind whose immediate field holds the parameter's byte
// contribution there. Anything else (a runtime multiplier, a loop-carried
// value, an operation or access kind not listed) makes the parameter a
// stride, which is hoisted: both decisions are correct, only the
// instruction count differs.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_ANALYSIS_IMMEDIATEOFFSETS_H
#define FLYHOIST_ANALYSIS_IMMEDIATEOFFSETS_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/ArrayRef.h"

#include <optional>

namespace mlir::flyhoist {

/// The immediate offset range, in bytes, of the accesses an address
/// operand of `access` becomes on AMDGPU (gfx9 through gfx950): LDS
/// `ds_*` [0, 65535]; MUBUF buffer instructions (voffset/soffset of the
/// `rocdl` buffer operations, buffer fat pointers) [0, 4095]; `global_*`
/// and `scratch_*` [-4096, 4095]; `flat_*` [0, 4095]. std::nullopt for any
/// other access or operand.
struct ImmediateRange {
  int64_t min = 0;
  int64_t max = 0;
};
std::optional<ImmediateRange> getImmediateOffsetRange(OpOperand &address);

/// An access whose immediate offset a parameter would fold into.
struct ImmediateOffsetFold {
  /// The memory access.
  Operation *access = nullptr;
  /// The position of its address operand the parameter reaches.
  unsigned operandNumber = 0;
  /// The parameter's contribution to that address, in bytes.
  int64_t byteOffset = 0;
  /// How many accesses (`access` included) have an address operand whose
  /// immediate field holds the parameter's contribution there: hoisted, each
  /// of them takes one runtime add instead.
  unsigned numAccesses = 0;
};

/// Whether the parameter whose `spec.param` results are `roots`, of value
/// `value`, is an offset tail that folds into an immediate: every use is
/// linear address arithmetic with constant coefficients ending in the
/// address operands of memory accesses, and at least one access's
/// immediate field holds its (non-zero) byte contribution. Returns the
/// first such access the walk reaches, with the number of them, or
/// std::nullopt (the parameter counts as a stride). Meant for parameters the
/// use analysis found address-only.
std::optional<ImmediateOffsetFold>
findImmediateOffsetFold(ArrayRef<Value> roots, int64_t value);

} // namespace mlir::flyhoist

#endif // FLYHOIST_ANALYSIS_IMMEDIATEOFFSETS_H
