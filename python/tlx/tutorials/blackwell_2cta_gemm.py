"""A Blackwell (sm_100) 2-CTA GEMM: one ``tcgen05.mma.cta_group::2`` per k-step for a pair of CTAs.

**Compile-verified only**: there is no Blackwell GPU here. The kernel compiles on the CPU to an sm_100a
cubin (``compile_tutorial(SPEC, arch=100)``, checked by ``python/test/test_blackwell_kernels.py``) and its
PTX shows ``tcgen05.mma.cta_group::2``, ``tcgen05.commit.cta_group::2`` and the ``%cluster_ctarank`` that
predicates the issue; it has not been run.

The launch is a cluster of two CTAs along x (``ctas_per_cga=(2, 1, 1)``). The pair computes one
``2 * BLOCK_M x BLOCK_N`` tile of C: CTA ``rank`` owns rows ``rank * BLOCK_M ..`` of it. One
``cta_group::2`` MMA multiplies the pair's ``2 * BLOCK_M x BLOCK_K`` A by a ``BLOCK_K x BLOCK_N`` B; each
CTA holds only its own ``BLOCK_M`` rows of A and **half** of B (``BLOCK_N / 2`` columns) in its shared
memory, and its ``BLOCK_M x BLOCK_N`` slice of the accumulator in its tensor memory. The even CTA issues
the MMA for both (``tlx.async_dot(..., two_ctas=True)``: the compiler predicates the issue on
``%cluster_ctarank`` being even); the hardware reads the odd CTA's A and B halves from its shared memory
and writes its accumulator rows into its tensor memory. B is read from L2 once per pair instead of once
per CTA, and each CTA's B stage is half as big, which buys pipeline depth.

The protocol, per shared-memory stage ``s`` (NUM_STAGES of them), and what guarantees each step:

1. ``fence_mbarrier_init_cluster()`` then ``cluster_barrier()`` at the start: the peer's mbarriers are
   initialized and that is visible cluster-wide before anyone arrives on them remotely (step 3) or the
   MMA's multicast commit reaches them (step 5).
2. ``ready[s]`` (each CTA's own, one arrival + TMA bytes): this CTA's A tile and B half have landed in
   its shared memory. Each CTA waits on its own ``ready[s]`` only, so it knows only about its own copy.
3. ``pair_ready[s]`` (the even CTA's copy counts; two arrivals): after its wait in step 2, **each** CTA
   arrives on the even CTA's ``pair_ready[s]`` (``barrier_arrive(..., remote_cta_rank=rank & ~1)``, a
   release at cluster scope). The even CTA waits on it (``pred=`` the even rank; the odd CTA's copy is
   never used) and so knows that both CTAs' halves are in shared memory before it issues the MMA that
   reads them: the odd CTA's TMA completion is ordered before its arrival, which the even CTA's wait
   acquires.
4. The MMA's completion arrives on ``empty[s]`` of **both** CTAs (with ``two_ctas`` the MMA's mbarriers
   are signalled by a multicast commit to the pair). A CTA refills stage ``s`` only after its ``empty[s]``
   completes, i.e. after the pair's MMA has finished reading both CTAs' copies of the stage. Because a
   CTA can refill ``s`` (and so arrive on ``pair_ready[s]`` again) only after that MMA was issued, which
   needed ``pair_ready[s]`` to complete, the arrivals of one phase never run into the next.
5. After the last k-step ``tcgen05_commit(done, two_ctas=True)`` (issued by the even CTA, multicast to
   both CTAs' ``done``) completes once every MMA of the pair has completed: each CTA then reads its own
   accumulator rows (``tcgen05.ld``) and stores them with TMA.
6. A final ``cluster_barrier()``: neither CTA leaves (and releases its tensor memory, which
   ``cta_group::2`` allocates for the pair) while the other still runs.

MMAs into one accumulator complete in issue order, so as in ``blackwell_gemm`` the loop waits for an
MMA only to reuse its stage.

What the compiler changes: stock Triton 3.6 lowers every ``cta_group::2`` MMA after a full cluster barrier
(``barrier.cluster.arrive/wait.aligned``, every thread of both CTAs): a cluster-wide sync per k-step, and a
deadlock in a 1-warp MMA task, whose kernel's other warps never reach it. TLX drops that barrier
(``tlx.compiler.llir``; ``python/test/test_blackwell_idiom.py`` checks a plain and a warp-specialized 2-CTA
kernel), so step 3 alone orders the peer's TMA before the MMA.
"""

import triton
import triton.language as tl

import tlx


@triton.jit
def blackwell_2cta_gemm_kernel(
    a_desc,
    b_desc,
    c_desc,
    M,
    N,
    K,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    NUM_STAGES: tl.constexpr,
):
    HALF_N: tl.constexpr = BLOCK_N // 2
    rank = tlx.cluster_cta_rank()
    is_even = rank % 2 == 0
    # CTA pairs are consecutive program ids: a pair shares an N tile and takes adjacent M tiles.
    pair = tl.program_id(0) // 2
    num_pairs_m = tl.cdiv(tl.cdiv(M, BLOCK_M), 2)
    off_m = ((pair % num_pairs_m) * 2 + rank % 2) * BLOCK_M
    off_n = (pair // num_pairs_m) * BLOCK_N
    off_bn = off_n + (rank % 2) * HALF_N  # this CTA's half of the pair's B columns

    a_tiles = tlx.local_alloc((BLOCK_M, BLOCK_K), tl.float16, NUM_STAGES)
    b_tiles = tlx.local_alloc((BLOCK_K, HALF_N), tl.float16, NUM_STAGES)
    ready = tlx.alloc_barriers(NUM_STAGES)  # own TMA -> own CTA: this CTA's halves have landed
    pair_ready = tlx.alloc_barriers(NUM_STAGES, arrive_count=2)  # both CTAs -> even CTA: both have landed
    empty = tlx.alloc_barriers(NUM_STAGES)  # the pair's MMA -> both CTAs: the stage was read
    done = tlx.alloc_barriers(1)  # the pair's last MMA -> both CTAs: the accumulators are final
    acc = tlx.local_alloc((BLOCK_M, BLOCK_N), tl.float32, 1, storage=tlx.storage_kind.tmem)
    stage_bytes: tl.constexpr = (BLOCK_M * BLOCK_K + BLOCK_K * HALF_N) * 2
    k_steps = tl.cdiv(K, BLOCK_K)

    # The peer arrives on our mbarriers (pair_ready remotely, empty/done through the multicast commit):
    # they must be initialized, cluster-wide, first.
    tlx.fence_mbarrier_init_cluster()
    tlx.cluster_barrier()

    for stage in tl.static_range(NUM_STAGES):
        if stage < k_steps:
            tlx.barrier_expect_bytes(ready[stage], stage_bytes)
            tlx.async_descriptor_load(a_desc, a_tiles[stage], [off_m, stage * BLOCK_K], ready[stage])
            tlx.async_descriptor_load(b_desc, b_tiles[stage], [stage * BLOCK_K, off_bn], ready[stage])

    for k in range(k_steps):
        s = k % NUM_STAGES
        phase = (k // NUM_STAGES) & 1
        tlx.barrier_wait(ready[s], phase)
        # Tell the even CTA that our halves of stage s are in shared memory; it issues only once both are.
        tlx.barrier_arrive(pair_ready[s], 1, remote_cta_rank=rank & ~1)
        tlx.barrier_wait(pair_ready[s], phase, pred=is_even)
        # The pair's (2 * BLOCK_M) x BLOCK_N += A x B; issued by the even CTA, empty[s] of both CTAs arrive.
        tlx.async_dot(a_tiles[s], b_tiles[s], acc[0], use_acc=k > 0, mBarriers=[empty[s]], two_ctas=True)
        refill = k + NUM_STAGES
        if refill < k_steps:
            tlx.barrier_wait(empty[s], phase)  # the pair's MMA has read both copies of stage s
            tlx.barrier_expect_bytes(ready[s], stage_bytes)
            tlx.async_descriptor_load(a_desc, a_tiles[s], [off_m, refill * BLOCK_K], ready[s])
            tlx.async_descriptor_load(b_desc, b_tiles[s], [refill * BLOCK_K, off_bn], ready[s])

    tlx.tcgen05_commit(done[0], two_ctas=True)
    tlx.barrier_wait(done[0], 0)
    result = tlx.local_load(acc[0])
    c_tile = tlx.local_alloc((BLOCK_M, BLOCK_N), tl.float16, 1)
    tlx.local_store(c_tile[0], result.to(tl.float16))
    tlx.fence_async_shared()
    tlx.async_descriptor_store(c_desc, c_tile[0], [off_m, off_n])
    tlx.async_descriptor_store_wait(0)
    # The pair's tensor memory is one allocation: neither CTA releases it while the other still runs.
    tlx.cluster_barrier()


CONFIG = {"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 64, "NUM_STAGES": 4}
NUM_WARPS = 4
CLUSTER = (2, 1, 1)

SPEC = {
    "kernel": blackwell_2cta_gemm_kernel,
    "signature": {
        "a_desc": f"tensordesc<fp16[{CONFIG['BLOCK_M']}, {CONFIG['BLOCK_K']}]>",
        "b_desc": f"tensordesc<fp16[{CONFIG['BLOCK_K']}, {CONFIG['BLOCK_N'] // 2}]>",
        "c_desc": f"tensordesc<fp16[{CONFIG['BLOCK_M']}, {CONFIG['BLOCK_N']}]>",
        "M": "i32",
        "N": "i32",
        "K": "i32",
        "BLOCK_M": "constexpr",
        "BLOCK_N": "constexpr",
        "BLOCK_K": "constexpr",
        "NUM_STAGES": "constexpr",
    },
    "constexprs": CONFIG,
    "num_warps": NUM_WARPS,
    "options": {"ctas_per_cga": CLUSTER},
    "ptx": (
        "cp.async.bulk.tensor.2d.shared::cluster.global",
        "mbarrier.arrive.expect_tx",
        "fence.mbarrier_init.release.cluster",
        "barrier.cluster.arrive",
        "mapa.shared::cluster",
        "%cluster_ctarank",
        "tcgen05.alloc.cta_group::2",
        "tcgen05.mma.cta_group::2.kind::f16",
        "tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64",
        "tcgen05.ld.sync.aligned.32x32b",
        "cp.async.bulk.tensor.2d.global.shared",
    ),
}


def run(a, b):
    """c = a @ b for fp16 CUDA tensors on a Blackwell GPU (row-major, K and N multiples of 8). Untested."""
    import torch
    from triton.tools.tensor_descriptor import TensorDescriptor

    m, k = a.shape
    _, n = b.shape
    c = torch.full((m, n), float("nan"), device=a.device, dtype=torch.float16)
    cfg = CONFIG
    a_desc = TensorDescriptor.from_tensor(a, [cfg["BLOCK_M"], cfg["BLOCK_K"]])
    b_desc = TensorDescriptor.from_tensor(b, [cfg["BLOCK_K"], cfg["BLOCK_N"] // 2])
    c_desc = TensorDescriptor.from_tensor(c, [cfg["BLOCK_M"], cfg["BLOCK_N"]])
    # Two CTAs per pair, a pair per (2 * BLOCK_M) x BLOCK_N tile; the grid counts CTAs.
    pairs = triton.cdiv(triton.cdiv(m, cfg["BLOCK_M"]), 2) * triton.cdiv(n, cfg["BLOCK_N"])
    blackwell_2cta_gemm_kernel[(2 * pairs,)](
        a_desc, b_desc, c_desc, m, n, k, num_warps=NUM_WARPS, ctas_per_cga=CLUSTER, **cfg
    )
    return c
