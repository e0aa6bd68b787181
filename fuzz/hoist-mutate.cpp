//===- hoist-mutate.cpp - Print structure-aware mutants of a module -------===//
//
// Applies the hoist fuzzer's IR-level mutator to a module: `--count N`
// mutants, each from the previous one (a walk, as libFuzzer's corpus
// evolves), with seeds from `--seed`. Prints each mutant (its options line
// first, as the fuzz target reads it), then a `// mutant K: KIND` line,
// `// -----` between them (so that fly-opt -split-input-file reads them), and
// a summary of the kinds to stderr:
//
//   hoist-mutate --seed 1 --count 100 input.mlir > mutants.mlir
//
// Used by the lit tests of the mutator (with --out-dir, a folder of
// mutants hoist-fuzzer runs as a corpus).
//
//===----------------------------------------------------------------------===//

#include "StructureMutator.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <random>
#include <string>
#include <vector>

namespace cl = llvm::cl;

int main(int argc, char **argv) {
  cl::opt<std::string> input(cl::Positional, cl::desc("<input.mlir>"),
                             cl::init("-"));
  cl::opt<unsigned> seed("seed", cl::desc("first seed"), cl::init(1));
  cl::opt<unsigned> count("count", cl::desc("mutants to print"), cl::init(10));
  cl::opt<std::string> outDir(
      "out-dir",
      cl::desc("also write each mutant to DIR/mutant-K.mlir (a "
               "corpus for hoist-fuzzer)"),
      cl::init(""));
  cl::ParseCommandLineOptions(argc, argv, "structure-aware mutator\n");

  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(input);
  if (!buffer) {
    llvm::errs() << "hoist-mutate: cannot read " << input << "\n";
    return 1;
  }
  // The input may hold several modules separated by `// -----` lines, as
  // lit inputs do; each evolves on its own, mutant K from module K mod N.
  llvm::SmallVector<llvm::StringRef> pieces;
  (*buffer)->getBuffer().split(pieces, "// -----");
  std::vector<std::string> originals(pieces.begin(), pieces.end());
  std::vector<std::string> current = originals;
  llvm::StringMap<unsigned> kinds;
  std::mt19937 seeds(seed);
  unsigned printed = 0, failedSteps = 0;
  for (unsigned step = 0; printed < count && step < 20 * count; ++step) {
    size_t piece = step % current.size();
    std::optional<hoistfuzz::Mutant> mutant =
        hoistfuzz::mutateStructure(current[piece], seeds());
    if (!mutant) {
      // No mutation applies (or the module does not parse): start that
      // module over.
      ++failedSteps;
      current[piece] = originals[piece];
      continue;
    }
    if (printed)
      llvm::outs() << "// -----\n";
    llvm::outs() << mutant->text << "// mutant " << printed << ": "
                 << mutant->kind << "\n";
    if (!outDir.empty()) {
      std::error_code error;
      llvm::raw_fd_ostream file(
          outDir + "/mutant-" + std::to_string(printed) + ".mlir", error);
      if (error) {
        llvm::errs() << "hoist-mutate: cannot write to " << outDir << ": "
                     << error.message() << "\n";
        return 1;
      }
      file << mutant->text;
    }
    ++kinds[mutant->kind];
    ++printed;
    current[piece] = std::move(mutant->text);
  }
  llvm::errs() << "hoist-mutate: " << printed << " mutants, " << failedSteps
               << " steps with no mutation\n";
  llvm::SmallVector<llvm::StringRef> names;
  for (const auto &entry : kinds)
    names.push_back(entry.getKey());
  llvm::sort(names);
  for (llvm::StringRef name : names)
    llvm::errs() << "hoist-mutate: " << name << " " << kinds[name] << "\n";
  return printed == count ? 0 : 1;
}
