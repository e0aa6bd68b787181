//===- UpstreamTraits.cpp - Op traits as libMLIR registered them ----------===//

#include "flyhoist/Analysis/UpstreamTraits.h"

#include "mlir/Support/TypeID.h"

#include "llvm/ADT/StringSet.h"

#include <mutex>
#include <string>

using namespace mlir;

namespace {
/// registerImplicitTypeID(), which is protected.
struct ImplicitTypeIDs : mlir::detail::FallbackTypeIDResolver {
  static TypeID get(const std::string &name) {
    // The registry keeps the StringRef: the name must outlive every lookup.
    // Held by a set that is never destroyed (lookups may come after static
    // destructors have started), and reachable, so no leak is reported.
    static std::mutex mutex;
    static llvm::StringSet<> *names = new llvm::StringSet<>();
    std::lock_guard<std::mutex> lock(mutex);
    return registerImplicitTypeID(names->insert(name).first->getKey());
  }
};
} // namespace

std::array<TypeID, 2> mlir::flyhoist::detail::upstreamTraitIDs(StringRef name) {
  std::string trait = name.str();
  return {ImplicitTypeIDs::get(trait + "<Empty>"),
          ImplicitTypeIDs::get(trait + "<mlir::TypeID::get<" + trait +
                               ">()::Empty>")};
}
