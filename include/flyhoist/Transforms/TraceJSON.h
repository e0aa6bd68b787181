//===- TraceJSON.h - The library on traces, as JSON ------------*- C++ -*-===//
//
// One writer for each JSON form the library gives about traces, shared by
// the C API (include/flyhoist-c/FlyHoist.h) and the passes that write files:
// the parameters inference made (flyhoistInferSpecParams), a match's values
// and mismatch (flyhoistMatchSpecParams, match-spec-params' `values-file`),
// a module's `spec.param`s (flyhoistPrintSpecParams) and
// a trace's structure (flyhoistPrintTraceSignature). A frontend or a checker
// reads these instead of the printed IR or a remark's wording.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_TRANSFORMS_TRACEJSON_H
#define FLYHOIST_TRANSFORMS_TRACEJSON_H

#include "flyhoist/Transforms/InferSpecParams.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <utility>

namespace mlir::flyhoist {

/// `params`, what inferSpecParams made, as a JSON array of `{"name",
/// "type", "values", "location", "uses", "derived"}`: `values` base first;
/// `derived` is null for a parameter the kernel takes, and `{"root",
/// "scale", "offset"}` for one it computes from its root (`scale * root +
/// offset`, no `spec.param` of its name: the launch passes the root).
llvm::json::Array renderInferredParamsJSON(ArrayRef<InferredParam> params);

/// Prints `values`, what matchSpecParams found, as one JSON object in their
/// order (first use, not sorted by name): `{"p0": 128, "width": 32}`.
void printMatchedValuesJSON(llvm::raw_ostream &os,
                            ArrayRef<std::pair<std::string, int64_t>> values);

/// `mismatch` as a JSON object: `{"reason": ..., "template_location": ...,
/// "trace_location": ...}`, the reason as the error's message ends and the
/// locations of the error and its note, worded as diagnostics word them
/// (spec::describeLocation, flyhoistPrintLocation).
llvm::json::Object renderTraceMismatchJSON(const TraceMismatch &mismatch);

/// Every `spec.param` under `root`, in walk order (pre-order, the order of
/// the printed IR), as a JSON array of `{"name", "value", "type", "equals",
/// "location"}` (`equals`: whether the op has an `equals` operand).
llvm::json::Array renderSpecParamsJSON(Operation *root);

/// The structure of the trace `root`: a hash ("xxh3:" and 16 hex digits) of
/// the names of the ops under it in walk order (pre-order), trace leaves
/// (isTraceLeaf: the constants and parameters traces may disagree on) left
/// out. Traces that align op by op share it; one with another op, or an op
/// in another place, almost surely does not.
std::string traceSignature(Operation *root);

} // namespace mlir::flyhoist

#endif // FLYHOIST_TRANSFORMS_TRACEJSON_H
