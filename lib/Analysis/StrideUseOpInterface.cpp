//===- StrideUseOpInterface.cpp - How ops use parameters ------------------===//

#include "flyhoist/Analysis/StrideUseOpInterface.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"

using namespace mlir;
using namespace mlir::flyhoist;

#include "flyhoist/Analysis/StrideUseOpInterface.cpp.inc"

//===----------------------------------------------------------------------===//
// Facets of LLVM structs
//===----------------------------------------------------------------------===//

unsigned mlir::flyhoist::getNumLeafFields(Type type) {
  auto structType = dyn_cast<LLVM::LLVMStructType>(type);
  if (!structType)
    return 1;
  unsigned count = 0;
  for (Type element : structType.getBody())
    count += getNumLeafFields(element);
  // An empty struct still has a place a use can name.
  return std::max(count, 1u);
}

LeafRange mlir::flyhoist::getLeafRange(Type aggregate,
                                       ArrayRef<int64_t> position) {
  LeafRange range;
  Type type = aggregate;
  for (auto [depth, index] : llvm::enumerate(position)) {
    auto structType = dyn_cast<LLVM::LLVMStructType>(type);
    if (!structType) {
      // An array (or a vector): its elements are one leaf, which a position
      // reaching into it covers only in part.
      range.exact = false;
      break;
    }
    ArrayRef<Type> body = structType.getBody();
    if (index < 0 || static_cast<size_t>(index) >= body.size()) {
      range.exact = false; // invalid IR; be conservative
      break;
    }
    for (Type before : body.take_front(index))
      range.first += getNumLeafFields(before);
    type = body[index];
  }
  range.count = range.exact ? getNumLeafFields(type) : 1;
  return range;
}

//===----------------------------------------------------------------------===//
// Reasons and verdicts
//===----------------------------------------------------------------------===//

UseVerdict UseVerdict::passThrough(ValueRange values, unsigned facet) {
  UseVerdict verdict;
  verdict.kind = Kind::PassThrough;
  for (Value value : values)
    verdict.forwardedTo.push_back({value, facet});
  return verdict;
}

UseVerdict UseVerdict::passThrough(Value value, unsigned facet) {
  UseVerdict verdict;
  verdict.kind = Kind::PassThrough;
  verdict.forwardedTo.push_back({value, facet});
  return verdict;
}

UseVerdict UseVerdict::passThroughResults(Operation *op, unsigned facet) {
  UseVerdict verdict;
  verdict.kind = Kind::PassThrough;
  for (unsigned i = 0, e = op->getNumResults(); i < e; ++i)
    verdict.forwardedTo.push_back({op->getResult(i), facet});
  return verdict;
}

UseVerdict UseVerdict::passThrough(ArrayRef<FacetedValue> reached) {
  UseVerdict verdict;
  verdict.kind = Kind::PassThrough;
  verdict.forwardedTo.assign(reached.begin(), reached.end());
  return verdict;
}

UseVerdict UseVerdict::sink() {
  UseVerdict verdict;
  verdict.kind = Kind::AddressSink;
  return verdict;
}

UseVerdict UseVerdict::notRead() {
  UseVerdict verdict;
  verdict.kind = Kind::NotRead;
  return verdict;
}

UseVerdict UseVerdict::blocking(BlockReason reason) {
  UseVerdict verdict;
  verdict.kind = Kind::Blocking;
  verdict.reason = reason;
  return verdict;
}
