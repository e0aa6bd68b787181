//===- MatchSpecParamsPass.cpp - match-spec-params ------------------------===//
//
// The pass, a thin driver over matchSpecParams(): the module's first nested
// module is the template, each next one a trace to match against it.
//
//===----------------------------------------------------------------------===//

#include "flyhoist/Transforms/InferSpecParams.h"
#include "flyhoist/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"

namespace mlir::flyhoist {
#define GEN_PASS_DEF_MATCHSPECPARAMS
#include "flyhoist/Transforms/Passes.h.inc"
} // namespace mlir::flyhoist

using namespace mlir;
using namespace mlir::flyhoist;

namespace {
struct MatchSpecParamsPass
    : public flyhoist::impl::MatchSpecParamsBase<MatchSpecParamsPass> {
  using Base::Base;

  void runOnOperation() override {
    auto modules = getOperation().getBody()->getOps<ModuleOp>();
    if (modules.empty()) {
      getOperation().emitError(
          "match-spec-params needs a template and traces as nested modules");
      return signalPassFailure();
    }
    ModuleOp templateOp = *modules.begin();
    bool failedAny = false;
    for (ModuleOp trace : llvm::drop_begin(modules)) {
      auto values = matchSpecParams(templateOp, trace);
      if (failed(values)) {
        failedAny = true;
        continue;
      }
      InFlightDiagnostic remark = trace.emitRemark("matched: ");
      if (values->empty())
        remark << "no parameters";
      llvm::interleave(
          *values,
          [&](const std::pair<std::string, int64_t> &value) {
            remark << value.first << " = " << value.second;
          },
          [&] { remark << ", "; });
    }
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
