//===- DebugOpToTritonGPU.cpp - compile-time reports -> nothing -----------===//
//
// Ops that report on the compilation and emit no device code.
//
//===----------------------------------------------------------------------===//

#include "tlx/Conversion/TLXToTritonGPU/Patterns.h"
#include "tlx/Dialect/TLX/IR/Dialect.h"

#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tlx;

namespace {

/// dump_layout: by now a buffer is a memory descriptor with its shared
/// layout and a tensor carries its register layout: report the type.
struct DumpLayoutOpConversion : OpConversionPattern<DumpLayoutOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(DumpLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = adaptor.getValue().getType();
    if (isa<BufferType>(type))
      return rewriter.notifyMatchFailure(op, "the buffer is not lowered yet");
    op.emitRemark("layout: ") << type;
    rewriter.eraseOp(op);
    return success();
  }
};

/// assert_same_layout of buffers: tlx-assign-layouts has compared their
/// layouts (tensors were given markers before the conversion); no code.
struct AssertSameLayoutOpConversion : OpConversionPattern<AssertSameLayoutOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(AssertSameLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::tlx::populateDebugOpToTritonGPUPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DumpLayoutOpConversion, AssertSameLayoutOpConversion>(
      patterns.getContext());
}
