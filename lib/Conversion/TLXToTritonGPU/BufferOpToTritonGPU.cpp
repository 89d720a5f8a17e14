//===- BufferOpToTritonGPU.cpp - buffers and their views -> ttg -----------===//
//
// A `!tlx.buffers` allocation becomes one ttg.local_alloc with the count as
// its leading dimension; a view of it becomes a memdesc view whose layout
// Layouts.h derives, the same way tlx-assign-layouts did for descriptors.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"
#include "tlx/Conversion/TLXToTritonGPU/Layouts.h"
#include "tlx/Conversion/TLXToTritonGPU/Patterns.h"

#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tlx;
namespace ttg = mlir::triton::gpu;

namespace {

struct LocalAllocOpConversion : OpConversionPattern<LocalAllocOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LocalAllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    BuffersType type = op.getType();
    Attribute layout = op.getLayoutAttr();
    if (type.getStorage() != StorageKind::smem || !layout)
      return rewriter.notifyMatchFailure(
          op, "needs shared-memory buffers with a layout");
    SmallVector<int64_t> shape{type.getCount()};
    llvm::append_range(shape, type.getShape());
    rewriter.replaceOpWithNewOp<ttg::LocalAllocOp>(
        op, getSharedMemDesc(shape, type.getElementType(), layout), Value(),
        /*alignment=*/IntegerAttr());
    return success();
  }
};

/// One buffer (or mbarrier) of a set: index the leading dimension.
struct LocalViewOpConversion : OpConversionPattern<LocalViewOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LocalViewOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ttg::MemDescType set = getMemDescType(adaptor.getSource());
    if (!set)
      return rewriter.notifyMatchFailure(op, "source is not a memdesc");
    auto type = ttg::MemDescType::get(
        set.getShape().drop_front(), set.getElementType(), set.getEncoding(),
        set.getMemorySpace(), /*mutableMemory=*/true);
    rewriter.replaceOpWithNewOp<ttg::MemDescIndexOp>(
        op, type, adaptor.getSource(), adaptor.getIndex());
    return success();
  }
};

struct LocalTransOpConversion : OpConversionPattern<LocalTransOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LocalTransOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ttg::MemDescType source = getMemDescType(adaptor.getSource());
    if (!source)
      return rewriter.notifyMatchFailure(op, "source is not a memdesc");
    FailureOr<Attribute> layout =
        getTransposedLayout(source.getEncoding(), op.getOrder());
    if (failed(layout))
      return rewriter.notifyMatchFailure(op, "layout cannot be transposed");
    // A view of a larger allocation keeps that allocation, transposed.
    SmallVector<int64_t> allocShape(source.getAllocShape());
    size_t lead = allocShape.size() - op.getOrder().size();
    SmallVector<int64_t> tile(allocShape.begin() + lead, allocShape.end());
    for (auto [index, dim] : llvm::enumerate(op.getOrder()))
      allocShape[lead + index] = tile[dim];
    BufferType result = op.getResult().getType();
    auto type = ttg::MemDescType::get(
        result.getShape(), result.getElementType(), *layout,
        source.getMemorySpace(), source.getMutableMemory(), allocShape);
    rewriter.replaceOpWithNewOp<ttg::MemDescTransOp>(
        op, type, adaptor.getSource(), op.getOrderAttr());
    return success();
  }
};

/// A tile of a buffer: same layout, the allocation's shape kept.
struct LocalSliceOpConversion : OpConversionPattern<LocalSliceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LocalSliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ttg::MemDescType source = getMemDescType(adaptor.getSource());
    if (!source)
      return rewriter.notifyMatchFailure(op, "source is not a memdesc");
    BufferType result = op.getResult().getType();
    auto type = ttg::MemDescType::get(
        result.getShape(), result.getElementType(), source.getEncoding(),
        source.getMemorySpace(), source.getMutableMemory(),
        source.getAllocShape());
    rewriter.replaceOpWithNewOp<ttg::MemDescSubsliceOp>(
        op, type, adaptor.getSource(), op.getOffsetsAttr());
    return success();
  }
};

struct LocalReinterpretOpConversion : OpConversionPattern<LocalReinterpretOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LocalReinterpretOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ttg::MemDescType source = getMemDescType(adaptor.getSource());
    if (!source)
      return rewriter.notifyMatchFailure(op, "source is not a memdesc");
    BufferType result = op.getResult().getType();
    FailureOr<Attribute> layout =
        getReinterpretedLayout(source.getEncoding(), source.getShape(), result);
    if (failed(layout))
      return rewriter.notifyMatchFailure(op, "layout cannot be reinterpreted");
    auto type =
        ttg::MemDescType::get(result.getShape(), result.getElementType(),
                              *layout, source.getMemorySpace(),
                              /*mutableMemory=*/true);
    rewriter.replaceOpWithNewOp<ttg::MemDescReinterpretOp>(op, type,
                                                           adaptor.getSource());
    return success();
  }
};

struct LocalLoadOpConversion : OpConversionPattern<LocalLoadOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LocalLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!getMemDescType(adaptor.getBuffer()))
      return rewriter.notifyMatchFailure(op, "buffer is not a memdesc");
    rewriter.replaceOpWithNewOp<ttg::LocalLoadOp>(op, op.getType(),
                                                  adaptor.getBuffer(), Value());
    return success();
  }
};

struct LocalStoreOpConversion : OpConversionPattern<LocalStoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(LocalStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!getMemDescType(adaptor.getBuffer()))
      return rewriter.notifyMatchFailure(op, "buffer is not a memdesc");
    rewriter.replaceOpWithNewOp<ttg::LocalStoreOp>(op, adaptor.getValue(),
                                                   adaptor.getBuffer());
    return success();
  }
};

} // namespace

void mlir::tlx::populateBufferOpToTritonGPUPatterns(
    RewritePatternSet &patterns) {
  patterns.add<LocalAllocOpConversion, LocalViewOpConversion,
               LocalTransOpConversion, LocalSliceOpConversion,
               LocalReinterpretOpConversion, LocalLoadOpConversion,
               LocalStoreOpConversion>(patterns.getContext());
}
