//===- Layouts.cpp - layout policy of the TLX -> TritonGPU lowering -------===//

#include "tlx/Conversion/TLXToTritonGPU/Layouts.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tlx;
namespace ttg = mlir::triton::gpu;

Attribute mlir::tlx::getDefaultBufferLayout(BuffersType buffers) {
  MLIRContext *context = buffers.getContext();
  ArrayRef<int64_t> shape = buffers.getShape();
  if (shape.size() >= 2)
    return ttg::getDefaultNVMMASharedEncoding(
        context, shape, buffers.getElementType().getIntOrFloatBitWidth());
  return getUnswizzled1DLayout(context);
}

ttg::SwizzledSharedEncodingAttr
mlir::tlx::getUnswizzled1DLayout(MLIRContext *context) {
  return ttg::SwizzledSharedEncodingAttr::get(context, /*vec=*/1,
                                              /*perPhase=*/1, /*maxPhase=*/1,
                                              /*order=*/{0}, /*cgaBases=*/{});
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
      .Case<LocalViewOp, LocalSliceOp>(
          [&](auto) -> FailureOr<Attribute> { return sourceLayout; })
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
  if (auto reshape = dyn_cast<LocalReshapeOp>(view))
    return reshape.emitOpError("cannot reshape a buffer with layout ")
           << sourceLayout << " to ["
           << reshape.getResult().getType().getShape()
           << "]: an NVMMA buffer keeps its rows (the innermost dimension), "
              "only an unswizzled row-major buffer takes any shape";
  return view->emitOpError("is not a buffer view");
}

/// The descriptor and buffer of a TMA op, or {} for any other op.
static std::pair<Value, Value> getTMAOperands(Operation *op) {
  if (auto load = dyn_cast<AsyncDescriptorLoadOp>(op))
    return {load.getDesc(), load.getBuffer()};
  if (auto store = dyn_cast<AsyncDescriptorStoreOp>(op))
    return {store.getDesc(), store.getBuffer()};
  return {};
}

LogicalResult mlir::tlx::propagateBufferLayouts(ModuleOp module,
                                                AllocLayoutFn allocLayout,
                                                TMAUseFn onTMAUse,
                                                DotUseFn onDotUse) {
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
    if (auto dot = dyn_cast<AsyncDotOp>(op); dot && onDotUse) {
      if (failed(onDotUse(dot, layouts.lookup(dot.getA()),
                          layouts.lookup(dot.getB()))))
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
  for (Operation *current = op; current; current = current->getParentOp())
    if (auto numWarps = current->getAttrOfType<IntegerAttr>("ttg.num-warps"))
      return numWarps.getInt();
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
