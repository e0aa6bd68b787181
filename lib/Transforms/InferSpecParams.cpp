//===- InferSpecParams.cpp - spec.param from a frontend's traces ----------===//
//
// inferSpecParams() and matchSpecParams(): both align two traces op by op
// with one Aligner, which skips the operand sources traces may disagree on
// (integer constants, spec.params) and hands each use of one to a callback.
// The passes (InferSpecParamsPass.cpp, MatchSpecParamsPass.cpp) are thin
// drivers over these functions.
//
//===----------------------------------------------------------------------===//

#include "flyhoist/Transforms/InferSpecParams.h"

#include "flyhoist/Dialect/Spec/SpecDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <map>

using namespace mlir;
using namespace mlir::flyhoist;
using spec::ParamOp;

/// The integer value of a scalar integer or index constant of at most 64
/// bits (`arith.constant` or `llvm.mlir.constant`), or null.
static IntegerAttr constantValue(Operation *op) {
  Attribute value;
  if (auto constant = dyn_cast<arith::ConstantOp>(op))
    value = constant.getValue();
  else if (auto constant = dyn_cast<LLVM::ConstantOp>(op))
    value = constant.getValue();
  auto integer = dyn_cast_or_null<IntegerAttr>(value);
  if (!integer || !integer.getType().isIntOrIndex() ||
      integer.getType() != op->getResult(0).getType())
    return {};
  if (!integer.getType().isIndex() &&
      integer.getType().getIntOrFloatBitWidth() > 64)
    return {};
  return integer;
}

bool mlir::flyhoist::isTraceLeaf(Operation *op) {
  if (auto param = dyn_cast<ParamOp>(op))
    return !param.getEquals();
  return static_cast<bool>(constantValue(op));
}

namespace {

/// An operand source traces may disagree on, read once.
struct Leaf {
  Operation *op;
  int64_t value;
  /// The parameter's name; null for a constant.
  StringAttr name;
};

std::optional<Leaf> leafOf(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def || !isTraceLeaf(def))
    return std::nullopt;
  if (auto param = dyn_cast<ParamOp>(def))
    return Leaf{def, param.getIntValue(), param.getNameAttr()};
  return Leaf{def, constantValue(def).getValue().getSExtValue(), StringAttr()};
}

std::string describe(const Leaf &leaf) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (leaf.name)
    os << "spec.param '" << leaf.name.getValue() << "'";
  else
    os << "constant " << leaf.value;
  return text;
}

/// Aligns two traces op by op. Ops that are trace leaves are left out of
/// the lockstep walk (canonicalize places and merges them differently from
/// trace to trace); each operand they feed is handed to `onLeaves` with the
/// use in the base.
class Aligner {
public:
  /// Returns why the two leaves may not face each other, or nothing.
  using LeafCallback = std::function<std::optional<std::string>(
      OpOperand &, const Leaf &, const Leaf &)>;

  Aligner(unsigned trace, LeafCallback onLeaves)
      : trace(trace), onLeaves(std::move(onLeaves)) {}

  /// Aligns the regions of `base` and `other` (not their own attributes).
  /// Returns false with `mismatch` set when they differ.
  bool alignRoots(Operation *base, Operation *other) {
    if (!alignRegions(base, other))
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
      mismatch = TraceMismatch{reason.str(), a, b, trace};
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
    while (ia != ba.end() && ib != bb.end()) {
      if (!alignOp(&*ia, &*ib))
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

  bool alignAttributes(Operation *a, Operation *b) {
    if (auto param = dyn_cast<ParamOp>(a)) {
      // A frontend's own parameter with `equals`: its value may differ.
      if (param.getNameAttr() != cast<ParamOp>(b).getNameAttr())
        return fail(a, b, "parameter names differ");
      return true;
    }
    DictionaryAttr da = a->getAttrDictionary(), db = b->getAttrDictionary();
    if (da == db)
      return true;
    for (NamedAttribute attr : da) {
      Attribute other = db.get(attr.getName());
      if (other == attr.getValue())
        continue;
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "attribute '" << attr.getName().getValue()
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
                    "the other trace has attribute '" +
                        attr.getName().getValue() + "'");
    return fail(a, b, "attributes differ");
  }

  bool alignOp(Operation *a, Operation *b) {
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
    if (!alignAttributes(a, b))
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

  bool alignOperand(Operation *a, Operation *b, unsigned index) {
    Value va = a->getOperand(index), vb = b->getOperand(index);
    if (va.getType() != vb.getType())
      return fail(a, b, operandReason(index, "types differ"));
    std::optional<Leaf> la = leafOf(va), lb = leafOf(vb);
    if (la && lb) {
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

  unsigned trace;
  LeafCallback onLeaves;
  DenseMap<Value, Value> values;
  DenseMap<Block *, Block *> blocks;
  struct Deferred {
    Operation *a, *b;
    unsigned index;
  };
  SmallVector<Deferred> deferred;
};

void emitMismatch(const TraceMismatch &mismatch, const Twine &what,
                  const Twine &other) {
  InFlightDiagnostic diag = emitError(mismatch.baseLocation)
                            << what << ": " << mismatch.reason;
  diag.attachNote(mismatch.otherLocation) << other;
}

/// What inference learns about one use of a leaf in the base.
struct UseRecord {
  SmallVector<int64_t> values;
  Type type;
};

} // namespace

FailureOr<SmallVector<InferredParam>>
mlir::flyhoist::inferSpecParams(Operation *base, ArrayRef<Operation *> others,
                                ArrayRef<FrontendValue> frontend,
                                TraceMismatch *mismatchOut, bool emit) {
  // Called without a pass manager, traces with no spec.param may not have
  // loaded the dialect the rewrite creates ops of.
  base->getContext()->getOrLoadDialect<spec::SpecDialect>();
  llvm::MapVector<OpOperand *, UseRecord> uses;
  for (auto [index, other] : llvm::enumerate(others)) {
    unsigned position = index + 1;
    Aligner aligner(position,
                    [&](OpOperand &use, const Leaf &a,
                        const Leaf &b) -> std::optional<std::string> {
                      if (a.name || b.name) {
                        if (a.name == b.name)
                          return std::nullopt;
                        return Aligner::operandReason(
                            use.getOperandNumber(),
                            "is a " + describe(a) + " in one trace and a " +
                                describe(b) + " in the other");
                      }
                      UseRecord &record = uses[&use];
                      if (record.values.empty()) {
                        record.type = use.get().getType();
                        record.values.push_back(a.value);
                      }
                      record.values.push_back(b.value);
                      return std::nullopt;
                    });
    if (!aligner.alignRoots(base, other)) {
      if (mismatchOut)
        *mismatchOut = *aligner.mismatch;
      if (emit)
        emitMismatch(*aligner.mismatch, "traces do not align",
                     "trace " + Twine(position) + " here");
      return failure();
    }
  }

  // Names the module holds already, and the frontend's, are not positional
  // names.
  llvm::StringSet<> taken;
  base->walk([&](ParamOp param) { taken.insert(param.getName()); });
  for (const FrontendValue &value : frontend)
    taken.insert(value.name);
  llvm::StringSet<> assigned;
  unsigned nextPosition = 0;

  SmallVector<InferredParam> params;
  // (type, values) -> index in `params`.
  std::map<std::pair<const void *, SmallVector<int64_t>>, unsigned> groups;
  DenseMap<std::pair<Operation *, unsigned>, Value> created;
  SmallVector<Operation *> touched;
  for (auto &[use, record] : uses) {
    if (llvm::all_equal(record.values))
      continue;
    auto key = std::make_pair(record.type.getAsOpaquePointer(), record.values);
    auto [it, inserted] = groups.try_emplace(key, params.size());
    if (inserted) {
      std::string name;
      for (const FrontendValue &value : frontend)
        if (ArrayRef<int64_t>(value.values) == ArrayRef(record.values) &&
            !assigned.contains(value.name)) {
          name = value.name;
          break;
        }
      while (name.empty()) {
        std::string candidate = "p" + std::to_string(nextPosition++);
        if (!taken.contains(candidate))
          name = candidate;
      }
      assigned.insert(name);
      params.push_back(InferredParam{name, record.type, record.values,
                                     use->getOwner()->getLoc()});
    }
    InferredParam &param = params[it->second];
    ++param.numUses;
    Operation *constant = use->get().getDefiningOp();
    Value &replacement = created[{constant, it->second}];
    if (!replacement) {
      OpBuilder builder(constant->getContext());
      builder.setInsertionPointAfter(constant);
      replacement =
          ParamOp::create(builder, use->getOwner()->getLoc(), param.name,
                          param.values.front(), param.type);
      touched.push_back(constant);
    }
    use->set(replacement);
  }
  for (Operation *constant : touched)
    if (constant->use_empty())
      constant->erase();
  return params;
}

FailureOr<SmallVector<std::pair<std::string, int64_t>>>
mlir::flyhoist::matchSpecParams(Operation *templateOp, Operation *trace,
                                TraceMismatch *mismatchOut, bool emit) {
  llvm::MapVector<StringAttr, std::pair<int64_t, Operation *>> bound;
  Aligner aligner(
      0,
      [&](OpOperand &use, const Leaf &a,
          const Leaf &b) -> std::optional<std::string> {
        unsigned index = use.getOperandNumber();
        if ((!a.name && (b.name || a.value != b.value)) ||
            (a.name && b.name && b.name != a.name))
          return Aligner::operandReason(
              index, "is " + describe(a) + " in the template and " +
                         describe(b) + " in the trace");
        if (!a.name)
          return std::nullopt;
        auto [it, inserted] = bound.try_emplace(a.name, b.value, b.op);
        if (!inserted && it->second.first != b.value)
          return Aligner::operandReason(
              index, "takes " + Twine(b.value) + " for '" + a.name.getValue() +
                         "', which is " + Twine(it->second.first) +
                         " at its first use");
        return std::nullopt;
      });
  if (!aligner.alignRoots(templateOp, trace)) {
    if (mismatchOut)
      *mismatchOut = *aligner.mismatch;
    if (emit)
      emitMismatch(*aligner.mismatch, "trace does not match the template",
                   "the trace here");
    return failure();
  }
  SmallVector<std::pair<std::string, int64_t>> values;
  for (auto &[name, value] : bound)
    values.emplace_back(name.str(), value.first);
  return values;
}
