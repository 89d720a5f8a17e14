//===- InputLimits.cpp - input the TLX tools refuse before parsing --------===//

#include "tlx/Support/InputLimits.h"

#include "InputLexing.h"

#include <algorithm>

using namespace mlir::tlx;

std::optional<RefusedInput>
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
        return RefusedInput{line, column,
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

std::optional<RefusedInput>
mlir::tlx::findNamelessGenericOp(llvm::StringRef text) {
  for (size_t pos = 0; pos < text.size();) {
    if (text.substr(pos).starts_with("//")) {
      pos = text.find('\n', pos);
      continue;
    }
    // A location's name is a string followed by `(` too: `loc("x"(#loc))`.
    size_t afterLoc = text.substr(pos).starts_with("loc") &&
                              (pos == 0 || !llvm::isAlnum(text[pos - 1]))
                          ? lexing::skipSpace(text, pos + 3)
                          : text.size();
    if (afterLoc < text.size() && text[afterLoc] == '(') {
      pos = std::min(lexing::findClosingParen(text, afterLoc), text.size());
      continue;
    }
    if (text[pos] != '"') {
      ++pos;
      continue;
    }
    size_t end = lexing::skipString(text, pos);
    size_t next = lexing::skipSpace(text, end);
    if (next < text.size() && text[next] == '(') {
      std::string name = lexing::decodeString(text.slice(pos, end));
      auto [dialect, op] = llvm::StringRef(name).split('.');
      if (!dialect.empty() && op.empty()) {
        auto [line, column] = lexing::lineAndColumn(text, pos);
        return RefusedInput{
            line, column,
            "'" + name +
                "' names no operation: a generic operation is named "
                "dialect.operation (e.g. \"" +
                dialect.str() + ".op\")"};
      }
    }
    pos = end;
  }
  return std::nullopt;
}

std::optional<RefusedInput>
mlir::tlx::findRefusedInput(llvm::StringRef text,
                            bool allowUnregisteredDialects) {
  if (std::optional<RefusedInput> nesting = findExcessiveNesting(text))
    return nesting;
  if (allowUnregisteredDialects)
    return std::nullopt;
  return findNamelessGenericOp(text);
}
