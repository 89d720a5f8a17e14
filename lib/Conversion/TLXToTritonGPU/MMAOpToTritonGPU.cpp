//===- MMAOpToTritonGPU.cpp - asynchronous MMA -> ttng wgmma, tcgen05 ----===//
//
// Blackwell: tlx.tcgen05_mma and tlx.tcgen05_commit become ttng.tc_gen5_mma
// and ttng.tc_gen5_commit one to one (the accumulator lives in tensor
// memory, nothing to convert).
//
// A tlx.async_dot runs in the wgmma accumulator layout (Layouts.h) and hands
// its result back in the user's layout:
//
//   %d = tlx.async_dot %a, %b, %acc        ->  %in = ttg.convert_layout %acc
//                                              %w = ttng.warp_group_dot ... %in
//                                              %d = ttg.convert_layout %w
//
// tlx.async_dot_wait must wait on %w, not on %d: converting the accumulator
// back reads registers an in-flight wgmma still writes. The wait finds %w by
// data flow, not by what happens to precede it: see AsyncDotWaitOpConversion.
//
//===----------------------------------------------------------------------===//

#include "Utility.h"
#include "tlx/Conversion/TLXToTritonGPU/Layouts.h"
#include "tlx/Conversion/TLXToTritonGPU/Patterns.h"
#include "tlx/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tlx;
namespace ttg = mlir::triton::gpu;
namespace ttng = mlir::triton::nvidia_gpu;

namespace {

/// The operand `a` as wgmma reads it: a buffer as is, a register tensor in
/// the wgmma operand layout (32 bits of K per thread and register).
Value getWgmmaOperandA(ConversionPatternRewriter &rewriter, AsyncDotOp op,
                       Value a, RankedTensorType mmaType) {
  auto aTensor = dyn_cast<RankedTensorType>(a.getType());
  if (!aTensor)
    return a;
  unsigned elementBits = aTensor.getElementType().getIntOrFloatBitWidth();
  auto operandLayout = ttg::DotOperandEncodingAttr::get(
      op.getContext(), /*opIdx=*/0, mmaType.getEncoding(), 32 / elementBits);
  auto operandType = RankedTensorType::get(
      aTensor.getShape(), aTensor.getElementType(), operandLayout);
  return ttg::ConvertLayoutOp::create(rewriter, op.getLoc(), operandType, a);
}

/// How many products wgmma may sum at reduced precision before it folds them
/// into the float32 accumulator: fp8 operands without the user's choice take
/// stock tl.dot's 2^30 (every product at full precision); Triton rejects an
/// fp8 wgmma with a float32 accumulator below 32.
IntegerAttr getMaxNumImpreciseAcc(AsyncDotOp op) {
  Type element = op.getB().getType().getElementType();
  if (op.getMaxNumImpreciseAcc() == 0 && element.getIntOrFloatBitWidth() == 8)
    return IntegerAttr::get(IntegerType::get(op.getContext(), 32), 1 << 30);
  return op.getMaxNumImpreciseAccAttr();
}

struct AsyncDotOpConversion : OpConversionPattern<AsyncDotOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AsyncDotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    bool aFromRegisters = isa<RankedTensorType>(adaptor.getA().getType());
    if (!getMemDescType(adaptor.getB()) ||
        (!aFromRegisters && !getMemDescType(adaptor.getA())))
      return rewriter.notifyMatchFailure(op, "operands are not memdescs");
    Location loc = op.getLoc();
    RankedTensorType mmaType = getWgmmaAccumulatorType(op);
    Value a = getWgmmaOperandA(rewriter, op, adaptor.getA(), mmaType);
    Value acc =
        ttg::ConvertLayoutOp::create(rewriter, loc, mmaType, adaptor.getAcc());
    auto wgmma = ttng::WarpGroupDotOp::create(
        rewriter, loc, mmaType, a, adaptor.getB(), acc, adaptor.getUseAcc(),
        op.getInputPrecisionAttr(), getMaxNumImpreciseAcc(op),
        /*isAsync=*/rewriter.getBoolAttr(true));
    rewriter.replaceOpWithNewOp<ttg::ConvertLayoutOp>(op, op.getType(), wgmma);
    return success();
  }
};

/// tlx.async_dot_wait -> ttng.warp_group_dot_wait.
///
/// The relation to the dot is a data-flow match on the TLX program: an
/// accumulator produced by a tlx.async_dot, or by a tlx.async_dot_wait (whose
/// result a later, deeper wait may still have to wait for), is waited on in
/// its wgmma layout and converted back only once the wait returns. Both
/// patterns of this file replace their result by `ttg.convert_layout` from
/// that layout, so the adaptor's accumulator is such a conversion, and its
/// source is the value to wait on. The adaptor holds that replacement
/// whatever the order of the patterns: the conversion driver legalizes ops
/// in program order, and a definition precedes its uses. Any other
/// accumulator (carried by a loop, an argument) is waited on as it is.
struct AsyncDotWaitOpConversion : OpConversionPattern<AsyncDotWaitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AsyncDotWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value waited = adaptor.getAcc();
    if (isa_and_present<AsyncDotOp, AsyncDotWaitOp>(
            op.getAcc().getDefiningOp()))
      if (auto convert = waited.getDefiningOp<ttg::ConvertLayoutOp>())
        waited = convert.getSrc();
    auto wait = ttng::WarpGroupDotWaitOp::create(
        rewriter, op.getLoc(), ValueRange{waited}, op.getPendingsAttr());
    Value result = wait.getResult(0);
    if (waited != adaptor.getAcc())
      result = ttg::ConvertLayoutOp::create(rewriter, op.getLoc(), op.getType(),
                                            result);
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// tlx.tcgen05_mma -> ttng.tc_gen5_mma on the buffers' memdescs. `useAcc`
/// and `pred` default to true; each barrier is signalled unconditionally
/// when the MMA completes (the op is then asynchronous).
struct TCGen05MMAOpConversion : OpConversionPattern<TCGen05MMAOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TCGen05MMAOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!getMemDescType(adaptor.getA()) || !getMemDescType(adaptor.getB()) ||
        !getMemDescType(adaptor.getAcc()))
      return rewriter.notifyMatchFailure(op, "operands are not memdescs");
    for (Value barrier : adaptor.getBarriers())
      if (!getMemDescType(barrier))
        return rewriter.notifyMatchFailure(op, "barriers are not memdescs");
    Location loc = op.getLoc();
    Value useAcc = getPredicateOrTrue(rewriter, loc, adaptor.getUseAcc());
    Value pred = getPredicateOrTrue(rewriter, loc, adaptor.getPred());
    SmallVector<Value> barrierPreds;
    if (!adaptor.getBarriers().empty())
      barrierPreds.assign(adaptor.getBarriers().size(),
                          getPredicateOrTrue(rewriter, loc, Value()));
    bool isAsync = op.getIsAsync() || !adaptor.getBarriers().empty();
    ttng::TCGen5MMAOp::create(rewriter, loc, /*token=*/Type(), adaptor.getA(),
                              adaptor.getB(), adaptor.getAcc(),
                              /*acc_dep=*/Value(), useAcc, pred,
                              adaptor.getBarriers(), barrierPreds, isAsync,
                              /*two_ctas=*/false);
    rewriter.eraseOp(op);
    return success();
  }
};

/// tlx.tcgen05_commit -> ttng.tc_gen5_commit.
struct TCGen05CommitOpConversion : OpConversionPattern<TCGen05CommitOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TCGen05CommitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!getMemDescType(adaptor.getBarrier()))
      return rewriter.notifyMatchFailure(op, "barrier is not a memdesc");
    rewriter.replaceOpWithNewOp<ttng::TCGen5CommitOp>(
        op, adaptor.getBarrier(), adaptor.getPred(), /*two_ctas=*/false);
    return success();
  }
};

} // namespace

void mlir::tlx::populateMMAOpToTritonGPUPatterns(RewritePatternSet &patterns) {
  patterns.add<AsyncDotOpConversion, AsyncDotWaitOpConversion,
               TCGen05MMAOpConversion, TCGen05CommitOpConversion>(
      patterns.getContext());
}
