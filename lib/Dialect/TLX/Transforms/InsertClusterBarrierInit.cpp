//===- InsertClusterBarrierInit.cpp - barrier init before remote arrivals -===//
//
// Another CTA of the cluster may arrive on this CTA's mbarriers as soon as it
// runs: the initialization must be released to the cluster
// (fence.mbarrier_init.release.cluster) and every CTA must have passed it
// (a cluster barrier) before the first remote arrival.
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

/// Whether `op` completes an mbarrier of another CTA.
bool completesRemoteBarrier(Operation *op) {
  if (auto arrive = dyn_cast<BarrierArriveOp>(op))
    return static_cast<bool>(arrive.getRemoteCTARank());
  if (auto load = dyn_cast<AsyncDescriptorLoadOp>(op))
    return !load.getMulticastTargets().empty() || load.getTwoCTAs();
  if (auto cancel = dyn_cast<CLCTryCancelOp>(op))
    return cancel.getMulticast(); // CTA 0's request completes every CTA's
  return isa<AsyncRemoteShmemStoreOp, AsyncRemoteShmemCopyOp>(op);
}

void insertInit(FunctionOpInterface function) {
  bool remote = false, fenced = false;
  function->walk([&](Operation *op) {
    remote |= completesRemoteBarrier(op);
    fenced |= isa<FenceMBarrierInitClusterOp>(op);
  });
  if (!remote || fenced)
    return;
  Block &entry = function.getFunctionBody().front();
  AllocBarriersOp last;
  for (AllocBarriersOp alloc : entry.getOps<AllocBarriersOp>())
    last = alloc;
  if (!last)
    return; // barriers made elsewhere: the kernel orders them itself
  OpBuilder builder(last->getContext());
  builder.setInsertionPointAfter(last);
  FenceMBarrierInitClusterOp::create(builder, last.getLoc());
  SmallVector<AsyncTaskOp> tasks;
  function->walk([&](AsyncTaskOp task) { tasks.push_back(task); });
  if (tasks.empty()) {
    ClusterBarrierOp::create(builder, last.getLoc());
    return;
  }
  for (AsyncTaskOp task : tasks) {
    builder.setInsertionPointToStart(&task.getBody().front());
    ClusterBarrierOp::create(builder, last.getLoc());
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
  }
};

} // namespace
