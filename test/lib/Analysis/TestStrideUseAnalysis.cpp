//===- TestStrideUseAnalysis.cpp - Print the analysis' verdict per use ----===//
//
// `-test-stride-use-analysis`: for every function holding `spec.param`s, runs
// the stride-use analysis on all its parameters at once and emits a remark
// per classified use (at the user) and one summary per parameter (at its
// first `spec.param`). Changes nothing. The analysis tests are written
// against these remarks, independent of what the hoisting does with them.
//
//===----------------------------------------------------------------------===//

#include "flyhoist/Analysis/StrideUseAnalysis.h"
#include "flyhoist/Analysis/StrideUseOpInterface.h"
#include "flyhoist/Dialect/Spec/SpecDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mlir::flyhoist;

namespace {

/// The facet in words, for the value's type.
std::string describeFacet(Type type, unsigned facet) {
  if (isa<BaseMemRefType>(type))
    return facet == kViewSizesFacet ? "view sizes" : "view address";
  if (isa<LLVM::LLVMPointerType>(type))
    return facet == kBufferBoundFacet ? "buffer bound" : "value";
  if (isa<LLVM::LLVMStructType>(type))
    return "field " + std::to_string(facet / 2) +
           (facet % 2 == kBufferBoundFacet ? " bound" : "");
  return "value";
}

std::string describeVerdict(const UseVerdict &verdict) {
  switch (verdict.kind) {
  case UseVerdict::Kind::PassThrough:
    return "pass-through";
  case UseVerdict::Kind::AddressSink:
    return "address";
  case UseVerdict::Kind::NotRead:
    return "not read";
  case UseVerdict::Kind::Blocking:
    return ("blocking (" + stringifyBlockReason(verdict.reason) + ")").str();
  }
  llvm_unreachable("unknown verdict");
}

struct TestStrideUseAnalysisPass
    : public PassWrapper<TestStrideUseAnalysisPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestStrideUseAnalysisPass)

  TestStrideUseAnalysisPass() = default;
  TestStrideUseAnalysisPass(const TestStrideUseAnalysisPass &other)
      : PassWrapper(other) {}

  Option<bool> modelVerdicts{
      *this, "model-verdicts",
      llvm::cl::desc("Also print what the user's StrideUseOpInterface model "
                     "says of each use on its own, without LLVM's intrinsic "
                     "tables: a model must name every immediate itself")};

  StringRef getArgument() const final { return "test-stride-use-analysis"; }
  void getDependentDialects(DialectRegistry &registry) const override {
    registerStrideUseExternalModels(registry);
  }
  StringRef getDescription() const final {
    return "Print the stride-use analysis' verdict on every use of every "
           "spec.param as remarks";
  }

  void runOnOperation() override {
    getOperation()->walk([&](FunctionOpInterface function) {
      llvm::MapVector<StringRef, SmallVector<Value>> byName;
      SmallVector<spec::ParamOp> firstOps;
      function.getFunctionBody().walk([&](spec::ParamOp param) {
        // Parameters of nested functions belong to those.
        if (param->getParentOfType<FunctionOpInterface>() != function)
          return;
        auto [it, inserted] = byName.try_emplace(param.getName());
        if (inserted)
          firstOps.push_back(param);
        it->second.push_back(param.getResult());
      });
      if (byName.empty())
        return;
      SmallVector<SmallVector<Value>> roots;
      SmallVector<StringRef> names;
      for (auto &[name, values] : byName) {
        names.push_back(name);
        roots.push_back(values);
      }
      auto visitor = [&](OpOperand &use, unsigned facet,
                         const UseVerdict &verdict,
                         const llvm::BitVector &params) {
        std::string who;
        for (unsigned param : params.set_bits())
          who += (who.empty() ? "'" : ", '") + names[param].str() + "'";
        use.getOwner()->emitRemark()
            << who << " operand #" << use.getOperandNumber() << " ("
            << describeFacet(use.get().getType(), facet)
            << "): " << describeVerdict(verdict);
        if (!modelVerdicts)
          return;
        if (auto model = dyn_cast<StrideUseOpInterface>(use.getOwner()))
          use.getOwner()->emitRemark()
              << "model: operand #" << use.getOperandNumber() << ": "
              << describeVerdict(model.classifyStrideUse(use, facet));
      };
      SmallVector<ParamUseSummary> summaries =
          analyzeParamUses(roots, /*rules=*/{}, visitor);
      for (auto [op, summary] : llvm::zip(firstOps, summaries)) {
        InFlightDiagnostic remark = op.emitRemark()
                                    << "'" << op.getName() << "': ";
        if (summary.isAddressOnly())
          remark << "address-only, " << summary.numAddressSinks
                 << " address operand(s)";
        else
          remark << summary.numBlockingUses << " blocking use(s), first: "
                 << stringifyBlockReason(summary.firstBlockingUse->reason)
                 << " by '" << summary.firstBlockingUse->user->getName() << "'";
      }
    });
  }
};
} // namespace

namespace mlir::flyhoist::test {
/// Registers -test-stride-use-analysis.
void registerTestStrideUseAnalysisPass() {
  PassRegistration<TestStrideUseAnalysisPass>();
}
} // namespace mlir::flyhoist::test
