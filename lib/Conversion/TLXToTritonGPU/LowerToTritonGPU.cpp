//===- LowerToTritonGPU.cpp - the tlx-lower-to-ttg pass -------------------===//
//
// Drives the conversion patterns of Patterns.h in two phases: every TLX op
// but the async tasks first, then the async tasks, whose bodies by then hold
// TritonGPU values only. What could make a pattern fail is checked before
// its phase, with the error at the op to change.
//
//===----------------------------------------------------------------------===//

#include "tlx/Conversion/TLXToTritonGPU/Layouts.h"
#include "tlx/Conversion/TLXToTritonGPU/Passes.h"
#include "tlx/Conversion/TLXToTritonGPU/Patterns.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tlx {
#define GEN_PASS_DEF_TLXLOWERTOTRITONGPU
#include "tlx/Conversion/TLXToTritonGPU/Passes.h.inc"
} // namespace mlir::tlx

using namespace mlir;
using namespace mlir::tlx;

namespace {

/// Buffers, mbarriers and CLC responses become memory descriptors where TLX
/// ops define and use them; a TLX value anywhere else would keep its TLX
/// type.
LogicalResult verifyTLXValuesStayInTLXOps(ModuleOp module) {
  WalkResult result = module.walk<WalkOrder::PreOrder>([](Operation *op) {
    bool isTLXOp = isa<TLXDialect>(op->getDialect());
    for (Value operand : op->getOperands()) {
      Type type = operand.getType();
      if (!isa<TLXDialect>(type.getDialect()))
        continue;
      if (!isTLXOp) {
        op->emitOpError("cannot take ")
            << type << ": TLX buffers and mbarriers can only be used by TLX "
            << "ops (select one buffer with tlx.local_view rather than "
            << "passing sets through other ops)";
        return WalkResult::interrupt();
      }
      Operation *def = operand.getDefiningOp();
      if (!def || !isa<TLXDialect>(def->getDialect())) {
        op->emitOpError("takes ")
            << type << " from a block argument or a non-TLX op; the lowering "
            << "needs the tlx.local_alloc or tlx.alloc_barriers it comes from";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// The layout tlx-assign-layouts gave a local_alloc, a shared or a tensor
/// memory one: the lowering chooses none itself.
FailureOr<Attribute> getAssignedLayout(LocalAllocOp alloc) {
  BuffersType type = alloc.getType();
  if (type.getStorage() == StorageKind::smemCluster)
    return alloc.emitOpError("lowering of ")
           << stringifyStorageKind(type.getStorage())
           << " buffers is not implemented yet; use storage smem";
  Attribute layout = alloc.getLayoutAttr();
  if (!layout)
    return alloc.emitOpError("has no layout; run tlx-assign-layouts before "
                             "tlx-lower-to-ttg");
  if (type.getStorage() == StorageKind::tmem)
    return getTensorMemoryLayout(alloc);
  if (failed(verifyBufferLayout(alloc, layout)))
    return failure();
  return layout;
}

/// A TMA descriptor must already carry its buffer's layout.
LogicalResult verifyDescriptorLayout(Operation *user, Value desc,
                                     Attribute layout) {
  auto type = dyn_cast<triton::TensorDescType>(desc.getType());
  Attribute current = type ? type.getBlockType().getEncoding() : Attribute();
  if (current &&
      current == getDescriptorLayout(layout, type.getBlockType().getRank()))
    return success();
  return user->emitOpError("the descriptor's block layout is not the layout ")
         << layout << " of its buffer; run tlx-assign-layouts before "
         << "tlx-lower-to-ttg";
}

/// Every TLX op needs a pattern of this pass: ops that become NVVM are
/// lowered before, by tlx-lower-to-nvvm.
LogicalResult verifyEveryOpHasPattern(ModuleOp module,
                                      const DenseSet<OperationName> &lowered) {
  WalkResult result = module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!isa<TLXDialect>(op->getDialect()) || lowered.contains(op->getName()))
      return WalkResult::advance();
    op->emitOpError("has no lowering to TritonGPU yet (ops that become NVVM "
                    "are lowered by tlx-lower-to-nvvm, which runs first)");
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

/// The suspend-time hint the kernel's waits poll with: the smallest of its
/// task sets' `mbarrier_try_wait_suspend_ns`, on sm_100 and newer only (the
/// public TLX compiler's rule; 0 is no hint).
std::optional<int64_t> getTryWaitSuspendNs(ModuleOp module) {
  std::optional<int64_t> hint;
  module.walk([&](AsyncTasksOp tasks) {
    if (std::optional<uint32_t> ns = tasks.getMbarrierTryWaitSuspendNs())
      if (!hint || *ns < *hint)
        hint = *ns;
  });
  std::optional<int64_t> capability = getTargetCapability(module);
  if (!hint || *hint == 0 || !capability || *capability < 100)
    return std::nullopt;
  return hint;
}

/// The roots of `patterns`, added to `roots`.
void collectRoots(RewritePatternSet &patterns, DenseSet<OperationName> &roots) {
  for (const std::unique_ptr<RewritePattern> &pattern :
       patterns.getNativePatterns())
    if (std::optional<OperationName> root = pattern->getRootKind())
      roots.insert(*root);
}

struct LowerToTritonGPUPass
    : tlx::impl::TLXLowerToTritonGPUBase<LowerToTritonGPUPass> {
  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet opPatterns(context);
    populateBufferOpToTritonGPUPatterns(opPatterns);
    populateBarrierOpToTritonGPUPatterns(opPatterns);
    populateTMAOpToTritonGPUPatterns(opPatterns);
    populateCpAsyncOpToTritonGPUPatterns(opPatterns);
    populateMMAOpToTritonGPUPatterns(opPatterns);
    populateClusterOpToTritonGPUPatterns(opPatterns);
    populateCLCOpToTritonGPUPatterns(opPatterns);
    populateDebugOpToTritonGPUPatterns(opPatterns);
    populateWarpOpToTritonGPUPatterns(opPatterns);
    RewritePatternSet taskPatterns(context);
    populateWarpSpecializationToTritonGPUPatterns(taskPatterns);
    collectRoots(opPatterns, loweredOps);
    collectRoots(taskPatterns, loweredOps);
    // The tasks pattern lowers these with their tlx.async_tasks.
    loweredOps.insert(OperationName(AsyncTaskOp::getOperationName(), context));
    loweredOps.insert(
        OperationName(AsyncTaskReplicaIdOp::getOperationName(), context));
    frozenOpPatterns = FrozenRewritePatternSet(std::move(opPatterns));
    frozenTaskPatterns = FrozenRewritePatternSet(std::move(taskPatterns));
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(verifyTLXValuesStayInTLXOps(module)) ||
        failed(propagateBufferLayouts(module, getAssignedLayout,
                                      verifyDescriptorLayout)) ||
        failed(prepareStorageAliases(module)) ||
        failed(lowerLayoutRequirements(module)) ||
        failed(verifyEveryOpHasPattern(module, loweredOps)))
      return signalPassFailure();
    // The waits are lowered with the ops, before their tasks are.
    if (std::optional<int64_t> hint = getTryWaitSuspendNs(module))
      module->setAttr(
          kTryWaitSuspendNsAttr,
          IntegerAttr::get(IntegerType::get(&getContext(), 32), *hint));
    LogicalResult converted =
        convert(frozenOpPatterns, /*keepAsyncTasks=*/true);
    module->removeAttr(kTryWaitSuspendNsAttr);
    if (failed(converted) || failed(planWarpSpecialization(module)) ||
        failed(convert(frozenTaskPatterns, /*keepAsyncTasks=*/false)))
      signalPassFailure();
  }

private:
  /// Converts every TLX op; with `keepAsyncTasks`, all but the async tasks
  /// and the ops only they lower.
  LogicalResult convert(const FrozenRewritePatternSet &patterns,
                        bool keepAsyncTasks) {
    // Everything but TLX is legal: the patterns create ttg, ttng and arith
    // ops, and the partitions of a warp_specialize clone any op.
    ConversionTarget target(getContext());
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    target.addIllegalDialect<TLXDialect>();
    if (keepAsyncTasks)
      target.addLegalOp<AsyncTasksOp, AsyncTaskOp, AsyncTaskReplicaIdOp>();
    return applyPartialConversion(getOperation(), target, patterns);
  }

  DenseSet<OperationName> loweredOps;
  FrozenRewritePatternSet frozenOpPatterns;
  FrozenRewritePatternSet frozenTaskPatterns;
};

} // namespace
