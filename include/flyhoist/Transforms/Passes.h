//===- Passes.h - flyhoist passes -------------------------------*- C++ -*-===//
//
// The passes' declarations and registration. Only the pass definitions
// (lib/Transforms) need the dialects the passes depend on, so this header
// includes none.
//
//===----------------------------------------------------------------------===//
#ifndef FLYHOIST_TRANSFORMS_PASSES_H
#define FLYHOIST_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace mlir::flyhoist {

#define GEN_PASS_DECL
#include "flyhoist/Transforms/Passes.h.inc"

/// Registers every flyhoist pass with the global pass registry.
#define GEN_PASS_REGISTRATION
#include "flyhoist/Transforms/Passes.h.inc"

} // namespace mlir::flyhoist

#endif // FLYHOIST_TRANSFORMS_PASSES_H
