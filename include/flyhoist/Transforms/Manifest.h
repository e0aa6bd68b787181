//===- Manifest.h - What the hoisting did, for frontends ---------*- C++
//-*-===//
//
// A JSON manifest of a hoisting run and a fingerprint of each GPU module, so
// that a frontend can key its compile cache on what the compiler will see and
// pass hoisted values at launch. The schema is documented in docs/MANIFEST.md.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_TRANSFORMS_MANIFEST_H
#define FLYHOIST_TRANSFORMS_MANIFEST_H

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace mlir::gpu {
class GPUModuleOp;
} // namespace mlir::gpu

namespace mlir::flyhoist {

/// The manifest schema version; bumped on any incompatible change.
inline constexpr int kManifestSchemaVersion = 3;

/// SHA-256 (lowercase hex, prefixed "sha256:") of a canonical form of `module`:
/// its generic-form text without locations. Equal for modules that differ
/// only in locations; different when any op, attribute or type differs.
std::string fingerprintGPUModule(gpu::GPUModuleOp module);

/// The same canonical hash of `op` itself, which it changes: its hoist
/// records lose their locations. For a copy the caller owns (the C API's
/// compile fingerprint hashes a copy of a whole module cut to what a
/// lowering reads).
std::string fingerprintWithoutLocations(Operation *op);

/// Renders the manifest of `module` from the hoist records (`spec.record`)
/// its functions carry: per kernel (and per device function) the hoisted and
/// kept parameters and the launch sites, per gpu.module its fingerprint. The
/// same module gives the same bytes whichever route hoisted it (the pass,
/// the C++ API, the C API, a pipeline). Keys are sorted.
std::string renderManifestJSON(ModuleOp module);

/// Every value of the manifest's closed vocabularies, as JSON: {"version",
/// "reasons", "preconditions", "argument_parts"}, generated from the spec
/// dialect's enums (flyhoistPrintContractKinds).
std::string renderContractKindsJSON();

} // namespace mlir::flyhoist

#endif // FLYHOIST_TRANSFORMS_MANIFEST_H
