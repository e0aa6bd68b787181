//===- CreatedConstants.h - The dialect of constants the passes create ----===//
//
// Every constant a flyhoist pass creates (a materialized parameter, a value
// passed at a launch site, an encoding's mask) goes through here, so that
// one rule says when it is `llvm.mlir.constant` and when `arith.constant`.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_LIB_TRANSFORMS_CREATEDCONSTANTS_H
#define FLYHOIST_LIB_TRANSFORMS_CREATEDCONSTANTS_H

#include "mlir/IR/Builders.h"

namespace mlir::flyhoist {

/// Whether code created at `where` (an operation, or a function for code at
/// its start) for a value of `type` is LLVM dialect code: `type` is an LLVM
/// type (not `index`) and `where` is an LLVM op or sits in an `llvm.func`
/// (isLLVMCodeSite), so that a module written in the LLVM dialect stays so.
bool createsLLVMCode(Operation *where, Type type);

/// The half of createsLLVMCode that does not depend on the type: whether
/// `where` is an LLVM op or sits in an `llvm.func`.
bool isLLVMCodeSite(Operation *where);

/// createsLLVMCode at a site whose isLLVMCodeSite answer is
/// `llvmCodeSite` (asked once for many values).
bool createsLLVMCode(bool llvmCodeSite, Type type);

/// A constant `value` at `builder`'s insertion point, in the dialect
/// createsLLVMCode(`where`, its type) says.
Value createConstant(OpBuilder &builder, Location loc, Operation *where,
                     TypedAttr value);

} // namespace mlir::flyhoist

#endif // FLYHOIST_LIB_TRANSFORMS_CREATEDCONSTANTS_H
