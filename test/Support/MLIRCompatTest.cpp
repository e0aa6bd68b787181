//===- MLIRCompatTest.cpp - Both forms of each MLIRCompat.h helper --------===//
//
// flyhoist is built against MLIR 22 only, so the other branch of each helper
// in include/flyhoist/Support/MLIRCompat.h (the form MLIR main has) would
// never be compiled. This program compiles and runs both: each helper is
// instantiated with stand-in types shaped like the two APIs (the member
// names and signatures the porting notes give), and its answer is printed
// for compat.test to check.
//
//===----------------------------------------------------------------------===//

#include "flyhoist/Support/MLIRCompat.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::flyhoist;

namespace {
/// MLIR 22: the successor carries its inputs.
struct SuccessorWithInputs {
  ValueRange inputs;
  ValueRange getSuccessorInputs() const { return inputs; }
};
struct BranchWithoutInputs {};

/// MLIR main (llvm/llvm-project#175815): the op answers for a successor.
struct SuccessorOnly {};
struct BranchWithInputs {
  ValueRange inputs;
  ValueRange getSuccessorInputs(const SuccessorOnly &) { return inputs; }
};

/// MLIR 22: `aux` is an operand of the buffer ops.
struct BufferOpWithAuxOperand {
  OpOperand *aux;
  OpOperand &getAuxMutable() { return *aux; }
};
/// MLIR main: `aux` is an attribute (no getAuxMutable()).
struct BufferOpWithAuxAttribute {};

// The member detection picks each form from the type alone.
static_assert(!compat::detail::HasOpSuccessorInputs<
              BranchWithoutInputs, SuccessorWithInputs>::value);
static_assert(compat::detail::HasOpSuccessorInputs<BranchWithInputs,
                                                   SuccessorOnly>::value);
static_assert(compat::detail::HasAuxOperand<BufferOpWithAuxOperand>::value);
static_assert(!compat::detail::HasAuxOperand<BufferOpWithAuxAttribute>::value);
} // namespace

int main() {
  MLIRContext context;
  context.loadDialect<arith::ArithDialect>();
  OpBuilder builder(&context);
  Location loc = builder.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  builder.setInsertionPointToEnd(module->getBody());
  Value a = arith::ConstantIndexOp::create(builder, loc, 1);
  Value b = arith::ConstantIndexOp::create(builder, loc, 2);
  auto add = arith::AddIOp::create(builder, loc, a, b);

  SuccessorWithInputs successor22{ValueRange(add->getOperands()).take_front()};
  BranchWithoutInputs branch22;
  BranchWithInputs branchMain{add->getResults()};
  llvm::outs() << "successorInputs, 22 form: "
               << (compat::successorInputs(branch22, successor22).front() == a
                       ? "the successor's inputs"
                       : "wrong")
               << "\n";
  llvm::outs()
      << "successorInputs, main form: "
      << (compat::successorInputs(branchMain, SuccessorOnly{}).front() ==
                  add.getResult()
              ? "the op's inputs"
              : "wrong")
      << "\n";

  BufferOpWithAuxOperand op22{&add->getOpOperand(1)};
  BufferOpWithAuxAttribute opMain;
  llvm::outs() << "isBufferAuxOperand, 22 form: aux "
               << compat::isBufferAuxOperand(op22, add->getOpOperand(1))
               << ", other "
               << compat::isBufferAuxOperand(op22, add->getOpOperand(0))
               << "\n";
  llvm::outs() << "isBufferAuxOperand, main form: "
               << compat::isBufferAuxOperand(opMain, add->getOpOperand(1))
               << "\n";
  return 0;
}
