"""Generalized dot-product attention (GDPA) forward on Blackwell (sm_100): jagged sequences, tanh-GELU, tcgen05.

**Compile-verified only**: there is no Blackwell GPU here. ``compile_tutorial(SPEC, arch=100)`` builds an
sm_100a cubin on the CPU (``python/test/test_blackwell_kernels.py``) and checks its PTX for
``tcgen05.mma``, ``tcgen05.ld``, ``tcgen05.commit``, ``tanh.approx.f32``, TMA and ``mbarrier.try_wait``. The
kernel has never run; ``run`` is its host code for a Blackwell GPU.

What is computed is the Hopper tutorial's (``gdpa.py``, whose host checks, ``reference``, ``make_inputs``
and ``flops`` this module reuses): sequences packed one after another into (total_tokens, H, D) tensors,
``offsets`` (int32, B + 1) saying where each starts, and for every sequence b and head h::

    out[b, h] = where(mask, act(Q[b, h] @ K[b, h]^T * sm_scale), 0) @ V[b, h]

with ``act`` the tanh-approximate GELU (or SiLU, or nothing) and no normalization: no running maximum, no
row sums and no rescaling of the accumulator, so unlike attention there is no correction task.

The kernel, in the structure of the public TLX Blackwell GDPA (``blackwell-gdpa.py``):

* **Grid**: (tiles of ``BLOCK_M = 256`` query rows of ``max_seq_len``, B * H). A CTA reads its sequence's
  bounds from ``offsets`` on the device and exits at once when its tile starts past the sequence. Its
  256 rows are two groups of 128 (one tcgen05 MMA has at most 128 rows).
* **load** (2 warps): Q of both groups, then K_j and V_j by TMA into one ring of ``NUM_KV`` shared buffers
  (K and V alternate), from host descriptors over the (total_tokens, H * D) views at column ``h * D``.
  Rows past the sequence are other tokens (or TMA's zero fill): finite, and masked out of P.
* **MMA** (2 warps): ``S_g = Q_g @ K_j^T`` into tensor memory (``tcgen05.mma``, completion on
  ``s_full[g]``), then ``O_g += P_g @ V_j`` into a tensor-memory accumulator (completion on ``o_done[g]``);
  after the last block ``tcgen05.commit`` on ``o_final``.
* **activation** (4 warps per group, ``replicate=2``, 192 registers per thread): S tensor memory ->
  registers (``tcgen05.ld``), S's buffer handed back at once (``s_empty[g]``), ``P = act(S * sm_scale)``
  (one ``tanh.approx.f32`` per score for GELU), masked only in the blocks that reach the sequence end or
  cross the diagonal (causal), then P to the MMA task.
* **epilogue** (the kernel's 4 warps, the default task): once ``o_final`` completes, O in column slices
  (``tcgen05.ld``) to the group's Q buffer (no MMA reads it any more) and a TMA store; the group that
  holds the sequence's last, partial rows uses a masked ``st.global`` instead, so that no row of the
  next sequence is overwritten.

**Where P goes: through shared memory.** The public kernel writes P over S's tensor-memory columns
(``local_alloc(..., reuse=)``), as ``blackwell_attention`` does here (``storage_alias_spec(storage=tmem)``);
this kernel keeps the shared-memory route: the activation stores P (``st.shared``, ``fence.proxy.async``) and
the P @ V MMA reads both operands from shared memory.

**The activation's constants are runtime scalars.** ``x * 0.5`` with a Python float makes a tensor
constant; the compiler hoists it out of the task and then recomputes it in every partition, the 2-warp
ones included, where its 4-warp layout is invalid (a compiler gap). So the activation takes its
coefficients as scalars computed from ``sm_scale`` (which also folds the scale into them).

Barriers per group g (one arrival per key block, phase ``j & 1``): ``s_full`` / ``s_empty`` (S handed to
the activation and back), ``p_full`` (P written), ``o_done`` (P_j @ V_j completed: P's buffer is free);
``o_final`` once. Tensor memory: two S (128 x 128 fp32) and two O (128 x D fp32): 512 columns at D = 128.
Shared memory at D = 128: Q 2 x 32 KiB, the K/V ring 2 x 32 KiB, P 2 x 32 KiB.
"""

from __future__ import annotations

import math
from typing import Any

import triton
import triton.language as tl

import tlx
from tlx.tutorials.gdpa import (  # noqa: F401  (re-exported: the host helpers are the Hopper tutorial's)
    ACTIVATION_PTX,
    ACTIVATIONS,
    _check_inputs,
    _output,
    _tanh_approx,
    flops,
    gdpa_key_blocks,
    gdpa_tile,
    jagged_lengths,
    make_inputs,
    offsets_of,
    reference,
    silu_of_half,
)

_GELU_C0 = tl.constexpr(0.7978845608028654)  # sqrt(2 / pi)
_GELU_W = tl.constexpr(math.sqrt(0.044715))  # sqrt(c1 / c0), c1 = c0 * 0.044715


@triton.jit
def _activation(s, sm_scale, ACTIVATION: tl.constexpr):
    """``act(s * sm_scale)`` in float32, with every coefficient a runtime scalar (see the module docstring).

    GELU (tanh form) ``h + h * tanh(c0 x + c1 x^3)`` with ``x = s * sm_scale`` and ``h = x / 2`` is
    ``h + h * tanh(u + u * w * w)`` with ``u = s * (c0 sm_scale)`` and ``w = s * (sqrt(c1 / c0) sm_scale)``:
    three multiplies by scalars, FMAs, one ``tanh.approx.f32``. SiLU: ``silu_of_half(x / 2)`` (Hopper's)."""
    if ACTIVATION == "gelu":
        h = s * (sm_scale * 0.5)
        u = s * (sm_scale * _GELU_C0)
        w = s * (sm_scale * _GELU_W)
        return h + h * _tanh_approx(u + u * w * w)
    elif ACTIVATION == "silu":
        return silu_of_half(s * (sm_scale * 0.5))
    else:
        return s * sm_scale


@triton.jit
def blackwell_gdpa_kernel(
    q_desc,
    k_desc,
    v_desc,
    o_desc,
    o_ptr,
    offsets_ptr,
    H,
    sm_scale,
    HEAD_DIM: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    NUM_KV: tl.constexpr,
    ACTIVATION: tl.constexpr,
    CAUSAL: tl.constexpr,
):
    """One (query tile, sequence, head): ``where(mask, act(Q K^T * sm_scale), 0) @ V`` for BLOCK_M rows.

    The descriptors view q, k, v, out as (total_tokens, H * HEAD_DIM); q's and out's boxes are
    (BLOCK_M / 2) x HEAD_DIM, k's and v's BLOCK_N x HEAD_DIM. ``o_ptr`` is out again, for the masked store
    of a sequence's last rows."""
    dtype = tlx.dtype_of(q_desc)
    GROUPS: tl.constexpr = 2
    SPLIT_M: tl.constexpr = BLOCK_M // GROUPS
    KV_BYTES: tl.constexpr = BLOCK_N * HEAD_DIM * 2
    O_SLICE: tl.constexpr = 64 if HEAD_DIM > 64 else HEAD_DIM  # columns of O the epilogue holds at once

    seq_start, seq_len, start_m, col = gdpa_tile(offsets_ptr, H, HEAD_DIM, BLOCK_M, CAUSAL)
    if start_m >= seq_len:
        return
    n_blocks, mask_from = gdpa_key_blocks(start_m, seq_len, BLOCK_M, BLOCK_N, CAUSAL)  # n_blocks >= 1

    q_tiles = tlx.local_alloc((SPLIT_M, HEAD_DIM), dtype, GROUPS)  # reused for each group's output
    kv_tiles = tlx.local_alloc((BLOCK_N, HEAD_DIM), dtype, NUM_KV)  # K_j at 2j, V_j at 2j + 1 (mod NUM_KV)
    p_tiles = tlx.local_alloc((SPLIT_M, BLOCK_N), dtype, GROUPS)
    s_tiles = tlx.local_alloc((SPLIT_M, BLOCK_N), tl.float32, GROUPS, storage=tlx.storage_kind.tmem)
    o_tiles = tlx.local_alloc((SPLIT_M, HEAD_DIM), tl.float32, GROUPS, storage=tlx.storage_kind.tmem)

    q_full = tlx.alloc_barriers(GROUPS)
    kv_full = tlx.alloc_barriers(NUM_KV)
    kv_empty = tlx.alloc_barriers(NUM_KV)
    s_full = tlx.alloc_barriers(GROUPS)
    s_empty = tlx.alloc_barriers(GROUPS)
    p_full = tlx.alloc_barriers(GROUPS)
    o_done = tlx.alloc_barriers(GROUPS)
    o_final = tlx.alloc_barriers(1)

    with tlx.async_tasks():
        with tlx.async_task("default"):  # epilogue
            tlx.barrier_wait(o_final[0], 0)
            for g in tl.static_range(GROUPS):
                row_in_seq = start_m + g * SPLIT_M
                if row_in_seq + SPLIT_M <= seq_len:
                    # Q_g's last reader, S = Q_g @ K^T of the last block, completed before o_final.
                    for c in tl.static_range(HEAD_DIM // O_SLICE):
                        out = tlx.local_load(tlx.subslice(o_tiles[g], c * O_SLICE, O_SLICE))
                        tlx.local_store(tlx.subslice(q_tiles[g], c * O_SLICE, O_SLICE), out.to(dtype))
                    tlx.fence_async_shared()
                    tlx.async_descriptor_store(o_desc, q_tiles[g], [seq_start + row_in_seq, col])
                elif row_in_seq < seq_len:
                    # The sequence's last rows: the descriptor would overwrite the next sequence's.
                    rows = row_in_seq + tl.arange(0, SPLIT_M)
                    for c in tl.static_range(HEAD_DIM // O_SLICE):
                        out = tlx.local_load(tlx.subslice(o_tiles[g], c * O_SLICE, O_SLICE))
                        cols = col + c * O_SLICE + tl.arange(0, O_SLICE)
                        offs = (seq_start + rows).to(tl.int64)[:, None] * (H * HEAD_DIM) + cols[None, :]
                        tl.store(o_ptr + offs, out.to(dtype), mask=rows[:, None] < seq_len)
            tlx.async_descriptor_store_wait(0)

        with tlx.async_task(num_warps=4, registers=192, replicate=GROUPS):  # activation, one per group
            g = tlx.async_task_replica_id()
            rows = start_m + g * SPLIT_M + tl.arange(0, SPLIT_M)
            zero = sm_scale * 0.0  # a runtime scalar: see the module docstring
            for j in range(n_blocks):
                tlx.barrier_wait(s_full[g], j & 1)
                s = tlx.local_load(s_tiles[g])
                tlx.barrier_arrive(s_empty[g])  # S_j is in registers: the next Q @ K^T may overwrite it
                p = _activation(s, sm_scale, ACTIVATION)
                if j >= mask_from:
                    # Keys past the sequence or above the diagonal contribute exactly 0.
                    cols = j * BLOCK_N + tl.arange(0, BLOCK_N)
                    keep = cols[None, :] < seq_len
                    if CAUSAL:
                        keep = keep & (rows[:, None] >= cols[None, :])
                    p = tl.where(keep, p, zero)
                if j > 0:
                    tlx.barrier_wait(o_done[g], (j - 1) & 1)  # P_{j-1} @ V_{j-1} has read P's buffer
                tlx.local_store(p_tiles[g], p.to(dtype))
                tlx.fence_async_shared()  # the tensor cores read P through the async proxy
                tlx.barrier_arrive(p_full[g])

        with tlx.async_task(num_warps=2, registers=24):  # MMA issuer
            for g in tl.static_range(GROUPS):
                tlx.barrier_wait(q_full[g], 0)
            for j in range(n_blocks):
                k_buf = (2 * j) % NUM_KV
                v_buf = (2 * j + 1) % NUM_KV
                tlx.barrier_wait(kv_full[k_buf], ((2 * j) // NUM_KV) & 1)
                k_t = tlx.local_trans(kv_tiles[k_buf])
                for g in tl.static_range(GROUPS):
                    tlx.barrier_wait(s_empty[g], (j & 1) ^ 1)  # the activation has read S_{j-1}
                    if g == GROUPS - 1:
                        tlx.async_dot(
                            q_tiles[g], k_t, s_tiles[g], use_acc=False, mBarriers=[s_full[g], kv_empty[k_buf]]
                        )
                    else:
                        tlx.async_dot(q_tiles[g], k_t, s_tiles[g], use_acc=False, mBarriers=[s_full[g]])
                tlx.barrier_wait(kv_full[v_buf], ((2 * j + 1) // NUM_KV) & 1)
                for g in tl.static_range(GROUPS):
                    tlx.barrier_wait(p_full[g], j & 1)
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
            # One arrival once every MMA above has completed: O is final (the epilogue cannot track
            # o_done's phases, which run ahead of it).
            tlx.tcgen05_commit(o_final[0])

        with tlx.async_task(num_warps=2, registers=24):  # TMA loads
            for g in tl.static_range(GROUPS):
                tlx.barrier_expect_bytes(q_full[g], SPLIT_M * HEAD_DIM * 2)
                tlx.async_descriptor_load(q_desc, q_tiles[g], [seq_start + start_m + g * SPLIT_M, col], q_full[g])
            for j in range(n_blocks):
                for which in tl.static_range(2):  # K_j, then V_j
                    i = 2 * j + which
                    buf = i % NUM_KV
                    tlx.barrier_wait(kv_empty[buf], ((i // NUM_KV) & 1) ^ 1)  # the first pass finds it free
                    tlx.barrier_expect_bytes(kv_full[buf], KV_BYTES)
                    if which == 0:
                        tlx.async_descriptor_load(k_desc, kv_tiles[buf], [seq_start + j * BLOCK_N, col], kv_full[buf])
                    else:
                        tlx.async_descriptor_load(v_desc, kv_tiles[buf], [seq_start + j * BLOCK_N, col], kv_full[buf])


#: Per head dimension. Shared memory: Q 2 x 128 x D, the K/V ring NUM_KV x 128 x D, P 2 x 128 x 128 (2 bytes).
CONFIGS = {
    64: {"BLOCK_M": 256, "BLOCK_N": 128, "NUM_KV": 4},
    128: {"BLOCK_M": 256, "BLOCK_N": 128, "NUM_KV": 2},
}
NUM_WARPS = 4  # the epilogue; the activation brings 2 x 4 warps, the MMA and load tasks 2 each


def _spec(head_dim: int, activation: str, causal: bool, dtype: str = "fp16") -> dict:
    cfg = CONFIGS[head_dim]
    split, bn = cfg["BLOCK_M"] // 2, cfg["BLOCK_N"]
    return {
        "kernel": blackwell_gdpa_kernel,
        "signature": {
            "q_desc": f"tensordesc<{dtype}[{split}, {head_dim}]>",
            "k_desc": f"tensordesc<{dtype}[{bn}, {head_dim}]>",
            "v_desc": f"tensordesc<{dtype}[{bn}, {head_dim}]>",
            "o_desc": f"tensordesc<{dtype}[{split}, {head_dim}]>",
            "o_ptr": f"*{dtype}",
            "offsets_ptr": "*i32",
            "H": "i32",
            "sm_scale": "fp32",
            "HEAD_DIM": "constexpr",
            "BLOCK_M": "constexpr",
            "BLOCK_N": "constexpr",
            "NUM_KV": "constexpr",
            "ACTIVATION": "constexpr",
            "CAUSAL": "constexpr",
        },
        "constexprs": {**cfg, "HEAD_DIM": head_dim, "ACTIVATION": activation, "CAUSAL": causal},
        "divisible_by_16": ("o_ptr", "offsets_ptr"),
        "num_warps": NUM_WARPS,
        "ptx": (
            "cp.async.bulk.tensor.2d.shared::cluster.global",
            "mbarrier.try_wait",
            "tcgen05.alloc",
            "tcgen05.mma.cta_group::1.kind::f16",
            "tcgen05.commit.cta_group::1.mbarrier::arrive::one",
            "tcgen05.ld.sync.aligned.32x32b",
            "fence.proxy.async.shared::cta",
            "cp.async.bulk.tensor.2d.global.shared",
            *ACTIVATION_PTX[activation],
        ),
    }


SPEC = _spec(128, "gelu", causal=False)
SPEC_GELU_CAUSAL_D64 = _spec(64, "gelu", causal=True, dtype="bf16")
SPEC_SILU_D64 = _spec(64, "silu", causal=False)


def run(
    q: Any,
    k: Any,
    v: Any,
    offsets: Any,
    max_seq_len: int,
    activation: str = "gelu",
    causal: bool = False,
    sm_scale: float | None = None,
    out: Any = None,
) -> Any:
    """GDPA forward on a Blackwell GPU: ``out[rows of b, h] = act(q @ k^T * sm_scale) @ v`` per sequence and head.

    The conventions of ``gdpa.run`` (without its Hopper-only ``pingpong``), checked by the same
    ``_check_inputs``: q, k, v (total_tokens, H, D) fp16/bf16 CUDA tensors, D in {64, 128}; ``offsets``
    int32 (B + 1) cumulative starts on q's device; ``max_seq_len`` at least the longest sequence; the
    result goes to ``out`` when given, else to a new NaN-filled tensor. Compile-verified only: never run
    here (no Blackwell GPU)."""
    _check_inputs("blackwell_gdpa", q, k, v, offsets, max_seq_len, activation)
    o = _output("blackwell_gdpa", q, out)
    total, heads, d = q.shape
    batch = offsets.numel() - 1
    if total == 0 or batch == 0 or max_seq_len == 0:
        return o
    from triton.tools.tensor_descriptor import TensorDescriptor

    cfg = CONFIGS[d]
    sm_scale = 1.0 / math.sqrt(d) if sm_scale is None else float(sm_scale)
    split = cfg["BLOCK_M"] // 2
    q2, k2, v2, o2 = (t.view(total, heads * d) for t in (q, k, v, o))
    q_desc = TensorDescriptor.from_tensor(q2, [split, d])
    k_desc = TensorDescriptor.from_tensor(k2, [cfg["BLOCK_N"], d])
    v_desc = TensorDescriptor.from_tensor(v2, [cfg["BLOCK_N"], d])
    o_desc = TensorDescriptor.from_tensor(o2, [split, d])
    grid = (triton.cdiv(max_seq_len, cfg["BLOCK_M"]), batch * heads)
    blackwell_gdpa_kernel[grid](
        q_desc, k_desc, v_desc, o_desc, o, offsets, heads, sm_scale, HEAD_DIM=d, ACTIVATION=activation,
        CAUSAL=causal, num_warps=NUM_WARPS, **cfg,
    )  # fmt: skip
    return o
