//===- CompileFingerprint.cpp - What a compile reads, as one digest -------===//
//
// flyhoistPrintCompileFingerprint: the digest a code-object cache keys a
// module's objects by (with the pipeline and the library's build identity).
//
//===----------------------------------------------------------------------===//

#include "flyhoist-c/FlyHoist.h"

#include "flyhoist/Dialect/Spec/SpecDialect.h"
#include "flyhoist/Transforms/Manifest.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OperationSupport.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::flyhoist;

namespace {

/// What the code objects are made of: the gpu.modules (and any gpu.binary
/// already there, which the compile returns as it is).
bool isDevicePart(Operation *op) {
  return isa<gpu::GPUModuleOp>(op) ||
         op->getName().getStringRef() == "gpu.binary";
}

bool holdsDevicePart(Operation *op) {
  return op
      ->walk([](Operation *nested) {
        return isDevicePart(nested) ? WalkResult::interrupt()
                                    : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Erases from `op`'s regions what neither is nor holds a device part:
/// host functions, globals. The lowering pipelines convert each gpu.module
/// on its own; of the rest they read only the attributes of the ops around
/// it (a data layout), which stay. So a host launcher that passes a hoisted
/// value as a constant does not make every value a new key.
void keepDeviceParts(Operation *op) {
  SmallVector<Operation *> dropped;
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (Operation &nested : block) {
        if (isDevicePart(&nested))
          continue;
        if (holdsDevicePart(&nested))
          keepDeviceParts(&nested);
        else
          dropped.push_back(&nested);
      }
  for (Operation *nested : dropped)
    nested->dropAllReferences();
  for (Operation *nested : llvm::reverse(dropped)) {
    nested->dropAllUses();
    nested->erase();
  }
}

} // namespace

MlirLogicalResult flyhoistPrintCompileFingerprint(MlirOperation op,
                                                  MlirStringCallback callback,
                                                  void *userData) {
  if (mlirOperationIsNull(op))
    return mlirLogicalResultFailure();
  if (!isa<ModuleOp>(unwrap(op))) {
    unwrap(op)->emitError(
        "a compile fingerprint is taken of a 'builtin.module', not of '")
        << unwrap(op)->getName() << "'";
    return mlirLogicalResultFailure();
  }
  // As fingerprintGPUModule: generic form, no locations, and hoist records
  // (which hold locations as attributes) without theirs.
  OwningOpRef<Operation *> copy = unwrap(op)->clone();
  keepDeviceParts(*copy);
  mlir::detail::CallbackOstream stream(callback, userData);
  stream << fingerprintWithoutLocations(*copy);
  stream.flush();
  return mlirLogicalResultSuccess();
}
