"""TMA in and out of shared memory, with an mbarrier and a trip through registers.

Each program moves one BLOCK_M x BLOCK_N tile: the TMA engine copies it from global to shared memory
and signals an mbarrier with the bytes it delivered (cp.async.bulk.tensor ... mbarrier::complete_tx);
the warps wait on the barrier (mbarrier.try_wait), scale the tile in registers, write it back to shared
memory, fence the generic-proxy writes against the async proxy (fence.proxy.async) and let the TMA
engine store the tile (cp.async.bulk.tensor global.shared) before waiting for the store to drain.
"""

import triton
import triton.language as tl

import tlx


@triton.jit
def tma_scale_kernel(in_desc, out_desc, alpha, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    off_m = tl.program_id(0) * BLOCK_M
    off_n = tl.program_id(1) * BLOCK_N

    tile = tlx.local_alloc((BLOCK_M, BLOCK_N), tl.float16, 1)
    ready = tlx.alloc_barriers(1)

    # The barrier's phase completes once the TMA engine has delivered this many bytes.
    tlx.barrier_expect_bytes(ready[0], BLOCK_M * BLOCK_N * 2)
    tlx.async_descriptor_load(in_desc, tile[0], [off_m, off_n], ready[0])
    tlx.barrier_wait(ready[0], 0)

    scaled = tlx.local_load(tile[0]).to(tl.float32) * alpha
    tlx.local_store(tile[0], scaled.to(tl.float16))
    # Ordinary stores to shared memory must be ordered before the TMA engine reads them.
    tlx.fence_async_shared()
    tlx.async_descriptor_store(out_desc, tile[0], [off_m, off_n])
    tlx.async_descriptor_store_wait(0)


BLOCK_M = 64
BLOCK_N = 64

SPEC = {
    "kernel": tma_scale_kernel,
    "signature": {
        "in_desc": f"tensordesc<fp16[{BLOCK_M}, {BLOCK_N}]>",
        "out_desc": f"tensordesc<fp16[{BLOCK_M}, {BLOCK_N}]>",
        "alpha": "fp32",
        "BLOCK_M": "constexpr",
        "BLOCK_N": "constexpr",
    },
    "constexprs": {"BLOCK_M": BLOCK_M, "BLOCK_N": BLOCK_N},
    "num_warps": 4,
    "ptx": (
        "cp.async.bulk.tensor.2d.shared::cluster.global",
        "mbarrier.try_wait",
        "fence.proxy.async",
        "cp.async.bulk.tensor.2d.global.shared",
        "cp.async.bulk.wait_group",
    ),
}


def run(x, alpha: float):
    """out = alpha * x for a 2-D fp16 CUDA tensor whose sizes are multiples of 16 bytes per row."""
    import torch
    from triton.tools.tensor_descriptor import TensorDescriptor

    out = torch.full_like(x, float("nan"))
    in_desc = TensorDescriptor.from_tensor(x, [BLOCK_M, BLOCK_N])
    out_desc = TensorDescriptor.from_tensor(out, [BLOCK_M, BLOCK_N])
    grid = (triton.cdiv(x.shape[0], BLOCK_M), triton.cdiv(x.shape[1], BLOCK_N))
    tma_scale_kernel[grid](in_desc, out_desc, alpha, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N)
    return out
