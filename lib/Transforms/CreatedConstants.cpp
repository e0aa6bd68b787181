//===- CreatedConstants.cpp - The dialect of constants the passes create --===//

#include "CreatedConstants.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::flyhoist;

bool mlir::flyhoist::createsLLVMCode(Operation *where, Type type) {
  return LLVM::isCompatibleType(type) && isLLVMCodeSite(where);
}

bool mlir::flyhoist::createsLLVMCode(bool llvmCodeSite, Type type) {
  return llvmCodeSite && LLVM::isCompatibleType(type);
}

bool mlir::flyhoist::isLLVMCodeSite(Operation *where) {
  if (isa_and_nonnull<LLVM::LLVMDialect>(where->getDialect()))
    return true;
  Operation *function = isa<FunctionOpInterface>(where)
                            ? where
                            : where->getParentOfType<FunctionOpInterface>();
  return isa_and_nonnull<LLVM::LLVMFuncOp>(function);
}

Value mlir::flyhoist::createConstant(OpBuilder &builder, Location loc,
                                     Operation *where, TypedAttr value) {
  if (createsLLVMCode(where, value.getType()))
    return LLVM::ConstantOp::create(builder, loc, value.getType(), value);
  return arith::ConstantOp::create(builder, loc, value);
}
