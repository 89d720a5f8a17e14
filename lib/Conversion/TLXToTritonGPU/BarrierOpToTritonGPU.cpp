//===- BarrierOpToTritonGPU.cpp - mbarriers -> ttg / ttng -----------------===//
//
// mbarriers live in one `Nx1xi64` shared allocation; each entry is
// initialized where the mbarriers are allocated, and the initialization is
// made visible to the whole CTA before any other use.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"
#include "tlx/Conversion/TLXToTritonGPU/Layouts.h"
#include "tlx/Conversion/TLXToTritonGPU/Patterns.h"
#include "tlx/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tlx;
namespace ttg = mlir::triton::gpu;
namespace ttng = mlir::triton::nvidia_gpu;

namespace {

/// Sets of at most this many mbarriers are initialized one op each; larger
/// ones in a loop, so that thousands of mbarriers compile in linear time.
constexpr int64_t kMaxUnrolledBarrierInits = 64;

struct AllocBarriersOpConversion : OpConversionPattern<AllocBarriersOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AllocBarriersOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Attribute layout = getUnswizzled1DLayout(op.getContext());
    int64_t count = op.getType().getCount();
    Type i64 = rewriter.getI64Type();
    auto all = ttg::LocalAllocOp::create(
        rewriter, loc, getSharedMemDesc({count, 1}, i64, layout), Value(),
        /*alignment=*/IntegerAttr());
    auto oneType = getSharedMemDesc({1}, i64, layout);
    auto initAt = [&](OpBuilder &builder, Value position) {
      Value barrier =
          ttg::MemDescIndexOp::create(builder, loc, oneType, all, position);
      ttng::InitBarrierOp::create(builder, loc, barrier,
                                  op.getArriveCountAttr());
    };
    if (count <= kMaxUnrolledBarrierInits) {
      for (int64_t index = 0; index < count; ++index)
        initAt(rewriter,
               arith::ConstantIntOp::create(rewriter, loc, index, 32));
    } else {
      Value zero = arith::ConstantIntOp::create(rewriter, loc, 0, 32);
      Value end = arith::ConstantIntOp::create(rewriter, loc, count, 32);
      Value one = arith::ConstantIntOp::create(rewriter, loc, 1, 32);
      scf::ForOp::create(
          rewriter, loc, zero, end, one, ValueRange(),
          [&](OpBuilder &builder, Location, Value index, ValueRange) {
            initAt(builder, index);
            scf::YieldOp::create(builder, loc);
          });
    }
    // One thread initializes; every thread must see it before the first use.
    ttg::LocalBarrierOp::create(rewriter, loc);
    rewriter.replaceOp(op, all);
    return success();
  }
};

struct BarrierExpectBytesOpConversion
    : OpConversionPattern<BarrierExpectBytesOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BarrierExpectBytesOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!getMemDescType(adaptor.getBarrier()))
      return rewriter.notifyMatchFailure(op, "barrier is not a memdesc");
    Value pred = getPredicateOrTrue(rewriter, op.getLoc(), adaptor.getPred());
    rewriter.replaceOpWithNewOp<ttng::BarrierExpectOp>(op, adaptor.getBarrier(),
                                                       op.getBytesAttr(), pred);
    return success();
  }
};

struct BarrierWaitOpConversion : OpConversionPattern<BarrierWaitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BarrierWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!getMemDescType(adaptor.getBarrier()))
      return rewriter.notifyMatchFailure(op, "barrier is not a memdesc");
    rewriter.replaceOpWithNewOp<ttng::WaitBarrierOp>(
        op, adaptor.getBarrier(), adaptor.getPhase(), adaptor.getPred(),
        /*deps=*/ValueRange());
    return success();
  }
};

struct BarrierArriveOpConversion : OpConversionPattern<BarrierArriveOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BarrierArriveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getRemoteCTARank())
      return rewriter.notifyMatchFailure(op, "a remote arrive (clusters)");
    if (op.getPerThread())
      return rewriter.notifyMatchFailure(op, "a per-thread arrive");
    if (!getMemDescType(adaptor.getBarrier()))
      return rewriter.notifyMatchFailure(op, "barrier is not a memdesc");
    rewriter.replaceOpWithNewOp<ttng::ArriveBarrierOp>(
        op, adaptor.getBarrier(), op.getCountAttr(), adaptor.getPred());
    return success();
  }
};

/// A warp barrier's arrive: every thread arrives (ttng.arrive_barrier has
/// one thread arrive).
struct PerThreadBarrierArriveOpConversion
    : OpConversionPattern<BarrierArriveOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(BarrierArriveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!op.getPerThread())
      return rewriter.notifyMatchFailure(op, "a one-thread arrive");
    if (!getMemDescType(adaptor.getBarrier()))
      return rewriter.notifyMatchFailure(op, "barrier is not a memdesc");
    Location loc = op.getLoc();
    FailureOr<Value> address =
        getSharedAddress(rewriter, loc, adaptor.getBarrier(), op);
    if (failed(address))
      return failure();
    Value count =
        arith::ConstantIntOp::create(rewriter, loc, op.getCount(), 32);
    createPtx(rewriter, loc, "@$0 mbarrier.arrive.shared::cta.b64 _, [$1], $2;",
              "b,r,r",
              {getPredicateOrTrue(rewriter, loc, adaptor.getPred()), *address,
               count});
    rewriter.eraseOp(op);
    return success();
  }
};

/// barrier.cluster.arrive (release) then barrier.cluster.wait (acquire).
struct ClusterBarrierOpConversion : OpConversionPattern<ClusterBarrierOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ClusterBarrierOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ttng::ClusterArriveOp::create(rewriter, op.getLoc(), /*relaxed=*/false);
    rewriter.replaceOpWithNewOp<ttng::ClusterWaitOp>(op);
    return success();
  }
};

} // namespace

void mlir::tlx::populateBarrierOpToTritonGPUPatterns(
    RewritePatternSet &patterns) {
  patterns.add<AllocBarriersOpConversion, BarrierExpectBytesOpConversion,
               BarrierWaitOpConversion, BarrierArriveOpConversion,
               PerThreadBarrierArriveOpConversion, ClusterBarrierOpConversion>(
      patterns.getContext());
}
