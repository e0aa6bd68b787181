//===- HoistPlanning.cpp - What happens to each parameter -----------------===//
//
// Functions are planned in groups connected by calls. Within a group, two
// steps: each function's own parameters are classified by the use analysis
// (OwnParams.h); then every hoisted value is given the argument it arrives in
// (ArgumentPlanning.h).
//
//===----------------------------------------------------------------------===//

#include "HoistPlanning.h"

#include "ArgumentPlanning.h"
#include "OwnParams.h"

#include <numeric>

using namespace mlir;
using namespace mlir::flyhoist;

HoistPlanner::HoistPlanner(const DiscoveredModule &discovered,
                           const HoistOptions &options,
                           const StrideUseRules &rules)
    : discovered(discovered), options(options), rules(rules),
      ownParamScratch(std::make_unique<OwnParamScratch>()) {
  // Union-find over the calls between planned functions; each group is then
  // listed at its first function, which keeps groups and their functions in
  // IR order.
  unsigned count = discovered.kernels.size();
  std::vector<unsigned> parent(count);
  std::iota(parent.begin(), parent.end(), 0u);
  auto root = [&](unsigned function) {
    while (parent[function] != function)
      function = parent[function] = parent[parent[function]];
    return function;
  };
  for (auto [callee, kernel] : llvm::enumerate(discovered.kernels))
    for (Operation *site : kernel.launchSites) {
      auto caller = site->getParentOfType<FunctionOpInterface>();
      auto it = caller ? discovered.kernelIndex.find(caller)
                       : discovered.kernelIndex.end();
      if (it == discovered.kernelIndex.end())
        continue;
      unsigned a = root(callee), b = root(it->second);
      parent[std::max(a, b)] = std::min(a, b);
    }
  std::vector<unsigned> groupOf(count, ~0u);
  for (unsigned function = 0; function < count; ++function) {
    unsigned &group = groupOf[root(function)];
    if (group == ~0u) {
      group = groups.size();
      groups.emplace_back();
    }
    groups[group].push_back(function);
  }
}

HoistPlanner::~HoistPlanner() = default;

void HoistPlanner::planGroup(unsigned index, std::vector<KernelPlan> &plans) {
  // The plans of the last group are overwritten in place, reusing their
  // storage.
  plans.resize(groups[index].size());
  for (auto [plan, function] : llvm::zip_equal(plans, groups[index])) {
    plan.kernel = &discovered.kernels[function];
    planOwnParams(*plan.kernel, rules, options.hoistImmediateOffsets, scratch,
                  *ownParamScratch, plan.params);
  }
  planArguments(plans, options);
}
