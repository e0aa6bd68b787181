//===- IdentityFolds.cpp - Template ops a trace folded away ---------------===//
//
// A frontend canonicalizes its trace: at width 1 `x * width` is `x`, at 0
// `x + width` is `x`, and the trace has an op fewer than the template learned
// from other widths. Matching absorbs such an op instead of failing: its
// result is `x`, and its parameter takes the identity (1, 0) through the
// same bookkeeping as a constant facing it.
//
// Why this is sound: with P = the identity, the template's op computes
// exactly `x`, which is what the trace has in its place (`x * 1`, `x + 0`,
// `x << 0`, `x / 1`, `x | 0`, `x ^ 0`, `x - 0` are `x` for every `x`, and
// their overflow, exact and disjoint flags cannot make them poison; but for
// i1 the constant 1 is -1, and a signed division of -1 by -1 overflows, so
// no signed division of i1 is absorbed), so
// the template with P bound there computes what the trace computes. P is
// bound like any parameter: one name with two values, or a derived value
// that its root does not make the identity, is a mismatch, never a
// binding. A parameter the template keeps is compiled in, and a kept
// value other than the trace's fails the launch's guard (variant.failure
// in Python), so a kept P bound to 1 launches nothing compiled for 5.
//
//===----------------------------------------------------------------------===//

#include "TraceAlignment.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::flyhoist;
using namespace mlir::flyhoist::trace;

namespace {
/// The identity of an op kind and whether it may stand on either side.
struct IdentityKind {
  int64_t identity;
  bool commutative;
};
} // namespace

/// Whether `op` divides signed values of one bit, where 1 reads as -1 and
/// `x / 1` overflows for x = -1 (undefined) instead of giving `x`.
static bool isSignedDivisionOfI1(Operation *op) {
  return isa<arith::DivSIOp, arith::CeilDivSIOp, arith::FloorDivSIOp,
             LLVM::SDivOp>(op) &&
         op->getResult(0).getType().isInteger(1);
}

static std::optional<IdentityKind> identityKind(Operation *op) {
  if (isa<arith::MulIOp, LLVM::MulOp>(op))
    return IdentityKind{1, true};
  if (isa<arith::AddIOp, arith::OrIOp, arith::XOrIOp, LLVM::AddOp, LLVM::OrOp,
          LLVM::XOrOp>(op))
    return IdentityKind{0, true};
  // The right operand only: a shift amount, a subtrahend.
  if (isa<arith::SubIOp, arith::ShLIOp, arith::ShRSIOp, arith::ShRUIOp,
          LLVM::SubOp, LLVM::ShlOp, LLVM::AShrOp, LLVM::LShrOp>(op))
    return IdentityKind{0, false};
  // The divisor.
  if (isa<arith::DivSIOp, arith::DivUIOp, arith::CeilDivSIOp,
          arith::CeilDivUIOp, arith::FloorDivSIOp, LLVM::SDivOp, LLVM::UDivOp>(
          op))
    return IdentityKind{1, false};
  return std::nullopt;
}

std::optional<IdentityFold> trace::identityFold(Operation *op) {
  if (op->getNumOperands() != 2 || op->getNumResults() != 1 ||
      op->getNumRegions() != 0)
    return std::nullopt;
  std::optional<IdentityKind> kind = identityKind(op);
  if (!kind || isSignedDivisionOfI1(op))
    return std::nullopt;
  // The right operand first (canonicalize puts constants there).
  for (unsigned param : {1u, 0u}) {
    if (param == 0 && !kind->commutative)
      break;
    Value x = op->getOperand(1 - param);
    std::optional<Leaf> leaf = leafOf(op->getOperand(param));
    // A plain constant never varies; `x` a leaf folds into a constant in
    // the trace, which the op's uses face instead of `x`.
    if (!leaf || (!leaf->name && !leaf->derived) || leafOf(x) ||
        x.getType() != op->getResult(0).getType())
      continue;
    return IdentityFold{1 - param, param, kind->identity};
  }
  return std::nullopt;
}

bool Aligner::looksAligned(Operation *a, Operation *b) {
  // alignSignature() only records a mismatch: probe with none recorded.
  std::optional<TraceMismatch> saved = std::move(mismatch);
  mismatch.reset();
  bool same = alignSignature(a, b);
  mismatch = std::move(saved);
  if (!same)
    return false;
  for (auto [va, vb] : llvm::zip(a->getOperands(), b->getOperands())) {
    bool leaf = leafOf(va).has_value();
    if (va.getType() != vb.getType() || leaf != leafOf(vb).has_value())
      return false;
    Value mapped = leaf ? Value() : values.lookup(va);
    if (mapped && mapped != vb)
      return false;
  }
  return true;
}

std::optional<bool> Aligner::absorbFold(Operation *a, Operation *b,
                                        Operation *parentB) {
  std::optional<IdentityFold> fold = identityFold(a);
  if (!fold)
    return std::nullopt;
  // `x` not aligned yet (defined later in IR order): nothing to map to.
  // `b` aligning as `a` is taken as its counterpart: of two consecutive
  // ops of which the trace folded one, the first is aligned and the second
  // absorbed, which computes the same (`x * 5 * 1` for `x * 1 * 5`); a name
  // that other uses bind otherwise then fails, never binds wrongly.
  Value x = values.lookup(a->getOperand(fold->operand));
  if (!x || (b && looksAligned(a, b)))
    return std::nullopt;
  Leaf param = *leafOf(a->getOperand(fold->param));
  Leaf identity{b ? b : parentB, fold->identity, StringAttr(), false, a};
  std::string what = "'" + a->getName().getStringRef().str() + "' with " +
                     describe(param) + " = " + std::to_string(fold->identity);
  if (std::optional<std::string> why =
          onLeaves(a->getOpOperand(fold->param), param, identity))
    return fail(a->getLoc(), identity.op->getLoc(),
                what + " has no counterpart in the trace, but " + *why);
  values[a->getResult(0)] = x;
  if (absorbed.empty())
    absorbed = "after taking " + what + " as folded away in the trace: ";
  return true;
}
