//===- ArgumentEncoding.cpp - How a hoisted value travels -----------------===//
//
// The launcher passes the value itself: unchanged, or as i32 with
// narrow-range (exact for the values the preconditions admit). The facts the
// constant gave the backend are restated in the kernel from the recorded
// preconditions: a zero extension for the range, `llvm.intr.assume` for the
// divisibility. So the value the kernel uses is the launched value, bit for
// bit, and the kernel assumes exactly what the preconditions say. (bench/
// FACTS.md compares this with rebuilding v = (v / d) << log2(d).)
//
//===----------------------------------------------------------------------===//

#include "ArgumentEncoding.h"

#include "CreatedConstants.h"

#include "flyhoist/Dialect/Spec/SpecDialect.h"
#include "flyhoist/Transforms/HoistStrideSpecialization.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::flyhoist;

/// The largest power of two (as a shift) a divisibility fact may state for
/// a value of `type`: 2^(width - 1), the largest whose multiples are not
/// just 0 (i1: none), and at most 2^62 (kMaxDivisibility). `index` is capped at
/// 2^31 so that the fact means the same for every index width a target lowers
/// to (32 or 64 bits).
static unsigned maxDivisorShift(Type type) {
  if (type.isIndex())
    return 31;
  return std::min(type.getIntOrFloatBitWidth() - 1, 62u);
}

/// Whether `type` is wider than the 32-bit argument narrow-range passes.
static bool isWide(Type type) {
  return type.isIndex() || type.getIntOrFloatBitWidth() > 32;
}

Type ArgumentEncoding::argumentType(Type type) const {
  return narrow ? IntegerType::get(type.getContext(), 32) : type;
}

SmallVector<Attribute>
ArgumentEncoding::preconditions(MLIRContext *context) const {
  SmallVector<Attribute> facts;
  if (divisor > 1)
    facts.push_back(
        spec::DivisibleByAttr::get(context, static_cast<int64_t>(divisor)));
  if (narrow)
    facts.push_back(spec::RangeAttr::get(context, 0, (int64_t(1) << 31) - 1));
  return facts;
}

ArgumentEncoding mlir::flyhoist::chooseEncoding(int64_t value, Type type,
                                                const HoistOptions &options) {
  ArgumentEncoding encoding;
  if (options.divisibility <= 1 && !options.narrowRange)
    return encoding;
  // The bits of the constant the specialized kernel has (what `value` means
  // for the type, e.g. 128 : i8 is -128): the marked value must meet every
  // precondition recorded.
  unsigned width = type.isIndex() ? IndexType::kInternalStorageBitWidth
                                  : type.getIntOrFloatBitWidth();
  APInt bits(width, static_cast<uint64_t>(value), /*isSigned=*/true,
             /*implicitTrunc=*/true);
  if (options.divisibility > 1) {
    // The largest power of two <= the bound that divides the value (0 is
    // divisible by all of them).
    unsigned shift = std::min({llvm::Log2_64(options.divisibility),
                               bits.countr_zero(), maxDivisorShift(type)});
    encoding.divisor = uint64_t(1) << shift;
  }
  encoding.narrow = options.narrowRange && isWide(type) &&
                    bits.isNonNegative() && bits.ult(uint64_t(1) << 31);
  return encoding;
}

namespace {
/// Creates the ops of an encoding in the dialect of the function they go
/// into: LLVM dialect ops in an `llvm.func`, so that a module written
/// entirely in the LLVM dialect stays so, and arith ops elsewhere (and for
/// `index` values, which the LLVM dialect does not have).
class EncodingOpBuilder {
public:
  EncodingOpBuilder(OpBuilder &builder, Location loc, Operation *where,
                    Type type)
      : builder(builder), loc(loc), where(where),
        useLLVM(createsLLVMCode(where, type)) {}

  Value constant(Type type, const APInt &value) {
    return createConstant(builder, loc, where,
                          builder.getIntegerAttr(type, value));
  }

  /// States `(value & mask) == 0` with llvm.intr.assume.
  void assumeZeroBits(Value value, const APInt &mask) {
    Type type = value.getType();
    Value maskValue = constant(type, mask);
    Value zero = constant(type, APInt::getZero(mask.getBitWidth()));
    Value condition;
    if (useLLVM) {
      Value masked = LLVM::AndOp::create(builder, loc, value, maskValue);
      condition = LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::eq,
                                       masked, zero);
    } else {
      Value masked = arith::AndIOp::create(builder, loc, value, maskValue);
      condition = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                        masked, zero);
    }
    LLVM::AssumeOp::create(builder, loc, condition);
  }

  Value zeroExtend(Value value, Type type) {
    if (useLLVM)
      return LLVM::ZExtOp::create(builder, loc, type, value);
    if (type.isIndex())
      return arith::IndexCastUIOp::create(builder, loc, type, value);
    return arith::ExtUIOp::create(builder, loc, type, value);
  }

  Value truncate(Value value, Type type) {
    if (useLLVM)
      return LLVM::TruncOp::create(builder, loc, type, value);
    if (value.getType().isIndex())
      return arith::IndexCastUIOp::create(builder, loc, type, value);
    return arith::TruncIOp::create(builder, loc, type, value);
  }

private:
  OpBuilder &builder;
  Location loc;
  Operation *where;
  bool useLLVM;
};
} // namespace

Value mlir::flyhoist::decodeArgument(FunctionOpInterface function,
                                     Value argument, Type type,
                                     const ArgumentEncoding &encoding) {
  if (encoding.divisor <= 1 && !encoding.narrow)
    return argument;
  // The pass declares the LLVM dialect as a dependency; a caller of the C++
  // API outside a pass manager may not have loaded it.
  function->getContext()->getOrLoadDialect<LLVM::LLVMDialect>();
  OpBuilder builder =
      OpBuilder::atBlockBegin(&function.getFunctionBody().front());
  EncodingOpBuilder ops(builder, argument.getLoc(), function, type);
  Value value = argument;
  // 0 <= value < 2^31 travels as i32: the zero extension gives it back.
  if (encoding.narrow)
    value = ops.zeroExtend(value, type);
  // value % divisor == 0, in the terms the backend reads known bits from.
  if (encoding.divisor > 1) {
    unsigned width = type.isIndex() ? IndexType::kInternalStorageBitWidth
                                    : type.getIntOrFloatBitWidth();
    ops.assumeZeroBits(value, APInt(width, encoding.divisor - 1));
  }
  return value;
}

Value mlir::flyhoist::encodeAtSite(OpBuilder &builder, Location loc,
                                   Value value,
                                   const ArgumentEncoding &encoding) {
  if (!encoding.narrow)
    return value;
  Operation *site = builder.getInsertionBlock()->getParentOp();
  EncodingOpBuilder ops(builder, loc, site, value.getType());
  return ops.truncate(value, builder.getI32Type());
}
