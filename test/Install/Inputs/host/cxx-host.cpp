//===- cxx-host.cpp - A C++ host of an installed flyhoist -----------------===//
//
// A C++ frontend over the installed C++ libraries: its own context with the
// dialects its IR uses, hoistStrideSpecialization, the manifest, and the
// AMDGPU pipeline to ISA, which adds what it needs to the context itself.
//
//===----------------------------------------------------------------------===//

#include "flyhoist/Dialect/Spec/SpecDialect.h"
#include "flyhoist/Pipelines/Pipelines.h"
#include "flyhoist/Transforms/HoistStrideSpecialization.h"
#include "flyhoist/Transforms/Manifest.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;

static const char *kernel = R"mlir(
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gather(%bt: memref<?xi32>, %out: memref<?xi32>, %seq: index) kernel {
      %w = spec.param "max_blocks_per_seq" = 128 : index
      %row = arith.muli %seq, %w : index
      %v = memref.load %bt[%row] : memref<?xi32>
      memref.store %v, %out[%seq] : memref<?xi32>
      gpu.return
    }
  }
}
)mlir";

int main() {
  DialectRegistry registry;
  registry.insert<flyhoist::spec::SpecDialect, arith::ArithDialect,
                  func::FuncDialect, gpu::GPUDialect, memref::MemRefDialect>();
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(kernel, &context, "cxx-host.mlir");
  if (!module)
    return 1;

  flyhoist::HoistOptions options;
  options.emitRemarks = false;
  FailureOr<flyhoist::HoistSummary> summary =
      flyhoist::hoistStrideSpecialization(*module, options);
  if (failed(summary))
    return 1;
  llvm::outs() << "hoisted " << summary->hoisted << "\n"
               << flyhoist::renderManifestJSON(*module);

  PassManager pm(&context);
  flyhoist::AMDGPUPipelineOptions lowering;
  lowering.chip = "gfx942";
  lowering.format = "isa";
  flyhoist::buildAMDGPUPipeline(pm, lowering);
  if (failed(pm.run(*module)))
    return 1;
  bool isa = false;
  module->walk([&](gpu::BinaryOp binary) {
    for (Attribute object : binary.getObjects())
      isa |= cast<gpu::ObjectAttr>(object).getObject().getValue().contains(
          ".amdhsa_kernel gather");
  });
  llvm::outs() << "lowered: " << (isa ? "AMDGPU ISA" : "no ISA") << "\n";
  return isa ? 0 : 1;
}
