//===- ArithModels.cpp - Rules for arith, index, affine -------------------===//
//
// Address arithmetic: integer and index operations pass a parameter on,
// comparisons, clamps, divisions and shift amounts keep it; affine maps
// pass it on unless they divide it.
//
//===----------------------------------------------------------------------===//

#include "ModelSupport.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/Index/IR/IndexOps.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::flyhoist;
using namespace mlir::flyhoist::models;

/// Whether the affine map operand `position` (dims first, then symbols)
/// takes part in a division or remainder in `map`.
static bool isDividedInMap(AffineMap map, unsigned position) {
  bool isDim = position < map.getNumDims();
  unsigned index = isDim ? position : position - map.getNumDims();
  auto mentions = [&](AffineExpr expr) {
    return isDim ? expr.isFunctionOfDim(index) : expr.isFunctionOfSymbol(index);
  };
  bool divided = false;
  for (AffineExpr result : map.getResults())
    result.walk([&](AffineExpr sub) {
      if (sub.getKind() != AffineExprKind::FloorDiv &&
          sub.getKind() != AffineExprKind::CeilDiv &&
          sub.getKind() != AffineExprKind::Mod)
        return;
      auto binary = cast<AffineBinaryOpExpr>(sub);
      if (mentions(binary.getLHS()) || mentions(binary.getRHS()))
        divided = true;
    });
  return divided;
}

/// A use among the map operands `mapOperands` of an affine op with `map`:
/// `verdict` unless the map divides that operand.
static UseVerdict affineMapOperand(AffineMap map,
                                   MutableOperandRange mapOperands,
                                   OpOperand &use, UseVerdict verdict) {
  unsigned position = 0;
  for (OpOperand &operand : mapOperands) {
    if (&operand == &use)
      return isDividedInMap(map, position)
                 ? UseVerdict::blocking(BlockReason::Division)
                 : verdict;
    ++position;
  }
  return unclassified();
}

namespace {
struct AffineAccess {
  template <typename OpTy>
  static UseVerdict classify(OpTy op, OpOperand &use, unsigned facet) {
    if constexpr (std::is_same_v<OpTy, affine::AffineStoreOp> ||
                  std::is_same_v<OpTy, affine::AffineVectorStoreOp>)
      if (is(use, op.getValueMutable()))
        return data();
    if (is(use, op.getMemrefMutable()))
      return address(use, facet);
    return affineMapOperand(op.getAffineMap(), op.getIndicesMutable(), use,
                            UseVerdict::sink());
  }
};
struct AffineApply {
  static UseVerdict classify(affine::AffineApplyOp apply, OpOperand &use,
                             unsigned facet) {
    return affineMapOperand(apply.getAffineMap(), apply.getMapOperandsMutable(),
                            use, UseVerdict::passThroughResults(apply, facet));
  }
};
} // namespace

void mlir::flyhoist::models::registerArithModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, arith::ArithDialect *) {
    // Bitwise and/or/xor pass the value on: swizzles of offsets are address
    // arithmetic, and whatever the result reaches is classified in turn.
    attach<PassThrough, arith::AddIOp, arith::SubIOp, arith::MulIOp,
           arith::AndIOp, arith::OrIOp, arith::XOrIOp, arith::IndexCastOp,
           arith::IndexCastUIOp, arith::ExtSIOp, arith::ExtUIOp,
           arith::TruncIOp>(context);
    attach<Shift, arith::ShLIOp, arith::ShRUIOp, arith::ShRSIOp>(context);
    attach<Blocking<BlockReason::Comparison>, arith::CmpIOp>(context);
    attach<Select, arith::SelectOp>(context);
    attach<Blocking<BlockReason::Clamp>, arith::MinSIOp, arith::MinUIOp,
           arith::MaxSIOp, arith::MaxUIOp>(context);
    attach<Blocking<BlockReason::Division>, arith::DivSIOp, arith::DivUIOp,
           arith::RemSIOp, arith::RemUIOp, arith::CeilDivSIOp,
           arith::CeilDivUIOp, arith::FloorDivSIOp>(context);
  });
  registry.addExtension(+[](MLIRContext *context, index::IndexDialect *) {
    attach<PassThrough, index::AddOp, index::SubOp, index::MulOp, index::AndOp,
           index::OrOp, index::XOrOp, index::CastSOp, index::CastUOp>(context);
    attach<Shift, index::ShlOp, index::ShrUOp, index::ShrSOp>(context);
    attach<Blocking<BlockReason::Comparison>, index::CmpOp>(context);
    attach<Blocking<BlockReason::Clamp>, index::MinSOp, index::MinUOp,
           index::MaxSOp, index::MaxUOp>(context);
    attach<Blocking<BlockReason::Division>, index::DivSOp, index::DivUOp,
           index::RemSOp, index::RemUOp, index::CeilDivSOp, index::CeilDivUOp,
           index::FloorDivSOp>(context);
  });
  registry.addExtension(+[](MLIRContext *context, affine::AffineDialect *) {
    attach<AffineApply, affine::AffineApplyOp>(context);
    // linearize_index is a multiply-add over its basis; delinearize divides.
    attach<PassThrough, affine::AffineLinearizeIndexOp>(context);
    attach<Blocking<BlockReason::Division>, affine::AffineDelinearizeIndexOp>(
        context);
    attach<Blocking<BlockReason::Clamp>, affine::AffineMinOp,
           affine::AffineMaxOp>(context);
    attach<AffineAccess, affine::AffineLoadOp, affine::AffineStoreOp,
           affine::AffineVectorLoadOp, affine::AffineVectorStoreOp>(context);
  });
}
