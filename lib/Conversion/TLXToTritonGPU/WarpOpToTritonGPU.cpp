//===- WarpOpToTritonGPU.cpp - warp votes -> inline PTX ----------------===//
//
// tlx.vote_ballot_sync -> `vote.sync.ballot.b32` as Triton's elementwise
// inline asm. A tensor predicate is the OR of the elements each thread holds,
// which only the final register layout decides: the op leaves a marker, and
// tlx-lower-warp-ballots writes the PTX once Triton's layout optimizations
// have run, one asm instance per thread over all of its elements.
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

namespace {

constexpr StringLiteral kBallot = "ballot";
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

struct LowerWarpBallotsPass
    : tlx::impl::TLXLowerWarpBallotsBase<LowerWarpBallotsPass> {
  void runOnOperation() override {
    SmallVector<triton::ElementwiseInlineAsmOp> markers;
    getOperation().walk([&](triton::ElementwiseInlineAsmOp op) {
      if (getMarkerKind(op) == kBallot)
        markers.push_back(op);
    });
    for (triton::ElementwiseInlineAsmOp marker : markers) {
      // Triton's layout rematerialization leaves copies of the marker in
      // layouts nothing reads any more (an impure op is never dead to it).
      if (marker->use_empty()) {
        marker.erase();
        continue;
      }
      auto elements =
          marker->getAttrOfType<IntegerAttr>(kElementsPerThreadAttr);
      auto type = dyn_cast<RankedTensorType>(marker->getResult(0).getType());
      if (!elements || !type) {
        marker.emitOpError("a ballot marker needs `")
            << kElementsPerThreadAttr
            << "` (what each thread holds of the final layout) and a tensor";
        return signalPassFailure();
      }
      int64_t count = elements.getInt();
      if (count < 1 || type.getNumElements() % count != 0) {
        marker.emitOpError("a thread cannot hold ")
            << count << " of the " << type.getNumElements() << " elements of "
            << type;
        return signalPassFailure();
      }
      OpBuilder builder(marker);
      auto ballot = triton::ElementwiseInlineAsmOp::create(
          builder, marker.getLoc(), TypeRange{type},
          getBallotPTX(count, kFullWarp), getBallotConstraints(count),
          /*pure=*/false, count, marker.getArgs());
      marker->getResult(0).replaceAllUsesWith(ballot->getResult(0));
      marker.erase();
    }
  }
};

} // namespace

void mlir::tlx::populateWarpOpToTritonGPUPatterns(RewritePatternSet &patterns) {
  patterns.add<VoteBallotSyncOpConversion>(patterns.getContext());
}
