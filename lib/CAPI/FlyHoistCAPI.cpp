//===- FlyHoistCAPI.cpp - Embedding C API for flyhoist --------------------===//
//
// Implements include/flyhoist-c/FlyHoist.h over the C++ API. Every entry
// point checks its arguments, captures the diagnostics emitted while it runs
// into a string, and reports failure through a status object: nothing is
// printed and nothing aborts on bad input.
//
//===----------------------------------------------------------------------===//

#include "flyhoist-c/FlyHoist.h"

#include "flyhoist/Dialect/Spec/SpecDialect.h"
#include "flyhoist/Transforms/HoistStrideSpecialization.h"
#include "flyhoist/Transforms/Manifest.h"
#include "flyhoist/Transforms/Passes.h"

#if __has_include("flyhoist/Pipelines/Pipelines.h")
#include "flyhoist/Pipelines/Pipelines.h"
#define FLYHOIST_CAPI_HAVE_PIPELINES 1
#endif

#include "mlir/Bytecode/BytecodeReader.h"
#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>

using namespace mlir;

//===----------------------------------------------------------------------===//
// Handle types
//===----------------------------------------------------------------------===//

struct flyhoist_status_t {
  flyhoist_status_code_t code;
  std::string message;
};

struct flyhoist_buffer_t {
  std::string bytes;
};

struct flyhoist_session_t {
  DialectRegistry registry;
  std::unique_ptr<MLIRContext> context;
  /// Modules still alive; the session refuses to die before them.
  unsigned liveModules = 0;
};

struct flyhoist_module_t {
  flyhoist_session_t *session = nullptr;
  /// Owns the parsed buffer, so diagnostics can quote source lines.
  llvm::SourceMgr sourceMgr;
  OwningOpRef<ModuleOp> module;
  /// The report of the last flyhoistModuleHoist, if any.
  std::optional<flyhoist::HoistReport> report;
  /// Remarks and warnings of the last successful run.
  std::string diagnostics;
};

namespace {

flyhoist_status_t *makeStatus(flyhoist_status_code_t code,
                              llvm::StringRef message) {
  auto *status = new flyhoist_status_t;
  status->code = code;
  status->message = message.str();
  if (status->message.empty())
    status->message = "unknown error";
  return status;
}

flyhoist_status_t *invalidArgument(llvm::StringRef what) {
  return makeStatus(FLYHOIST_STATUS_INVALID_ARGUMENT, what);
}

flyhoist_buffer_t *makeBuffer(std::string bytes) {
  auto *buffer = new flyhoist_buffer_t;
  buffer->bytes = std::move(bytes);
  return buffer;
}

/// Captures every diagnostic emitted on the context while alive into
/// `text`, formatted like mlir-opt does (located, with source lines when
/// the location is in `sourceMgr`).
class DiagnosticCapture {
public:
  DiagnosticCapture(MLIRContext *context, llvm::SourceMgr &sourceMgr)
      : stream(text), handler(sourceMgr, context, stream) {}

  /// Returns what was captured so far.
  std::string &str() { return text; }

private:
  std::string text;
  llvm::raw_string_ostream stream;
  SourceMgrDiagnosticHandler handler;
};

/// Registers the passes of every session once per process: the pass
/// registry is global.
void registerPassesOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    registerAllPasses();
    flyhoist::registerFlyHoistPasses();
#ifdef FLYHOIST_CAPI_HAVE_PIPELINES
    flyhoist::registerFlyHoistPipelines();
#endif
  });
}

/// Parses `pipeline` (anchored on builtin.module, or a bare list) into `pm`.
LogicalResult parsePipelineInto(llvm::StringRef pipeline, PassManager &pm,
                                llvm::raw_ostream &errors) {
  llvm::StringRef text = pipeline.trim();
  if (text.consume_front("builtin.module(")) {
    if (!text.consume_back(")")) {
      errors << "unbalanced parentheses in pipeline '" << pipeline << "'";
      return failure();
    }
  }
  return parsePassPipeline(text, pm, errors);
}

/// Runs `pipeline` over `module`, appending diagnostics to `log`. Returns
/// null on success.
flyhoist_status_t *runPipelineOn(ModuleOp module, llvm::StringRef pipeline,
                                 std::string &log,
                                 flyhoist_status_code_t passFailureCode) {
  PassManager pm(module.getContext());
  std::string parseErrors;
  llvm::raw_string_ostream parseStream(parseErrors);
  if (failed(parsePipelineInto(pipeline, pm, parseStream))) {
    std::string message = "invalid pass pipeline '" + pipeline.str() + "'";
    if (!parseErrors.empty())
      message += ": " + parseErrors;
    if (!log.empty())
      message += "\n" + log;
    return makeStatus(FLYHOIST_STATUS_PIPELINE_ERROR, message);
  }
  if (failed(pm.run(module))) {
    std::string message = "pass pipeline '" + pipeline.str() + "' failed";
    if (!log.empty())
      message += ":\n" + log;
    return makeStatus(passFailureCode, message);
  }
  return nullptr;
}

/// Finds the gpu.module (or gpu.binary, `binaries`) named `name`, or the only
/// one when `name` is null.
template <typename OpTy>
FailureOr<OpTy> findGPUSymbol(ModuleOp module, const char *name,
                              std::string &error) {
  SmallVector<OpTy> candidates;
  for (OpTy op : module.getBody()->getOps<OpTy>())
    if (!name || op.getSymName() == name)
      candidates.push_back(op);
  llvm::StringRef kind = OpTy::getOperationName();
  if (candidates.empty()) {
    error = name ? ("no " + kind + " named '" + name + "' in the module").str()
                 : ("no " + kind + " in the module").str();
    return failure();
  }
  if (candidates.size() > 1) {
    error = ("the module holds several " + kind + " ops; name one").str();
    return failure();
  }
  return candidates.front();
}

/// Rebuilds a report from the `spec.hoisted` attributes, for a module that
/// went through the pass inside a pipeline: the hoisted parameters only (the
/// kept ones are materialized and leave no trace).
flyhoist::HoistReport reportFromAttributes(ModuleOp module) {
  flyhoist::HoistReport report;
  module.walk([&](Operation *op) {
    auto hoisted = op->getAttrOfType<ArrayAttr>(flyhoist::spec::kHoistedAttrName);
    if (!hoisted)
      return;
    flyhoist::KernelReport kernel;
    auto name = op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
    std::string symbol = name ? ("@" + name.getValue()).str() : "";
    if (auto parent = op->getParentOfType<gpu::GPUModuleOp>())
      symbol = ("@" + parent.getSymName() + "::" + symbol).str();
    kernel.symbol = symbol;
    for (Attribute entry : hoisted) {
      auto dict = dyn_cast<DictionaryAttr>(entry);
      if (!dict)
        continue;
      flyhoist::HoistedParam param;
      if (auto paramName = dict.getAs<StringAttr>("name"))
        param.name = paramName.getValue().str();
      if (auto type = dict.getAs<TypeAttr>("type"))
        param.type = type.getValue();
      if (auto index = dict.getAs<IntegerAttr>("argument"))
        param.argumentIndex = index.getInt();
      kernel.hoisted.push_back(std::move(param));
    }
    report.kernels.push_back(std::move(kernel));
  });
  return report;
}

/// The toolkit folder for ld.lld: the argument, the environment, else the
/// one the build made.
std::string resolveToolkit(const char *toolkitPath) {
  if (toolkitPath && *toolkitPath)
    return toolkitPath;
  for (const char *var : {"FLYHOIST_TOOLKIT_PATH", "ROCM_PATH"})
    if (std::optional<std::string> value = llvm::sys::Process::GetEnv(var))
      if (!value->empty())
        return *value;
#ifdef FLYHOIST_CAPI_HAVE_PIPELINES
  return flyhoist::getDefaultAMDGPUToolkitPath().str();
#else
  return "";
#endif
}

bool isIdentifier(llvm::StringRef text) {
  return !text.empty() && llvm::all_of(text, [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '-';
  });
}

} // namespace

//===----------------------------------------------------------------------===//
// Versioning, status, buffers
//===----------------------------------------------------------------------===//

uint32_t flyhoistGetAPIVersion(void) {
  return (static_cast<uint32_t>(FLYHOIST_API_VERSION_MAJOR) << 16) |
         FLYHOIST_API_VERSION_MINOR;
}

const char *flyhoistGetRevision(void) {
  return "flyhoist C API 0.1 (MLIR " LLVM_VERSION_STRING ")";
}

flyhoist_status_code_t flyhoistStatusGetCode(const flyhoist_status_t *status) {
  return status ? status->code : FLYHOIST_STATUS_OK;
}

const char *flyhoistStatusGetMessage(const flyhoist_status_t *status) {
  return status ? status->message.c_str() : "";
}

void flyhoistStatusDestroy(flyhoist_status_t *status) { delete status; }

const void *flyhoistBufferGetData(const flyhoist_buffer_t *buffer) {
  return buffer ? buffer->bytes.c_str() : nullptr;
}

size_t flyhoistBufferGetSize(const flyhoist_buffer_t *buffer) {
  return buffer ? buffer->bytes.size() : 0;
}

void flyhoistBufferDestroy(flyhoist_buffer_t *buffer) { delete buffer; }

//===----------------------------------------------------------------------===//
// Sessions
//===----------------------------------------------------------------------===//

flyhoist_status_t *flyhoistSessionCreate(flyhoist_session_t **outSession) {
  if (!outSession)
    return invalidArgument("flyhoistSessionCreate: outSession is NULL");
  registerPassesOnce();
  auto session = std::make_unique<flyhoist_session_t>();
  registerAllDialects(session->registry);
  registerAllExtensions(session->registry);
  // gpu-module-to-binary translates each gpu.module to LLVM IR in-process.
  registerAllToLLVMIRTranslations(session->registry);
  session->registry.insert<flyhoist::spec::SpecDialect>();
  // No thread pool: an embedding process (a Python interpreter, a serving
  // runtime) owns its threads.
  session->context = std::make_unique<MLIRContext>(
      session->registry, MLIRContext::Threading::DISABLED);
  // Diagnostics that escape a call's capture are dropped, never printed.
  session->context->getDiagEngine().registerHandler(
      [](Diagnostic &) { return success(); });
  *outSession = session.release();
  return nullptr;
}

void flyhoistSessionDestroy(flyhoist_session_t *session) {
  // Destroying a session with live modules would leave them dangling; keep
  // the session alive instead (a leak, not a crash).
  if (session && session->liveModules == 0)
    delete session;
}

//===----------------------------------------------------------------------===//
// Modules
//===----------------------------------------------------------------------===//

flyhoist_status_t *flyhoistModuleParse(flyhoist_session_t *session,
                                       const void *data, size_t size,
                                       const char *bufferName,
                                       flyhoist_module_t **outModule) {
  if (!session || !outModule)
    return invalidArgument("flyhoistModuleParse: NULL session or outModule");
  if (!data && size != 0)
    return invalidArgument("flyhoistModuleParse: NULL data");
  auto module = std::make_unique<flyhoist_module_t>();
  module->session = session;
  llvm::StringRef bytes(static_cast<const char *>(data), data ? size : 0);
  // A copy: the caller's memory may go away, and bytecode wants alignment.
  module->sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          bytes, bufferName && *bufferName ? bufferName : "<flyhoist-input>"),
      llvm::SMLoc());

  MLIRContext *context = session->context.get();
  DiagnosticCapture capture(context, module->sourceMgr);
  ParserConfig config(context);
  module->module = parseSourceFile<ModuleOp>(module->sourceMgr, config);
  if (!module->module)
    return makeStatus(FLYHOIST_STATUS_PARSE_ERROR,
                      "could not parse the module:\n" + capture.str());
  ++session->liveModules;
  *outModule = module.release();
  return nullptr;
}

void flyhoistModuleDestroy(flyhoist_module_t *module) {
  if (!module)
    return;
  flyhoist_session_t *session = module->session;
  delete module;
  if (session && session->liveModules)
    --session->liveModules;
}

flyhoist_status_t *flyhoistModuleRunPipeline(flyhoist_module_t *module,
                                             const char *pipeline) {
  if (!module || !pipeline)
    return invalidArgument("flyhoistModuleRunPipeline: NULL module or pipeline");
  DiagnosticCapture capture(module->module->getContext(), module->sourceMgr);
  if (flyhoist_status_t *status = runPipelineOn(
          *module->module, pipeline, capture.str(), FLYHOIST_STATUS_PASS_FAILURE))
    return status;
  module->report.reset();
  module->diagnostics = capture.str();
  return nullptr;
}

flyhoist_status_t *flyhoistModuleHoist(flyhoist_module_t *module,
                                       uint32_t flags) {
  if (!module)
    return invalidArgument("flyhoistModuleHoist: NULL module");
  if (flags & ~uint32_t(FLYHOIST_HOIST_KEEP_PARAMS | FLYHOIST_HOIST_NO_REMARKS))
    return invalidArgument("flyhoistModuleHoist: unknown flags");
  flyhoist::HoistOptions options;
  options.materializeKept = !(flags & FLYHOIST_HOIST_KEEP_PARAMS);
  options.emitRemarks = !(flags & FLYHOIST_HOIST_NO_REMARKS);
  DiagnosticCapture capture(module->module->getContext(), module->sourceMgr);
  FailureOr<flyhoist::HoistReport> report =
      flyhoist::hoistStrideSpecialization(*module->module, options);
  if (failed(report))
    return makeStatus(FLYHOIST_STATUS_PASS_FAILURE,
                      "hoist-stride-specialization failed:\n" + capture.str());
  module->report = std::move(*report);
  module->diagnostics = capture.str();
  return nullptr;
}

flyhoist_status_t *flyhoistModuleGetDiagnostics(flyhoist_module_t *module,
                                                flyhoist_buffer_t **outText) {
  if (!module || !outText)
    return invalidArgument("flyhoistModuleGetDiagnostics: NULL argument");
  *outText = makeBuffer(module->diagnostics);
  return nullptr;
}

flyhoist_status_t *flyhoistModulePrint(flyhoist_module_t *module, int generic,
                                       flyhoist_buffer_t **outText) {
  if (!module || !outText)
    return invalidArgument("flyhoistModulePrint: NULL argument");
  std::string text;
  llvm::raw_string_ostream os(text);
  OpPrintingFlags flags;
  if (generic)
    flags.printGenericOpForm();
  module->module->print(os, flags);
  *outText = makeBuffer(std::move(text));
  return nullptr;
}

flyhoist_status_t *flyhoistModuleWriteBytecode(flyhoist_module_t *module,
                                               flyhoist_buffer_t **outBytes) {
  if (!module || !outBytes)
    return invalidArgument("flyhoistModuleWriteBytecode: NULL argument");
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  DiagnosticCapture capture(module->module->getContext(), module->sourceMgr);
  if (failed(writeBytecodeToFile(*module->module, os)))
    return makeStatus(FLYHOIST_STATUS_COMPILE_ERROR,
                      "could not write bytecode:\n" + capture.str());
  *outBytes = makeBuffer(std::move(bytes));
  return nullptr;
}

flyhoist_status_t *flyhoistModuleGetManifest(flyhoist_module_t *module,
                                             flyhoist_buffer_t **outJSON) {
  if (!module || !outJSON)
    return invalidArgument("flyhoistModuleGetManifest: NULL argument");
  flyhoist::HoistReport report = module->report
                                     ? *module->report
                                     : reportFromAttributes(*module->module);
  *outJSON = makeBuffer(flyhoist::renderManifestJSON(*module->module, report));
  return nullptr;
}

flyhoist_status_t *flyhoistModuleGetFingerprint(flyhoist_module_t *module,
                                                const char *gpuModuleName,
                                                flyhoist_buffer_t **outHex) {
  if (!module || !outHex)
    return invalidArgument("flyhoistModuleGetFingerprint: NULL argument");
  std::string error;
  FailureOr<gpu::GPUModuleOp> gpuModule =
      findGPUSymbol<gpu::GPUModuleOp>(*module->module, gpuModuleName, error);
  if (failed(gpuModule))
    return makeStatus(FLYHOIST_STATUS_NOT_FOUND, error);
  *outHex = makeBuffer(flyhoist::fingerprintGPUModule(*gpuModule));
  return nullptr;
}

flyhoist_status_t *flyhoistModuleCompile(flyhoist_module_t *module,
                                         const char *chip, const char *format,
                                         const char *toolkitPath,
                                         const char *gpuModuleName,
                                         flyhoist_buffer_t **outObject) {
  if (!module || !chip || !outObject)
    return invalidArgument("flyhoistModuleCompile: NULL module, chip or "
                           "outObject");
  llvm::StringRef chipName(chip);
  llvm::StringRef formatName(format ? format : "bin");
  if (!chipName.starts_with("gfx") || !isIdentifier(chipName))
    return invalidArgument("flyhoistModuleCompile: '" + chipName.str() +
                           "' is not an AMDGPU chip (gfx942, gfx950, ...)");
  if (formatName != "bin" && formatName != "isa")
    return invalidArgument("flyhoistModuleCompile: format must be 'bin' or "
                           "'isa', not '" +
                           formatName.str() + "'");
  std::string toolkit = resolveToolkit(toolkitPath);
  if (llvm::any_of(toolkit, [](char c) {
        return c == ' ' || c == '{' || c == '}' || c == '"';
      }))
    return invalidArgument("flyhoistModuleCompile: unsupported character in "
                           "toolkit path '" +
                           toolkit + "'");

  std::string error;
  if (failed(findGPUSymbol<gpu::GPUModuleOp>(*module->module, gpuModuleName,
                                             error)))
    return makeStatus(FLYHOIST_STATUS_NOT_FOUND, error);

  OwningOpRef<ModuleOp> copy = module->module->clone();
  DiagnosticCapture capture(module->module->getContext(), module->sourceMgr);
  flyhoist_status_t *status = nullptr;
#ifdef FLYHOIST_CAPI_HAVE_PIPELINES
  {
    PassManager pm(copy->getContext());
    pm.addPass(flyhoist::createMaterializeSpecialization());
    flyhoist::AMDGPUPipelineOptions options;
    options.chip = chipName.str();
    options.format = formatName.str();
    options.toolkit = toolkit;
    flyhoist::buildAMDGPUPipeline(pm, options);
    if (failed(pm.run(*copy)))
      status = makeStatus(FLYHOIST_STATUS_COMPILE_ERROR,
                          "compiling for " + chipName.str() +
                              " failed:\n" + capture.str());
  }
#else
  {
    // Upstream passes only: enough for kernels in the gpu, arith, memref,
    // vector, scf and cf dialects.
    std::string pipeline =
        "builtin.module(materialize-specialization,rocdl-attach-target{chip=" +
        chipName.str() + "},gpu.module(convert-scf-to-cf,convert-gpu-to-rocdl{" +
        "chipset=" + chipName.str() + "}),reconcile-unrealized-casts," +
        "gpu-module-to-binary{format=" + formatName.str();
    if (!toolkit.empty())
      pipeline += " toolkit=" + toolkit;
    pipeline += "})";
    status = runPipelineOn(*copy, pipeline, capture.str(),
                           FLYHOIST_STATUS_COMPILE_ERROR);
  }
#endif
  if (status)
    return status;

  FailureOr<gpu::BinaryOp> binary =
      findGPUSymbol<gpu::BinaryOp>(*copy, gpuModuleName, error);
  if (failed(binary))
    return makeStatus(FLYHOIST_STATUS_COMPILE_ERROR,
                      "the pipeline produced no code object: " + error);
  for (Attribute attr : binary->getObjects()) {
    if (auto object = dyn_cast<gpu::ObjectAttr>(attr)) {
      *outObject = makeBuffer(object.getObject().getValue().str());
      return nullptr;
    }
  }
  return makeStatus(FLYHOIST_STATUS_COMPILE_ERROR,
                    "gpu.binary holds no object");
}
