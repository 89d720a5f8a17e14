"""Persistent warp-specialized GEMM on Blackwell (sm_100): two tensor-memory accumulators, a subtiled epilogue.

**Compile-verified only**: there is no Blackwell GPU here. ``compile_tutorial(SPEC, arch=100)`` builds an
sm_100a cubin on the CPU (``python/test/test_blackwell_kernels.py``) and checks that its PTX holds
``tcgen05.mma``, ``tcgen05.commit``, ``tcgen05.ld``, ``cp.async.bulk.tensor`` (TMA loads and stores) and
``mbarrier.try_wait``. The kernel has never run; ``run`` is its host code for a Blackwell GPU.

The kernel is persistent: a grid of at most one CTA per SM, each walking the output tiles
``pid, pid + NUM_SMS, ...`` in grouped order. Three tasks split the work by role and talk only through
mbarriers:

* the **loader** (1 warp) issues TMA copies of an A tile (BLOCK_M x BLOCK_K) and a B tile
  (BLOCK_K x BLOCK_N) into a ring of ``NUM_STAGES`` shared-memory stages. ``smem_full[s]`` completes when
  both tiles of stage ``s`` have landed (TMA's transaction count); ``smem_empty[s]`` when the MMA that read
  them has completed. The loader never stops at a tile boundary: it runs ahead into the next tile.
* the **MMA issuer** (1 warp) issues one ``tcgen05.mma`` per k-step (``tlx.async_dot`` into a
  tensor-memory buffer, ``mBarriers=[smem_empty[s]]``: the hardware releases the stage), then
  ``tlx.tcgen05_commit(acc_full[b])``, which arrives once every MMA of the tile has completed.
* the **epilogue** (the kernel's 4 warps, the default task) drains a finished accumulator:
  ``EPILOGUE_SUBTILE`` column slices of tensor memory -> registers (``tcgen05.ld``) -> fp16/bf16 in one of
  two shared buffers -> TMA store (``cp.async.bulk.tensor`` global <- shared).

The accumulator is **double-buffered in tensor memory**: ``NUM_ACC = 2`` buffers of BLOCK_M x BLOCK_N
fp32 (2 x 256 of the 512 columns at BLOCK_N = 256). The MMA issuer fills buffer ``t % 2`` for the CTA's
t-th tile while the epilogue drains the other, so the tensor cores never wait for a store. The two
directions of that hand-off:

* ``acc_full[b]`` (MMA -> epilogue): completed by the tile's ``tcgen05.commit``;
* ``acc_empty[b]`` (epilogue -> MMA): one arrival once the epilogue has read the last column slice into
  registers; the MMA issuer waits on it before the first MMA of a tile into ``b``.

Subtiling keeps the epilogue's registers and shared memory small: a slice of BLOCK_M x
(BLOCK_N / EPILOGUE_SUBTILE) fp32 is 64 registers per thread at 128 x 64, and the two shared buffers
alternate, so the TMA store of slice i overlaps the ``tcgen05.ld`` of slice i + 1
(``async_descriptor_store_wait(1)`` only waits for the store that last read the buffer about to be
overwritten).
"""

from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

import tlx
from tlx.tutorials.tiles import grouped_tile


@triton.jit
def _tile_offsets(tile, num_pid_m, num_pid_n, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, GROUP_M: tl.constexpr):
    """Where output tile ``tile`` starts, in grouped order (the tiles running at once share L2)."""
    pid_m, pid_n = grouped_tile(tile, num_pid_m, num_pid_n, GROUP_M)
    return pid_m * BLOCK_M, pid_n * BLOCK_N


@triton.jit
def blackwell_persistent_gemm_kernel(
    a_desc,
    b_desc,
    c_desc,
    M,
    N,
    K,
    NUM_SMS: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    NUM_STAGES: tl.constexpr,
    NUM_ACC: tl.constexpr,
    EPILOGUE_SUBTILE: tl.constexpr,
    GROUP_M: tl.constexpr,
):
    """C = A @ B, A (M x K) and B (K x N) row-major fp16/bf16, C of the same dtype; fp32 accumulation.

    The descriptors' boxes: A BLOCK_M x BLOCK_K, B BLOCK_K x BLOCK_N, C BLOCK_M x (BLOCK_N / EPILOGUE_SUBTILE).
    """
    dtype = tlx.dtype_of(a_desc)
    SLICE_N: tl.constexpr = BLOCK_N // EPILOGUE_SUBTILE
    STAGE_BYTES: tl.constexpr = (BLOCK_M * BLOCK_K + BLOCK_K * BLOCK_N) * 2

    a_tiles = tlx.local_alloc((BLOCK_M, BLOCK_K), dtype, NUM_STAGES)
    b_tiles = tlx.local_alloc((BLOCK_K, BLOCK_N), dtype, NUM_STAGES)
    c_tiles = tlx.local_alloc((BLOCK_M, SLICE_N), dtype, 2)  # the epilogue's slices alternate between two
    accs = tlx.local_alloc((BLOCK_M, BLOCK_N), tl.float32, NUM_ACC, storage=tlx.storage_kind.tmem)
    smem_full = tlx.alloc_barriers(NUM_STAGES)  # loader -> MMA: TMA landed the stage
    smem_empty = tlx.alloc_barriers(NUM_STAGES)  # MMA -> loader: the tcgen05.mma that read it completed
    acc_full = tlx.alloc_barriers(NUM_ACC)  # MMA -> epilogue: the tile's MMAs completed (tcgen05.commit)
    acc_empty = tlx.alloc_barriers(NUM_ACC)  # epilogue -> MMA: the accumulator is in registers

    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_tiles = num_pid_m * num_pid_n
    k_steps = tl.cdiv(K, BLOCK_K)

    with tlx.async_tasks():
        with tlx.async_task("default"):  # epilogue
            t = 0  # this CTA's tile count: which accumulator, which phase
            for tile in range(pid, num_tiles, NUM_SMS):
                off_m, off_n = _tile_offsets(tile, num_pid_m, num_pid_n, BLOCK_M, BLOCK_N, GROUP_M)
                b = t % NUM_ACC
                tlx.barrier_wait(acc_full[b], (t // NUM_ACC) & 1)
                for sl in tl.static_range(EPILOGUE_SUBTILE):
                    part = tlx.local_load(tlx.subslice(accs[b], sl * SLICE_N, SLICE_N))
                    if sl == EPILOGUE_SUBTILE - 1:
                        # Every column is in registers: the MMA issuer may start the next tile into `b`
                        # while the stores below still run.
                        tlx.barrier_arrive(acc_empty[b])
                    c_tile = c_tiles[sl % 2]
                    # The store issued two slices ago read this buffer; the last one may keep running.
                    tlx.async_descriptor_store_wait(1)
                    tlx.local_store(c_tile, part.to(dtype))
                    tlx.fence_async_shared()
                    tlx.async_descriptor_store(c_desc, c_tile, [off_m, off_n + sl * SLICE_N])
                t += 1
            tlx.async_descriptor_store_wait(0)

        with tlx.async_task(num_warps=1):  # loader
            step = 0  # k-steps over all of this CTA's tiles: the ring runs across tile boundaries
            for tile in range(pid, num_tiles, NUM_SMS):
                off_m, off_n = _tile_offsets(tile, num_pid_m, num_pid_n, BLOCK_M, BLOCK_N, GROUP_M)
                for k in range(k_steps):
                    s = step % NUM_STAGES
                    # The phase of the stage's previous use, flipped: the first pass finds every stage free.
                    tlx.barrier_wait(smem_empty[s], ((step // NUM_STAGES) & 1) ^ 1)
                    tlx.barrier_expect_bytes(smem_full[s], STAGE_BYTES)
                    tlx.async_descriptor_load(a_desc, a_tiles[s], [off_m, k * BLOCK_K], smem_full[s])
                    tlx.async_descriptor_load(b_desc, b_tiles[s], [k * BLOCK_K, off_n], smem_full[s])
                    step += 1

        with tlx.async_task(num_warps=1):  # MMA issuer
            step = 0
            t = 0
            for _tile in range(pid, num_tiles, NUM_SMS):
                b = t % NUM_ACC
                # The epilogue has read this accumulator's previous tile (the first two are free).
                tlx.barrier_wait(acc_empty[b], ((t // NUM_ACC) & 1) ^ 1)
                for k in range(k_steps):
                    s = step % NUM_STAGES
                    tlx.barrier_wait(smem_full[s], (step // NUM_STAGES) & 1)
                    tlx.async_dot(a_tiles[s], b_tiles[s], accs[b], use_acc=k > 0, mBarriers=[smem_empty[s]])
                    step += 1
                # Arrives when every MMA above has completed; the next tile's MMAs go out at once.
                tlx.tcgen05_commit(acc_full[b])
                t += 1


#: Tile shapes per dtype. Shared memory at 128 x 256 x 64, 3 stages: 3 x (16 + 32) KiB of operands and
#: 2 x 16 KiB of epilogue slices, 176 KiB; tensor memory: 2 x 256 columns, all 512.
CONFIG = {
    "BLOCK_M": 128,
    "BLOCK_N": 256,
    "BLOCK_K": 64,
    "NUM_STAGES": 3,
    "NUM_ACC": 2,
    "EPILOGUE_SUBTILE": 4,
    "GROUP_M": 8,
}
NUM_WARPS = 4  # the epilogue; the loader and the MMA issuer bring one warp each
NUM_SMS = 148  # B200; the SPEC compiles for it, run() asks the device


def _spec(config: dict, dtype: str = "fp16") -> dict:
    bm, bn, bk = config["BLOCK_M"], config["BLOCK_N"], config["BLOCK_K"]
    slice_n = bn // config["EPILOGUE_SUBTILE"]
    return {
        "kernel": blackwell_persistent_gemm_kernel,
        "signature": {
            "a_desc": f"tensordesc<{dtype}[{bm}, {bk}]>",
            "b_desc": f"tensordesc<{dtype}[{bk}, {bn}]>",
            "c_desc": f"tensordesc<{dtype}[{bm}, {slice_n}]>",
            "M": "i32",
            "N": "i32",
            "K": "i32",
            "NUM_SMS": "constexpr",
            "BLOCK_M": "constexpr",
            "BLOCK_N": "constexpr",
            "BLOCK_K": "constexpr",
            "NUM_STAGES": "constexpr",
            "NUM_ACC": "constexpr",
            "EPILOGUE_SUBTILE": "constexpr",
            "GROUP_M": "constexpr",
        },
        "constexprs": {**config, "NUM_SMS": NUM_SMS},
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


SPEC = _spec(CONFIG)
#: bf16, BLOCK_N = 128 (two 128-column accumulators) and two slices of 64 columns.
SPEC_BF16_N128 = _spec({**CONFIG, "BLOCK_N": 128, "NUM_STAGES": 4, "EPILOGUE_SUBTILE": 2}, dtype="bf16")


def gemm_operands(a: Any, b: Any, defaults: dict, config: dict | None, out: Any) -> tuple:
    """The host side of a Blackwell GEMM's ``run``: the checked inputs, the config (``defaults`` updated by
    ``config``), the output (``out`` or a new NaN-filled tensor) and the three TMA descriptors (C in
    ``EPILOGUE_SUBTILE`` column slices). Returns ``(cfg, m, n, k, c, a_desc, b_desc, c_desc)``."""
    import torch
    from triton.tools.tensor_descriptor import TensorDescriptor

    if a.dtype != b.dtype or a.dtype not in (torch.float16, torch.bfloat16):
        raise ValueError(f"a and b must both be float16 or bfloat16, got {a.dtype} and {b.dtype}")
    cfg = {**defaults, **(config or {})}
    m, k = a.shape
    _, n = b.shape
    c = torch.full((m, n), float("nan"), device=a.device, dtype=a.dtype) if out is None else out
    if c.shape != (m, n) or c.dtype != a.dtype or not c.is_contiguous():
        raise ValueError(f"out must be a contiguous {m}x{n} tensor of {a.dtype}")
    slice_n = cfg["BLOCK_N"] // cfg["EPILOGUE_SUBTILE"]
    a_desc = TensorDescriptor.from_tensor(a, [cfg["BLOCK_M"], cfg["BLOCK_K"]])
    b_desc = TensorDescriptor.from_tensor(b, [cfg["BLOCK_K"], cfg["BLOCK_N"]])
    c_desc = TensorDescriptor.from_tensor(c, [cfg["BLOCK_M"], slice_n])
    return cfg, m, n, k, c, a_desc, b_desc, c_desc


def run(a: Any, b: Any, config: dict | None = None, out: Any = None, num_sms: int | None = None) -> Any:
    """c = a @ b for row-major fp16 or bf16 CUDA tensors (K and N multiples of 8) on a Blackwell GPU.

    The same conventions as ``ws_gemm.run``: the result goes to ``out`` when given (contiguous M x N of
    a's dtype), else to a new NaN-filled tensor; ``num_sms`` caps the persistent grid (default: every SM).
    Compile-verified only: never run here (no Blackwell GPU)."""
    import torch

    cfg, m, n, k, c, a_desc, b_desc, c_desc = gemm_operands(a, b, CONFIG, config, out)
    num_sms = num_sms or torch.cuda.get_device_properties(a.device).multi_processor_count
    tiles = triton.cdiv(m, cfg["BLOCK_M"]) * triton.cdiv(n, cfg["BLOCK_N"])
    grid = (min(num_sms, tiles),)
    blackwell_persistent_gemm_kernel[grid](a_desc, b_desc, c_desc, m, n, k, NUM_SMS=grid[0], num_warps=NUM_WARPS, **cfg)
    return c
