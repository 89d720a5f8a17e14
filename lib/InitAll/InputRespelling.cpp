//===- InputRespelling.cpp - input the TLX tools respell before parsing ---===//

#include "tlx/Support/InputRespelling.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Regex.h"

std::optional<std::string>
mlir::tlx::respellLocatedNVVMBarriers(llvm::StringRef text) {
  if (!text.contains("nvvm.barrier "))
    return std::nullopt;
  // indent, `id = %a`, `number_of_threads = %b`, then the location.
  static const llvm::Regex located(
      "^([ \t]*)nvvm\\.barrier( id = (%[^ ,]+))?( number_of_threads = "
      "(%[^ ,]+))?( loc\\(.*)$");
  std::string out;
  out.reserve(text.size() + 64);
  bool changed = false;
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    bool hasNewline = line.size() < text.size();
    text = rest;
    llvm::SmallVector<llvm::StringRef, 7> parts;
    if (!located.match(line, &parts)) {
      out += line;
    } else {
      changed = true;
      bool hasId = !parts[2].empty(), hasCount = !parts[4].empty();
      std::string operands, types;
      for (auto [present, value] :
           {std::pair{hasId, parts[3]}, std::pair{hasCount, parts[5]}}) {
        if (!present)
          continue;
        operands += (operands.empty() ? "" : ", ") + value.str();
        types += types.empty() ? "i32" : ", i32";
      }
      out += parts[1].str() + "\"nvvm.barrier\"(" + operands +
             ") <{operandSegmentSizes = array<i32: " + (hasId ? "1" : "0") +
             ", " + (hasCount ? "1" : "0") + ", 0>}> : (" + types + ") -> ()" +
             parts[6].str();
    }
    if (hasNewline)
      out += '\n';
  }
  if (!changed)
    return std::nullopt;
  return out;
}
