//===- InputRespelling.h - input respelled before parsing ------*- C++ -*-===//
//
// MLIR 22's `nvvm.barrier` assembly format ends in an optional group anchored
// on an attribute, `(qualified($reductionOp)^ $reductionPredicate)?`, so its
// parser reads a trailing `loc(...)` as that attribute: IR printed with debug
// info does not parse back ("undefined symbol alias id" for a location alias,
// or "'reductionOp' failed to satisfy constraint" for an inline location).
// TLX lowers `tlx.named_barrier_wait` to that op, and Triton prints its final
// TTGIR with locations, so the TLX stage that reads it back (layout pins,
// ballots, layout assertions) and `tlx-opt` on a dumped final TTGIR would
// fail on any kernel with a named barrier wait. Both respell such barriers in
// the generic form first, which parses and prints back as the custom form.
//
//===----------------------------------------------------------------------===//

#ifndef TLX_SUPPORT_INPUTRESPELLING_H
#define TLX_SUPPORT_INPUTRESPELLING_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::tlx {

/// `text` with every resultless `nvvm.barrier` that a location follows
/// written in the generic form (same line, same operands and location);
/// nullopt when there is none.
std::optional<std::string> respellLocatedNVVMBarriers(llvm::StringRef text);

} // namespace mlir::tlx

#endif // TLX_SUPPORT_INPUTRESPELLING_H
