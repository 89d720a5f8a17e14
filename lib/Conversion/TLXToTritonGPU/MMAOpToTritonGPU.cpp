//===- MMAOpToTritonGPU.cpp - asynchronous MMA -> ttng wgmma, tcgen05 ----===//
//
// Blackwell: tlx.tcgen05_mma, tlx.tcgen05_mma_scaled and tlx.tcgen05_commit
// become ttng.tc_gen5_mma, ttng.tc_gen5_mma_scaled and ttng.tc_gen5_commit
// one to one (the accumulator lives in tensor memory, nothing to convert);
// block scales in shared memory are copied to tensor memory first.
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

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
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

/// How many products wgmma may sum in the tensor core's narrower accumulator
/// before Triton folds the partial sum into float32 registers: fp8 operands
/// without the user's choice take stock tl.dot's default on sm_90, 2^30 (never
/// folded: the fast, reduced-precision accumulation); Triton rejects an fp8
/// wgmma with a float32 accumulator below 32.
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

/// Whether this CTA is the even one of its pair: it issues the pair's
/// cta_group::2 tcgen05 ops (%cluster_ctarank % 2 == 0).
Value isEvenCTA(OpBuilder &builder, Location loc) {
  Value rank = NVVM::ClusterId::create(builder, loc, builder.getI32Type());
  Value two = arith::ConstantIntOp::create(builder, loc, 2, 32);
  Value zero = arith::ConstantIntOp::create(builder, loc, 0, 32);
  Value parity = arith::RemUIOp::create(builder, loc, rank, two);
  return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq, parity,
                               zero);
}

/// One CTA's buffer seen as its half of the CTA pair's operand, which is
/// what Triton 3.6's two-CTA tc_gen5_mma takes: twice as large along `dim`,
/// split over the two CTAs (CGA layout bases, or CTASplitM and twoCTAs for
/// tensor memory). No data moves: each CTA keeps its own buffer.
Value viewOverCTAPair(OpBuilder &builder, Location loc, Value buffer,
                      unsigned dim) {
  auto type = cast<ttg::MemDescType>(buffer.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[dim] *= 2;
  Attribute layout = type.getEncoding();
  if (auto tmem = dyn_cast<ttng::TensorMemoryEncodingAttr>(layout)) {
    layout = ttng::TensorMemoryEncodingAttr::get(
        builder.getContext(), tmem.getBlockM(), tmem.getBlockN(),
        tmem.getColStride(), /*CTASplitM=*/2, tmem.getCTASplitN(),
        /*twoCTAs=*/true);
  } else if (auto nvmma = dyn_cast<ttg::NVMMASharedEncodingAttr>(layout)) {
    SmallVector<unsigned> bases(nvmma.getRank(), 0);
    bases[dim] = 1;
    layout = ttg::NVMMASharedEncodingAttr::get(
        builder.getContext(), nvmma.getSwizzlingByteWidth(),
        nvmma.getTransposed(), nvmma.getElementBitWidth(), nvmma.getFp4Padded(),
        nvmma.getRank(), bases);
  }
  auto pairType =
      ttg::MemDescType::get(shape, type.getElementType(), layout,
                            type.getMemorySpace(), type.getMutableMemory());
  return ttg::MemDescReinterpretOp::create(builder, loc, pairType, buffer);
}

/// What stands right before each two-CTA ttng.tc_gen5_mma (an empty inline
/// asm with side effects, so that nothing moves across it). Stock Triton 3.6
/// lowers every two-CTA tc_gen5_mma behind barrier.cluster.arrive/wait.aligned,
/// which all threads of the cluster must reach: in a warp-specialized MMA task
/// the other tasks never do, and the kernel hangs. A TLX kernel orders the CTA
/// pair itself (the peer's operands through mbarriers it arrives on remotely;
/// tensor memory and mbarrier inits through the cluster barrier
/// tlx-insert-cluster-barrier-init places), so the stage hook deletes the
/// barrier that follows this marker in the LLVM IR
/// (tlx.compiler.llir.drop_two_cta_mma_cluster_barriers, which spells the
/// same text).
static constexpr StringLiteral kTwoCTAMMAMarker =
    "// tlx: cta_group::2 MMA without a cluster barrier";

/// An mbarrier for an operand only: its commit is predicated off, so it is
/// never initialized nor signalled (8 bytes of shared memory, allocated where
/// the function starts so that every task can take it; outside a function,
/// where the op's block starts).
Value createUnsignalledBarrier(ConversionPatternRewriter &rewriter,
                               Operation *op) {
  OpBuilder::InsertionGuard guard(rewriter);
  auto func = op->getParentOfType<FunctionOpInterface>();
  rewriter.setInsertionPointToStart(func ? &func.getFunctionBody().front()
                                         : op->getBlock());
  Attribute layout = getUnswizzled1DLayout(op->getContext());
  return ttg::LocalAllocOp::create(
      rewriter, op->getLoc(),
      getSharedMemDesc({1}, rewriter.getI64Type(), layout), Value(),
      /*alignment=*/IntegerAttr());
}

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
    SmallVector<Value> barriers(adaptor.getBarriers());
    // Triton 3.6 issues a two-CTA MMA without mbarriers synchronously
    // whatever is_async says; an asynchronous one (the op's verifier allows
    // no other) gets an mbarrier whose commit is predicated off.
    if (op.getTwoCTAs() && barriers.empty()) {
      barriers.push_back(createUnsignalledBarrier(rewriter, op));
      barrierPreds.push_back(arith::ConstantIntOp::create(rewriter, loc,
                                                          /*value=*/0,
                                                          /*width=*/1));
    }
    Value a = adaptor.getA(), b = adaptor.getB(), acc = adaptor.getAcc();
    if (op.getTwoCTAs()) {
      a = viewOverCTAPair(rewriter, loc, a, /*dim=*/0);
      b = viewOverCTAPair(rewriter, loc, b, /*dim=*/1);
      acc = viewOverCTAPair(rewriter, loc, acc, /*dim=*/0);
      pred =
          arith::AndIOp::create(rewriter, loc, pred, isEvenCTA(rewriter, loc));
      createPtx(rewriter, loc, kTwoCTAMMAMarker, /*constraints=*/"", {});
    }
    ttng::TCGen5MMAOp::create(rewriter, loc, /*token=*/Type(), a, b, acc,
                              /*acc_dep=*/Value(), useAcc, pred, barriers,
                              barrierPreds, isAsync, op.getTwoCTAs());
    rewriter.eraseOp(op);
    return success();
  }
};

/// rows x cols block scales in shared memory as tcgen05.cp reads them (the
/// view of getBlockScaleView); an error at `op` where it cannot.
FailureOr<Value> getBlockScaleSource(OpBuilder &builder, Operation *op,
                                     Value scales, int64_t rows, int64_t cols) {
  ttg::MemDescType type = getMemDescType(scales);
  FailureOr<ttg::MemDescType> view = getBlockScaleView(type, rows, cols);
  if (failed(view))
    return op->emitOpError("tcgen05.cp reads block scales from a whole "
                           "shared-memory buffer, unswizzled and row-major, "
                           "got ")
           << type;
  return ttg::MemDescReinterpretOp::create(builder, op->getLoc(), *view, scales)
      .getResult();
}

/// Block scales, rows x cols, as ttng.tc_gen5_mma_scaled reads them: a
/// tensor-memory buffer as it is; shared memory copied into tensor memory
/// first (tcgen05.cp, which the MMA issued after it by the same thread
/// waits for), into a tensor-memory allocation of its own.
FailureOr<Value> getTensorMemoryScales(ConversionPatternRewriter &rewriter,
                                       Operation *op, Value scales,
                                       int64_t rows, int64_t cols) {
  ttg::MemDescType type = getMemDescType(scales);
  if (isTensorMemory(type))
    return scales;
  Location loc = op->getLoc();
  FailureOr<Value> source =
      getBlockScaleSource(rewriter, op, scales, rows, cols);
  if (failed(source))
    return failure();
  auto layout = ttng::TensorMemoryScalesEncodingAttr::get(
      op->getContext(), /*CTASplitM=*/1, /*CTASplitN=*/1);
  Value copy =
      ttng::TMEMAllocOp::create(
          rewriter, loc,
          getTensorMemDesc({rows, cols}, type.getElementType(), layout),
          /*token=*/Type(), /*src=*/Value())
          .getResult();
  ttng::TMEMCopyOp::create(rewriter, loc, *source, copy, /*barrier=*/Value());
  return copy;
}

/// tlx.tcgen05_mma_scaled -> ttng.tc_gen5_mma_scaled, scales in tensor
/// memory. `useAcc` and `pred` default to true; each barrier is signalled
/// unconditionally when the MMA completes (the op is then asynchronous).
struct TCGen05MMAScaledOpConversion : OpConversionPattern<TCGen05MMAScaledOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TCGen05MMAScaledOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    for (Value operand : {adaptor.getA(), adaptor.getB(), adaptor.getAcc(),
                          adaptor.getAScale(), adaptor.getBScale()})
      if (!getMemDescType(operand))
        return rewriter.notifyMatchFailure(op, "operands are not memdescs");
    for (Value barrier : adaptor.getBarriers())
      if (!getMemDescType(barrier))
        return rewriter.notifyMatchFailure(op, "barriers are not memdescs");
    Location loc = op.getLoc();
    // The verifier has checked the shapes: A is M x K (K / 2 bytes for
    // e2m1), one scale per 32 elements of K.
    ArrayRef<int64_t> aShape = op.getA().getType().getShape();
    bool packed = op.getAType() == triton::ScaleDotElemType::E2M1;
    int64_t m = aShape[0], n = op.getB().getType().getShape()[1];
    int64_t scalesK = aShape[1] * (packed ? 2 : 1) / 32;
    FailureOr<Value> aScale =
        getTensorMemoryScales(rewriter, op, adaptor.getAScale(), m, scalesK);
    if (failed(aScale))
      return failure();
    FailureOr<Value> bScale =
        getTensorMemoryScales(rewriter, op, adaptor.getBScale(), n, scalesK);
    if (failed(bScale))
      return failure();
    Value useAcc = getPredicateOrTrue(rewriter, loc, adaptor.getUseAcc());
    Value pred = getPredicateOrTrue(rewriter, loc, adaptor.getPred());
    SmallVector<Value> barrierPreds;
    if (!adaptor.getBarriers().empty())
      barrierPreds.assign(adaptor.getBarriers().size(),
                          getPredicateOrTrue(rewriter, loc, Value()));
    bool isAsync = op.getIsAsync() || !adaptor.getBarriers().empty();
    ttng::TCGen5MMAScaledOp::create(
        rewriter, loc, /*token=*/Type(), adaptor.getA(), adaptor.getB(),
        adaptor.getAcc(), /*acc_dep=*/Value(), *aScale, *bScale, op.getAType(),
        op.getBType(), useAcc, pred, adaptor.getBarriers(), barrierPreds,
        isAsync);
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
    Value pred = adaptor.getPred();
    if (op.getTwoCTAs()) {
      Value even = isEvenCTA(rewriter, op.getLoc());
      pred = pred ? arith::AndIOp::create(rewriter, op.getLoc(), pred, even)
                        .getResult()
                  : even;
    }
    rewriter.replaceOpWithNewOp<ttng::TCGen5CommitOp>(op, adaptor.getBarrier(),
                                                      pred, op.getTwoCTAs());
    return success();
  }
};

/// tlx.tmem_copy -> ttng.tmem_copy (tcgen05.cp), which Triton 3.6 lowers
/// from swizzled, untransposed NVMMA shared memory only; block scales from
/// their unswizzled bytes seen as the rows x cols matrix.
struct TMEMCopyOpConversion : OpConversionPattern<TMEMCopyOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TMEMCopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ttg::MemDescType src = getMemDescType(adaptor.getSrc());
    ttg::MemDescType dst = getMemDescType(adaptor.getDst());
    if (!src || !dst)
      return rewriter.notifyMatchFailure(op, "operands are not memdescs");
    if (isa<ttng::TensorMemoryScalesEncodingAttr>(dst.getEncoding())) {
      ArrayRef<int64_t> shape = dst.getShape();
      FailureOr<Value> source = getBlockScaleSource(
          rewriter, op, adaptor.getSrc(), shape[0], shape[1]);
      if (failed(source))
        return failure();
      ttng::TMEMCopyOp::create(rewriter, op.getLoc(), *source, adaptor.getDst(),
                               /*barrier=*/Value());
      rewriter.eraseOp(op);
      return success();
    }
    auto nvmma = dyn_cast<ttg::NVMMASharedEncodingAttr>(src.getEncoding());
    if (!nvmma || nvmma.getSwizzlingByteWidth() == 0 || nvmma.getTransposed())
      return op.emitOpError("tcgen05.cp reads a swizzled, untransposed "
                            "NVMMA shared layout (rows of at least 32 "
                            "bytes, not a local_trans view), got ")
             << src.getEncoding();
    ttng::TMEMCopyOp::create(rewriter, op.getLoc(), adaptor.getSrc(),
                             adaptor.getDst(), /*barrier=*/Value());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::tlx::populateMMAOpToTritonGPUPatterns(RewritePatternSet &patterns) {
  patterns.add<AsyncDotOpConversion, AsyncDotWaitOpConversion,
               TCGen05MMAOpConversion, TCGen05MMAScaledOpConversion,
               TCGen05CommitOpConversion, TMEMCopyOpConversion>(
      patterns.getContext());
}
