//===- InferSpecParams.h - spec.param from a frontend's traces --*- C++ -*-===//
//
// A frontend that cannot mark its specialization values (its ints become
// plain `arith.constant`s deep in helpers, are folded in Python and merged by
// canonicalize) already traces a kernel once per value. Two or more traces of
// one kernel, aligned op by op, show which constants depend on the value:
// where the traces are the same except for integer constants, those
// constants become `spec.param`s and the hoisting pass runs as for a marked
// kernel. A later trace is matched against that template, which yields the
// values of its parameters, or the first place where it differs.
//
// Constants are compared per use, not per SSA value: canonicalize and CSE
// merge equal constants, so one constant op may feed a use that depends on
// the value and one that does not; only the first use gets the parameter.
// Integer `arith.constant`s and `llvm.mlir.constant`s of at most 64 bits
// are the only ops that may differ. Everything else the compile reads must
// be the same, or the traces do not align: ops, attributes (the roots' own
// too: a data layout on the module changes the kernel's argument block),
// properties outside the attribute dictionary (LLVM's overflow flags, GEP
// no-wrap flags), types (a static memref shape, a layout type), region
// structure, and (for a match) the value of every `spec.param` with
// `equals`. Locations are not compared.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_TRANSFORMS_INFERSPECPARAMS_H
#define FLYHOIST_TRANSFORMS_INFERSPECPARAMS_H

#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace mlir::flyhoist {

/// A value the frontend specialized on, with its value in each trace (in the
/// order the traces are given). A parameter whose values in every trace are
/// these is named after it.
struct FrontendValue {
  std::string name;
  SmallVector<int64_t> values;
};

/// A parameter computed from another (its root) in the kernel:
/// `scale * root + offset`, wrapping at the parameter's width.
struct Derivation {
  std::string root;
  int64_t scale = 1;
  int64_t offset = 0;
};

/// A `spec.param` that inference introduced.
struct InferredParam {
  std::string name;
  Type type;
  /// Its value in each trace, base first.
  SmallVector<int64_t> values;
  /// The first use it replaced.
  Location location;
  /// How many uses it replaced.
  unsigned numUses = 0;
  /// Set when the kernel computes it from a root parameter instead of
  /// taking it (its uses take the derived value; no `spec.param` of its
  /// name exists).
  std::optional<Derivation> derived = std::nullopt;
};

/// Where two traces first differ.
struct TraceMismatch {
  /// What differs, e.g. "'arith.muli' vs 'arith.addi'" or "result types
  /// differ: memref<4x128xf32> vs memref<4x64xf32>".
  std::string reason;
  /// The op (or the position) in the base (or template) and in the other
  /// trace.
  Location baseLocation;
  Location otherLocation;
  /// The position of the other trace among those given (0 for a match).
  unsigned trace = 0;
};

/// Whether `op` is an operand source that traces may disagree on: a scalar
/// integer or index `arith.constant` or `llvm.mlir.constant` of at most 64
/// bits, or a `spec.param` without `equals`.
bool isTraceLeaf(Operation *op);

/// Aligns `base` with each of `others` (`builtin.module`s of one context
/// holding traces of one kernel, their own attributes compared as well;
/// a `spec.param` with `equals` may have another value, and `base`'s stays)
/// and, when they align, rewrites `base` so that each use of an
/// integer constant whose value differs between the traces takes a
/// `spec.param` (one per distinct type and list of values; named after the
/// `frontend` value with those values, else "p0", "p1", ... in IR order of
/// their first use, avoiding names the module already uses). Returns the
/// parameters introduced (empty when the traces are the same).
///
/// With `derive`, a parameter whose values are `scale * r + offset` (integer
/// scale and offset, exactly, over three or more distinct values of another
/// parameter `r`) is computed from `r` in the kernel (muli/addi without
/// overflow flags, a cast between types, each marked `flyhoist.derived`
/// with the parameter's name): the hoisting pass then passes `r` alone.
/// Roots are chosen greedily: a parameter named after a `frontend` value
/// first, then the one the most others derive from. When they do
/// not align, leaves `base` unchanged, fills `mismatch` if given and, when
/// `emit` is set, emits an error at the base op with a note at the other
/// trace's op; then fails.
FailureOr<SmallVector<InferredParam>>
inferSpecParams(Operation *base, ArrayRef<Operation *> others,
                ArrayRef<FrontendValue> frontend = {},
                TraceMismatch *mismatch = nullptr, bool emit = true,
                bool derive = true);

/// The value of each parameter of `templateOp` (the result of
/// inferSpecParams, before hoisting) in `trace`, a new trace of the same
/// kernel, in order of first use: every `spec.param` of the template that
/// faces a constant (or a `spec.param`) in the trace takes its value, and
/// everything else must be the same, constants and the values of the
/// `spec.param`s with `equals` included (the template may have kept one).
/// A name that would take two values is a mismatch, and so is a derived
/// value of the template (computed from a root, see inferSpecParams) that
/// is not the trace's constant when computed from the root's value in the
/// trace. A template op that the trace folded away, `x op P` for a
/// parameter (or derived value) `P` at which the op is `x` (`x * 1`,
/// `x + 0`, a shift by 0, a division by 1, `x | 0`, `x ^ 0`, `x - 0`), is
/// absorbed when the trace's next op does not align as it: its result is
/// the trace's `x`, and `P` takes the identity as if a constant faced it
/// (IdentityFolds.cpp says why that is sound). On a mismatch fills
/// `mismatch` if given, emits (when `emit`) an error at the template op with a
/// note at the trace's, and fails.
FailureOr<SmallVector<std::pair<std::string, int64_t>>>
matchSpecParams(Operation *templateOp, Operation *trace,
                TraceMismatch *mismatch = nullptr, bool emit = true);

} // namespace mlir::flyhoist

#endif // FLYHOIST_TRANSFORMS_INFERSPECPARAMS_H
