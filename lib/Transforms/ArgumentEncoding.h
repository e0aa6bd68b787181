//===- ArgumentEncoding.h - How a hoisted value travels ---------*- C++ -*-===//
//
// With the `divisibility` and `narrow-range` options, a hoisted value keeps
// facts its constant told the backend. The encoding says what the launcher
// must guarantee (the preconditions recorded in `#spec.hoisted` and the
// manifest), what it passes (the value itself, as i32 when narrowed) and how
// the kernel states the facts (a zero extension, `llvm.intr.assume`).
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_LIB_TRANSFORMS_ARGUMENTENCODING_H
#define FLYHOIST_LIB_TRANSFORMS_ARGUMENTENCODING_H

#include "flyhoist/Transforms/HoistOptions.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::flyhoist {

/// How a hoisted value is passed: the value itself, narrowed to i32 when
/// `narrow`. The kernel uses exactly the launched value and assumes what
/// preconditions() says, for `value` read as a signed integer of its type.
struct ArgumentEncoding {
  /// Power of two the kernel assumes divides the value (1: none), at most
  /// 2^(width - 1) (2^31 for index).
  uint64_t divisor = 1;
  /// Passed as i32 and zero-extended: the value is in [0, 2^31).
  bool narrow = false;

  /// The kernel argument's type for a parameter of `type`.
  Type argumentType(Type type) const;
  /// What the launcher must guarantee about the value, as the record's
  /// precondition attributes (#spec.divisible_by, #spec.range); empty for
  /// none.
  SmallVector<Attribute> preconditions(MLIRContext *context) const;
};

/// The encoding `options` allow for a parameter of `type` marked `value`;
/// `value` itself always meets its preconditions.
ArgumentEncoding chooseEncoding(int64_t value, Type type,
                                const HoistOptions &options);

/// The parameter's value (of `type`) from its kernel `argument`, with the
/// encoding's facts stated at the start of `function`'s entry block (LLVM
/// dialect ops in an `llvm.func`).
Value decodeArgument(FunctionOpInterface function, Value argument, Type type,
                     const ArgumentEncoding &encoding);

/// Encodes `value` (of the parameter's type) for a launch site, with ops
/// created at `builder`'s insertion point (LLVM dialect ops inside an
/// `llvm.func`).
Value encodeAtSite(OpBuilder &builder, Location loc, Value value,
                   const ArgumentEncoding &encoding);

} // namespace mlir::flyhoist

#endif // FLYHOIST_LIB_TRANSFORMS_ARGUMENTENCODING_H
