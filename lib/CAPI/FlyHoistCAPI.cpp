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
#include "flyhoist/Transforms/InferSpecParams.h"
#include "flyhoist/Transforms/Manifest.h"
#include "flyhoist/Transforms/Passes.h"
#include "flyhoist/Transforms/TraceJSON.h"

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
#include "llvm/Support/JSON.h"
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

/// Appends the text of a MlirStringCallback to a std::string.
void appendToString(MlirStringRef text, void *userData) {
  static_cast<std::string *>(userData)->append(text.data, text.length);
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

void flyhoistContextSetPrintOpOnDiagnostic(MlirContext context, bool enable) {
  unwrap(context)->printOpOnDiagnostic(enable);
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

  // The registered pass parses its own options, as fly-opt's and
  // mlirParsePassPipeline's parser have it do: one set of options, one set
  // of errors. Each reason arrives as data through the handler (the pass
  // checks its typed values itself, OptionValues.h: nothing goes to
  // stderr) and becomes a note of one error.
  StringRef optionText = unwrap(options);
  const PassInfo *info = PassInfo::lookup("hoist-stride-specialization");
  OpPassManager parsed(ModuleOp::getOperationName());
  SmallVector<std::string> reasons;
  LogicalResult added =
      info ? info->addToPipeline(parsed, optionText,
                                 [&](const Twine &reason) {
                                   reasons.push_back(reason.str());
                                   return failure();
                                 })
           : failure();
  if (failed(added) || !isOnlyTheHoistingPass(parsed)) {
    InFlightDiagnostic diag = module.emitError()
                              << "invalid options for "
                                 "hoist-stride-specialization: '"
                              << optionText << "'";
    for (StringRef reason : reasons)
      if (!reason.trim().empty())
        diag.attachNote() << reason.trim();
    return mlirLogicalResultFailure();
  }

  PassManager pm(module.getContext(), ModuleOp::getOperationName());
  static_cast<OpPassManager &>(pm) = std::move(parsed);
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
  // Lowering replaces each gpu.module, with the records its kernels carry,
  // by a gpu.binary: a module hoisted and lowered in one pipeline has
  // nothing left to read. Say so instead of returning empty lists.
  bool hasGPUModule = false;
  SmallVector<Operation *> binaries;
  module.walk([&](Operation *nested) {
    if (isa<gpu::GPUModuleOp>(nested))
      hasGPUModule = true;
    else if (nested->getName().getStringRef() == "gpu.binary")
      binaries.push_back(nested);
  });
  if (!binaries.empty()) {
    const char *how =
        "; read the manifest between hoisting and lowering (two pipelines, "
        "flyhoistPrintManifest in between) or pass manifest=<file> to "
        "hoist-stride-specialization, which writes it as the pass ends";
    if (!hasGPUModule) {
      binaries.front()->emitError(
          "no manifest: the module is lowered (gpu.binary, no gpu.module), "
          "and what was hoisted was recorded on the gpu.modules lowering "
          "replaced")
          << how;
      return mlirLogicalResultFailure();
    }
    for (Operation *binary : binaries)
      binary->emitWarning("the kernels of this gpu.binary are not in the "
                          "manifest: it was lowered")
          << how;
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

void flyhoistPrintContractKinds(MlirStringCallback callback, void *userData) {
  mlir::detail::CallbackOstream stream(callback, userData);
  stream << renderContractKindsJSON();
  stream.flush();
}

void flyhoistPrintLocation(MlirLocation location, MlirStringCallback callback,
                           void *userData) {
  mlir::detail::CallbackOstream stream(callback, userData);
  stream << spec::describeLocation(unwrap(location));
  stream.flush();
}

MlirLogicalResult flyhoistPrintKnownChips(MlirStringRef kind,
                                          MlirStringCallback callback,
                                          void *userData) {
  std::vector<std::string> chips = getKnownChips(unwrap(kind));
  if (chips.empty())
    return mlirLogicalResultFailure();
  mlir::detail::CallbackOstream stream(callback, userData);
  for (const std::string &chip : chips)
    stream << chip << "\n";
  stream.flush();
  return mlirLogicalResultSuccess();
}

//===----------------------------------------------------------------------===//
// Inference of spec.params from traces
//===----------------------------------------------------------------------===//

MlirLogicalResult
flyhoistInferSpecParams(MlirOperation base, intptr_t numOthers,
                        MlirOperation const *others, intptr_t numNames,
                        MlirStringRef const *names, int64_t const *values,
                        MlirStringCallback callback, void *userData) {
  if (mlirOperationIsNull(base) || numOthers < 0 || numNames < 0 ||
      (numOthers && !others) || (numNames && (!names || !values)))
    return mlirLogicalResultFailure();
  if (numOthers == 0) {
    unwrap(base)->emitError("inferring spec.params needs two or more traces; "
                            "got one");
    return mlirLogicalResultFailure();
  }
  SmallVector<Operation *> otherOps;
  for (intptr_t i = 0; i < numOthers; ++i) {
    if (mlirOperationIsNull(others[i]))
      return mlirLogicalResultFailure();
    otherOps.push_back(unwrap(others[i]));
  }
  SmallVector<FrontendValue> frontend;
  for (intptr_t i = 0; i < numNames; ++i) {
    FrontendValue value{unwrap(names[i]).str(), {}};
    for (intptr_t t = 0; t <= numOthers; ++t)
      value.values.push_back(values[i * (numOthers + 1) + t]);
    frontend.push_back(std::move(value));
  }
  FailureOr<SmallVector<InferredParam>> params =
      inferSpecParams(unwrap(base), otherOps, frontend);
  if (failed(params))
    return mlirLogicalResultFailure();
  mlir::detail::CallbackOstream stream(callback, userData);
  stream << llvm::json::Value(renderInferredParamsJSON(*params));
  stream.flush();
  return mlirLogicalResultSuccess();
}

MlirLogicalResult flyhoistParsePassPipeline(MlirOpPassManager passManager,
                                            MlirStringRef pipeline,
                                            MlirStringCallback callback,
                                            void *userData) {
  std::string errors;
  MlirLogicalResult result =
      mlirParsePassPipeline(passManager, pipeline, appendToString, &errors);
  if (mlirLogicalResultIsFailure(result) && !errors.empty())
    callback(mlirStringRefCreate(errors.data(), errors.size()), userData);
  return result;
}

MlirLogicalResult flyhoistMatchSpecParams(MlirOperation templateOp,
                                          MlirOperation trace,
                                          MlirStringCallback callback,
                                          void *userData) {
  if (mlirOperationIsNull(templateOp) || mlirOperationIsNull(trace))
    return mlirLogicalResultFailure();
  auto values = matchSpecParams(unwrap(templateOp), unwrap(trace));
  if (failed(values))
    return mlirLogicalResultFailure();
  mlir::detail::CallbackOstream stream(callback, userData);
  printMatchedValuesJSON(stream, *values);
  stream.flush();
  return mlirLogicalResultSuccess();
}

MlirLogicalResult flyhoistPrintSpecParams(MlirOperation op,
                                          MlirStringCallback callback,
                                          void *userData) {
  if (mlirOperationIsNull(op))
    return mlirLogicalResultFailure();
  mlir::detail::CallbackOstream stream(callback, userData);
  stream << llvm::json::Value(renderSpecParamsJSON(unwrap(op)));
  stream.flush();
  return mlirLogicalResultSuccess();
}

MlirLogicalResult flyhoistPrintTraceSignature(MlirOperation op,
                                              MlirStringCallback callback,
                                              void *userData) {
  if (mlirOperationIsNull(op))
    return mlirLogicalResultFailure();
  mlir::detail::CallbackOstream stream(callback, userData);
  stream << traceSignature(unwrap(op));
  stream.flush();
  return mlirLogicalResultSuccess();
}
