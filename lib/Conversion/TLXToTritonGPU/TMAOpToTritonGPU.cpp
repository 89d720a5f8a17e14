//===- TMAOpToTritonGPU.cpp - TMA copies and fences -> ttng ---------------===//
//
// The descriptors already carry their buffers' layouts (tlx-assign-layouts
// rewrote the kernel signature or tt.make_tensor_descriptor), which is what
// the host-side tensor map and the ttng copies agree on.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"
#include "tlx/Conversion/TLXToTritonGPU/Patterns.h"
#include "tlx/Dialect/TLX/IR/Dialect.h"
#include "tlx/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tlx;
namespace ttg = mlir::triton::gpu;
namespace ttng = mlir::triton::nvidia_gpu;

namespace {

bool areMemDescs(ValueRange converted) {
  return llvm::all_of(converted, [](Value value) {
    return static_cast<bool>(getMemDescType(value));
  });
}

struct AsyncDescriptorLoadOpConversion
    : OpConversionPattern<AsyncDescriptorLoadOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AsyncDescriptorLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getMulticastTargets().empty())
      return rewriter.notifyMatchFailure(op, "a multicast load (clusters)");
    if (!areMemDescs({adaptor.getBuffer(), adaptor.getBarrier()}))
      return rewriter.notifyMatchFailure(op, "buffer or barrier unconverted");
    Value pred = getPredicateOrTrue(rewriter, op.getLoc(), adaptor.getPred());
    rewriter.replaceOpWithNewOp<ttng::AsyncTMACopyGlobalToLocalOp>(
        op, adaptor.getDesc(), adaptor.getOffsets(), adaptor.getBarrier(),
        adaptor.getBuffer(), pred, op.getCacheAttr(), op.getEvictAttr(),
        /*isVolatile=*/rewriter.getBoolAttr(false));
    return success();
  }
};

struct AsyncDescriptorStoreOpConversion
    : OpConversionPattern<AsyncDescriptorStoreOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AsyncDescriptorStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!areMemDescs(adaptor.getBuffer()))
      return rewriter.notifyMatchFailure(op, "buffer is not a memdesc");
    rewriter.replaceOpWithNewOp<ttng::AsyncTMACopyLocalToGlobalOp>(
        op, adaptor.getDesc(), adaptor.getOffsets(), adaptor.getBuffer());
    return success();
  }
};

struct AsyncDescriptorStoreWaitOpConversion
    : OpConversionPattern<AsyncDescriptorStoreWaitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AsyncDescriptorStoreWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<ttng::TMAStoreWaitOp>(op, op.getPendingsAttr());
    return success();
  }
};

struct FenceAsyncSharedOpConversion : OpConversionPattern<FenceAsyncSharedOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(FenceAsyncSharedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<ttng::FenceAsyncSharedOp>(
        op, /*bCluster=*/rewriter.getBoolAttr(false));
    return success();
  }
};

} // namespace

void mlir::tlx::populateTMAOpToTritonGPUPatterns(RewritePatternSet &patterns) {
  patterns
      .add<AsyncDescriptorLoadOpConversion, AsyncDescriptorStoreOpConversion,
           AsyncDescriptorStoreWaitOpConversion, FenceAsyncSharedOpConversion>(
          patterns.getContext());
}
