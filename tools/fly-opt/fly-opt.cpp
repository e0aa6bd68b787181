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

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::flyhoist::registerFlyHoistPasses();
  mlir::flyhoist::registerFlyHoistPipelines();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary translates each gpu.module to LLVM IR in-process.
  mlir::registerAllToLLVMIRTranslations(registry);
  registry.insert<mlir::flyhoist::spec::SpecDialect>();

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "flyhoist optimizer driver\n", registry));
}
