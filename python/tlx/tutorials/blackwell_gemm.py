"""A Blackwell (sm_100) GEMM: TMA into a shared-memory ring, tcgen05 MMA into tensor memory.

**Compile-verified only**: there is no Blackwell GPU here. The kernel compiles on the CPU to an sm_100a
cubin (``compile_tutorial(SPEC, arch=100)``, checked by ``python/test/test_blackwell.py``) and its PTX
shows ``tcgen05.alloc``, ``tcgen05.mma``, ``tcgen05.commit`` and ``tcgen05.ld``; it has not been run.

The pipeline, for one BLOCK_M x BLOCK_N tile of C:

* Shared memory holds NUM_STAGES stages of an A tile (BLOCK_M x BLOCK_K) and a B tile (BLOCK_K x BLOCK_N).
  Stage s has two mbarriers: ``ready[s]`` completes a phase when TMA has landed both tiles (expect_tx of
  their bytes); ``empty[s]`` completes a phase when the tcgen05 MMA that read the stage is done.
* The accumulator lives in tensor memory (``tlx.local_alloc(..., storage=tlx.storage_kind.tmem)``:
  BLOCK_N of the 512 32-bit columns, one row per lane), not in registers: ``tlx.async_dot(a, b, acc,
  use_acc=..., mBarriers=[empty[s]])`` issues ``tcgen05.mma`` and returns at once; the hardware arrives on
  ``empty[s]`` when the MMA completes, which is when the stage may be refilled.
* After the last k-step, ``tlx.tcgen05_commit(done)`` arrives on ``done`` once every MMA issued so far has
  completed; the epilogue waits for it, then tensor memory -> registers (``tcgen05.ld``, in the layout
  tcgen05.ld needs, chosen by the compiler) -> shared memory -> TMA store.

MMAs on one accumulator run in issue order, so the loop never waits for an MMA except to reuse its stage.

``blackwell_ws_gemm_kernel`` (``SPEC_WS``) is the warp-specialized form: a 1-warp TMA producer task, a
1-warp MMA task that issues every tcgen05 MMA and the final commit, and the kernel's warps as the epilogue,
connected only by the mbarriers.
"""

import triton
import triton.language as tl

import tlx
from tlx.tutorials.tiles import grouped_tile


@triton.jit
def blackwell_gemm_kernel(
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
    GROUP_M: tl.constexpr,
):
    pid_m, pid_n = grouped_tile(tl.program_id(0), tl.cdiv(M, BLOCK_M), tl.cdiv(N, BLOCK_N), GROUP_M)
    off_m = pid_m * BLOCK_M
    off_n = pid_n * BLOCK_N

    a_tiles = tlx.local_alloc((BLOCK_M, BLOCK_K), tl.float16, NUM_STAGES)
    b_tiles = tlx.local_alloc((BLOCK_K, BLOCK_N), tl.float16, NUM_STAGES)
    ready = tlx.alloc_barriers(NUM_STAGES)  # TMA -> MMA: the stage's tiles have landed
    empty = tlx.alloc_barriers(NUM_STAGES)  # MMA -> TMA: the MMA that read the stage is done
    done = tlx.alloc_barriers(1)  # every MMA is done: the accumulator is final
    acc = tlx.local_alloc((BLOCK_M, BLOCK_N), tl.float32, 1, storage=tlx.storage_kind.tmem)
    stage_bytes: tl.constexpr = (BLOCK_M * BLOCK_K + BLOCK_K * BLOCK_N) * 2
    k_steps = tl.cdiv(K, BLOCK_K)

    # Prologue: fill every stage.
    for stage in tl.static_range(NUM_STAGES):
        if stage < k_steps:
            tlx.barrier_expect_bytes(ready[stage], stage_bytes)
            tlx.async_descriptor_load(a_desc, a_tiles[stage], [off_m, stage * BLOCK_K], ready[stage])
            tlx.async_descriptor_load(b_desc, b_tiles[stage], [stage * BLOCK_K, off_n], ready[stage])

    for k in range(k_steps):
        s = k % NUM_STAGES
        phase = (k // NUM_STAGES) & 1
        tlx.barrier_wait(ready[s], phase)
        # acc = a @ b (+ acc after the first step), in tensor memory; empty[s] arrives when it is done.
        tlx.async_dot(a_tiles[s], b_tiles[s], acc[0], use_acc=k > 0, mBarriers=[empty[s]])
        refill = k + NUM_STAGES
        if refill < k_steps:
            tlx.barrier_wait(empty[s], phase)  # the MMA has read stage s: refill it
            tlx.barrier_expect_bytes(ready[s], stage_bytes)
            tlx.async_descriptor_load(a_desc, a_tiles[s], [off_m, refill * BLOCK_K], ready[s])
            tlx.async_descriptor_load(b_desc, b_tiles[s], [refill * BLOCK_K, off_n], ready[s])

    # Epilogue: wait for every MMA, then tensor memory -> registers -> shared memory -> TMA store.
    tlx.tcgen05_commit(done[0])
    tlx.barrier_wait(done[0], 0)
    result = tlx.local_load(acc[0])
    c_tile = tlx.local_alloc((BLOCK_M, BLOCK_N), tl.float16, 1)
    tlx.local_store(c_tile[0], result.to(tl.float16))
    tlx.fence_async_shared()
    tlx.async_descriptor_store(c_desc, c_tile[0], [off_m, off_n])
    tlx.async_descriptor_store_wait(0)


@triton.jit
def blackwell_ws_gemm_kernel(
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
    GROUP_M: tl.constexpr,
):
    """The same tile, warp-specialized: a 1-warp TMA producer, a 1-warp MMA issuer, and the kernel's own
    warps (the default task) as the epilogue. Only mbarriers connect them."""
    pid_m, pid_n = grouped_tile(tl.program_id(0), tl.cdiv(M, BLOCK_M), tl.cdiv(N, BLOCK_N), GROUP_M)
    off_m = pid_m * BLOCK_M
    off_n = pid_n * BLOCK_N

    a_tiles = tlx.local_alloc((BLOCK_M, BLOCK_K), tl.float16, NUM_STAGES)
    b_tiles = tlx.local_alloc((BLOCK_K, BLOCK_N), tl.float16, NUM_STAGES)
    c_tile = tlx.local_alloc((BLOCK_M, BLOCK_N), tl.float16, 1)
    ready = tlx.alloc_barriers(NUM_STAGES)  # producer -> MMA: the stage's tiles have landed
    empty = tlx.alloc_barriers(NUM_STAGES)  # MMA -> producer: the MMA that read the stage is done
    done = tlx.alloc_barriers(1)  # MMA -> epilogue: the accumulator is final
    acc = tlx.local_alloc((BLOCK_M, BLOCK_N), tl.float32, 1, storage=tlx.storage_kind.tmem)
    stage_bytes: tl.constexpr = (BLOCK_M * BLOCK_K + BLOCK_K * BLOCK_N) * 2
    k_steps = tl.cdiv(K, BLOCK_K)

    with tlx.async_tasks():
        with tlx.async_task("default"):  # epilogue: tensor memory -> registers -> shared -> TMA store
            tlx.barrier_wait(done[0], 0)
            result = tlx.local_load(acc[0])
            tlx.local_store(c_tile[0], result.to(tl.float16))
            tlx.fence_async_shared()
            tlx.async_descriptor_store(c_desc, c_tile[0], [off_m, off_n])
            tlx.async_descriptor_store_wait(0)
        with tlx.async_task(num_warps=1):  # TMA producer
            for k in range(k_steps):
                s = k % NUM_STAGES
                # A stage is free once the MMA of k - NUM_STAGES completed (the first round starts free).
                tlx.barrier_wait(empty[s], ((k // NUM_STAGES) & 1) ^ 1)
                tlx.barrier_expect_bytes(ready[s], stage_bytes)
                tlx.async_descriptor_load(a_desc, a_tiles[s], [off_m, k * BLOCK_K], ready[s])
                tlx.async_descriptor_load(b_desc, b_tiles[s], [k * BLOCK_K, off_n], ready[s])
        with tlx.async_task(num_warps=1):  # MMA issuer
            for k in range(k_steps):
                s = k % NUM_STAGES
                tlx.barrier_wait(ready[s], (k // NUM_STAGES) & 1)
                tlx.async_dot(a_tiles[s], b_tiles[s], acc[0], use_acc=k > 0, mBarriers=[empty[s]])
            tlx.tcgen05_commit(done[0])


CONFIG = {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "NUM_STAGES": 3, "GROUP_M": 8}
NUM_WARPS = 4

SPEC = {
    "kernel": blackwell_gemm_kernel,
    "signature": {
        "a_desc": "tensordesc<fp16[128, 64]>",
        "b_desc": "tensordesc<fp16[64, 128]>",
        "c_desc": "tensordesc<fp16[128, 128]>",
        "M": "i32",
        "N": "i32",
        "K": "i32",
        "BLOCK_M": "constexpr",
        "BLOCK_N": "constexpr",
        "BLOCK_K": "constexpr",
        "NUM_STAGES": "constexpr",
        "GROUP_M": "constexpr",
    },
    "constexprs": CONFIG,
    "num_warps": NUM_WARPS,
    "ptx": (
        "cp.async.bulk.tensor.2d.shared::cluster.global",
        "mbarrier.try_wait",
        "mbarrier.arrive.expect_tx",
        "tcgen05.alloc",
        "tcgen05.mma.cta_group::1.kind::f16",
        "tcgen05.commit.cta_group::1.mbarrier::arrive::one",
        "tcgen05.ld.sync.aligned.32x32b",
        "cp.async.bulk.tensor.2d.global.shared",
    ),
}


SPEC_WS = dict(SPEC, kernel=blackwell_ws_gemm_kernel)


def run(a, b):
    """c = a @ b for fp16 CUDA tensors on a Blackwell GPU (row-major, K and N multiples of 8). Untested."""
    import torch
    from triton.tools.tensor_descriptor import TensorDescriptor

    m, k = a.shape
    _, n = b.shape
    c = torch.full((m, n), float("nan"), device=a.device, dtype=torch.float16)
    cfg = CONFIG
    a_desc = TensorDescriptor.from_tensor(a, [cfg["BLOCK_M"], cfg["BLOCK_K"]])
    b_desc = TensorDescriptor.from_tensor(b, [cfg["BLOCK_K"], cfg["BLOCK_N"]])
    c_desc = TensorDescriptor.from_tensor(c, [cfg["BLOCK_M"], cfg["BLOCK_N"]])
    grid = (triton.cdiv(m, cfg["BLOCK_M"]) * triton.cdiv(n, cfg["BLOCK_N"]),)
    blackwell_gemm_kernel[grid](a_desc, b_desc, c_desc, m, n, k, num_warps=NUM_WARPS, **cfg)
    return c
