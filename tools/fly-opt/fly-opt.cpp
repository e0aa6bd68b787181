//===- fly-opt.cpp - The flyhoist optimizer driver ------------------------===//
//
// mlir-opt with the spec dialect and the flyhoist passes, plus every upstream
// dialect, pass and LLVM IR translation a GPU pipeline needs, so that the whole
// lowering to an AMDGPU code object (gpu-module-to-binary) runs in it.
//
//===----------------------------------------------------------------------===//

#include "flyhoist/Dialect/Spec/SpecDialect.h"
#include "flyhoist/Pipelines/Pipelines.h"
#include "flyhoist/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

namespace mlir::flyhoist::test {
void registerTestStrideUseAnalysisPass();
void registerTestPrintHoistPlanPass();
void registerTestStrideDialect(DialectRegistry &registry);
} // namespace mlir::flyhoist::test

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  // Test-only passes (test/lib), as mlir-opt registers upstream's.
  mlir::flyhoist::test::registerTestStrideUseAnalysisPass();
  mlir::flyhoist::test::registerTestPrintHoistPlanPass();
  mlir::flyhoist::registerFlyHoistPasses();
  mlir::flyhoist::registerFlyHoistPipelines();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary translates each gpu.module to LLVM IR in-process.
  mlir::registerAllToLLVMIRTranslations(registry);
  registry.insert<mlir::flyhoist::spec::SpecDialect>();
  // The test-only dialect standing in for a DSL's ops (test/lib).
  mlir::flyhoist::test::registerTestStrideDialect(registry);

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "flyhoist optimizer driver\n", registry));
}
