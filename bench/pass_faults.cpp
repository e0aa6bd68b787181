//===- pass_faults.cpp - Page faults and time of each pass ----------------===//
//
// flyhoist-pass-faults PIPELINE FILE: parses FILE, runs PIPELINE (a textual
// pass pipeline, `builtin.module(...)` as fly-opt's --pass-pipeline takes)
// once, and prints one line per pass:
//
//   <pass name> <minor page faults> <wall microseconds>
//
// counted from just before the pass to just after it, as -mlir-timing times
// it. In a fresh process most of a small module's cost is first touches of
// memory and code the process has not used yet; the faults tell how many
// pages a pass needs that the process did not have (bench/pass_profile.py
// --faults compares them across passes). Its context registers every
// upstream dialect and spec, as fly-opt does; the verifier is off, as
// pass_profile.py runs fly-opt.
//
//===----------------------------------------------------------------------===//

#include "flyhoist/Dialect/Spec/SpecDialect.h"
#include "flyhoist/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <sys/resource.h>

using namespace mlir;

namespace {
/// Minor page faults of the process so far.
long minorFaults() {
  struct rusage usage;
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

/// Prints each pass's faults and wall time when it finishes. The reading is
/// taken last before the pass and first after it, so that the instrument's
/// own work stays outside.
class FaultCounter : public PassInstrumentation {
public:
  void runBeforePass(Pass *pass, Operation *) override {
    startFaults = minorFaults();
    start = std::chrono::steady_clock::now();
  }
  void runAfterPass(Pass *pass, Operation *) override { report(pass); }
  void runAfterPassFailed(Pass *pass, Operation *) override { report(pass); }

private:
  void report(Pass *pass) {
    auto end = std::chrono::steady_clock::now();
    long faults = minorFaults() - startFaults;
    llvm::outs()
        << pass->getName() << " " << faults << " "
        << std::chrono::duration<double, std::micro>(end - start).count()
        << "\n";
  }

  long startFaults = 0;
  std::chrono::steady_clock::time_point start;
};
} // namespace

int main(int argc, char **argv) {
  if (argc != 3) {
    llvm::errs() << "usage: flyhoist-pass-faults PIPELINE FILE\n";
    return 2;
  }
  registerAllPasses();
  flyhoist::registerFlyHoistPasses();
  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registry.insert<flyhoist::spec::SpecDialect>();
  MLIRContext context(registry);

  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(argv[2], &context);
  if (!module)
    return 1;
  // The pipeline names its anchor, as fly-opt's --pass-pipeline does.
  FailureOr<OpPassManager> pipeline = parsePassPipeline(argv[1], llvm::errs());
  if (failed(pipeline))
    return 1;
  PassManager pm(&context, pipeline->getOpAnchorName());
  static_cast<OpPassManager &>(pm) = *pipeline;
  pm.enableVerifier(false);
  pm.addInstrumentation(std::make_unique<FaultCounter>());
  return failed(pm.run(*module)) ? 1 : 0;
}
