//===- CheckAsyncHazards.cpp - TMA byte counts and in-flight buffers ------===//

#include "tlx/Dialect/TLX/Transforms/Passes.h"

#include "tlx/Dialect/TLX/Transforms/BufferIdentity.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

namespace mlir::tlx {
#define GEN_PASS_DEF_TLXCHECKASYNCHAZARDS
#include "tlx/Dialect/TLX/Transforms/Passes.h.inc"
} // namespace mlir::tlx

using namespace mlir;
using namespace mlir::tlx;

namespace {

/// A TMA load or a bulk copy: an asynchronous write of a buffer that
/// completes transaction bytes on an mbarrier.
struct AsyncCopy {
  Operation *op;
  Value buffer;
  Value barrier;
  /// The bytes it delivers to `barrier`, when this CTA's code shows them:
  /// not for a multicast or two-CTA load (other CTAs' loads complete the
  /// barrier too) nor for a bulk copy of a size known only at run time.
  std::optional<int64_t> bytes;
};

/// What a CLC request delivers to its mbarrier: the response's bytes. A
/// multicast request is issued once per cluster and delivers them to every
/// CTA's mbarrier, so each CTA's code still shows the bytes its barrier gets.
constexpr int64_t kCLCResponseBytes = 16;

/// The asynchronous write `op` makes, if it is one: a TMA load, a bulk copy
/// or a CLC request (whose buffer is its response).
std::optional<AsyncCopy> getAsyncCopy(Operation *op) {
  if (auto load = dyn_cast<AsyncDescriptorLoadOp>(op)) {
    std::optional<int64_t> bytes;
    if (load.getMulticastTargets().empty() && !load.getTwoCTAs()) {
      RankedTensorType block = load.getDesc().getType().getBlockType();
      bytes = block.getNumElements() * block.getElementTypeBitWidth() / 8;
    }
    return AsyncCopy{op, load.getBuffer(), load.getBarrier(), bytes};
  }
  if (auto copy = dyn_cast<AsyncBulkLoadOp>(op)) {
    std::optional<int64_t> bytes;
    APInt size;
    if (matchPattern(copy.getSize(), m_ConstantInt(&size)))
      bytes = size.getSExtValue();
    return AsyncCopy{op, copy.getBuffer(), copy.getBarrier(), bytes};
  }
  if (auto cancel = dyn_cast<CLCTryCancelOp>(op))
    return AsyncCopy{op, cancel.getResponse(), cancel.getBarrier(),
                     kCLCResponseBytes};
  return std::nullopt;
}

/// The bytes the TMA loads of `block` deliver to `barrier`, when `block` is
/// straight-line for that barrier (no expectation or wait on it, no nested
/// region touching it); nullopt otherwise.
std::optional<int64_t> getBranchBytes(Block &block, Value barrier) {
  int64_t bytes = 0;
  for (Operation &op : block) {
    if (std::optional<AsyncCopy> copy = getAsyncCopy(&op)) {
      if (!mayAlias(copy->barrier, barrier))
        continue;
      if (!mustAlias(copy->barrier, barrier) || !copy->bytes)
        return std::nullopt;
      bytes += *copy->bytes;
    } else if (auto expect = dyn_cast<BarrierExpectBytesOp>(op)) {
      if (mayAlias(expect.getBarrier(), barrier))
        return std::nullopt;
    } else if (auto wait = dyn_cast<BarrierWaitOp>(op)) {
      if (mayAlias(wait.getBarrier(), barrier))
        return std::nullopt;
    } else if (op.getNumRegions() != 0) {
      bool touches = false;
      op.walk([&](Operation *inner) {
        for (Value operand : inner->getOperands())
          if (mayAlias(operand, barrier))
            touches = true;
      });
      if (touches)
        return std::nullopt;
    }
  }
  return bytes;
}

std::string describeTotals(ArrayRef<int64_t> totals) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(totals, os, " or ");
  return text;
}

LogicalResult checkBlock(Block &block) {
  struct Expectation {
    BarrierExpectBytesOp op;
    /// The bytes delivered so far on each path through the `scf.if`s seen.
    SmallVector<int64_t> totals = {0};
  };
  // The open expectations, one per barrier (compared with mustAlias).
  SmallVector<std::pair<Value, Expectation>> expectations;
  auto findExpectation = [&](Value barrier) {
    return llvm::find_if(expectations, [&](auto &entry) {
      return mustAlias(entry.first, barrier);
    });
  };
  // TMA loads, bulk copies and CLC requests not yet waited for.
  SmallVector<AsyncCopy> inFlight;
  // CLC requests whose response no wait (on a barrier that may be theirs)
  // has seen yet.
  SmallVector<CLCTryCancelOp> pendingResponses;
  bool failed = false;

  // When the loads may lie beyond what this block shows (`complete` false),
  // only a count that already overshoots on every path is certain to be
  // wrong.
  auto closeExpectation = [&](Value barrier, bool complete) {
    auto it = findExpectation(barrier);
    if (it == expectations.end())
      return;
    Expectation &expectation = it->second;
    int64_t expected = expectation.op.getBytes();
    ArrayRef<int64_t> totals = expectation.totals;
    int64_t matching = llvm::count(totals, expected);
    bool allOver =
        llvm::all_of(totals, [&](int64_t t) { return t > expected; });
    if (totals.size() == 1 && (complete ? matching == 0 : allOver)) {
      int64_t delivered = totals.front();
      expectation.op.emitOpError("expects ")
          << expected << " bytes but the TMA loads completing on this "
          << "mbarrier deliver " << delivered << "; the phase would "
          << (delivered < expected ? "never complete (hang)"
                                   : "complete before all data lands");
      failed = true;
    } else if (totals.size() > 1 && (complete ? matching == 0 : allOver)) {
      expectation.op.emitOpError("expects ")
          << expected << " bytes but the TMA loads completing on this "
          << "mbarrier deliver " << describeTotals(totals)
          << " depending on the branches taken, never " << expected
          << ": the phase would hang or complete before all data lands";
      failed = true;
    } else if (complete && matching != static_cast<int64_t>(totals.size())) {
      expectation.op.emitWarning("expects ")
          << expected << " bytes but on some paths the TMA loads completing "
          << "on this mbarrier deliver " << describeTotals(totals)
          << "; announce the bytes in the branch that loads them";
    }
    expectations.erase(it);
  };

  for (Operation &op : block) {
    if (auto expect = dyn_cast<BarrierExpectBytesOp>(op)) {
      closeExpectation(expect.getBarrier(), /*complete=*/false);
      expectations.push_back({expect.getBarrier(), Expectation{expect}});
    } else if (std::optional<AsyncCopy> copy = getAsyncCopy(&op)) {
      auto it = findExpectation(copy->barrier);
      if (it != expectations.end() && !copy->bytes)
        expectations.erase(it); // bytes this code does not show: not judged
      else if (it != expectations.end())
        for (int64_t &total : it->second.totals)
          total += *copy->bytes;
      inFlight.push_back(*copy);
      if (auto cancel = dyn_cast<CLCTryCancelOp>(op))
        pendingResponses.push_back(cancel);
    } else if (auto query = dyn_cast<CLCQueryOp>(op)) {
      for (CLCTryCancelOp cancel : pendingResponses)
        if (mustAlias(cancel.getResponse(), query.getResponse())) {
          InFlightDiagnostic diag =
              query.emitOpError()
              << "reads a CLC response that the request may still be "
                 "writing; wait on the request's mbarrier (tlx.barrier_wait) "
                 "first";
          diag.attachNote(cancel.getLoc()) << "the request";
          failed = true;
          break;
        }
    } else if (auto wait = dyn_cast<BarrierWaitOp>(op)) {
      closeExpectation(wait.getBarrier(), /*complete=*/true);
      llvm::erase_if(inFlight, [&](const AsyncCopy &copy) {
        return mustAlias(copy.barrier, wait.getBarrier());
      });
      llvm::erase_if(pendingResponses, [&](CLCTryCancelOp cancel) {
        return mayAlias(cancel.getBarrier(), wait.getBarrier());
      });
    } else if (isa<LocalLoadOp, LocalStoreOp>(op)) {
      Value buffer = isa<LocalLoadOp>(op) ? cast<LocalLoadOp>(op).getBuffer()
                                          : cast<LocalStoreOp>(op).getBuffer();
      for (const AsyncCopy &copy : inFlight)
        if (mayAlias(copy.buffer, buffer)) {
          bool bulk = isa<AsyncBulkLoadOp>(copy.op);
          InFlightDiagnostic diag =
              op.emitOpError() << "accesses a buffer that a "
                               << (bulk ? "bulk copy" : "TMA load")
                               << " may still be filling; wait on its mbarrier "
                                  "(tlx.barrier_wait) first";
          diag.attachNote(copy.op->getLoc())
              << (bulk ? "the bulk copy" : "the TMA load");
          failed = true;
          break;
        }
    } else if (auto branch = dyn_cast<scf::IfOp>(op)) {
      // The loads of each branch add to every path so far, while the
      // branches are straight-line for the barrier.
      for (Value barrier :
           llvm::to_vector(llvm::make_first_range(expectations))) {
        std::optional<int64_t> thenBytes =
            getBranchBytes(branch.getThenRegion().front(), barrier);
        std::optional<int64_t> elseBytes =
            branch.getElseRegion().empty()
                ? std::optional<int64_t>(0)
                : getBranchBytes(branch.getElseRegion().front(), barrier);
        Expectation &expectation = findExpectation(barrier)->second;
        if (!thenBytes || !elseBytes || expectation.totals.size() > 8) {
          closeExpectation(barrier, /*complete=*/false);
          continue;
        }
        SmallVector<int64_t> totals;
        for (int64_t total : expectation.totals)
          for (int64_t bytes : {*thenBytes, *elseBytes})
            if (!llvm::is_contained(totals, total + bytes))
              totals.push_back(total + bytes);
        expectation.totals = std::move(totals);
      }
      inFlight.clear();
      pendingResponses.clear();
    } else if (op.getNumRegions() != 0) {
      // Loops and tasks end what straight-line reasoning can prove.
      for (Value barrier :
           llvm::to_vector(llvm::make_first_range(expectations)))
        closeExpectation(barrier, /*complete=*/false);
      inFlight.clear();
      pendingResponses.clear();
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
