"""A matmul fed by TMA through a ring of NUM_STAGES shared-memory stages, one mbarrier each.

Stage s holds the A and B tiles of k-step k with k % NUM_STAGES == s. Its mbarrier completes a phase
when both tiles have landed (expect_tx of their bytes); the consumer waits on phase (k // NUM_STAGES) & 1,
reads the tiles into registers, and the stage is refilled with k-step k + NUM_STAGES while the tensor
cores work on step k. The result leaves through shared memory and a TMA store.
"""

import triton
import triton.language as tl

import tlx
from tlx.tutorials.tiles import grouped_tile


@triton.jit
def tma_matmul_kernel(
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
    # Grouped ordering: programs that share A rows and B columns run close together (L2 reuse).
    pid_m, pid_n = grouped_tile(tl.program_id(0), tl.cdiv(M, BLOCK_M), tl.cdiv(N, BLOCK_N), GROUP_M)
    off_m = pid_m * BLOCK_M
    off_n = pid_n * BLOCK_N

    a_tiles = tlx.local_alloc((BLOCK_M, BLOCK_K), tl.float16, NUM_STAGES)
    b_tiles = tlx.local_alloc((BLOCK_K, BLOCK_N), tl.float16, NUM_STAGES)
    full = tlx.alloc_barriers(NUM_STAGES)
    stage_bytes: tl.constexpr = (BLOCK_M * BLOCK_K + BLOCK_K * BLOCK_N) * 2
    k_steps = tl.cdiv(K, BLOCK_K)

    for stage in tl.static_range(NUM_STAGES):
        if stage < k_steps:
            tlx.barrier_expect_bytes(full[stage], stage_bytes)
            tlx.async_descriptor_load(a_desc, a_tiles[stage], [off_m, stage * BLOCK_K], full[stage])
            tlx.async_descriptor_load(b_desc, b_tiles[stage], [stage * BLOCK_K, off_n], full[stage])

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(k_steps):
        s = k % NUM_STAGES
        tlx.barrier_wait(full[s], (k // NUM_STAGES) & 1)
        a = tlx.local_load(a_tiles[s])
        b = tlx.local_load(b_tiles[s])
        # Every warp has read stage s before the TMA engine overwrites it.
        tl.debug_barrier()
        refill = k + NUM_STAGES
        if refill < k_steps:
            tlx.barrier_expect_bytes(full[s], stage_bytes)
            tlx.async_descriptor_load(a_desc, a_tiles[s], [off_m, refill * BLOCK_K], full[s])
            tlx.async_descriptor_load(b_desc, b_tiles[s], [refill * BLOCK_K, off_n], full[s])
        acc = tl.dot(a, b, acc)

    c_tile = tlx.local_alloc((BLOCK_M, BLOCK_N), tl.float16, 1)
    tlx.local_store(c_tile[0], acc.to(tl.float16))
    tlx.fence_async_shared()
    tlx.async_descriptor_store(c_desc, c_tile[0], [off_m, off_n])
    tlx.async_descriptor_store_wait(0)


CONFIG = {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "NUM_STAGES": 3, "GROUP_M": 8}
NUM_WARPS = 8

SPEC = {
    "kernel": tma_matmul_kernel,
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
        "wgmma.mma_async",
        "cp.async.bulk.tensor.2d.global.shared",
    ),
}


def run(a, b):
    """c = a @ b for fp16 CUDA tensors (row-major, K and N multiples of 8)."""
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
    tma_matmul_kernel[grid](a_desc, b_desc, c_desc, m, n, k, num_warps=NUM_WARPS, **cfg)
    return c
