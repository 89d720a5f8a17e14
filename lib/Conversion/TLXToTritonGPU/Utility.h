//===- Utility.h - helpers shared by the TLX -> TritonGPU patterns -*- C++
//-*-===//

#ifndef TLX_LIB_CONVERSION_TLXTOTRITONGPU_UTILITY_H
#define TLX_LIB_CONVERSION_TLXTOTRITONGPU_UTILITY_H

#include "tlx/Dialect/Triton/IR/Dialect.h"
#include "tlx/Dialect/TritonGPU/IR/Dialect.h"
#include "tlx/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace mlir::tlx {

/// The memory descriptor a converted buffer or mbarrier operand became; null
/// while it is still a TLX value (one the lowering cannot see the allocation
/// of): the patterns then do not match.
inline triton::gpu::MemDescType getMemDescType(Value converted) {
  return dyn_cast<triton::gpu::MemDescType>(converted.getType());
}

/// Whether a converted buffer lives in tensor memory.
inline bool isTensorMemory(triton::gpu::MemDescType type) {
  return isa_and_nonnull<triton::nvidia_gpu::TensorMemorySpaceAttr>(
      type.getMemorySpace());
}

/// `pred`, or a constant true where the TLX op has none: the ttng ops take
/// their predicate as a required operand.
inline Value getPredicateOrTrue(OpBuilder &builder, Location loc, Value pred) {
  if (pred)
    return pred;
  return arith::ConstantIntOp::create(builder, loc, /*value=*/1, /*width=*/1);
}

//===----------------------------------------------------------------------===//
// Shared-memory addresses, for the ops Triton 3.6 has no TritonGPU op for
//===----------------------------------------------------------------------===//
//
// PTX that addresses a buffer (mapa, remote arrives, multicast TMA, per-thread
// mbarrier arrives) needs its shared-memory address, which only Triton's LLVM
// lowering knows. The patterns write it as a cast of the memory descriptor to
// the struct Triton 3.6 lowers it to (base pointer, one i32 offset per
// dimension) and take the base: when Triton converts the descriptor, the cast
// folds into its base pointer.

/// NVPTX address spaces of the pointers that PTX takes.
constexpr unsigned kSharedAddressSpace = 3;
constexpr unsigned kSharedClusterAddressSpace = 7;

/// The shared-memory address of the first byte of `memdesc`, an
/// `!llvm.ptr<3>`, for users that read or write its bytes in order: a
/// subslice must be one contiguous piece of its buffer, laid out as a whole
/// tile of its shape would be (NVMMA: whole swizzle columns and 8-row groups,
/// and all rows where it spans more than one swizzle column; unswizzled
/// row-major: whole rows); failure otherwise, after an error at `user`.
FailureOr<Value> getSharedAddress(OpBuilder &builder, Location loc,
                                  Value memdesc, Operation *user);

/// The bytes of a memory descriptor's elements.
int64_t getByteSize(triton::gpu::MemDescType type);

/// getSharedAddress of each of `memdescs`, in order.
FailureOr<SmallVector<Value>> getSharedAddresses(OpBuilder &builder,
                                                 Location loc,
                                                 ValueRange memdescs,
                                                 Operation *user);

/// `address` in CTA `rank` of the cluster (`mapa.shared::cluster`), an
/// `!llvm.ptr<7>`.
Value mapToCTA(OpBuilder &builder, Location loc, Value address, Value rank);

/// The address of a TMA descriptor (a kernel parameter), an `!llvm.ptr`.
Value getDescriptorAddress(OpBuilder &builder, Location loc, Value desc);

/// True in one thread of the task running the op (lane 0 of its first warp:
/// `nvg.warp_id` counts from a partition's first warp), and `pred`.
Value getIssuerPredicate(OpBuilder &builder, Location loc, Value pred);

/// The TMA messages that move one block of `shape` in shared layout
/// `encoding`, as Triton 3.6's host-side tensor map and its own TMA lowering
/// split it: the innermost extent of a box is the swizzle width.
struct TMABoxes {
  int64_t count;     ///< boxes along the innermost dimension
  int64_t innerSize; ///< elements of one box along it
  int64_t stride;    ///< bytes from one box to the next in shared memory
};
/// Failure (after an error at `user`) for blocks this lowering does not
/// split: MN-major (transposed) NVMMA, or a dimension over 256. `stride` is
/// that of a whole tile of `shape`.
FailureOr<TMABoxes> getTMABoxes(ArrayRef<int64_t> shape, Type elementType,
                                Attribute encoding, Operation *user);

/// The TMA boxes of a shared-memory `buffer` (a whole buffer or a slice of
/// one) and the address of the first: a slice of fewer rows than its buffer
/// is not contiguous, and its boxes lie a swizzle column of the buffer apart.
/// Failure after an error at `user`.
FailureOr<std::pair<Value, TMABoxes>>
getTMABoxesOf(OpBuilder &builder, Location loc, Value buffer, Operation *user);

/// Emits one TMA message per box: `emit(coordinates, address)` with the
/// box's coordinates innermost first (as the tensor map orders them) and its
/// first byte in shared memory, `base` advanced by the boxes before it (null
/// when `base` is: a prefetch has no buffer).
void forEachTMABox(OpBuilder &builder, Location loc, const TMABoxes &boxes,
                   ValueRange offsets, Value base,
                   function_ref<void(ArrayRef<Value>, Value)> emit);

/// `${first}, ${first + 1}, ...`: `count` inline-asm operand references.
std::string getOperandList(unsigned first, unsigned count);

/// The 64-bit L2 cache policy of `evict_first` / `evict_last`
/// (`createpolicy.fractional.L2::evict_*.b64 policy, 1.0`) that a copy with
/// `.L2::cache_hint` takes as its last operand; null for `evict_normal`.
Value createL2CachePolicy(OpBuilder &builder, Location loc,
                          triton::EvictionPolicy evict);

/// The swizzle field of a tensor map for blocks in shared layout `layout` (0
/// none, 1/2/3 32/64/128 bytes); failure for layouts TMA cannot write.
FailureOr<int32_t> getTensorMapSwizzle(Attribute layout);

//===----------------------------------------------------------------------===//
// Element by element access to row-major shared buffers (inline PTX)
//===----------------------------------------------------------------------===//

/// Whether a shared buffer is row-major and unswizzled: element (i, j, ...)
/// at its row-major index, which inline PTX can address.
bool isRowMajorUnswizzled(triton::gpu::MemDescType buffer);

/// The inline-asm register class and PTX type of a `bits`-wide element
/// ({"h", "b16"}, {"r", "b32"}, {"l", "b64"}); empty for other widths.
std::pair<StringRef, StringRef> getRegisterClass(int64_t bits);

/// The index along `dim` of every element of a tensor of `type` (an i32
/// tensor of its shape and layout).
Value getIndexAlong(OpBuilder &builder, Location loc, RankedTensorType type,
                    int64_t dim);

/// For every element of a tensor of `type`: `base` (an i32 address) plus
/// the byte offset, in a row-major buffer of `bufferShape` and
/// `elementBytes`, of the element's own index, or along a dimension d of
/// `indices[d]` when given (a gather or scatter axis).
Value getElementAddresses(OpBuilder &builder, Location loc,
                          RankedTensorType type, Value base,
                          ArrayRef<int64_t> bufferShape, int64_t elementBytes,
                          ArrayRef<Value> indices);

/// A barrier of the CTA (of the task, inside one) before inline PTX that
/// issues an asynchronous copy of a buffer for the whole CTA: Triton's membar
/// analysis cannot see what inline PTX accesses, so unlike its own TMA ops it
/// would not order the copy after the other threads' earlier accesses of the
/// buffer (their st.shared before a TMA store, their reads before a load
/// overwrites it).
void createBarrierBeforeAsyncCopy(OpBuilder &builder, Location loc);

/// Inline PTX with side effects and no results.
void createPtx(OpBuilder &builder, Location loc, StringRef ptx,
               StringRef constraints, ValueRange operands);

/// Where an mbarrier arrive's address points: this CTA's shared memory, or
/// any CTA's of the cluster (an address `mapa` mapped to the peer).
enum class MbarrierSpace { CTA, Cluster };

/// `@pred mbarrier.arrive.<space>.b64 _, [address], count;` (`shared::cta`
/// or `shared::cluster`). A local count of 1, the instruction's
/// default, is left out: as an operand it takes a register. A remote arrive
/// keeps it: with the register, ptxas issues the attention cluster pairs'
/// arrive on the peer CTA 50-130 instructions after their wait for P @ V, and
/// the pairs ran 4% faster than with it right after the wait (H100, bf16,
/// D=128, N = 8192 and 16384; 2026-12-07 session 36 results). Why the later
/// arrive is faster is not known.
void createMbarrierArrive(OpBuilder &builder, Location loc, MbarrierSpace space,
                          Value pred, Value address, int64_t count);

//===----------------------------------------------------------------------===//
// Markers: what must wait for Triton's layout optimizations
//===----------------------------------------------------------------------===//
//
// `tt.elementwise_inline_asm ""` with `pure = false`: Triton's passes keep it
// in place and alive and give it the layout of its operand, and parse and
// print its attributes (layout rematerialization may leave copies of it that
// nothing reads). `tlx.layout_marker` says which marker it is (a string, which
// Python reads too); a pass on the final TTGIR replaces it.

constexpr llvm::StringLiteral kLayoutMarkerAttr = "tlx.layout_marker";

/// The kind of marker `op` is, or "" for any other op.
StringRef getMarkerKind(Operation *op);

/// A marker of `kind` on `values` (of one shape; its result has the type of
/// the first), with `attributes` for the pass that replaces it.
Value createMarker(OpBuilder &builder, Location loc, ValueRange values,
                   StringRef kind, ArrayRef<NamedAttribute> attributes = {});

} // namespace mlir::tlx

#endif // TLX_LIB_CONVERSION_TLXTOTRITONGPU_UTILITY_H
