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

/// The blocked layout Triton gives a tensor of `shape` when nothing better is
/// known (what convert-triton-to-tritongpu assigns): one element per thread,
/// lanes then warps spread from the fastest dimension, single CTA.
BlockedEncodingAttr getDefaultBlockedEncoding(MLIRContext *context,
                                              ArrayRef<int64_t> shape,
                                              unsigned numWarps,
                                              unsigned threadsPerWarp);

/// The NVMMA shared layout with the widest swizzle a `shape` buffer of
/// `elementBitWidth` allows: the layout TMA and wgmma/tcgen05 both read
/// fastest. With `transposed` the leading dimension is the contiguous one.
NVMMASharedEncodingAttr getDefaultNVMMASharedEncoding(MLIRContext *context,
                                                      ArrayRef<int64_t> shape,
                                                      unsigned elementBitWidth,
                                                      bool transposed = false,
                                                      bool fp4Padded = false);

/// The encoding of `tt.expand_dims` along `axis` of a tensor with `encoding`:
/// the parent of a slice along that axis, or failure when the encoding is
/// not such a slice.
FailureOr<Attribute> inferExpandDimsEncoding(Attribute encoding, unsigned axis);

/// The encoding of a reduction of a tensor with `encoding` along `axis`: a
/// slice of it, or null where `encoding` is not a distributed layout of a
/// rank above `axis`.
SliceEncodingAttr inferReduceEncoding(Attribute encoding, unsigned axis);

} // namespace mlir::triton::gpu

#define GET_OP_CLASSES
#include "tlx/Dialect/TritonGPU/IR/Ops.h.inc"

#endif // TLX_DIALECT_TRITONGPU_IR_DIALECT_H
