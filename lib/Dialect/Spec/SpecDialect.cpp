//===- SpecDialect.cpp - The spec dialect and spec.param ------------------===//

#include "flyhoist/Dialect/Spec/SpecDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::flyhoist::spec;

#include "flyhoist/Dialect/Spec/SpecOpsDialect.cpp.inc"

#include "flyhoist/Dialect/Spec/SpecOpsEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "flyhoist/Dialect/Spec/SpecOpsAttributes.cpp.inc"

void SpecDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "flyhoist/Dialect/Spec/SpecOpsAttributes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "flyhoist/Dialect/Spec/SpecOps.cpp.inc"
      >();
}

/// Checks the record against the function it is on, so a hand-edited or
/// stale record is caught where it is, not by a frontend. Argument numbers
/// name the signature the pass produced; lowering may expand arguments (a
/// memref becomes a descriptor) and change their types, never drop them, so
/// only the bound is checked.
static LogicalResult verifyRecord(Operation *op, HoistRecordAttr record) {
  auto function = dyn_cast<FunctionOpInterface>(op);
  if (!function)
    return op->emitError() << "'" << kRecordAttrName
                           << "' belongs on a function";
  size_t arguments = function.getNumArguments();
  for (HoistedParamAttr param : record.getHoistedParams()) {
    std::optional<int64_t> index = param.getArgument();
    if (index && static_cast<uint64_t>(*index) >= arguments)
      return op->emitError()
             << "'" << kRecordAttrName << "' puts '"
             << param.getName().getValue() << "' at argument " << *index
             << " of a function with " << arguments << " arguments";
  }
  return success();
}

LogicalResult SpecDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  if (attr.getName() == kKernelAttrName) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError()
             << "'" << kKernelAttrName << "' must be a unit attribute";
    return success();
  }
  if (attr.getName() == kRecordAttrName) {
    auto record = dyn_cast<HoistRecordAttr>(attr.getValue());
    if (!record)
      return op->emitError()
             << "'" << kRecordAttrName << "' must be a #spec.record";
    return verifyRecord(op, record);
  }
  return op->emitError() << "unknown spec dialect attribute '"
                         << attr.getName().getValue() << "'";
}

//===----------------------------------------------------------------------===//
// The hoist record
//===----------------------------------------------------------------------===//

LogicalResult HoistedParamAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, StringAttr name, Type type,
    std::optional<int64_t> argument, Type zeroExtendedTo,
    ArrayAttr preconditions, std::optional<int64_t> hostArgument,
    std::optional<int64_t> immediateOffsets) {
  if (!name || name.getValue().empty())
    return emitError() << "a hoisted parameter needs a name";
  if (preconditions && !llvm::all_of(preconditions, [](Attribute fact) {
        return getPreconditionKind(fact).has_value();
      }))
    return emitError() << "preconditions of '" << name.getValue()
                       << "' must be #spec.divisible_by, #spec.range, "
                          "#spec.equals, #spec.equals_parameter, "
                          "#spec.equals_constant or #spec.equals_unverifiable";
  if (preconditions && llvm::count_if(preconditions, [](Attribute fact) {
                         return isa<DivisibleByAttr>(fact);
                       }) > 1)
    return emitError() << "'" << name.getValue() << "' has more than one "
                       << "#spec.divisible_by precondition";
  if ((argument && *argument < 0) || (hostArgument && *hostArgument < 0))
    return emitError() << "argument numbers of '" << name.getValue()
                       << "' must be non-negative";
  // The field is there only for a parameter that would have folded into
  // some access's immediate offset: a count of none is a hand edit.
  if (immediateOffsets && *immediateOffsets < 1)
    return emitError() << "immediate_offsets of '" << name.getValue()
                       << "' must be at least 1";
  return success();
}

LogicalResult
DivisibleByAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        int64_t divisor) {
  if (divisor < 2 || !llvm::isPowerOf2_64(divisor))
    return emitError() << "divisor " << divisor
                       << " is not a power of two above 1";
  return success();
}

LogicalResult RangeAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                int64_t min, int64_t max) {
  if (min > max)
    return emitError() << "empty range: min " << min << " > max " << max;
  return success();
}

LogicalResult EqualsAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 int64_t argument, ArgumentPart part,
                                 std::optional<int64_t> index) {
  if (argument < 0 || (index && *index < 0))
    return emitError() << "argument and index numbers must be non-negative";
  bool indexed = part == ArgumentPart::Size || part == ArgumentPart::Stride;
  if (indexed != index.has_value())
    return emitError() << "'" << stringifyArgumentPart(part) << "' "
                       << (indexed ? "needs" : "takes no") << " index";
  return success();
}

/// The details the wording of each reason names.
static bool needsOp(KeepReason reason) {
  switch (reason) {
  case KeepReason::UnknownOperation:
  case KeepReason::UnknownOperand:
  case KeepReason::IsolatedScope:
  case KeepReason::UnknownReference:
  case KeepReason::PassedFromIsolatedScope:
    return true;
  default:
    return false;
  }
}

LogicalResult
KeptParamAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      StringAttr name, int64_t value, KeepReason reason,
                      StringAttr op, std::optional<int64_t> operand,
                      StringAttr callee, Type type, Type passedType) {
  if (!name || name.getValue().empty())
    return emitError() << "a kept parameter needs a name";
  StringRef word = stringifyKeepReason(reason);
  if (needsOp(reason) && !op)
    return emitError() << "reason '" << word << "' needs 'op'";
  if (reason == KeepReason::UnknownOperand && !operand)
    return emitError() << "reason '" << word << "' needs 'operand'";
  if ((reason == KeepReason::PassedTypeMismatch ||
       reason == KeepReason::PassedFromIsolatedScope) &&
      !callee)
    return emitError() << "reason '" << word << "' needs 'callee'";
  if (reason == KeepReason::PassedTypeMismatch && (!type || !passedType))
    return emitError() << "reason '" << word
                       << "' needs 'type' and 'passed_type'";
  return success();
}

LogicalResult
HoistRecordAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        bool device, ArrayAttr hoisted, ArrayAttr kept,
                        ArrayAttr keptLocations, ArrayAttr launchSites) {
  if (!llvm::all_of(hoisted, llvm::IsaPred<HoistedParamAttr>))
    return emitError() << "'hoisted' must list #spec.hoisted entries";
  if (!llvm::all_of(kept, llvm::IsaPred<KeptParamAttr>))
    return emitError() << "'kept' must list #spec.kept entries";
  if (!llvm::all_of(keptLocations, llvm::IsaPred<LocationAttr>))
    return emitError() << "'kept_locations' must list locations";
  if (keptLocations.size() != kept.size())
    return emitError() << "'kept_locations' has " << keptLocations.size()
                       << " entries for " << kept.size() << " kept parameters";
  if (!llvm::all_of(launchSites, llvm::IsaPred<LocationAttr>))
    return emitError() << "'launch_sites' must list locations";
  return success();
}

SmallVector<HoistRecordAttr::KeptEntry>
HoistRecordAttr::getKeptEntries() const {
  SmallVector<KeptEntry> entries;
  for (auto [param, location] :
       llvm::zip_equal(getKeptParams(), getKeptLocations()))
    entries.push_back({param, cast<LocationAttr>(location)});
  return entries;
}

HoistRecordAttr HoistRecordAttr::withoutLocations() const {
  MLIRContext *context = getContext();
  auto unknown = UnknownLoc::get(context);
  auto allUnknown = [&](ArrayAttr locations) {
    return ArrayAttr::get(context,
                          SmallVector<Attribute>(locations.size(), unknown));
  };
  return HoistRecordAttr::get(context, getDevice(), getHoisted(), getKept(),
                              allUnknown(getKeptLocations()),
                              allUnknown(getLaunchSites()));
}

HoistRecordAttr mlir::flyhoist::spec::getHoistRecord(Operation *op) {
  return op->getAttrOfType<HoistRecordAttr>(kRecordAttrName);
}

SmallVector<std::pair<Operation *, HoistRecordAttr>>
mlir::flyhoist::spec::collectHoistRecords(Operation *root) {
  SmallVector<std::pair<Operation *, HoistRecordAttr>> records;
  // Only functions carry records; do not ask every op for its attributes.
  root->walk([&](FunctionOpInterface function) {
    if (HoistRecordAttr record = getHoistRecord(function))
      records.push_back({function, record});
  });
  return records;
}

//===----------------------------------------------------------------------===//
// ParamValueTable
//===----------------------------------------------------------------------===//

LogicalResult ParamValueTable::check(ParamOp param) {
  int64_t value = param.getIntValue();
  auto [it, inserted] =
      firstByName.try_emplace(param.getNameAttr(), value, param);
  auto [firstValue, first] = it->second;
  if (inserted || firstValue == value)
    return success();
  InFlightDiagnostic diag =
      param.emitError() << "parameter '" << param.getName() << "' has value "
                        << value << " here but " << firstValue
                        << " elsewhere; one name has one value";
  diag.attachNote(first.getLoc()) << "first defined here";
  return failure();
}

//===----------------------------------------------------------------------===//
// ParamOp
//===----------------------------------------------------------------------===//

void ParamOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                    int64_t value, Type type, Value equals) {
  build(builder, state, type, builder.getStringAttr(name),
        builder.getI64IntegerAttr(value), equals);
}

TypedAttr ParamOp::getValueAsTypedAttr() {
  return IntegerAttr::get(getType(), getIntValue());
}

// Syntax: `"name" = <int> (equals %v)? attr-dict : type`. The `equals`
// operand is resolved with the result type, since they must match.
ParseResult ParamOp::parse(OpAsmParser &parser, OperationState &result) {
  StringAttr name;
  int64_t value = 0;
  OpAsmParser::UnresolvedOperand equals;
  bool hasEquals = false;
  Type type;
  if (parser.parseAttribute(name, "name", result.attributes) ||
      parser.parseEqual() || parser.parseInteger(value))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("equals"))) {
    hasEquals = true;
    if (parser.parseOperand(equals))
      return failure();
  }
  if (parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(type))
    return failure();
  result.addAttribute("value", parser.getBuilder().getI64IntegerAttr(value));
  result.addTypes(type);
  if (hasEquals && parser.resolveOperand(equals, type, result.operands))
    return failure();
  return success();
}

void ParamOp::print(OpAsmPrinter &printer) {
  printer << ' ';
  printer.printAttribute(getNameAttr());
  printer << " = " << getIntValue();
  if (Value equals = getEquals())
    printer << " equals " << equals;
  printer.printOptionalAttrDict((*this)->getAttrs(), {"name", "value"});
  printer << " : " << getType();
}

/// Whether `value` is representable in `type`, read either as a signed or an
/// unsigned integer of that width (frontends bake in both kinds).
static bool fitsType(int64_t value, Type type) {
  ValueBounds bounds = getValueBounds(type);
  return value >= bounds.min &&
         (value < 0 || static_cast<uint64_t>(value) <= bounds.max);
}

LogicalResult ParamOp::verify() {
  if (getName().empty())
    return emitOpError("needs a non-empty parameter name");
  if (!fitsType(getIntValue(), getType()))
    return emitOpError() << "value " << getIntValue() << " of parameter '"
                         << getName() << "' does not fit " << getType();
  if (Value equals = getEquals(); equals && equals.getType() != getType())
    return emitOpError() << "'equals' operand has type " << equals.getType()
                         << " but the parameter has type " << getType();
  return success();
}

#define GET_OP_CLASSES
#include "flyhoist/Dialect/Spec/SpecOps.cpp.inc"
