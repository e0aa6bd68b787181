//===- OptionValues.h - Option values checked without stderr ----*- C++ -*-===//
//
// Typed checks of pass and pipeline option values whose errors travel as
// data. LLVM's command-line parsers report a bad value ("'banana' value
// invalid for uint argument!") on llvm::errs() only, never on the stream or
// handler a pass pipeline parser is given, so a host would have to capture
// file descriptor 2 to learn why its options were rejected. The flyhoist
// passes and pipelines check their typed values here first and report
// through the pipeline parser's error handler instead.
//
//===----------------------------------------------------------------------===//

#ifndef FLYHOIST_TRANSFORMS_OPTIONVALUES_H
#define FLYHOIST_TRANSFORMS_OPTIONVALUES_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>

namespace mlir::flyhoist {

/// The type an option's value must have.
enum class OptionKind { Bool, Unsigned32, Unsigned64 };

/// One option of an option string, as MLIR's pass option parser splits it.
struct OptionEntry {
  StringRef key;
  /// Absent for a bare `key` (a flag).
  std::optional<StringRef> value;
};

/// Splits `options` into its `key[=value]` entries with the rules of MLIR's
/// PassOptions::parseFromString: entries separated by spaces; a value may
/// hold spaces inside '...', "..." or nested {...}, and one such pair
/// around the whole value is removed.
SmallVector<OptionEntry> splitOptionString(StringRef options);

/// Checks `entry`'s value against `kind`: a bool is true/false/1/0 (or a
/// bare key), an unsigned one a decimal, hex or octal integer of its width.
/// Returns the reason it is invalid ("divisibility: 'banana' is not an unsigned
/// integer"), or nothing.
std::optional<std::string> checkOptionValue(const OptionEntry &entry,
                                            OptionKind kind);

/// Checks every entry of `options` whose key `kindOf` gives a kind, and
/// reports the first invalid one through `errorHandler`, as a pass's
/// initializeOptions does. Keys `kindOf` does not know are left to MLIR's
/// parser (which reports an unknown one through the same handler).
LogicalResult
checkOptionString(StringRef options,
                  function_ref<std::optional<OptionKind>(StringRef)> kindOf,
                  function_ref<LogicalResult(const Twine &)> errorHandler);

/// What flyhoistPrintHoistOptions and flyhoistPrintPipelineOptions return
/// for parsed options: `{"values": {every option: its typed value},
/// "explicit": [the names the string set, whatever their value]}`.
class OptionsDescription {
public:
  /// Records `option` (a parsed pass or pipeline option) with `value`.
  template <typename OptionT>
  void add(const OptionT &option, llvm::json::Value value) {
    values[option.getArgStr().str()] = std::move(value);
    // hasValue(): set by the parser (or an assignment), not by the default.
    if (option.hasValue())
      explicitNames.push_back(option.getArgStr().str());
  }
  /// Records `option` with its own (scalar) value.
  template <typename OptionT> void add(const OptionT &option) {
    add(option, llvm::json::Value(option.getValue()));
  }
  llvm::json::Object take() {
    return llvm::json::Object{{"values", std::move(values)},
                              {"explicit", std::move(explicitNames)}};
  }

private:
  llvm::json::Object values;
  llvm::json::Array explicitNames;
};

} // namespace mlir::flyhoist

#endif // FLYHOIST_TRANSFORMS_OPTIONVALUES_H
