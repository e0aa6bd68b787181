//===- HoistRewrite.cpp - Carry out a hoisting plan -----------------------===//
//
// The steps, in order: each kernel's signature, body and record; the host
// arguments and every launch site (as the launch plan lists them); then the
// parameters left in host code and device functions.
//
//===----------------------------------------------------------------------===//

#include "HoistRewrite.h"

#include "HoistRecord.h"
#include "HoistRemarks.h"
#include "LaunchValues.h"
#include "SignatureEdits.h"

#include "flyhoist/Transforms/MaterializeSpecialization.h"

using namespace mlir;
using namespace mlir::flyhoist;
using spec::ParamOp;

/// Step 1: the function's new arguments, its parameters replaced,
/// materialized or erased. Returns the record entries of the kept ones, and
/// sets `arguments` (parallel to the plan's params) to the values of the new
/// arguments, which its launch sites may pass on.
static KeptRecordEntries rewriteKernel(KernelPlan &plan,
                                       SmallVector<KnownValue> &arguments,
                                       const HoistOptions &options) {
  FunctionOpInterface function = plan.kernel->function;
  KeptRecordEntries kept;
  arguments.assign(plan.params.size(), KnownValue());
  // The new arguments, appended in one step (planning numbered them in
  // plan order).
  SmallVector<Type> argumentTypes;
  SmallVector<Location> argumentLocs;
  for (ParamPlan &param : plan.params) {
    if (param.decision != ParamPlan::Decision::Hoist || !param.argumentIndex)
      continue;
    argumentTypes.push_back(param.encoding.argumentType(param.carrierType));
    argumentLocs.push_back(param.ops.empty() ? function.getLoc()
                                             : param.ops.front().getLoc());
  }
  SmallVector<Value> appended =
      appendArguments(function, argumentTypes, argumentLocs);
  auto nextArgument = appended.begin();
  for (auto [param, known] : llvm::zip_equal(plan.params, arguments)) {
    if (param.decision == ParamPlan::Decision::Hoist) {
      Value value;
      if (param.argumentIndex) {
        Value argument = *nextArgument++;
        assert(argument.getArgNumber() == *param.argumentIndex &&
               "arguments appended out of plan order");
        Value carrier = decodeArgument(function, argument, param.carrierType,
                                       param.encoding);
        // Cast back to index only for the function's own uses: a function
        // that passes the value on passes the carrier.
        bool ownUses = param.numWithEquals < param.ops.size();
        value = ownUses ? castCarrier(function, carrier, param.type) : carrier;
        known = {value, carrier};
      }
      for (ParamOp op : param.ops) {
        Value equals = param.numWithEquals ? op.getEquals() : Value();
        op.replaceAllUsesWith(equals ? equals : value);
      }
    } else if (param.decision == ParamPlan::Decision::Keep) {
      addKeptEntry(function, param, kept);
    }
    if (options.emitRemarks)
      remarkOnDecision(plan, param);
    reportToRemarkEngine(plan, param);
    if (param.decision != ParamPlan::Decision::Keep) {
      for (ParamOp op : param.ops)
        op.erase();
    } else if (options.materializeKept) {
      for (ParamOp op : param.ops)
        materializeParam(op);
    }
  }
  return kept;
}

void HoistRewriter::rewriteGroup(MutableArrayRef<KernelPlan> plans,
                                 const LaunchPlan &launches) {
  for (const KernelPlan &kernel : plans) {
    for (const ParamPlan &param : kernel.params) {
      switch (param.decision) {
      case ParamPlan::Decision::Hoist:
        ++summary.hoisted;
        break;
      case ParamPlan::Decision::Keep:
        ++summary.kept;
        break;
      case ParamPlan::Decision::Unused:
        ++summary.removed;
        break;
      }
    }
    if (llvm::any_of(kernel.params, [](const ParamPlan &param) {
          return param.argumentIndex;
        }))
      summary.launchSitesUpdated += kernel.kernel->launchSites.size();
  }
  // Every function of the group first (a launch site inside one passes its
  // new argument), then the host arguments and the launch sites, then the
  // records. Functions that hold no parameter and pass none on stay as they
  // are.
  std::vector<SmallVector<KnownValue>> arguments(plans.size());
  SmallVector<std::pair<KernelPlan *, KeptRecordEntries>, 1> rewritten;
  for (auto [kernel, held] : llvm::zip_equal(plans, arguments))
    if (!kernel.params.empty())
      rewritten.push_back({&kernel, rewriteKernel(kernel, held, options)});
  rewriteLaunchSites(launches, arguments, constants);
  for (auto &[kernel, kept] : rewritten)
    writeRecord(*kernel, kept);
}

HoistSummary HoistRewriter::finish(const LaunchPlanner &launches) {
  // Step 4: what is left (host code, parameters outside any function) is
  // materialized, except what hoist-into-host already replaced by a host
  // argument.
  for (ParamOp param : discovered.otherParams) {
    if (launches.isReplaced(param))
      continue;
    if (options.emitRemarks)
      remarkOnDeviceConstant(param);
    materializeParam(param);
  }
  return summary;
}
