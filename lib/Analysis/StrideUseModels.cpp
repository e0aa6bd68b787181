//===- StrideUseModels.cpp - The analysis' rules for upstream ops ---------===//
//
// StrideUseOpInterface external models for the upstream operations kernels
// are written with. The rules follow docs/DESIGN.md: address arithmetic
// passes a parameter on, address operands of memory accesses absorb it, and
// every other use keeps the kernel specialized with a named reason.
// every other use keeps the kernel specialized with a named reason. The
// models of each dialect family live in their own file; ModelSupport.h has
// what they share.
//
//===----------------------------------------------------------------------===//

#include "ModelSupport.h"
#include "flyhoist/Dialect/Spec/SpecDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::flyhoist;
using namespace mlir::flyhoist::models;

/// Whether a value of `type` can hold a pointer, and with it a buffer
/// resource's bound.
bool mlir::flyhoist::models::canHoldPointer(Type type) {
  if (isa<LLVM::LLVMPointerType>(type))
    return true;
  if (auto vector = dyn_cast<VectorType>(type))
    return canHoldPointer(vector.getElementType());
  if (auto array = dyn_cast<LLVM::LLVMArrayType>(type))
    return canHoldPointer(array.getElementType());
  if (auto structType = dyn_cast<LLVM::LLVMStructType>(type))
    return llvm::any_of(structType.getBody(), canHoldPointer);
  return false;
}

UseVerdict mlir::flyhoist::models::address(OpOperand &use, unsigned facet,
                                           bool readsSizes) {
  Type type = use.get().getType();
  if (isa<BaseMemRefType>(type)) {
    if (facet == kViewSizesFacet)
      return readsSizes ? UseVerdict::blocking(BlockReason::SizeReadBack)
                        : UseVerdict::notRead();
    return UseVerdict::sink();
  }
  if (facet == kBufferBoundFacet && canHoldPointer(type))
    return UseVerdict::blocking(BlockReason::SizeReadBack);
  return UseVerdict::sink();
}

void mlir::flyhoist::registerStrideUseExternalModels(
    DialectRegistry &registry) {
  registerArithModels(registry);
  registerMemRefVectorModels(registry);
  registerGPUModels(registry);
  registerLLVMModels(registry);
  registry.addExtension(+[](MLIRContext *context, spec::SpecDialect *) {
    // `spec.param "a" = 3 equals %v`: a hoisted `a`'s uses take %v, so %v
    // reaches whatever `a` reaches (also when %v is another parameter).
    attach<PassThrough, spec::ParamOp>(context);
  });
  registry.addExtension(+[](MLIRContext *context, func::FuncDialect *) {
    attach<Blocking<BlockReason::CallOperand>, func::CallOp,
           func::CallIndirectOp>(context);
  });
}
