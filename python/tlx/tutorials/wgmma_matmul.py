"""The Hopper matmul pipeline: TMA fills a ring of shared-memory stages, wgmma reads them in place.

Per k-step: wait for the stage's mbarrier, issue `wgmma.mma_async` on the two shared tiles
(`tlx.async_dot`), then `wgmma.wait_group 1` (`tlx.async_dot_wait(1, ...)`): the dot just issued keeps
running while the previous one is known complete, so the stage *it* read is refilled by TMA at once.
The tensor cores never wait for registers or for a copy through registers; TMA runs NUM_STAGES - 1
steps ahead.
"""

import triton
import triton.language as tl

import tlx
from tlx.tutorials.tiles import grouped_tile


@triton.jit
def wgmma_matmul_kernel(
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
        acc = tlx.async_dot(a_tiles[s], b_tiles[s], acc)
        # The dot of step k - 1 is done: its stage takes k-step k - 1 + NUM_STAGES.
        acc = tlx.async_dot_wait(1, acc)
        refill = k - 1 + NUM_STAGES
        if (k > 0) & (refill < k_steps):
            ps = (k - 1) % NUM_STAGES
            tlx.barrier_expect_bytes(full[ps], stage_bytes)
            tlx.async_descriptor_load(a_desc, a_tiles[ps], [off_m, refill * BLOCK_K], full[ps])
            tlx.async_descriptor_load(b_desc, b_tiles[ps], [refill * BLOCK_K, off_n], full[ps])
    acc = tlx.async_dot_wait(0, acc)

    c_tile = tlx.local_alloc((BLOCK_M, BLOCK_N), tl.float16, 1)
    tlx.local_store(c_tile[0], acc.to(tl.float16))
    tlx.fence_async_shared()
    tlx.async_descriptor_store(c_desc, c_tile[0], [off_m, off_n])
    tlx.async_descriptor_store_wait(0)


CONFIG = {"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 64, "NUM_STAGES": 3, "GROUP_M": 8}
NUM_WARPS = 8

SPEC = {
    "kernel": wgmma_matmul_kernel,
    "signature": {
        "a_desc": "tensordesc<fp16[128, 64]>",
        "b_desc": "tensordesc<fp16[64, 256]>",
        "c_desc": "tensordesc<fp16[128, 256]>",
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
        "wgmma.mma_async",
        "wgmma.wait_group.sync.aligned 1",
        "cp.async.bulk.tensor.2d.global.shared",
    ),
}


def run(a, b, config: dict | None = None):
    """c = a @ b for fp16 CUDA tensors (row-major, K and N multiples of 8)."""
    import torch
    from triton.tools.tensor_descriptor import TensorDescriptor

    cfg = {**CONFIG, **(config or {})}
    m, k = a.shape
    _, n = b.shape
    c = torch.full((m, n), float("nan"), device=a.device, dtype=torch.float16)
    a_desc = TensorDescriptor.from_tensor(a, [cfg["BLOCK_M"], cfg["BLOCK_K"]])
    b_desc = TensorDescriptor.from_tensor(b, [cfg["BLOCK_K"], cfg["BLOCK_N"]])
    c_desc = TensorDescriptor.from_tensor(c, [cfg["BLOCK_M"], cfg["BLOCK_N"]])
    grid = (triton.cdiv(m, cfg["BLOCK_M"]) * triton.cdiv(n, cfg["BLOCK_N"]),)
    wgmma_matmul_kernel[grid](a_desc, b_desc, c_desc, m, n, k, num_warps=NUM_WARPS, **cfg)
    return c
