//===- Passes.td - TLX dialect passes ----------------------*- tablegen -*-===//

#ifndef TLX_TRANSFORMS_PASSES_TD
#define TLX_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TLXCheckStaticBounds : Pass<"tlx-check-static-bounds"> {
  let summary = "Reject constant buffer indices and mbarrier phases that "
                "cannot be valid";
  let description = [{
    A kernel that selects buffer 3 of three, or waits on mbarrier phase 2,
    reads or waits on memory it does not own; on the GPU that is a silent
    corruption or a hang. When the index or phase is a compile-time constant
    this pass reports it at the operation's location (the user's Python line
    once TLX kernels carry locations), naming the value and the valid range.
  }];
  let dependentDialects = ["::mlir::tlx::TLXDialect"];
}

def TLXCheckDivergentSync : Pass<"tlx-check-divergent-sync"> {
  let summary = "Report task-wide operations under branches on the thread id";
  let description = [{
    `tlx.thread_id` is the only value of a TLX kernel that differs between
    the threads of a task. Code under an `scf.if` (or a loop) whose condition
    or bounds depend on it runs on some threads only. Ops marked
    `TLX_WarpGroupAligned` in TLXOps.td (`wgmma` and its wait, `tcgen05`, the
    cluster barrier, register reallocation: `.sync.aligned`), and `tt.dot`,
    need every thread of their warp group: errors there. Ops marked
    `TLX_TaskSynchronized` (shared memory, mbarriers, TMA) may get a task-wide
    `bar.sync` from Triton's membar, which the threads that skip the branch
    never reach, and the kernel hangs: a warning, naming `pred=` where the
    op's contract has that operand. Reported at the op, with a note at the
    branch.
  }];
  let dependentDialects = ["::mlir::tlx::TLXDialect"];
}

def TLXCheckClusters : Pass<"tlx-check-clusters", "::mlir::ModuleOp"> {
  let summary = "Check the ops that reach other CTAs against the kernel's "
                "cluster";
  let description = [{
    The cluster shape is a launch option (`ctas_per_cga`), which the TLX
    compiler writes on the module as `ttg.cluster-dim-x/y/z` (absent: no
    cluster). This pass reports, at the op:

    * an op that reaches another CTA's shared memory (a remote arrive, a
      multicast TMA load, a remote store or copy) in a kernel compiled
      without a cluster: on the GPU it would address a CTA that is not there;
    * a constant CTA rank (remote rank, multicast target) outside the
      cluster;
    * a `tlx.cluster_barrier` outside the async tasks of a kernel that has
      tasks besides the default one: only the default task's warps run code
      outside the tasks, and a cluster barrier waits for every thread of the
      cluster, so it would never complete.
  }];
  let dependentDialects = ["::mlir::tlx::TLXDialect"];
}

def TLXCheckProtocol : Pass<"tlx-check-protocol"> {
  let summary = "Reject asynchronous-protocol mistakes that hang or race";
  let description = [{
    Each rule reports only what the IR makes certain, at the op (the user's
    Python line):

    * a `tlx.barrier_wait` on an mbarrier that nothing in the kernel arrives
      on (no `barrier_arrive`, no `barrier_expect_bytes`): a certain hang,
      unless its parity is a constant 1 (the phase before the first counts
      as complete: such a wait returns at once);
    * a `tlx.barrier_arrive` counting more arrivals than the mbarrier was
      initialized for: its phase completes early;
    * a TMA load completing on an mbarrier that no `barrier_expect_bytes`
      arms;
    * a read of a `tlx.async_dot` result (followed through later dots, loop
      iterations and branches) before `tlx.async_dot_wait` retires it;
    * in straight-line code: a TMA load, cp.async or `local_store` into a
      buffer an unfinished async dot still reads; a read of a cp.async
      destination before `tlx.async_load_wait_group` covers its group (a TMA
      store of register-written shared memory gets its proxy fence from
      `tlx-insert-proxy-fences`);
    * named barrier 0 inside warp-specialized tasks (it is `bar.sync 0`, the
      compiler's own CTA-wide barrier);
    * phases through loops (PhaseParity.cpp): the kernel is replayed on
      concrete iteration numbers (every task, loops nested, index arithmetic
      evaluated, iteration arguments carried) and a task whose waits on an
      mbarrier are one-to-one with its completions must flip their parity
      each time (`(k // NUM_STAGES) & 1`, `phase ^= 1` when the stage wraps).
      An error when every trip count is static; a warning when the replay
      had to assume trip counts (or a program id starting a persistent
      loop). A barrier used by an op the replay does not model, or armed
      where it cannot tell, is not judged.
  }];
  let dependentDialects = ["::mlir::tlx::TLXDialect", "::mlir::scf::SCFDialect"];
}

def TLXCheckAsyncHazards : Pass<"tlx-check-async-hazards"> {
  let summary = "Reject mbarrier byte counts and buffer accesses that race "
                "with TMA";
  let description = [{
    Two mistakes that hang or corrupt on the GPU, caught at compile time
    where the code makes them visible (one block, straight-line):

    * `tlx.barrier_expect_bytes(bar, N)` followed by TMA loads completing on
      `bar` whose blocks add up to a different number of bytes: the phase
      never completes (hang) or completes early (reads of torn data).
    * `tlx.local_load` / `tlx.local_store` of a buffer that a TMA load is
      still filling: no `tlx.barrier_wait` on that load's barrier in between.
  }];
  let dependentDialects = ["::mlir::tlx::TLXDialect"];
}

def TLXCheckSharedMemory : Pass<"tlx-check-shared-memory", "::mlir::ModuleOp"> {
  let summary = "Reject kernels whose TLX buffers and mbarriers exceed the "
                "target's shared memory";
  let description = [{
    Sums the shared memory of every `tlx.local_alloc` (shared storage) and
    `tlx.alloc_barriers` (8 bytes an mbarrier) of the module and compares it
    with what one CTA may use on the module's `ttg.target` (227 KB on sm_90
    and sm_100, 163 KB on sm_80, 99 KB on sm_86/89/120). Over the limit, the
    error names the allocation that crosses it and lists every allocation
    with its size, at the user's lines. Modules without a known target are
    not checked. Triton's own passes may add scratch on top. A
    `tlx.storage_alias_spec` that no buffer set is allocated in is a warning
    at its line (on any target).
  }];
  let dependentDialects = ["::mlir::tlx::TLXDialect"];
}

def TLXInsertProxyFences : Pass<"tlx-insert-proxy-fences"> {
  let summary = "Order register writes to shared memory before the TMA "
                "stores that read them";
  let description = [{
    A TMA store (`tlx.async_descriptor_store`, `tlx.async_store`) reads
    shared memory through the async proxy; writes by threads
    (`tlx.local_store`) are in the generic proxy and need
    `fence.proxy.async.shared::cta` in between. Kernels written for the
    public TLX API leave that fence to the compiler, so this pass puts a
    `tlx.fence_async_shared` before each such store unless one already
    stands between the store and every register write that may reach the
    buffer in the same block (walking back from the store; a write in an
    enclosing or earlier region, or across loop iterations, gets the fence).
  }];
  let dependentDialects = ["::mlir::tlx::TLXDialect"];
}

def TLXInsertClusterBarrierInit : Pass<"tlx-insert-cluster-barrier-init",
                                       "::mlir::ModuleOp"> {
  let summary = "Make mbarrier initialization visible to the cluster before "
                "another CTA may arrive";
  let description = [{
    In a cluster kernel whose mbarriers other CTAs complete (a remote
    `barrier_arrive`, a remote shared-memory store or copy, a multicast TMA
    load), a peer may arrive before this CTA has initialized its barriers.
    Kernels written for the public TLX API leave the remedy to the compiler;
    where the kernel has no `tlx.fence_mbarrier_init_cluster` of its own,
    this pass adds it after the last `tlx.alloc_barriers` of the function's
    entry block, and a `tlx.cluster_barrier` after it, or at the start of
    every async task in a warp-specialized kernel (a cluster barrier
    outside the tasks would wait for warps that never reach it).
    cta_group::2 tcgen05 MMAs and commits count as remote completions (the
    commit arrives on the peer's mbarriers, the MMA writes the peer's tensor
    memory): the cluster barrier also orders the peer's tensor-memory
    allocation before the first MMA, which is what stock Triton's cluster
    barrier before every two-CTA MMA did; TLX drops that one. Such a kernel
    without mbarriers still gets the cluster barrier, at the start.

    A cluster barrier completes once every thread of the cluster arrived,
    and Triton pads tasks of fewer warps than whole warp groups with idle
    warps: where every task passes the same, known number of cluster
    barriers (all directly in its body; the kernel's own ones and the one
    above), the idle warps get tasks of their own that pass as many.
  }];
  let dependentDialects = ["::mlir::tlx::TLXDialect"];
}

def TLXRaiseCarriers : Pass<"tlx-raise-carriers", "::mlir::ModuleOp"> {
  let summary = "Turn the carriers of tlx.* ops into TLX dialect ops";
  let description = [{
    TLX operations cross stock Triton's TTIR passes and its TTIR -> TTGIR
    conversion as carriers (docs/carriers.md): calls to private `tlx.*`
    functions and `tt.elementwise_inline_asm "tlx.<op>"`, with `i64` handles
    for buffers and mbarriers. This pass replaces each carrier by its TLX op,
    the handles by typed TLX values, and removes the carrier functions.
    Malformed carriers and handles that cross control flow are reported at
    the carrier's location (the user's Python line).
  }];
  let dependentDialects = ["::mlir::tlx::TLXDialect"];
}

#endif // TLX_TRANSFORMS_PASSES_TD
