//===- LaunchValues.cpp - What launch sites pass --------------------------===//

#include "LaunchValues.h"

#include "CreatedConstants.h"
#include "SignatureEdits.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::flyhoist;

/// `known` in `siteType`: its carrier or its value when one has that type
/// (the usual case), else cast at `site` (an index value passed to an
/// llvm.func, or the other way round).
static Value convert(Operation *site, KnownValue known, Type siteType) {
  if (known.carrier.getType() == siteType)
    return known.carrier;
  if (known.value.getType() == siteType)
    return known.value;
  OpBuilder builder(site);
  return arith::IndexCastOp::create(builder, site->getLoc(), siteType,
                                    known.value);
}

/// Appends `argument` to its host function and replaces the `spec.param`s
/// the plan says it replaces.
static KnownValue appendHostArgument(const HostArgument &argument) {
  FunctionOpInterface function = argument.function;
  Value appended =
      appendArguments(function, argument.carrierType, function.getLoc())
          .front();
  KnownValue known{castCarrier(function, appended, argument.type), appended};
  for (spec::ParamOp param : argument.replaces) {
    param.replaceAllUsesWith(known.value);
    param.erase();
  }
  return known;
}

void mlir::flyhoist::rewriteLaunchSites(
    const LaunchPlan &launches,
    ArrayRef<SmallVector<KnownValue>> kernelArguments,
    SmallVectorImpl<Value> &constants) {
  SmallVector<KnownValue> hostArguments;
  for (const HostArgument &argument : launches.hostArguments)
    hostArguments.push_back(appendHostArgument(argument));
  constants.resize(launches.numConstants);
  for (const SitePlan &sitePlan : launches.sites) {
    Operation *site = sitePlan.site;
    SmallVector<Value> passed;
    for (const PassedValue &planned : sitePlan.values) {
      Value value;
      switch (planned.source) {
      case PassedValue::Source::CallerArgument:
        value = convert(site, kernelArguments[planned.plan][planned.param],
                        planned.siteType);
        break;
      case PassedValue::Source::HostArgument:
        value = convert(site, hostArguments[planned.hostArgument],
                        planned.siteType);
        break;
      case PassedValue::Source::Constant:
        if (planned.createsConstant) {
          OpBuilder builder(planned.placedBefore);
          constants[planned.constant] =
              createConstant(builder, planned.placedBefore->getLoc(), site,
                             IntegerAttr::get(planned.siteType, planned.value));
        }
        value = constants[planned.constant];
        break;
      }
      OpBuilder builder(site);
      passed.push_back(
          encodeAtSite(builder, site->getLoc(), value, planned.encoding));
    }
    appendPassedArguments(site, passed);
  }
}
