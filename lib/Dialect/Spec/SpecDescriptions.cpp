//===- SpecDescriptions.cpp - The spec dialect's words for people ---------===//
//
// The text of reasons, preconditions and locations, for remarks and people
// only: the record and the manifest carry reasons and preconditions typed
// (SpecDialect.cpp verifies them).
//
//===----------------------------------------------------------------------===//

#include "flyhoist/Dialect/Spec/SpecDialect.h"

#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::flyhoist::spec;

std::string mlir::flyhoist::spec::describeKeepReason(const KeepReasonInfo &why,
                                                     StringRef functionKind) {
  StringRef op = why.op ? why.op.getValue() : StringRef("?");
  StringRef callee = why.callee ? why.callee.getValue() : StringRef("?");
  switch (why.reason) {
  case KeepReason::LoopBound:
    return "loop bound or step";
  case KeepReason::Comparison:
    return "comparison";
  case KeepReason::Clamp:
    return "select/min/max (a clamp)";
  case KeepReason::BranchCondition:
    return "branch condition";
  case KeepReason::Division:
    return "divisor or remainder (runtime division is slow)";
  case KeepReason::ShiftAmount:
    return "shift amount";
  case KeepReason::Allocation:
    return "allocation or shape size";
  case KeepReason::StoredData:
    return "the value stored as data";
  case KeepReason::CallOperand:
    return "call operand";
  case KeepReason::ReturnOperand:
    return "return operand";
  case KeepReason::LaunchDimensions:
    return "launch dimensions";
  case KeepReason::MaskOrPadding:
    return "mask, padding or cache-policy operand of a memory access";
  case KeepReason::SizeReadBack:
    return "a view size or buffer bound that an access reads back";
  case KeepReason::UnknownOperation:
    return ("used by '" + op +
            "', which the analysis does not know as address arithmetic")
        .str();
  case KeepReason::UnknownOperand:
    return ("used by '" + op + "' as operand " +
            Twine(why.operand.value_or(0)) + ", which no rule classifies")
        .str();
  case KeepReason::MustBeImmediate:
    return "must be a compile-time immediate";
  case KeepReason::VectorPosition:
    return "position into a vector (a runtime one indexes registers)";
  case KeepReason::ImmediateOffset:
    return "folds into an instruction's immediate offset";
  case KeepReason::MixedTypes:
    return ("used with more than one type in this " + functionKind).str();
  case KeepReason::IsolatedScope:
    return ("used inside '" + op +
            "', whose region is isolated from above: no argument can reach it")
        .str();
  case KeepReason::Variadic:
    return ("the " + functionKind +
            " is variadic: its calls pass variadic arguments where a new "
            "argument would go")
        .str();
  case KeepReason::UnknownReference:
    return ("the " + functionKind + " is referenced by '" + op +
            "', which the pass cannot give a new argument")
        .str();
  case KeepReason::PassedTypeMismatch: {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "used as " << why.type << " here but passed as " << why.passedType
       << " to " << callee;
    return text;
  }
  case KeepReason::PassedFromIsolatedScope:
    return ("passed to " + callee + " from inside '" + op +
            "', whose region is isolated from above: no argument can reach it")
        .str();
  }
  llvm_unreachable("unknown KeepReason");
}

ValueBounds mlir::flyhoist::spec::getValueBounds(Type type) {
  unsigned width = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
  if (width == 0)
    return {0, 0};
  return {llvm::minIntN(width), llvm::maxUIntN(width)};
}

std::optional<PreconditionKind>
mlir::flyhoist::spec::getPreconditionKind(Attribute precondition) {
  return llvm::TypeSwitch<Attribute, std::optional<PreconditionKind>>(
             precondition)
      .Case([](DivisibleByAttr) { return PreconditionKind::DivisibleBy; })
      .Case([](RangeAttr) { return PreconditionKind::Range; })
      .Case([](EqualsAttr) { return PreconditionKind::Equals; })
      .Case(
          [](EqualsParameterAttr) { return PreconditionKind::EqualsParameter; })
      .Case([](EqualsConstantAttr) { return PreconditionKind::EqualsConstant; })
      .Case([](EqualsUnverifiableAttr) {
        return PreconditionKind::EqualsUnverifiable;
      })
      .Default([](Attribute) { return std::nullopt; });
}

std::optional<std::string>
mlir::flyhoist::spec::describeEqualsSubject(Attribute precondition) {
  return llvm::TypeSwitch<Attribute, std::optional<std::string>>(precondition)
      .Case([](EqualsAttr fact) -> std::string {
        std::string of = "argument " + std::to_string(fact.getArgument());
        switch (fact.getPart()) {
        case ArgumentPart::Value:
          return of;
        case ArgumentPart::Offset:
          return "offset of " + of;
        case ArgumentPart::Size:
        case ArgumentPart::Stride:
          return (stringifyArgumentPart(fact.getPart()) + " " +
                  Twine(fact.getIndex().value_or(0)) + " of " + of)
              .str();
        }
        llvm_unreachable("unknown ArgumentPart");
      })
      .Case([](EqualsParameterAttr fact) -> std::string {
        return ("parameter '" + fact.getName().getValue() + "'").str();
      })
      .Case([](EqualsConstantAttr fact) -> std::string {
        return std::to_string(fact.getValue());
      })
      .Case([](EqualsUnverifiableAttr fact) -> std::string {
        return fact.getDescription().getValue().str();
      })
      .Default([](Attribute) { return std::nullopt; });
}

std::string mlir::flyhoist::spec::describePrecondition(Attribute precondition) {
  return llvm::TypeSwitch<Attribute, std::string>(precondition)
      .Case([](DivisibleByAttr fact) {
        return "value % " + std::to_string(fact.getDivisor()) + " == 0";
      })
      .Case([](RangeAttr fact) {
        return std::to_string(fact.getMin()) +
               " <= value <= " + std::to_string(fact.getMax());
      })
      .Default([](Attribute fact) {
        std::optional<std::string> subject = describeEqualsSubject(fact);
        return subject ? "value == " + *subject : std::string("?");
      });
}

std::string mlir::flyhoist::spec::describeLocation(Location location) {
  if (auto fileLoc = dyn_cast<FileLineColLoc>(location))
    return (fileLoc.getFilename().getValue() + ":" + Twine(fileLoc.getLine()) +
            ":" + Twine(fileLoc.getColumn()))
        .str();
  if (auto nameLoc = dyn_cast<NameLoc>(location))
    return describeLocation(nameLoc.getChildLoc());
  if (auto callLoc = dyn_cast<CallSiteLoc>(location))
    return describeLocation(callLoc.getCallee());
  if (auto fusedLoc = dyn_cast<FusedLoc>(location))
    for (Location inner : fusedLoc.getLocations())
      if (std::string text = describeLocation(inner); text != "unknown")
        return text;
  return "unknown";
}
