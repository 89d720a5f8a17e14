//===- SpecialRegisterOpToNVVM.cpp - special registers -> NVVM ------------===//

#include "TLXToNVVM/Patterns.h"
#include "tlx/Dialect/TLX/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tlx;

namespace {

/// %tid.x, %tid.y or %tid.z; the op's verifier keeps the axis in 0..2.
struct ThreadIdOpLowering : OpConversionPattern<ThreadIdOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ThreadIdOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type i32 = rewriter.getI32Type();
    switch (op.getAxis()) {
    case 0:
      rewriter.replaceOpWithNewOp<NVVM::ThreadIdXOp>(op, i32);
      return success();
    case 1:
      rewriter.replaceOpWithNewOp<NVVM::ThreadIdYOp>(op, i32);
      return success();
    case 2:
      rewriter.replaceOpWithNewOp<NVVM::ThreadIdZOp>(op, i32);
      return success();
    default:
      return rewriter.notifyMatchFailure(op, "axis is not 0, 1 or 2");
    }
  }
};

struct Clock64OpLowering : OpConversionPattern<Clock64Op> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(Clock64Op op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::Clock64Op>(op, rewriter.getI64Type());
    return success();
  }
};

} // namespace

void mlir::tlx::populateSpecialRegisterOpToNVVMPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ThreadIdOpLowering, Clock64OpLowering>(patterns.getContext());
}
