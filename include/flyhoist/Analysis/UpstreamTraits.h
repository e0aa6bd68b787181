//===- UpstreamTraits.h - Op traits as libMLIR registered them --*- C++ -*-===//
//
// An op trait's TypeID is resolved by type name: TypeID::get<Trait>() is
// registerImplicitTypeID(getTypeName<Trait<Empty>>()), with `Empty` a class
// local to TypeID::get, which g++ spells "Trait<mlir::TypeID::get<Trait>()
// ::Empty>" and clang "Trait<Empty>". fly-opt shares libMLIR's resolution
// (its own copy interposes), but the plugin and the C API library keep
// theirs private, so an `op->hasTrait<T>()` compiled into them asks for an ID
// that ops registered by a libMLIR built with the other compiler do not
// carry, and a rule decides differently by host process. hasUpstreamTrait()
// asks for the trait under each spelling. Rules never call hasTrait,
// m_Constant or matchPattern on upstream ops (test/Analysis/
// upstream-traits.test greps for them); constants come from libMLIR's own
// getConstantAPIntValue.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_ANALYSIS_UPSTREAMTRAITS_H
#define FLYHOIST_ANALYSIS_UPSTREAMTRAITS_H

#include "mlir/IR/Operation.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/TypeName.h"

#include <array>

namespace mlir::flyhoist {

namespace detail {
/// The TypeIDs under which a trait class template named `name` (such as
/// "mlir::OpTrait::ReturnLike") may be registered: g++'s and clang's
/// spelling of TypeID::get<Trait>().
std::array<TypeID, 2> upstreamTraitIDs(StringRef name);
} // namespace detail

/// Whether `op` has the op trait `Trait`, however the library that
/// registered `op` spelled its TypeID.
template <template <typename> class Trait>
bool hasUpstreamTrait(Operation *op) {
  static const std::array<TypeID, 2> spellings = [] {
    // "mlir::OpTrait::ReturnLike<int>" in both compilers.
    StringRef name = llvm::getTypeName<Trait<int>>();
    return detail::upstreamTraitIDs(name.drop_back(StringRef("<int>").size()));
  }();
  OperationName opName = op->getName();
  return opName.hasTrait(TypeID::get<Trait>()) ||
         llvm::any_of(spellings,
                      [&](TypeID id) { return opName.hasTrait(id); });
}

} // namespace mlir::flyhoist

#endif // FLYHOIST_ANALYSIS_UPSTREAMTRAITS_H
