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

#include "TraceAlignment.h"

#include "flyhoist/Dialect/Spec/SpecDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <map>

using namespace mlir;
using namespace mlir::flyhoist;
using namespace mlir::flyhoist::trace;
using spec::ParamOp;

namespace {

/// What inference learns about one use of a leaf in the base.
struct UseRecord {
  SmallVector<int64_t> values;
  Type type;
};

} // namespace

/// Aligns every trace in `others` with `base` and records, per use of a
/// constant leaf in the base, the values each trace has there (a named leaf
/// must match by name). On the first misalignment fills `mismatchOut`,
/// emits it when `emit`, and fails.
static LogicalResult
collectTraceValues(Operation *base, ArrayRef<Operation *> others,
                   llvm::MapVector<OpOperand *, UseRecord> &uses,
                   TraceMismatch *mismatchOut, bool emit) {
  for (auto [index, other] : llvm::enumerate(others)) {
    unsigned position = index + 1;
    Aligner aligner(
        position,
        [&](OpOperand &use, const Leaf &a,
            const Leaf &b) -> std::optional<std::string> {
          if (a.derived || b.derived)
            return Aligner::operandReason(
                use.getOperandNumber(),
                "is a " + describe(a.derived ? a : b) +
                    ": infer from traces, not from a template");
          if (a.name || b.name) {
            if (a.name == b.name)
              return std::nullopt;
            return Aligner::operandReason(use.getOperandNumber(),
                                          "is a " + describe(a) +
                                              " in one trace and a " +
                                              describe(b) + " in the other");
          }
          UseRecord &record = uses[&use];
          if (record.values.empty()) {
            record.type = use.get().getType();
            record.values.push_back(a.value);
          }
          record.values.push_back(b.value);
          return std::nullopt;
        },
        // The base becomes the template: its value of a parameter with
        // `equals` is the one compiled in, and a later trace matches only
        // with that value (matchSpecParams).
        Aligner::EqualsValues::MayDiffer);
    if (!aligner.alignRoots(base, other)) {
      if (mismatchOut)
        *mismatchOut = *aligner.mismatch;
      if (emit)
        emitMismatch(*aligner.mismatch, "traces do not align",
                     "trace " + Twine(position) + " here");
      return failure();
    }
  }
  return success();
}

namespace {
/// Names inferred parameters: the frontend's name for the same values when
/// it gave one (each used once), else the next positional name (`p0`,
/// `p1`, ...) that neither the module nor the frontend holds.
class ParamNamer {
public:
  ParamNamer(Operation *base, ArrayRef<FrontendValue> frontend)
      : frontend(frontend) {
    base->walk([&](ParamOp param) { taken.insert(param.getName()); });
    for (const FrontendValue &value : frontend)
      taken.insert(value.name);
  }

  std::string nameFor(ArrayRef<int64_t> values) {
    std::string name;
    for (const FrontendValue &value : frontend)
      if (ArrayRef<int64_t>(value.values) == values &&
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
    return name;
  }

private:
  ArrayRef<FrontendValue> frontend;
  llvm::StringSet<> taken;
  llvm::StringSet<> assigned;
  unsigned nextPosition = 0;
};
} // namespace

/// `y = scale * x + offset` (integers, scale not 0) for every pair of
/// `xs` and `ys`, where `xs` takes at least 3 distinct values; a relation
/// whose scale or offset is not an integer has none.
static std::optional<Derivation> fitAffine(ArrayRef<int64_t> xs,
                                           ArrayRef<int64_t> ys) {
  if (llvm::SmallDenseSet<int64_t, 4>(xs.begin(), xs.end()).size() < 3)
    return std::nullopt;
  size_t other = 1;
  while (xs[other] == xs[0])
    ++other;
  // 128 bits: neither a difference nor a product of 64-bit values wraps.
  auto wide = [](int64_t v) { return APInt(128, v, /*isSigned=*/true); };
  APInt dx = wide(xs[other]) - wide(xs[0]), dy = wide(ys[other]) - wide(ys[0]);
  if (!dy.srem(dx).isZero())
    return std::nullopt;
  APInt scale = dy.sdiv(dx), offset = wide(ys[0]) - scale * wide(xs[0]);
  if (scale.isZero() || !scale.isSignedIntN(64) || !offset.isSignedIntN(64))
    return std::nullopt;
  for (auto [x, y] : llvm::zip(xs, ys))
    if (scale * wide(x) + offset != wide(y))
      return std::nullopt;
  return Derivation{"", scale.getSExtValue(), offset.getSExtValue()};
}

/// Whether `value` is a signed value of `type`'s width.
static bool fits(int64_t value, Type type) {
  unsigned width = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
  return width >= 64 || llvm::isIntN(width, value);
}

/// For each parameter, the root it is derived from, if any: roots are
/// chosen greedily, the one most others are integral affine functions of
/// first (a frontend-named one before others, then IR order); a parameter
/// whose relation to every root is not integral stays its own.
static SmallVector<std::optional<Derivation>>
findDerivations(ArrayRef<InferredParam> params, ArrayRef<FrontendValue> fe) {
  size_t n = params.size();
  SmallVector<std::optional<Derivation>> result(n);
  // fit[r][d]: d as a function of r.
  std::vector<std::vector<std::optional<Derivation>>> fit(
      n, std::vector<std::optional<Derivation>>(n));
  for (size_t r = 0; r != n; ++r)
    for (size_t d = 0; d != n; ++d)
      if (r != d)
        if (auto f = fitAffine(params[r].values, params[d].values);
            f && fits(f->scale, params[d].type) &&
            fits(f->offset, params[d].type))
          fit[r][d] = f;
  auto named = [&](size_t r) {
    return llvm::any_of(
        fe, [&](const FrontendValue &v) { return v.name == params[r].name; });
  };
  SmallVector<bool> taken(n, false);
  while (true) {
    std::optional<size_t> best;
    unsigned bestCount = 0;
    for (size_t r = 0; r != n; ++r) {
      if (taken[r])
        continue;
      unsigned count = llvm::count_if(llvm::seq<size_t>(0, n), [&](size_t d) {
        return !taken[d] && fit[r][d];
      });
      if (count && (!best || (named(r) && !named(*best)) ||
                    (named(r) == named(*best) && count > bestCount))) {
        best = r;
        bestCount = count;
      }
    }
    if (!best)
      return result;
    taken[*best] = true;
    for (size_t d = 0; d != n; ++d)
      if (!taken[d] && fit[*best][d]) {
        taken[d] = true;
        result[d] = fit[*best][d];
        result[d]->root = params[*best].name;
      }
  }
}

namespace {
/// Builds the spec.params (and derived values) that replace constants.
class ParamBuilder {
public:
  ParamBuilder(ArrayRef<InferredParam> params,
               ArrayRef<std::optional<Derivation>> derivations)
      : params(params), derivations(derivations) {}

  /// The value replacing `constant` in its uses that take parameter
  /// `index`: built after `constant` once.
  Value replacement(Operation *constant, unsigned index) {
    Value &value = created[{constant, index}];
    if (value)
      return value;
    const InferredParam &param = params[index];
    OpBuilder builder(constant->getContext());
    builder.setInsertionPointAfter(constant);
    Location loc = param.location;
    if (!derivations[index]) {
      value = ParamOp::create(builder, loc, param.name, param.values.front(),
                              param.type);
    } else {
      value = derive(builder, loc, param, *derivations[index]);
      value.getDefiningOp()->setAttr(kDerivedAttr,
                                     builder.getStringAttr(param.name));
    }
    // What the frontend attached to the constant stays: a later trace's
    // constant there matches only with the same attributes.
    for (NamedAttribute attr : constant->getDiscardableAttrs())
      value.getDefiningOp()->setAttr(attr.getName(), attr.getValue());
    return value;
  }

private:
  /// `scale * root + offset` in `param`'s type, wrapping (no overflow
  /// flags: each trace's constant is what the wrapped value is, and
  /// matching checks a later trace's the same way).
  Value derive(OpBuilder &builder, Location loc, const InferredParam &param,
               const Derivation &derivation) {
    const InferredParam &root =
        *llvm::find_if(params, [&](const InferredParam &p) {
          return p.name == derivation.root;
        });
    auto mark = [&](Value v) {
      v.getDefiningOp()->setAttr(kDerivedAttr,
                                 builder.getStringAttr(param.name));
      return v;
    };
    Type type = param.type;
    Value v = ParamOp::create(builder, loc, root.name, root.values.front(),
                              root.type);
    if (root.type != type) {
      if (root.type.isIndex() || type.isIndex())
        v = mark(arith::IndexCastOp::create(builder, loc, type, v));
      else if (root.type.getIntOrFloatBitWidth() < type.getIntOrFloatBitWidth())
        v = mark(arith::ExtSIOp::create(builder, loc, type, v));
      else
        v = mark(arith::TruncIOp::create(builder, loc, type, v));
    }
    if (derivation.scale != 1)
      v = mark(arith::MulIOp::create(
          builder, loc, v,
          mark(arith::ConstantOp::create(
              builder, loc, IntegerAttr::get(type, derivation.scale)))));
    if (derivation.offset != 0)
      v = mark(arith::AddIOp::create(
          builder, loc, v,
          mark(arith::ConstantOp::create(
              builder, loc, IntegerAttr::get(type, derivation.offset)))));
    return v;
  }

  ArrayRef<InferredParam> params;
  ArrayRef<std::optional<Derivation>> derivations;
  DenseMap<std::pair<Operation *, unsigned>, Value> created;
};
} // namespace

FailureOr<SmallVector<InferredParam>>
mlir::flyhoist::inferSpecParams(Operation *base, ArrayRef<Operation *> others,
                                ArrayRef<FrontendValue> frontend,
                                TraceMismatch *mismatchOut, bool emit,
                                bool derive) {
  // Called without a pass manager, traces with no spec.param may not have
  // loaded the dialect the rewrite creates ops of.
  base->getContext()->getOrLoadDialect<spec::SpecDialect>();
  base->getContext()->getOrLoadDialect<arith::ArithDialect>();
  llvm::MapVector<OpOperand *, UseRecord> uses;
  if (failed(collectTraceValues(base, others, uses, mismatchOut, emit)))
    return failure();

  ParamNamer namer(base, frontend);
  SmallVector<InferredParam> params;
  // (type, values) -> index in `params`.
  std::map<std::pair<const void *, SmallVector<int64_t>>, unsigned> groups;
  SmallVector<std::pair<OpOperand *, unsigned>> replaced;
  for (auto &[use, record] : uses) {
    if (llvm::all_equal(record.values))
      continue;
    auto key = std::make_pair(record.type.getAsOpaquePointer(), record.values);
    auto [it, inserted] = groups.try_emplace(key, params.size());
    if (inserted)
      params.push_back(InferredParam{namer.nameFor(record.values), record.type,
                                     record.values, use->getOwner()->getLoc()});
    ++params[it->second].numUses;
    replaced.emplace_back(use, it->second);
  }
  SmallVector<std::optional<Derivation>> derivations(params.size());
  // The kernel computes a derived index at the layout's index width, which
  // matching evaluates only at 64 bits: with a narrower index, no
  // derivation.
  bool wideIndex = DataLayout::closest(base).getTypeSizeInBits(
                       IndexType::get(base->getContext())) ==
                   IndexType::kInternalStorageBitWidth;
  if (derive && (wideIndex || llvm::none_of(params, [](const InferredParam &p) {
                   return p.type.isIndex();
                 })))
    derivations = findDerivations(params, frontend);
  for (auto [param, derivation] : llvm::zip(params, derivations))
    param.derived = derivation;

  ParamBuilder builder(params, derivations);
  llvm::SetVector<Operation *> touched;
  for (auto [use, index] : replaced) {
    Operation *constant = use->get().getDefiningOp();
    touched.insert(constant);
    use->set(builder.replacement(constant, index));
  }
  for (Operation *constant : touched)
    if (constant->use_empty())
      constant->erase();
  return params;
}

namespace {
/// A derived value of the template facing a trace's constant: checked once
/// every root is bound.
struct DerivedUse {
  OpOperand *use;
  Leaf derived, constant;
};
} // namespace

/// Why the trace's constant at `check` is not the derived value computed
/// from the roots `bound`, or nothing.
static std::optional<std::string> checkDerived(
    const DerivedUse &check,
    const llvm::MapVector<StringAttr, std::pair<int64_t, Operation *>> &bound) {
  std::string missing;
  FailureOr<APInt> value = evaluateDerived(
      check.use->get(), [&](ParamOp param) -> std::optional<int64_t> {
        auto it = bound.find(param.getNameAttr());
        if (it != bound.end())
          return it->second.first;
        missing = param.getName().str();
        return std::nullopt;
      });
  std::string what =
      "value derived for '" + check.derived.name.getValue().str() + "'";
  if (failed(value))
    return Aligner::operandReason(
        check.use->getOperandNumber(),
        "is a " + what + " that cannot be computed" +
            (missing.empty() ? Twine("")
                             : Twine(": its root '") + missing +
                                   "' has no value in the trace"));
  unsigned width = value->getBitWidth();
  if (*value ==
      APInt(64, check.constant.value, /*isSigned=*/true).sextOrTrunc(width))
    return std::nullopt;
  return Aligner::operandReason(
      check.use->getOperandNumber(),
      "is a " + what + " (" + Twine(value->getSExtValue()) +
          " for the trace's roots) in the template and " +
          describe(check.constant) + " in the trace");
}

FailureOr<SmallVector<std::pair<std::string, int64_t>>>
mlir::flyhoist::matchSpecParams(Operation *templateOp, Operation *trace,
                                TraceMismatch *mismatchOut, bool emit) {
  llvm::MapVector<StringAttr, std::pair<int64_t, Operation *>> bound;
  SmallVector<DerivedUse> derivedUses;
  Aligner aligner(
      0,
      [&](OpOperand &use, const Leaf &a,
          const Leaf &b) -> std::optional<std::string> {
        unsigned index = use.getOperandNumber();
        if (a.derived && !b.name) {
          derivedUses.push_back({&use, a, b});
          return std::nullopt;
        }
        if (a.derived || b.derived ||
            (!a.name && (b.name || a.value != b.value)) ||
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
      },
      Aligner::EqualsValues::MustMatch, Aligner::IdentityFolds::Absorb);
  bool aligned = aligner.alignRoots(templateOp, trace);
  // The roots are all bound once the traces align: a derived value is
  // checked against the value its root takes anywhere in the trace.
  for (const DerivedUse &check : derivedUses) {
    if (!aligned)
      break;
    if (std::optional<std::string> why = checkDerived(check, bound))
      aligned = aligner.fail(check.use->getOwner()->getLoc(),
                             check.constant.op->getLoc(), *why);
  }
  if (!aligned) {
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
