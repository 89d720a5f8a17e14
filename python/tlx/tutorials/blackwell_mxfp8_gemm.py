"""Warp-specialized MXFP8 GEMM on Blackwell (sm_100): block-scaled ``tcgen05.mma``, scales in tensor memory.

**Compile-verified only**: there is no Blackwell GPU here. ``compile_tutorial(SPEC, arch=100)`` builds an
sm_100a cubin on the CPU (``python/test/test_blackwell_kernels.py``) and checks that its PTX holds the
block-scaled ``tcgen05.mma ... kind::mxf8f6f4.block_scale``, the ``tcgen05.cp`` of the scales, the 5-D TMA
loads of the scales and ``tcgen05.ld``. The kernel has never run; ``run`` is its host code for a Blackwell
GPU and ``reference`` the PyTorch computation it must match.

``C = (A * A_scale) @ (B * B_scale).T`` in MXFP8 (OCP microscaling): A (M x K) and B (N x K) hold fp8 e4m3
values, and every 32 consecutive values along K share one e8m0 scale (a byte ``s``, the factor
``2^(s - 127)``): ``A_scale`` is M x K / 32 bytes, ``B_scale`` N x K / 32. C is bf16, accumulated in fp32.

The scales travel in the cuBLAS block-scaling layout, the layout ``tlx.async_dot_scaled`` and the tensor
cores read: blocks of 128 rows x 4 scales, 512 bytes each, row ``r`` of a block at byte
``16 * (r % 32) + 4 * (r // 32)``; ``to_blocked_scales`` rearranges plain M x K / 32 scales into it, as a 5-D
tensor ``[1, M / 128, K / 128, 2, 256]`` that one TMA box per k-step loads (``[1, 1, BLOCK_K / 128, 2, 256]``
at ``BLOCK_M = 128``).

The kernel is persistent (at most one CTA per SM, each walking the output tiles ``pid, pid + NUM_SMS, ...``)
and splits the work into three tasks that talk only through mbarriers:

* the **loader** (1 warp) copies an A tile (BLOCK_M x BLOCK_K fp8), a B tile (BLOCK_N x BLOCK_K) and the two
  tiles of scales with TMA into a ring of ``NUM_STAGES`` shared-memory stages; ``smem_full[s]`` completes
  when all four have landed;
* the **MMA issuer** (1 warp) copies the stage's scales into tensor memory (``tlx.tmem_copy``:
  ``tcgen05.cp``) and issues ``tlx.async_dot_scaled`` into a tensor-memory accumulator. The MMA reads B
  K-major through ``tlx.local_trans``. Its completion releases the stage (``smem_empty[s]``) and the
  scales' tensor memory (``scales_free``); a ``tcgen05.commit`` hands the tile to the epilogue;
* the **epilogue** (the kernel's 4 warps) reads a finished accumulator (``tcgen05.ld``) in
  ``EPILOGUE_SUBTILE`` column slices, converts them to bf16 and stores them with TMA.

Tensor memory: ``NUM_ACC`` accumulators of BLOCK_M x BLOCK_N fp32, and the scales. Triton 3.6 allocates
scales in tensor memory one buffer per allocation (no ``num`` > 1), so there are two sets, two
``local_alloc`` each, used by alternate k-steps: a ``tcgen05.cp`` into a set must wait for the MMA that last
read it (the tensor cores run a copy issued after an MMA as soon as they like), and with two sets the copy
for step k + 1 waits for the MMA of step k - 1 only, while the MMA of step k runs.
"""

from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

import tlx
from tlx.tutorials.tiles import grouped_tile

#: Values per e8m0 scale along K (OCP MX).
VEC_SIZE = 32


@triton.jit
def _tile_offsets(tile, num_pid_m, num_pid_n, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, GROUP_M: tl.constexpr):
    """Where output tile ``tile`` starts, in grouped order (the tiles running at once share L2)."""
    pid_m, pid_n = grouped_tile(tile, num_pid_m, num_pid_n, GROUP_M)
    return pid_m * BLOCK_M, pid_n * BLOCK_N


@triton.jit
def _scaled_mma(a, b, acc, a_scales, b_scales, a_scales_tmem, b_scales_tmem, use_acc, stage_free, scales_free):
    """Scales of one k-step into tensor memory (tcgen05.cp), then the block-scaled MMA that reads them; its
    completion frees the shared-memory stage and this set of tensor-memory scales."""
    tlx.tmem_copy(a_scales, a_scales_tmem)
    tlx.tmem_copy(b_scales, b_scales_tmem)
    tlx.async_dot_scaled(
        a,
        tlx.local_trans(b),
        acc,
        a_scales_tmem,
        "e4m3",
        b_scales_tmem,
        "e4m3",
        use_acc=use_acc,
        mBarriers=[stage_free, scales_free],
    )


@triton.jit
def blackwell_mxfp8_gemm_kernel(
    a_desc,
    b_desc,
    a_scale_desc,
    b_scale_desc,
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
    """C = (A * A_scale) @ (B * B_scale).T: A (M x K) and B (N x K) e4m3, scales e8m0 in the cuBLAS layout.

    The descriptors' boxes: A BLOCK_M x BLOCK_K, B BLOCK_N x BLOCK_K, the scales
    ``[1, BLOCK_M / 128, BLOCK_K / 128, 2, 256]`` and ``[1, BLOCK_N / 128, BLOCK_K / 128, 2, 256]``,
    C BLOCK_M x (BLOCK_N / EPILOGUE_SUBTILE) bf16.
    """
    tl.static_assert(BLOCK_M == 128, "block-scaled tcgen05.mma tiles are 128 rows")
    tl.static_assert(BLOCK_N % 128 == 0 and BLOCK_K % 128 == 0, "scales come in blocks of 128 rows x 4")
    SCALE_K: tl.constexpr = BLOCK_K // 32
    SLICE_N: tl.constexpr = BLOCK_N // EPILOGUE_SUBTILE
    STAGE_BYTES: tl.constexpr = (BLOCK_M + BLOCK_N) * BLOCK_K + (BLOCK_M + BLOCK_N) * SCALE_K

    a_tiles = tlx.local_alloc((BLOCK_M, BLOCK_K), tlx.dtype_of(a_desc), NUM_STAGES)
    b_tiles = tlx.local_alloc((BLOCK_N, BLOCK_K), tlx.dtype_of(b_desc), NUM_STAGES)
    a_scale_tiles = tlx.local_alloc((1, BLOCK_M // 128, BLOCK_K // 128, 2, 256), tl.uint8, NUM_STAGES)
    b_scale_tiles = tlx.local_alloc((1, BLOCK_N // 128, BLOCK_K // 128, 2, 256), tl.uint8, NUM_STAGES)
    c_tiles = tlx.local_alloc((BLOCK_M, SLICE_N), tl.bfloat16, 2)  # the epilogue's slices alternate
    accs = tlx.local_alloc((BLOCK_M, BLOCK_N), tl.float32, NUM_ACC, storage=tlx.storage_kind.tmem)
    # Two sets of tensor-memory scales, one allocation each (Triton 3.6 has no multi-buffered scales).
    a_scales0 = tlx.local_alloc((BLOCK_M, SCALE_K), tl.uint8, 1, storage=tlx.storage_kind.tmem)
    b_scales0 = tlx.local_alloc((BLOCK_N, SCALE_K), tl.uint8, 1, storage=tlx.storage_kind.tmem)
    a_scales1 = tlx.local_alloc((BLOCK_M, SCALE_K), tl.uint8, 1, storage=tlx.storage_kind.tmem)
    b_scales1 = tlx.local_alloc((BLOCK_N, SCALE_K), tl.uint8, 1, storage=tlx.storage_kind.tmem)
    smem_full = tlx.alloc_barriers(NUM_STAGES)  # loader -> MMA: TMA landed the stage
    smem_empty = tlx.alloc_barriers(NUM_STAGES)  # MMA -> loader: the MMA that read the stage completed
    scales_free = tlx.alloc_barriers(2)  # MMA -> MMA: the MMA that read this set of scales completed
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
                        tlx.barrier_arrive(acc_empty[b])  # every column is in registers
                    c_tile = c_tiles[sl % 2]
                    tlx.async_descriptor_store_wait(1)  # the store two slices back read this buffer
                    tlx.local_store(c_tile, part.to(tl.bfloat16))
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
                    tlx.async_descriptor_load(b_desc, b_tiles[s], [off_n, k * BLOCK_K], smem_full[s])
                    scale_k = k * (BLOCK_K // 128)
                    tlx.async_descriptor_load(
                        a_scale_desc, a_scale_tiles[s], [0, off_m // 128, scale_k, 0, 0], smem_full[s]
                    )
                    tlx.async_descriptor_load(
                        b_scale_desc, b_scale_tiles[s], [0, off_n // 128, scale_k, 0, 0], smem_full[s]
                    )
                    step += 1

        with tlx.async_task(num_warps=1):  # MMA issuer
            step = 0
            t = 0
            for _tile in range(pid, num_tiles, NUM_SMS):
                b = t % NUM_ACC
                # The epilogue has read this accumulator's previous tile (the first NUM_ACC are free).
                tlx.barrier_wait(acc_empty[b], ((t // NUM_ACC) & 1) ^ 1)
                for k in range(k_steps):
                    s = step % NUM_STAGES
                    tlx.barrier_wait(smem_full[s], (step // NUM_STAGES) & 1)
                    # Scale set step % 2 was last read by the MMA of step - 2; wait for it (not on the first
                    # use of each set).
                    tlx.barrier_wait(scales_free[step % 2], ((step // 2) & 1) ^ 1, pred=step >= 2)
                    if step % 2 == 0:
                        _scaled_mma(
                            a_tiles[s],
                            b_tiles[s],
                            accs[b],
                            a_scale_tiles[s],
                            b_scale_tiles[s],
                            a_scales0[0],
                            b_scales0[0],
                            k > 0,
                            smem_empty[s],
                            scales_free[0],
                        )
                    else:
                        _scaled_mma(
                            a_tiles[s],
                            b_tiles[s],
                            accs[b],
                            a_scale_tiles[s],
                            b_scale_tiles[s],
                            a_scales1[0],
                            b_scales1[0],
                            k > 0,
                            smem_empty[s],
                            scales_free[1],
                        )
                    step += 1
                # Arrives when every MMA above has completed; the next tile's MMAs go out at once.
                tlx.tcgen05_commit(acc_full[b])
                t += 1


#: 128 x 128 x 128 tiles, 4 stages: 4 x (16 + 16 + 1) KiB of operands and scales, 2 x 16 KiB of epilogue
#: slices, 164 KiB of shared memory; tensor memory: 2 x 128 accumulator columns and four scale allocations.
CONFIG = {
    "BLOCK_M": 128,
    "BLOCK_N": 128,
    "BLOCK_K": 128,
    "NUM_STAGES": 4,
    "NUM_ACC": 2,
    "EPILOGUE_SUBTILE": 2,
    "GROUP_M": 8,
}
NUM_WARPS = 4  # the epilogue; the loader and the MMA issuer bring one warp each
NUM_SMS = 148  # B200; the SPEC compiles for it, run() asks the device


def _scale_box(rows: int, block_k: int) -> list[int]:
    """The TMA box of one k-step's scales for ``rows`` rows: whole 128 x 4 blocks."""
    return [1, rows // 128, block_k // 128, 2, 256]


def _spec(config: dict) -> dict:
    bm, bn, bk = config["BLOCK_M"], config["BLOCK_N"], config["BLOCK_K"]
    slice_n = bn // config["EPILOGUE_SUBTILE"]
    a_box, b_box = (", ".join(map(str, _scale_box(rows, bk))) for rows in (bm, bn))
    return {
        "kernel": blackwell_mxfp8_gemm_kernel,
        "signature": {
            "a_desc": f"tensordesc<fp8e4nv[{bm}, {bk}]>",
            "b_desc": f"tensordesc<fp8e4nv[{bn}, {bk}]>",
            "a_scale_desc": f"tensordesc<u8[{a_box}]>",
            "b_scale_desc": f"tensordesc<u8[{b_box}]>",
            "c_desc": f"tensordesc<bf16[{bm}, {slice_n}]>",
            "M": "i32",
            "N": "i32",
            "K": "i32",
            **dict.fromkeys(
                ["NUM_SMS", "BLOCK_M", "BLOCK_N", "BLOCK_K", "NUM_STAGES", "NUM_ACC", "EPILOGUE_SUBTILE", "GROUP_M"],
                "constexpr",
            ),
        },
        "constexprs": {**config, "NUM_SMS": NUM_SMS},
        "num_warps": NUM_WARPS,
        "ptx": (
            "cp.async.bulk.tensor.2d.shared::cluster.global",
            "cp.async.bulk.tensor.5d.shared::cluster.global",
            "mbarrier.try_wait",
            "tcgen05.alloc",
            "tcgen05.cp.cta_group::1.warpx4.32x128b",
            "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X",
            "tcgen05.commit.cta_group::1.mbarrier::arrive::one",
            "tcgen05.ld.sync.aligned.32x32b",
            "cp.async.bulk.tensor.2d.global.shared",
        ),
    }


SPEC = _spec(CONFIG)
#: BLOCK_N = 256 (two 128-row blocks of B scales), one 256-column accumulator, four slices.
SPEC_N256 = _spec({**CONFIG, "BLOCK_N": 256, "NUM_STAGES": 3, "NUM_ACC": 1, "EPILOGUE_SUBTILE": 4})


def to_blocked_scales(scales: Any) -> Any:
    """Plain e8m0 scales (rows x cols uint8, rows a multiple of 128, cols of 4) in the cuBLAS block-scaling
    layout, as the 5-D ``[1, rows / 128, cols / 4, 2, 256]`` tensor the kernel's TMA loads: 512-byte blocks of
    128 rows x 4 scales, row-block-major, row ``r`` of a block at byte ``16 * (r % 32) + 4 * (r // 32)``."""
    rows, cols = scales.shape
    if rows % 128 or cols % 4:
        raise ValueError(f"scales must be (a multiple of 128) x (a multiple of 4), got {rows} x {cols}")
    blocks = scales.reshape(rows // 128, 4, 32, cols // 4, 4)  # [row block, r // 32, r % 32, col block, c]
    return blocks.permute(0, 3, 2, 1, 4).reshape(1, rows // 128, cols // 4, 2, 256).contiguous()


def reference(a: Any, b: Any, a_scale: Any, b_scale: Any) -> Any:
    """What the kernel computes, in PyTorch on any device: fp32 products of the dequantized values, bf16 out.

    ``a`` (M x K) and ``b`` (N x K) float8_e4m3fn; ``a_scale`` (M x K / 32) and ``b_scale`` (N x K / 32) plain
    uint8 e8m0 exponents (not blocked)."""
    import torch

    def dequantize(values: Any, scales: Any) -> Any:
        factors = torch.exp2(scales.to(torch.float32) - 127.0).repeat_interleave(VEC_SIZE, dim=1)
        return values.to(torch.float32) * factors

    return (dequantize(a, a_scale) @ dequantize(b, b_scale).T).to(torch.bfloat16)


def run(a: Any, b: Any, a_scale: Any, b_scale: Any, config: dict | None = None, num_sms: int | None = None) -> Any:
    """``reference(a, b, a_scale, b_scale)`` on a Blackwell GPU: the same arguments (CUDA tensors; M, N
    multiples of BLOCK_M, BLOCK_N and K of BLOCK_K), a new M x N bf16 tensor out (NaN-filled first).
    ``num_sms`` caps the persistent grid (default: every SM). Compile-verified only: never run here."""
    import torch
    from triton.tools.tensor_descriptor import TensorDescriptor

    if a.dtype != torch.float8_e4m3fn or b.dtype != torch.float8_e4m3fn:
        raise ValueError(f"a and b must be float8_e4m3fn, got {a.dtype} and {b.dtype}")
    cfg = {**CONFIG, **(config or {})}
    bm, bn, bk = cfg["BLOCK_M"], cfg["BLOCK_N"], cfg["BLOCK_K"]
    (m, k), (n, _) = a.shape, b.shape
    if m % bm or n % bn or k % bk or b.shape[1] != k:
        raise ValueError(f"need M % {bm} == N % {bn} == K % {bk} == 0 and one K: {tuple(a.shape)}, {tuple(b.shape)}")
    if a_scale.shape != (m, k // VEC_SIZE) or b_scale.shape != (n, k // VEC_SIZE):
        raise ValueError(f"scales must be {m} x {k // VEC_SIZE} and {n} x {k // VEC_SIZE} uint8 (one per 32 of K)")
    c = torch.full((m, n), float("nan"), device=a.device, dtype=torch.bfloat16)
    a_blocked = to_blocked_scales(a_scale.view(torch.uint8))
    b_blocked = to_blocked_scales(b_scale.view(torch.uint8))
    slice_n = bn // cfg["EPILOGUE_SUBTILE"]
    a_desc = TensorDescriptor.from_tensor(a, [bm, bk])
    b_desc = TensorDescriptor.from_tensor(b, [bn, bk])
    a_scale_desc = TensorDescriptor.from_tensor(a_blocked, _scale_box(bm, bk))
    b_scale_desc = TensorDescriptor.from_tensor(b_blocked, _scale_box(bn, bk))
    c_desc = TensorDescriptor.from_tensor(c, [bm, slice_n])
    num_sms = num_sms or torch.cuda.get_device_properties(a.device).multi_processor_count
    grid = (min(num_sms, (m // bm) * (n // bn)),)
    blackwell_mxfp8_gemm_kernel[grid](
        a_desc, b_desc, a_scale_desc, b_scale_desc, c_desc, m, n, k, NUM_SMS=grid[0], num_warps=NUM_WARPS, **cfg
    )
    return c
