//===- InputLimits.h - input the TLX tools refuse before parsing -*- C++
//-*-===//
//
// Input MLIR 22's parser cannot be trusted with, found first and reported as
// a parse error at its position:
//
// * Brackets nested thousands of levels deep. The parser recurses once per
//   nested bracket, so such input overflows the stack and takes the process
//   with it (a crash no recovery can contain).
// * An operation in the generic form named by a dialect's namespace alone,
//   `"tt"()` or `"arith."()`. The parser accepts the name because the dialect
//   is loaded, then creating the operation aborts ("tt created with
//   unregistered dialect").
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

/// Where and why the tools refuse their input (1-based line and column).
struct RefusedInput {
  unsigned line;
  unsigned column;
  std::string message;
};

/// Where `text` first nests (, [, { or < (outside string literals; `->` is
/// no bracket) deeper than `limit`; nullopt within the limit.
std::optional<RefusedInput>
findExcessiveNesting(llvm::StringRef text, unsigned limit = kMaxNestingDepth);

/// The first operation in the generic form (a string followed by `(`, outside
/// `loc(...)`) whose name has no operation part: no `.`, or nothing after the
/// first one.
std::optional<RefusedInput> findNamelessGenericOp(llvm::StringRef text);

/// Both checks, the one entry point the tools call before parsing; the op
/// name check only where unregistered dialects are not allowed (where they
/// are, such a name is an operation of an unregistered dialect).
std::optional<RefusedInput>
findRefusedInput(llvm::StringRef text, bool allowUnregisteredDialects = false);

} // namespace mlir::tlx

#endif // TLX_SUPPORT_INPUTLIMITS_H
