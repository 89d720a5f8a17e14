//===- CLCOpToTritonGPU.cpp - cluster launch control ----------------------===//
//
// Blackwell's cluster launch control: a running CTA asks the hardware to
// cancel a cluster that has not started and takes over its work. Triton 3.6
// has no TritonGPU op for it: the responses are a plain shared allocation,
// the request and the decoding inline PTX on their addresses (Utility.h).
//
//===----------------------------------------------------------------------===//

#include "Utility.h"
#include "tlx/Conversion/TLXToTritonGPU/Layouts.h"
#include "tlx/Conversion/TLXToTritonGPU/Patterns.h"
#include "tlx/Dialect/TLX/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tlx;
namespace ttg = mlir::triton::gpu;

namespace {

/// The hardware writes a response as one 16-byte word, which must be
/// naturally aligned.
constexpr int64_t kResponseBytes = 16;

/// N responses: one `Nx2xi64` shared allocation, 16-byte aligned, so that
/// tlx.local_view's ttg.memdesc_index selects response k at byte 16 k.
struct AllocCLCResponsesOpConversion
    : OpConversionPattern<AllocCLCResponsesOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AllocCLCResponsesOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type i64 = rewriter.getI64Type();
    auto type = getSharedMemDesc({op.getType().getCount(), kResponseBytes / 8},
                                 i64, getUnswizzled1DLayout(op.getContext()));
    rewriter.replaceOpWithNewOp<ttg::LocalAllocOp>(
        op, type, Value(), rewriter.getI32IntegerAttr(kResponseBytes));
    return success();
  }
};

/// One thread of the task issues the request; in the multicast form only in
/// the cluster's CTA 0, since one request answers the whole cluster (a
/// second would cancel, and deliver, another cluster on top).
struct CLCTryCancelOpConversion : OpConversionPattern<CLCTryCancelOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(CLCTryCancelOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!getMemDescType(adaptor.getResponse()) ||
        !getMemDescType(adaptor.getBarrier()))
      return rewriter.notifyMatchFailure(op, "response or barrier unconverted");
    Location loc = op.getLoc();
    FailureOr<SmallVector<Value>> addresses = getSharedAddresses(
        rewriter, loc, {adaptor.getResponse(), adaptor.getBarrier()}, op);
    if (failed(addresses))
      return failure();
    Value issue = getIssuerPredicate(rewriter, loc, Value());
    if (op.getMulticast()) {
      Value rank =
          NVVM::ClusterId::create(rewriter, loc, rewriter.getI32Type());
      Value zero = arith::ConstantIntOp::create(rewriter, loc, 0, 32);
      issue = arith::AndIOp::create(
          rewriter, loc, issue,
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, rank,
                                zero));
    }
    std::string ptx = "@$0 clusterlaunchcontrol.try_cancel.async.shared::cta."
                      "mbarrier::complete_tx::bytes";
    if (op.getMulticast())
      ptx += ".multicast::cluster::all";
    ptx += ".b128 [$1], [$2];";
    createPtx(rewriter, loc, ptx, "b,r,r",
              {issue, (*addresses)[0], (*addresses)[1]});
    rewriter.eraseOp(op);
    return success();
  }
};

/// Every thread reads the response and decodes it; a failed request (no
/// cluster left) reads as (-1, -1, -1). Side effects keep the read after the
/// wait on the response's mbarrier.
struct CLCQueryOpConversion : OpConversionPattern<CLCQueryOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(CLCQueryOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!getMemDescType(adaptor.getResponse()))
      return rewriter.notifyMatchFailure(op, "response unconverted");
    Location loc = op.getLoc();
    FailureOr<Value> address =
        getSharedAddress(rewriter, loc, adaptor.getResponse(), op);
    if (failed(address))
      return failure();
    Type i32 = rewriter.getI32Type();
    auto ids = LLVM::LLVMStructType::getLiteral(getContext(), {i32, i32, i32});
    auto query = LLVM::InlineAsmOp::create(
        rewriter, loc, ids, ValueRange{*address},
        "{ .reg .b128 response; .reg .pred canceled; mov.s32 $0, -1; "
        "mov.s32 $1, -1; mov.s32 $2, -1; ld.shared.b128 response, [$3]; "
        "clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 canceled, "
        "response; @canceled "
        "clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128 "
        "{$0, $1, $2, _}, response; }",
        "=r,=r,=r,r", /*has_side_effects=*/true, /*is_align_stack=*/false,
        LLVM::TailCallKind::None,
        LLVM::AsmDialectAttr::get(getContext(), LLVM::AsmDialect::AD_ATT),
        /*operand_attrs=*/ArrayAttr());
    SmallVector<Value> results;
    for (int64_t dim = 0; dim < 3; ++dim)
      results.push_back(
          LLVM::ExtractValueOp::create(rewriter, loc, query.getResult(0), dim));
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mlir::tlx::populateCLCOpToTritonGPUPatterns(RewritePatternSet &patterns) {
  patterns.add<AllocCLCResponsesOpConversion, CLCTryCancelOpConversion,
               CLCQueryOpConversion>(patterns.getContext());
}
