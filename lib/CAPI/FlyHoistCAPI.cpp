//===- FlyHoistCAPI.cpp - flyhoist in MLIR's C API ------------------------===//
//
// Implements include/flyhoist-c/: the spec dialect handle, the generated pass
// registration and creation functions, and the functions that act on a
// caller's module. Everything runs in the caller's context and reports
// through its diagnostic handlers, as upstream's C API does.
//
//===----------------------------------------------------------------------===//

#include "flyhoist-c/FlyHoist.h"

#include "flyhoist/Analysis/StrideUseAnalysis.h"
#include "flyhoist/Dialect/Spec/SpecDialect.h"
#include "flyhoist/Pipelines/Pipelines.h"
#include "flyhoist/Transforms/HoistStrideSpecialization.h"
#include "flyhoist/Transforms/Manifest.h"
#include "flyhoist/Transforms/Passes.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>
#include <string>

using namespace mlir;
using namespace mlir::flyhoist;

//===----------------------------------------------------------------------===//
// Dialect and passes, by upstream's generators
//===----------------------------------------------------------------------===//

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Spec, spec, spec::SpecDialect)

// mlirRegisterFlyHoistPasses, mlirCreateFlyHoist<Pass> and
// mlirRegisterFlyHoist<Pass>, by mlir-tblgen -gen-pass-capi-impl --prefix
// FlyHoist over Passes.td.
#include "flyhoist-c/Passes.capi.cpp.inc"

void mlirRegisterFlyHoistPipelines(void) {
  // A pipeline name registered twice is an error of MLIR's registry.
  static std::once_flag once;
  std::call_once(once, [] { registerFlyHoistPipelines(); });
}

namespace {

/// Registers the flyhoist passes once, for hosts that call the hoisting
/// function without registering them (registering again is harmless: the
/// registry keeps the first entry of a pass).
void registerPassesOnce() {
  static std::once_flag once;
  std::call_once(once, [] { registerFlyHoistPasses(); });
}

/// Whether `pm` holds exactly one pass, hoist-stride-specialization: an
/// options string that closes the brace could otherwise add passes.
bool isOnlyTheHoistingPass(OpPassManager &pm) {
  auto passes = pm.getPasses();
  return std::distance(passes.begin(), passes.end()) == 1 &&
         passes.begin()->getArgument() == "hoist-stride-specialization";
}

} // namespace

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

uint32_t flyhoistGetAPIVersion(void) {
  return (static_cast<uint32_t>(FLYHOIST_CAPI_VERSION_MAJOR) << 16) |
         FLYHOIST_CAPI_VERSION_MINOR;
}

#define FLYHOIST_STRINGIZE_(x) #x
#define FLYHOIST_STRINGIZE(x) FLYHOIST_STRINGIZE_(x)
#define FLYHOIST_CAPI_VERSION_STRING                                           \
  FLYHOIST_STRINGIZE(FLYHOIST_CAPI_VERSION_MAJOR)                              \
  "." FLYHOIST_STRINGIZE(FLYHOIST_CAPI_VERSION_MINOR)

const char *flyhoistGetRevision(void) {
  return "flyhoist C API " FLYHOIST_CAPI_VERSION_STRING
         ", MLIR " LLVM_VERSION_STRING;
}

void flyhoistRegisterStrideUseExternalModels(MlirDialectRegistry registry) {
  registerStrideUseExternalModels(*unwrap(registry));
}

MlirLogicalResult flyhoistHoistStrideSpecialization(MlirOperation op,
                                                    MlirStringRef options) {
  if (mlirOperationIsNull(op))
    return mlirLogicalResultFailure();
  auto module = dyn_cast<ModuleOp>(unwrap(op));
  if (!module) {
    unwrap(op)->emitError("hoist-stride-specialization runs on a "
                          "'builtin.module', not on '")
        << unwrap(op)->getName() << "'";
    return mlirLogicalResultFailure();
  }
  registerPassesOnce();

  // The same text fly-opt and mlirParsePassPipeline take, through the same
  // parser: one set of options, one set of errors.
  StringRef optionText = unwrap(options);
  std::string pipeline =
      ("builtin.module(hoist-stride-specialization{" + optionText + "})").str();
  std::string parseErrors;
  llvm::raw_string_ostream parseStream(parseErrors);
  FailureOr<OpPassManager> parsed = parsePassPipeline(pipeline, parseStream);
  if (failed(parsed) || !isOnlyTheHoistingPass(*parsed)) {
    InFlightDiagnostic diag = module.emitError()
                              << "invalid options for "
                                 "hoist-stride-specialization: '"
                              << optionText << "'";
    if (succeeded(parsed))
      diag << ": the options string ends the pass's option list";
    else if (StringRef text = StringRef(parseErrors).trim(); !text.empty())
      diag << ":\n" << text;
    return mlirLogicalResultFailure();
  }

  PassManager pm(module.getContext(), ModuleOp::getOperationName());
  static_cast<OpPassManager &>(pm) = std::move(*parsed);
  return wrap(pm.run(module));
}

MlirLogicalResult flyhoistPrintManifest(MlirOperation op,
                                        MlirStringCallback callback,
                                        void *userData) {
  if (mlirOperationIsNull(op))
    return mlirLogicalResultFailure();
  auto module = dyn_cast<ModuleOp>(unwrap(op));
  if (!module) {
    unwrap(op)->emitError("a hoisting manifest is read from a "
                          "'builtin.module', not from '")
        << unwrap(op)->getName() << "'";
    return mlirLogicalResultFailure();
  }
  mlir::detail::CallbackOstream stream(callback, userData);
  stream << renderManifestJSON(module);
  stream.flush();
  return mlirLogicalResultSuccess();
}

MlirLogicalResult flyhoistPrintFingerprint(MlirOperation op,
                                           MlirStringCallback callback,
                                           void *userData) {
  if (mlirOperationIsNull(op))
    return mlirLogicalResultFailure();
  auto gpuModule = dyn_cast<gpu::GPUModuleOp>(unwrap(op));
  if (!gpuModule) {
    unwrap(op)->emitError("a fingerprint is taken of a 'gpu.module', not of '")
        << unwrap(op)->getName() << "'";
    return mlirLogicalResultFailure();
  }
  mlir::detail::CallbackOstream stream(callback, userData);
  stream << fingerprintGPUModule(gpuModule);
  stream.flush();
  return mlirLogicalResultSuccess();
}
