//===- SpecDialect.cpp - The spec dialect and spec.param ------------------===//

#include "flyhoist/Dialect/Spec/SpecDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::flyhoist::spec;

#include "flyhoist/Dialect/Spec/SpecOpsDialect.cpp.inc"

void SpecDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "flyhoist/Dialect/Spec/SpecOps.cpp.inc"
      >();
}

/// Checks the shape of the records the hoisting pass leaves on kernels, so a
/// hand-edited or stale record is caught where it is, not by a frontend.
LogicalResult SpecDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  if (attr.getName() == kKernelAttrName) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError() << "'" << kKernelAttrName
                             << "' must be a unit attribute";
    return success();
  }
  if (attr.getName() == kLaunchSitesAttrName) {
    auto count = dyn_cast<IntegerAttr>(attr.getValue());
    if (!count || count.getInt() < 0)
      return op->emitError() << "'" << kLaunchSitesAttrName
                             << "' must be a non-negative integer";
    return success();
  }
  if (attr.getName() == kHoistedAttrName) {
    auto entries = dyn_cast<ArrayAttr>(attr.getValue());
    if (!entries)
      return op->emitError() << "'" << kHoistedAttrName
                             << "' must be an array of dictionaries";
    for (Attribute entry : entries) {
      auto dict = dyn_cast<DictionaryAttr>(entry);
      if (!dict || !dict.getAs<StringAttr>("name") ||
          !dict.getAs<TypeAttr>("type") ||
          (!dict.getAs<IntegerAttr>("argument") && !dict.get("equals")))
        return op->emitError()
               << "each '" << kHoistedAttrName
               << "' entry needs 'name', 'type' and 'argument' or 'equals'";
    }
    return success();
  }
  return op->emitError() << "unknown spec dialect attribute '"
                         << attr.getName().getValue() << "'";
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
  if (type.isIndex())
    return true;
  unsigned width = type.getIntOrFloatBitWidth();
  if (width >= 64)
    return true;
  // Computed in unsigned arithmetic: (1 << 63) - 1 overflows int64_t for i63.
  if (value < 0)
    return value >= -(int64_t(1) << (width - 1));
  return static_cast<uint64_t>(value) <= (uint64_t(1) << width) - 1;
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
