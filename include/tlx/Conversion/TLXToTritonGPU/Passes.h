//===- Passes.h - TLX -> TritonGPU lowering ---------------------*- C++ -*-===//

#ifndef TLX_CONVERSION_TLXTOTRITONGPU_PASSES_H
#define TLX_CONVERSION_TLXTOTRITONGPU_PASSES_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"
#include "tlx/Dialect/NVGPU/IR/Dialect.h"
#include "tlx/Dialect/TLX/IR/Dialect.h"
#include "tlx/Dialect/TritonNvidiaGPU/IR/Dialect.h"

namespace mlir::tlx {

#define GEN_PASS_DECL
#include "tlx/Conversion/TLXToTritonGPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tlx/Conversion/TLXToTritonGPU/Passes.h.inc"

} // namespace mlir::tlx

#endif // TLX_CONVERSION_TLXTOTRITONGPU_PASSES_H
