//===- Passes.h - TLX -> NVVM lowering --------------------------*- C++ -*-===//

#ifndef TLX_TLXTONVVM_PASSES_H
#define TLX_TLXTONVVM_PASSES_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tlx {

#define GEN_PASS_DECL
#include "TLXToNVVM/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "TLXToNVVM/Passes.h.inc"

} // namespace mlir::tlx

#endif // TLX_TLXTONVVM_PASSES_H
