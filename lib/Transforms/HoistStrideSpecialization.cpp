//===- HoistStrideSpecialization.cpp - The hoisting pass ------------------===//
//
// hoistStrideSpecialization(), which frontends call directly, and the pass,
// a thin driver over it.
//
//===----------------------------------------------------------------------===//

#include "flyhoist/Transforms/HoistStrideSpecialization.h"

#include "HoistRewrite.h"
#include "KernelDiscovery.h"
#include "LaunchPlan.h"
#include "flyhoist/Transforms/Manifest.h"
#include "flyhoist/Transforms/OptionValues.h"
#include "flyhoist/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/ToolOutputFile.h"

#define DEBUG_TYPE "hoist-stride-specialization"

namespace mlir::flyhoist {
#define GEN_PASS_DEF_HOISTSTRIDESPECIALIZATION
#include "flyhoist/Transforms/Passes.h.inc"
} // namespace mlir::flyhoist

using namespace mlir;
using namespace mlir::flyhoist;

FailureOr<StrideUseRules> mlir::flyhoist::validateHoistOptions(
    const HoistOptions &options, function_ref<InFlightDiagnostic()> emitError) {
  if (options.divisibility > 1 && !llvm::isPowerOf2_64(options.divisibility))
    return emitError() << "divisibility=" << options.divisibility
                       << " must be a power of two (or 0 for off)";
  // The record holds a divisor as a signed 64-bit integer, and the widest
  // value it can describe (i64) has no larger power of two dividing a
  // non-zero positive value.
  if (options.divisibility > kMaxDivisibility)
    return emitError() << "divisibility=" << options.divisibility
                       << " is larger than 2^62 (" << kMaxDivisibility
                       << "), the largest divisor the record holds";
  std::string error;
  FailureOr<StrideUseRules> rules = StrideUseRules::parse(
      options.addressOperands, options.passThroughOperands, error);
  if (failed(rules))
    return emitError() << error;
  return rules;
}

/// hoistStrideSpecialization() once the context has the dialects the
/// rewrite creates ops of and the analysis' models attached: the pass's
/// dependent dialects see to that before it runs, so the pass starts here.
static FailureOr<HoistSummary>
hoistWithModelsAttached(ModuleOp module, const HoistOptions &options) {
  auto emitError = [&] { return module.emitError(); };
  FailureOr<StrideUseRules> rules = validateHoistOptions(options, emitError);
  if (failed(rules))
    return failure();
  // Open the manifest first: an unwritable path must fail before the
  // module changes.
  std::unique_ptr<llvm::ToolOutputFile> manifestFile;
  if (!options.manifestPath.empty()) {
    std::string error;
    manifestFile = openOutputFile(options.manifestPath, &error);
    if (!manifestFile)
      return module.emitError() << "cannot write manifest '"
                                << options.manifestPath << "': " << error;
  }
  FailureOr<DiscoveredModule> discovered = discoverKernels(module);
  if (failed(discovered))
    return failure();
  // Planning decides everything, step by step; the rewrite carries out
  // each step's plans as they are handed to it.
  LaunchPlanner launches(*discovered, options.hoistIntoHost);
  HoistRewriter rewriter(*discovered, options);
  planInSteps(*discovered, options, *rules, launches,
              [&](MutableArrayRef<KernelPlan> plans, const LaunchPlan &plan) {
                LLVM_DEBUG(printLaunchPlan(llvm::dbgs(), plans, plan));
                rewriter.rewriteGroup(plans, plan);
              });
  HoistSummary summary = rewriter.finish(launches);
  if (manifestFile) {
    manifestFile->os() << renderManifestJSON(module);
    manifestFile->keep();
  }
  return summary;
}

FailureOr<HoistSummary>
mlir::flyhoist::hoistStrideSpecialization(ModuleOp module,
                                          const HoistOptions &options) {
  // Called without a pass manager, nothing may have loaded the dialects of
  // the ops the rewrite creates, nor attached the analysis' models.
  MLIRContext *context = module.getContext();
  context->getOrLoadDialect<arith::ArithDialect>();
  context->getOrLoadDialect<LLVM::LLVMDialect>();
  DialectRegistry models;
  registerStrideUseExternalModels(models);
  context->appendDialectRegistry(models);
  return hoistWithModelsAttached(module, options);
}

namespace {
struct HoistStrideSpecializationPass
    : public flyhoist::impl::HoistStrideSpecializationBase<
          HoistStrideSpecializationPass> {
  using Base::Base;

  /// The pass's options as the API's options (only their storage differs).
  /// The structured binding names every field of the struct mlir-tblgen
  /// generates from Passes.td, in order: an option added there and not
  /// copied here stops the build instead of being silently ignored by
  /// fly-opt, the C API and Python.
  HoistOptions getHoistOptions() const {
    HoistOptions options;
    auto &[materializeKeptOut, emitRemarksOut, hoistIntoHostOut,
           divisibilityOut, narrowRangeOut, hoistImmediateOffsetsOut,
           addressOperandsOut, passThroughOperandsOut, manifestPathOut] =
        options;
    materializeKeptOut = materializeKept;
    emitRemarksOut = emitRemarks;
    hoistIntoHostOut = hoistIntoHost;
    divisibilityOut = divisibility;
    narrowRangeOut = narrowRange;
    hoistImmediateOffsetsOut = hoistImmediateOffsets;
    addressOperandsOut.assign(addressOperands.begin(), addressOperands.end());
    passThroughOperandsOut.assign(passThroughOperands.begin(),
                                  passThroughOperands.end());
    manifestPathOut = manifestPath;
    return options;
  }

  /// Checks the typed values (and the operand rules of the list options)
  /// before MLIR's parser sees them: LLVM's parsers would report a bad
  /// value on stderr only, while this reaches `errorHandler`, the pipeline
  /// parser's error stream, fly-opt's output and the C API's diagnostic.
  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    auto kindOf = [](StringRef key) -> std::optional<OptionKind> {
      return llvm::StringSwitch<std::optional<OptionKind>>(key)
          .Cases({"materialize-kept", "remarks", "hoist-into-host",
                  "narrow-range", "hoist-immediate-offsets"},
                 OptionKind::Bool)
          .Case("divisibility", OptionKind::Unsigned64)
          .Default(std::nullopt);
    };
    if (failed(checkOptionString(options, kindOf, errorHandler)) ||
        failed(Base::initializeOptions(options, errorHandler)))
      return failure();
    // The operand rules are data too: a malformed entry is an option error,
    // not a failure of the run.
    std::string error;
    if (failed(StrideUseRules::parse(
            SmallVector<std::string>(addressOperands.begin(),
                                     addressOperands.end()),
            SmallVector<std::string>(passThroughOperands.begin(),
                                     passThroughOperands.end()),
            error)))
      return errorHandler(error);
    return success();
  }

  /// Every option as data: {"values": {name: typed value}, "explicit":
  /// [names the parsed string set]}. The structured binding guards this as
  /// it guards getHoistOptions: a new option stops the build here.
  llvm::json::Object describeOptions() const {
    HoistOptions typed = getHoistOptions();
    auto &[materializeKeptValue, emitRemarksValue, hoistIntoHostValue,
           divisibilityValue, narrowRangeValue, hoistImmediateOffsetsValue,
           addressOperandsValue, passThroughOperandsValue, manifestPathValue] =
        typed;
    OptionsDescription json;
    json.add(materializeKept, materializeKeptValue);
    json.add(emitRemarks, emitRemarksValue);
    json.add(hoistIntoHost, hoistIntoHostValue);
    json.add(divisibility, divisibilityValue);
    json.add(narrowRange, narrowRangeValue);
    json.add(hoistImmediateOffsets, hoistImmediateOffsetsValue);
    json.add(addressOperands, llvm::json::Array(addressOperandsValue));
    json.add(passThroughOperands, llvm::json::Array(passThroughOperandsValue));
    json.add(manifestPath, manifestPathValue);
    return json.take();
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    // The analysis reads upstream ops through these models.
    registerStrideUseExternalModels(registry);
  }

  void runOnOperation() override {
    HoistOptions options = getHoistOptions();
    // getDependentDialects() has loaded the dialects and attached the
    // models: attaching them again would only cost time.
    FailureOr<HoistSummary> summary =
        hoistWithModelsAttached(getOperation(), options);
    if (failed(summary))
      return signalPassFailure();
    numHoisted += summary->hoisted;
    numKept += summary->kept;
    numRemoved += summary->removed;
    numLaunchSitesUpdated += summary->launchSitesUpdated;
  }
};
} // namespace

FailureOr<llvm::json::Object> mlir::flyhoist::describeHoistOptions(
    StringRef options,
    function_ref<LogicalResult(const Twine &)> errorHandler) {
  // The pass parses its own options, with every check fly-opt's and the C
  // API's parsers run (initializeOptions).
  HoistStrideSpecializationPass pass;
  if (failed(pass.initializeOptions(options, errorHandler)))
    return failure();
  return pass.describeOptions();
}
