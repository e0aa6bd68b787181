//===- TraceAlignment.cpp - Aligning two traces op by op ------------------===//

#include "TraceAlignment.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

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
  return static_cast<bool>(constantValue(op));
}

std::optional<Leaf> trace::leafOf(Value value) {
  Operation *def = value.getDefiningOp();
  if (!def || !isTraceLeaf(def))
    return std::nullopt;
  if (auto param = dyn_cast<ParamOp>(def))
    return Leaf{def, param.getIntValue(), param.getNameAttr()};
  return Leaf{def, constantValue(def).getValue().getSExtValue(), StringAttr()};
}

std::string trace::describe(const Leaf &leaf) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (leaf.name)
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
