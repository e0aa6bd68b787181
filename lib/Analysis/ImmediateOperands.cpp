//===- ImmediateOperands.cpp - Operands that must stay constants ----------===//
//
// An operation of the LLVM, ROCDL or NVVM dialect that lowers to one LLVM
// intrinsic call passes its operands as the call's arguments, in order. The
// intrinsic's declaration (LLVM's tables) says which parameters are `immarg`.
// The one-to-one correspondence is checked, not assumed: the operation's
// operand and result types must match the intrinsic's signature.
//
//===----------------------------------------------------------------------===//

#include "flyhoist/Analysis/ImmediateOperands.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Target/LLVMIR/TypeToLLVM.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/LLVMContext.h"

#include <mutex>

using namespace mlir;
using namespace mlir::flyhoist;

std::string mlir::flyhoist::conventionalIntrinsicName(Operation *op) {
  StringRef name = op->getName().getStringRef();
  std::string intrinsic;
  if (name.consume_front("llvm.intr."))
    intrinsic = "llvm.";
  else if (name.consume_front("rocdl."))
    intrinsic = "llvm.amdgcn.";
  else if (name.consume_front("nvvm."))
    intrinsic = "llvm.nvvm.";
  else
    return "";
  for (char c : name)
    intrinsic.push_back(c == '_' ? '.' : c);
  return intrinsic;
}

namespace {
/// The `immarg` parameters of each intrinsic, read once per process. LLVM's
/// attribute tables need an LLVMContext, which is not thread-safe: one
/// context serves every lookup, under a lock.
class ImmArgTable {
public:
  /// Whether parameter `position` of the intrinsic `op` becomes is `immarg`,
  /// when `op`'s types match the intrinsic's signature.
  bool isImmArg(Operation *op, unsigned position) {
    std::string name = conventionalIntrinsicName(op);
    if (name.empty())
      return false;
    llvm::Intrinsic::ID id = llvm::Intrinsic::lookupIntrinsicID(name);
    if (id == llvm::Intrinsic::not_intrinsic)
      return false;
    std::lock_guard<std::mutex> lock(mutex);
    llvm::FunctionType *signature = matchingSignature(op, id);
    if (!signature || position >= signature->getNumParams())
      return false;
    llvm::AttributeList attributes =
        llvm::Intrinsic::getAttributes(context, id, signature);
    return attributes.hasParamAttr(position, llvm::Attribute::ImmArg);
  }

private:
  /// The LLVM function type of `op`'s operands and results, if it is a
  /// signature of intrinsic `id` (so operand i is parameter i).
  llvm::FunctionType *matchingSignature(Operation *op, llvm::Intrinsic::ID id) {
    // A translator per question: it caches by MLIR type, and the types of a
    // context destroyed since may share addresses with today's.
    LLVM::TypeToLLVMIRTranslator translator(context);
    auto translate = [&](Type type) -> llvm::Type * {
      if (!LLVM::isCompatibleType(type))
        return nullptr;
      return translator.translateType(type);
    };
    SmallVector<llvm::Type *> params;
    for (Type type : op->getOperandTypes()) {
      llvm::Type *translated = translate(type);
      if (!translated)
        return nullptr;
      params.push_back(translated);
    }
    llvm::Type *result = llvm::Type::getVoidTy(context);
    if (op->getNumResults() == 1) {
      result = translate(op->getResult(0).getType());
    } else if (op->getNumResults() > 1) {
      SmallVector<llvm::Type *> fields;
      for (Type type : op->getResultTypes())
        fields.push_back(translate(type));
      if (llvm::is_contained(fields, nullptr))
        return nullptr;
      result = llvm::StructType::get(context, fields);
    }
    if (!result)
      return nullptr;
    auto *signature = llvm::FunctionType::get(result, params, false);
    SmallVector<llvm::Intrinsic::IITDescriptor> table;
    llvm::Intrinsic::getIntrinsicInfoTableEntries(id, table);
    ArrayRef<llvm::Intrinsic::IITDescriptor> rest = table;
    SmallVector<llvm::Type *> overloads;
    if (llvm::Intrinsic::matchIntrinsicSignature(signature, rest, overloads) !=
            llvm::Intrinsic::MatchIntrinsicTypes_Match ||
        llvm::Intrinsic::matchIntrinsicVarArg(false, rest))
      return nullptr;
    return signature;
  }

  std::mutex mutex;
  llvm::LLVMContext context;
};
} // namespace

bool mlir::flyhoist::isImmediateOperand(OpOperand &use) {
  // Never destroyed: it may be asked until the process ends, after static
  // destructors have started.
  static ImmArgTable *table = new ImmArgTable();
  return table->isImmArg(use.getOwner(), use.getOperandNumber());
}
