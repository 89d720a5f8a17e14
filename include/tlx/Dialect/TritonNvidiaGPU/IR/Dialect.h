//===- Dialect.h - the ttng dialect -----------------------------*- C++ -*-===//

#ifndef TLX_DIALECT_TRITONNVIDIAGPU_IR_DIALECT_H
#define TLX_DIALECT_TRITONNVIDIAGPU_IR_DIALECT_H

#include "tlx/Dialect/TritonGPU/IR/Dialect.h"

#include "tlx/Dialect/TritonNvidiaGPU/IR/Dialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tlx/Dialect/TritonNvidiaGPU/IR/Attributes.h.inc"

namespace mlir::triton::nvidia_gpu {

/// Blackwell tensor memory, the resource of tmem and tcgen05 ops.
struct TensorMemory : public SideEffects::Resource::Base<TensorMemory> {
  StringRef getName() final { return "<TensorMemory>"; }
};

} // namespace mlir::triton::nvidia_gpu

#define GET_OP_CLASSES
#include "tlx/Dialect/TritonNvidiaGPU/IR/Ops.h.inc"

#endif // TLX_DIALECT_TRITONNVIDIAGPU_IR_DIALECT_H
