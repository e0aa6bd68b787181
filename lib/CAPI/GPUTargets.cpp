//===- GPUTargets.cpp - A module's gpu.module targets, as data ------------===//
//
// flyhoistPrintGPUTargets: which chip each gpu.module's targets name, read
// from the target attributes themselves, so that a host checks the chip it
// compiles for against the module's own targets without reading the
// printed attribute.
//
//===----------------------------------------------------------------------===//

#include "flyhoist-c/FlyHoist.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace mlir;

namespace {

/// One target attribute as data: its kind ("rocdl", "nvvm", or "unknown"
/// for a target flyhoist's pipelines do not make, such as SPIR-V's), its
/// dialect, the chip it compiles for (MLIR's default where the attribute
/// names none; null for an unknown kind), and the attribute as MLIR prints
/// it, for messages only.
llvm::json::Object renderTarget(Attribute target) {
  std::string printed;
  llvm::raw_string_ostream(printed) << target;
  llvm::json::Object object{
      {"dialect", target.getDialect().getNamespace()},
      {"attribute", std::move(printed)},
  };
  if (auto rocdl = dyn_cast<ROCDL::ROCDLTargetAttr>(target)) {
    object["kind"] = "rocdl";
    object["chip"] = rocdl.getChip();
  } else if (auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(target)) {
    object["kind"] = "nvvm";
    object["chip"] = nvvm.getChip();
  } else {
    object["kind"] = "unknown";
    object["chip"] = nullptr;
  }
  return object;
}

} // namespace

MlirLogicalResult flyhoistPrintGPUTargets(MlirOperation op,
                                          MlirStringCallback callback,
                                          void *userData) {
  if (mlirOperationIsNull(op))
    return mlirLogicalResultFailure();
  llvm::json::Array modules;
  unwrap(op)->walk<WalkOrder::PreOrder>([&](gpu::GPUModuleOp gpuModule) {
    llvm::json::Array targets;
    if (ArrayAttr attrs = gpuModule.getTargetsAttr())
      for (Attribute target : attrs)
        targets.push_back(renderTarget(target));
    modules.push_back(llvm::json::Object{
        {"symbol", gpuModule.getSymName()},
        {"targets", std::move(targets)},
    });
  });
  mlir::detail::CallbackOstream stream(callback, userData);
  stream << llvm::json::Value(std::move(modules));
  stream.flush();
  return mlirLogicalResultSuccess();
}
