//===- TraceJSON.cpp - What the library says about traces, as JSON --------===//
//
// The one writer of each form (TraceJSON.h): the C API and match-spec-params
// call these, so a reader of one reads the other.
//
//===----------------------------------------------------------------------===//

#include "flyhoist/Transforms/TraceJSON.h"

#include "flyhoist/Dialect/Spec/SpecDialect.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;
using namespace mlir::flyhoist;

llvm::json::Array
mlir::flyhoist::renderInferredParamsJSON(ArrayRef<InferredParam> params) {
  llvm::json::Array array;
  for (const InferredParam &param : params) {
    std::string type;
    llvm::raw_string_ostream os(type);
    param.type.print(os);
    llvm::json::Array values;
    for (int64_t v : param.values)
      values.push_back(v);
    llvm::json::Value derived = nullptr;
    if (param.derived)
      derived = llvm::json::Object{{"root", param.derived->root},
                                   {"scale", param.derived->scale},
                                   {"offset", param.derived->offset}};
    array.push_back(
        llvm::json::Object{{"name", param.name},
                           {"type", std::move(type)},
                           {"values", std::move(values)},
                           {"location", spec::describeLocation(param.location)},
                           {"uses", static_cast<int64_t>(param.numUses)},
                           {"derived", std::move(derived)}});
  }
  return array;
}

void mlir::flyhoist::printMatchedValuesJSON(
    llvm::raw_ostream &os, ArrayRef<std::pair<std::string, int64_t>> values) {
  // Written by hand: json::Object would sort its keys, and the order of
  // first use is what a reader may rely on.
  os << "{";
  llvm::interleave(
      values,
      [&](const std::pair<std::string, int64_t> &value) {
        os << llvm::json::Value(value.first) << ": " << value.second;
      },
      [&] { os << ", "; });
  os << "}";
}

llvm::json::Object
mlir::flyhoist::renderTraceMismatchJSON(const TraceMismatch &mismatch) {
  return llvm::json::Object{
      {"reason", mismatch.reason},
      {"template_location", spec::describeLocation(mismatch.baseLocation)},
      {"trace_location", spec::describeLocation(mismatch.otherLocation)},
  };
}

llvm::json::Array mlir::flyhoist::renderSpecParamsJSON(Operation *root) {
  llvm::json::Array params;
  root->walk<WalkOrder::PreOrder>([&](spec::ParamOp param) {
    std::string type;
    llvm::raw_string_ostream os(type);
    param.getType().print(os);
    params.push_back(llvm::json::Object{
        {"name", param.getName().str()},
        {"value", param.getIntValue()},
        {"type", std::move(type)},
        {"equals", static_cast<bool>(param.getEquals())},
        {"location", spec::describeLocation(param.getLoc())},
    });
  });
  return params;
}

std::string mlir::flyhoist::traceSignature(Operation *root) {
  std::string names;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op != root && !isTraceLeaf(op))
      names.append(op->getName().getStringRef()).push_back('\n');
  });
  std::string signature = "xxh3:";
  llvm::raw_string_ostream os(signature);
  os << llvm::format_hex_no_prefix(llvm::xxh3_64bits(names), 16);
  return signature;
}
