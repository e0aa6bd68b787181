//===- MatchSpecParamsPass.cpp - match-spec-params ------------------------===//
//
// The pass, a thin driver over matchSpecParams(): the module's first nested
// module is the template, each next one a trace to match against it. The
// results are remarks and errors for people and, with `values-file`, JSON for
// tools, in the form the C API gives them (TraceJSON.h).
//
//===----------------------------------------------------------------------===//

#include "flyhoist/Dialect/Spec/SpecDialect.h"
#include "flyhoist/Transforms/InferSpecParams.h"
#include "flyhoist/Transforms/Passes.h"
#include "flyhoist/Transforms/TraceJSON.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/FileUtilities.h"

#include "llvm/Support/ToolOutputFile.h"

namespace mlir::flyhoist {
#define GEN_PASS_DEF_MATCHSPECPARAMS
#include "flyhoist/Transforms/Passes.h.inc"
} // namespace mlir::flyhoist

using namespace mlir;
using namespace mlir::flyhoist;

namespace {
using MatchedValues = SmallVector<std::pair<std::string, int64_t>>;

/// The remark a matching trace gets: `matched: p0 = 512, width = 128`.
void remarkMatched(ModuleOp trace, const MatchedValues &values) {
  InFlightDiagnostic remark = trace.emitRemark("matched: ");
  if (values.empty())
    remark << "no parameters";
  llvm::interleave(
      values,
      [&](const std::pair<std::string, int64_t> &value) {
        remark << value.first << " = " << value.second;
      },
      [&] { remark << ", "; });
}

/// One trace's entry of the values file: its location and its values, or
/// its mismatch.
void writeTraceEntry(llvm::json::OStream &json, ModuleOp trace,
                     const FailureOr<MatchedValues> &values,
                     const TraceMismatch &mismatch) {
  json.object([&] {
    json.attribute("location", spec::describeLocation(trace.getLoc()));
    if (failed(values)) {
      json.attribute("mismatch", renderTraceMismatchJSON(mismatch));
      return;
    }
    json.attributeBegin("values");
    json.rawValue(
        [&](llvm::raw_ostream &os) { printMatchedValuesJSON(os, *values); });
    json.attributeEnd();
  });
}

struct MatchSpecParamsPass
    : public flyhoist::impl::MatchSpecParamsBase<MatchSpecParamsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp root = getOperation();
    auto modules = root.getBody()->getOps<ModuleOp>();
    if (modules.empty()) {
      root.emitError(
          "match-spec-params needs a template and traces as nested modules");
      return signalPassFailure();
    }
    // Open the file first: a path that cannot be written fails before any
    // trace is matched, as the hoisting pass's manifest does.
    std::unique_ptr<llvm::ToolOutputFile> file;
    if (!valuesFile.empty()) {
      std::string error;
      file = openOutputFile(valuesFile, &error);
      if (!file) {
        root.emitError() << "cannot write match values '" << valuesFile
                         << "': " << error;
        return signalPassFailure();
      }
    }
    std::optional<llvm::json::OStream> json;
    if (file) {
      json.emplace(file->os(), /*IndentSize=*/2);
      json->arrayBegin();
    }
    ModuleOp templateOp = *modules.begin();
    bool failedAny = false;
    for (ModuleOp trace : llvm::drop_begin(modules)) {
      TraceMismatch mismatch{"", trace.getLoc(), trace.getLoc()};
      FailureOr<MatchedValues> values =
          matchSpecParams(templateOp, trace, &mismatch);
      if (failed(values))
        failedAny = true;
      else
        remarkMatched(trace, *values);
      if (json)
        writeTraceEntry(*json, trace, values, mismatch);
    }
    if (json) {
      json->arrayEnd();
      json.reset();
      file->os() << "\n";
      file->keep();
    }
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
