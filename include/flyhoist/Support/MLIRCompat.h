//===- MLIRCompat.h - The MLIR calls that differ between versions -*- C++
//-*-===//
//
// Every call of flyhoist into an MLIR API that changed after MLIR 22 goes
// through this header, so that carrying flyhoist to a frontend's newer MLIR
// (FlyDSL builds its own LLVM from main) is an edit here and not a hunt
// through lib/. Each helper picks the form the MLIR it is compiled against
// has by detecting the member (not by LLVM_VERSION_MAJOR: a git build of
// main between two changes has one version number and either form).
// docs/INTEGRATION.md ("Version-sensitive MLIR calls") names the upstream
// change behind each helper.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_SUPPORT_MLIRCOMPAT_H
#define FLYHOIST_SUPPORT_MLIRCOMPAT_H

#include "mlir/IR/Value.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"

#include <type_traits>
#include <utility>

namespace mlir::flyhoist::compat {

namespace detail {
/// Whether the region branch op answers getSuccessorInputs(successor)
/// itself (MLIR main) rather than the successor carrying its inputs (22).
template <typename Branch, typename Successor, typename = void>
struct HasOpSuccessorInputs : std::false_type {};
template <typename Branch, typename Successor>
struct HasOpSuccessorInputs<
    Branch, Successor,
    std::void_t<decltype(std::declval<Branch &>().getSuccessorInputs(
        std::declval<const Successor &>()))>> : std::true_type {};

/// Whether the op has an `aux` operand (22) rather than an `aux` attribute
/// (MLIR main).
template <typename OpTy, typename = void>
struct HasAuxOperand : std::false_type {};
template <typename OpTy>
struct HasAuxOperand<
    OpTy, std::void_t<decltype(std::declval<OpTy &>().getAuxMutable())>>
    : std::true_type {};
} // namespace detail

/// The values that receive control at `successor` of `branch` (the entry
/// block's arguments, or the op's results when control returns to it).
template <typename Branch = RegionBranchOpInterface,
          typename Successor = RegionSuccessor>
ValueRange successorInputs(Branch branch, const Successor &successor) {
  if constexpr (detail::HasOpSuccessorInputs<Branch, Successor>::value)
    return branch.getSuccessorInputs(successor);
  else
    return successor.getSuccessorInputs();
}

/// Whether `use` is the `aux` (cache policy) operand of a ROCDL buffer op.
/// Where `aux` is an attribute it is never an operand, so no use is.
template <typename OpTy> bool isBufferAuxOperand(OpTy op, OpOperand &use) {
  if constexpr (detail::HasAuxOperand<OpTy>::value)
    return &use == &op.getAuxMutable();
  else
    return false;
}

} // namespace mlir::flyhoist::compat

#endif // FLYHOIST_SUPPORT_MLIRCOMPAT_H
