//===- CheckClusters.cpp - cluster ops against the kernel's cluster -------===//

#include "tlx/Dialect/TLX/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::tlx {
#define GEN_PASS_DEF_TLXCHECKCLUSTERS
#include "tlx/Dialect/TLX/Transforms/Passes.h.inc"
} // namespace mlir::tlx

using namespace mlir;
using namespace mlir::tlx;

namespace {

class ClusterChecker {
public:
  explicit ClusterChecker(ModuleOp module)
      : clusterSize(getClusterSize(module)) {
    if (auto x = module->getAttrOfType<IntegerAttr>("ttg.cluster-dim-x"))
      clusterX = x.getInt();
  }

  /// An op with two_ctas (cta_group::2: tcgen05 ops, TMA loads) runs on the
  /// CTA pairs of the cluster (ranks 2i, 2i + 1 along x); Triton 3.6
  /// allocates all of the kernel's tensor memory for one group size, so its
  /// MMAs agree.
  LogicalResult checkTwoCTAs(Operation *op, bool twoCTAs, bool isMMA) {
    if (isMMA) {
      if (!firstMMA)
        firstMMA = op;
      else if (firstMMATwoCTAs != twoCTAs) {
        InFlightDiagnostic error =
            op->emitOpError() << "two_ctas=" << (twoCTAs ? "True" : "False")
                              << ", but an earlier async_dot has two_ctas="
                              << (firstMMATwoCTAs ? "True" : "False")
                              << ": the tcgen05 MMAs of a kernel use one "
                                 "CTA group (cta_group::1 or ::2)";
        error.attachNote(firstMMA->getLoc()) << "the earlier async_dot";
        return error;
      }
      firstMMATwoCTAs = twoCTAs;
    }
    if (!twoCTAs || clusterX % 2 == 0)
      return success();
    return op->emitOpError("two_ctas (cta_group::2) runs on pairs of "
                           "CTAs: launch the kernel with ctas_per_cga=(2, 1, "
                           "1) (an even cluster size along x), got ")
           << (clusterSize <= 1 ? "no cluster" : "a cluster of other shape");
  }

  /// An op reaching CTAs `ranks` (named `what` in the message).
  LogicalResult checkRemote(Operation *op, ValueRange ranks, StringRef what) {
    if (clusterSize <= 1)
      return op->emitOpError("reaches another CTA's shared memory, but the "
                             "kernel is compiled without a cluster: launch "
                             "it with ctas_per_cga=(2, 1, 1) or larger");
    for (Value rank : ranks) {
      APInt value;
      if (!matchPattern(rank, m_ConstantInt(&value)))
        continue;
      int64_t index = value.getSExtValue();
      if (index < 0 || index >= clusterSize)
        return op->emitOpError()
               << what << " " << index << " is outside the cluster of "
               << clusterSize << " CTAs (ranks 0.." << clusterSize - 1 << ")";
    }
    return success();
  }

  LogicalResult checkBarrierPlacement(ClusterBarrierOp barrier) {
    if (auto tasks = barrier->getParentOfType<AsyncTasksOp>())
      return checkBarrierInTasks(barrier, tasks);
    auto function = barrier->getParentOfType<FunctionOpInterface>();
    if (!function)
      return success(); // no kernel around it, so no tasks beside it
    AsyncTasksOp tasks;
    function->walk([&](AsyncTasksOp op) {
      bool hasWorkers =
          llvm::any_of(op.getBody().getOps<AsyncTaskOp>(),
                       [](AsyncTaskOp task) { return !task.getIsDefault(); });
      if (hasWorkers && !tasks)
        tasks = op;
    });
    if (!tasks)
      return success();
    InFlightDiagnostic error =
        barrier.emitOpError("outside the async tasks never completes: only "
                            "the default task's warps run here, and a "
                            "cluster barrier waits for every thread of the "
                            "cluster; call tlx.cluster_barrier() at the "
                            "start of every task instead");
    error.attachNote(tasks.getLoc()) << "the tasks are here";
    return error;
  }

  /// A cluster barrier completes once every thread of every CTA arrived: in
  /// tasks, every task must pass as many, and Triton's idle warps (padding
  /// the tasks to whole warp groups) too, which tlx-insert-cluster-barrier-
  /// init gives tasks that pass as many where the count is known.
  LogicalResult checkBarrierInTasks(ClusterBarrierOp barrier,
                                    AsyncTasksOp tasks) {
    if (!checkedTaskSets.insert(tasks).second)
      return success();
    AsyncTaskOp counted;
    std::optional<int64_t> count;
    bool countable = true;
    for (AsyncTaskOp task : tasks.getBody().getOps<AsyncTaskOp>()) {
      // Not countable: a barrier stands in a loop or branch of the task.
      std::optional<int64_t> taskCount = task.getClusterBarrierCount();
      if (taskCount == 0) {
        InFlightDiagnostic error = barrier.emitOpError(
            "waits for every thread of the cluster, but a task never calls "
            "tlx.cluster_barrier(): its warps would never arrive and every "
            "CTA would hang here; call it in every task, the same number of "
            "times");
        error.attachNote(task.getLoc()) << "this task never calls it";
        return error;
      }
      countable &= taskCount.has_value();
      if (!taskCount || !countable)
        continue;
      if (count && *count != *taskCount) {
        InFlightDiagnostic error =
            barrier.emitOpError("waits for every thread of the cluster, but "
                                "one task passes ")
            << *count << " cluster barriers and another " << *taskCount
            << ": the threads of the first would wait forever; call "
               "tlx.cluster_barrier() the same number of times in every task";
        error.attachNote(counted.getLoc()) << "this task passes " << *count;
        error.attachNote(task.getLoc()) << "this task passes " << *taskCount;
        return error;
      }
      count = taskCount;
      counted = task;
    }
    int64_t idleWarps = tasks.getIdleWarps();
    if (idleWarps == 0 || countable)
      return success();
    return barrier.emitOpError("waits for every thread of the cluster, but ")
           << "the tasks beside the default one have " << tasks.getTaskWarps()
           << " warps, which Triton rounds up to whole warp groups of "
           << kWarpsPerGroup << ": the " << idleWarps
           << " idle warps cannot pass barriers in a loop or branch and every "
              "CTA would hang here; call tlx.cluster_barrier() only directly "
              "in the tasks' bodies (TLX then gives the idle warps a task "
              "that passes as many), or give the tasks warps adding up to a "
              "multiple of "
           << kWarpsPerGroup;
  }

private:
  llvm::SmallPtrSet<Operation *, 2> checkedTaskSets;
  int64_t clusterSize;
  int64_t clusterX = 1;
  Operation *firstMMA = nullptr;
  bool firstMMATwoCTAs = false;
};

struct CheckClustersPass : tlx::impl::TLXCheckClustersBase<CheckClustersPass> {
  void runOnOperation() override {
    ClusterChecker checker(getOperation());
    bool failed = false;
    getOperation()->walk([&](Operation *op) {
      LogicalResult result =
          llvm::TypeSwitch<Operation *, LogicalResult>(op)
              .Case<BarrierArriveOp>([&](BarrierArriveOp arrive) {
                if (!arrive.getRemoteCTARank())
                  return success();
                return checker.checkRemote(arrive, arrive.getRemoteCTARank(),
                                           "remote CTA rank");
              })
              .Case<AsyncDescriptorLoadOp>([&](AsyncDescriptorLoadOp load) {
                if (mlir::failed(checker.checkTwoCTAs(load, load.getTwoCTAs(),
                                                      /*isMMA=*/false)))
                  return failure();
                if (load.getMulticastTargets().empty())
                  return success();
                return checker.checkRemote(load, load.getMulticastTargets(),
                                           "multicast target");
              })
              .Case<RemoteShmemStoreOp, AsyncRemoteShmemStoreOp,
                    AsyncRemoteShmemCopyOp>([&](auto op) {
                return checker.checkRemote(op, op.getRemoteCTARank(),
                                           "remote CTA rank");
              })
              .Case<ClusterBarrierOp>([&](ClusterBarrierOp barrier) {
                return checker.checkBarrierPlacement(barrier);
              })
              .Case<TCGen05MMAOp>([&](TCGen05MMAOp mma) {
                return checker.checkTwoCTAs(mma, mma.getTwoCTAs(),
                                            /*isMMA=*/true);
              })
              .Case<TCGen05CommitOp>([&](TCGen05CommitOp commit) {
                return checker.checkTwoCTAs(commit, commit.getTwoCTAs(),
                                            /*isMMA=*/false);
              })
              .Default([](Operation *) { return success(); });
      failed |= mlir::failed(result);
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace

int64_t mlir::tlx::getClusterSize(ModuleOp module) {
  int64_t size = 1;
  for (StringRef name :
       {"ttg.cluster-dim-x", "ttg.cluster-dim-y", "ttg.cluster-dim-z"})
    if (auto dim = module->getAttrOfType<IntegerAttr>(name))
      size *= dim.getInt();
  return size;
}
