//===- InputLimits.h - input the TLX tools refuse before parsing -*- C++
//-*-===//
//
// MLIR's parser recurses once per nested bracket: input nested thousands of
// levels deep overflows the stack and takes the process with it (a crash no
// recovery can contain). The tools and the Python binding check the nesting
// first and report it as a parse error at its position.
//
//===----------------------------------------------------------------------===//

#ifndef TLX_SUPPORT_INPUTLIMITS_H
#define TLX_SUPPORT_INPUTLIMITS_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::tlx {

/// The deepest bracket nesting TLX parses; real kernels stay below 100.
constexpr unsigned kMaxNestingDepth = 1000;

/// Where `text` first nests (, [, { or < (outside string literals; `->` is
/// no bracket) deeper than `limit`, as a 1-based line and column, with the
/// message to report there; nullopt within the limit.
struct NestingError {
  unsigned line;
  unsigned column;
  std::string message;
};
std::optional<NestingError>
findExcessiveNesting(llvm::StringRef text, unsigned limit = kMaxNestingDepth);

} // namespace mlir::tlx

#endif // TLX_SUPPORT_INPUTLIMITS_H
