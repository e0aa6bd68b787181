//===- EqualsContract.cpp - The `equals` contract of spec.param -----------===//
//
// A `spec.param` with `equals` promises that its value equals another value
// of the kernel (an argument, a part of a memref argument, another
// parameter). This file owns that contract: it evaluates what is known while
// compiling, rejects a promise known to be false (at the parameter and at
// launch sites), and words the promise for the record.
//
//===----------------------------------------------------------------------===//

#include "EqualsContract.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::flyhoist;
using spec::ParamOp;

//===----------------------------------------------------------------------===//
// What is known while compiling
//===----------------------------------------------------------------------===//

/// The width of an integer or index value (index as 64 bits).
static unsigned integerWidth(Type type) {
  return type.isIndex() ? IndexType::kInternalStorageBitWidth
                        : type.getIntOrFloatBitWidth();
}

/// A constant op's integer, without evaluating anything.
static std::optional<APInt> constantInteger(Operation *def) {
  if (auto param = dyn_cast<ParamOp>(def))
    return IntegerAttr::get(param.getType(), param.getIntValue()).getValue();
  // Asked of libMLIR (getConstantAPIntValue), never matched here: a trait
  // check (m_Constant) inlined into the plugin or the C API library tests a
  // TypeID that g++ and clang spell differently, so it would fail there and
  // not in fly-opt (see isolatedScope()). Index constants come back as
  // 64-bit APInts; other widths as typed.
  if (def->getNumResults() != 1 || !def->getResult(0).getType().isIntOrIndex())
    return std::nullopt;
  if (std::optional<std::pair<APInt, bool>> constant =
          getConstantAPIntValue(def->getResult(0)))
    return constant->first;
  return std::nullopt;
}

/// Whether `def` is an integer cast knownIntegerValue evaluates.
static bool isIntegerCast(Operation *def) {
  return isa<arith::IndexCastOp, arith::ExtSIOp, LLVM::SExtOp,
             arith::IndexCastUIOp, arith::ExtUIOp, LLVM::ZExtOp,
             arith::TruncIOp, LLVM::TruncOp>(def) &&
         def->getOperand(0).getType().isIntOrIndex() &&
         def->getResult(0).getType().isIntOrIndex();
}

/// knownIntegerValue(), where `given` (if set) is known to hold `givenValue`.
static std::optional<APInt> evaluate(Value value, Value given,
                                     const APInt *givenValue) {
  if (given && value == given)
    return *givenValue;
  Operation *def = value.getDefiningOp();
  if (!def || def->getNumResults() != 1 || !value.getType().isIntOrIndex())
    return std::nullopt;
  unsigned width = integerWidth(value.getType());
  // Casts: the source's known value, as the cast computes it.
  if (isIntegerCast(def)) {
    std::optional<APInt> known =
        evaluate(def->getOperand(0), given, givenValue);
    if (!known)
      return std::nullopt;
    if (isa<arith::IndexCastUIOp, arith::ExtUIOp, LLVM::ZExtOp>(def))
      return known->zextOrTrunc(width);
    return known->sextOrTrunc(width);
  }
  std::optional<APInt> known = constantInteger(def);
  if (known && known->getBitWidth() != width)
    return known->sextOrTrunc(width);
  return known;
}

std::optional<APInt> mlir::flyhoist::knownIntegerValue(Value value) {
  return evaluate(value, Value(), nullptr);
}

/// The value at the start of the integer casts that compute `value`.
static Value castChainSource(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (!isIntegerCast(def))
      break;
    value = def->getOperand(0);
  }
  return value;
}

Value mlir::flyhoist::equalsSubject(Value equals) {
  while (Operation *def = equals.getDefiningOp()) {
    if (!isa<arith::IndexCastOp, arith::ExtSIOp, LLVM::SExtOp>(def))
      break;
    Value source = def->getOperand(0);
    if (!source.getType().isIntOrIndex() || !equals.getType().isIntOrIndex() ||
        integerWidth(source.getType()) > integerWidth(equals.getType()))
      break; // a narrowing index_cast: the number may change
    equals = source;
  }
  return equals;
}

/// Whether `known` (of some width) is the bit pattern of `value`.
static bool sameBits(const APInt &known, int64_t value) {
  unsigned width = known.getBitWidth();
  return known == APInt(width, static_cast<uint64_t>(value), /*isSigned=*/true,
                        /*implicitTrunc=*/true);
}

LogicalResult mlir::flyhoist::checkEqualsOperand(ParamOp param) {
  Value equals = param.getEquals();
  if (!equals)
    return success();
  // (Evaluated through every cast: this is the value the uses would take.)
  std::optional<APInt> known = knownIntegerValue(equals);
  if (!known || sameBits(*known, param.getIntValue()))
    return success();
  InFlightDiagnostic diag = param.emitError()
                            << "parameter '" << param.getName()
                            << "' = " << param.getIntValue()
                            << " equals a value known to be "
                            << known->getSExtValue()
                            << "; its uses would take that value";
  diag.attachNote(equals.getDefiningOp()->getLoc()) << "value defined here";
  return failure();
}

//===----------------------------------------------------------------------===//
// The contract, checked at launch sites
//===----------------------------------------------------------------------===//

LogicalResult
mlir::flyhoist::checkEqualsAtLaunchSites(FunctionOpInterface function,
                                         ArrayRef<ParamOp> params,
                                         const SymbolUseMap &symbolUses) {
  auto uses = symbolUses.find(function);
  if (uses == symbolUses.end() || function.isExternal())
    return success();
  Block *entry = &function.getFunctionBody().front();
  for (ParamOp param : params) {
    Value equals = param.getEquals();
    if (!equals)
      continue;
    // The argument the `equals` value is computed from by integer casts
    // (the one the record names when the casts keep the number).
    auto argument = dyn_cast<BlockArgument>(castChainSource(equals));
    if (!argument || argument.getOwner() != entry ||
        argument.getArgNumber() >= function.getNumArguments())
      continue;
    unsigned index = argument.getArgNumber();
    for (const SymbolUse &use : uses->second) {
      if (!use.isLaunchSite)
        continue;
      OperandRange passed = passedArguments(use.user);
      if (index >= passed.size())
        continue; // reported as an arity mismatch where it matters
      std::optional<APInt> known = knownIntegerValue(passed[index]);
      if (!known)
        continue;
      // What the kernel's `equals` value is when the argument is `known`.
      std::optional<APInt> taken = evaluate(equals, argument, &*known);
      if (!taken || sameBits(*taken, param.getIntValue()))
        continue;
      InFlightDiagnostic diag =
          use.user->emitError()
          << "launch site passes " << known->getSExtValue() << " as argument "
          << index << " of " << symbolPath(function) << ", which parameter '"
          << param.getName() << "' = " << param.getIntValue() << " equals";
      diag.attachNote(param.getLoc()) << "parameter defined here";
      return failure();
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// The contract, as recorded
//===----------------------------------------------------------------------===//

/// The operand `contract` (a precondition "value == X") names, as text: X.
static std::string operandText(Attribute contract) {
  return spec::describeEqualsSubject(contract).value_or("?");
}

/// The `part` (number `index`) of `source`, as the launcher can check it
/// when `source` is a kernel argument.
static Attribute describePart(Attribute source, spec::ArgumentPart part,
                              std::optional<int64_t> index) {
  MLIRContext *context = source.getContext();
  auto argument = dyn_cast<spec::EqualsAttr>(source);
  if (argument && argument.getPart() == spec::ArgumentPart::Value)
    return spec::EqualsAttr::get(context, argument.getArgument(), part, index);
  std::string text = spec::stringifyArgumentPart(part).str();
  if (index)
    text += " " + std::to_string(*index);
  return spec::EqualsUnverifiableAttr::get(
      context, StringAttr::get(context, text + " of " + operandText(source)));
}

/// The contract "value == `value`", from what the launcher knows: the
/// function's arguments, the layout of memref arguments, constants and other
/// parameters (#spec.equals_unverifiable, described, for anything else).
/// Never a location: the record lives in the gpu.module, whose fingerprint
/// must not depend on where the frontend traced the kernel from.
static Attribute describeOperand(Value value, FunctionOpInterface function) {
  MLIRContext *context = function->getContext();
  auto unverifiable = [&](const Twine &text) -> Attribute {
    return spec::EqualsUnverifiableAttr::get(context,
                                             StringAttr::get(context, text));
  };
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    if (!function.isExternal() &&
        argument.getOwner() == &function.getFunctionBody().front() &&
        argument.getArgNumber() < function.getNumArguments())
      return spec::EqualsAttr::get(context, argument.getArgNumber(),
                                   spec::ArgumentPart::Value, std::nullopt);
    return unverifiable(
        "block argument " + Twine(argument.getArgNumber()) +
        " of a region of '" +
        argument.getOwner()->getParentOp()->getName().getStringRef() + "'");
  }
  // Sign-preserving widening casts keep the number, which is what the
  // contract is about: the subject the discovery checks also read.
  if (Value subject = equalsSubject(value); subject != value)
    return describeOperand(subject, function);
  Operation *def = value.getDefiningOp();
  unsigned result = cast<OpResult>(value).getResultNumber();
  if (auto param = dyn_cast<ParamOp>(def))
    return spec::EqualsParameterAttr::get(context, param.getNameAttr());
  if (std::optional<APInt> known = knownIntegerValue(value))
    return spec::EqualsConstantAttr::get(context, known->getSExtValue());
  if (auto metadata = dyn_cast<memref::ExtractStridedMetadataOp>(def)) {
    Attribute source = describeOperand(metadata.getSource(), function);
    unsigned rank = metadata.getSizes().size();
    if (result == 1)
      return describePart(source, spec::ArgumentPart::Offset, std::nullopt);
    if (result >= 2 && result < 2 + rank)
      return describePart(source, spec::ArgumentPart::Size, result - 2);
    if (result >= 2 + rank)
      return describePart(source, spec::ArgumentPart::Stride,
                          result - 2 - rank);
  }
  if (auto dim = dyn_cast<memref::DimOp>(def))
    if (std::optional<int64_t> index = dim.getConstantIndex())
      return describePart(describeOperand(dim.getSource(), function),
                          spec::ArgumentPart::Size, index);
  return unverifiable("result " + Twine(result) + " of '" +
                      def->getName().getStringRef() + "'");
}

SmallVector<Attribute>
mlir::flyhoist::equalsContracts(ArrayRef<ParamOp> params,
                                FunctionOpInterface function) {
  SmallVector<Attribute> contracts;
  for (ParamOp op : params) {
    Value equals = op.getEquals();
    if (!equals)
      continue;
    Attribute contract = describeOperand(equals, function);
    if (!llvm::is_contained(contracts, contract))
      contracts.push_back(contract);
  }
  return contracts;
}
