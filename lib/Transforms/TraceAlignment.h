//===- TraceAlignment.h - Aligning two traces op by op ----------*- C++ -*-===//
//
// The Aligner that inferSpecParams() and matchSpecParams() share: it walks
// two traces in lockstep, skipping the operand sources traces may disagree
// on (integer constants, spec.params) and handing each use of one to a
// callback. Private to lib/Transforms.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_LIB_TRANSFORMS_TRACEALIGNMENT_H
#define FLYHOIST_LIB_TRANSFORMS_TRACEALIGNMENT_H

#include "flyhoist/Transforms/InferSpecParams.h"

#include "flyhoist/Dialect/Spec/SpecDialect.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/DenseMap.h"

#include <functional>
#include <optional>
#include <string>

namespace mlir::flyhoist::trace {

/// The discardable attribute that marks the ops computing a derived value
/// from its root `spec.param` (inferSpecParams); its value is the name of
/// the parameter the value replaced. Matching evaluates the marked ops.
constexpr StringLiteral kDerivedAttr = "flyhoist.derived";

/// Whether `op` computes (part of) a derived value: a marked
/// `arith.constant`, `arith.muli`, `arith.addi` (neither with overflow
/// flags), `arith.extsi`, `arith.trunci` or `arith.index_cast` of an
/// integer or index. Such ops are pure; the walk skips them like constants.
bool isDerivedOp(Operation *op);

/// The value of `value`, computed by derived ops from `spec.param`s, at the
/// width of its type (index: 64 bits), wrapping as the ops do; `root`
/// gives each parameter's value (nothing: unknown). Fails on an op that is
/// neither a derived op nor a parameter.
FailureOr<APInt>
evaluateDerived(Value value,
                function_ref<std::optional<int64_t>(spec::ParamOp)> root);

/// An operand source traces may disagree on, read once.
struct Leaf {
  Operation *op;
  int64_t value;
  /// The parameter's name; null for a constant. A derived value's is the
  /// name of the parameter it replaced.
  StringAttr name;
  /// A value computed from a root parameter (`op` is the last derived op);
  /// `value` is its value at the template's own root values.
  bool derived = false;
  /// Set on the identity a trace's folded-away op stands for (`x * 1`):
  /// that op of the template; `op` is where the trace goes on.
  Operation *folded = nullptr;
};

/// The leaf `value` comes from, if it comes from one.
std::optional<Leaf> leafOf(Value value);

/// "spec.param 'name'" or "constant 4", for mismatch messages.
std::string describe(const Leaf &leaf);

/// A template op `x op P` that is `x` at one value of `P` (`x * 1`,
/// `x + 0`, `x << 0`, `x / 1`, ...), which a frontend's canonicalize folds
/// away: `P` is a `spec.param` (without `equals`) or a derived value, `x`
/// is no leaf (else the trace has the folded constant instead) and has the
/// result's type.
struct IdentityFold {
  unsigned operand; // x
  unsigned param;   // P
  int64_t identity;
};

/// The identity fold `op` may be, if any (IdentityFolds.cpp).
std::optional<IdentityFold> identityFold(Operation *op);

/// Aligns two traces op by op. Ops that are trace leaves are left out of
/// the lockstep walk (canonicalize places and merges them differently from
/// trace to trace); each operand they feed is handed to `onLeaves` with the
/// use in the base.
class Aligner {
public:
  /// Returns why the two leaves may not face each other, or nothing.
  using LeafCallback = std::function<std::optional<std::string>(
      OpOperand &, const Leaf &, const Leaf &)>;

  /// Whether a `spec.param` with `equals` may have another value in the
  /// other trace. Matching says no: the template's code bakes the value in
  /// wherever the parameter is kept, and nothing here knows where it is.
  enum class EqualsValues { MustMatch, MayDiffer };

  /// Whether a base op the other trace folded away (`x * P` with no
  /// counterpart, see identityFold) is absorbed: its result is `x`, and the
  /// use of `P` faces the identity through `onLeaves`, like a constant.
  /// Matching only: a template's `P` may take the identity; two plain
  /// traces that differ in ops are different kernels to inference.
  enum class IdentityFolds { Align, Absorb };

  Aligner(unsigned trace, LeafCallback onLeaves,
          EqualsValues equalsValues = EqualsValues::MustMatch,
          IdentityFolds folds = IdentityFolds::Align)
      : trace(trace), onLeaves(std::move(onLeaves)), equalsValues(equalsValues),
        folds(folds) {}

  /// Aligns `base` and `other` as the compile reads them: the roots'
  /// own attributes and properties, then their regions. Returns false with
  /// `mismatch` set when they differ.
  bool alignRoots(Operation *base, Operation *other) {
    if (!alignSignature(base, other) || !alignRegions(base, other))
      return false;
    for (auto &[a, b, index] : deferred) {
      Value va = a->getOperand(index);
      if (values.lookup(va) != b->getOperand(index))
        return fail(a, b, operandReason(index, "comes from another value"));
    }
    return true;
  }

  /// Records a mismatch at `a` and `b`; returns false.
  bool fail(Operation *a, Operation *b, const Twine &reason) {
    return fail(a->getLoc(), b->getLoc(), reason);
  }
  bool fail(Location a, Location b, const Twine &reason) {
    if (!mismatch)
      mismatch = TraceMismatch{(absorbed + reason).str(), a, b, trace};
    return false;
  }

  static std::string operandReason(unsigned index, const Twine &what) {
    return ("operand " + Twine(index) + " " + what).str();
  }

  std::optional<TraceMismatch> mismatch;

private:
  bool alignRegions(Operation *a, Operation *b) {
    for (auto [ra, rb] : llvm::zip(a->getRegions(), b->getRegions())) {
      if (ra.getBlocks().size() != rb.getBlocks().size())
        return fail(a, b,
                    "region " + Twine(ra.getRegionNumber()) + " has " +
                        Twine(ra.getBlocks().size()) + " blocks vs " +
                        Twine(rb.getBlocks().size()));
      // Blocks first: a branch may name a later block.
      for (auto [ba, bb] : llvm::zip(ra, rb)) {
        if (ba.getArgumentTypes() != bb.getArgumentTypes())
          return fail(a, b, "block argument types differ");
        blocks[&ba] = &bb;
        for (auto [xa, xb] : llvm::zip(ba.getArguments(), bb.getArguments()))
          values[xa] = xb;
      }
      for (auto [ba, bb] : llvm::zip(ra, rb))
        if (!alignBlock(a, b, ba, bb))
          return false;
    }
    return true;
  }

  static Block::iterator skipLeaves(Block::iterator it, Block &block) {
    while (it != block.end() && isTraceLeaf(&*it))
      ++it;
    return it;
  }

  bool alignBlock(Operation *parentA, Operation *parentB, Block &ba,
                  Block &bb) {
    auto ia = skipLeaves(ba.begin(), ba), ib = skipLeaves(bb.begin(), bb);
    while (ia != ba.end()) {
      Operation *b = ib == bb.end() ? nullptr : &*ib;
      if (folds == IdentityFolds::Absorb) {
        if (std::optional<bool> absorbed = absorbFold(&*ia, b, parentB)) {
          if (!*absorbed)
            return false;
          ia = skipLeaves(std::next(ia), ba);
          continue;
        }
      }
      if (!b)
        break;
      if (!alignOp(&*ia, b))
        return false;
      ia = skipLeaves(std::next(ia), ba);
      ib = skipLeaves(std::next(ib), bb);
    }
    if (ia != ba.end())
      return fail(ia->getLoc(), parentB->getLoc(),
                  "'" + ia->getName().getStringRef() +
                      "' has no counterpart in the other trace");
    if (ib != bb.end())
      return fail(parentA->getLoc(), ib->getLoc(),
                  "the other trace has an extra '" +
                      ib->getName().getStringRef() + "'");
    return true;
  }

  /// Fails with the first entry in which `da` and `db` (attribute
  /// dictionaries, or properties as attributes) differ; `what` names them,
  /// after `prefix`.
  bool failDictionary(Operation *a, Operation *b, StringRef what,
                      DictionaryAttr da, DictionaryAttr db,
                      StringRef prefix = "") {
    // (Properties of an op without any, or not a dictionary, read as none.)
    if (!da)
      da = DictionaryAttr::get(a->getContext());
    if (!db)
      db = DictionaryAttr::get(b->getContext());
    std::string text;
    llvm::raw_string_ostream os(text);
    for (NamedAttribute attr : da) {
      Attribute other = db.get(attr.getName());
      if (other == attr.getValue())
        continue;
      os << prefix << what << " '" << attr.getName().getValue()
         << "' differs: " << attr.getValue() << " vs ";
      if (other)
        os << other;
      else
        os << "none";
      return fail(a, b, text);
    }
    for (NamedAttribute attr : db)
      if (!da.get(attr.getName()))
        return fail(a, b,
                    prefix + "the other trace has " + what + " '" +
                        attr.getName().getValue() + "'");
    return fail(a, b,
                prefix +
                    Twine(what == "property" ? "properties" : "attributes") +
                    " differ");
  }

  /// The value of a `spec.param` with `equals` (a leaf without one never
  /// gets here): the same, unless `equalsValues` lets it differ.
  bool alignParam(spec::ParamOp a, spec::ParamOp b) {
    if (a.getNameAttr() != b.getNameAttr())
      return fail(a.getOperation(), b, "parameter names differ");
    if (a.getIntValue() == b.getIntValue())
      return true;
    if (equalsValues == EqualsValues::MayDiffer)
      return true;
    return fail(a.getOperation(), b,
                "spec.param '" + a.getName() + "' (with equals) is " +
                    Twine(a.getIntValue()) + " here and " +
                    Twine(b.getIntValue()) +
                    " in the other trace: a kept parameter's value is "
                    "compiled in");
  }

  /// Everything of `a` and `b` but their operands and regions: name,
  /// operand, result, successor and region counts, result types, the
  /// attribute dictionary (inherent and discardable) and the properties
  /// (LLVM's overflow and GEP no-wrap flags live there, outside the
  /// dictionary). Locations are not compared: frontends trace from
  /// different lines.
  bool alignSignature(Operation *a, Operation *b) {
    if (a->getName() != b->getName())
      return fail(a, b,
                  "'" + a->getName().getStringRef() + "' vs '" +
                      b->getName().getStringRef() + "'");
    if (a->getNumOperands() != b->getNumOperands())
      return fail(a, b,
                  "'" + a->getName().getStringRef() + "' has " +
                      Twine(a->getNumOperands()) + " operands vs " +
                      Twine(b->getNumOperands()));
    if (a->getResultTypes() != b->getResultTypes()) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "result types differ: ";
      llvm::interleaveComma(a->getResultTypes(), os);
      os << " vs ";
      llvm::interleaveComma(b->getResultTypes(), os);
      return fail(a, b, text);
    }
    if (a->getNumSuccessors() != b->getNumSuccessors() ||
        a->getNumRegions() != b->getNumRegions())
      return fail(a, b, "region or successor structure differs");
    if (auto param = dyn_cast<spec::ParamOp>(a)) {
      if (!alignParam(param, cast<spec::ParamOp>(b)))
        return false;
      if (param.getIntValue() != cast<spec::ParamOp>(b).getIntValue())
        return alignDiscardable(a, b);
    }
    DictionaryAttr da = a->getAttrDictionary(), db = b->getAttrDictionary();
    if (da != db)
      return failDictionary(a, b, "attribute", da, db);
    if (a->getName().compareOpProperties(a->getPropertiesStorage(),
                                         b->getPropertiesStorage()))
      return true;
    return failDictionary(
        a, b, "property",
        dyn_cast_or_null<DictionaryAttr>(a->getPropertiesAsAttribute()),
        dyn_cast_or_null<DictionaryAttr>(b->getPropertiesAsAttribute()));
  }

  /// The discardable attributes only (a parameter whose value may differ).
  bool alignDiscardable(Operation *a, Operation *b) {
    DictionaryAttr da = a->getDiscardableAttrDictionary(),
                   db = b->getDiscardableAttrDictionary();
    return da == db || failDictionary(a, b, "attribute", da, db);
  }

  bool alignOp(Operation *a, Operation *b) {
    if (!alignSignature(a, b))
      return false;
    for (auto [ra, rb] : llvm::zip(a->getResults(), b->getResults()))
      values[ra] = rb;
    for (unsigned i = 0, e = a->getNumOperands(); i != e; ++i)
      if (!alignOperand(a, b, i))
        return false;
    for (unsigned i = 0, e = a->getNumSuccessors(); i != e; ++i)
      if (blocks.lookup(a->getSuccessor(i)) != b->getSuccessor(i))
        return fail(a, b, "successor " + Twine(i) + " differs");
    return alignRegions(a, b);
  }

  /// What two leaves facing each other carry besides their values and
  /// types: the same discardable attributes (a template's parameter has
  /// those of the constant it replaced). Which op makes a constant of a
  /// type and value is not compared: `arith.constant` and
  /// `llvm.mlir.constant` lower to the same.
  bool alignLeafOps(Operation *a, Operation *b, unsigned index, const Leaf &la,
                    const Leaf &lb) {
    DictionaryAttr da = withoutDerived(la), db = withoutDerived(lb);
    return da == db ||
           failDictionary(a, b, "attribute", da, db,
                          operandReason(index, "(" + describe(la) + "): "));
  }

  /// A leaf op's discardable attributes but the derived mark: a derived
  /// value carries those of the constant it replaced besides it.
  static DictionaryAttr withoutDerived(const Leaf &leaf) {
    DictionaryAttr attrs = leaf.op->getDiscardableAttrDictionary();
    if (!leaf.derived)
      return attrs;
    NamedAttrList list(attrs);
    list.erase(kDerivedAttr);
    return list.getDictionary(leaf.op->getContext());
  }

  bool alignOperand(Operation *a, Operation *b, unsigned index) {
    Value va = a->getOperand(index), vb = b->getOperand(index);
    if (va.getType() != vb.getType())
      return fail(a, b, operandReason(index, "types differ"));
    std::optional<Leaf> la = leafOf(va), lb = leafOf(vb);
    if (la && lb) {
      if (!alignLeafOps(a, b, index, *la, *lb))
        return false;
      if (std::optional<std::string> why =
              onLeaves(a->getOpOperand(index), *la, *lb))
        return fail(a, b, *why);
      return true;
    }
    if (la || lb)
      return fail(a, b,
                  operandReason(index, "is a " + describe(la ? *la : *lb) +
                                           " in one trace and a computed "
                                           "value in the other"));
    Value mapped = values.lookup(va);
    if (!mapped) {
      // Defined later in IR order (a block that dominates from below).
      deferred.push_back({a, b, index});
      return true;
    }
    if (mapped != vb)
      return fail(a, b, operandReason(index, "comes from another value"));
    return true;
  }

  /// Absorbs `a` when it is an identity fold whose `x` is aligned and
  /// `b` (the other trace's next op; null at the block's end, after
  /// `parentB`'s last op) does not align as `a`: true, or false on a
  /// mismatch (`P` cannot take the identity). Nothing when `a` is not
  /// absorbed (IdentityFolds.cpp).
  std::optional<bool> absorbFold(Operation *a, Operation *b,
                                 Operation *parentB);

  /// Whether `b` could be `a`'s counterpart: the same signature, a leaf
  /// where `a` has one, and the aligned values where `a` has them.
  bool looksAligned(Operation *a, Operation *b);

  unsigned trace;
  LeafCallback onLeaves;
  EqualsValues equalsValues;
  IdentityFolds folds;
  /// Put before a mismatch after an absorption: which op was taken as
  /// folded away, so a width that folds differently reads as such.
  std::string absorbed;
  DenseMap<Value, Value> values;
  DenseMap<Block *, Block *> blocks;
  struct Deferred {
    Operation *a, *b;
    unsigned index;
  };
  SmallVector<Deferred> deferred;
};

/// Emits `mismatch` as an error `what` at the base trace's op, with a note
/// `other` at the other trace's.
void emitMismatch(const TraceMismatch &mismatch, const Twine &what,
                  const Twine &other);

} // namespace mlir::flyhoist::trace

#endif // FLYHOIST_LIB_TRANSFORMS_TRACEALIGNMENT_H
