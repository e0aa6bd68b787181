//===- TestPrintHoistPlan.cpp - Print what the rewrite would do -----------===//
//
// `-test-print-hoist-plan`: plans hoist-stride-specialization on the module
// as the pass does, step by step, and prints each step's launch plan (the
// host arguments, and what every launch site passes and from where) instead
// of carrying it out. Changes nothing.
//
//===----------------------------------------------------------------------===//

#include "LaunchPlan.h"

#include "flyhoist/Transforms/HoistStrideSpecialization.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::flyhoist;

namespace {
struct TestPrintHoistPlanPass
    : public PassWrapper<TestPrintHoistPlanPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPrintHoistPlanPass)

  TestPrintHoistPlanPass() = default;
  TestPrintHoistPlanPass(const TestPrintHoistPlanPass &other)
      : PassWrapper(other) {}

  StringRef getArgument() const final { return "test-print-hoist-plan"; }
  StringRef getDescription() const final {
    return "Print the launch plan of hoist-stride-specialization";
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    registerStrideUseExternalModels(registry);
  }

  void runOnOperation() override {
    HoistOptions options;
    options.hoistIntoHost = hoistIntoHost;
    options.divisibility = divisibility;
    options.narrowRange = narrowRange;
    ModuleOp module = getOperation();
    FailureOr<StrideUseRules> rules =
        validateHoistOptions(options, [&] { return module.emitError(); });
    FailureOr<DiscoveredModule> discovered = discoverKernels(module);
    if (failed(rules) || failed(discovered))
      return signalPassFailure();
    LaunchPlanner launches(*discovered, options.hoistIntoHost);
    unsigned number = 0;
    planInSteps(*discovered, options, *rules, launches,
                [&](MutableArrayRef<KernelPlan> plans, const LaunchPlan &plan) {
                  llvm::outs() << "step " << number++ << "\n";
                  printLaunchPlan(llvm::outs(), plans, plan);
                });
    markAllAnalysesPreserved();
  }

  Option<bool> hoistIntoHost{*this, "hoist-into-host",
                             llvm::cl::desc("As the pass's option"),
                             llvm::cl::init(false)};
  Option<uint64_t> divisibility{*this, "divisibility",
                                llvm::cl::desc("As the pass's option"),
                                llvm::cl::init(0)};
  Option<bool> narrowRange{*this, "narrow-range",
                           llvm::cl::desc("As the pass's option"),
                           llvm::cl::init(false)};
};
} // namespace

namespace mlir::flyhoist::test {
/// Registers -test-print-hoist-plan.
void registerTestPrintHoistPlanPass() {
  PassRegistration<TestPrintHoistPlanPass>();
}
} // namespace mlir::flyhoist::test
