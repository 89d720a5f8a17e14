//===- CheckStaticBounds.cpp - reject impossible constant operands -------===//

#include "tlx/Dialect/TLX/Transforms/Passes.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::tlx {
#define GEN_PASS_DEF_TLXCHECKSTATICBOUNDS
#include "tlx/Dialect/TLX/Transforms/Passes.h.inc"
} // namespace mlir::tlx

using namespace mlir;
using namespace mlir::tlx;

namespace {

/// The number of buffers, mbarriers or responses a `tlx.local_view` selects
/// from, and what one of them is called.
std::pair<int64_t, StringRef> getSetSize(Type set) {
  if (auto buffers = dyn_cast<BuffersType>(set))
    return {buffers.getCount(), "buffer"};
  if (auto responses = dyn_cast<CLCResponsesType>(set))
    return {responses.getCount(), "CLC response"};
  return {cast<MBarriersType>(set).getCount(), "mbarrier"};
}

LogicalResult checkViewIndex(LocalViewOp view) {
  APInt index;
  if (!matchPattern(view.getIndex(), m_ConstantInt(&index)))
    return success();
  auto [size, element] = getSetSize(view.getSource().getType());
  int64_t value = index.getSExtValue();
  if (value >= 0 && value < size)
    return success();
  return view.emitOpError() << "selects " << element << " " << value << " of "
                            << size << "; valid indices are 0.." << size - 1;
}

LogicalResult checkWaitPhase(BarrierWaitOp wait) {
  APInt phase;
  if (!matchPattern(wait.getPhase(), m_ConstantInt(&phase)))
    return success();
  int64_t value = phase.getSExtValue();
  if (value == 0 || value == 1)
    return success();
  return wait.emitOpError() << "waits on phase " << value
                            << "; an mbarrier phase parity is 0 or 1 (use "
                               "`phase ^ 1` or `(iteration // stages) & 1`)";
}

/// Hardware barriers are numbered 0..15 and count whole warps.
LogicalResult checkNamedBarrier(Operation *op, Value id, Value numThreads) {
  APInt value;
  if (matchPattern(id, m_ConstantInt(&value)) &&
      (value.getSExtValue() < 0 || value.getSExtValue() > 15))
    return op->emitOpError("uses barrier ")
           << value.getSExtValue() << "; named barriers are 0..15";
  if (matchPattern(numThreads, m_ConstantInt(&value)) &&
      (value.getSExtValue() <= 0 || value.getSExtValue() % 32 != 0))
    return op->emitOpError("counts ")
           << value.getSExtValue()
           << " threads; a named barrier counts whole warps (a positive "
              "multiple of 32)";
  return success();
}

struct CheckStaticBoundsPass
    : tlx::impl::TLXCheckStaticBoundsBase<CheckStaticBoundsPass> {
  void runOnOperation() override {
    bool failed = false;
    getOperation()->walk([&](Operation *op) {
      LogicalResult result =
          llvm::TypeSwitch<Operation *, LogicalResult>(op)
              .Case<LocalViewOp>(checkViewIndex)
              .Case<BarrierWaitOp>(checkWaitPhase)
              .Case<NamedBarrierWaitOp, NamedBarrierArriveOp>([](auto op) {
                return checkNamedBarrier(op, op.getId(), op.getNumThreads());
              })
              .Default([](Operation *) { return success(); });
      failed |= mlir::failed(result);
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace
