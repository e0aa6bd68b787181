//===- SignatureEdits.cpp - New arguments of functions and calls ----------===//

#include "SignatureEdits.h"

#include "KernelDiscovery.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/CallInterfaces.h"

using namespace mlir;
using namespace mlir::flyhoist;

/// Appends arguments of `types` to `function`, all at once (one new
/// signature, one new argument-attribute array, however many there are), and
/// returns them. The generic FunctionOpInterface path cannot rebuild the type
/// of a void `llvm.func` (LLVMFunctionType::clone wants one result), so that
/// case is done here.
SmallVector<Value> mlir::flyhoist::appendArguments(FunctionOpInterface function,
                                                   ArrayRef<Type> types,
                                                   ArrayRef<Location> locs) {
  unsigned first = function.getNumArguments();
  MLIRContext *context = function->getContext();
  if (auto llvmFunc = dyn_cast<LLVM::LLVMFuncOp>(function.getOperation())) {
    LLVM::LLVMFunctionType oldType = llvmFunc.getFunctionType();
    SmallVector<Type> params(oldType.getParams());
    llvm::append_range(params, types);
    llvmFunc.setFunctionType(LLVM::LLVMFunctionType::get(
        oldType.getReturnType(), params, oldType.isVarArg()));
    if (ArrayAttr argAttrs = llvmFunc.getArgAttrsAttr()) {
      SmallVector<Attribute> extended(argAttrs.begin(), argAttrs.end());
      extended.append(types.size(), DictionaryAttr::get(context));
      llvmFunc.setArgAttrsAttr(ArrayAttr::get(context, extended));
    }
    llvmFunc.getBody().front().addArguments(types, locs);
  } else if (isa<func::FuncOp, gpu::GPUFuncOp>(function.getOperation()) &&
             !function.getArgAttrsAttr() && !function.isExternal() &&
             function.front().getNumArguments() == first) {
    Block &entry = function.front();
    // The usual case, a func.func or gpu.func without argument attributes
    // or workgroup/private attributions: the new arguments go at the end of
    // the entry block, and the type is rebuilt once. (The generic path
    // below inserts one block argument at a time, renumbering the rest,
    // and builds an empty attribute dictionary per argument.)
    SmallVector<Type> inputs(function.getArgumentTypes());
    llvm::append_range(inputs, types);
    function.setFunctionTypeAttr(TypeAttr::get(
        function.cloneTypeWith(inputs, function.getResultTypes())));
    entry.addArguments(types, locs);
  } else {
    // Cannot fail for func.func and gpu.func, whose types take any
    // signature.
    SmallVector<unsigned> indices(types.size(), first);
    SmallVector<DictionaryAttr> attrs(types.size(),
                                      DictionaryAttr::get(context));
    (void)function.insertArguments(indices, types, attrs, locs);
  }
  return llvm::to_vector_of<Value>(function.getArguments().drop_front(first));
}

/// Appends `values` to the arguments `launchSite` passes, with empty
/// dictionaries in its per-argument attributes when it has them (discovery
/// checked that they match the arguments). One operand-list update per
/// site, however many values.
void mlir::flyhoist::appendPassedArguments(Operation *launchSite,
                                           ValueRange values) {
  if (values.empty())
    return;
  passedArguments(launchSite).append(values);
  auto withAttrs = dyn_cast<ArgAndResultAttrsOpInterface>(launchSite);
  if (!withAttrs)
    return;
  if (ArrayAttr argAttrs = withAttrs.getArgAttrsAttr()) {
    SmallVector<Attribute> extended(argAttrs.begin(), argAttrs.end());
    extended.append(values.size(),
                    DictionaryAttr::get(launchSite->getContext()));
    withAttrs.setArgAttrsAttr(
        ArrayAttr::get(launchSite->getContext(), extended));
  }
}

/// Casts `carrier` (an integer) to `type` (index) right after it is defined,
/// at the start of `function` for an argument.
Value mlir::flyhoist::castCarrier(FunctionOpInterface function, Value carrier,
                                  Type type) {
  if (carrier.getType() == type)
    return carrier;
  OpBuilder builder(function->getContext());
  if (Operation *def = carrier.getDefiningOp())
    builder.setInsertionPointAfter(def);
  else
    builder.setInsertionPointToStart(&function.getFunctionBody().front());
  return arith::IndexCastOp::create(builder, carrier.getLoc(), type, carrier);
}
