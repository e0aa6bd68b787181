//===- StructureMutator.h - IR-level mutations for the hoist fuzzer -*- C++
//-*-//
//
// Byte-level mutation of MLIR text almost never yields a module that parses,
// so it reaches the pass's analysis only for inputs close to the seeds. This
// mutator parses the input, changes it as IR (a constant becomes a
// `spec.param`, a parameter gets an edge value or another's name or a new use
// in a random role, a parameter moves into a nested region, a function
// becomes a `spec.kernel`, the pass options change...) and prints it again,
// so every mutant is a module that verifies. hoist-fuzzer uses it as
// libFuzzer's custom mutator; hoist-mutate prints its mutants for tests.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_FUZZ_STRUCTUREMUTATOR_H
#define FLYHOIST_FUZZ_STRUCTUREMUTATOR_H

#include "mlir/IR/DialectRegistry.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace hoistfuzz {

/// The first-line comment that carries the pass options of a fuzz input:
/// `// hoist-options: divisibility=16 narrow-range=true`. Inputs with it run
/// through a pass pipeline with those options, others through the C++ API
/// with the defaults.
inline constexpr llvm::StringLiteral kOptionsPrefix = "// hoist-options:";

/// The options line of `source` (without the prefix), if it has one.
std::optional<std::string> optionsOf(llvm::StringRef source);

/// The dialects a fuzz input may hold; one registry for the whole process.
const mlir::DialectRegistry &fuzzRegistry();

/// One mutant of `source`.
struct Mutant {
  /// The mutated module as text (options line first, if any).
  std::string text;
  /// Which mutation made it (`constant-to-param`, `param-edge-value`, ...).
  std::string kind;
};

/// Applies one IR-level mutation chosen by `seed` to `source`. Returns
/// nothing when `source` does not parse and verify, or when no mutation
/// applies (then the caller falls back to byte-level mutation). Every mutant
/// returned parses and verifies.
std::optional<Mutant> mutateStructure(llvm::StringRef source, uint32_t seed);

} // namespace hoistfuzz

#endif // FLYHOIST_FUZZ_STRUCTUREMUTATOR_H
