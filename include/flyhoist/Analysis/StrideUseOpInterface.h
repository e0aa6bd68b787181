//===- StrideUseOpInterface.h - How ops use parameters ----------*- C++ -*-===//
//
// The vocabulary of the stride-use analysis and its extension point, the
// StrideUseOpInterface (StrideUseOpInterface.td).
//
// Values carry a parameter in one or more *facets*: a scalar (integer,
// index, pointer) in facet 0, a memref in its address part (offset and
// strides) or its sizes, an AMDGPU buffer resource in its address or its
// bound, an LLVM struct in one of its leaf fields. Uses are classified per
// facet: a memref whose sizes carry the parameter may be read by
// `memref.load` (which ignores sizes) but not by a masked
// `vector.transfer_read` (whose mask is computed from them).
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_ANALYSIS_STRIDEUSEOPINTERFACE_H
#define FLYHOIST_ANALYSIS_STRIDEUSEOPINTERFACE_H

#include "flyhoist/Analysis/BlockReason.h"
#include "flyhoist/Dialect/Spec/SpecDialect.h"

#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::flyhoist {

//===----------------------------------------------------------------------===//
// Facets
//===----------------------------------------------------------------------===//

/// The facet of a scalar value (integer, index, pointer, vector of those):
/// the value itself.
inline constexpr unsigned kValueFacet = 0;
/// The facet of a memref holding its offset and strides (its address part).
inline constexpr unsigned kViewAddressFacet = 0;
/// The facet of a memref holding its sizes.
inline constexpr unsigned kViewSizesFacet = 1;
/// The facet of an AMDGPU buffer resource (`rocdl.make.buffer.rsrc`) holding
/// its base address and stride; facet 0 like any pointer.
inline constexpr unsigned kBufferAddressFacet = 0;
/// The facet of an AMDGPU buffer resource holding `num_records`, the bound
/// the hardware checks every access against.
inline constexpr unsigned kBufferBoundFacet = 1;

/// A value and the facet of it that carries a parameter.
struct FacetedValue {
  Value value;
  unsigned facet = kValueFacet;
};

/// The facet of an LLVM struct for facet `leafFacet` (kValueFacet or
/// kBufferBoundFacet) of its leaf field `leaf`: every leaf has the two
/// facets a pointer has, so a buffer resource's bound stays apart from its
/// address inside a fat-pointer struct.
inline unsigned getStructFacet(unsigned leaf, unsigned leafFacet) {
  return 2 * leaf + leafFacet;
}

/// Number of leaf fields of `type` for struct facets: the leaves of an LLVM
/// struct, flattened depth first; 1 for anything else (arrays count as one
/// leaf: their elements are not told apart).
unsigned getNumLeafFields(Type type);

/// The leaves `[first, first + count)` of `aggregate` that the LLVM
/// insertvalue/extractvalue `position` designates. `exact` is false when the
/// position reaches into an array leaf, which it then only partly covers.
struct LeafRange {
  unsigned first = 0;
  unsigned count = 1;
  bool exact = true;
};
LeafRange getLeafRange(Type aggregate, ArrayRef<int64_t> position);

//===----------------------------------------------------------------------===//
// Verdicts on uses
//===----------------------------------------------------------------------===//

/// How one use (of one facet) of a parameter-derived value counts.
struct UseVerdict {
  enum class Kind {
    /// Address arithmetic: the parameter flows on into `forwardedTo`.
    PassThrough,
    /// An address operand of a memory access: the parameter is a stride or
    /// an offset there. May still forward (e.g. an async copy's token).
    AddressSink,
    /// The facet is not read by this use (a view's sizes by `memref.load`,
    /// a struct field other than the one extracted).
    NotRead,
    /// The use needs the parameter as a constant.
    Blocking,
  };

  Kind kind = Kind::Blocking;
  /// For Blocking: why.
  BlockReason reason = BlockReason::UnknownOperation;
  /// Values (and facets) the parameter reaches through this use.
  SmallVector<FacetedValue, 2> forwardedTo;

  /// A use through which the parameter reaches each of `values` in `facet`.
  static UseVerdict passThrough(ValueRange values,
                                unsigned facet = kValueFacet);
  /// A use through which the parameter reaches `value` in `facet`.
  static UseVerdict passThrough(Value value, unsigned facet = kValueFacet);
  /// A use through which the parameter reaches every result of `op` in
  /// `facet`: the rule of arithmetic.
  static UseVerdict passThroughResults(Operation *op,
                                       unsigned facet = kValueFacet);
  /// A use through which the parameter reaches exactly `reached`.
  static UseVerdict passThrough(ArrayRef<FacetedValue> reached);
  /// An address operand of a memory access.
  static UseVerdict sink();
  /// A use that does not read the facet.
  static UseVerdict notRead();
  /// A use that needs the parameter as a constant.
  static UseVerdict blocking(BlockReason reason);
};

} // namespace mlir::flyhoist

#include "flyhoist/Analysis/StrideUseOpInterface.h.inc"

#endif // FLYHOIST_ANALYSIS_STRIDEUSEOPINTERFACE_H
