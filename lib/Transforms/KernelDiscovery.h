//===- KernelDiscovery.h - What is a kernel, who launches it ----*- C++ -*-===//
//
// The one place that says which functions of a module are kernels for
// hoist-stride-specialization, which are device functions, which operations
// launch or call them, and why a function holding `spec.param`s is not
// treated as either. Every error the pass can report about its input is
// found here, before anything changes.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_LIB_TRANSFORMS_KERNELDISCOVERY_H
#define FLYHOIST_LIB_TRANSFORMS_KERNELDISCOVERY_H

#include "flyhoist/Dialect/Spec/SpecDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::flyhoist {

/// The printable path of a symbol, e.g. "@kernels::@paged": its name and
/// those of the named symbol tables around it.
std::string symbolPath(Operation *symbol);

/// One use of a function's symbol.
struct SymbolUse {
  /// The operation that refers to the symbol.
  Operation *user;
  /// Set when the user is a launch or call the pass knows how to extend
  /// (`gpu.launch_func`, `func.call`, `llvm.call` naming the function).
  bool isLaunchSite;
};

/// Uses of each symbol, keyed by the symbol operation they resolve to.
using SymbolUseMap = DenseMap<Operation *, SmallVector<SymbolUse>>;

/// The operands through which a launch site (a `SymbolUse` with
/// `isLaunchSite`) passes the kernel's arguments.
MutableOperandRange passedArguments(Operation *launchSite);

/// The nearest operation around `op` whose regions are isolated from above
/// (a function, or e.g. `gpu.all_reduce`): the scope whose values `op` may
/// use.
Operation *isolatedScope(Operation *op);

/// What a function the pass plans for is.
enum class FunctionKind {
  /// An entry point launched from the host (or a host-level kernel).
  Kernel,
  /// A function inside a `gpu.module` that is not a kernel: it runs only
  /// when kernels call it, so the values it bakes in are part of the
  /// `gpu.module` as much as the kernels' are.
  DeviceFunction,
};

/// A function the pass plans for (a kernel or a device function), with its
/// parameters and launch sites.
struct DiscoveredKernel {
  /// The function.
  FunctionOpInterface function;
  /// Whether it is a kernel or a device function.
  FunctionKind kind = FunctionKind::Kernel;
  /// Printable symbol path, e.g. "@kernels::@paged".
  std::string path;
  /// Its `spec.param` ops, in IR order. Empty for a function found only
  /// because it calls one the pass plans for (it may have to pass values on).
  SmallVector<spec::ParamOp> params;
  /// Every operation that launches or calls it, in IR order.
  SmallVector<Operation *> launchSites;
  /// Set when an operation the pass cannot update refers to the function
  /// (or the function is variadic): then no argument may be added.
  Operation *unknownReference = nullptr;

  /// "kernel" or "device function", for remarks.
  StringRef kindName() const {
    return kind == FunctionKind::Kernel ? "kernel" : "device function";
  }
};

/// Everything discovery found in a module.
struct DiscoveredModule {
  /// The functions the pass plans for, in IR order: kernels and device
  /// functions holding at least one `spec.param`, and the functions inside a
  /// `gpu.module` that call one of those (directly or not).
  std::vector<DiscoveredKernel> kernels;
  /// The position of each of those functions in `kernels`.
  DenseMap<Operation *, unsigned> kernelIndex;
  /// Parameters outside those functions (host code, or outside any
  /// function), in IR order.
  SmallVector<spec::ParamOp> otherParams;
  /// Every symbol use in the module, resolved.
  SymbolUseMap symbolUses;
};

/// Finds the kernels and device functions of `module` and their launch
/// sites, in one walk.
///
/// A kernel is a function holding a `spec.param` that is either
///  - inside a `gpu.module` and a kernel entry point (a `gpu.func` kernel, or a
///    function with `gpu.kernel`, `rocdl.kernel` or `nvvm.kernel`), or
///  - outside any `gpu.module`, called by a launch site in the module and not
///    launching GPU work itself, or marked `spec.kernel`.
/// A device function is any other function inside a `gpu.module` holding a
/// `spec.param`. Functions inside a `gpu.module` that call a kernel or device
/// function found so are found too (they may have to pass values on).
/// Everything else holding a `spec.param` is host code.
///
/// Fails, with a located error and nothing changed, when
///  - one parameter name has two values;
///  - a launch site passes a different number of arguments than the function
///    it calls takes, or carries per-argument attributes (`arg_attrs`) of
///    another length;
///  - a `spec.param` `equals` a value known at compile time (a constant-like
///    op or another `spec.param`) that differs from its own value;
///  - a launch site passes such a known value, differing from the parameter's
///    value, for an argument a `spec.param` of the callee `equals`.
FailureOr<DiscoveredModule> discoverKernels(ModuleOp module);

} // namespace mlir::flyhoist

#endif // FLYHOIST_LIB_TRANSFORMS_KERNELDISCOVERY_H
