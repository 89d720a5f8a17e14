//===- ConvertOpToNVVM.cpp - conversions -> elementwise inline PTX --------===//
//
// tlx.stoch_round: `cvt.rs.satfinite` (sm_100a). The instruction converts
// 4 (fp8) or 2 (bf16, fp16) float32 values of a thread at once, so it is
// written as Triton's elementwise inline asm with packed elements: Triton
// 3.6 has no stochastic rounding mode, and only its lowering knows which
// registers of a thread hold which elements of the tensor.
//
//===----------------------------------------------------------------------===//

#include "TLXToNVVM/Patterns.h"
#include "tlx/Dialect/TLX/IR/Dialect.h"
#include "tlx/Dialect/Triton/IR/Dialect.h"

#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tlx;

namespace {

/// The packed form of cvt.rs for `element`: the PTX type and how many
/// elements one instruction converts.
std::optional<std::pair<StringRef, int>> getStochRoundForm(Type element) {
  if (isa<Float8E4M3FNType>(element))
    return std::make_pair(StringRef("e4m3x4"), 4);
  if (isa<Float8E5M2Type>(element))
    return std::make_pair(StringRef("e5m2x4"), 4);
  if (isa<BFloat16Type>(element))
    return std::make_pair(StringRef("bf16x2"), 2);
  if (isa<Float16Type>(element))
    return std::make_pair(StringRef("f16x2"), 2);
  return std::nullopt;
}

/// The inline PTX for `pack` elements: $1..$pack the float32 values,
/// $pack+1.. their random words, $0 the packed result. PTX puts the first
/// source operand in the most significant lane and Triton reads element i
/// from lane i, so the sources are listed last element first. One random
/// word serves the whole pack: the XOR of each element's word shifted by
/// its place.
std::string getStochRoundPTX(StringRef type, int pack) {
  std::string ptx;
  llvm::raw_string_ostream os(ptx);
  os << "{ .reg .b32 sr_bits, sr_shifted; mov.b32 sr_bits, $" << pack + 1
     << "; ";
  for (int i = 1; i < pack; ++i)
    os << "shl.b32 sr_shifted, $" << pack + 1 + i << ", " << i
       << "; xor.b32 sr_bits, sr_bits, sr_shifted; ";
  os << "cvt.rs.satfinite." << type << ".f32 $0, ";
  if (pack == 4)
    os << "{$4, $3, $2, $1}";
  else
    os << "$2, $1";
  os << ", sr_bits; }";
  return ptx;
}

struct StochRoundOpLowering : OpConversionPattern<StochRoundOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(StochRoundOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto form = getStochRoundForm(op.getType().getElementType());
    if (!form)
      return rewriter.notifyMatchFailure(op, "no cvt.rs for this type");
    auto [type, pack] = *form;
    std::string constraints = "=r";
    for (int i = 0; i < pack; ++i)
      constraints += ",f";
    for (int i = 0; i < pack; ++i)
      constraints += ",r";
    auto asmOp = triton::ElementwiseInlineAsmOp::create(
        rewriter, op.getLoc(), TypeRange{op.getType()},
        getStochRoundPTX(type, pack), constraints, /*pure=*/true,
        /*packed_element=*/pack,
        ValueRange{adaptor.getSrc(), adaptor.getRandBits()});
    rewriter.replaceOp(op, asmOp.getResult());
    return success();
  }
};

} // namespace

void mlir::tlx::populateConvertOpToNVVMPatterns(RewritePatternSet &patterns) {
  patterns.add<StochRoundOpLowering>(patterns.getContext());
}
