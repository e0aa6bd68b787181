//===- StrideUseAnalysis.cpp - Are a parameter's uses address-only? -------===//
//
// How a use counts comes from, in order: a rule named in the pass options,
// the user's StrideUseOpInterface (StrideUseModels.cpp for upstream ops),
// the control-flow interfaces. Anything else keeps the parameter: the
// analysis only hoists what it can prove. One propagation then carries the
// set of parameters reaching each value and facet, in reverse post-order of
// the uses it follows.
//
//===----------------------------------------------------------------------===//

#include "flyhoist/Analysis/StrideUseAnalysis.h"
#include "flyhoist/Analysis/ImmediateOperands.h"
#include "flyhoist/Support/MLIRCompat.h"

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
                      compat::successorInputs(branch, successor), use, facet,
                      reached);
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
                      compat::successorInputs(parent, successor), use, facet,
                      reached);
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
  return UseVerdict::passThroughResults(op, facet);
}

//===----------------------------------------------------------------------===//
// Classification
//===----------------------------------------------------------------------===//

/// classifyUse() with the owner's StrideUseOpInterface already looked up
/// (null when it has none).
static UseVerdict classifyUseWithModel(OpOperand &use, unsigned facet,
                                       const StrideUseRules &rules,
                                       StrideUseOpInterface model) {
  Operation *op = use.getOwner();
  // An immediate stays one whatever a rule says of the operand.
  if (isImmediateOperand(use))
    return UseVerdict::blocking(BlockReason::MustBeImmediate);
  // (Tested here first: most runs name no operation, and the call and the
  // empty verdict it returns cost more than the test, once per use.)
  if (!rules.empty())
    if (std::optional<UseVerdict> verdict = rules.classify(use, facet))
      return *verdict;
  if (model)
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
      return UseVerdict::passThrough(*argument, facet);
    return UseVerdict::blocking(BlockReason::BranchCondition);
  }
  return UseVerdict::blocking(BlockReason::UnknownOperation);
}

UseVerdict mlir::flyhoist::classifyUse(OpOperand &use, unsigned facet,
                                       const StrideUseRules &rules) {
  return classifyUseWithModel(use, facet, rules,
                              dyn_cast<StrideUseOpInterface>(use.getOwner()));
}

//===----------------------------------------------------------------------===//
// The propagation
//===----------------------------------------------------------------------===//

/// The facets a value of `type` has: memrefs, pointers and the aggregates
/// that are one leaf (arrays, vectors: of pointers, whose buffer bounds stay
/// apart from their values) two, structs two per leaf, everything else one.
/// A facet a type does not have (an integer from a pointer's bound facet,
/// say) becomes the whole value.
static unsigned normalizeFacet(Type type, unsigned facet) {
  if (isa<BaseMemRefType, LLVM::LLVMPointerType, LLVM::LLVMArrayType,
          VectorType>(type))
    return facet <= 1 ? facet : kValueFacet;
  if (isa<LLVM::LLVMStructType>(type))
    return facet < getStructFacet(getNumLeafFields(type), 0) ? facet
                                                             : kValueFacet;
  return kValueFacet;
}

/// Whether `a` comes before `b` in a pre-order walk of the IR (an op before
/// the ops nested in it; regions, blocks and ops in order). Only called to
/// pick a parameter's first blocking use among several.
static bool isBeforeInPreOrder(Operation *a, Operation *b) {
  if (a == b)
    return false;
  if (a->getBlock() == b->getBlock()) // the usual case
    return a->isBeforeInBlock(b);
  auto depthOf = [](Operation *op) {
    unsigned depth = 0;
    while ((op = op->getParentOp()))
      ++depth;
    return depth;
  };
  unsigned depthA = depthOf(a), depthB = depthOf(b);
  // An op comes before every op nested in it.
  for (; depthA > depthB; --depthA)
    if ((a = a->getParentOp()) == b)
      return false;
  for (; depthB > depthA; --depthB)
    if ((b = b->getParentOp()) == a)
      return true;
  // Now at one depth: up to the ops with one parent.
  while (a->getParentOp() != b->getParentOp()) {
    a = a->getParentOp();
    b = b->getParentOp();
  }
  if (a->getBlock() == b->getBlock())
    return a->isBeforeInBlock(b);
  Region *regionA = a->getParentRegion(), *regionB = b->getParentRegion();
  if (!regionA || !regionB) // not in one tree (never for uses in a kernel)
    return false;
  if (regionA != regionB)
    return regionA->getRegionNumber() < regionB->getRegionNumber();
  for (Block &block : *regionA) {
    if (&block == a->getBlock())
      return true;
    if (&block == b->getBlock())
      return false;
  }
  return false;
}

/// A value and a facet: a node of the propagation.
using Node = std::pair<Value, unsigned>;

/// The propagation's working storage: node numbers, the nodes and their
/// classified uses, the reverse post-order, and per node the parameters that
/// reached it and those it passed on (rows of 64-bit words).
struct mlir::flyhoist::ParamUseScratch::Storage {
  /// A classified use of a node: its verdict, and the nodes it forwards to
  /// (`targets[firstTarget, firstTarget + numTargets)`).
  struct UseEdge {
    OpOperand *use;
    UseVerdict::Kind kind;
    BlockReason reason;
    unsigned firstTarget;
    unsigned numTargets;
  };

  /// Node numbers: of facet 0 of a value (nearly every node) by the value
  /// alone, a pointer cheap to hash; of the other facets by both.
  DenseMap<void *, unsigned> valueNodes;
  DenseMap<Node, unsigned> facetNodes;
  /// A node and its edges, `edges[edgeBegin, edgeBegin + numEdges)`, whose
  /// targets are one run of `targets`.
  struct NodeInfo {
    Value value;
    unsigned facet;
    unsigned edgeBegin;
    unsigned numEdges;
  };
  std::vector<NodeInfo> nodes;
  std::vector<UseEdge> edges;
  std::vector<unsigned> targets;
  /// Nodes in post-order, then each node's place in the reverse.
  std::vector<unsigned> postOrder;
  std::vector<unsigned> rpoIndex;
  std::vector<uint64_t> reached;
  std::vector<uint64_t> propagated;
  /// The depth-first search's stack: (node, next target to look at).
  std::vector<std::pair<unsigned, unsigned>> stack;
  /// (root node, parameter).
  std::vector<std::pair<unsigned, unsigned>> seeds;
  /// The model registered on each op name met (see Propagation::modelOf).
  /// Emptied with the rest: a caller may attach models between two calls.
  DenseMap<OperationName, StrideUseOpInterface::Concept *> models;

  /// Empties everything, keeping the memory.
  void clear() {
    valueNodes.clear();
    facetNodes.clear();
    nodes.clear();
    edges.clear();
    targets.clear();
    postOrder.clear();
    rpoIndex.clear();
    reached.clear();
    propagated.clear();
    stack.clear();
    seeds.clear();
    models.clear();
  }
};

ParamUseScratch::ParamUseScratch() : impl(std::make_unique<Storage>()) {}
ParamUseScratch::~ParamUseScratch() = default;

namespace {
using UseEdge = ParamUseScratch::Storage::UseEdge;

/// One propagation of every parameter of a kernel at once: each node (value,
/// facet) holds the set of parameters that reach it.
///
/// It runs in two steps. The first follows the uses from the roots depth
/// first, classifies each use of each node once, and numbers the nodes in
/// reverse post-order: an order in which a node comes after every node that
/// reaches it, but for back edges (a loop's iter_args, a cf loop's block
/// arguments). The second passes the parameter sets along in that order, so
/// each node is processed once, and again only when a back edge brings it
/// parameters it did not have. Nothing needs the IR's own order but the
/// choice of a parameter's first blocking use.
///
/// The sets are rows of 64-bit words in two flat arrays indexed by node
/// number (a kernel with 64 parameters needs one word per set), in storage
/// a caller may keep from one kernel to the next.
class Propagation {
public:
  Propagation(unsigned numParams, const StrideUseRules &rules,
              const UseVisitor &visitor, ParamUseScratch::Storage &storage)
      : numParams(numParams),
        words(std::max(1u, llvm::divideCeil(numParams, 64))), rules(rules),
        visitor(visitor), summaries(numParams), s(storage) {
    storage.clear();
  }

  /// Parameter `param` reaches `value` (a root).
  void seed(Value value, unsigned param) {
    s.seeds.push_back({nodeOf({value, kValueFacet}), param});
  }

  /// Runs to the fixpoint and returns the summaries.
  SmallVector<ParamUseSummary> run() {
    for (auto [node, param] : s.seeds)
      search(node);
    unsigned numNodes = s.nodes.size();
    s.rpoIndex.resize(numNodes);
    std::reverse(s.postOrder.begin(), s.postOrder.end());
    for (auto [index, node] : llvm::enumerate(s.postOrder))
      s.rpoIndex[node] = index;
    s.reached.assign(size_t(numNodes) * words, 0);
    s.propagated.assign(size_t(numNodes) * words, 0);
    for (auto [node, param] : s.seeds)
      s.reached[node * words + param / 64] |= uint64_t(1) << (param % 64);
    // A kernel with at most 64 parameters, nearly every one, has one word
    // per set: its loops over the words compile away.
    if (words == 1)
      sweep<1>();
    else
      sweep<0>();
    return std::move(summaries);
  }

private:
  /// The number of `node`, a new one if it has none.
  unsigned nodeOf(Node node) {
    // Every type has facet 0, the most frequent by far: only another facet
    // needs the value's type.
    if (node.second != kValueFacet)
      node.second = normalizeFacet(node.first.getType(), node.second);
    // (A node is new when it gets the next number: known ones have lower.)
    unsigned next = s.nodes.size();
    unsigned index =
        node.second == kValueFacet
            ? s.valueNodes.try_emplace(node.first.getAsOpaquePointer(), next)
                  .first->second
            : s.facetNodes.try_emplace(node, next).first->second;
    if (index == next)
      s.nodes.push_back({node.first, node.second, 0, kNotExpanded});
    return index;
  }

  /// Classifies every use of `node` and numbers the nodes they reach.
  void expand(unsigned node) {
    // (Copied: numbering the targets may grow `nodes`.)
    Value value = s.nodes[node].value;
    unsigned facet = s.nodes[node].facet;
    unsigned first = s.edges.size();
    for (OpOperand &use : value.getUses()) {
      UseVerdict verdict =
          classifyUseWithModel(use, facet, rules, modelOf(use.getOwner()));
      UseEdge edge{&use, verdict.kind, verdict.reason,
                   static_cast<unsigned>(s.targets.size()),
                   static_cast<unsigned>(verdict.forwardedTo.size())};
      for (const FacetedValue &reached : verdict.forwardedTo)
        s.targets.push_back(nodeOf({reached.value, reached.facet}));
      s.edges.push_back(edge);
      if (visitor)
        verdicts.push_back(std::move(verdict));
    }
    s.nodes[node].edgeBegin = first;
    s.nodes[node].numEdges = s.edges.size() - first;
  }

  /// The StrideUseOpInterface of `op`. A dyn_cast searches the op's
  /// interface map twice (the test, then the cast), per use; the model
  /// registered on an op name is looked up once per name here. Ops whose
  /// model, if any, comes from their dialect are asked as MLIR asks them.
  StrideUseOpInterface modelOf(Operation *op) {
    auto [it, inserted] = s.models.try_emplace(op->getName(), nullptr);
    if (inserted)
      it->second = op->getName().getInterface<StrideUseOpInterface>();
    if (it->second)
      return StrideUseOpInterface(op, it->second);
    return dyn_cast<StrideUseOpInterface>(op);
  }

  /// The targets of all of `node`'s edges, one run of `targets`.
  std::pair<unsigned, unsigned> targetRange(unsigned node) const {
    unsigned edgeBegin = s.nodes[node].edgeBegin;
    unsigned count = s.nodes[node].numEdges;
    if (count == 0)
      return {0, 0};
    const UseEdge &first = s.edges[edgeBegin];
    const UseEdge &last = s.edges[edgeBegin + count - 1];
    return {first.firstTarget, last.firstTarget + last.numTargets};
  }

  /// Depth first from `root`, expanding each node when first reached;
  /// appends the nodes to the post-order as they are finished.
  void search(unsigned root) {
    if (s.nodes[root].numEdges != kNotExpanded)
      return;
    expand(root);
    s.stack.push_back({root, targetRange(root).first});
    while (!s.stack.empty()) {
      auto [node, cursor] = s.stack.back();
      unsigned end = targetRange(node).second;
      while (cursor < end &&
             s.nodes[s.targets[cursor]].numEdges != kNotExpanded)
        ++cursor;
      if (cursor == end) {
        s.postOrder.push_back(node);
        s.stack.pop_back();
        continue;
      }
      unsigned next = s.targets[cursor];
      s.stack.back().second = cursor + 1;
      expand(next);
      s.stack.push_back({next, targetRange(next).first});
    }
  }

  /// Passes the parameter sets along, sweeping the nodes in reverse
  /// post-order; a back edge that brings new parameters to an earlier node
  /// starts another sweep there. `Words` is the number of 64-bit words per
  /// set, or 0 for `words`.
  template <unsigned Words> void sweep() {
    const unsigned n = Words ? Words : words;
    unsigned numNodes = s.nodes.size();
    SmallVector<uint64_t, 4> delta(n);
    for (unsigned start = 0; start < numNodes;) {
      unsigned restart = numNodes;
      for (unsigned position = start; position < numNodes; ++position) {
        unsigned node = s.postOrder[position];
        bool any = false;
        for (unsigned w = 0; w < n; ++w) {
          delta[w] = s.reached[node * n + w] & ~s.propagated[node * n + w];
          s.propagated[node * n + w] |= delta[w];
          any |= delta[w] != 0;
        }
        if (!any)
          continue;
        for (unsigned e = s.nodes[node].edgeBegin,
                      end = e + s.nodes[node].numEdges;
             e < end; ++e) {
          visitUse(e, s.nodes[node].facet, delta);
          const UseEdge &edge = s.edges[e];
          for (unsigned target :
               ArrayRef(s.targets).slice(edge.firstTarget, edge.numTargets))
            if (passOn<Words>(target, delta) && s.rpoIndex[target] < position)
              restart = std::min(restart, s.rpoIndex[target]);
        }
      }
      start = restart;
    }
  }

  /// Adds `bits` to the parameters reaching `node`; whether it grew.
  template <unsigned Words>
  bool passOn(unsigned node, ArrayRef<uint64_t> bits) {
    const unsigned n = Words ? Words : words;
    bool grew = false;
    for (unsigned w = 0; w < n; ++w) {
      uint64_t added = bits[w] & ~s.reached[node * n + w];
      s.reached[node * n + w] |= added;
      grew |= added != 0;
    }
    return grew;
  }

  /// Calls `f` with each parameter in `params`.
  template <typename Fn>
  static void forEachParam(ArrayRef<uint64_t> params, Fn f) {
    for (auto [w, word] : llvm::enumerate(params))
      for (uint64_t rest = word; rest; rest &= rest - 1)
        f(static_cast<unsigned>(w * 64 + llvm::countr_zero(rest)));
  }

  /// Counts edge `e` for the parameters in `params`, which reach it for the
  /// first time.
  void visitUse(unsigned e, unsigned facet, ArrayRef<uint64_t> params) {
    const UseEdge &edge = s.edges[e];
    if (visitor) {
      llvm::BitVector set(numParams);
      forEachParam(params, [&](unsigned param) { set.set(param); });
      visitor(*edge.use, facet, verdicts[e], set);
    }
    switch (edge.kind) {
    case Kind::Blocking: {
      Operation *user = edge.use->getOwner();
      // Parameters that flow together mostly have the same first blocking
      // use so far: the last comparison is kept.
      Operation *compared = nullptr;
      bool isBefore = false;
      forEachParam(params, [&](unsigned param) {
        ParamUseSummary &summary = summaries[param];
        ++summary.numBlockingUses;
        if (!summary.firstBlockingUse) {
          summary.firstBlockingUse =
              BlockingUse{user, edge.reason, edge.use->getOperandNumber()};
          return;
        }
        if (Operation *first = summary.firstBlockingUse->user;
            first != compared) {
          compared = first;
          isBefore = isBeforeInPreOrder(user, first);
        }
        if (isBefore)
          summary.firstBlockingUse =
              BlockingUse{user, edge.reason, edge.use->getOperandNumber()};
      });
      break;
    }
    case Kind::AddressSink:
      forEachParam(params,
                   [&](unsigned param) { ++summaries[param].numAddressSinks; });
      break;
    case Kind::PassThrough:
    case Kind::NotRead:
      break;
    }
  }

  /// `NodeInfo::numEdges` of a node whose uses are not classified yet.
  static constexpr unsigned kNotExpanded = ~0u;

  unsigned numParams;
  /// 64-bit words per parameter set.
  unsigned words;
  const StrideUseRules &rules;
  const UseVisitor &visitor;
  SmallVector<ParamUseSummary> summaries;
  /// With a visitor: each edge's verdict, as classifyUse gave it.
  std::vector<UseVerdict> verdicts;
  ParamUseScratch::Storage &s;
};
} // namespace

SmallVector<ParamUseSummary> mlir::flyhoist::analyzeParamUses(
    ArrayRef<SmallVector<Value>> roots, const StrideUseRules &rules,
    const UseVisitor &visitor, ParamUseScratch *scratch) {
  std::optional<ParamUseScratch> own;
  if (!scratch)
    scratch = &own.emplace();
  Propagation propagation(roots.size(), rules, visitor, scratch->storage());
  for (auto [param, values] : llvm::enumerate(roots))
    for (Value value : values)
      propagation.seed(value, param);
  return propagation.run();
}
