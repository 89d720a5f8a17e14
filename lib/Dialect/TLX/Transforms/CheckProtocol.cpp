//===- CheckProtocol.cpp - the asynchronous protocol of a kernel ----------===//
//
// Mistakes in the protocol between asynchronous units (mbarriers, wgmma,
// cp.async, TMA stores) compile to kernels that hang or read torn data. Each
// rule here reports only what is certain from the IR; where control flow
// hides the answer it says nothing.
//
//===----------------------------------------------------------------------===//

#include "tlx/Dialect/TLX/Transforms/Passes.h"

#include "tlx/Dialect/TLX/Transforms/BufferIdentity.h"
#include "tlx/Dialect/TLX/Transforms/PhaseParity.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

namespace mlir::tlx {
#define GEN_PASS_DEF_TLXCHECKPROTOCOL
#include "tlx/Dialect/TLX/Transforms/Passes.h.inc"
} // namespace mlir::tlx

using namespace mlir;
using namespace mlir::tlx;

namespace {

/// One mbarrier allocation and every op that names one of its barriers.
struct BarrierUses {
  AllocBarriersOp alloc;
  /// The ops using a barrier of the set, with the barrier value they use.
  SmallVector<std::pair<Operation *, Value>> uses;
  /// Whether a barrier value flows where this analysis cannot follow it (a
  /// loop-carried value, a call): then nothing certain can be said.
  bool escapes = false;
};

BarrierUses collectBarrierUses(AllocBarriersOp alloc) {
  BarrierUses result{alloc};
  for (OpOperand &use : alloc.getResult().getUses()) {
    auto view = dyn_cast<LocalViewOp>(use.getOwner());
    if (!view) {
      result.escapes = true;
      continue;
    }
    for (OpOperand &barrierUse : view.getResult().getUses()) {
      Operation *user = barrierUse.getOwner();
      Dialect *dialect = user->getDialect(); // null for an unregistered op
      if (!dialect || !isa<TLXDialect>(dialect))
        result.escapes = true;
      result.uses.push_back({user, view.getResult()});
    }
  }
  return result;
}

/// The constant index a barrier view selects, if any.
std::optional<int64_t> getConstantIndex(Value barrier) {
  return identifyBuffer(barrier).second;
}

/// Whether barriers `a` and `b` of one allocation may be the same one.
bool mayBeSameSlot(Value a, Value b) {
  std::optional<int64_t> indexA = getConstantIndex(a);
  std::optional<int64_t> indexB = getConstantIndex(b);
  return !indexA || !indexB || *indexA == *indexB;
}

/// Whether `wait` waits with the constant parity 1: on an mbarrier no phase of
/// which completes it returns at once (the phase before the first counts as
/// complete), as a producer's first wait for a slot that starts free does.
bool waitsForThePhaseBeforeTheFirst(BarrierWaitOp wait) {
  return matchPattern(wait.getPhase(), m_One());
}

/// Waits that nothing can complete, arrivals beyond the barrier's count, and
/// TMA loads and bulk copies whose bytes no expectation announces.
LogicalResult checkBarrierSet(BarrierUses &set) {
  bool failed = false;
  int64_t arrivals = set.alloc.getArriveCount();
  for (auto [op, barrier] : set.uses) {
    auto arrive = dyn_cast<BarrierArriveOp>(op);
    if (arrive && !arrive.getPerThread() && arrive.getCount() > arrivals) {
      arrive.emitOpError("arrives ")
          << arrive.getCount() << " times on an mbarrier initialized for "
          << arrivals << " arrival" << (arrivals == 1 ? "" : "s")
          << " per phase: the phase completes early and the extra arrivals "
             "count toward the next one; match tlx.alloc_barriers(..., "
             "arrive_count=) to the arrivals of one phase";
      failed = true;
    }
  }
  if (set.escapes)
    return failure(failed);

  auto anyUse = [&](Value barrier, auto predicate) {
    return llvm::any_of(set.uses, [&](auto &use) {
      return predicate(use.first) && mayBeSameSlot(use.second, barrier);
    });
  };
  // Ops that never arrive: waits, and the asynchronous copies (and CLC
  // requests) that only complete transaction bytes on it.
  auto isArrival = [](Operation *op) {
    return !isa<BarrierWaitOp, AsyncDescriptorLoadOp, AsyncBulkLoadOp,
                AsyncRemoteShmemStoreOp, AsyncRemoteShmemCopyOp,
                CLCTryCancelOp>(op);
  };
  for (auto [op, barrier] : set.uses) {
    if (auto wait = dyn_cast<BarrierWaitOp>(op)) {
      if (!anyUse(barrier, isArrival) &&
          !waitsForThePhaseBeforeTheFirst(wait)) {
        wait.emitOpError("waits on an mbarrier that nothing in the kernel "
                         "arrives on (no tlx.barrier_arrive or "
                         "tlx.barrier_expect_bytes on it): the wait never "
                         "completes");
        failed = true;
      }
    } else if (isa<AsyncDescriptorLoadOp, AsyncBulkLoadOp>(op)) {
      if (!anyUse(barrier, [](Operation *user) {
            return isa<BarrierExpectBytesOp>(user);
          })) {
        op->emitOpError(
            "completes on an mbarrier that no tlx.barrier_expect_bytes arms: "
            "its bytes are counted against no expectation, so the phase "
            "completes without waiting for them; announce them with "
            "tlx.barrier_expect_bytes(bar, bytes) before the load");
        failed = true;
      }
    } else if (auto cancel = dyn_cast<CLCTryCancelOp>(op)) {
      if (!anyUse(barrier, [](Operation *user) {
            return isa<BarrierExpectBytesOp>(user);
          })) {
        cancel.emitOpError(
            "completes on an mbarrier that no tlx.barrier_expect_bytes arms: "
            "the response's 16 bytes are counted against no expectation, so "
            "a wait on it may return before the response is written; arm it "
            "with tlx.barrier_expect_bytes(bar, 16) before the request");
        failed = true;
      }
    }
  }
  return failure(failed);
}

/// Whether `wait` (`wgmma.wait_group k`, k > 0) certainly leaves the dot that
/// made its accumulator in flight: that dot is the last one issued before the
/// wait, in the same block, so it is among the k newest.
bool leavesItsDotPending(AsyncDotWaitOp wait) {
  if (wait.getPendings() == 0)
    return false;
  auto dot = wait.getAcc().getDefiningOp<AsyncDotOp>();
  if (!dot || dot->getBlock() != wait->getBlock())
    return false;
  for (Operation *op = dot->getNextNode(); op != wait; op = op->getNextNode())
    if (isa<AsyncDotOp>(op) || op->getNumRegions() != 0)
      return false;
  return true;
}

/// Reads of an async dot's result before a tlx.async_dot_wait retires it:
/// follows the value into later dots (as their accumulator), through loop
/// iterations and branch results.
LogicalResult checkDotResult(AsyncDotOp dot) {
  SmallVector<Value> worklist = {dot.getResult()};
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (auto wait = dyn_cast<AsyncDotWaitOp>(user)) {
        if (leavesItsDotPending(wait))
          worklist.push_back(wait.getResult());
        continue;
      }
      if (auto next = dyn_cast<AsyncDotOp>(user)) {
        if (use.get() == next.getAcc() && use.getOperandNumber() == 2) {
          worklist.push_back(next.getResult());
          continue;
        }
      } else if (auto yield = dyn_cast<scf::YieldOp>(user)) {
        Operation *parent = yield->getParentOp();
        unsigned index = use.getOperandNumber();
        if (auto loop = dyn_cast<scf::ForOp>(parent)) {
          worklist.push_back(loop.getResult(index));
          worklist.push_back(loop.getRegionIterArg(index));
          continue;
        }
        if (isa<scf::IfOp>(parent)) {
          worklist.push_back(parent->getResult(index));
          continue;
        }
        return success(); // a region this analysis does not follow
      } else if (isa<scf::ForOp>(user)) {
        // An init value: the loop's region argument carries it.
        auto loop = cast<scf::ForOp>(user);
        if (use.getOperandNumber() >= loop.getNumControlOperands()) {
          unsigned index =
              use.getOperandNumber() - loop.getNumControlOperands();
          worklist.push_back(loop.getRegionIterArg(index));
          worklist.push_back(loop.getResult(index));
          continue;
        }
      }
      InFlightDiagnostic diag =
          user->emitOpError("reads the result of a tlx.async_dot before "
                            "tlx.async_dot_wait retires it: wgmma may still "
                            "be writing those registers");
      diag.attachNote(dot.getLoc()) << "the async dot";
      return failure();
    }
  }
  return success();
}

/// Straight-line hazards of one block: a buffer overwritten while a wgmma
/// still reads it; a cp.async destination read before its group is waited.
/// (A TMA store of register-written shared memory gets its proxy fence from
/// tlx-insert-proxy-fences, as the public TLX API's compiler does.)
LogicalResult checkBlock(Block &block) {
  bool failed = false;
  SmallVector<AsyncDotOp> dotsInFlight;
  SmallVector<SmallVector<AsyncLoadOp>> cpAsyncGroups = {{}}; // back: open

  auto dotReading = [&](Value buffer) -> AsyncDotOp {
    for (AsyncDotOp dot : dotsInFlight)
      for (Value operand : {Value(dot.getA()), Value(dot.getB())})
        if (isa<BufferType>(operand.getType()) &&
            mustAlias(getViewedBuffer(operand), getViewedBuffer(buffer)))
          return dot;
    return {};
  };
  auto cpAsyncFilling = [&](Value buffer) -> AsyncLoadOp {
    for (auto &group : cpAsyncGroups)
      for (AsyncLoadOp load : group)
        if (mustAlias(getViewedBuffer(load.getBuffer()),
                      getViewedBuffer(buffer)))
          return load;
    return {};
  };
  auto report = [&](Operation *op, Operation *cause, StringRef message,
                    StringRef note) {
    InFlightDiagnostic diag = op->emitOpError(message);
    diag.attachNote(cause->getLoc()) << note;
    failed = true;
  };
  auto checkWrite = [&](Operation *op, Value buffer) {
    if (AsyncDotOp dot = dotReading(buffer))
      report(op, dot,
             "overwrites a buffer that an unfinished tlx.async_dot still "
             "reads; retire the dot with tlx.async_dot_wait first",
             "the async dot");
  };
  auto checkRead = [&](Operation *op, Value buffer) {
    if (AsyncLoadOp load = cpAsyncFilling(buffer))
      report(op, load,
             "reads a buffer that cp.async may still be filling; commit the "
             "copies and wait for them (tlx.async_load_wait_group) first",
             "the cp.async copy");
  };

  for (Operation &op : block) {
    if (auto store = dyn_cast<LocalStoreOp>(op)) {
      checkWrite(store, store.getBuffer());
    } else if (isa<AsyncDescriptorStoreOp, AsyncStoreOp>(op)) {
      Value buffer = isa<AsyncDescriptorStoreOp>(op)
                         ? cast<AsyncDescriptorStoreOp>(op).getBuffer()
                         : cast<AsyncStoreOp>(op).getSource();
      checkRead(&op, buffer);
    } else if (auto load = dyn_cast<AsyncDescriptorLoadOp>(op)) {
      checkWrite(load, load.getBuffer());
    } else if (auto bulk = dyn_cast<AsyncBulkLoadOp>(op)) {
      checkWrite(bulk, bulk.getBuffer());
    } else if (auto copy = dyn_cast<AsyncLoadOp>(op)) {
      checkWrite(copy, copy.getBuffer());
      cpAsyncGroups.back().push_back(copy);
    } else if (isa<AsyncLoadCommitGroupOp>(op)) {
      cpAsyncGroups.push_back({});
    } else if (auto wait = dyn_cast<AsyncLoadWaitGroupOp>(op)) {
      // All but the newest `pendings` committed groups have landed; the open
      // group is not waited for.
      int64_t committed = cpAsyncGroups.size() - 1;
      int64_t done = std::max<int64_t>(committed - wait.getPendings(), 0);
      cpAsyncGroups.erase(cpAsyncGroups.begin(), cpAsyncGroups.begin() + done);
    } else if (auto read = dyn_cast<LocalLoadOp>(op)) {
      checkRead(read, read.getBuffer());
    } else if (auto dot = dyn_cast<AsyncDotOp>(op)) {
      for (Value operand : {Value(dot.getA()), Value(dot.getB())})
        if (isa<BufferType>(operand.getType()))
          checkRead(dot, operand);
      dotsInFlight.push_back(dot);
    } else if (auto wait = dyn_cast<AsyncDotWaitOp>(op)) {
      int64_t keep = wait.getPendings();
      int64_t retired = std::max<int64_t>(
          static_cast<int64_t>(dotsInFlight.size()) - keep, 0);
      dotsInFlight.erase(dotsInFlight.begin(), dotsInFlight.begin() + retired);
    } else if (op.getNumRegions() != 0) {
      // What the nested regions do is not straight-line: start over.
      dotsInFlight.clear();
      cpAsyncGroups = {{}};
    }
  }
  return failure(failed);
}

/// Inside warp-specialized tasks stock Triton 3.6 takes the low hardware
/// barriers (WarpSpecializeToLLVM): 0 for the default task, 1 for the tasks'
/// start and end, and 2 + i for the i-th other task replica's own
/// `bar.sync` (Membar's, for one). A named barrier with one of those ids
/// would mix its thread counts with the compiler's.
LogicalResult checkNamedBarrier(Operation *op, Value id) {
  auto tasks = op->getParentOfType<AsyncTasksOp>();
  APInt value;
  if (!tasks || !matchPattern(id, m_ConstantInt(&value)))
    return success();
  int64_t replicas = 0;
  for (AsyncTaskOp task : tasks.getBody().getOps<AsyncTaskOp>())
    if (!task.getIsDefault())
      replicas += task.getReplicate();
  int64_t firstFree = 2 + replicas;
  int64_t barrier = value.getSExtValue();
  // A negative id is tlx-check-static-bounds' error (ids are 0..15).
  if (barrier < 0 || barrier >= firstFree)
    return success();
  InFlightDiagnostic error = op->emitOpError()
                             << "uses named barrier " << barrier
                             << " inside warp-specialized tasks, where the "
                                "compiler takes 0 (the default task), 1 (the "
                                "tasks' start and end)";
  if (replicas > 0)
    error << " and 2-" << firstFree - 1 << " (the own barrier of each of the "
          << replicas << " other task replicas)";
  error << "; ";
  if (firstFree <= 15)
    error << "take ids " << firstFree << "-15";
  else
    error << "no id is left for the kernel's own";
  return error;
}

struct CheckProtocolPass : tlx::impl::TLXCheckProtocolBase<CheckProtocolPass> {
  void runOnOperation() override {
    bool failed = false;
    auto record = [&](LogicalResult result) {
      if (mlir::failed(result))
        failed = true;
    };
    Operation *root = getOperation();
    root->walk([&](AllocBarriersOp alloc) {
      BarrierUses uses = collectBarrierUses(alloc);
      record(checkBarrierSet(uses));
    });
    record(checkPhaseParity(root));
    root->walk([&](AsyncDotOp dot) { record(checkDotResult(dot)); });
    root->walk([&](Block *block) { record(checkBlock(*block)); });
    root->walk([&](Operation *op) {
      if (auto wait = dyn_cast<NamedBarrierWaitOp>(op))
        record(checkNamedBarrier(op, wait.getId()));
      else if (auto arrive = dyn_cast<NamedBarrierArriveOp>(op))
        record(checkNamedBarrier(op, arrive.getId()));
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace
