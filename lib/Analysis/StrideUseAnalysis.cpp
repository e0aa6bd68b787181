//===- StrideUseAnalysis.cpp - Are a parameter's uses address-only? -------===//
//
// How a use counts comes from, in order: a rule named in the pass options,
// the user's StrideUseOpInterface (StrideUseModels.cpp for upstream ops),
// the control-flow interfaces. Anything else keeps the parameter: the
// analysis only hoists what it can prove. One propagation then carries the
// set of parameters reaching each value and facet, in IR order.
//
//===----------------------------------------------------------------------===//

#include "flyhoist/Analysis/StrideUseAnalysis.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::flyhoist;

namespace {
using Kind = UseVerdict::Kind;

//===----------------------------------------------------------------------===//
// Control flow (the region-successor API is used here only)
//===----------------------------------------------------------------------===//

/// If `use` is among the `forwarded` operands, adds the successor input it
/// reaches, in the same facet, to `reached`.
void addForwardedInput(OperandRange forwarded, ValueRange inputs,
                       OpOperand &use, unsigned facet,
                       SmallVectorImpl<FacetedValue> &reached) {
  if (forwarded.empty()) // an empty range has no operand index to ask for
    return;
  unsigned first = forwarded.getBeginOperandIndex();
  unsigned number = use.getOperandNumber();
  if (number < first || number >= first + forwarded.size())
    return;
  if (unsigned index = number - first; index < inputs.size())
    reached.push_back({inputs[index], facet});
}

/// Uses by region-holding control flow (scf.for, scf.if, scf.while, ...):
/// forwarded operands reach block arguments and results; the others are
/// bounds or conditions.
UseVerdict regionBranchOperand(RegionBranchOpInterface branch, OpOperand &use,
                               unsigned facet) {
  SmallVector<RegionSuccessor> successors;
  branch.getSuccessorRegions(RegionBranchPoint::parent(), successors);
  SmallVector<FacetedValue> reached;
  for (const RegionSuccessor &successor : successors)
    addForwardedInput(branch.getEntrySuccessorOperands(successor),
                      successor.getSuccessorInputs(), use, facet, reached);
  if (!reached.empty())
    return UseVerdict::passThrough(reached);
  if (isa<LoopLikeOpInterface>(branch.getOperation()))
    return UseVerdict::blocking(BlockReason::LoopBound);
  return UseVerdict::blocking(BlockReason::BranchCondition);
}

/// Uses by region terminators (scf.yield, scf.condition): forwarded operands
/// reach the parent's results or the next iteration's block arguments.
UseVerdict regionTerminatorOperand(RegionBranchTerminatorOpInterface terminator,
                                   OpOperand &use, unsigned facet) {
  auto parent = dyn_cast<RegionBranchOpInterface>(terminator->getParentOp());
  if (!parent)
    return UseVerdict::blocking(BlockReason::UnknownOperand);
  SmallVector<RegionSuccessor> successors;
  parent.getSuccessorRegions(RegionBranchPoint(terminator), successors);
  SmallVector<FacetedValue> reached;
  for (const RegionSuccessor &successor : successors)
    addForwardedInput(terminator.getSuccessorOperands(successor),
                      successor.getSuccessorInputs(), use, facet, reached);
  if (!reached.empty())
    return UseVerdict::passThrough(reached);
  return UseVerdict::blocking(BlockReason::BranchCondition);
}
} // namespace

//===----------------------------------------------------------------------===//
// Rules named in options
//===----------------------------------------------------------------------===//

FailureOr<StrideUseRules>
StrideUseRules::parse(ArrayRef<std::string> addressOperands,
                      ArrayRef<std::string> passThroughOperands,
                      std::string &error) {
  StrideUseRules result;
  auto parseEntries = [&](ArrayRef<std::string> entries, OperandRole role,
                          StringRef optionName) -> LogicalResult {
    for (StringRef entry : entries) {
      entry = entry.trim();
      auto malformed = [&](StringRef why) {
        error = (optionName + " entry '" + entry + "': " + why +
                 " (expected 'dialect.op[operand numbers]', e.g. "
                 "'fly.buffer_load[1,2]')")
                    .str();
        return failure();
      };
      size_t open = entry.find('[');
      if (open == StringRef::npos || !entry.ends_with("]"))
        return malformed("no operand list");
      StringRef name = entry.take_front(open).trim();
      if (!name.contains('.') || name.starts_with(".") || name.ends_with("."))
        return malformed("the operation name needs a dialect prefix");
      SmallVector<StringRef> numbers;
      entry.drop_front(open + 1).drop_back().split(numbers, ',');
      for (StringRef text : numbers) {
        unsigned number;
        if (text.trim().getAsInteger(10, number))
          return malformed("'" + text.trim().str() +
                           "' is not an operand number");
        auto [it, inserted] = result.rules[name].try_emplace(number, role);
        if (!inserted && it->second != role)
          return malformed("operand " + std::to_string(number) +
                           " is declared both an address and pass-through");
      }
    }
    return success();
  };
  if (failed(parseEntries(addressOperands, OperandRole::Address,
                          "address-operands")) ||
      failed(parseEntries(passThroughOperands, OperandRole::PassThrough,
                          "pass-through-operands")))
    return failure();
  return result;
}

std::optional<UseVerdict> StrideUseRules::classify(OpOperand &use,
                                                   unsigned facet) const {
  if (rules.empty()) // the common case: skip hashing the name per use
    return std::nullopt;
  Operation *op = use.getOwner();
  auto it = rules.find(op->getName().getStringRef());
  if (it == rules.end())
    return std::nullopt;
  auto role = it->second.find(use.getOperandNumber());
  if (role == it->second.end())
    return UseVerdict::blocking(BlockReason::UnknownOperand);
  if (role->second == OperandRole::Address)
    return UseVerdict::sink();
  return UseVerdict::passThrough(op->getResults(), facet);
}

//===----------------------------------------------------------------------===//
// Classification
//===----------------------------------------------------------------------===//

UseVerdict mlir::flyhoist::classifyUse(OpOperand &use, unsigned facet,
                                       const StrideUseRules &rules) {
  Operation *op = use.getOwner();
  if (std::optional<UseVerdict> verdict = rules.classify(use, facet))
    return *verdict;
  if (auto model = dyn_cast<StrideUseOpInterface>(op))
    return model.classifyStrideUse(use, facet);
  // Function returns are return-like terminators too: test them first.
  if (op->hasTrait<OpTrait::ReturnLike>() &&
      isa_and_nonnull<FunctionOpInterface>(op->getParentOp()))
    return UseVerdict::blocking(BlockReason::ReturnOperand);
  if (auto branch = dyn_cast<RegionBranchOpInterface>(op))
    return regionBranchOperand(branch, use, facet);
  if (auto terminator = dyn_cast<RegionBranchTerminatorOpInterface>(op))
    return regionTerminatorOperand(terminator, use, facet);
  if (auto branch = dyn_cast<BranchOpInterface>(op)) {
    if (std::optional<BlockArgument> argument =
            branch.getSuccessorBlockArgument(use.getOperandNumber()))
      return UseVerdict::passThrough({FacetedValue{*argument, facet}});
    return UseVerdict::blocking(BlockReason::BranchCondition);
  }
  return UseVerdict::blocking(BlockReason::UnknownOperation);
}

//===----------------------------------------------------------------------===//
// The propagation
//===----------------------------------------------------------------------===//

/// The facets a value of `type` has: memrefs and pointers two, structs one
/// per leaf, everything else one. A facet a type does not have (an integer
/// from a pointer's bound facet, say) becomes the whole value.
static unsigned normalizeFacet(Type type, unsigned facet) {
  if (isa<BaseMemRefType, LLVM::LLVMPointerType>(type))
    return facet <= 1 ? facet : kValueFacet;
  if (isa<LLVM::LLVMStructType>(type))
    return facet < getStructFacet(getNumLeafFields(type), 0) ? facet
                                                             : kValueFacet;
  return kValueFacet;
}

/// A value and a facet, as a map key.
using Node = std::pair<Value, unsigned>;
/// (IR position, node number): the worklist's entries.
using QueueEntry = std::pair<uint64_t, unsigned>;

/// The propagation's working storage: node numbers, the nodes, and per node
/// the parameters that reached it and those it passed on (rows of 64-bit
/// words), whether it is queued; the IR order of the scope's operations; the
/// worklist, a heap ordered by IR position.
struct mlir::flyhoist::ParamUseScratch::Storage {
  DenseMap<Node, unsigned> nodeIndex;
  std::vector<Node> nodes;
  std::vector<uint64_t> reached;
  std::vector<uint64_t> propagated;
  std::vector<bool> queued;
  DenseMap<Operation *, uint64_t> order;
  std::vector<QueueEntry> worklist;

  /// Empties everything, keeping the memory.
  void clear() {
    nodeIndex.clear();
    nodes.clear();
    reached.clear();
    propagated.clear();
    queued.clear();
    order.clear();
    worklist.clear();
  }
};

ParamUseScratch::ParamUseScratch() : impl(std::make_unique<Storage>()) {}
ParamUseScratch::~ParamUseScratch() = default;

namespace {
/// Orders the worklist heap: the earliest IR position on top.
struct LaterFirst {
  bool operator()(const QueueEntry &a, const QueueEntry &b) const {
    return a.first > b.first;
  }
};

/// One propagation of every parameter of a scope at once: each node (value,
/// facet) holds the set of parameters that reach it; a node is processed in
/// IR order, and again only when a back edge (a loop's iter_args, a cf
/// loop's block arguments) brings it parameters it did not have.
///
/// The sets are rows of 64-bit words in two flat arrays indexed by node
/// number (a kernel with 64 parameters needs one word per set), in storage
/// a caller may keep from one scope to the next.
class Propagation {
public:
  Propagation(Operation *scope, unsigned numParams, const StrideUseRules &rules,
              const UseVisitor &visitor, ParamUseScratch::Storage &storage)
      : scope(scope), numParams(numParams),
        words(std::max(1u, llvm::divideCeil(numParams, 64))), rules(rules),
        visitor(visitor), summaries(numParams), nodeIndex(storage.nodeIndex),
        nodes(storage.nodes), reached(storage.reached),
        propagated(storage.propagated), queued(storage.queued),
        order(storage.order), worklist(storage.worklist) {
    storage.clear();
  }

  /// Parameter `param` reaches `value` (a root).
  void seed(Value value, unsigned param) {
    SmallVector<uint64_t, 4> bits(words, 0);
    bits[param / 64] |= uint64_t(1) << (param % 64);
    reach({value, kValueFacet}, bits);
  }

  /// Runs to the fixpoint and returns the summaries.
  SmallVector<ParamUseSummary> run() {
    SmallVector<uint64_t, 4> delta(words);
    while (!worklist.empty()) {
      std::pop_heap(worklist.begin(), worklist.end(), LaterFirst());
      unsigned index = worklist.back().second;
      worklist.pop_back();
      queued[index] = false;
      // Only the parameters this node has not yet passed on (copied: the
      // uses below may add nodes and move the arrays).
      bool any = false;
      for (unsigned w = 0; w < words; ++w) {
        delta[w] = reached[index * words + w] & ~propagated[index * words + w];
        propagated[index * words + w] |= delta[w];
        any |= delta[w] != 0;
      }
      if (!any)
        continue;
      auto [value, facet] = nodes[index];
      for (OpOperand &use : value.getUses())
        visitUse(use, facet, delta);
    }
    return std::move(summaries);
  }

private:
  /// Adds `bits` to the parameters reaching `node`; queues it if it grew.
  void reach(Node node, ArrayRef<uint64_t> bits) {
    node.second = normalizeFacet(node.first.getType(), node.second);
    auto [it, inserted] = nodeIndex.try_emplace(node, nodes.size());
    unsigned index = it->second;
    if (inserted) {
      nodes.push_back(node);
      // One push per word: a resize per node is an out-of-line call.
      for (unsigned w = 0; w < words; ++w) {
        reached.push_back(0);
        propagated.push_back(0);
      }
      queued.push_back(false);
    }
    bool grew = false;
    for (unsigned w = 0; w < words; ++w) {
      uint64_t added = bits[w] & ~reached[index * words + w];
      reached[index * words + w] |= added;
      grew |= added != 0;
    }
    if (!grew || queued[index])
      return;
    queued[index] = true;
    worklist.push_back({orderOf(node.first), index});
    std::push_heap(worklist.begin(), worklist.end(), LaterFirst());
  }

  /// Calls `f` with each parameter in `params`.
  template <typename Fn>
  static void forEachParam(ArrayRef<uint64_t> params, Fn f) {
    for (auto [w, word] : llvm::enumerate(params))
      for (uint64_t rest = word; rest; rest &= rest - 1)
        f(static_cast<unsigned>(w * 64 + llvm::countr_zero(rest)));
  }

  void visitUse(OpOperand &use, unsigned facet, ArrayRef<uint64_t> params) {
    UseVerdict verdict = classifyUse(use, facet, rules);
    if (visitor) {
      llvm::BitVector set(numParams);
      forEachParam(params, [&](unsigned param) { set.set(param); });
      visitor(use, facet, verdict, set);
    }
    switch (verdict.kind) {
    case Kind::Blocking:
      forEachParam(params, [&](unsigned param) {
        ParamUseSummary &summary = summaries[param];
        ++summary.numBlockingUses;
        if (!summary.firstBlockingUse ||
            opOrder(use.getOwner()) < opOrder(summary.firstBlockingUse->user))
          summary.firstBlockingUse =
              BlockingUse{use.getOwner(), verdict.reason};
      });
      break;
    case Kind::AddressSink:
      forEachParam(params,
                   [&](unsigned param) { ++summaries[param].numAddressSinks; });
      break;
    case Kind::PassThrough:
    case Kind::NotRead:
      break;
    }
    for (const FacetedValue &reached : verdict.forwardedTo)
      reach({reached.value, reached.facet}, params);
  }

  /// Pre-order position of `op` within the scope (numbered on first need).
  /// Operations outside the scope (never expected) come last.
  uint64_t opOrder(Operation *op) {
    if (order.empty())
      scope->walk<WalkOrder::PreOrder>([&](Operation *nested) {
        order.try_emplace(nested, 2 * order.size() + 1);
      });
    auto it = order.find(op);
    return it == order.end() ? std::numeric_limits<uint64_t>::max()
                             : it->second;
  }

  /// Where `value` is defined: its op, or just before the first op of the
  /// block whose argument it is.
  uint64_t orderOf(Value value) {
    if (Operation *def = value.getDefiningOp())
      return opOrder(def);
    Block *block = cast<BlockArgument>(value).getOwner();
    if (block->empty())
      return 0;
    return opOrder(&block->front()) - 1;
  }

  Operation *scope;
  unsigned numParams;
  /// 64-bit words per parameter set.
  unsigned words;
  const StrideUseRules &rules;
  const UseVisitor &visitor;
  SmallVector<ParamUseSummary> summaries;
  // The storage (see ParamUseScratch::Storage).
  DenseMap<Node, unsigned> &nodeIndex;
  std::vector<Node> &nodes;
  std::vector<uint64_t> &reached;
  std::vector<uint64_t> &propagated;
  std::vector<bool> &queued;
  DenseMap<Operation *, uint64_t> &order;
  std::vector<QueueEntry> &worklist;
};
} // namespace

SmallVector<ParamUseSummary> mlir::flyhoist::analyzeParamUses(
    Operation *scope, ArrayRef<SmallVector<Value>> roots,
    const StrideUseRules &rules, const UseVisitor &visitor,
    ParamUseScratch *scratch) {
  std::optional<ParamUseScratch> own;
  if (!scratch)
    scratch = &own.emplace();
  Propagation propagation(scope, roots.size(), rules, visitor,
                          scratch->storage());
  for (auto [param, values] : llvm::enumerate(roots))
    for (Value value : values)
      propagation.seed(value, param);
  return propagation.run();
}
