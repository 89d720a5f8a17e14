//===- Layouts.h - layout policy of the TLX -> TritonGPU lowering -*- C++
//-*-===//
//
// Every layout decision of the lowering, in one place: the shared layout a
// buffer gets when the user gives none, how views transform it, the layout
// of mbarriers and the wgmma accumulator layout. `tlx-assign-layouts` and the
// conversion patterns both ask these functions, so the layout the pass
// writes on a descriptor is the layout the patterns give its buffer.
//
//===----------------------------------------------------------------------===//

#ifndef TLX_CONVERSION_TLXTOTRITONGPU_LAYOUTS_H
#define TLX_CONVERSION_TLXTOTRITONGPU_LAYOUTS_H

#include "tlx/Dialect/TLX/IR/Dialect.h"
#include "tlx/Dialect/TritonGPU/IR/Dialect.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace mlir::tlx {

/// The layout of a `buffers` allocation the user gave none: the NVMMA shared
/// layout with the widest swizzle the shape allows for rank >= 2 (one layout
/// that both TMA and wgmma read at full speed), unswizzled for 1-D.
Attribute getDefaultBufferLayout(BuffersType buffers);

/// The layout `alloc` gets when the user gives none: its buffers' default,
/// except for block scales that tcgen05.cp copies to tensor memory, which
/// it reads unswizzled.
Attribute getDefaultBufferLayout(LocalAllocOp alloc);

/// Whether `buffer` holds block scales: 8-bit tensor memory (its layout is
/// #ttng.tensor_memory_scales_encoding).
bool isBlockScaleBuffer(BufferType buffer);

/// `buffer`, rows x cols block scales in shared memory in the cuBLAS
/// block-scaling layout (any shape of those bytes), seen as the rows x cols
/// matrix tcgen05.cp copies to tensor memory: a memdesc of the same bytes
/// with the #ttg.shared_linear layout that places each scale; failure unless
/// the buffer is a whole buffer (not a slice), unswizzled and row-major.
FailureOr<triton::gpu::MemDescType>
getBlockScaleView(triton::gpu::MemDescType buffer, int64_t rows, int64_t cols);

/// The default shared layout of a buffer of `shape` x `elementType` (that of
/// a tlx.local_alloc without `layout`).
Attribute getDefaultBlockLayout(ArrayRef<int64_t> shape, Type elementType);

/// The layout of a TMA descriptor whose block has `blockRank` dimensions and
/// copies buffers of layout `bufferLayout`: that layout, at the block's rank
/// where the block has leading dimensions of 1 the buffers have not (an NVMMA
/// layout only); null where there is none.
Attribute getDescriptorLayout(Attribute bufferLayout, unsigned blockRank);

/// The unswizzled 1-D shared layout: 1-D buffers, reinterpreted unswizzled
/// buffers and mbarriers (one 64-bit word each) have it.
triton::gpu::SwizzledSharedEncodingAttr
getUnswizzled1DLayout(MLIRContext *context);

/// Checks a local_alloc's layout: a shared-memory layout of the buffers'
/// rank. Emits the error at `alloc` otherwise.
LogicalResult verifyBufferLayout(LocalAllocOp alloc, Attribute layout);

/// The compute capability of the module's `ttg.target` ("cuda:100" -> 100).
std::optional<int64_t> getTargetCapability(Operation *op);

/// An error at `op` unless the target is sm_100 or newer (or unknown).
LogicalResult verifyBlackwellTarget(Operation *op, StringRef what);

/// The 32-bit columns of tensor memory per CTA (128 lanes each).
constexpr int64_t kTensorMemoryColumns = 512;

/// The user's tensor-memory layout of a tmem allocation, checked, or the
/// default one (blockM = rows, blockN = columns, packed); errors at `alloc`
/// for shapes tensor memory cannot hold, other targets than sm_100+ and
/// more than its 512 columns.
FailureOr<Attribute> getTensorMemoryLayout(LocalAllocOp alloc);

/// How many elements of `elementType` one 32-bit tensor-memory column holds
/// in `layout` (2 for packed 16-bit elements); 1 for an unknown layout.
unsigned getTensorMemoryElementsPerColumn(Type elementType, Attribute layout);

/// The register layout of a tcgen05.ld / tcgen05.st (32x32b) of a `shape`
/// tensor-memory buffer by `numWarps` warps, each thread moving whole 32-bit
/// columns of `elementsPerColumn` elements; failure where there is none.
FailureOr<triton::gpu::BlockedEncodingAttr>
getTensorMemoryRegisterLayout(MLIRContext *context, ArrayRef<int64_t> shape,
                              unsigned numWarps, unsigned elementsPerColumn);

triton::gpu::MemDescType getTensorMemDesc(ArrayRef<int64_t> shape,
                                          Type elementType, Attribute layout);

/// The layout of a transposed view by `order`: swizzled layouts permute
/// their order, 2-D NVMMA layouts flip between K-major and MN-major; failure
/// for any other layout.
FailureOr<Attribute> getTransposedLayout(Attribute layout,
                                         ArrayRef<int32_t> order);

/// The layout of the result of a buffer view (local_view, local_slice,
/// local_trans, local_reinterpret, local_reshape) whose source has
/// `sourceLayout`; failure, without a diagnostic, when the view cannot keep
/// the bytes where they are.
FailureOr<Attribute> getViewLayout(Operation *view, Attribute sourceLayout);

/// Emits the error for a view getViewLayout rejects.
LogicalResult emitViewLayoutError(Operation *view, Attribute sourceLayout);

/// The layout a local_alloc gets: failure after a diagnostic, or a null
/// attribute to leave the allocation (and its views) without one.
using AllocLayoutFn = function_ref<FailureOr<Attribute>(LocalAllocOp)>;
/// Called for every TMA op whose buffer has a layout: the op, its
/// descriptor and the buffer's layout.
using TMAUseFn =
    function_ref<LogicalResult(Operation *, Value desc, Attribute layout)>;
/// Called for every async_dot and tcgen05_mma_scaled: the layouts of `a`
/// (null when it comes from registers) and of `b`.
using DotUseFn = function_ref<LogicalResult(Operation *dot, Attribute aLayout,
                                            Attribute bLayout)>;
/// Called for every assert_same_layout of buffers: the layout of `lhs`, and
/// that of `rhs` or the expected one.
using AssertFn = function_ref<LogicalResult(
    AssertSameLayoutOp, Attribute lhsLayout, Attribute rhsLayout)>;
/// Called for every local_load and local_store: the op, its buffer and the
/// buffer's layout (null when the buffer has none or it is unknown here).
using AccessFn =
    function_ref<LogicalResult(Operation *, Value buffer, Attribute layout)>;

/// Walks `module` in order and gives every buffer value a layout: an
/// allocation the one `allocLayout` returns, a view the one getViewLayout
/// derives from its source (an error at each view that has none). Calls
/// `onTMAUse` for every TMA load and store, `onAssert`, when given, for every
/// assertion on buffers, and `onDotUse`, when given, for every async_dot,
/// tcgen05_mma and tcgen05_mma_scaled, and `onRegisterAccess`, when given,
/// for every local_load and local_store (its buffer's layout, null when
/// unknown). Keeps going after an error, so that one run reports them all.
LogicalResult propagateBufferLayouts(ModuleOp module, AllocLayoutFn allocLayout,
                                     TMAUseFn onTMAUse,
                                     DotUseFn onDotUse = nullptr,
                                     AssertFn onAssert = nullptr,
                                     AccessFn onRegisterAccess = nullptr);

/// The warps that run `op`: those of the async task it is in (a task that
/// states num_warps), else its function's or module's "ttg.num-warps" (4
/// where none says).
unsigned lookupNumWarps(Operation *op);

/// The wgmma accumulator layout for an MxN result of `elementBits`-bit
/// operands: warp groups stacked along M (4 warps per 64 rows) while M
/// allows, the rest along N; the widest N per instruction that divides it.
triton::gpu::NvidiaMmaEncodingAttr getWgmmaLayout(MLIRContext *context,
                                                  ArrayRef<int64_t> shape,
                                                  unsigned elementBits,
                                                  unsigned numWarps);

/// The type of `dot`'s accumulator in the wgmma layout it runs in.
RankedTensorType getWgmmaAccumulatorType(AsyncDotOp dot);

/// A mutable descriptor of `shape` elements in shared memory, covering its
/// whole allocation.
/// Whether `layout` lays a tensor out over threads (blocked, linear, slice,
/// NVIDIA MMA, MMA operand).
bool isRegisterLayout(Attribute layout);

/// The warps a register layout spreads a tensor over; none for a layout
/// that does not say.
std::optional<int64_t> getLayoutWarps(Attribute layout);

/// `layout`, a register layout made for some number of warps, made for
/// `numWarps` instead: each thread holds the same elements per warp, and the
/// elements of warps that go (or come) move into (or out of) the registers
/// of those that stay. Failure for a layout that cannot be: a wgmma
/// accumulator on fewer than 4 warps, a layout of another kind.
FailureOr<Attribute> fitLayoutToWarps(Attribute layout, unsigned numWarps);

/// An error at `op` unless `layout` is a register layout for tensors of
/// `type`'s rank over the warps `op` runs on (a linear layout: of its shape).
LogicalResult verifyRegisterLayout(Operation *op, Attribute layout,
                                   RankedTensorType type);

/// `root` has just taken a register layout (its type), and its users still
/// expect `rootOldType`: the values computed elementwise from it, and the
/// values scf.for loops carry for them, take the layout too (their other
/// operands converted to it), every other user is given the type it had.
void propagateRegisterLayout(Value root, Type rootOldType);

triton::gpu::MemDescType getSharedMemDesc(ArrayRef<int64_t> shape,
                                          Type elementType, Attribute layout);

} // namespace mlir::tlx

#endif // TLX_CONVERSION_TLXTOTRITONGPU_LAYOUTS_H
