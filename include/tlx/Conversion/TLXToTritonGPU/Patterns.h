//===- Patterns.h - TLX -> TritonGPU conversion patterns --------*- C++ -*-===//
//
// One populate function per op family; `tlx-lower-to-ttg` runs them through
// applyPartialConversion. The patterns expect what the pass checks before the
// conversion (every buffer has its layout, see tlx-assign-layouts; the async
// tasks fit the kernel): they do not emit diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef TLX_CONVERSION_TLXTOTRITONGPU_PATTERNS_H
#define TLX_CONVERSION_TLXTOTRITONGPU_PATTERNS_H

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/StringRef.h"

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace mlir::tlx {

class AsyncTaskOp;

/// local_alloc, local_view, local_trans, local_slice, local_reinterpret,
/// local_load, local_store -> ttg.local_alloc, memdesc views, local_load/store.
void populateBufferOpToTritonGPUPatterns(RewritePatternSet &patterns);

/// Places the buffer sets of every tlx.storage_alias_spec (StorageAlias.h):
/// records each spec's size (bytes, or tensor-memory columns) and each
/// aliasing local_alloc's buffer count in the allocation, rewrites the indices
/// of their local_views to buffer indices of that view, and erases the reuse
/// groups and set_buffer_overlap ops. What cannot be lowered is an error at the
/// op. Runs before the buffer patterns, which rely on it.
LogicalResult prepareStorageAliases(ModuleOp module);

/// alloc_barriers, barrier_expect_bytes, barrier_wait, barrier_arrive,
/// cluster_barrier -> ttg.local_alloc + ttng.init_barrier, ttng barrier ops.
void populateBarrierOpToTritonGPUPatterns(RewritePatternSet &patterns);

/// The module attribute under which `tlx-lower-to-ttg` hands the barrier
/// patterns the kernel's `mbarrier.try_wait` suspend-time hint (ns), while
/// they run: from `tlx.async_tasks(mbarrier_try_wait_suspend_ns=)`.
constexpr llvm::StringLiteral kTryWaitSuspendNsAttr =
    "tlx.mbarrier_try_wait_suspend_ns";

/// async_descriptor_load/store/store_wait/prefetch_tensor, async_store,
/// async_bulk_load, fence_async_shared -> ttng TMA copies and fences, or
/// inline PTX where Triton 3.6 has no op (multicast, two-CTA and cache-hinted
/// TMA, bulk copies).
void populateTMAOpToTritonGPUPatterns(RewritePatternSet &patterns);

/// async_load, async_load_commit_group, async_load_wait_group -> ttg
/// cp.async ops.
void populateCpAsyncOpToTritonGPUPatterns(RewritePatternSet &patterns);

/// The ops reaching another CTA's shared memory: barrier_arrive with a
/// remote rank, remote_shmem_store, async_remote_shmem_store,
/// async_remote_shmem_copy -> mapa and inline PTX on the buffers' addresses.
void populateClusterOpToTritonGPUPatterns(RewritePatternSet &patterns);

/// Cluster launch control: alloc_clc_responses -> a 16-byte aligned
/// ttg.local_alloc; clc_try_cancel, clc_query -> inline PTX
/// (clusterlaunchcontrol) on the response's and the barrier's addresses.
void populateCLCOpToTritonGPUPatterns(RewritePatternSet &patterns);

/// async_dot, async_dot_wait -> ttng.warp_group_dot and its wait.
void populateMMAOpToTritonGPUPatterns(RewritePatternSet &patterns);

/// vote_ballot_sync -> `vote.sync.ballot.b32` as elementwise inline asm; of a
/// tensor, a marker that tlx-lower-warp-ballots lowers once the final register
/// layout says which elements each thread holds.
void populateWarpOpToTritonGPUPatterns(RewritePatternSet &patterns);

/// Compile-time reports (dump_layout, assert_same_layout of buffers): a
/// remark or an error, no code.
void populateDebugOpToTritonGPUPatterns(RewritePatternSet &patterns);

/// require_layout -> ttg.convert_layout to the layout, which the tensors
/// computed elementwise from it take too, and with `pin` a marker that
/// tlx-apply-layout-pins applies again after Triton's layout optimizations;
/// release_layout and assert_same_layout of tensors -> markers. A layout that
/// is not a register layout of the tensor is an error at the op. Runs before
/// the other patterns.
LogicalResult lowerLayoutRequirements(ModuleOp module);

/// async_tasks (with its async_task and async_task_replica_id ops) ->
/// ttg.warp_specialize. Runs once the task bodies hold TritonGPU ops only.
void populateWarpSpecializationToTritonGPUPatterns(RewritePatternSet &patterns);

/// Recomputes at the start of `task` the tensors and constants it uses from
/// above (pure ops only, with the operands they need): a tensor's layout
/// belongs to the warps that hold it, and a constant is cheaper made again
/// than passed. Other values stay captured. A tensor the task cannot
/// recompute is an error at its use, with a note at its definition.
LogicalResult recomputeValuesFromAbove(AsyncTaskOp task);

/// Checks every tlx.async_tasks of `module` against the kernel (warp counts,
/// tensors in tasks, register budgets), with the error at the op to change,
/// recomputes in each task what it uses from above
/// (recomputeValuesFromAbove), and records the kernel's launch register cap
/// (`ttg.maxnreg`) where budgets need one. The warp specialization patterns
/// rely on its success.
LogicalResult planWarpSpecialization(ModuleOp module);

} // namespace mlir::tlx

#endif // TLX_CONVERSION_TLXTOTRITONGPU_PATTERNS_H
