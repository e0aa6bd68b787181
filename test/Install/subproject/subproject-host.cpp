//===- subproject-host.cpp - A frontend that compiles flyhoist in its tree ===//
//
// Parses a kernel, runs --hoist-stride-specialization through a pass manager
// and prints the module: flyhoist's static libraries over MLIR's static
// component libraries, with no libMLIR.so in the process.
//
//===----------------------------------------------------------------------===//

#include "flyhoist/Dialect/Spec/SpecDialect.h"
#include "flyhoist/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: subproject-host <kernel.mlir>\n";
    return 2;
  }
  DialectRegistry registry;
  registry.insert<flyhoist::spec::SpecDialect, arith::ArithDialect,
                  func::FuncDialect, gpu::GPUDialect, memref::MemRefDialect>();
  MLIRContext context(registry);
  llvm::SourceMgr sources;
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(argv[1], sources, &context);
  if (!module)
    return 1;

  PassManager pm(&context);
  flyhoist::HoistStrideSpecializationOptions options;
  options.emitRemarks = false;
  pm.addPass(flyhoist::createHoistStrideSpecialization(options));
  if (failed(pm.run(*module)))
    return 1;
  module->print(llvm::outs());
  llvm::outs() << "\n";
  return 0;
}
