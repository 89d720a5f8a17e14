//===- WarpOpToTritonGPU.cpp - warp votes -> inline PTX ----------------===//
//
// tlx.vote_ballot_sync -> `vote.sync.ballot.b32` as Triton's elementwise
// inline asm. A tensor predicate is the OR of the elements each thread holds,
// which only the final register layout decides: the op leaves a marker, and
// tlx-lower-warp-ballots writes the PTX once Triton's layout optimizations
// have run, one asm instance per thread over all of its elements.
// tlx.scale_rows -> a ballot on its factors that differ from 1 and a marker
// over the rows, the factors and the ballot, which the same pass writes as
// one asm instance per thread that branches around its multiplies.
//
//===----------------------------------------------------------------------===//

#include "tlx/Conversion/TLXToTritonGPU/Passes.h"
#include "tlx/Conversion/TLXToTritonGPU/Patterns.h"
#include "tlx/Dialect/TLX/IR/Dialect.h"

#include "Utility.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/Format.h"

namespace mlir::tlx {
#define GEN_PASS_DEF_TLXLOWERWARPBALLOTS
#include "tlx/Conversion/TLXToTritonGPU/Passes.h.inc"
} // namespace mlir::tlx

using namespace mlir;
using namespace mlir::tlx;
namespace ttg = mlir::triton::gpu;

namespace {

constexpr StringLiteral kBallot = "ballot";
constexpr StringLiteral kScaleRows = "scale_rows";
constexpr StringLiteral kElementsPerThreadAttr = "tlx.elements_per_thread";
/// The only mask of a tensor ballot (its verifier): every lane votes.
constexpr uint32_t kFullWarp = 0xFFFFFFFF;

/// PTX of a ballot over the OR of `elements` 32-bit flags ($elements ..
/// $2 * elements - 1), copied to every result ($0 .. $elements - 1).
std::string getBallotPTX(int64_t elements, uint32_t mask) {
  std::string ptx;
  llvm::raw_string_ostream os(ptx);
  os << "{ .reg .pred p; .reg .b32 any; mov.b32 any, $" << elements << "; ";
  for (int64_t i = 1; i < elements; ++i)
    os << "or.b32 any, any, $" << elements + i << "; ";
  os << "setp.ne.b32 p, any, 0; vote.sync.ballot.b32 $0, p, "
     << llvm::format_hex(mask, 10) << "; ";
  for (int64_t i = 1; i < elements; ++i)
    os << "mov.b32 $" << i << ", $0; ";
  os << "}";
  return ptx;
}

std::string getBallotConstraints(int64_t elements) {
  std::string constraints;
  for (int64_t i = 0; i < 2 * elements; ++i)
    constraints += i == 0 ? "=r" : (i < elements ? ",=r" : ",r");
  return constraints;
}

/// PTX of `elements` row scalings ($0 .. $elements - 1 = the rows, tied to
/// their inputs $elements .. $2 * elements - 1, times the factors after them),
/// skipped by the warp when its ballot (the first of the last `elements`
/// operands) is empty. The ballot is the warp's, so the branch is uniform.
std::string getScaleRowsPTX(int64_t elements) {
  std::string ptx;
  llvm::raw_string_ostream os(ptx);
  os << "{ .reg .pred p; setp.ne.b32 p, $" << 3 * elements
     << ", 0; @!p bra.uni tlx_scale_rows_${:uid}; ";
  for (int64_t i = 0; i < elements; ++i)
    os << "mul.f32 $" << i << ", $" << elements + i << ", $" << 2 * elements + i
       << "; ";
  os << "tlx_scale_rows_${:uid}: }";
  return ptx;
}

std::string getScaleRowsConstraints(int64_t elements) {
  SmallVector<std::string> constraints;
  for (int64_t i = 0; i < elements; ++i)
    constraints.push_back("=f");
  for (int64_t i = 0; i < elements; ++i)
    constraints.push_back(std::to_string(i)); // the row, in its result
  for (int64_t i = 0; i < elements; ++i)
    constraints.push_back("f");
  for (int64_t i = 0; i < elements; ++i)
    constraints.push_back("r");
  return llvm::join(constraints, ",");
}

/// A scalar predicate: the ballot itself. A tensor: its flags, as i32, under
/// a ballot marker.
struct VoteBallotSyncOpConversion : OpConversionPattern<VoteBallotSyncOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(VoteBallotSyncOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value flags =
        arith::ExtUIOp::create(rewriter, loc, op.getType(), adaptor.getPred());
    if (isa<RankedTensorType>(op.getType())) {
      rewriter.replaceOp(op, createMarker(rewriter, loc, flags, kBallot));
      return success();
    }
    auto ballot = triton::ElementwiseInlineAsmOp::create(
        rewriter, loc, TypeRange{op.getType()},
        getBallotPTX(1, static_cast<uint32_t>(op.getMask())),
        getBallotConstraints(1), /*pure=*/false, /*packed_element=*/1,
        ValueRange{flags});
    rewriter.replaceOp(op, ballot->getResult(0));
    return success();
  }
};

/// The factors, in the slice of the rows' layout, voted on where they differ
/// from 1; both broadcast along the rows, then the scale marker over the rows,
/// the factors and the ballot.
struct ScaleRowsOpConversion : OpConversionPattern<ScaleRowsOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ScaleRowsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto rowsType = cast<RankedTensorType>(adaptor.getSrc().getType());
    auto scaleType = cast<RankedTensorType>(adaptor.getScale().getType());
    Attribute layout = rowsType.getEncoding();
    if (!layout)
      return rewriter.notifyMatchFailure(op, "rows without a layout");
    auto sliceType = RankedTensorType::get(
        scaleType.getShape(), scaleType.getElementType(),
        ttg::SliceEncodingAttr::get(op.getContext(), 1, layout));
    Value scale = adaptor.getScale();
    if (scale.getType() != sliceType)
      scale = ttg::ConvertLayoutOp::create(rewriter, loc, sliceType, scale);
    Value one = arith::ConstantOp::create(
        rewriter, loc, DenseElementsAttr::get(sliceType, 1.0f));
    Value changes = arith::CmpFOp::create(
        rewriter, loc, arith::CmpFPredicate::UNE, scale, one);
    Value flags = arith::ExtUIOp::create(
        rewriter, loc, sliceType.clone(rewriter.getI32Type()), changes);
    Value ballot = createMarker(rewriter, loc, flags, kBallot);
    auto alongRows = [&](Value value) -> Value {
      auto type = cast<RankedTensorType>(value.getType());
      auto column = RankedTensorType::get({rowsType.getDimSize(0), 1},
                                          type.getElementType(), layout);
      Value expanded =
          triton::ExpandDimsOp::create(rewriter, loc, column, value, 1);
      return triton::BroadcastOp::create(
          rewriter, loc, rowsType.clone(type.getElementType()), expanded);
    };
    rewriter.replaceOp(
        op, createMarker(rewriter, loc,
                         ValueRange{adaptor.getSrc(), alongRows(scale),
                                    alongRows(ballot)},
                         kScaleRows));
    return success();
  }
};

struct LowerWarpBallotsPass
    : tlx::impl::TLXLowerWarpBallotsBase<LowerWarpBallotsPass> {
  void runOnOperation() override {
    SmallVector<triton::ElementwiseInlineAsmOp> markers;
    getOperation().walk([&](triton::ElementwiseInlineAsmOp op) {
      StringRef kind = getMarkerKind(op);
      if (kind == kBallot || kind == kScaleRows)
        markers.push_back(op);
    });
    for (triton::ElementwiseInlineAsmOp marker : markers) {
      // Triton's layout rematerialization leaves copies of the marker in
      // layouts nothing reads any more (an impure op is never dead to it).
      if (marker->use_empty()) {
        marker.erase();
        continue;
      }
      if (failed(lower(marker)))
        return signalPassFailure();
    }
  }

  /// The PTX of a ballot or scale marker over all the elements each thread
  /// holds.
  LogicalResult lower(triton::ElementwiseInlineAsmOp marker) {
    auto elements = marker->getAttrOfType<IntegerAttr>(kElementsPerThreadAttr);
    auto type = dyn_cast<RankedTensorType>(marker->getResult(0).getType());
    if (!elements || !type)
      return marker.emitOpError("a ")
             << getMarkerKind(marker) << " marker needs `"
             << kElementsPerThreadAttr
             << "` (what each thread holds of the final layout) and a tensor";
    int64_t count = elements.getInt();
    if (count < 1 || type.getNumElements() % count != 0)
      return marker.emitOpError("a thread cannot hold ")
             << count << " of the " << type.getNumElements() << " elements of "
             << type;
    bool ballot = getMarkerKind(marker) == kBallot;
    TypeRange operands = marker.getArgs().getTypes();
    auto elementOf = [&](size_t i) {
      return getElementTypeOrSelf(operands[i]);
    };
    if (!ballot && (operands.size() != 3 || !elementOf(0).isF32() ||
                    !elementOf(1).isF32() || !elementOf(2).isInteger(32)))
      return marker.emitOpError("a scale_rows marker takes the rows, their "
                                "factors (f32) and the ballot (i32), got ")
             << operands;
    OpBuilder builder(marker);
    auto lowered = triton::ElementwiseInlineAsmOp::create(
        builder, marker.getLoc(), TypeRange{type},
        ballot ? getBallotPTX(count, kFullWarp) : getScaleRowsPTX(count),
        ballot ? getBallotConstraints(count) : getScaleRowsConstraints(count),
        /*pure=*/false, count, marker.getArgs());
    marker->getResult(0).replaceAllUsesWith(lowered->getResult(0));
    marker.erase();
    return success();
  }
};

} // namespace

void mlir::tlx::populateWarpOpToTritonGPUPatterns(RewritePatternSet &patterns) {
  patterns.add<VoteBallotSyncOpConversion, ScaleRowsOpConversion>(
      patterns.getContext());
}
