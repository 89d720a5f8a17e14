//===- NamedBarrierOpToNVVM.cpp - named barriers -> NVVM ------------------===//
//
// Triton 3.6 has no op for a hardware barrier other than barrier 0; NVVM's
// `bar.sync` / `bar.arrive` forms take the id and thread count.
//
// Stock Membar does not know that a named barrier wait synchronizes the
// task's warps, so it may put the task's own `bar.sync <task>, <threads>`
// right after one (before the next mbarrier wait, say). A marker after each
// wait lets the stage hook delete such a barrier from the LLVM IR when no
// memory access stands between the two
// (tlx.compiler.llir.drop_task_barriers_after_named_barrier_waits, which
// spells the same text).
//
//===----------------------------------------------------------------------===//

#include "TLXToNVVM/Patterns.h"
#include "tlx/Dialect/TLX/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tlx;

namespace {

static constexpr StringLiteral kNamedBarrierWaitMarker =
    "// tlx: named barrier wait (the task's warps are synchronized)";

struct NamedBarrierWaitOpLowering : OpConversionPattern<NamedBarrierWaitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(NamedBarrierWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    NVVM::BarrierOp::create(rewriter, op.getLoc(), /*resultTypes=*/TypeRange{},
                            adaptor.getId(), adaptor.getNumThreads(),
                            /*reductionOp=*/{}, /*reductionPredicate=*/Value());
    createSideEffectingPtx(rewriter, op.getLoc(), kNamedBarrierWaitMarker);
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
