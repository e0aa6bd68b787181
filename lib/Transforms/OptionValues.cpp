//===- OptionValues.cpp - Option values checked without stderr ------------===//
//
// See flyhoist/Transforms/OptionValues.h.
//
//===----------------------------------------------------------------------===//

#include "flyhoist/Transforms/OptionValues.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"

using namespace mlir;
using namespace mlir::flyhoist;

/// The length of the value at the front of `text`: up to the first space
/// outside quotes and braces, as MLIR's parser reads it.
static size_t valueLength(StringRef text) {
  size_t end = 0, size = text.size();
  // Skips a quoted run starting at `end`; true when `end` was a quote.
  auto skipQuoted = [&]() {
    char quote = text[end];
    if (quote != '\'' && quote != '"')
      return false;
    size_t close = text.find(quote, end + 1);
    if (close != StringRef::npos)
      end = close;
    return true;
  };
  for (; end < size && text[end] != ' '; ++end) {
    if (skipQuoted() || text[end] != '{')
      continue;
    for (unsigned depth = 1; ++end < size;) {
      if (skipQuoted())
        continue;
      if (text[end] == '{')
        ++depth;
      else if (text[end] == '}' && --depth == 0)
        break;
    }
    if (end == size)
      break;
  }
  return std::min(end, size);
}

/// `text` without one pair of '', "" or {} around it, as MLIR's parser
/// hands a value to the option.
static StringRef unwrapValue(StringRef text) {
  text = text.trim();
  if (text.size() > 2)
    for (auto [open, close] :
         {std::pair{'\'', '\''}, std::pair{'"', '"'}, std::pair{'{', '}'}})
      if (text.front() == open && text.back() == close)
        return text.drop_front().drop_back().trim();
  return text;
}

SmallVector<OptionEntry> mlir::flyhoist::splitOptionString(StringRef options) {
  SmallVector<OptionEntry> entries;
  for (options = options.ltrim(); !options.empty(); options = options.ltrim()) {
    size_t keyEnd = options.find_first_of(" =");
    OptionEntry entry{options.take_front(keyEnd).trim(), std::nullopt};
    if (keyEnd == StringRef::npos || options[keyEnd] == ' ') {
      options = options.drop_front(std::min(keyEnd, options.size()));
    } else {
      options = options.drop_front(keyEnd + 1);
      size_t length = valueLength(options);
      entry.value = unwrapValue(options.take_front(length));
      options = options.drop_front(length);
    }
    if (!entry.key.empty())
      entries.push_back(entry);
  }
  return entries;
}

std::optional<std::string>
mlir::flyhoist::checkOptionValue(const OptionEntry &entry, OptionKind kind) {
  StringRef value = entry.value.value_or("");
  auto invalid = [&](StringRef what) {
    return (entry.key + ": '" + value + "' is not " + what).str();
  };
  switch (kind) {
  case OptionKind::Bool:
    if (!entry.value)
      return std::nullopt;
    if (!llvm::StringSwitch<bool>(value)
             .Cases({"true", "TRUE", "True", "1"}, true)
             .Cases({"false", "FALSE", "False", "0"}, true)
             .Default(false))
      return invalid("a boolean (true, false, 1 or 0)");
    return std::nullopt;
  case OptionKind::Unsigned32: {
    uint32_t number;
    if (value.getAsInteger(0, number))
      return invalid("an unsigned 32-bit integer");
    return std::nullopt;
  }
  case OptionKind::Unsigned64: {
    uint64_t number;
    if (value.getAsInteger(0, number))
      return invalid("an unsigned 64-bit integer");
    return std::nullopt;
  }
  }
  return std::nullopt;
}

LogicalResult mlir::flyhoist::checkOptionString(
    StringRef options,
    function_ref<std::optional<OptionKind>(StringRef)> kindOf,
    function_ref<LogicalResult(const Twine &)> errorHandler) {
  for (const OptionEntry &entry : splitOptionString(options)) {
    std::optional<OptionKind> kind = kindOf(entry.key);
    if (!kind)
      continue;
    if (std::optional<std::string> reason = checkOptionValue(entry, *kind))
      return errorHandler(*reason);
  }
  return success();
}
