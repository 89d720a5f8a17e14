//===- InputRespelling.h - input respelled before parsing ------*- C++ -*-===//
//
// The TLX tools respell two things in their input before MLIR 22's parser
// reads it, both where that parser cannot cope:
//
// * `nvvm.barrier` followed by a location. Its assembly format ends in an
//   optional group anchored on an attribute,
//   `(qualified($reductionOp)^ $reductionPredicate)?`, so the parser reads a
//   trailing `loc(...)` as that attribute: IR printed with debug info does
//   not parse back ("undefined symbol alias id" for a location alias, or
//   "'reductionOp' failed to satisfy constraint" for an inline location).
//   TLX lowers `tlx.named_barrier_wait` to that op and Triton prints its
//   final TTGIR with locations, so the TLX stage that reads it back and
//   `tlx-opt` on a dumped final TTGIR would fail on any kernel with a named
//   barrier wait. Such barriers are respelled in the generic form, which
//   parses and prints back as the custom form.
//
// * A name used before any definition of it and then defined inside a
//   region that does not hold the use. The parser keeps one name table per
//   isolated scope, and ops in their custom form (builtin.module, func.func)
//   open none, so it resolves the use to that inner definition. The IR is
//   invalid either way, but when the region belongs to an op with a
//   declarative assembly format (builtin.module, tlx.async_tasks,
//   tlx.async_task) and fails to parse after its first block, the parser
//   destroys the region, held outside its cleanup, and with it an operation
//   that still has a use: "operation destroyed but still has uses", an
//   abort. Each name defined inside such a region is renamed throughout the
//   region to a name of the same length used nowhere in the input, so the
//   use outside stays undefined and the parser reports the input's real
//   error at its line and column (its source excerpt shows the new name).
//   Renaming every occurrence of a name within a region that defines it
//   keeps valid IR meaning what it meant: a value defined in a region is
//   visible only inside it, so no occurrence there refers to anything
//   outside. The reading is lexical (strings and comments skipped); an
//   isolated op in the generic form is not told apart from another.
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

/// `text` with every name that is defined inside a region and used before
/// that, outside it, renamed throughout that region (same length, so
/// diagnostics keep their columns); nullopt when there is none.
std::optional<std::string> respellRegionLocalNames(llvm::StringRef text);

/// `text` with both respellings above applied; nullopt when neither changes
/// anything. The one entry point the tools call before parsing.
std::optional<std::string> respellForParsing(llvm::StringRef text);

} // namespace mlir::tlx

#endif // TLX_SUPPORT_INPUTRESPELLING_H
