//===- Dialect.h - the nvg dialect ------------------------------*- C++ -*-===//

#ifndef TLX_DIALECT_NVGPU_IR_DIALECT_H
#define TLX_DIALECT_NVGPU_IR_DIALECT_H

#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tlx/Dialect/NVGPU/IR/Dialect.h.inc"

#define GET_OP_CLASSES
#include "tlx/Dialect/NVGPU/IR/Ops.h.inc"

#endif // TLX_DIALECT_NVGPU_IR_DIALECT_H
