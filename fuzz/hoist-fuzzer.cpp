//===- hoist-fuzzer.cpp - libFuzzer target for stride hoisting ------------===//
//
// Parses the input as MLIR text, verifies it, runs the transformation behind
// `hoist-stride-specialization` (through the C++ API with the default
// options, or through a pass manager with the options of the input's
// `// hoist-options:` line), and checks the contracts the pass promises:
//
//  - it never crashes (ASan/UBSan watch the whole process);
//  - on success the module still verifies, and its printed form parses and
//    verifies again;
//  - on failure the module prints exactly as it did before;
//  - running it a second time changes nothing (twice == once).
//
// Parse and verification errors of the input are fine: they are what a
// frontend gets for bad IR; so are options the pass rejects. A broken
// contract aborts, which libFuzzer records as a crash with the input that
// caused it. New inputs come from the structure-aware mutator
// (StructureMutator.cpp) most of the time and from libFuzzer's byte-level
// mutations otherwise.
//
//===----------------------------------------------------------------------===//

#include "StructureMutator.h"

#include "flyhoist/Transforms/HoistStrideSpecialization.h"
#include "flyhoist/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>

using namespace mlir;

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

namespace {

/// Whether the environment variable `name` is set to something other than
/// empty or 0.
bool envFlag(const char *name) {
  const char *value = std::getenv(name);
  return value && *value && *value != '0';
}

/// Whether to load the arith dialect before running the transformation, as
/// a pass manager does for the pass's dependent dialects. Off by default: the
/// frontend API must work on a context that has not loaded it. Set
/// HOIST_FUZZER_PRELOAD_ARITH=1 to fuzz past that known failure
/// (test/Transforms/regressions/api-arith-not-loaded.mlir).
bool preloadArith() {
  static const bool preload = envFlag("HOIST_FUZZER_PRELOAD_ARITH");
  return preload;
}

/// Whether to use libFuzzer's byte-level mutations only
/// (HOIST_FUZZER_BYTES_ONLY=1), to compare against the structure-aware ones.
bool bytesOnly() {
  static const bool only = envFlag("HOIST_FUZZER_BYTES_ONLY");
  return only;
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
  MLIRContext context(hoistfuzz::fuzzRegistry(),
                      MLIRContext::Threading::DISABLED);
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

  // The options line picks the route: a pass manager with those options
  // (what fly-opt and mlir-opt do), or the C++ API with the defaults (what a
  // frontend does). A manifest path would write files: not fuzzed.
  std::optional<std::string> options = hoistfuzz::optionsOf(source);
  if (options && options->find("manifest") != std::string::npos)
    return 0;
  std::optional<PassManager> passManager;
  if (options) {
    std::unique_ptr<Pass> pass = flyhoist::createHoistStrideSpecialization();
    if (failed(pass->initializeOptions(
            *options, [](const llvm::Twine &) { return failure(); })))
      return 0;
    passManager.emplace(&context);
    // The contract checks below verify; the pass manager's own verifier
    // would hide which side broke it.
    passManager->enableVerifier(false);
    passManager->addPass(std::move(pass));
  }
  auto hoist = [&]() -> LogicalResult {
    if (passManager)
      return passManager->run(*module);
    return success(succeeded(flyhoist::hoistStrideSpecialization(*module)));
  };

  std::string before = print(*module);
  if (failed(hoist())) {
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
  // What a tool downstream reads: the printed output parses and verifies
  // again (a record field printed out of its range, such as a divisor of
  // 2^63 in a signed field, does not).
  OwningOpRef<ModuleOp> reparsed = parseSourceString<ModuleOp>(once, &context);
  if (!reparsed || failed(verify(*reparsed)))
    contractBroken("the pass's output does not parse and verify again", once);
  if (failed(hoist()))
    contractBroken("the pass failed on its own output", once);
  std::string twice = print(*module);
  if (twice != once)
    contractBroken("running the pass twice differs from running it once",
                   "once:\n" + once + "\ntwice:\n" + twice);
  return 0;
}

/// Three inputs in four get an IR-level mutation (a module that parses and
/// verifies, so it reaches the analysis); the rest, and inputs that do not
/// parse, libFuzzer's byte-level ones (bad input must be handled too).
extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  if (!bytesOnly() && seed % 4 != 0) {
    std::string source(reinterpret_cast<const char *>(data), size);
    if (std::optional<hoistfuzz::Mutant> mutant =
            hoistfuzz::mutateStructure(source, seed / 4)) {
      if (mutant->text.size() <= maxSize) {
        std::memcpy(data, mutant->text.data(), mutant->text.size());
        return mutant->text.size();
      }
    }
  }
  return LLVMFuzzerMutate(data, size, maxSize);
}
