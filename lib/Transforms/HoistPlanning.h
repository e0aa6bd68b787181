//===- HoistPlanning.h - What happens to each parameter ---------*- C++ -*-===//
//
// Every decision of hoist-stride-specialization and its reason, made before
// anything is rewritten: per kernel and parameter name, hoist (and how the
// value travels), keep (and why, and where), or drop as unused.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_LIB_TRANSFORMS_HOISTPLANNING_H
#define FLYHOIST_LIB_TRANSFORMS_HOISTPLANNING_H

#include "ArgumentEncoding.h"
#include "KernelDiscovery.h"
#include "flyhoist/Analysis/StrideUseAnalysis.h"
#include "flyhoist/Transforms/HoistOptions.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::flyhoist {

struct OwnParamScratch;

/// One parameter name of one kernel (or device function) and what will
/// happen to it.
///
/// A module can have hundreds of thousands of these, all alive from planning
/// to the end of the rewrite: the fields are attributes and small vectors
/// rather than strings, so that a plan stays small.
struct ParamPlan {
  /// What happens to the parameter.
  enum class Decision { Hoist, Keep, Unused };

  /// The parameter's name, as the `spec.param`s spell it (an attribute: the
  /// plan compares and hashes names by pointer).
  StringAttr name;
  /// The value and type, kept here because `ops` are erased by the rewrite.
  int64_t value = 0;
  Type type;
  /// The function's `spec.param` ops of this name. Empty when the function
  /// holds none and only passes the value on to the functions it calls.
  SmallVector<spec::ParamOp, 1> ops;
  Decision decision = Decision::Keep;
  /// What planning needs to know of `ops` when the function must take an
  /// argument for the name, found while they are read anyway: whether they
  /// disagree on the type, and the first region isolated from above holding
  /// one without `equals` (no argument can reach it; null for none).
  bool mixedTypes = false;
  Operation *unreachableScope = nullptr;
  /// How many of `ops` have an `equals` value: with none (the usual case)
  /// the ops need not be asked again, with all the function's own uses take
  /// those values and need no argument.
  unsigned numWithEquals = 0;
  /// For Keep: why, and where the operation that needs the constant is
  /// (none when the reason is not one use). A location, not the operation:
  /// the rewrite erases operations (another parameter's `spec.param`, whose
  /// `equals` operand this one is) before it reports this one.
  spec::KeepReasonInfo reason;
  std::optional<Location> blockingLoc;
  /// For Hoist: the new argument, or std::nullopt when every op has an
  /// `equals` value, no callee needs the value, and the signature does not
  /// change.
  std::optional<unsigned> argumentIndex;
  /// For Hoist with an argument: the type the argument carries the value in,
  /// before the encoding. `type`, except for an index parameter of an
  /// `llvm.func`, whose arguments must have LLVM types: there the integer of
  /// the index width (the kernel casts it back to index).
  Type carrierType;
  /// For Hoist with an argument: how the value travels in it.
  ArgumentEncoding encoding;
  /// For Hoist: the `equals` contracts (#spec.equals and the like, see
  /// docs/MANIFEST.md), in IR order, without repeats.
  SmallVector<Attribute> equalsContracts;
  /// For Hoist with an argument: the first function this one passes the
  /// value on to (its symbol path), null when it passes it to none.
  StringAttr passedTo;
  /// For Hoist with an argument, with hoist-into-host: the number of the
  /// new argument the host function holding the first launch site takes for
  /// the value, which the record names (set by LaunchPlanner::plan).
  std::optional<unsigned> hostArgument;
  /// For Hoist with hoist-immediate-offsets: the number of accesses whose
  /// immediate offset field would have held the value had it been kept (an
  /// offset tail, findImmediateOffsetFold), each one runtime add hoisted.
  std::optional<unsigned> immediateOffsets;
};

/// One kernel (or device function) and the plan for its parameters.
struct KernelPlan {
  /// The function, its launch sites and its parameters as discovered.
  const DiscoveredKernel *kernel = nullptr;
  /// One plan per parameter name it holds or passes on, sorted by name (the
  /// argument order). Empty for a function that holds no parameter and
  /// passes none on: the rewrite leaves it alone.
  std::vector<ParamPlan> params;
};

/// Decides what happens to every parameter of every kernel and device
/// function discovery found, one group at a time. Reads the IR, changes
/// nothing, cannot fail.
///
/// A group is a set of functions connected by launches and calls between
/// them (a kernel and the device functions it calls, say): their plans
/// depend on each other and on nothing else, so a group's plan stays valid
/// while other groups are rewritten. Most groups are one kernel. Planning
/// group by group keeps the memory a plan needs to one group's worth, and the
/// IR it reads in cache while it is rewritten.
///
/// A parameter used only in addresses is hoisted into a new argument (or its
/// `equals` value). Device code passes values on: when a function gets an
/// argument for a name, every kernel or device function that calls it takes
/// that name as an argument too and passes it, whether or not it uses the
/// name itself; one that cannot (it keeps the name for its own uses, cannot
/// take an argument, holds it with another type, or calls from inside a
/// region isolated from above) keeps the name, with the reason, and passes
/// the constant. A `spec.param` without `equals` inside a region isolated
/// from above (e.g. `gpu.all_reduce`'s body) keeps its name: no argument can
/// reach it.
class HoistPlanner {
public:
  /// Groups the functions of `discovered`, which must outlive the planner.
  HoistPlanner(const DiscoveredModule &discovered, const HoistOptions &options,
               const StrideUseRules &rules);
  ~HoistPlanner();

  /// The number of groups.
  unsigned getNumGroups() const { return groups.size(); }

  /// Plans group `index` (groups are numbered in the IR order of their first
  /// function) into `plans`, one per function in IR order; what `plans` held
  /// before is dropped, its memory reused.
  void planGroup(unsigned index, std::vector<KernelPlan> &plans);

private:
  const DiscoveredModule &discovered;
  const HoistOptions &options;
  const StrideUseRules &rules;
  /// Each group's functions (indices into `discovered.kernels`), in IR order.
  std::vector<SmallVector<unsigned, 1>> groups;
  /// The use analysis' storage, reused from one function to the next.
  ParamUseScratch scratch;
  /// Planning's own working lists, reused the same way.
  std::unique_ptr<OwnParamScratch> ownParamScratch;
};

} // namespace mlir::flyhoist

#endif // FLYHOIST_LIB_TRANSFORMS_HOISTPLANNING_H
