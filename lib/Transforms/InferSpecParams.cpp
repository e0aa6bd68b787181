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

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"
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

FailureOr<SmallVector<InferredParam>>
mlir::flyhoist::inferSpecParams(Operation *base, ArrayRef<Operation *> others,
                                ArrayRef<FrontendValue> frontend,
                                TraceMismatch *mismatchOut, bool emit) {
  // Called without a pass manager, traces with no spec.param may not have
  // loaded the dialect the rewrite creates ops of.
  base->getContext()->getOrLoadDialect<spec::SpecDialect>();
  llvm::MapVector<OpOperand *, UseRecord> uses;
  if (failed(collectTraceValues(base, others, uses, mismatchOut, emit)))
    return failure();

  ParamNamer namer(base, frontend);
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
    if (inserted)
      params.push_back(InferredParam{namer.nameFor(record.values), record.type,
                                     record.values, use->getOwner()->getLoc()});
    InferredParam &param = params[it->second];
    ++param.numUses;
    Operation *constant = use->get().getDefiningOp();
    Value &replacement = created[{constant, it->second}];
    if (!replacement) {
      OpBuilder builder(constant->getContext());
      builder.setInsertionPointAfter(constant);
      auto paramOp =
          ParamOp::create(builder, use->getOwner()->getLoc(), param.name,
                          param.values.front(), param.type);
      // What the frontend attached to the constant stays: a later trace's
      // constant there matches only with the same attributes.
      paramOp->setDiscardableAttrs(constant->getDiscardableAttrDictionary());
      replacement = paramOp;
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
