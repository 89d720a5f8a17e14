//===- Layouts.cpp - layout policy of the TLX -> TritonGPU lowering -------===//

#include "tlx/Conversion/TLXToTritonGPU/Layouts.h"
#include "tlx/Dialect/TritonNvidiaGPU/IR/Dialect.h"
#include "tlx/Support/OutOfResources.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tlx;
namespace ttg = mlir::triton::gpu;
namespace ttng = mlir::triton::nvidia_gpu;

Attribute mlir::tlx::getDefaultBufferLayout(BuffersType buffers) {
  return getDefaultBlockLayout(buffers.getShape(), buffers.getElementType());
}

Attribute mlir::tlx::getDefaultBlockLayout(ArrayRef<int64_t> shape,
                                           Type elementType) {
  MLIRContext *context = elementType.getContext();
  if (shape.size() >= 2)
    return ttg::getDefaultNVMMASharedEncoding(
        context, shape, elementType.getIntOrFloatBitWidth());
  return getUnswizzled1DLayout(context);
}

ttg::SwizzledSharedEncodingAttr
mlir::tlx::getUnswizzled1DLayout(MLIRContext *context) {
  return ttg::SwizzledSharedEncodingAttr::get(context, /*vec=*/1,
                                              /*perPhase=*/1, /*maxPhase=*/1,
                                              /*order=*/{0}, /*cgaBases=*/{});
}

std::optional<int64_t> mlir::tlx::getTargetCapability(Operation *op) {
  auto module =
      isa<ModuleOp>(op) ? cast<ModuleOp>(op) : op->getParentOfType<ModuleOp>();
  auto target =
      module ? module->getAttrOfType<StringAttr>("ttg.target") : StringAttr();
  unsigned capability = 0;
  StringRef text = target ? target.getValue() : StringRef();
  if (!text.consume_front("cuda:") || text.getAsInteger(10, capability))
    return std::nullopt;
  return capability;
}

LogicalResult mlir::tlx::verifyBlackwellTarget(Operation *op, StringRef what) {
  std::optional<int64_t> capability = getTargetCapability(op);
  if (!capability || *capability >= 100)
    return success();
  return op->emitOpError() << what << " needs sm_100 (Blackwell) or newer; "
                           << "this kernel is compiled for sm_" << *capability;
}

/// Whether `value`, a buffer or a view of it, has a use `isUse` accepts.
static bool reachesUse(Value value, function_ref<bool(OpOperand &)> isUse) {
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (isa<LocalViewOp, LocalSliceOp, LocalReshapeOp, LocalReinterpretOp>(
            user)) {
      if (reachesUse(user->getResult(0), isUse))
        return true;
    } else if (isUse(use)) {
      return true;
    }
  }
  return false;
}

/// A block-scale operand: the source of a tmem_copy into 8-bit tensor memory,
/// or a shared-memory scale operand of a block-scaled MMA.
static bool isBlockScaleUse(OpOperand &use) {
  if (auto copy = dyn_cast<TMEMCopyOp>(use.getOwner()))
    return use.get() == copy.getSrc() &&
           isBlockScaleBuffer(copy.getDst().getType());
  if (auto mma = dyn_cast<TCGen05MMAScaledOp>(use.getOwner()))
    return use.get() == mma.getAScale() || use.get() == mma.getBScale();
  return false;
}

/// The descriptor and buffer of a TMA op, or {} for any other op.
static std::pair<Value, Value> getTMAOperands(Operation *op) {
  if (auto load = dyn_cast<AsyncDescriptorLoadOp>(op))
    return {load.getDesc(), load.getBuffer()};
  if (auto store = dyn_cast<AsyncDescriptorStoreOp>(op))
    return {store.getDesc(), store.getBuffer()};
  return {};
}

/// The buffer of a TMA copy.
static bool isTMAUse(OpOperand &use) {
  return getTMAOperands(use.getOwner()).second == use.get();
}

bool mlir::tlx::isBlockScaleBuffer(BufferType buffer) {
  return buffer.getStorage() == StorageKind::tmem &&
         buffer.getElementType().isInteger(8);
}

/// A swizzled NVMMA layout repeats its swizzle every 8 rows (all dimensions
/// but the contiguous one, row-major; transposed: the last dimension of a
/// 2-D view), moving to the next phase every 128 / swizzle-bytes rows.
constexpr int64_t kSwizzleRows = 8;

/// Whether a slice of `sliceShape` out of `shape` cuts a `swizzleBytes`
/// NVMMA swizzle: Triton's memdesc_subslice refuses a slice when a power of
/// 2 of its rows, from its own count up to the source's, starts a row in
/// another phase. Transposed layouts are judged for 2-D views only (others
/// are left to Triton's verifier).
static bool cutsSwizzle(ArrayRef<int64_t> shape, ArrayRef<int64_t> sliceShape,
                        bool transposed, unsigned swizzleBytes) {
  if (swizzleBytes == 0)
    return false;
  int64_t rowsPerPhase = 128 / swizzleBytes;
  auto cuts = [&](int64_t slice, int64_t whole, int64_t rowsPerStep) {
    for (int64_t step = slice; step < whole; step *= 2)
      if (step * rowsPerStep >= rowsPerPhase &&
          step * rowsPerStep < kSwizzleRows)
        return true;
    return false;
  };
  if (transposed)
    return shape.size() == 2 && cuts(sliceShape[1], shape[1], 1);
  int64_t rowsPerStep = 1;
  for (int64_t dim = int64_t(shape.size()) - 2; dim >= 0; --dim) {
    if (cuts(sliceShape[dim], shape[dim], rowsPerStep))
      return true;
    rowsPerStep *= shape[dim];
  }
  return false;
}

/// Whether a local_slice of `buffer`, through views that keep or transpose
/// its layout, cuts a `swizzleBytes` NVMMA swizzle (`transposed` in the view
/// at hand).
static bool slicedAcrossSwizzle(Value buffer, unsigned swizzleBytes,
                                bool transposed = false) {
  for (Operation *user : buffer.getUsers()) {
    if (isa<LocalViewOp>(user) &&
        slicedAcrossSwizzle(user->getResult(0), swizzleBytes, transposed))
      return true;
    if (auto trans = dyn_cast<LocalTransOp>(user);
        trans && trans.getSource().getType().getShape().size() == 2 &&
        slicedAcrossSwizzle(trans.getResult(), swizzleBytes, !transposed))
      return true;
    auto slice = dyn_cast<LocalSliceOp>(user);
    if (!slice || slice.getSource() != buffer)
      continue;
    if (cutsSwizzle(slice.getSource().getType().getShape(),
                    slice.getResult().getType().getShape(), transposed,
                    swizzleBytes) ||
        slicedAcrossSwizzle(slice.getResult(), swizzleBytes, transposed))
      return true;
  }
  return false;
}

Attribute mlir::tlx::getDefaultBufferLayout(LocalAllocOp alloc) {
  BuffersType buffers = alloc.getType();
  // TMA copies to and from NVMMA layouts only: a 1-D buffer takes the
  // unswizzled one of rank 1 (as stock Triton gives a 1-D descriptor block).
  if (buffers.getShape().size() == 1 && reachesUse(alloc.getResult(), isTMAUse))
    return ttg::getDefaultNVMMASharedEncoding(
        alloc.getContext(), buffers.getShape(),
        buffers.getElementType().getIntOrFloatBitWidth());
  Attribute layout = getDefaultBufferLayout(buffers);
  auto nvmma = dyn_cast<ttg::NVMMASharedEncodingAttr>(layout);
  if (!nvmma)
    return layout;
  // tcgen05.cp reads block scales unswizzled (the cuBLAS layout is the
  // swizzle); TMA then loads them unswizzled too. A buffer sliced across its
  // swizzle takes the widest one its slices keep.
  unsigned swizzle = reachesUse(alloc.getResult(), isBlockScaleUse)
                         ? 0
                         : nvmma.getSwizzlingByteWidth();
  while (swizzle != 0 && slicedAcrossSwizzle(alloc.getResult(), swizzle))
    swizzle = swizzle > 32 ? swizzle / 2 : 0;
  if (swizzle == nvmma.getSwizzlingByteWidth())
    return layout;
  return ttg::NVMMASharedEncodingAttr::get(
      alloc.getContext(), swizzle, /*transposed=*/false,
      nvmma.getElementBitWidth(), nvmma.getFp4Padded(),
      buffers.getShape().size(), nvmma.getCgaBases());
}

FailureOr<ttg::MemDescType>
mlir::tlx::getBlockScaleView(ttg::MemDescType buffer, int64_t rows,
                             int64_t cols) {
  Attribute layout = buffer.getEncoding();
  auto nvmma = dyn_cast<ttg::NVMMASharedEncodingAttr>(layout);
  auto swizzled = dyn_cast<ttg::SwizzledSharedEncodingAttr>(layout);
  bool rowMajor = swizzled && llvm::equal(swizzled.getOrder(),
                                          llvm::reverse(llvm::seq<unsigned>(
                                              0, buffer.getShape().size())));
  bool unswizzled =
      (nvmma && nvmma.getSwizzlingByteWidth() == 0 && !nvmma.getTransposed()) ||
      (rowMajor && swizzled.getMaxPhase() == 1);
  // A view into a larger allocation (a slice) is not the buffer's bytes.
  if (!unswizzled || buffer.getAllocShape() != buffer.getShape() ||
      !llvm::isPowerOf2_64(rows / 128) || !llvm::isPowerOf2_64(cols / 4))
    return failure();
  // Byte b of the buffer holds scale (row, column): bits 0-1 the column in
  // a block of 4, bits 2-3 row / 32, bits 4-8 row % 32, then the blocks
  // along the columns, then the 128-row groups.
  SmallVector<int32_t> bases = {0, 1, 0, 2, 32, 0, 64, 0,  1,
                                0, 2, 0, 4, 0,  8, 0,  16, 0};
  for (int64_t column = 4; column < cols; column *= 2)
    bases.append({0, static_cast<int32_t>(column)});
  for (int64_t row = 128; row < rows; row *= 2)
    bases.append({static_cast<int32_t>(row), 0});
  auto view = ttg::SharedLinearEncodingAttr::get(
      buffer.getContext(), /*rank=*/2, bases, /*blockBases=*/{},
      /*alignment=*/128);
  return ttg::MemDescType::get({rows, cols}, buffer.getElementType(), view,
                               buffer.getMemorySpace(),
                               buffer.getMutableMemory());
}

FailureOr<Attribute> mlir::tlx::getTensorMemoryLayout(LocalAllocOp alloc) {
  BuffersType type = alloc.getType();
  MLIRContext *context = alloc.getContext();
  if (failed(verifyBlackwellTarget(alloc, "tensor memory (storage tmem)")))
    return failure();
  ArrayRef<int64_t> shape = type.getShape();
  unsigned bits = type.getElementType().getIntOrFloatBitWidth();
  if (isBlockScaleBuffer(type.getBufferType())) {
    Attribute user = alloc.getLayoutAttr();
    if (user && !isa<ttng::TensorMemoryScalesEncodingAttr>(user))
      return alloc.emitOpError("layout ")
             << user
             << " does not fit 8-bit tensor memory, which holds block "
                "scales (#ttng.tensor_memory_scales_encoding): give none";
    // At most 2 x 256 / 4 = 128 of the 512 columns.
    if ((shape[0] != 128 && shape[0] != 256) ||
        !llvm::isPowerOf2_64(shape[1]) || shape[1] > 256)
      return alloc.emitOpError("8-bit tensor memory holds block scales of "
                               "128 or 256 rows (the MMA's M or N) by a "
                               "power-of-two number of scales (K / 32) up to "
                               "256, got ")
             << shape[0] << "x" << shape[1];
    if (type.getCount() != 1)
      return alloc.emitOpError("Triton 3.6 keeps block scales in tensor "
                               "memory one buffer per allocation: allocate "
                               "them with num=1 (one tlx.local_alloc per "
                               "buffer), got num=")
             << type.getCount();
    return Attribute(ttng::TensorMemoryScalesEncodingAttr::get(
        context, /*CTASplitM=*/1, /*CTASplitN=*/1));
  }
  if (bits > 32)
    return alloc.emitOpError("tensor memory holds elements of at most 32 "
                             "bits, got ")
           << type.getElementType();
  auto layout =
      dyn_cast_or_null<ttng::TensorMemoryEncodingAttr>(alloc.getLayoutAttr());
  if (alloc.getLayoutAttr() && !layout)
    return alloc.emitOpError("layout ")
           << alloc.getLayoutAttr()
           << " is not a tensor memory layout: give tensor-memory buffers a "
              "tlx.tensor_memory_layout_encoding (#ttng.tensor_memory_"
              "encoding) or none";
  if (!layout) {
    if ((shape[0] != 64 && shape[0] != 128) || !llvm::isPowerOf2_64(shape[1]) ||
        shape[1] > 512)
      return alloc.emitOpError("tensor-memory buffers are 64 or 128 rows by "
                               "a power-of-two number of columns up to 512, "
                               "got ")
             << shape[0] << "x" << shape[1];
    layout = ttng::TensorMemoryEncodingAttr::get(
        context, shape[0], shape[1], /*colStride=*/1, /*CTASplitM=*/1,
        /*CTASplitN=*/1, /*twoCTAs=*/false);
  } else if (layout.getBlockM() != shape[0] || layout.getBlockN() > shape[1] ||
             layout.getTwoCTAs() || layout.getCTASplitM() != 1 ||
             layout.getCTASplitN() != 1 || bits * layout.getColStride() > 32) {
    return alloc.emitOpError("layout ")
           << layout << " does not fit " << shape[0] << "x" << shape[1] << " "
           << type.getElementType()
           << " buffers: blockM must be the rows, blockN at most the "
              "columns, colStride x element bits at most 32, one CTA";
  }
  int64_t columns = type.getTensorMemoryColumns(layout.getColStride());
  if (columns > kTensorMemoryColumns) {
    InFlightDiagnostic diag =
        alloc.emitOpError("tensor memory has ")
        << kTensorMemoryColumns << " columns of 32 bits per CTA; these "
        << type.getCount() << " buffers of " << shape[0] << "x" << shape[1]
        << " " << type.getElementType() << " need " << columns;
    return markOutOfResources(
        diag, {"tensor memory columns", columns, kTensorMemoryColumns});
  }
  return Attribute(layout);
}

unsigned mlir::tlx::getTensorMemoryElementsPerColumn(Type elementType,
                                                     Attribute layout) {
  auto tensorMemory = dyn_cast_or_null<ttng::TensorMemoryEncodingAttr>(layout);
  unsigned bits = elementType.getIntOrFloatBitWidth();
  if (!tensorMemory || bits == 0 || bits * tensorMemory.getColStride() >= 32)
    return 1;
  return 32 / (bits * tensorMemory.getColStride());
}

FailureOr<triton::gpu::BlockedEncodingAttr>
mlir::tlx::getTensorMemoryRegisterLayout(MLIRContext *context,
                                         ArrayRef<int64_t> shape,
                                         unsigned numWarps,
                                         unsigned elementsPerColumn) {
  // tcgen05.ld/st 32x32b: warp w of a warp group reaches lanes (rows)
  // 32(w % 4) .. 32(w % 4) + 31, one row per thread; 64-row buffers use 16
  // lanes per warp and split the columns in two halves over the others.
  // Warp groups beyond the first split the columns. This is the layout
  // Gluon's get_tmem_reg_layout(..., "32x32b") computes.
  if (shape.size() != 2 || numWarps % 4 != 0 ||
      (shape[0] != 64 && shape[0] != 128))
    return failure();
  unsigned rowsPerWarp = shape[0] == 64 ? 16 : 32;
  unsigned columnThreads = 32 / rowsPerWarp, columnWarps = numWarps / 4;
  if (shape[1] % (columnThreads * columnWarps) != 0)
    return failure();
  unsigned perThread = shape[1] / (columnThreads * columnWarps);
  if (perThread % elementsPerColumn != 0)
    return failure();
  return ttg::BlockedEncodingAttr::get(context, {1, perThread},
                                       {rowsPerWarp, columnThreads},
                                       {4, columnWarps}, /*order=*/{0, 1},
                                       /*cgaBases=*/{});
}

ttg::MemDescType mlir::tlx::getTensorMemDesc(ArrayRef<int64_t> shape,
                                             Type elementType,
                                             Attribute layout) {
  return ttg::MemDescType::get(
      shape, elementType, layout,
      ttng::TensorMemorySpaceAttr::get(elementType.getContext()),
      /*mutableMemory=*/true);
}

LogicalResult mlir::tlx::verifyBufferLayout(LocalAllocOp alloc,
                                            Attribute layout) {
  size_t rank = alloc.getType().getShape().size();
  if (!ttg::isSharedEncoding(layout))
    return alloc.emitOpError("layout ")
           << layout << " is not a shared-memory layout";
  if (ttg::getEncodingRank(layout) != rank)
    return alloc.emitOpError("layout ")
           << layout << " has rank " << ttg::getEncodingRank(layout)
           << " but the buffers have rank " << rank;
  return success();
}

FailureOr<Attribute> mlir::tlx::getTransposedLayout(Attribute layout,
                                                    ArrayRef<int32_t> order) {
  if (auto swizzled = dyn_cast<ttg::SwizzledSharedEncodingAttr>(layout)) {
    ArrayRef<unsigned> oldOrder = swizzled.getOrder();
    // Every dimension of the layout's order must be one the view permutes.
    if (oldOrder.size() != order.size())
      return failure();
    SmallVector<unsigned> inverse(order.size());
    for (auto [index, dim] : llvm::enumerate(order))
      inverse[dim] = index;
    SmallVector<unsigned> newOrder;
    for (unsigned dim : oldOrder)
      newOrder.push_back(inverse[dim]);
    return Attribute(ttg::SwizzledSharedEncodingAttr::get(
        layout.getContext(), swizzled.getVec(), swizzled.getPerPhase(),
        swizzled.getMaxPhase(), newOrder, swizzled.getCgaBases()));
  }
  if (auto nvmma = dyn_cast<ttg::NVMMASharedEncodingAttr>(layout))
    if (nvmma.getRank() == 2 && order == ArrayRef<int32_t>{1, 0})
      return Attribute(ttg::NVMMASharedEncodingAttr::get(
          layout.getContext(), nvmma.getSwizzlingByteWidth(),
          !nvmma.getTransposed(), nvmma.getElementBitWidth(),
          nvmma.getFp4Padded(), nvmma.getRank(), nvmma.getCgaBases()));
  return failure();
}

/// The layout of the same bytes seen as `result`: only layouts whose byte
/// pattern does not depend on the element type (NVMMA rows that keep their
/// byte length; an unswizzled buffer made 1-D); failure otherwise.
static FailureOr<Attribute>
getReinterpretedLayout(Attribute layout, ArrayRef<int64_t> sourceShape,
                       BufferType result) {
  ArrayRef<int64_t> newShape = result.getShape();
  unsigned bits = result.getElementType().getIntOrFloatBitWidth();
  if (auto nvmma = dyn_cast<ttg::NVMMASharedEncodingAttr>(layout)) {
    bool sameRows = sourceShape.size() == newShape.size() &&
                    sourceShape.drop_back() == newShape.drop_back() &&
                    sourceShape.back() * nvmma.getElementBitWidth() ==
                        newShape.back() * bits;
    if (sameRows && !nvmma.getTransposed())
      return Attribute(ttg::NVMMASharedEncodingAttr::get(
          layout.getContext(), nvmma.getSwizzlingByteWidth(),
          /*transposed=*/false, bits, nvmma.getFp4Padded(), newShape.size(),
          nvmma.getCgaBases()));
  }
  if (auto swizzled = dyn_cast<ttg::SwizzledSharedEncodingAttr>(layout))
    if (swizzled.getMaxPhase() == 1 && newShape.size() == 1)
      return Attribute(getUnswizzled1DLayout(layout.getContext()));
  return failure();
}

/// The layout of the same elements seen with `newShape`, as Triton 3.6's
/// memdesc_reshape infers it: an unswizzled row-major buffer takes any shape;
/// an NVMMA buffer keeps its rows (the innermost dimension) and regroups the
/// others; failure otherwise.
static FailureOr<Attribute> getReshapedLayout(Attribute layout,
                                              ArrayRef<int64_t> sourceShape,
                                              ArrayRef<int64_t> newShape) {
  MLIRContext *context = layout.getContext();
  if (auto swizzled = dyn_cast<ttg::SwizzledSharedEncodingAttr>(layout)) {
    bool rowMajor =
        llvm::equal(swizzled.getOrder(),
                    llvm::reverse(llvm::seq<unsigned>(0, sourceShape.size())));
    if (swizzled.getMaxPhase() != 1 || !rowMajor)
      return failure();
    SmallVector<unsigned> order(llvm::reverse(
        llvm::seq<unsigned>(0, static_cast<unsigned>(newShape.size()))));
    return Attribute(ttg::SwizzledSharedEncodingAttr::get(
        context, /*vec=*/1, /*perPhase=*/1, /*maxPhase=*/1, order,
        swizzled.getCgaBases()));
  }
  if (auto nvmma = dyn_cast<ttg::NVMMASharedEncodingAttr>(layout)) {
    if (nvmma.getTransposed() || newShape.size() < 2 ||
        newShape.back() != sourceShape.back())
      return failure();
    return Attribute(ttg::NVMMASharedEncodingAttr::get(
        context, nvmma.getSwizzlingByteWidth(), /*transposed=*/false,
        nvmma.getElementBitWidth(), nvmma.getFp4Padded(), newShape.size(),
        nvmma.getCgaBases()));
  }
  return failure();
}

FailureOr<Attribute> mlir::tlx::getViewLayout(Operation *view,
                                              Attribute sourceLayout) {
  return llvm::TypeSwitch<Operation *, FailureOr<Attribute>>(view)
      .Case<LocalViewOp>(
          [&](auto) -> FailureOr<Attribute> { return sourceLayout; })
      .Case<LocalSliceOp>([&](LocalSliceOp slice) -> FailureOr<Attribute> {
        if (auto nvmma = dyn_cast<ttg::NVMMASharedEncodingAttr>(sourceLayout);
            nvmma &&
            cutsSwizzle(slice.getSource().getType().getShape(),
                        slice.getResult().getType().getShape(),
                        nvmma.getTransposed(), nvmma.getSwizzlingByteWidth()))
          return failure();
        // A column slice of tensor memory keeps its rows; its blocks are at
        // most as wide as the slice.
        auto tmem = dyn_cast<ttng::TensorMemoryEncodingAttr>(sourceLayout);
        if (!tmem)
          return sourceLayout;
        int64_t width = slice.getResult().getType().getShape()[1];
        return Attribute(ttng::TensorMemoryEncodingAttr::get(
            slice.getContext(), tmem.getBlockM(),
            std::min<int64_t>(tmem.getBlockN(), width), tmem.getColStride(),
            tmem.getCTASplitM(), tmem.getCTASplitN(), tmem.getTwoCTAs()));
      })
      .Case<LocalTransOp>([&](LocalTransOp trans) {
        return getTransposedLayout(sourceLayout, trans.getOrder());
      })
      .Case<LocalReinterpretOp>([&](LocalReinterpretOp reinterpret) {
        return getReinterpretedLayout(
            sourceLayout, reinterpret.getSource().getType().getShape(),
            reinterpret.getResult().getType());
      })
      .Case<LocalReshapeOp>([&](LocalReshapeOp reshape) {
        return getReshapedLayout(sourceLayout,
                                 reshape.getSource().getType().getShape(),
                                 reshape.getResult().getType().getShape());
      })
      .Default([](Operation *) { return failure(); });
}

LogicalResult mlir::tlx::emitViewLayoutError(Operation *view,
                                             Attribute sourceLayout) {
  if (auto trans = dyn_cast<LocalTransOp>(view))
    return trans.emitOpError("cannot transpose a buffer with layout ")
           << sourceLayout << " by [" << trans.getOrder() << "]";
  if (auto reinterpret = dyn_cast<LocalReinterpretOp>(view))
    return reinterpret.emitOpError("cannot reinterpret a buffer with layout ")
           << sourceLayout << " as " << reinterpret.getResult().getType()
           << ": the rows must keep their byte length (and an unswizzled "
              "buffer must become 1-D)";
  if (auto slice = dyn_cast<LocalSliceOp>(view))
    return slice.emitOpError("cuts the swizzle of the buffer's layout ")
           << sourceLayout << ", which repeats every " << kSwizzleRows
           << " rows: slice at least " << kSwizzleRows
           << " rows, or give the buffer an unswizzled layout";
  if (auto reshape = dyn_cast<LocalReshapeOp>(view))
    return reshape.emitOpError("cannot reshape a buffer with layout ")
           << sourceLayout << " to ["
           << reshape.getResult().getType().getShape()
           << "]: an NVMMA buffer keeps its rows (the innermost dimension), "
              "only an unswizzled row-major buffer takes any shape";
  return view->emitOpError("is not a buffer view");
}

Attribute mlir::tlx::getDescriptorLayout(Attribute bufferLayout,
                                         unsigned blockRank) {
  if (ttg::getEncodingRank(bufferLayout) == blockRank)
    return bufferLayout;
  auto nvmma = dyn_cast<ttg::NVMMASharedEncodingAttr>(bufferLayout);
  if (!nvmma || nvmma.getRank() > blockRank || !nvmma.getCgaBases().empty())
    return Attribute();
  return ttg::NVMMASharedEncodingAttr::get(
      nvmma.getContext(), nvmma.getSwizzlingByteWidth(), nvmma.getTransposed(),
      nvmma.getElementBitWidth(), nvmma.getFp4Padded(), blockRank,
      nvmma.getCgaBases());
}

LogicalResult mlir::tlx::propagateBufferLayouts(
    ModuleOp module, AllocLayoutFn allocLayout, TMAUseFn onTMAUse,
    DotUseFn onDotUse, AssertFn onAssert, AccessFn onRegisterAccess) {
  DenseMap<Value, Attribute> layouts;
  bool anyFailed = false;
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (auto alloc = dyn_cast<LocalAllocOp>(op)) {
      FailureOr<Attribute> layout = allocLayout(alloc);
      if (failed(layout))
        anyFailed = true;
      else if (*layout)
        layouts[alloc.getResult()] = *layout;
      return;
    }
    if (isa<LocalViewOp, LocalSliceOp, LocalTransOp, LocalReinterpretOp,
            LocalReshapeOp>(op)) {
      // Views of mbarriers, and of buffers without a layout, have none.
      Attribute source = layouts.lookup(op->getOperand(0));
      if (!source)
        return;
      FailureOr<Attribute> layout = getViewLayout(op, source);
      if (failed(layout)) {
        anyFailed = true;
        (void)emitViewLayoutError(op, source);
        return;
      }
      layouts[op->getResult(0)] = *layout;
      return;
    }
    if (auto check = dyn_cast<AssertSameLayoutOp>(op);
        check && onAssert && isa<BufferType>(check.getLhs().getType())) {
      Attribute rhs = check.getRhs() ? layouts.lookup(check.getRhs())
                                     : check.getExpectedAttr();
      if (failed(onAssert(check, layouts.lookup(check.getLhs()), rhs)))
        anyFailed = true;
      return;
    }
    if (isa<LocalLoadOp, LocalStoreOp>(op) && onRegisterAccess) {
      Value buffer = isa<LocalLoadOp>(op) ? cast<LocalLoadOp>(op).getBuffer()
                                          : cast<LocalStoreOp>(op).getBuffer();
      if (failed(onRegisterAccess(op, buffer, layouts.lookup(buffer))))
        anyFailed = true;
      return;
    }
    if (isa<AsyncDotOp, TCGen05MMAOp, TCGen05MMAScaledOp>(op) && onDotUse) {
      // All take `a` and `b` as their first two operands.
      if (failed(onDotUse(op, layouts.lookup(op->getOperand(0)),
                          layouts.lookup(op->getOperand(1)))))
        anyFailed = true;
      return;
    }
    auto [desc, buffer] = getTMAOperands(op);
    if (Attribute layout = buffer ? layouts.lookup(buffer) : Attribute())
      if (failed(onTMAUse(op, desc, layout)))
        anyFailed = true;
  });
  return failure(anyFailed);
}

unsigned mlir::tlx::lookupNumWarps(Operation *op) {
  for (Operation *current = op; current; current = current->getParentOp()) {
    if (auto task = dyn_cast<AsyncTaskOp>(current))
      if (std::optional<uint32_t> numWarps = task.getNumWarps())
        return *numWarps;
    if (auto numWarps = current->getAttrOfType<IntegerAttr>("ttg.num-warps"))
      return numWarps.getInt();
  }
  return 4;
}

ttg::NvidiaMmaEncodingAttr mlir::tlx::getWgmmaLayout(MLIRContext *context,
                                                     ArrayRef<int64_t> shape,
                                                     unsigned elementBits,
                                                     unsigned numWarps) {
  unsigned warpsM = 4;
  while (warpsM < numWarps && warpsM * 16 < shape[0])
    warpsM *= 2;
  unsigned warpsN = std::max(1u, numWarps / warpsM);
  int64_t perWarpN = std::max<int64_t>(8, shape[1] / warpsN);
  unsigned instrN = 8;
  for (unsigned candidate = 256; candidate >= 8; candidate -= 8)
    if (perWarpN % candidate == 0) {
      instrN = candidate;
      break;
    }
  unsigned instrK = 256 / elementBits;
  return ttg::NvidiaMmaEncodingAttr::get(context, 3, 0, {warpsM, warpsN},
                                         /*cgaBases=*/{}, {16, instrN, instrK});
}

RankedTensorType mlir::tlx::getWgmmaAccumulatorType(AsyncDotOp dot) {
  RankedTensorType acc = dot.getAcc().getType();
  unsigned elementBits =
      dot.getB().getType().getElementType().getIntOrFloatBitWidth();
  auto layout = getWgmmaLayout(dot.getContext(), acc.getShape(), elementBits,
                               lookupNumWarps(dot));
  return RankedTensorType::get(acc.getShape(), acc.getElementType(), layout);
}

ttg::MemDescType mlir::tlx::getSharedMemDesc(ArrayRef<int64_t> shape,
                                             Type elementType,
                                             Attribute layout) {
  return ttg::MemDescType::get(
      shape, elementType, layout,
      ttg::SharedMemorySpaceAttr::get(elementType.getContext()),
      /*mutableMemory=*/true);
}
