//===- CpAsyncOpToTritonGPU.cpp - cp.async copies -> ttg ------------------===//

#include "Utility.h"
#include "tlx/Conversion/TLXToTritonGPU/Patterns.h"
#include "tlx/Dialect/TLX/IR/Dialect.h"
#include "tlx/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tlx;
namespace ttg = mlir::triton::gpu;

namespace {

struct AsyncLoadOpConversion : OpConversionPattern<AsyncLoadOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AsyncLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!getMemDescType(adaptor.getBuffer()))
      return rewriter.notifyMatchFailure(op, "buffer is not a memdesc");
    // The copy's token is unused: TLX programs wait by group count.
    ttg::AsyncCopyGlobalToLocalOp::create(
        rewriter, op.getLoc(), adaptor.getSrc(), adaptor.getBuffer(),
        adaptor.getMask(), adaptor.getOther(), op.getCacheAttr(),
        op.getEvictAttr(), op.getIsVolatileAttr(),
        /*contiguity=*/rewriter.getI32IntegerAttr(1));
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncLoadCommitGroupOpConversion
    : OpConversionPattern<AsyncLoadCommitGroupOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AsyncLoadCommitGroupOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ttg::AsyncCommitGroupOp::create(rewriter, op.getLoc(), ValueRange());
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncLoadWaitGroupOpConversion
    : OpConversionPattern<AsyncLoadWaitGroupOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AsyncLoadWaitGroupOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ttg::AsyncWaitOp::create(rewriter, op.getLoc(), ValueRange(),
                             op.getPendingsAttr());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::tlx::populateCpAsyncOpToTritonGPUPatterns(
    RewritePatternSet &patterns) {
  patterns.add<AsyncLoadOpConversion, AsyncLoadCommitGroupOpConversion,
               AsyncLoadWaitGroupOpConversion>(patterns.getContext());
}
