//===- InputLexing.h - lexical helpers of the pre-parse checks --*- C++ -*-===//
//
// What the checks and respellings that read the input before MLIR's parser
// (InputLimits.h, InputRespelling.h) share of MLIR's lexical rules.
//
//===----------------------------------------------------------------------===//

#ifndef TLX_LIB_INITALL_INPUTLEXING_H
#define TLX_LIB_INITALL_INPUTLEXING_H

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <utility>

namespace mlir::tlx::lexing {

inline size_t skipSpace(llvm::StringRef text, size_t pos) {
  while (pos < text.size() && llvm::isSpace(text[pos]))
    ++pos;
  return pos;
}

/// The position just past the string literal that opens at `pos` (MLIR's
/// strings end at an unescaped quote, or the line).
inline size_t skipString(llvm::StringRef text, size_t pos) {
  for (++pos; pos < text.size(); ++pos) {
    if (text[pos] == '\\')
      ++pos;
    else if (text[pos] == '"' || text[pos] == '\n')
      return pos + 1;
  }
  return text.size();
}

/// The position of the `)` that closes the `(` at `open` (strings skipped);
/// npos where none does before the end, or before a `stop` character.
inline size_t findClosingParen(llvm::StringRef text, size_t open,
                               char stop = '\0') {
  unsigned depth = 0;
  for (size_t pos = open; pos < text.size();) {
    char c = text[pos];
    if (c == '"') {
      pos = skipString(text, pos);
      continue;
    }
    if (c == '(')
      ++depth;
    else if (c == ')' && --depth == 0)
      return pos;
    else if (c == stop)
      break;
    ++pos;
  }
  return llvm::StringRef::npos;
}

/// The value of the string literal `literal` (quotes included), escapes
/// decoded as MLIR's lexer does: `\\`, `\"`, `\n`, `\t` and two hex digits.
inline std::string decodeString(llvm::StringRef literal) {
  llvm::StringRef body = literal.drop_front().drop_back();
  std::string value;
  for (size_t pos = 0; pos < body.size(); ++pos) {
    char c = body[pos];
    if (c != '\\' || pos + 1 >= body.size()) {
      value.push_back(c);
      continue;
    }
    char next = body[++pos];
    if (next == 'n')
      value.push_back('\n');
    else if (next == 't')
      value.push_back('\t');
    else if (pos + 1 < body.size() && llvm::isHexDigit(next) &&
             llvm::isHexDigit(body[pos + 1]))
      value.push_back(
          static_cast<char>(llvm::hexFromNibbles(next, body[++pos])));
    else
      value.push_back(next);
  }
  return value;
}

/// The 1-based line and column of `offset` in `text`.
inline std::pair<unsigned, unsigned> lineAndColumn(llvm::StringRef text,
                                                   size_t offset) {
  llvm::StringRef before = text.take_front(offset);
  size_t lineStart = before.rfind('\n');
  unsigned column =
      lineStart == llvm::StringRef::npos ? offset + 1 : offset - lineStart;
  return {static_cast<unsigned>(before.count('\n')) + 1, column};
}

} // namespace mlir::tlx::lexing

#endif // TLX_LIB_INITALL_INPUTLEXING_H
