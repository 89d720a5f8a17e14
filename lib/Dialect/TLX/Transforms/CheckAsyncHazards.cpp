//===- CheckAsyncHazards.cpp - TMA byte counts and in-flight buffers ------===//

#include "tlx/Dialect/TLX/Transforms/Passes.h"

#include "mlir/IR/Matchers.h"

namespace mlir::tlx {
#define GEN_PASS_DEF_TLXCHECKASYNCHAZARDS
#include "tlx/Dialect/TLX/Transforms/Passes.h.inc"
} // namespace mlir::tlx

using namespace mlir;
using namespace mlir::tlx;

namespace {

int64_t getBlockBytes(triton::TensorDescType desc) {
  RankedTensorType block = desc.getBlockType();
  return block.getNumElements() * block.getElementTypeBitWidth() / 8;
}

/// The static buffer a view selects: (allocation, constant index), or the
/// view itself when the index is dynamic.
std::pair<Value, std::optional<int64_t>> identifyBuffer(Value buffer) {
  auto view = buffer.getDefiningOp<LocalViewOp>();
  if (!view)
    return {buffer, std::nullopt};
  APInt index;
  if (matchPattern(view.getIndex(), m_ConstantInt(&index)))
    return {view.getSource(), index.getSExtValue()};
  return {buffer, std::nullopt};
}

/// Whether two buffer or barrier values certainly name the same one: the
/// same value, or views of one allocation at the same index, one value or
/// one constant (the frontend makes a fresh view for every `bufs[i]`).
bool mustAlias(Value a, Value b) {
  if (a == b)
    return true;
  auto viewA = a.getDefiningOp<LocalViewOp>();
  auto viewB = b.getDefiningOp<LocalViewOp>();
  if (viewA && viewB && viewA.getSource() == viewB.getSource() &&
      viewA.getIndex() == viewB.getIndex())
    return true;
  auto [allocA, indexA] = identifyBuffer(a);
  auto [allocB, indexB] = identifyBuffer(b);
  return allocA == allocB && indexA && indexB && *indexA == *indexB;
}

/// Whether two buffer values may name the same buffer.
bool mayAlias(Value a, Value b) {
  if (a == b)
    return true;
  auto [allocA, indexA] = identifyBuffer(a);
  auto [allocB, indexB] = identifyBuffer(b);
  if (allocA != allocB)
    return false;
  return !indexA || !indexB || *indexA == *indexB;
}

LogicalResult checkBlock(Block &block) {
  struct Expectation {
    BarrierExpectBytesOp op;
    int64_t delivered = 0;
  };
  // The open expectations, one per barrier (compared with mustAlias).
  SmallVector<std::pair<Value, Expectation>> expectations;
  auto findExpectation = [&](Value barrier) {
    return llvm::find_if(expectations, [&](auto &entry) {
      return mustAlias(entry.first, barrier);
    });
  };
  // TMA loads not yet waited for: (buffer, barrier).
  SmallVector<AsyncDescriptorLoadOp> inFlight;
  bool failed = false;

  // When the loads may lie beyond what this block shows (`complete` false),
  // only a count that already overshoots is certain to be wrong.
  auto closeExpectation = [&](Value barrier, bool complete) {
    auto it = findExpectation(barrier);
    if (it == expectations.end())
      return;
    Expectation &expectation = it->second;
    int64_t expected = expectation.op.getBytes();
    bool wrong = complete ? expectation.delivered != expected
                          : expectation.delivered > expected;
    if (wrong) {
      expectation.op.emitOpError("expects ")
          << expected << " bytes but the TMA loads completing on this "
          << "mbarrier deliver " << expectation.delivered
          << "; the phase would "
          << (expectation.delivered < expected ? "never complete (hang)"
                                               : "complete before all data "
                                                 "lands");
      failed = true;
    }
    expectations.erase(it);
  };

  for (Operation &op : block) {
    if (auto expect = dyn_cast<BarrierExpectBytesOp>(op)) {
      closeExpectation(expect.getBarrier(), /*complete=*/false);
      expectations.push_back({expect.getBarrier(), Expectation{expect, 0}});
    } else if (auto load = dyn_cast<AsyncDescriptorLoadOp>(op)) {
      auto it = findExpectation(load.getBarrier());
      if (it != expectations.end())
        it->second.delivered += getBlockBytes(load.getDesc().getType());
      inFlight.push_back(load);
    } else if (auto wait = dyn_cast<BarrierWaitOp>(op)) {
      closeExpectation(wait.getBarrier(), /*complete=*/true);
      llvm::erase_if(inFlight, [&](AsyncDescriptorLoadOp load) {
        return mustAlias(load.getBarrier(), wait.getBarrier());
      });
    } else if (isa<LocalLoadOp, LocalStoreOp>(op)) {
      Value buffer = isa<LocalLoadOp>(op) ? cast<LocalLoadOp>(op).getBuffer()
                                          : cast<LocalStoreOp>(op).getBuffer();
      for (AsyncDescriptorLoadOp load : inFlight)
        if (mayAlias(load.getBuffer(), buffer)) {
          InFlightDiagnostic diag = op.emitOpError()
                                    << "accesses a buffer that a TMA load may "
                                       "still be filling; wait on the load's "
                                       "mbarrier (tlx.barrier_wait) first";
          diag.attachNote(load.getLoc()) << "the TMA load";
          failed = true;
          break;
        }
    } else if (op.getNumRegions() != 0) {
      // Control flow ends what straight-line reasoning can prove.
      for (Value barrier :
           llvm::to_vector(llvm::make_first_range(expectations)))
        closeExpectation(barrier, /*complete=*/false);
      inFlight.clear();
    }
  }
  for (Value barrier : llvm::to_vector(llvm::make_first_range(expectations)))
    closeExpectation(barrier, /*complete=*/false);
  return failure(failed);
}

struct CheckAsyncHazardsPass
    : tlx::impl::TLXCheckAsyncHazardsBase<CheckAsyncHazardsPass> {
  void runOnOperation() override {
    bool failed = false;
    getOperation()->walk([&](Block *block) {
      if (mlir::failed(checkBlock(*block)))
        failed = true;
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace
