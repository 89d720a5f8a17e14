"""Warp-specialized FlashAttention forward on Blackwell (sm_100): S, P, O and the row statistics in tensor memory.

**Compile-verified only**: there is no Blackwell GPU here. ``compile_tutorial(SPEC, arch=100)`` builds an
sm_100a cubin on the CPU (``python/test/test_blackwell_kernels.py``) and checks its PTX for
``tcgen05.mma`` (with P read from tensor memory), ``tcgen05.ld``/``tcgen05.st``, ``tcgen05.commit``, TMA and
``mbarrier.try_wait``. The kernel has never run; ``run`` is its host code for a Blackwell GPU.

The structure is that of the public TLX Blackwell attention (``blackwell_fa_ws.py`` and its storage-aliasing
successors). A CTA owns ``BLOCK_M = 256`` query rows of one (batch, head) as two groups of 128 rows
(``NUM_MMA_GROUPS = 2``: one tcgen05 MMA has at most 128 rows), and walks the keys in ``BLOCK_N = 128``
blocks with online softmax. Four tasks, connected only by mbarriers:

* **load** (2 warps): Q of both groups once, then K_j and V_j by TMA into one ring of ``NUM_KV`` shared
  buffers (K and V alternate), each with a ``kv_full`` (transaction count) and a ``kv_empty`` mbarrier.
* **MMA** (2 warps): per block, ``S_g = Q_g @ K_j^T`` for both groups into tensor memory (``tcgen05.mma``,
  completion on ``s_full[g]``; the second group's MMA also releases K_j), then ``O_g += P_g @ V_j`` into
  the tensor-memory accumulator, **P read from tensor memory** as tcgen05's A operand (completion on
  ``o_done[g]``; the second one releases V_j).
* **softmax** (4 warps per group, ``replicate=2``): ``S_g`` tensor memory -> registers (``tcgen05.ld``), the
  running max, ``alpha = 2^(m_old - m_new)``, ``P = 2^(S * scale - m_new)`` and the row sums; ``alpha`` and
  then ``P`` go back into S's own columns (``tcgen05.st``), the final row sums ``l`` too.
* **correction** (the kernel's 4 warps, the default task): reads ``alpha`` from tensor memory and rescales
  ``O_g *= alpha`` there (``tcgen05.ld``, scale, ``tcgen05.st``) between one block's ``P @ V`` and the next,
  then the epilogue: ``O_g / l`` through shared memory (group g's Q buffer, no MMA reads it any more) to a
  TMA store.

**S, P, alpha and l share S's tensor-memory columns** (``storage_alias_spec(storage=tmem)``,
``set_buffer_overlap``): per group, S is 128 fp32 columns; P (fp16/bf16, two per 32-bit column) takes the
first 64 of them, alpha and l one column each after P::

    reuse_group(s_tiles, reuse_group(p_tiles, alpha_tiles, l_tiles, group_type=distinct), group_type=shared)

Tensor memory: two S (with their P, alpha, l) and two O (128 x D fp32): 512 columns at D = 128.

The hand-offs per group g and block j (every barrier has one arrival per block, so its phase is ``j & 1``):

* ``s_full[g]`` MMA -> softmax: S_j is in tensor memory.
* ``alpha_full[g]`` / ``alpha_empty[g]`` softmax <-> correction: alpha_j written / read.
* ``p_full[g]`` softmax -> MMA: P_j is written (over S_j, which the softmax has read).
* ``o_ready[g]`` correction -> MMA: O has been rescaled by alpha_j, P_j @ V_j may accumulate.
* ``o_done[g]`` MMA -> correction: P_j @ V_j has completed (O holds block j).

Why S_{j+1} may overwrite S's columns without a barrier of its own: the MMA task issues ``S_{j+1} = Q K^T``
after ``P_j @ V`` (which it issued once ``p_full`` said P_j was written, hence S_j read, and ``o_ready`` said
alpha_j was read), and the tcgen05 MMAs of one thread run in issue order, so ``P_j @ V`` has read P_j before
S_{j+1} lands on it. This is the public kernel's protocol too.

Causal attention masks the blocks that cross the diagonal and stops there; CTAs start with the longest
rows, as on Hopper. ``N`` must be a multiple of 128: a CTA whose second group lies past the sequence
computes it (on the next head's rows) but does not store it.
"""

from __future__ import annotations

import math
from typing import Any

import triton
import triton.language as tl

import tlx


@triton.jit
def blackwell_attention_kernel(
    q_desc,
    k_desc,
    v_desc,
    o_desc,
    N,
    qk_scale,  # sm_scale * log2(e): the softmax runs on exp2
    HEAD_DIM: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    NUM_KV: tl.constexpr,
    CAUSAL: tl.constexpr,
):
    """softmax(Q K^T * scale) V for BLOCK_M query rows of one (batch, head); q, k, v, o viewed as (B*H*N, D).

    The descriptors' boxes: q and o (BLOCK_M / 2) x HEAD_DIM, k and v BLOCK_N x HEAD_DIM."""
    dtype = tlx.dtype_of(q_desc)
    GROUPS: tl.constexpr = 2
    SPLIT_M: tl.constexpr = BLOCK_M // GROUPS
    KV_BYTES: tl.constexpr = BLOCK_N * HEAD_DIM * 2
    O_SLICE: tl.constexpr = 64 if HEAD_DIM > 64 else HEAD_DIM  # columns of O the correction holds at once

    q_tiles = tlx.local_alloc((SPLIT_M, HEAD_DIM), dtype, GROUPS)  # reused for each group's output
    kv_tiles = tlx.local_alloc((BLOCK_N, HEAD_DIM), dtype, NUM_KV)  # K_j at 2j, V_j at 2j + 1 (mod NUM_KV)

    # S, P, alpha and l of a group share S's tensor-memory columns: P over S's first half, alpha and l after.
    s_storage = tlx.storage_alias_spec(storage=tlx.storage_kind.tmem)
    s_tiles = tlx.local_alloc((SPLIT_M, BLOCK_N), tl.float32, GROUPS, tlx.storage_kind.tmem, reuse=s_storage)
    p_tiles = tlx.local_alloc((SPLIT_M, BLOCK_N), dtype, GROUPS, tlx.storage_kind.tmem, reuse=s_storage)
    alpha_tiles = tlx.local_alloc((SPLIT_M, 1), tl.float32, GROUPS, tlx.storage_kind.tmem, reuse=s_storage)
    l_tiles = tlx.local_alloc((SPLIT_M, 1), tl.float32, GROUPS, tlx.storage_kind.tmem, reuse=s_storage)
    s_storage.set_buffer_overlap(
        tlx.reuse_group(
            s_tiles,
            tlx.reuse_group(p_tiles, alpha_tiles, l_tiles, group_type=tlx.reuse_group_type.distinct),
            group_type=tlx.reuse_group_type.shared,
        )
    )
    o_tiles = tlx.local_alloc((SPLIT_M, HEAD_DIM), tl.float32, GROUPS, storage=tlx.storage_kind.tmem)

    q_full = tlx.alloc_barriers(GROUPS)
    kv_full = tlx.alloc_barriers(NUM_KV)
    kv_empty = tlx.alloc_barriers(NUM_KV)
    s_full = tlx.alloc_barriers(GROUPS)
    p_full = tlx.alloc_barriers(GROUPS)
    o_done = tlx.alloc_barriers(GROUPS)
    o_ready = tlx.alloc_barriers(GROUPS)
    alpha_full = tlx.alloc_barriers(GROUPS)
    alpha_empty = tlx.alloc_barriers(GROUPS)
    l_full = tlx.alloc_barriers(GROUPS)

    # Causal CTAs differ in work: the CTAs launched first take the longest rows.
    num_m = tl.cdiv(N, BLOCK_M)
    pid_m = num_m - 1 - tl.program_id(0) if CAUSAL else tl.program_id(0)
    start_m = pid_m * BLOCK_M
    row0 = tl.program_id(1) * N  # the (batch, head) slab in the (B*H*N, D) views
    n_blocks = tl.cdiv(N, BLOCK_N)
    if CAUSAL:
        n_blocks = tl.minimum(n_blocks, tl.cdiv(start_m + BLOCK_M, BLOCK_N))

    with tlx.async_tasks():
        with tlx.async_task("default"):  # correction, then the epilogue
            for j in range(n_blocks):
                for g in tl.static_range(GROUPS):
                    tlx.barrier_wait(alpha_full[g], j & 1)
                    alpha = tlx.local_load(alpha_tiles[g])
                    tlx.barrier_arrive(alpha_empty[g])
                    if j > 0:
                        # O holds blocks < j once P_{j-1} @ V_{j-1} has completed. Column slices keep
                        # the task within its registers (tcgen05.ld / tcgen05.st of O_SLICE columns).
                        tlx.barrier_wait(o_done[g], (j - 1) & 1)
                        for c in tl.static_range(HEAD_DIM // O_SLICE):
                            o_part = tlx.subslice(o_tiles[g], c * O_SLICE, O_SLICE)
                            tlx.local_store(o_part, tlx.local_load(o_part) * alpha)
                    tlx.barrier_arrive(o_ready[g])
            last = n_blocks - 1
            for g in tl.static_range(GROUPS):
                tlx.barrier_wait(o_done[g], last & 1)
                tlx.barrier_wait(l_full[g], 0)
                if start_m + g * SPLIT_M < N:
                    l_i = tlx.local_load(l_tiles[g])
                    # Q_g's last reader, S = Q_g @ K^T of the last block, completed before P @ V did.
                    for c in tl.static_range(HEAD_DIM // O_SLICE):
                        out = tlx.local_load(tlx.subslice(o_tiles[g], c * O_SLICE, O_SLICE)) / l_i
                        tlx.local_store(tlx.subslice(q_tiles[g], c * O_SLICE, O_SLICE), out.to(dtype))
                    tlx.fence_async_shared()
                    tlx.async_descriptor_store(o_desc, q_tiles[g], [row0 + start_m + g * SPLIT_M, 0])
            tlx.async_descriptor_store_wait(0)

        with tlx.async_task(num_warps=4, registers=192, replicate=GROUPS):  # softmax, one replica per group
            g = tlx.async_task_replica_id()
            rows = start_m + g * SPLIT_M + tl.arange(0, SPLIT_M)
            # Runtime scalars, not Python floats: a tensor constant in a non-default task would be
            # recomputed into the 1-warp partitions too, where its 4-warp layout is invalid (a compiler gap).
            neg_inf = qk_scale * float("-inf")
            m_i = tl.full((SPLIT_M,), neg_inf, tl.float32)
            l_i = tl.full((SPLIT_M,), qk_scale * 0.0, tl.float32)
            for j in range(n_blocks):
                tlx.barrier_wait(s_full[g], j & 1)
                s = tlx.local_load(s_tiles[g])
                if CAUSAL:
                    if (j + 1) * BLOCK_N > start_m:  # the block reaches the diagonal of this CTA's rows
                        cols = j * BLOCK_N + tl.arange(0, BLOCK_N)
                        s = tl.where(rows[:, None] >= cols[None, :], s, neg_inf)
                m_new = tl.maximum(m_i, tl.max(s, 1) * qk_scale)
                alpha = tl.math.exp2(m_i - m_new)
                p = tl.math.exp2(s * qk_scale - m_new[:, None])
                l_i = l_i * alpha + tl.sum(p, 1)
                m_i = m_new
                tlx.barrier_wait(alpha_empty[g], (j & 1) ^ 1)
                tlx.local_store(alpha_tiles[g], alpha[:, None])
                tlx.barrier_arrive(alpha_full[g])
                # P_j over S_j's columns: S_j is in registers, and P_{j-1} @ V_{j-1} completed before
                # S_j = Q K^T (issued after it) did.
                tlx.local_store(p_tiles[g], p.to(dtype))
                tlx.barrier_arrive(p_full[g])
            tlx.local_store(l_tiles[g], l_i[:, None])
            tlx.barrier_arrive(l_full[g])

        with tlx.async_task(num_warps=2, registers=24):  # MMA issuer
            for g in tl.static_range(GROUPS):
                tlx.barrier_wait(q_full[g], 0)
            for j in range(n_blocks):
                k_buf = (2 * j) % NUM_KV
                v_buf = (2 * j + 1) % NUM_KV
                tlx.barrier_wait(kv_full[k_buf], ((2 * j) // NUM_KV) & 1)
                k_t = tlx.local_trans(kv_tiles[k_buf])
                # S_j over P_{j-1}: issued after P_{j-1} @ V_{j-1}, and tcgen05 MMAs run in issue order.
                for g in tl.static_range(GROUPS):
                    if g == GROUPS - 1:
                        tlx.async_dot(
                            q_tiles[g], k_t, s_tiles[g], use_acc=False, mBarriers=[s_full[g], kv_empty[k_buf]]
                        )
                    else:
                        tlx.async_dot(q_tiles[g], k_t, s_tiles[g], use_acc=False, mBarriers=[s_full[g]])
                tlx.barrier_wait(kv_full[v_buf], ((2 * j + 1) // NUM_KV) & 1)
                for g in tl.static_range(GROUPS):
                    tlx.barrier_wait(p_full[g], j & 1)
                    tlx.barrier_wait(o_ready[g], j & 1)
                    # P from tensor memory: tcgen05.mma's A operand.
                    if g == GROUPS - 1:
                        tlx.async_dot(
                            p_tiles[g],
                            kv_tiles[v_buf],
                            o_tiles[g],
                            use_acc=j > 0,
                            mBarriers=[o_done[g], kv_empty[v_buf]],
                        )
                    else:
                        tlx.async_dot(p_tiles[g], kv_tiles[v_buf], o_tiles[g], use_acc=j > 0, mBarriers=[o_done[g]])

        with tlx.async_task(num_warps=2, registers=24):  # TMA loads
            for g in tl.static_range(GROUPS):
                tlx.barrier_expect_bytes(q_full[g], SPLIT_M * HEAD_DIM * 2)
                tlx.async_descriptor_load(q_desc, q_tiles[g], [row0 + start_m + g * SPLIT_M, 0], q_full[g])
            for j in range(n_blocks):
                for which in tl.static_range(2):  # K_j, then V_j
                    i = 2 * j + which
                    buf = i % NUM_KV
                    tlx.barrier_wait(kv_empty[buf], ((i // NUM_KV) & 1) ^ 1)  # the first pass finds it free
                    tlx.barrier_expect_bytes(kv_full[buf], KV_BYTES)
                    if which == 0:
                        tlx.async_descriptor_load(k_desc, kv_tiles[buf], [row0 + j * BLOCK_N, 0], kv_full[buf])
                    else:
                        tlx.async_descriptor_load(v_desc, kv_tiles[buf], [row0 + j * BLOCK_N, 0], kv_full[buf])


#: Per head dimension. Shared memory: Q 2 x 128 x D and the K/V ring NUM_KV x 128 x D (2 bytes); P is in tensor memory.
CONFIGS = {
    64: {"BLOCK_M": 256, "BLOCK_N": 128, "NUM_KV": 4},
    128: {"BLOCK_M": 256, "BLOCK_N": 128, "NUM_KV": 3},
}
NUM_WARPS = 4  # the correction task; the softmax brings 2 x 4 warps, the MMA and load tasks 2 each


def _spec(head_dim: int, causal: bool, dtype: str = "fp16") -> dict:
    cfg = CONFIGS[head_dim]
    split, bn = cfg["BLOCK_M"] // 2, cfg["BLOCK_N"]
    return {
        "kernel": blackwell_attention_kernel,
        "signature": {
            "q_desc": f"tensordesc<{dtype}[{split}, {head_dim}]>",
            "k_desc": f"tensordesc<{dtype}[{bn}, {head_dim}]>",
            "v_desc": f"tensordesc<{dtype}[{bn}, {head_dim}]>",
            "o_desc": f"tensordesc<{dtype}[{split}, {head_dim}]>",
            "N": "i32",
            "qk_scale": "fp32",
            "HEAD_DIM": "constexpr",
            "BLOCK_M": "constexpr",
            "BLOCK_N": "constexpr",
            "NUM_KV": "constexpr",
            "CAUSAL": "constexpr",
        },
        "constexprs": {**cfg, "HEAD_DIM": head_dim, "CAUSAL": causal},
        "num_warps": NUM_WARPS,
        "ptx": (
            "cp.async.bulk.tensor.2d.shared::cluster.global",
            "mbarrier.try_wait",
            "tcgen05.alloc",
            "tcgen05.mma.cta_group::1.kind::f16",
            "tcgen05.commit.cta_group::1.mbarrier::arrive::one",
            "tcgen05.ld.sync.aligned.32x32b",
            "tcgen05.st.sync.aligned.32x32b",
            "ex2.approx",
            "fence.proxy.async.shared::cta",
            "cp.async.bulk.tensor.2d.global.shared",
        ),
    }


SPEC = _spec(128, causal=False)
SPEC_CAUSAL_D64 = _spec(64, causal=True)
SPEC_BF16_D64 = _spec(64, causal=False, dtype="bf16")


def run(q: Any, k: Any, v: Any, causal: bool = False, sm_scale: float | None = None, out: Any = None) -> Any:
    """Attention forward, softmax(q @ k^T * sm_scale) @ v, for (B, H, N, D) fp16/bf16 CUDA tensors.

    The conventions of ``ws_attention.run`` (without its Hopper-only ``pingpong``): N a multiple of 128,
    D 64 or 128; the result goes to ``out`` when given (contiguous, q's shape and dtype), else to a new
    NaN-filled tensor. Compile-verified only: never run here (no Blackwell GPU)."""
    import torch
    from triton.tools.tensor_descriptor import TensorDescriptor

    batch, heads, n, d = q.shape
    if d not in CONFIGS:
        raise ValueError(f"head dim must be one of {sorted(CONFIGS)}, got {d}")
    if n % 128:
        raise ValueError(f"sequence length must be a multiple of 128, got {n}")
    if not (q.dtype == k.dtype == v.dtype) or q.dtype not in (torch.float16, torch.bfloat16):
        raise ValueError("q, k and v must all be float16 or all bfloat16")
    cfg = CONFIGS[d]
    sm_scale = 1.0 / math.sqrt(d) if sm_scale is None else sm_scale
    o = torch.full_like(q, float("nan")) if out is None else out
    if o.shape != q.shape or o.dtype != q.dtype or not o.is_contiguous():
        raise ValueError("out must be a contiguous tensor of q's shape and dtype")
    flat = [t.contiguous().view(batch * heads * n, d) for t in (q, k, v)]
    split = cfg["BLOCK_M"] // 2
    q_desc = TensorDescriptor.from_tensor(flat[0], [split, d])
    k_desc = TensorDescriptor.from_tensor(flat[1], [cfg["BLOCK_N"], d])
    v_desc = TensorDescriptor.from_tensor(flat[2], [cfg["BLOCK_N"], d])
    o_desc = TensorDescriptor.from_tensor(o.view(batch * heads * n, d), [split, d])
    grid = (triton.cdiv(n, cfg["BLOCK_M"]), batch * heads)
    blackwell_attention_kernel[grid](
        q_desc, k_desc, v_desc, o_desc, n, sm_scale * 1.4426950408889634, HEAD_DIM=d, CAUSAL=causal,
        num_warps=NUM_WARPS, **cfg,
    )  # fmt: skip
    return o
