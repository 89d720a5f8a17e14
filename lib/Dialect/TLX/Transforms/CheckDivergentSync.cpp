//===- CheckDivergentSync.cpp - task-wide ops under thread branches -------===//

#include "tlx/Dialect/TLX/Transforms/Passes.h"

#include "tlx/Dialect/TLX/IR/OpContracts.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "tlx/Dialect/Triton/IR/Dialect.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tlx {
#define GEN_PASS_DEF_TLXCHECKDIVERGENTSYNC
#include "tlx/Dialect/TLX/Transforms/Passes.h.inc"
} // namespace mlir::tlx

using namespace mlir;
using namespace mlir::tlx;

namespace {

/// How much of its task an operation needs to reach it (its ODS traits).
enum class Reach {
  /// Any subset of threads may run it.
  Any,
  /// Every thread of its warp group: the instruction is `.sync.aligned`.
  WarpGroup,
  /// Every thread of its task, in practice: Triton puts a task-wide
  /// `bar.sync` before it when it follows a conflicting shared-memory access.
  Task,
};

Reach getReach(Operation *op) {
  // tl.dot lowers to wgmma on Hopper.
  if (op->hasTrait<WarpGroupAligned>() || isa<triton::DotOp>(op))
    return Reach::WarpGroup;
  if (!op->hasTrait<TaskSynchronized>())
    return Reach::Any;
  // Each thread arrives for itself on a warp barrier: nothing to sync.
  if (auto arrive = dyn_cast<BarrierArriveOp>(op);
      arrive && arrive.getPerThread())
    return Reach::Any;
  return Reach::Task;
}

/// Whether the Python op behind `op` takes `pred=` (its contract has a `pred`
/// operand), which skips it per thread without a branch.
bool takesPredicate(Operation *op) {
  const OpContract *contract = lookupOpContract(op->getName().stripDialect());
  return contract &&
         llvm::any_of(contract->operands, [](const ValueContract &operand) {
           return operand.name == "pred";
         });
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
        Reach reach = getReach(op);
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
                                        "kernel may hang. Keep every thread "
                                        "of the task on it";
        if (takesPredicate(op))
          warning << " and pass the branch's condition as pred=";
        warning << ", or give this work a task of its own "
                   "(tlx.async_task(num_warps=1) runs on one warp)";
        warning.attachNote(branch->getLoc()) << "the branch on tlx.thread_id";
      });
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace
