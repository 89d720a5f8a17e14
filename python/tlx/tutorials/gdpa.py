"""Generalized dot-product attention (GDPA) forward on Hopper: jagged sequences, an activation instead of softmax.

GDPA is the attention of Meta's recommendation models. Each user's history is a sequence of its own
length; the sequences are packed one after another ("jagged") into (total_tokens, H, D) tensors, and
``offsets`` (int32, B + 1 entries) says where each starts: sequence ``b`` is rows
``offsets[b]:offsets[b + 1]``. For every sequence b and head h::

    out[b, h] = act(Q[b, h] @ K[b, h]^T * sm_scale) @ V[b, h]

with ``act`` the tanh-approximate GELU, SiLU or nothing, and no normalization of the rows: unlike
softmax, every score is independent of the others. Causal GDPA lets query i see key j only when
i >= j; masked scores contribute exactly 0 (the activation of a masked score is not taken).

What that changes from FlashAttention (``ws_attention.py``, the model for this kernel): there is no
running row maximum, no row sum and no rescaling of the accumulator, so a block of keys is simply

    S = Q @ K^T  (wgmma)  ->  P = where(mask, act(S * sm_scale), 0)  (registers)  ->  O += P @ V  (wgmma)

and O is final after the last block. The activation is the work the tensor cores wait for, as the
softmax is in FlashAttention: GELU takes one ``tanh.approx.f32`` per score plus a few FMAs, SiLU (as
``h + h tanh(h)`` of ``h = x / 2``) one ``tanh.approx.f32``, a multiply and an FMA.

The kernel, top to bottom:

* **Grid**: (query tiles of ``max_seq_len``, B * H). A CTA takes ``BLOCK_M = 128`` query rows of one
  (sequence, head) and reads the sequence's bounds from ``offsets`` on the device (the host never
  synchronizes on them); a tile at or past the sequence's length exits at once. Causal CTAs start with
  the tiles that have the most keys, as in ``ws_attention``.
* **Operands**: host TMA descriptors over the 2-D views (total_tokens, H * D) of q, k and v, boxes at
  column ``h * D``. A tile whose rows run past its sequence reads the next sequence's rows (or zeros,
  past the tensor). Those keys are masked out of P, and their values meet a column of P that is exactly
  0, so they add nothing (the values are finite: they are other tokens or TMA's zero fill).
* **Producer** (the default task, 4 warps, few registers): Q once (one half per consumer), then K and V
  blocks into a ring of ``NUM_STAGES`` stages, each with a ``full`` mbarrier (TMA's transaction count)
  and an ``empty`` one (both consumers arrive). K and V have barriers of their own, so the consumers
  start ``Q @ K^T`` while V is still landing.
* **Two consumers** (4 warps each, 232 registers per thread) each own 64 query rows. ``P @ V`` of block
  j-1 is issued right after ``Q @ K^T`` of block j, so the tensor cores hold two GEMMs while the
  activation of block j runs. With ``PINGPONG`` the consumers also take turns issuing their GEMMs
  (named barriers), so one's activation overlaps the other's GEMMs.
* **Masks**: only the blocks that reach past the sequence end (the last one) or cross the diagonal
  (causal) compute the mask; the others take ``act(S * sm_scale)`` as is. Causal CTAs never load the key
  blocks wholly above the diagonal.
* **Epilogue**: a consumer whose 64 rows all lie inside the sequence stages them in its (now unused) Q
  buffer and stores them by TMA through the host descriptor of ``out``; the consumer holding the
  sequence's last rows stores them with a masked ``st.global`` instead, so no row of the next sequence
  is overwritten, and rows past every sequence (``out`` may be longer than ``offsets[B]``) are left as
  they are.

``gdpa_persistent_kernel`` runs the same pipeline as a persistent walk (one CTA per SM) over the real
tiles only: each task reads the offsets once, builds a prefix sum of the sequences' tiles and finds
each work unit's sequence in it, so no CTA is launched for the tiles past a sequence's end (``max_seq_len``
over-provisions the grid of ``gdpa_kernel``). Q is double-buffered per consumer (the next tile's Q lands
while the current one runs; the output is staged in the buffer its tile no longer reads), and causal
tiles go in pairs of equal work. ``run`` uses it for up to ``PERSISTENT_MAX_BATCH`` sequences, except where
the grid measured faster (``GRID_FIRST``: SiLU at D=128).

Requirements (``run`` raises ValueError otherwise): q, k, v contiguous (total_tokens, H, D) CUDA tensors,
all fp16 or all bf16, D 64 or 128; ``offsets`` a 1-D int32 tensor on the same device with B + 1 entries,
non-decreasing from 0 to at most total_tokens; ``max_seq_len`` at least every sequence's length (rows
past it are not computed: as with torch's jagged kernels, the caller vouches for it).
"""

from __future__ import annotations

import math
from typing import Any

import triton
import triton.language as tl

import tlx
from tlx.tutorials.ws_attention import (
    first_scores,
    last_pv,
    load_kv_block,
    load_q_double_buffered,
    packed_operand,
    scores_beside_pv,
)

_TURN_BARRIER = tl.constexpr(8)  # named barriers 8 and 9: the ping-pong turns (Triton's own use low ids)
_GELU_C0 = tl.constexpr(0.7978845608028654)  # sqrt(2 / pi)
_GELU_C1 = tl.constexpr(0.7978845608028654 * 0.044715)

ACTIVATIONS = ("gelu", "silu", "none")
#: What each activation puts in a kernel's PTX (the specs check it): its one multi-function-unit instruction per score.
ACTIVATION_PTX = {"gelu": ("tanh.approx.f32",), "silu": ("tanh.approx.f32",), "none": ()}


@triton.jit
def _tanh_approx(x):
    """One MUFU ``tanh.approx.f32`` per element (relative error about 2^-11, below bf16's rounding)."""
    return tl.inline_asm_elementwise("tanh.approx.f32 $0, $1;", "=f,f", [x], dtype=tl.float32, is_pure=True, pack=1)


@triton.jit
def silu_of_half(h):
    """SiLU of ``x = 2 h``: ``x sigmoid(x) = h + h tanh(h)``, one ``tanh.approx.f32`` and one FMA per score.
    ``x / (1 + 2^(-x log2 e))`` takes two multi-function-unit instructions (``ex2`` and the division's
    reciprocal): on the H200 it ran 1.08-1.50x as long, in this kernel and in stock Triton alike."""
    return h + h * _tanh_approx(h)


@triton.jit
def _output_scale(sm_scale, ACTIVATION: tl.constexpr, SCALE_AT_OUTPUT: tl.constexpr):
    """The factor ``_activation`` leaves out of every score when ``SCALE_AT_OUTPUT``, which the output tile
    takes once instead (``P @ V`` is linear in P); else 1."""
    if not SCALE_AT_OUTPUT:
        return 1.0
    elif ACTIVATION == "none":
        return sm_scale
    else:
        return sm_scale * 0.5


@triton.jit
def _activation(s, sm_scale, ACTIVATION: tl.constexpr, SCALE_AT_OUTPUT: tl.constexpr):
    """``act(s * sm_scale) / _output_scale(sm_scale, ACTIVATION, SCALE_AT_OUTPUT)`` in float32.

    With ``x = s * sm_scale = 2 a s``: GELU (tanh form), ``0.5 x (1 + tanh(c0 x + c1 x^3))``, is
    ``h + h tanh(x (c0 + c1 x^2))`` with ``h = x / 2`` (FMAs around one ``tanh.approx.f32``, seven
    instructions per score), or, with the factor ``a`` left to the output tile, ``s + s tanh(s (k0 + k1 s^2))``
    with ``k0 = 2 c0 a`` and ``k1 = 8 c1 a^3`` (five). SiLU is ``silu_of_half(a s)``, or ``silu_of_half(s)``
    over ``a`` with the factor at the output when ``tanh`` takes ``a s``. None: ``x``, or ``s``.

    The fold saves issue slots in the score loop, which bound GDPA at D=64 (1.07-1.15x on the H200); at
    D=128 GELU it ran 0.87-0.92x with fewer instructions, so ``CONFIGS`` picks it per head dimension."""
    if SCALE_AT_OUTPUT:
        if ACTIVATION == "gelu":
            a = sm_scale * 0.5
            return s + s * _tanh_approx(s * (2 * _GELU_C0 * a + 8 * _GELU_C1 * (a * a * a) * (s * s)))
        elif ACTIVATION == "silu":
            return s + s * _tanh_approx(s * (sm_scale * 0.5))
        else:
            return s
    else:
        x = s * sm_scale
        if ACTIVATION == "gelu":
            half = x * 0.5
            return half + half * _tanh_approx(x * (_GELU_C0 + _GELU_C1 * (x * x)))
        elif ACTIVATION == "silu":
            return silu_of_half(s * (sm_scale * 0.5))
        else:
            return x


@triton.jit
def gdpa_tile(offsets_ptr, H, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, CAUSAL: tl.constexpr):
    """This program's (query tile, sequence, head): ``(seq_start, seq_len, start_m, col)``, the sequence's
    first row and length, the tile's first row in it and the head's first column of the (tokens, H * D)
    views. Causal tiles differ in work: the CTAs launched first take the longest rows."""
    pid_bh = tl.program_id(1)
    batch = pid_bh // H
    seq_start = tl.load(offsets_ptr + batch)
    seq_len = tl.load(offsets_ptr + batch + 1) - seq_start
    pid_m = tl.num_programs(0) - 1 - tl.program_id(0) if CAUSAL else tl.program_id(0)
    return seq_start, seq_len, pid_m * BLOCK_M, (pid_bh % H) * HEAD_DIM


@triton.jit
def gdpa_key_blocks(start_m, seq_len, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr):
    """``(n_blocks, mask_from)``: the key blocks a tile starting at ``start_m`` reads (none wholly above the
    diagonal), and the first that needs the mask (it crosses the diagonal, or holds the sequence end)."""
    if CAUSAL:
        kv_end = tl.minimum(start_m + BLOCK_M, seq_len)
        mask_from = start_m // BLOCK_N
    else:
        kv_end = seq_len
        mask_from = seq_len // BLOCK_N
    return tl.cdiv(kv_end, BLOCK_N), mask_from


@triton.jit
def _p_block(s, j, rows, seq_len, mask_from, sm_scale, dtype: tl.constexpr, BLOCK_N: tl.constexpr,
             ACTIVATION: tl.constexpr, CAUSAL: tl.constexpr, SCALE_AT_OUTPUT: tl.constexpr,
             PACKED: tl.constexpr = False):  # fmt: skip
    """P of key block ``j`` for the query ``rows`` (sequence-relative), in the input dtype for wgmma.

    Blocks from ``mask_from`` on may hold keys past the sequence or above the diagonal: those entries are
    exactly 0 (``tl.where`` after the activation, so a masked score's activation never matters)."""
    p = _activation(s, sm_scale, ACTIVATION, SCALE_AT_OUTPUT)
    if j >= mask_from:
        cols = j * BLOCK_N + tl.arange(0, BLOCK_N)
        keep = cols[None, :] < seq_len
        if CAUSAL:
            keep = keep & (rows[:, None] >= cols[None, :])
        p = tl.where(keep, p, 0.0)
    if PACKED:
        return packed_operand(p, dtype)
    return p.to(dtype)


@triton.jit
def _store_rows(o_desc, o_ptr, o_tile, acc, row_in_seq, seq_start, seq_len, col, row_stride,
                HALF_M: tl.constexpr, HEAD_DIM: tl.constexpr, WAIT: tl.constexpr = True):  # fmt: skip
    """Store one consumer's ``HALF_M x HEAD_DIM`` output rows starting at ``row_in_seq`` of the sequence.

    Rows wholly inside the sequence: registers -> this consumer's Q buffer -> TMA store
    (``cp.async.bulk.tensor``), waited for unless ``WAIT`` is False (the caller waits before reusing
    ``o_tile``). The sequence's last, partial tile: ``st.global`` masked at the sequence end, since the
    host descriptor would write the next sequence's rows."""
    out = acc.to(tlx.dtype_of(o_desc))
    if row_in_seq + HALF_M <= seq_len:
        tlx.local_store(o_tile, out)
        tlx.fence_async_shared()
        tlx.async_descriptor_store(o_desc, o_tile, [seq_start + row_in_seq, col])
        if WAIT:
            tlx.async_descriptor_store_wait(0)
    else:
        rows = row_in_seq + tl.arange(0, HALF_M)
        cols = tl.arange(0, HEAD_DIM)
        offsets = (seq_start + rows).to(tl.int64)[:, None] * row_stride + (col + cols)[None, :]
        tl.store(o_ptr + offsets, out, mask=rows[:, None] < seq_len)


@triton.jit
def gdpa_kernel(
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
    NUM_STAGES: tl.constexpr,
    ACTIVATION: tl.constexpr,
    CAUSAL: tl.constexpr,
    PINGPONG: tl.constexpr,
    SCALE_AT_OUTPUT: tl.constexpr = False,
):
    """One (query tile, sequence, head): ``out = where(mask, act(Q K^T * sm_scale), 0) @ V`` for BLOCK_M rows.

    The descriptors view q, k, v, out as (total_tokens, H * HEAD_DIM); q's and out's boxes are
    (BLOCK_M / 2) x HEAD_DIM (one per consumer), k's and v's BLOCK_N x HEAD_DIM. ``o_ptr`` is out again,
    for the masked store of a sequence's last rows."""
    dtype = tlx.dtype_of(q_desc)
    HALF_M: tl.constexpr = BLOCK_M // 2
    KV_BYTES: tl.constexpr = BLOCK_N * HEAD_DIM * 2

    seq_start, seq_len, start_m, col = gdpa_tile(offsets_ptr, H, HEAD_DIM, BLOCK_M, CAUSAL)
    if start_m >= seq_len:
        return
    n_blocks, mask_from = gdpa_key_blocks(start_m, seq_len, BLOCK_M, BLOCK_N, CAUSAL)  # n_blocks >= 1

    q_tiles = tlx.local_alloc((HALF_M, HEAD_DIM), dtype, 2)  # one per consumer; reused for its output
    k_tiles = tlx.local_alloc((BLOCK_N, HEAD_DIM), dtype, NUM_STAGES)
    v_tiles = tlx.local_alloc((BLOCK_N, HEAD_DIM), dtype, NUM_STAGES)
    q_full = tlx.alloc_barriers(2)
    k_full = tlx.alloc_barriers(NUM_STAGES)
    v_full = tlx.alloc_barriers(NUM_STAGES)
    k_empty = tlx.alloc_barriers(NUM_STAGES, arrive_count=2)  # both consumers read every block
    v_empty = tlx.alloc_barriers(NUM_STAGES, arrive_count=2)

    with tlx.async_tasks():
        with tlx.async_task("default"):
            for half in tl.static_range(2):
                tlx.barrier_expect_bytes(q_full[half], HALF_M * HEAD_DIM * 2)
                tlx.async_descriptor_load(
                    q_desc, q_tiles[half], [seq_start + start_m + half * HALF_M, col], q_full[half]
                )
            for j in range(n_blocks):
                load_kv_block(k_desc, v_desc, k_tiles, v_tiles, k_full, v_full, k_empty, v_empty, j,
                              seq_start + j * BLOCK_N, col, NUM_STAGES, NUM_STAGES, KV_BYTES)  # fmt: skip

        with tlx.async_task(num_warps=4, registers=232, replicate=2):
            cid = tlx.async_task_replica_id()
            q_tile = q_tiles[cid]
            row_in_seq = start_m + cid * HALF_M
            rows = row_in_seq + tl.arange(0, HALF_M)
            acc = tl.zeros((HALF_M, HEAD_DIM), dtype=tl.float32)
            tlx.barrier_wait(q_full[cid], 0)

            # Block 0: S and P only; its P @ V goes out with the next block's Q @ K^T.
            if PINGPONG:
                if cid == 1:
                    tlx.named_barrier_wait(_TURN_BARRIER + 1, 256)
            tlx.barrier_wait(k_full[0], 0)
            s_ij = tlx.async_dot(q_tile, tlx.local_trans(k_tiles[0]), use_acc=False)
            if PINGPONG:
                tlx.named_barrier_arrive(_TURN_BARRIER + 1 - cid, 256)
            s_ij = tlx.async_dot_wait(0, s_ij)
            tlx.barrier_arrive(k_empty[0])
            p = _p_block(
                s_ij, 0, rows, seq_len, mask_from, sm_scale, dtype, BLOCK_N, ACTIVATION, CAUSAL, SCALE_AT_OUTPUT
            )

            for j in range(1, n_blocks):
                s = j % NUM_STAGES
                prev = (j - 1) % NUM_STAGES
                if PINGPONG:
                    tlx.named_barrier_wait(_TURN_BARRIER + cid, 256)
                tlx.barrier_wait(k_full[s], (j // NUM_STAGES) & 1)
                s_ij = tlx.async_dot(q_tile, tlx.local_trans(k_tiles[s]), use_acc=False)
                tlx.barrier_wait(v_full[prev], ((j - 1) // NUM_STAGES) & 1)
                acc = tlx.async_dot(p, v_tiles[prev], acc)
                if PINGPONG:
                    tlx.named_barrier_arrive(_TURN_BARRIER + 1 - cid, 256)
                # S of block j is done (P @ V of block j-1 may still run): the activation overlaps it.
                s_ij = tlx.async_dot_wait(1, s_ij)
                tlx.barrier_arrive(k_empty[s])
                p = _p_block(
                    s_ij, j, rows, seq_len, mask_from, sm_scale, dtype, BLOCK_N, ACTIVATION, CAUSAL, SCALE_AT_OUTPUT
                )
                # P @ V of block j-1 read the previous P's registers and V stage: both are free after it.
                acc = tlx.async_dot_wait(0, acc)
                tlx.barrier_arrive(v_empty[prev])

            # The last block's P @ V.
            last = n_blocks - 1
            if PINGPONG:
                tlx.named_barrier_wait(_TURN_BARRIER + cid, 256)
            tlx.barrier_wait(v_full[last % NUM_STAGES], (last // NUM_STAGES) & 1)
            acc = tlx.async_dot(p, v_tiles[last % NUM_STAGES], acc)
            if PINGPONG:
                if cid == 0:
                    tlx.named_barrier_arrive(_TURN_BARRIER + 1, 256)
            acc = tlx.async_dot_wait(0, acc)
            tlx.barrier_arrive(v_empty[last % NUM_STAGES])

            if row_in_seq < seq_len:
                out = acc * _output_scale(sm_scale, ACTIVATION, SCALE_AT_OUTPUT)
                _store_rows(o_desc, o_ptr, q_tile, out, row_in_seq, seq_start, seq_len, col, H * HEAD_DIM, HALF_M,
                            HEAD_DIM)  # fmt: skip


@triton.jit
def units_per_head(num_m, CAUSAL: tl.constexpr):
    """Work units of a head of ``num_m`` query blocks in the persistent walk of a sequence (see ``work_unit``)."""
    return (num_m + 1) // 2 if CAUSAL else num_m


@triton.jit
def work_unit(unit, num_m, CAUSAL: tl.constexpr):
    """``(head, first_m, second_m, tiles)`` of a work unit of a sequence's persistent walk over heads of
    ``num_m`` query blocks: the query blocks it takes, in order, and how many (1 or 2).

    Units go head by head (the CTAs working at once share a few heads' keys and values in L2). A
    non-causal unit is one query block. A causal unit pairs query block ``num_m - 1 - p`` with block ``p``
    (the middle block alone when ``num_m`` is odd), so every unit reads ``num_m + 1`` key blocks and a
    static round-robin over units is balanced; the longer tile goes first."""
    per_head = units_per_head(num_m, CAUSAL)
    head = unit // per_head
    p = unit - head * per_head
    if CAUSAL:
        return head, num_m - 1 - p, p, 2 - (2 * p + 1 == num_m)
    else:
        return head, p, 0, 1


@triton.jit
def _sequence_table(offsets_ptr, B, H, BLOCK_M: tl.constexpr, BLOCK_B: tl.constexpr, CAUSAL: tl.constexpr):
    """Per sequence (a ``BLOCK_B``-wide vector, ``B`` of it used): first row, length, and the end of its
    work units in the persistent walk (an inclusive prefix sum of ``H`` times its units per head, see
    ``_walk_unit``)."""
    index = tl.arange(0, BLOCK_B)
    starts = tl.load(offsets_ptr + index, mask=index < B, other=0)
    lengths = tl.load(offsets_ptr + index + 1, mask=index < B, other=0) - starts
    return starts, lengths, tl.cumsum(H * units_per_head((lengths + BLOCK_M - 1) // BLOCK_M, CAUSAL), 0)


@triton.jit
def _walk_unit(unit, starts, lengths, unit_ends, H, BLOCK_M: tl.constexpr, BLOCK_B: tl.constexpr,
               HEAD_DIM: tl.constexpr, CAUSAL: tl.constexpr):  # fmt: skip
    """``(seq_start, seq_len, first_m, second_m, tiles, col)`` of the walk's ``unit``-th work unit: sequence
    by sequence, and within a sequence by ``work_unit`` (causal tiles in pairs of equal work).
    ``first_m``/``second_m`` are first rows of the tiles in the sequence."""
    pick = tl.arange(0, BLOCK_B) == tl.sum((unit_ends <= unit).to(tl.int32), 0)
    seq_start = tl.sum(tl.where(pick, starts, 0), 0)
    seq_len = tl.sum(tl.where(pick, lengths, 0), 0)
    m_tiles = tl.cdiv(seq_len, BLOCK_M)
    first_unit = tl.sum(tl.where(pick, unit_ends, 0), 0) - H * units_per_head(m_tiles, CAUSAL)
    head, first_m, second_m, tiles = work_unit(unit - first_unit, m_tiles, CAUSAL)
    return seq_start, seq_len, first_m * BLOCK_M, second_m * BLOCK_M, tiles, head * HEAD_DIM


@triton.jit
def gdpa_persistent_kernel(
    q_desc,
    k_desc,
    v_desc,
    o_desc,
    o_ptr,
    offsets_ptr,
    B,
    H,
    sm_scale,
    HEAD_DIM: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    NUM_STAGES: tl.constexpr,
    ACTIVATION: tl.constexpr,
    CAUSAL: tl.constexpr,
    BLOCK_B: tl.constexpr,
    SCALE_AT_OUTPUT: tl.constexpr = False,
    P0_PACKED: tl.constexpr = False,
):
    """``gdpa_kernel`` as a persistent walk: one CTA per SM takes every ``num_programs``-th work unit of
    the sequences' real tiles (``_walk_unit``; no CTA for the tiles past a sequence's end, which the grid
    of ``gdpa_kernel`` launches and retires at once). Every task reads the B + 1 offsets once and finds
    each unit's sequence by a prefix sum (``_sequence_table``, ``B <= BLOCK_B``).

    Each consumer has two Q buffers: the next tile's Q loads while the current tile runs, and a tile's
    output is staged for its TMA store in its own Q buffer, handed back to the producer once the store
    has read it (checked after the next tile's first ``Q @ K^T``). The key/value ring and the consumers'
    turns continue from tile to tile.

    ``SCALE_AT_OUTPUT``: the activation's factor is taken once by the output tile (``_activation``).
    ``P0_PACKED``: block 0's P is converted by ``packed_operand``, which removes consumer 0's 32 ``PRMT`` per
    key block (LLVM folds block 0's conversion into the loop's phi); off by default: 0.985-1.07x on the H200,
    the gain with SiLU at D=128 only (docs/results/2026-12-05-h200-peel-gdpa.md)."""
    dtype = tlx.dtype_of(q_desc)
    CONSUMERS: tl.constexpr = 2
    HALF_M: tl.constexpr = BLOCK_M // CONSUMERS
    KV_BYTES: tl.constexpr = BLOCK_N * HEAD_DIM * 2

    q_tiles = tlx.local_alloc((HALF_M, HEAD_DIM), dtype, 2 * CONSUMERS)  # consumer c, tile t: [2 * c + t % 2]
    k_tiles = tlx.local_alloc((BLOCK_N, HEAD_DIM), dtype, NUM_STAGES)
    v_tiles = tlx.local_alloc((BLOCK_N, HEAD_DIM), dtype, NUM_STAGES)
    q_full = tlx.alloc_barriers(2 * CONSUMERS)
    q_empty = tlx.alloc_barriers(2 * CONSUMERS)
    k_full = tlx.alloc_barriers(NUM_STAGES)
    v_full = tlx.alloc_barriers(NUM_STAGES)
    k_empty = tlx.alloc_barriers(NUM_STAGES, arrive_count=CONSUMERS)  # every consumer reads every block
    v_empty = tlx.alloc_barriers(NUM_STAGES, arrive_count=CONSUMERS)

    first_unit = tl.program_id(0)
    num_programs = tl.num_programs(0)

    with tlx.async_tasks():
        with tlx.async_task("default"):
            starts, lengths, unit_ends = _sequence_table(offsets_ptr, B, H, BLOCK_M, BLOCK_B, CAUSAL)
            num_units = tl.max(unit_ends, 0)
            t = 0  # tiles so far: which Q buffer, and its phase
            kv = 0  # key/value blocks so far: the ring's position
            for unit in range(first_unit, num_units, num_programs):
                seq_start, seq_len, first_m, second_m, tiles, col = _walk_unit(
                    unit, starts, lengths, unit_ends, H, BLOCK_M, BLOCK_B, HEAD_DIM, CAUSAL
                )
                for w in range(tiles):
                    start_m = first_m if w == 0 else second_m
                    n_blocks, _ = gdpa_key_blocks(start_m, seq_len, BLOCK_M, BLOCK_N, CAUSAL)
                    load_q_double_buffered(
                        q_desc, q_tiles, q_full, q_empty, t, seq_start + start_m, col, HALF_M, HEAD_DIM, CONSUMERS
                    )
                    for j in range(n_blocks):
                        load_kv_block(k_desc, v_desc, k_tiles, v_tiles, k_full, v_full, k_empty, v_empty, kv,
                                      seq_start + j * BLOCK_N, col, NUM_STAGES, NUM_STAGES, KV_BYTES)  # fmt: skip
                        kv += 1
                    t += 1

        with tlx.async_task(num_warps=4, registers=232, replicate=CONSUMERS):
            cid = tlx.async_task_replica_id()
            starts, lengths, unit_ends = _sequence_table(offsets_ptr, B, H, BLOCK_M, BLOCK_B, CAUSAL)
            num_units = tl.max(unit_ends, 0)
            t = 0
            kv = 0
            for unit in range(first_unit, num_units, num_programs):
                seq_start, seq_len, first_m, second_m, tiles, col = _walk_unit(
                    unit, starts, lengths, unit_ends, H, BLOCK_M, BLOCK_B, HEAD_DIM, CAUSAL
                )
                last_unit = unit + num_programs >= num_units
                for w in range(tiles):
                    start_m = first_m if w == 0 else second_m
                    n_blocks, mask_from = gdpa_key_blocks(start_m, seq_len, BLOCK_M, BLOCK_N, CAUSAL)
                    q = 2 * cid + t % 2
                    q_tile = q_tiles[q]
                    row_in_seq = start_m + cid * HALF_M
                    rows = row_in_seq + tl.arange(0, HALF_M)
                    acc = tl.zeros((HALF_M, HEAD_DIM), dtype=tl.float32)
                    tlx.barrier_wait(q_full[q], (t // 2) & 1)

                    # Block 0: S and P only. The consumers alternate issuing across tiles too.
                    s_ij = first_scores(q_tile, k_tiles, k_full, k_empty, q_empty, kv, t, q, cid, NUM_STAGES, CONSUMERS)
                    p = _p_block(s_ij, 0, rows, seq_len, mask_from, sm_scale, dtype, BLOCK_N, ACTIVATION, CAUSAL,
                                 SCALE_AT_OUTPUT, P0_PACKED)  # fmt: skip
                    kv += 1

                    for j in range(1, n_blocks):
                        s_ij, acc = scores_beside_pv(q_tile, k_tiles, v_tiles, k_full, v_full, k_empty, p, acc, kv,
                                                     cid, NUM_STAGES, NUM_STAGES, CONSUMERS)  # fmt: skip
                        p = _p_block(s_ij, j, rows, seq_len, mask_from, sm_scale, dtype, BLOCK_N, ACTIVATION, CAUSAL,
                                     SCALE_AT_OUTPUT)  # fmt: skip
                        # P @ V of block j-1 read the previous P's registers and V stage: both are free after it.
                        acc = tlx.async_dot_wait(0, acc)
                        tlx.barrier_arrive(v_empty[(kv - 1) % NUM_STAGES])
                        kv += 1

                    pass_turn = cid < CONSUMERS - 1 or not last_unit or w + 1 < tiles
                    acc = last_pv(v_tiles, v_full, v_empty, p, acc, kv, cid, pass_turn, NUM_STAGES, CONSUMERS)

                    if row_in_seq < seq_len:
                        # No Q @ K^T reads this tile's Q buffer any more: it stages the output.
                        out = acc * _output_scale(sm_scale, ACTIVATION, SCALE_AT_OUTPUT)
                        _store_rows(o_desc, o_ptr, q_tile, out, row_in_seq, seq_start, seq_len, col, H * HEAD_DIM,
                                    HALF_M, HEAD_DIM, False)  # fmt: skip
                    t += 1
            tlx.async_descriptor_store_wait(0)


#: Tiles per head dimension. Shared memory: Q 2 x 64 rows, K and V NUM_STAGES x BLOCK_N rows each, plus
#: Triton's 2 x 8 KiB for the masked store's layout change: 176 KiB at D = 128, 128 KiB at D = 64.
#: ``SCALE_AT_OUTPUT`` where it measured faster (``_activation``).
CONFIGS = {
    64: {"BLOCK_M": 128, "BLOCK_N": 128, "NUM_STAGES": 3, "SCALE_AT_OUTPUT": True},
    128: {"BLOCK_M": 128, "BLOCK_N": 128, "NUM_STAGES": 2, "SCALE_AT_OUTPUT": False},
}
NUM_WARPS = 4  # the producer; each consumer brings 4 more


def _spec(head_dim: int, activation: str, causal: bool, dtype: str = "fp16", pingpong: bool = True) -> dict:
    cfg = CONFIGS[head_dim]
    half, bn = cfg["BLOCK_M"] // 2, cfg["BLOCK_N"]
    return {
        "kernel": gdpa_kernel,
        "signature": {
            "q_desc": f"tensordesc<{dtype}[{half}, {head_dim}]>",
            "k_desc": f"tensordesc<{dtype}[{bn}, {head_dim}]>",
            "v_desc": f"tensordesc<{dtype}[{bn}, {head_dim}]>",
            "o_desc": f"tensordesc<{dtype}[{half}, {head_dim}]>",
            "o_ptr": f"*{dtype}",
            "offsets_ptr": "*i32",
            "H": "i32",
            "sm_scale": "fp32",
            "HEAD_DIM": "constexpr",
            "BLOCK_M": "constexpr",
            "BLOCK_N": "constexpr",
            "NUM_STAGES": "constexpr",
            "ACTIVATION": "constexpr",
            "CAUSAL": "constexpr",
            "PINGPONG": "constexpr",
            "SCALE_AT_OUTPUT": "constexpr",
        },
        "constexprs": {**cfg, "HEAD_DIM": head_dim, "ACTIVATION": activation, "CAUSAL": causal, "PINGPONG": pingpong},
        "divisible_by_16": ("o_ptr", "offsets_ptr"),
        "num_warps": NUM_WARPS,
        "ptx": (
            "cp.async.bulk.tensor.2d.shared::cluster.global",
            "mbarrier.try_wait",
            "wgmma.mma_async",
            "wgmma.wait_group.sync.aligned 1",
            "setmaxnreg.inc.sync.aligned.u32",
            "setmaxnreg.dec.sync.aligned.u32",
            "cp.async.bulk.tensor.2d.global.shared",
            *(("bar.sync", "bar.arrive") if pingpong else ()),  # the consumers' turns
            *ACTIVATION_PTX[activation],
        ),
    }


def _persistent_spec(head_dim: int, activation: str, causal: bool, dtype: str = "fp16") -> dict:
    spec = _spec(head_dim, activation, causal, dtype)
    signature = {}
    for name, kind in spec["signature"].items():
        if name == "H":
            signature["B"] = "i32"
        if name != "PINGPONG":
            signature[name] = kind
    constexprs = {name: value for name, value in spec["constexprs"].items() if name != "PINGPONG"}
    return {**spec, "kernel": gdpa_persistent_kernel, "signature": {**signature, "BLOCK_B": "constexpr"},
            "constexprs": {**constexprs, "BLOCK_B": 64}}  # fmt: skip


SPEC = _spec(128, "gelu", causal=False)
SPEC_SILU_CAUSAL_D64 = _spec(64, "silu", causal=True)
SPEC_NONE_BF16_D128 = _spec(128, "none", causal=True, dtype="bf16")
SPEC_GELU_D64_NO_PINGPONG = _spec(64, "gelu", causal=False, dtype="bf16", pingpong=False)
SPEC_PERSISTENT = _persistent_spec(128, "gelu", causal=False)
SPEC_PERSISTENT_SILU_CAUSAL_D64 = _persistent_spec(64, "silu", causal=True, dtype="bf16")

#: The persistent walk keeps the sequence table in registers: up to this many sequences.
PERSISTENT_MAX_BATCH = 1024
#: (activation, head_dim) whose grid kernel runs faster than the persistent walk on jagged batches (bf16, B=64,
#: lengths 128..4096): SiLU at D=128, 0.88x non-causal and 0.97x causal for the walk on an H100
#: (docs/results/2026-12-07-session42.md), 0.92x non-causal on the H200 (2026-12-05-h200-session18.md). Every
#: other activation and head dimension measured 1.00-1.30x for the walk.
GRID_FIRST = {("silu", 128)}


def default_persistent(batch: int, heads: int, head_dim: int, activation: str, pingpong: bool = True) -> bool:
    """Whether ``run`` takes ``gdpa_persistent_kernel`` when not told: wherever the walk applies (ping-pong,
    at most ``PERSISTENT_MAX_BATCH`` sequences), unless ``GRID_FIRST`` has the problem and the grid can
    take it (B * H programs within the grid's second dimension)."""
    if not pingpong or batch > PERSISTENT_MAX_BATCH:
        return False
    return (activation, head_dim) not in GRID_FIRST or batch * heads > 65535


def _check_inputs(
    what: str, q: Any, k: Any, v: Any, offsets: Any, max_seq_len: int, activation: str, grid: bool = True
) -> None:
    """Shapes, dtypes and placement only: ``offsets`` stays on the device (no host synchronization).

    Works on anything with ``shape``, ``dtype``, ``device``, ``dim()``, ``numel()`` and ``is_contiguous()``
    (the CPU tests pass stand-ins)."""
    if activation not in ACTIVATIONS:
        raise ValueError(f"{what}: activation must be one of {ACTIVATIONS}, got {activation!r}")
    dtypes = {str(t.dtype) for t in (q, k, v)}
    if len(dtypes) != 1 or dtypes.pop() not in ("torch.float16", "torch.bfloat16"):
        raise ValueError(f"{what}: q, k and v must all be float16 or all bfloat16, got {q.dtype}, {k.dtype}, {v.dtype}")
    if q.dim() != 3:
        raise ValueError(f"{what}: q must be (total_tokens, heads, head_dim), got a {q.dim()}-D tensor")
    if tuple(k.shape) != tuple(q.shape) or tuple(v.shape) != tuple(q.shape):
        raise ValueError(
            f"{what}: q, k and v must have one shape, got {tuple(q.shape)}, {tuple(k.shape)}, {tuple(v.shape)}"
        )
    if q.shape[2] not in CONFIGS:
        raise ValueError(f"{what}: head_dim must be one of {sorted(CONFIGS)}, got {q.shape[2]}")
    if not all(t.is_contiguous() for t in (q, k, v)):
        raise ValueError(f"{what}: q, k and v must be contiguous")
    if not (str(q.device) == str(k.device) == str(v.device)) or not str(q.device).startswith("cuda"):
        raise ValueError(f"{what}: q, k and v must be on one CUDA device, got {q.device}, {k.device}, {v.device}")
    if str(offsets.dtype) != "torch.int32" or offsets.dim() != 1 or str(offsets.device) != str(q.device):
        raise ValueError(
            f"{what}: offsets must be a 1-D int32 tensor on {q.device} (B + 1 cumulative sequence starts), "
            f"got {offsets.dtype} {tuple(offsets.shape)} on {offsets.device}"
        )
    if offsets.numel() < 1:
        raise ValueError(f"{what}: offsets must have B + 1 >= 1 entries (offsets[0] = 0), got none")
    if isinstance(max_seq_len, bool) or not isinstance(max_seq_len, int) or max_seq_len < 0:
        raise ValueError(f"{what}: max_seq_len must be a non-negative int, got {max_seq_len!r}")
    if grid:
        _check_grid(what, offsets.numel() - 1, q.shape[1])


def _check_grid(what: str, batch: int, heads: int) -> None:
    """The (query tiles, B * H) grid's limit; a persistent launch has no second dimension."""
    if batch * heads > 65535:
        raise ValueError(f"{what}: B * H = {batch * heads} exceeds 65535, the grid's limit on its second dimension")


def _output(what: str, q: Any, out: Any) -> Any:
    import torch

    o = torch.full_like(q, float("nan")) if out is None else out
    if tuple(o.shape) != tuple(q.shape) or o.dtype != q.dtype or o.device != q.device or not o.is_contiguous():
        raise ValueError(f"{what}: out must be a contiguous {tuple(q.shape)} tensor of {q.dtype} on {q.device}")
    return o


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
    pingpong: bool = True,
    config: dict | None = None,
    persistent: bool | None = None,
) -> Any:
    """GDPA forward: ``out[rows of b, h] = act(q @ k^T * sm_scale) @ v`` per sequence b and head h.

    q, k, v: (total_tokens, H, D) fp16/bf16 CUDA tensors, D in {64, 128}; ``offsets``: int32 (B + 1)
    cumulative sequence starts on q's device; ``max_seq_len``: at least the longest sequence's length;
    ``activation``: "gelu" (tanh form), "silu" or "none"; ``sm_scale`` defaults to 1 / sqrt(D). The
    result goes to ``out`` when given (rows outside every sequence are left as they are), else to a
    new NaN-filled tensor. ``config`` overrides entries of ``CONFIGS[D]`` (BLOCK_N, NUM_STAGES).
    ``persistent`` picks ``gdpa_persistent_kernel`` (ping-pong only; B up to ``PERSISTENT_MAX_BATCH``) or
    ``gdpa_kernel``'s grid; by default the faster of the two where both apply (``default_persistent``)."""
    _check_inputs("gdpa", q, k, v, offsets, max_seq_len, activation, grid=False)
    batch = offsets.numel() - 1
    if persistent is None:
        persistent = default_persistent(batch, q.shape[1], q.shape[2], activation, pingpong)
    if not persistent:
        _check_grid("gdpa", batch, q.shape[1])
    if persistent and not pingpong:
        raise ValueError("gdpa: the persistent kernel always runs its consumers ping-pong: pass pingpong=True")
    if persistent and batch > PERSISTENT_MAX_BATCH:
        raise ValueError(f"gdpa: the persistent kernel takes up to {PERSISTENT_MAX_BATCH} sequences, got {batch}")
    o = _output("gdpa", q, out)
    total, heads, d = q.shape
    if total == 0 or batch == 0 or max_seq_len == 0:
        return o
    from triton.tools.tensor_descriptor import TensorDescriptor

    cfg = {**CONFIGS[d], **(config or {})}
    sm_scale = 1.0 / math.sqrt(d) if sm_scale is None else float(sm_scale)
    half = cfg["BLOCK_M"] // 2
    q2, k2, v2, o2 = (t.view(total, heads * d) for t in (q, k, v, o))
    q_desc = TensorDescriptor.from_tensor(q2, [half, d])
    k_desc = TensorDescriptor.from_tensor(k2, [cfg["BLOCK_N"], d])
    v_desc = TensorDescriptor.from_tensor(v2, [cfg["BLOCK_N"], d])
    o_desc = TensorDescriptor.from_tensor(o2, [half, d])
    if persistent:
        import torch

        num_sms = torch.cuda.get_device_properties(q.device).multi_processor_count
        gdpa_persistent_kernel[(min(num_sms, triton.cdiv(max_seq_len, cfg["BLOCK_M"]) * batch * heads),)](
            q_desc,
            k_desc,
            v_desc,
            o_desc,
            o,
            offsets,
            batch,
            heads,
            sm_scale,
            HEAD_DIM=d,
            ACTIVATION=activation,
            CAUSAL=causal,
            BLOCK_B=max(16, triton.next_power_of_2(batch)),
            num_warps=NUM_WARPS,
            **cfg,
        )
        return o
    grid = (triton.cdiv(max_seq_len, cfg["BLOCK_M"]), batch * heads)
    gdpa_kernel[grid](
        q_desc,
        k_desc,
        v_desc,
        o_desc,
        o,
        offsets,
        heads,
        sm_scale,
        HEAD_DIM=d,
        ACTIVATION=activation,
        CAUSAL=causal,
        PINGPONG=pingpong,
        num_warps=NUM_WARPS,
        **cfg,
    )
    return o


def _bounds(offsets: Any) -> list[tuple[int, int]]:
    """(start, end) of every sequence, from a list of B + 1 starts or an int tensor of them."""
    starts = offsets.tolist() if hasattr(offsets, "tolist") else list(offsets)
    return list(zip(starts, starts[1:], strict=False))


def reference(
    q: Any,
    k: Any,
    v: Any,
    offsets: Any,
    activation: str = "gelu",
    causal: bool = False,
    sm_scale: float | None = None,
    max_seq_len: int | None = None,
) -> Any:
    """GDPA in float64 with PyTorch, one sequence at a time, on q's device; rows outside every sequence are 0.

    ``offsets``: the B + 1 cumulative starts, a list or a tensor. ``max_seq_len`` is not needed here (it is
    accepted so that ``make_inputs``'s dictionary serves ``run`` and ``reference`` alike)."""
    import torch

    if activation not in ACTIVATIONS:
        raise ValueError(f"reference: activation must be one of {ACTIVATIONS}, got {activation!r}")
    d = q.shape[-1]
    sm_scale = 1.0 / math.sqrt(d) if sm_scale is None else sm_scale
    out = torch.zeros(q.shape, dtype=torch.float64, device=q.device)
    for start, end in _bounds(offsets):
        if end <= start:
            continue
        qb, kb, vb = (t[start:end].double().transpose(0, 1) for t in (q, k, v))  # (H, L, D)
        x = qb @ kb.transpose(-1, -2) * sm_scale
        if activation == "gelu":
            p = torch.nn.functional.gelu(x, approximate="tanh")
        elif activation == "silu":
            p = torch.nn.functional.silu(x)
        else:
            p = x
        if causal:
            n = end - start
            p = p.masked_fill(torch.ones(n, n, dtype=torch.bool, device=q.device).triu(1), 0.0)
        out[start:end] = (p @ vb).transpose(0, 1)
    return out


def jagged_lengths(batch: int, mean: int = 1024, low: int = 128, high: int = 4096, seed: int = 0) -> list[int]:
    """``batch`` sequence lengths as user histories come: log-normal (sigma 0.7, the median set so that
    the mean is about ``mean``), clipped to [low, high]."""
    import random

    sigma = 0.7
    mu = math.log(mean) - sigma * sigma / 2
    rng = random.Random(seed)
    return [min(high, max(low, round(rng.lognormvariate(mu, sigma)))) for _ in range(batch)]


def offsets_of(lengths: list[int], device: Any = "cuda") -> Any:
    """The int32 (B + 1) cumulative starts of sequences of ``lengths``, on ``device``."""
    import torch

    starts = [0]
    for length in lengths:
        starts.append(starts[-1] + length)
    return torch.tensor(starts, dtype=torch.int32, device=device)


def make_inputs(
    batch: int,
    heads: int,
    head_dim: int,
    lengths: list[int] | None = None,
    dtype: Any = None,
    device: Any = "cuda",
    seed: int = 0,
) -> dict:
    """Random q, k, v (total_tokens, heads, head_dim) and the offsets and max_seq_len of ``lengths``
    (default: ``jagged_lengths(batch, seed=seed)``): the keyword arguments of ``run`` and ``reference``
    (``reference`` ignores ``max_seq_len``)."""
    import torch

    lengths = jagged_lengths(batch, seed=seed) if lengths is None else list(lengths)
    if len(lengths) != batch:
        raise ValueError(f"make_inputs: {len(lengths)} lengths for a batch of {batch}")
    generator = torch.Generator(device=device).manual_seed(seed)
    total = sum(lengths)
    q, k, v = (
        torch.randn(total, heads, head_dim, generator=generator, device=device, dtype=dtype or torch.bfloat16)
        for _ in range(3)
    )
    return {"q": q, "k": k, "v": v, "offsets": offsets_of(lengths, device), "max_seq_len": max(lengths, default=0)}


def flops(lengths: list[int], heads: int, head_dim: int, causal: bool = False) -> float:
    """The two GEMMs' flops, 2 x 2 x L^2 x D per sequence and head (halved when causal); the activation
    is not counted."""
    total = 4.0 * sum(length * length for length in lengths) * heads * head_dim
    return total / 2 if causal else total
