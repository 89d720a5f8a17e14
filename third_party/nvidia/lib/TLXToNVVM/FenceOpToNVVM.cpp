//===- FenceOpToNVVM.cpp - memory fences -> inline PTX --------------------===//
//
// `fence.acq_rel.gpu` / `.sys`: Triton 3.6 has no op for them, and the NVVM
// fence ops of MLIR 22 are newer than the MLIR that parses our output, so
// the instruction is written as inline PTX.
//
//===----------------------------------------------------------------------===//

#include "TLXToNVVM/Patterns.h"
#include "tlx/Dialect/TLX/IR/Dialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tlx;

namespace {

struct FenceOpLowering : OpConversionPattern<FenceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(FenceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::string ptx =
        ("fence.acq_rel." + stringifyFenceScope(op.getScope()) + ";").str();
    createSideEffectingPtx(rewriter, op.getLoc(), ptx);
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::tlx::createSideEffectingPtx(OpBuilder &builder, Location loc,
                                       StringRef ptx) {
  LLVM::InlineAsmOp::create(
      builder, loc, TypeRange(), ValueRange(), ptx, /*constraints=*/"",
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::TailCallKind::None,
      LLVM::AsmDialectAttr::get(builder.getContext(), LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
}

void mlir::tlx::populateFenceOpToNVVMPatterns(RewritePatternSet &patterns) {
  patterns.add<FenceOpLowering>(patterns.getContext());
}
