//===- StrideUseAnalysis.cpp - Are a parameter's uses address-only? -------===//
//
// One propagation carries the set of parameters reaching each value and
// facet, in reverse post-order of the uses it follows. How each use counts
// is classifyUse() (StrideUseRules.cpp).
//
//===----------------------------------------------------------------------===//

#include "flyhoist/Analysis/StrideUseAnalysis.h"
#include "UseClassification.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::flyhoist;

StringRef mlir::flyhoist::stringifyBlockReason(BlockReason reason) {
  switch (reason) {
  case BlockReason::LoopBound:
    return "loop-bound";
  case BlockReason::Comparison:
    return "comparison";
  case BlockReason::Clamp:
    return "clamp";
  case BlockReason::BranchCondition:
    return "branch-condition";
  case BlockReason::Division:
    return "division";
  case BlockReason::ShiftAmount:
    return "shift-amount";
  case BlockReason::Allocation:
    return "allocation";
  case BlockReason::StoredData:
    return "stored-data";
  case BlockReason::CallOperand:
    return "call-operand";
  case BlockReason::ReturnOperand:
    return "return-operand";
  case BlockReason::LaunchDimensions:
    return "launch-dimensions";
  case BlockReason::MaskOrPadding:
    return "mask-or-padding";
  case BlockReason::SizeReadBack:
    return "size-read-back";
  case BlockReason::UnknownOperation:
    return "unknown-operation";
  case BlockReason::UnknownOperand:
    return "unknown-operand";
  case BlockReason::MustBeImmediate:
    return "must-be-immediate";
  case BlockReason::VectorPosition:
    return "vector-position";
  }
  llvm_unreachable("unknown BlockReason");
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
  if (a->getBlock() == b->getBlock())
    return a->isBeforeInBlock(b);
  auto depthOf = [](Operation *op) {
    unsigned depth = 0;
    while ((op = op->getParentOp()))
      ++depth;
    return depth;
  };
  unsigned depthA = depthOf(a), depthB = depthOf(b);
  // An op comes before every op nested in it.
  for (; depthA > depthB; --depthA) {
    a = a->getParentOp();
    if (a == b)
      return false;
  }
  for (; depthB > depthA; --depthB) {
    b = b->getParentOp();
    if (b == a)
      return true;
  }
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
  /// A node and its edges, `edges[edgeBegin, edgeBegin + numEdges)`, whose
  /// targets are one run of `targets`.
  struct NodeInfo {
    Value value;
    unsigned facet;
    unsigned edgeBegin;
    unsigned numEdges;
  };

  DenseMap<Node, unsigned> nodeNumbers;
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

  /// Empties everything, keeping the memory.
  void clear() {
    nodeNumbers.clear();
    nodes.clear();
    edges.clear();
    targets.clear();
    postOrder.clear();
    rpoIndex.clear();
    reached.clear();
    propagated.clear();
    stack.clear();
    seeds.clear();
  }
};

ParamUseScratch::ParamUseScratch() : impl(std::make_unique<Storage>()) {}
ParamUseScratch::~ParamUseScratch() = default;

/// Calls `f` with each parameter in `params`.
template <typename Fn>
static void forEachParam(ArrayRef<uint64_t> params, Fn f) {
  for (auto [w, word] : llvm::enumerate(params))
    for (uint64_t rest = word; rest; rest &= rest - 1)
      f(static_cast<unsigned>(w * 64 + llvm::countr_zero(rest)));
}

namespace {
using Kind = UseVerdict::Kind;
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
/// number, in storage a caller may keep from one kernel to the next.
class Propagation {
public:
  Propagation(unsigned numParams, const StrideUseRules &rules,
              const UseVisitor &visitor, ParamUseScratch::Storage &storage)
      : numParams(numParams), words(llvm::divideCeil(numParams, 64)),
        rules(rules), visitor(visitor), summaries(numParams), s(storage) {
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
    sweep();
    return std::move(summaries);
  }

private:
  /// The number of `node`, a new one if it has none.
  unsigned nodeOf(Node node) {
    node.second = normalizeFacet(node.first.getType(), node.second);
    auto [it, inserted] = s.nodeNumbers.try_emplace(node, s.nodes.size());
    if (inserted)
      s.nodes.push_back({node.first, node.second, 0, kNotExpanded});
    return it->second;
  }

  /// Classifies every use of `node` and numbers the nodes they reach.
  void expand(unsigned node) {
    // (Copied: numbering the targets may grow `nodes`.)
    Value value = s.nodes[node].value;
    unsigned facet = s.nodes[node].facet;
    unsigned first = s.edges.size();
    for (OpOperand &use : value.getUses()) {
      UseVerdict verdict = classifyUseWithModel(
          use, facet, rules, dyn_cast<StrideUseOpInterface>(use.getOwner()));
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

  /// Whether `node`'s uses are not classified yet.
  bool isNew(unsigned node) const {
    return s.nodes[node].numEdges == kNotExpanded;
  }

  /// Depth first from `root`, expanding each node when first reached;
  /// appends the nodes to the post-order as they are finished.
  void search(unsigned root) {
    if (!isNew(root))
      return;
    expand(root);
    s.stack.push_back({root, targetRange(root).first});
    while (!s.stack.empty()) {
      auto [node, cursor] = s.stack.back();
      unsigned end = targetRange(node).second;
      while (cursor < end && !isNew(s.targets[cursor]))
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
  /// starts another sweep there.
  void sweep() {
    unsigned numNodes = s.nodes.size();
    SmallVector<uint64_t, 4> delta(words);
    for (unsigned start = 0; start < numNodes;) {
      unsigned restart = numNodes;
      for (unsigned position = start; position < numNodes; ++position) {
        unsigned node = s.postOrder[position];
        if (!takeNewParams(node, delta))
          continue;
        const ParamUseScratch::Storage::NodeInfo &info = s.nodes[node];
        for (unsigned e = info.edgeBegin; e < info.edgeBegin + info.numEdges;
             ++e) {
          visitUse(e, info.facet, delta);
          const UseEdge &edge = s.edges[e];
          for (unsigned target :
               ArrayRef(s.targets).slice(edge.firstTarget, edge.numTargets))
            if (passOn(target, delta) && s.rpoIndex[target] < position)
              restart = std::min(restart, s.rpoIndex[target]);
        }
      }
      start = restart;
    }
  }

  /// Sets `delta` to the parameters that reached `node` and were not passed
  /// on yet, and marks them passed on; whether there are any.
  bool takeNewParams(unsigned node, MutableArrayRef<uint64_t> delta) {
    const unsigned n = words;
    bool any = false;
    for (unsigned w = 0; w < n; ++w) {
      delta[w] = s.reached[node * n + w] & ~s.propagated[node * n + w];
      s.propagated[node * n + w] |= delta[w];
      any |= delta[w] != 0;
    }
    return any;
  }

  /// Adds `bits` to the parameters reaching `node`; whether it grew.
  bool passOn(unsigned node, ArrayRef<uint64_t> bits) {
    const unsigned n = words;
    bool grew = false;
    for (unsigned w = 0; w < n; ++w) {
      uint64_t added = bits[w] & ~s.reached[node * n + w];
      s.reached[node * n + w] |= added;
      grew |= added != 0;
    }
    return grew;
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
    if (edge.kind == Kind::AddressSink)
      forEachParam(params,
                   [&](unsigned param) { ++summaries[param].numAddressSinks; });
    if (edge.kind == Kind::Blocking)
      countBlocking(edge, params);
  }

  /// Counts the blocking `edge` for the parameters in `params`, and makes it
  /// a parameter's first blocking use if it comes first in the IR.
  void countBlocking(const UseEdge &edge, ArrayRef<uint64_t> params) {
    Operation *user = edge.use->getOwner();
    forEachParam(params, [&](unsigned param) {
      ParamUseSummary &summary = summaries[param];
      ++summary.numBlockingUses;
      if (!summary.firstBlockingUse ||
          isBeforeInPreOrder(user, summary.firstBlockingUse->user))
        summary.firstBlockingUse =
            BlockingUse{user, edge.reason, edge.use->getOperandNumber()};
    });
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
