//===- InsertClusterBarrierInit.cpp - barrier init before remote arrivals -===//
//
// Another CTA of the cluster may arrive on this CTA's mbarriers as soon as it
// runs: the initialization must be released to the cluster
// (fence.mbarrier_init.release.cluster) and every CTA must have passed it
// (a cluster barrier) before the first remote arrival. A cta_group::2 MMA
// also writes the peer's tensor memory, which the peer allocates when it
// starts: the same cluster barrier orders that allocation before the MMA
// (stock Triton's cluster barrier before every two-CTA MMA is dropped for
// TLX kernels, see MMAOpToTritonGPU.cpp). In a warp-specialized kernel the
// barrier opens every task. The warps Triton would leave idle to fill whole
// warp groups then get a task that passes as many cluster barriers as every
// task does (this one and the kernel's own), so that each barrier completes.
//
//===----------------------------------------------------------------------===//

#include "tlx/Dialect/TLX/Transforms/Passes.h"

namespace mlir::tlx {
#define GEN_PASS_DEF_TLXINSERTCLUSTERBARRIERINIT
#include "tlx/Dialect/TLX/Transforms/Passes.h.inc"
} // namespace mlir::tlx

using namespace mlir;
using namespace mlir::tlx;

namespace {

/// Whether `op` works on the CTA pair's tensor memory (cta_group::2): the
/// MMA writes the peer's accumulator, the commit arrives on its mbarriers.
bool pairsCTAs(Operation *op) {
  if (auto mma = dyn_cast<TCGen05MMAOp>(op))
    return mma.getTwoCTAs();
  if (auto commit = dyn_cast<TCGen05CommitOp>(op))
    return commit.getTwoCTAs();
  return false;
}

/// Whether `op` completes an mbarrier of another CTA.
bool completesRemoteBarrier(Operation *op) {
  if (pairsCTAs(op))
    return true;
  if (auto arrive = dyn_cast<BarrierArriveOp>(op))
    return static_cast<bool>(arrive.getRemoteCTARank());
  if (auto load = dyn_cast<AsyncDescriptorLoadOp>(op))
    return !load.getMulticastTargets().empty() || load.getTwoCTAs();
  if (auto cancel = dyn_cast<CLCTryCancelOp>(op))
    return cancel.getMulticast(); // CTA 0's request completes every CTA's
  return isa<AsyncRemoteShmemStoreOp, AsyncRemoteShmemCopyOp>(op);
}

/// Gives the warps Triton would pad `tasks` with (they run no task, so they
/// never arrive on a cluster barrier) tasks of their own that pass as many
/// cluster barriers as every task does, where that count is known
/// (tlx-check-clusters has refused the other cases). Budgets, where the
/// tasks have any, are the smallest.
void addBarrierTasksForIdleWarps(AsyncTasksOp tasks) {
  if (tasks.getIdleWarps() == 0)
    return;
  std::optional<int64_t> count;
  for (AsyncTaskOp task : tasks.getBody().getOps<AsyncTaskOp>()) {
    std::optional<int64_t> taskCount = task.getClusterBarrierCount();
    if (!taskCount || (count && *count != *taskCount))
      return;
    count = taskCount;
  }
  if (!count || *count == 0)
    return;
  ClusterBarrierOp first;
  tasks.getBody().walk([&](ClusterBarrierOp barrier) {
    first = barrier;
    return WalkResult::interrupt();
  });
  Location loc = first.getLoc();
  bool budgets =
      llvm::any_of(tasks.getBody().getOps<AsyncTaskOp>(), [](AsyncTaskOp task) {
        return task.getRegisters().has_value();
      });
  OpBuilder builder = OpBuilder::atBlockEnd(&tasks.getBody().front());
  IntegerAttr registers =
      budgets ? builder.getI32IntegerAttr(kMinTaskRegisters) : IntegerAttr();
  for (int64_t idle = tasks.getIdleWarps(); idle > 0;) {
    int64_t warps = llvm::bit_floor(uint64_t(idle)); // num_warps: powers of 2
    auto task = AsyncTaskOp::create(builder, loc, /*isDefault=*/UnitAttr(),
                                    builder.getI32IntegerAttr(warps), registers,
                                    /*replicate=*/builder.getI32IntegerAttr(1));
    OpBuilder body = OpBuilder::atBlockBegin(&task.getBody().emplaceBlock());
    for (int64_t i = 0; i < *count; ++i)
      ClusterBarrierOp::create(body, loc);
    idle -= warps;
  }
}

void insertInit(FunctionOpInterface function) {
  bool remote = false, paired = false, fenced = false;
  function->walk([&](Operation *op) {
    remote |= completesRemoteBarrier(op);
    paired |= pairsCTAs(op);
    fenced |= isa<FenceMBarrierInitClusterOp>(op);
  });
  if (!remote || fenced)
    return;
  Block &entry = function.getFunctionBody().front();
  AllocBarriersOp last;
  for (AllocBarriersOp alloc : entry.getOps<AllocBarriersOp>())
    last = alloc;
  // Barriers made elsewhere: the kernel orders them itself, unless the CTA
  // pair's tensor memory still needs the cluster barrier.
  if (!last && !paired)
    return;
  OpBuilder builder(function->getContext());
  Location loc = last ? last.getLoc() : function->getLoc();
  if (last) {
    builder.setInsertionPointAfter(last);
    FenceMBarrierInitClusterOp::create(builder, loc);
  } else {
    builder.setInsertionPointToStart(&entry);
  }
  SmallVector<AsyncTaskOp> tasks;
  function->walk([&](AsyncTaskOp task) { tasks.push_back(task); });
  if (tasks.empty()) {
    ClusterBarrierOp::create(builder, loc);
    return;
  }
  for (AsyncTaskOp task : tasks) {
    builder.setInsertionPointToStart(&task.getBody().front());
    ClusterBarrierOp::create(builder, loc);
  }
}

struct InsertClusterBarrierInitPass
    : tlx::impl::TLXInsertClusterBarrierInitBase<InsertClusterBarrierInitPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (getClusterSize(module) <= 1)
      return;
    module->walk([](FunctionOpInterface function) {
      if (!function.isExternal())
        insertInit(function);
    });
    module->walk(
        [](AsyncTasksOp tasks) { addBarrierTasksForIdleWarps(tasks); });
  }
};

} // namespace
