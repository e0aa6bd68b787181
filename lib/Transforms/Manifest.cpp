//===- Manifest.cpp - What the hoisting did, for frontends ----------------===//

#include "flyhoist/Transforms/Manifest.h"

#include "KernelDiscovery.h"
#include "flyhoist/Dialect/Spec/SpecDialect.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::flyhoist;

std::string mlir::flyhoist::fingerprintGPUModule(gpu::GPUModuleOp module) {
  // Generic form and no locations: the hash must not depend on the printer's
  // pretty forms or on where the frontend traced the kernel from. Hoist
  // records hold locations as attributes, which the printer prints whatever
  // the flags say: hash a copy whose records have none.
  OwningOpRef<Operation *> copy = module->clone();
  return fingerprintWithoutLocations(*copy);
}

std::string mlir::flyhoist::fingerprintWithoutLocations(Operation *op) {
  for (auto [recorded, record] : spec::collectHoistRecords(op))
    recorded->setAttr(spec::kRecordAttrName, record.withoutLocations());
  std::string text;
  llvm::raw_string_ostream os(text);
  OpPrintingFlags flags;
  flags.printGenericOpForm().enableDebugInfo(false).assumeVerified();
  op->print(os, flags);
  std::array<uint8_t, 32> digest = llvm::SHA256::hash(ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(text.data()), text.size()));
  return "sha256:" + llvm::toHex(digest, /*LowerCase=*/true);
}

static std::string typeToString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// How many parameters of the lowered kernel an argument of `type` becomes
/// under the type conversion of convert-gpu-to-rocdl/nvvm (and func-to-llvm):
/// with descriptors, a memref of rank r is its unpacked descriptor (allocated
/// and aligned pointers, offset, r sizes, r strides) and an unranked memref
/// its rank and pointer; with bare pointers a memref is one pointer, which
/// MLIR only allows for a static shape and the identity layout (nullopt
/// otherwise: that convention cannot lower the kernel). Every other type
/// (integers, index, floats, vectors, pointers, LLVM structs, complex) is
/// one parameter.
static std::optional<int64_t> loweredParameterCount(Type type,
                                                    bool barePointers) {
  if (auto memref = dyn_cast<MemRefType>(type)) {
    if (!barePointers)
      return 3 + 2 * memref.getRank();
    if (memref.hasStaticShape() && memref.getLayout().isIdentity())
      return 1;
    return std::nullopt;
  }
  if (isa<UnrankedMemRefType>(type)) {
    if (!barePointers)
      return 2;
    return std::nullopt;
  }
  return 1;
}

/// The index among the lowered kernel's parameters (the code object's
/// explicit kernel arguments, in order) of argument `argument` of
/// `function`, or null when it cannot be lowered that way.
static llvm::json::Value loweredParameterSlot(Operation *function,
                                              unsigned argument,
                                              bool barePointers) {
  auto interface = dyn_cast<FunctionOpInterface>(function);
  if (!interface)
    return nullptr;
  ArrayRef<Type> types = interface.getArgumentTypes();
  if (argument >= types.size())
    return nullptr;
  int64_t slot = 0;
  for (Type type : types.take_front(argument)) {
    std::optional<int64_t> count = loweredParameterCount(type, barePointers);
    if (!count)
      return nullptr;
    slot += *count;
  }
  // The value itself (an integer or index) is one parameter; check the
  // other arguments too, since one memref the convention cannot lower
  // fails the whole kernel.
  for (Type type : types.drop_front(argument))
    if (!loweredParameterCount(type, barePointers))
      return nullptr;
  return slot;
}

/// The manifest object of precondition `fact`: its `kind`, its fields and
/// its `text` for people.
static llvm::json::Object renderPrecondition(Attribute fact) {
  llvm::json::Object object{
      {"kind",
       spec::stringifyPreconditionKind(spec::getPreconditionKind(fact).value())
           .str()},
      {"text", spec::describePrecondition(fact)}};
  llvm::TypeSwitch<Attribute>(fact)
      .Case([&](spec::DivisibleByAttr divisible) {
        object["divisor"] = divisible.getDivisor();
      })
      .Case([&](spec::RangeAttr range) {
        object["min"] = range.getMin();
        object["max"] = range.getMax();
      })
      .Case([&](spec::EqualsAttr equals) {
        object["argument"] = equals.getArgument();
        object["part"] = spec::stringifyArgumentPart(equals.getPart()).str();
        object["index"] = equals.getIndex()
                              ? llvm::json::Value(*equals.getIndex())
                              : llvm::json::Value(nullptr);
      })
      .Case([&](spec::EqualsParameterAttr equals) {
        object["name"] = equals.getName().str();
      })
      .Case([&](spec::EqualsConstantAttr equals) {
        object["value"] = equals.getValue();
      })
      .Case([&](spec::EqualsUnverifiableAttr equals) {
        object["description"] = equals.getDescription().str();
      });
  return object;
}

/// The `range` precondition every launched value has: it fits the type it is
/// passed as (spec::getValueBounds, the bound `spec.param` verifies).
static llvm::json::Object renderTypeRange(Type type) {
  spec::ValueBounds bounds = spec::getValueBounds(type);
  return llvm::json::Object{
      {"kind", spec::stringifyPreconditionKind(spec::PreconditionKind::Range)},
      {"min", bounds.min},
      {"max", bounds.max},
      {"text", (Twine(bounds.min) + " <= value <= " + Twine(bounds.max) +
                " (fits " + typeToString(type) + ")")
                   .str()}};
}

/// The manifest entry of one function with a hoist record.
static llvm::json::Object renderFunction(Operation *function,
                                         spec::HoistRecordAttr record) {
  StringRef functionKind = record.getDevice() ? "device function" : "kernel";
  auto optionalNumber = [](std::optional<int64_t> number) {
    return number ? llvm::json::Value(*number) : llvm::json::Value(nullptr);
  };
  llvm::json::Array hoisted;
  for (spec::HoistedParamAttr param : record.getHoistedParams()) {
    llvm::json::Array preconditions;
    preconditions.push_back(renderTypeRange(param.getType()));
    if (ArrayAttr facts = param.getPreconditions())
      for (Attribute fact : facts)
        preconditions.push_back(renderPrecondition(fact));
    llvm::json::Value kernelParameter = nullptr;
    if (std::optional<int64_t> argument = param.getArgument())
      kernelParameter = llvm::json::Object{
          {"memref_descriptors",
           loweredParameterSlot(function, *argument, /*barePointers=*/false)},
          {"bare_pointers",
           loweredParameterSlot(function, *argument, /*barePointers=*/true)},
      };
    llvm::json::Object entry{
        {"name", param.getName().str()},
        {"kernel_parameter", std::move(kernelParameter)},
        {"type", typeToString(param.getType())},
        {"source", param.getArgument() ? "argument" : "equals"},
        {"argument", optionalNumber(param.getArgument())},
        {"preconditions", std::move(preconditions)},
        {"host_argument", optionalNumber(param.getHostArgument())},
    };
    // Only an offset tail hoisted with hoist-immediate-offsets has it: other
    // entries read as they did before the field.
    if (std::optional<int64_t> adds = param.getImmediateOffsets())
      entry["immediate_offsets"] = *adds;
    hoisted.push_back(std::move(entry));
  }
  llvm::json::Array kept;
  for (auto [param, location] : record.getKeptEntries())
    kept.push_back(llvm::json::Object{
        {"name", param.getName().str()},
        {"value", param.getValue()},
        {"reason", spec::stringifyKeepReason(param.getReason()).str()},
        {"reason_text",
         spec::describeKeepReason(param.getReasonInfo(), functionKind)},
        {"location", spec::describeLocation(location)},
    });
  llvm::json::Array launchSites;
  for (LocationAttr site : record.getLaunchSiteLocations())
    launchSites.push_back(spec::describeLocation(site));
  return llvm::json::Object{
      {"symbol", symbolPath(function)},
      {"hoisted", std::move(hoisted)},
      {"kept", std::move(kept)},
      {"launch_sites", std::move(launchSites)},
  };
}

std::string mlir::flyhoist::renderManifestJSON(ModuleOp module) {
  llvm::json::Array kernels;
  llvm::json::Array deviceFunctions;
  for (auto [function, record] : spec::collectHoistRecords(module))
    (record.getDevice() ? deviceFunctions : kernels)
        .push_back(renderFunction(function, record));

  llvm::json::Array gpuModules;
  module.walk([&](gpu::GPUModuleOp gpuModule) {
    gpuModules.push_back(llvm::json::Object{
        {"symbol", symbolPath(gpuModule)},
        {"fingerprint", fingerprintGPUModule(gpuModule)},
    });
  });

  llvm::json::Object manifest{
      {"schema", "flyhoist-manifest"},
      {"version", kManifestSchemaVersion},
      {"kernels", std::move(kernels)},
      {"device_functions", std::move(deviceFunctions)},
      {"gpu_modules", std::move(gpuModules)},
  };
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(manifest))) << "\n";
  return text;
}

/// Every mnemonic of an enum with cases 0 .. `maxValue`.
template <typename Enum>
static llvm::json::Array allMnemonics(uint64_t maxValue,
                                      StringRef (*stringify)(Enum)) {
  llvm::json::Array words;
  for (uint64_t value = 0; value <= maxValue; ++value)
    words.push_back(stringify(static_cast<Enum>(value)).str());
  return words;
}

std::string mlir::flyhoist::renderContractKindsJSON() {
  llvm::json::Object kinds{
      {"version", kManifestSchemaVersion},
      {"reasons", allMnemonics(spec::getMaxEnumValForKeepReason(),
                               spec::stringifyKeepReason)},
      {"preconditions", allMnemonics(spec::getMaxEnumValForPreconditionKind(),
                                     spec::stringifyPreconditionKind)},
      {"argument_parts", allMnemonics(spec::getMaxEnumValForArgumentPart(),
                                      spec::stringifyArgumentPart)},
  };
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(kinds))) << "\n";
  return text;
}
