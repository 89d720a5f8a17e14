//===- CheckDivergentSync.cpp - task-wide ops under thread branches -------===//

#include "tlx/Dialect/TLX/Transforms/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "tlx/Dialect/Triton/IR/Dialect.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::tlx {
#define GEN_PASS_DEF_TLXCHECKDIVERGENTSYNC
#include "tlx/Dialect/TLX/Transforms/Passes.h.inc"
} // namespace mlir::tlx

using namespace mlir;
using namespace mlir::tlx;

namespace {

/// How much of its task an operation needs to reach it.
enum class Reach {
  /// Any subset of threads may run it.
  Any,
  /// Every thread of its warp group: the instruction is `.sync.aligned`.
  WarpGroup,
  /// Every thread of its task, in practice: Triton puts a task-wide
  /// `bar.sync` before it when it follows a conflicting shared-memory access.
  Task,
};

/// What `op` needs, and for `Reach::Task`, how the user gets the same effect
/// from fewer threads (empty: no such argument).
std::pair<Reach, StringRef> getReach(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::pair<Reach, StringRef>>(op)
      .Case<AsyncDotOp, AsyncDotWaitOp, TCGen05MMAOp, TCGen05MMAScaledOp,
            TCGen05CommitOp, TMEMCopyOp, ClusterBarrierOp, AsyncTasksOp,
            triton::DotOp>(
          [](Operation *) { return std::make_pair(Reach::WarpGroup, ""); })
      .Case<BarrierArriveOp>([](BarrierArriveOp arrive) {
        // Each thread arrives for itself on a warp barrier: nothing to sync.
        if (arrive.getPerThread())
          return std::make_pair(Reach::Any, StringRef());
        return std::make_pair(Reach::Task, StringRef("pred="));
      })
      .Case<AsyncDescriptorLoadOp, BarrierExpectBytesOp>([](Operation *) {
        return std::make_pair(Reach::Task, StringRef("pred="));
      })
      .Case<BarrierWaitOp, LocalLoadOp, LocalStoreOp, LocalGatherOp,
            LocalScatterOp, AsyncDescriptorStoreOp, AsyncLoadOp,
            AsyncBulkLoadOp, AsyncStoreOp, RemoteShmemStoreOp,
            AsyncRemoteShmemStoreOp, AsyncRemoteShmemCopyOp, LocalAllocOp,
            AllocBarriersOp>(
          [](Operation *) { return std::make_pair(Reach::Task, StringRef()); })
      .Default([](Operation *) { return std::make_pair(Reach::Any, ""); });
}

/// The operations whose results differ between threads: `tlx.thread_id` and
/// everything computed from it.
SetVector<Operation *> getThreadDependentOps(Operation *root) {
  SetVector<Operation *> dependent;
  ForwardSliceOptions options;
  options.inclusive = true;
  root->walk([&](ThreadIdOp threadId) {
    getForwardSlice(threadId.getOperation(), &dependent, options);
  });
  return dependent;
}

/// Whether `op` decides per thread whether (or how often) its regions run.
bool branchesPerThread(Operation *op, const SetVector<Operation *> &dependent) {
  auto isDependent = [&](Value value) {
    Operation *def = value.getDefiningOp();
    return def && dependent.contains(def);
  };
  if (auto ifOp = dyn_cast<scf::IfOp>(op))
    return isDependent(ifOp.getCondition());
  if (auto forOp = dyn_cast<scf::ForOp>(op))
    return isDependent(forOp.getLowerBound()) ||
           isDependent(forOp.getUpperBound()) || isDependent(forOp.getStep());
  if (auto whileOp = dyn_cast<scf::WhileOp>(op))
    return isDependent(whileOp.getConditionOp().getCondition());
  return false;
}

struct CheckDivergentSyncPass
    : tlx::impl::TLXCheckDivergentSyncBase<CheckDivergentSyncPass> {
  void runOnOperation() override {
    SetVector<Operation *> dependent = getThreadDependentOps(getOperation());
    if (dependent.empty())
      return;
    bool failed = false;
    DenseSet<Operation *> reported;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *branch) {
      if (!branchesPerThread(branch, dependent))
        return;
      branch->walk([&](Operation *op) {
        auto [reach, predicate] = getReach(op);
        if (reach == Reach::Any || !reported.insert(op).second)
          return;
        if (reach == Reach::WarpGroup) {
          op->emitOpError("must be reached by every thread of its warp group "
                          "(its instruction is .sync.aligned), but it runs "
                          "under a branch on tlx.thread_id: move it out of "
                          "the branch")
                  .attachNote(branch->getLoc())
              << "the branch on tlx.thread_id";
          failed = true;
          return;
        }
        InFlightDiagnostic warning = op->emitWarning()
                                     << "'" << op->getName()
                                     << "' runs under a branch on "
                                        "tlx.thread_id; Triton synchronizes "
                                        "the task's warps (bar.sync) around "
                                        "shared-memory, mbarrier and TMA "
                                        "operations, and threads that skip "
                                        "the branch never arrive there: the "
                                        "kernel may hang. ";
        if (!predicate.empty())
          warning << "Keep every thread on it and pass " << predicate
                  << " (one thread of the task acts already)";
        else
          warning << "Keep every thread of the task on it";
        warning.attachNote(branch->getLoc()) << "the branch on tlx.thread_id";
      });
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace
