//===- flyhoist-plugin.cpp - Dialect and pass plugin for mlir-opt ---------===//
//
// Loaded by an upstream `mlir-opt` (or any MlirOptMain-based tool linked
// against the same libMLIR.so) with
//
//   mlir-opt --load-dialect-plugin=FlyHoistPlugin.so \
//            --load-pass-plugin=FlyHoistPlugin.so \
//            --pass-pipeline='builtin.module(hoist-stride-specialization)'
//
// (mlir-opt parses its flags before it loads pass plugins, so a plugin's
// pass is named in --pass-pipeline, not as --hoist-stride-specialization).
// The dialect entry point registers the `spec` dialect; the pass entry point
// registers every flyhoist pass (registerFlyHoistPasses, from Passes.td):
// `hoist-stride-specialization`, `materialize-specialization` and
// `strip-hoist-records`. The lowering pipelines are fly-opt's and the C
// API's, not the plugin's.
//
//===----------------------------------------------------------------------===//

#include "flyhoist/Dialect/Spec/SpecDialect.h"
#include "flyhoist/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

/// Version string of the plugin, reported to the loading tool.
#define FLYHOIST_PLUGIN_VERSION "0.1"

/// Entry point for `--load-dialect-plugin`: registers the `spec` dialect.
extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "FlyHoistSpec", FLYHOIST_PLUGIN_VERSION,
          [](::mlir::DialectRegistry *registry) {
            registry->insert<::mlir::flyhoist::spec::SpecDialect>();
          }};
}

/// Entry point for `--load-pass-plugin`: registers the flyhoist passes.
extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "FlyHoistPasses", FLYHOIST_PLUGIN_VERSION,
          []() { ::mlir::flyhoist::registerFlyHoistPasses(); }};
}
