//===- hoist-fuzzer.cpp - libFuzzer target for stride hoisting ------------===//
//
// Parses the input as MLIR text, verifies it, runs the transformation behind
// `hoist-stride-specialization`, and checks the contracts the pass promises:
//
//  - it never crashes (ASan/UBSan watch the whole process);
//  - on success the module still verifies;
//  - on failure the module prints exactly as it did before;
//  - running it a second time changes nothing (twice == once).
//
// Parse and verification errors of the input are fine: they are what a
// frontend gets for bad IR. A broken contract aborts, which libFuzzer records
// as a crash with the input that caused it.
//
//===----------------------------------------------------------------------===//

#include "flyhoist/Dialect/Spec/SpecDialect.h"
#include "flyhoist/Transforms/HoistStrideSpecialization.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace mlir;

namespace {

/// The dialects a kernel handed to the pass may hold. Built once; every input
/// gets a fresh context so that nothing interned by one input (attributes,
/// types, locations) accumulates across millions of runs.
const DialectRegistry &fuzzRegistry() {
  static DialectRegistry *registry = [] {
    auto *result = new DialectRegistry();
    result
        ->insert<affine::AffineDialect, amdgpu::AMDGPUDialect,
                 arith::ArithDialect, cf::ControlFlowDialect, func::FuncDialect,
                 gpu::GPUDialect, index::IndexDialect, LLVM::LLVMDialect,
                 memref::MemRefDialect, ROCDL::ROCDLDialect, scf::SCFDialect,
                 vector::VectorDialect, flyhoist::spec::SpecDialect>();
    return result;
  }();
  return *registry;
}

/// Whether to load the arith dialect before running the transformation, as
/// a pass manager does for the pass's dependent dialects. Off by default: the
/// frontend API must work on a context that has not loaded it. Set
/// HOIST_FUZZER_PRELOAD_ARITH=1 to fuzz past that known failure
/// (test/Transforms/regressions/api-arith-not-loaded.mlir).
bool preloadArith() {
  static const bool preload = [] {
    const char *value = std::getenv("HOIST_FUZZER_PRELOAD_ARITH");
    return value && *value && *value != '0';
  }();
  return preload;
}

/// Prints `module` in the generic form with locations, so that any change the
/// pass makes shows.
std::string print(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  OpPrintingFlags flags;
  flags.printGenericOpForm().enableDebugInfo();
  module->print(os, flags);
  return text;
}

/// Reports a broken contract and aborts, so that libFuzzer keeps the input.
[[noreturn]] void contractBroken(const char *what, const std::string &detail) {
  llvm::errs() << "hoist-fuzzer: " << what << "\n" << detail << "\n";
  llvm::errs().flush();
  std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext context(fuzzRegistry(), MLIRContext::Threading::DISABLED);
  // Diagnostics are expected (bad input, remarks); keep them off stderr.
  ScopedDiagnosticHandler quiet(&context,
                                [](Diagnostic &) { return success(); });

  if (preloadArith())
    context.getOrLoadDialect<arith::ArithDialect>();

  // MLIR's lexer stops at the NUL that a MemoryBuffer guarantees after the
  // text; parseSourceString() wraps the StringRef without copying, so hand
  // it text that has one (std::string does), as a frontend's strings do.
  std::string source(reinterpret_cast<const char *>(data), size);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &context);
  if (!module || failed(verify(*module)))
    return 0;

  std::string before = print(*module);
  if (failed(flyhoist::hoistStrideSpecialization(*module))) {
    std::string after = print(*module);
    if (after != before)
      contractBroken("the pass failed but changed the module",
                     "before:\n" + before + "\nafter:\n" + after);
    return 0;
  }
  if (failed(verify(*module)))
    contractBroken("the pass produced a module that does not verify",
                   print(*module));

  std::string once = print(*module);
  if (failed(flyhoist::hoistStrideSpecialization(*module)))
    contractBroken("the pass failed on its own output", once);
  std::string twice = print(*module);
  if (twice != once)
    contractBroken("running the pass twice differs from running it once",
                   "once:\n" + once + "\ntwice:\n" + twice);
  return 0;
}
