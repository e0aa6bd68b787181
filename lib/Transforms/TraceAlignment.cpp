//===- TraceAlignment.cpp - Aligning two traces op by op ------------------===//

#include "TraceAlignment.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::flyhoist;
using namespace mlir::flyhoist::trace;
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
  return static_cast<bool>(constantValue(op)) || trace::isDerivedOp(op);
}

/// The width derived values of `type` are computed at (index: 64 bits, as
/// IntegerAttr stores it).
static unsigned derivedWidth(Type type) {
  return type.isIndex() ? IndexType::kInternalStorageBitWidth
                        : type.getIntOrFloatBitWidth();
}

bool trace::isDerivedOp(Operation *op) {
  if (!op->hasAttr(kDerivedAttr) || op->getNumResults() != 1 ||
      op->getNumRegions() != 0 || !op->getResult(0).getType().isIntOrIndex())
    return false;
  if (isa<arith::ConstantOp>(op))
    return static_cast<bool>(constantValue(op));
  // Overflow flags would make a wrapped value poison: only plain wrapping
  // arithmetic computes what the matcher evaluates.
  if (auto mul = dyn_cast<arith::MulIOp>(op))
    return mul.getOverflowFlags() == arith::IntegerOverflowFlags::none;
  if (auto add = dyn_cast<arith::AddIOp>(op))
    return add.getOverflowFlags() == arith::IntegerOverflowFlags::none;
  return isa<arith::ExtSIOp, arith::TruncIOp, arith::IndexCastOp>(op);
}

/// evaluateDerived() with a bound on the chain's depth (a forged template
/// cannot make the walk deep).
static FailureOr<APInt>
evaluate(Value value, function_ref<std::optional<int64_t>(ParamOp)> root,
         unsigned depth) {
  Operation *def = value.getDefiningOp();
  if (!def || depth > 8 || !value.getType().isIntOrIndex())
    return failure();
  // An index narrower than 64 bits (a data layout on the module) would
  // compute at another width than the one evaluated here: not evaluated.
  if (value.getType().isIndex() &&
      DataLayout::closest(def).getTypeSizeInBits(value.getType()) !=
          IndexType::kInternalStorageBitWidth)
    return failure();
  unsigned width = derivedWidth(value.getType());
  if (auto param = dyn_cast<ParamOp>(def)) {
    std::optional<int64_t> bound = root(param);
    if (!bound || param.getEquals())
      return failure();
    return APInt(64, *bound, /*isSigned=*/true).sextOrTrunc(width);
  }
  if (!trace::isDerivedOp(def))
    return failure();
  if (IntegerAttr constant = constantValue(def))
    return constant.getValue().sextOrTrunc(width);
  SmallVector<APInt, 2> operands;
  for (Value operand : def->getOperands()) {
    FailureOr<APInt> v = evaluate(operand, root, depth + 1);
    if (failed(v))
      return failure();
    operands.push_back(*v);
  }
  if (isa<arith::MulIOp>(def))
    return operands[0] * operands[1];
  if (isa<arith::AddIOp>(def))
    return operands[0] + operands[1];
  // extsi, trunci and index_cast (which sign-extends when it widens).
  return operands[0].sextOrTrunc(width);
}

FailureOr<APInt>
trace::evaluateDerived(Value value,
                       function_ref<std::optional<int64_t>(ParamOp)> root) {
  return evaluate(value, root, 0);
}

std::optional<Leaf> trace::leafOf(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def || !isTraceLeaf(def))
    return std::nullopt;
  if (isDerivedOp(def)) {
    // Its value at the template's own parameter values (0 when the chain
    // does not evaluate: matching then fails on it).
    FailureOr<APInt> own =
        evaluateDerived(value, [](ParamOp param) -> std::optional<int64_t> {
          return param.getIntValue();
        });
    auto name = def->getAttrOfType<StringAttr>(kDerivedAttr);
    return Leaf{def, succeeded(own) ? own->getSExtValue() : 0,
                name ? name : StringAttr::get(def->getContext(), "?"), true};
  }
  if (auto param = dyn_cast<ParamOp>(def))
    return Leaf{def, param.getIntValue(), param.getNameAttr()};
  return Leaf{def, constantValue(def).getValue().getSExtValue(), StringAttr()};
}

std::string trace::describe(const Leaf &leaf) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (leaf.folded)
    os << "the identity " << leaf.value << " of a folded-away '"
       << leaf.folded->getName() << "'";
  else if (leaf.derived)
    os << "value derived for '" << leaf.name.getValue() << "'";
  else if (leaf.name)
    os << "spec.param '" << leaf.name.getValue() << "'";
  else
    os << "constant " << leaf.value;
  return text;
}

void trace::emitMismatch(const TraceMismatch &mismatch, const Twine &what,
                         const Twine &other) {
  InFlightDiagnostic diag = emitError(mismatch.baseLocation)
                            << what << ": " << mismatch.reason;
  diag.attachNote(mismatch.otherLocation) << other;
}
