//===- Dialect.h - the ttg dialect ------------------------------*- C++ -*-===//

#ifndef TLX_DIALECT_TRITONGPU_IR_DIALECT_H
#define TLX_DIALECT_TRITONGPU_IR_DIALECT_H

#include "tlx/Dialect/Triton/IR/Dialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"

#include "tlx/Dialect/TritonGPU/IR/Dialect.h.inc"

#include "tlx/Dialect/TritonGPU/IR/AttrInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tlx/Dialect/TritonGPU/IR/Attributes.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tlx/Dialect/TritonGPU/IR/Types.h.inc"

namespace mlir::triton::gpu {

/// Shared memory, the resource of local_alloc/load/store and cp.async.
struct SharedMemory : public SideEffects::Resource::Base<SharedMemory> {
  StringRef getName() final { return "<SharedMemory>"; }
};

/// Whether `encoding` is one of the shared-memory layouts (swizzled, NVMMA,
/// padded, shared linear).
bool isSharedEncoding(Attribute encoding);

/// The rank a layout encoding describes, or 0 when unknown.
unsigned getEncodingRank(Attribute encoding);

} // namespace mlir::triton::gpu

#define GET_OP_CLASSES
#include "tlx/Dialect/TritonGPU/IR/Ops.h.inc"

#endif // TLX_DIALECT_TRITONGPU_IR_DIALECT_H
