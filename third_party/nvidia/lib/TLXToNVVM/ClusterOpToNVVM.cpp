//===- ClusterOpToNVVM.cpp - cluster ops -> NVVM --------------------------===//
//
// The cluster ops Triton 3.6 has no TritonGPU op for. (`tlx.cluster_barrier`
// has one, ttng.cluster_arrive / cluster_wait: tlx-lower-to-ttg lowers it.)
//
//===----------------------------------------------------------------------===//

#include "TLXToNVVM/Patterns.h"
#include "tlx/Dialect/TLX/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tlx;

namespace {

/// %cluster_ctarank.
struct ClusterCTARankOpLowering : OpConversionPattern<ClusterCTARankOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ClusterCTARankOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::ClusterId>(op, rewriter.getI32Type());
    return success();
  }
};

/// %cluster_nctarank.
struct ClusterSize1DOpLowering : OpConversionPattern<ClusterSize1DOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ClusterSize1DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::ClusterDim>(op, rewriter.getI32Type());
    return success();
  }
};

/// fence.mbarrier_init.release.cluster.
struct FenceMBarrierInitClusterOpLowering
    : OpConversionPattern<FenceMBarrierInitClusterOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(FenceMBarrierInitClusterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::FenceMbarrierInitOp>(op);
    return success();
  }
};

} // namespace

void mlir::tlx::populateClusterOpToNVVMPatterns(RewritePatternSet &patterns) {
  patterns.add<ClusterCTARankOpLowering, ClusterSize1DOpLowering,
               FenceMBarrierInitClusterOpLowering>(patterns.getContext());
}
