//===- NamedBarrierOpToNVVM.cpp - named barriers -> NVVM ------------------===//
//
// Triton 3.6 has no op for a hardware barrier other than barrier 0; NVVM's
// `bar.sync` / `bar.arrive` forms take the id and thread count.
//
//===----------------------------------------------------------------------===//

#include "TLXToNVVM/Patterns.h"
#include "tlx/Dialect/TLX/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tlx;

namespace {

struct NamedBarrierWaitOpLowering : OpConversionPattern<NamedBarrierWaitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(NamedBarrierWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NVVM::BarrierOp::create(rewriter, op.getLoc(), /*resultTypes=*/TypeRange{},
                            adaptor.getId(), adaptor.getNumThreads(),
                            /*reductionOp=*/{}, /*reductionPredicate=*/Value());
    rewriter.eraseOp(op);
    return success();
  }
};

struct NamedBarrierArriveOpLowering
    : OpConversionPattern<NamedBarrierArriveOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(NamedBarrierArriveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::BarrierArriveOp>(op, adaptor.getId(),
                                                       adaptor.getNumThreads());
    return success();
  }
};

} // namespace

void mlir::tlx::populateNamedBarrierOpToNVVMPatterns(
    RewritePatternSet &patterns) {
  patterns.add<NamedBarrierWaitOpLowering, NamedBarrierArriveOpLowering>(
      patterns.getContext());
}
