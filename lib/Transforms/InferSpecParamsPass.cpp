//===- InferSpecParamsPass.cpp - infer-spec-params ------------------------===//
//
// The pass, a thin driver over inferSpecParams(): it reads the other traces
// (files, parsed in initialize() before any pass runs, or nested modules)
// and the frontend's values from its options.
//
//===----------------------------------------------------------------------===//

#include "flyhoist/Dialect/Spec/SpecDialect.h"
#include "flyhoist/Transforms/InferSpecParams.h"
#include "flyhoist/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/SourceMgr.h"

#include <memory>

namespace mlir::flyhoist {
#define GEN_PASS_DEF_INFERSPECPARAMS
#include "flyhoist/Transforms/Passes.h.inc"
} // namespace mlir::flyhoist

using namespace mlir;
using namespace mlir::flyhoist;

namespace {
struct InferSpecParamsPass
    : public flyhoist::impl::InferSpecParamsBase<InferSpecParamsPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    // Parsed here, before the pass manager runs anything, so that the
    // dialects they use are loaded outside of a multithreaded run.
    loaded = std::make_shared<Loaded>();
    for (const std::string &path : traces) {
      // One source manager per file: the parser reads its main buffer.
      auto &sourceMgr =
          loaded->sourceMgrs.emplace_back(std::make_unique<llvm::SourceMgr>());
      OwningOpRef<ModuleOp> module =
          parseSourceFile<ModuleOp>(path, *sourceMgr, ParserConfig(context));
      if (!module)
        return emitError(UnknownLoc::get(context))
               << "infer-spec-params: cannot read the trace '" << path << "'";
      loaded->traces.push_back(std::move(module));
    }
    return success();
  }

  /// Parses `values` (name=v0:v1:...) into what inferSpecParams takes.
  FailureOr<SmallVector<FrontendValue>> parseValues(unsigned numTraces) {
    SmallVector<FrontendValue> result;
    for (StringRef entry : values) {
      auto [name, list] = entry.split('=');
      FrontendValue value{name.trim().str(), {}};
      SmallVector<StringRef> pieces;
      list.split(pieces, ':');
      for (StringRef piece : pieces) {
        int64_t number;
        if (piece.trim().getAsInteger(10, number))
          return emitError(getOperation().getLoc())
                 << "infer-spec-params: bad value '" << piece << "' in '"
                 << entry << "' (name=v0:v1:...)";
        value.values.push_back(number);
      }
      if (value.name.empty() || value.values.size() != numTraces)
        return emitError(getOperation().getLoc())
               << "infer-spec-params: '" << entry << "' needs a name and "
               << numTraces << " values, one per trace";
      result.push_back(std::move(value));
    }
    return result;
  }

  /// A remark per parameter: where it came from and, when derived, how the
  /// kernel computes it.
  static void emitInferredRemark(const InferredParam &param) {
    InFlightDiagnostic remark = emitRemark(param.location)
                                << "inferred spec.param '" << param.name
                                << "' of type " << param.type << ": ";
    llvm::interleave(
        param.values, [&](int64_t v) { remark << v; }, [&] { remark << ", "; });
    remark << " in the traces (" << param.numUses << " use"
           << (param.numUses == 1 ? "" : "s") << ")";
    if (param.derived)
      remark << ", computed in the kernel as " << param.derived->scale << " * "
             << param.derived->root << " + " << param.derived->offset;
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Operation *base = module;
    SmallVector<Operation *> others;
    SmallVector<ModuleOp> nested;
    if (!loaded || loaded->traces.empty()) {
      for (Operation &op : module.getBody()->getOperations()) {
        auto trace = dyn_cast<ModuleOp>(op);
        if (!trace) {
          op.emitError("infer-spec-params: without 'traces', the module "
                       "holds only the traces, as nested modules");
          return signalPassFailure();
        }
        nested.push_back(trace);
      }
      if (nested.size() < 2) {
        module.emitError("infer-spec-params needs two or more traces (the "
                         "'traces' option or nested modules); got ")
            << (nested.empty() ? 1 : nested.size());
        return signalPassFailure();
      }
      base = nested.front();
      for (ModuleOp trace : ArrayRef(nested).drop_front())
        others.push_back(trace);
    } else {
      for (OwningOpRef<ModuleOp> &trace : loaded->traces)
        others.push_back(trace.get());
    }
    FailureOr<SmallVector<FrontendValue>> frontend =
        parseValues(others.size() + 1);
    if (failed(frontend))
      return signalPassFailure();
    FailureOr<SmallVector<InferredParam>> params =
        inferSpecParams(base, others, *frontend, nullptr, true, derive);
    if (failed(params))
      return signalPassFailure();
    for (const InferredParam &param : *params)
      emitInferredRemark(param);
    if (nested.empty())
      return;
    // The result is the first trace, as a plain module: its ops and
    // attributes move up and the traces go.
    ModuleOp result = nested.front();
    for (NamedAttribute attr : result->getAttrs())
      if (attr.getName() != SymbolTable::getSymbolAttrName())
        module->setAttr(attr.getName(), attr.getValue());
    Block *body = module.getBody();
    body->getOperations().splice(body->begin(),
                                 result.getBody()->getOperations());
    for (ModuleOp trace : nested)
      trace.erase();
  }

  /// The traces read from files (shared by clones of the pass, which the
  /// pass manager makes after initialize()).
  struct Loaded {
    SmallVector<std::unique_ptr<llvm::SourceMgr>> sourceMgrs;
    SmallVector<OwningOpRef<ModuleOp>> traces;
  };
  std::shared_ptr<Loaded> loaded;
};
} // namespace
