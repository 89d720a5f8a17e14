//===- InputLimits.cpp - input the TLX tools refuse before parsing --------===//

#include "tlx/Support/InputLimits.h"

using namespace mlir::tlx;

std::optional<NestingError>
mlir::tlx::findExcessiveNesting(llvm::StringRef text, unsigned limit) {
  unsigned depth = 0, line = 1, column = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    ++column;
    if (c == '\n') {
      ++line;
      column = 0;
      continue;
    }
    if (inString) {
      if (c == '\\')
        ++i, ++column; // the escaped character
      else if (c == '"')
        inString = false;
      continue;
    }
    switch (c) {
    case '"':
      inString = true;
      break;
    case '(':
    case '[':
    case '{':
    case '<':
      if (++depth > limit)
        return NestingError{line, column,
                            "the input nests brackets more than " +
                                std::to_string(limit) +
                                " levels deep; TLX does not parse it (MLIR's "
                                "parser would run out of stack)"};
      break;
    case '>':
      if (i > 0 && text[i - 1] == '-')
        break; // `->`
      [[fallthrough]];
    case ')':
    case ']':
    case '}':
      if (depth > 0)
        --depth;
      break;
    default:
      break;
    }
  }
  return std::nullopt;
}
