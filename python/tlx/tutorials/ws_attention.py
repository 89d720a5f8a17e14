"""Warp-specialized FlashAttention forward on Hopper (FA3-style): a TMA producer and two ping-pong consumers.

One CTA owns ``BLOCK_M = 128`` query rows of one (batch, head) and walks the key/value sequence in
``BLOCK_N`` blocks, with online softmax:

* the **producer** (the default task, 4 warps, few registers) loads Q once, then K and V blocks by
  TMA into a ring of ``NUM_STAGES`` stages. K and V have barriers of their own, so a consumer starts
  ``Q @ K^T`` while V is still landing.
* two **consumers** (4 warps each, 232 registers per thread) each own 64 query rows. Per block:
  ``S = Q @ K^T`` on the tensor cores (``wgmma``, both operands in shared memory), the online softmax
  in registers, then ``O += P @ V`` with ``P`` taken straight from registers (``wgmma`` with A in
  registers: ``tlx.async_dot`` on a tensor).
* **ping-pong:** named barriers make the consumers take turns issuing their GEMMs, so that one
  consumer's softmax (exp2 on the multi-function units) runs while the other's GEMMs own the tensor
  cores.
* **intra-consumer pipelining:** ``P @ V`` of block j-1 is issued together with ``Q @ K^T`` of block j,
  so the tensor cores always have two GEMMs queued while the softmax of block j runs.

Causal attention masks the diagonal block and stops at it; CTAs start with the longest rows.

``ws_attention_persistent_kernel`` is the same pipeline as a persistent walk (one CTA per SM): each
consumer double-buffers its Q, so the next tile's Q lands while the current one runs, and the output is
staged in the Q buffer its tile no longer reads. Causal tiles are planned on the host
(``causal_schedule``) as a dynamic scheduler would hand them out: mostly in pairs of equal total work
(the longest query block with the shortest), the last few heads' tiles one by one, longest first, so
that every SM finishes within about one short tile of the others. It measured as fast as the grid or
faster on every shape of the H200 suite, and ``run`` picks it. At D=64 it runs three consumers, 192
query rows a tile (non-causal from N = 2048, causal above N = 4096): the softmax of 64 x 128 scores costs
as much multi-function-unit time as that block's two GEMMs cost tensor time, and a third consumer keeps
the tensor cores fed. Three consumers get 160 registers each; P fits beside the scores because it
crosses from one block to the next in the input dtype (converted once ``P @ V`` of the block before has
read the previous P), not in float32. With two consumers Q is loaded into registers once per tile and
``Q @ K^T`` reads it from there (wgmma with A in registers), which measured 1-3% faster than reading it from
shared memory (3% at D=64 non-causal), except causal at D=128, which keeps Q in shared memory with 240
registers per consumer. Non-causal at D=128 from N = 2048 (N a multiple of 256), CTAs run in clusters of
two (``CLUSTER_PAIRS``): a pair walks neighbouring query tiles of one head, so each CTA loads half of every key
and value block and multicasts it into both, halving what the pair reads from L2 (0.4-1.6% faster there;
FlashAttention-3 does the same). Causal at D=128 (N a multiple of 256) pairs run too
(``CAUSAL_CLUSTER_PAIRS``): query blocks 2a and 2a + 1 of one head share the longer tile's stream, whose
first block the shorter one's consumers pass.
Cluster pairs, and three consumers when causal, rescale lazily (FlashAttention-4's): a row keeps its
maximum until a block's exceeds it by more than 8, and a warp none of whose rows changed skips the
accumulator's rescale (``tlx.scale_rows``, a vote and a branch): 0.5-1.1% faster there (causal pairs:
0.5-3.6%), slower elsewhere.
Causal tiles walk their key blocks from the diagonal down (``DIAGONAL_FIRST``, as FlashAttention-3 does):
the blocks the diagonal crosses come first, so the loop over the rest carries no mask. With two consumers,
the first reads only the diagonal block's keys its rows reach (``TRIM_DIAGONAL``) and the value ring is a
stage deeper than the key ring (``EXTRA_V_STAGES``): with the one-reciprocal epilogue, 2-8% faster at
N <= 4096 (H100). Three consumers trim too through N = 8192 (1.9% faster there): each starts from the key
block its rows end in, 64 or 128 keys of it, and one or two of them pass the turn of a tile's last block.
"""

import triton
import triton.language as tl

import tlx

_TURN_BARRIER = tl.constexpr(8)


@triton.jit
def _kv_blocks(start_m, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr,
               SHORT_LAST_TILE: tl.constexpr = False):  # fmt: skip
    """Key/value blocks a CTA of query rows [start_m, start_m + BLOCK_M) reads (with
    ``SHORT_LAST_TILE``, rows up to N - 1 only: a head's last tile may end early)."""
    if CAUSAL:
        if SHORT_LAST_TILE:
            return tl.cdiv(tl.minimum(start_m + BLOCK_M, N), BLOCK_N)
        else:
            return tl.cdiv(start_m + BLOCK_M, BLOCK_N)
    else:
        return tl.cdiv(N, BLOCK_N)


@triton.jit
def _load_kv_tile(desc, tile, bar, row, col, rank, CTAS: tl.constexpr):
    """One key or value block into ``tile``: all of it, or in a cluster pair (``CTAS == 2``) this CTA's half of
    its rows, multicast into both CTAs' copies of the stage (the peer loads the other half)."""
    if CTAS == 1:
        tlx.async_descriptor_load(desc, tile, [row, col], bar)
    else:
        ROWS: tl.constexpr = tile.shape[0] // 2
        if rank == 0:
            tlx.async_descriptor_load(desc, tlx.local_slice(tile, [0, 0], [ROWS, tile.shape[1]]), [row, col], bar,
                                      multicast_targets=[0, 1])  # fmt: skip
        else:
            tlx.async_descriptor_load(desc, tlx.local_slice(tile, [ROWS, 0], [ROWS, tile.shape[1]]),
                                      [row + ROWS, col], bar, multicast_targets=[0, 1])  # fmt: skip


@triton.jit
def load_kv_block(k_desc, v_desc, k_tiles, v_tiles, k_full, v_full, k_empty, v_empty, step, row, col,
                  NUM_STAGES: tl.constexpr, V_STAGES: tl.constexpr, KV_BYTES: tl.constexpr, rank=0,
                  CTAS: tl.constexpr = 1):  # fmt: skip
    """The producer's step ``step`` of the key/value ring: once the consumers freed the stage (the first
    pass finds every stage free), K and V of rows ``row..`` (columns ``col..``) by TMA, each completing
    its own ``full`` mbarrier, so the consumers start ``Q @ K^T`` while V is still landing. In a cluster
    pair each CTA loads half of each block for both (``_load_kv_tile``), once the consumers of both CTAs
    freed the stage. V's ring may be deeper than K's (``V_STAGES``): the consumers hand V back last."""
    s = step % NUM_STAGES
    tlx.barrier_wait(k_empty[s], ((step // NUM_STAGES) & 1) ^ 1)
    tlx.barrier_expect_bytes(k_full[s], KV_BYTES)
    _load_kv_tile(k_desc, k_tiles[s], k_full[s], row, col, rank, CTAS)
    v = step % V_STAGES
    tlx.barrier_wait(v_empty[v], ((step // V_STAGES) & 1) ^ 1)
    tlx.barrier_expect_bytes(v_full[v], KV_BYTES)
    _load_kv_tile(v_desc, v_tiles[v], v_full[v], row, col, rank, CTAS)


@triton.jit
def _first_rows(tile, ROWS: tl.constexpr):
    """Rows ``[0, ROWS)`` of a shared-memory tile: the tile itself when ``ROWS`` is its height."""
    if tile.shape[0] == ROWS:
        return tile
    else:
        return tlx.local_slice(tile, [0, 0], [ROWS, tile.shape[1]])


@triton.jit
def _release(empty, peer, CTAS: tl.constexpr):
    """A consumer is done with a key/value stage: it arrives on ``empty``, and in a cluster pair on the peer's
    too, whose producer writes this CTA's copy of the stage as well."""
    tlx.barrier_arrive(empty)
    if CTAS == 2:
        tlx.barrier_arrive(empty, remote_cta_rank=peer)


@triton.jit
def load_q_double_buffered(q_desc, q_tiles, q_full, q_empty, t, row, col, SUB_M: tl.constexpr,
                           HEAD_DIM: tl.constexpr, CONSUMERS: tl.constexpr):  # fmt: skip
    """The producer's load of tile ``t``'s Q in a persistent walk: consumer c's rows
    (``row + c * SUB_M..``) into its buffer ``q_tiles[2 * c + t % 2]``, once the consumer handed that
    buffer back (the first pass over each finds it free)."""
    for c in tl.static_range(CONSUMERS):
        q = 2 * c + t % 2
        tlx.barrier_wait(q_empty[q], ((t // 2) & 1) ^ 1)
        tlx.barrier_expect_bytes(q_full[q], SUB_M * HEAD_DIM * 2)
        tlx.async_descriptor_load(q_desc, q_tiles[q], [row + c * SUB_M, col], q_full[q])


@triton.jit
def _online_softmax(s_ij, m_i, l_i, qk_scale, LAZY_RESCALE: tl.constexpr = False):
    """One key block of the online softmax: ``(p, alpha, m_new, l_new)``, with P unnormalized, ``alpha``
    the factor the accumulator and the row sums shrink by, all on exp2 (``qk_scale`` holds log2 e).
    ``LAZY_RESCALE`` (FlashAttention-4's): a row keeps its maximum, and ``alpha`` is exactly 1, until the
    block's maximum exceeds it by more than 8 (P stays below 2^8: the float32 sums have room, and the final
    division by the row sum makes the result the same), so that ``tlx.scale_rows`` can skip the rescale.

    ``tl.max`` / ``tl.sum`` reduce a thread's 32 values of a row as a chain of dependent ``FMNMX`` / ``FADD``
    (as FlashAttention-3's loop does). Folded as trees first (depth 7 instead of 33, the same instructions)
    they measured 0.4-6% slower on each of twelve shapes (H100, bf16; 2026-12-06 session 32 results). One
    visible cause at D=128: ptxas schedules softmax instructions between the wait for ``P @ V`` and the value
    buffer's release, which then reaches the producer 30-70 instructions later."""
    m_new = tl.maximum(m_i, tl.max(s_ij, 1) * qk_scale)
    if LAZY_RESCALE:
        grows = m_new > m_i + 8.0
        alpha = tl.where(grows, tl.math.exp2(m_i - m_new), 1.0)
        m_new = tl.where(grows, m_new, m_i)
    else:
        alpha = tl.math.exp2(m_i - m_new)
    p = tl.math.exp2(s_ij * qk_scale - m_new[:, None])
    return p, alpha, m_new, l_i * alpha + tl.sum(p, 1)


@triton.jit
def _first_softmax(s_ij, qk_scale, FLOOR_MAX: tl.constexpr = False):
    """The online softmax's start on a tile's first key block (its scores masked already where they need to
    be): ``(p, m, l)`` with P unnormalized, in float32, on exp2 (``qk_scale`` holds log2 e). ``FLOOR_MAX``: a
    row whose keys are all masked keeps a finite maximum, so its P is 0 rather than NaN."""
    m_i = tl.max(s_ij, 1) * qk_scale
    if FLOOR_MAX:
        m_i = tl.maximum(m_i, -1.0e30)
    p = tl.math.exp2(s_ij * qk_scale - m_i[:, None])
    return p, m_i, tl.sum(p, 1)


@triton.jit
def ws_attention_kernel(
    q_desc,
    k_desc,
    v_desc,
    o_desc,
    N,
    qk_scale,  # sm_scale * log2(e): the softmax runs on exp2
    HEAD_DIM: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    NUM_STAGES: tl.constexpr,
    CAUSAL: tl.constexpr,
    PINGPONG: tl.constexpr,
):
    dtype = tlx.dtype_of(q_desc)
    HALF_M: tl.constexpr = BLOCK_M // 2
    KV_BYTES: tl.constexpr = BLOCK_N * HEAD_DIM * 2

    q_tiles = tlx.local_alloc((HALF_M, HEAD_DIM), dtype, 2)  # one per consumer; reused for its output
    k_tiles = tlx.local_alloc((BLOCK_N, HEAD_DIM), dtype, NUM_STAGES)
    v_tiles = tlx.local_alloc((BLOCK_N, HEAD_DIM), dtype, NUM_STAGES)
    q_full = tlx.alloc_barriers(2)
    k_full = tlx.alloc_barriers(NUM_STAGES)
    v_full = tlx.alloc_barriers(NUM_STAGES)
    k_empty = tlx.alloc_barriers(NUM_STAGES, arrive_count=2)  # both consumers read every block
    v_empty = tlx.alloc_barriers(NUM_STAGES, arrive_count=2)

    # Causal CTAs differ in work: start with the longest rows. (Walking the heads fastest instead, so
    # that each wave mixes long and short rows, measured slower on the H200: 0.72x of cuDNN vs 0.85x.)
    num_m = tl.cdiv(N, BLOCK_M)
    pid_m = num_m - 1 - tl.program_id(0) if CAUSAL else tl.program_id(0)
    head = tl.program_id(1)
    start_m = pid_m * BLOCK_M
    row0 = head * N  # the (batch, head) slab in the [B*H*N, D] views
    n_blocks = _kv_blocks(start_m, N, BLOCK_M, BLOCK_N, CAUSAL)

    with tlx.async_tasks():
        with tlx.async_task("default"):
            for half in tl.static_range(2):
                tlx.barrier_expect_bytes(q_full[half], HALF_M * HEAD_DIM * 2)
                tlx.async_descriptor_load(q_desc, q_tiles[half], [row0 + start_m + half * HALF_M, 0], q_full[half])
            for j in range(n_blocks):
                load_kv_block(k_desc, v_desc, k_tiles, v_tiles, k_full, v_full, k_empty, v_empty, j,
                              row0 + j * BLOCK_N, 0, NUM_STAGES, NUM_STAGES, KV_BYTES)  # fmt: skip

        with tlx.async_task(num_warps=4, registers=232, replicate=2):
            cid = tlx.async_task_replica_id()
            q_tile = q_tiles[cid]
            rows = start_m + cid * HALF_M + tl.arange(0, HALF_M)
            m_i = tl.full((HALF_M,), float("-inf"), tl.float32)
            l_i = tl.full((HALF_M,), 1.0, tl.float32)
            acc = tl.zeros((HALF_M, HEAD_DIM), dtype=tl.float32)
            tlx.barrier_wait(q_full[cid], 0)

            # Block 0: S only; its P @ V goes out with the next block's Q @ K^T.
            if PINGPONG:
                if cid == 1:
                    tlx.named_barrier_wait(_TURN_BARRIER + 1, 256)
            tlx.barrier_wait(k_full[0], 0)
            s_ij = tlx.async_dot(q_tile, tlx.local_trans(k_tiles[0]), use_acc=False)
            if PINGPONG:
                tlx.named_barrier_arrive(_TURN_BARRIER + 1 - cid, 256)
            s_ij = tlx.async_dot_wait(0, s_ij)
            tlx.barrier_arrive(k_empty[0])
            if CAUSAL:
                s_ij = _mask_above_diagonal(s_ij, rows, 0, BLOCK_N)
            p, m_i, l_i = _first_softmax(s_ij, qk_scale)

            for j in range(1, n_blocks):
                s = j % NUM_STAGES
                phase = (j // NUM_STAGES) & 1
                prev = (j - 1) % NUM_STAGES
                prev_phase = ((j - 1) // NUM_STAGES) & 1
                if PINGPONG:
                    tlx.named_barrier_wait(_TURN_BARRIER + cid, 256)
                tlx.barrier_wait(k_full[s], phase)
                s_ij = tlx.async_dot(q_tile, tlx.local_trans(k_tiles[s]), use_acc=False)
                tlx.barrier_wait(v_full[prev], prev_phase)
                acc = tlx.async_dot(p.to(dtype), v_tiles[prev], acc)
                if PINGPONG:
                    tlx.named_barrier_arrive(_TURN_BARRIER + 1 - cid, 256)
                # S of block j is done (P @ V of block j-1 may still run): softmax overlaps it.
                s_ij = tlx.async_dot_wait(1, s_ij)
                tlx.barrier_arrive(k_empty[s])
                if CAUSAL:
                    # Only the last block reaches the diagonal (BLOCK_N divides BLOCK_M).
                    if j == n_blocks - 1:
                        cols = j * BLOCK_N + tl.arange(0, BLOCK_N)
                        s_ij = tl.where(rows[:, None] >= cols[None, :], s_ij, float("-inf"))
                p, alpha, m_i, l_i = _online_softmax(s_ij, m_i, l_i, qk_scale)
                acc = tlx.async_dot_wait(0, acc)
                tlx.barrier_arrive(v_empty[prev])
                acc = acc * alpha[:, None]

            # The last block's P @ V.
            last = n_blocks - 1
            if PINGPONG:
                tlx.named_barrier_wait(_TURN_BARRIER + cid, 256)
            tlx.barrier_wait(v_full[last % NUM_STAGES], (last // NUM_STAGES) & 1)
            acc = tlx.async_dot(p.to(dtype), v_tiles[last % NUM_STAGES], acc)
            if PINGPONG:
                if cid == 0:
                    tlx.named_barrier_arrive(_TURN_BARRIER + 1, 256)
            acc = tlx.async_dot_wait(0, acc)
            tlx.barrier_arrive(v_empty[last % NUM_STAGES])

            # Epilogue: normalize, stage through this consumer's Q buffer (no GEMM reads it any more).
            out = (acc / l_i[:, None]).to(dtype)
            tlx.local_store(q_tile, out)
            tlx.fence_async_shared()
            tlx.async_descriptor_store(o_desc, q_tile, [row0 + start_m + cid * HALF_M, 0])
            tlx.async_descriptor_store_wait(0)


@triton.jit
def _next_turn(cid, CONSUMERS: tl.constexpr):
    """The named barrier that hands the tensor cores from consumer ``cid`` to the next, round-robin."""
    return _TURN_BARRIER + (cid + 1) % CONSUMERS


@triton.jit
def _await_turn(cid, t, opens_tile):
    """A consumer's wait for its turn on a key block. The walk's very first turn (consumer 0's opening of tile
    0) waits for nobody."""
    if not opens_tile or cid > 0 or t > 0:
        tlx.named_barrier_wait(_TURN_BARRIER + cid, 256)


@triton.jit
def _hand_back_previous_q(q_empty, t, q, opens_tile):
    """On a tile's opening turn: the Q buffer of tile ``t - 1`` (``q ^ 1``) goes back to the producer once that
    tile's output store has read it."""
    if opens_tile:
        if t > 0:
            tlx.async_descriptor_store_wait(0)
            tlx.barrier_arrive(q_empty[q ^ 1])


@triton.jit
def first_scores(q_operand, k_tiles, k_full, k_empty, q_empty, kv, t, q, cid, NUM_STAGES: tl.constexpr,
                 CONSUMERS: tl.constexpr, peer=0, CTAS: tl.constexpr = 1, KEYS: tl.constexpr = 0,
                 opens_tile=True):  # fmt: skip
    """A consumer's first GEMM of tile ``t`` in a persistent walk: ``S = Q @ K^T`` of key block ``kv``
    (ring position; ``q_operand`` is Q's shared-memory buffer ``q`` or Q in registers) on its turn
    (consumer 0 opens the walk), waited for; then the key stage goes back, and so does the Q buffer of
    tile ``t - 1`` (``q ^ 1``) once that tile's output store has read it. ``KEYS``: only the block's first
    ``KEYS`` keys (0: all). ``opens_tile`` false: the consumer skipped the tile's first key block
    (``skip_key_block``), whose turn did the opening."""
    _await_turn(cid, t, opens_tile)
    s = kv % NUM_STAGES
    tlx.barrier_wait(k_full[s], (kv // NUM_STAGES) & 1)
    keys = k_tiles[s] if KEYS == 0 else _first_rows(k_tiles[s], KEYS)
    s_ij = tlx.async_dot(q_operand, tlx.local_trans(keys), use_acc=False)
    tlx.named_barrier_arrive(_next_turn(cid, CONSUMERS), 256)
    s_ij = tlx.async_dot_wait(0, s_ij)
    _release(k_empty[s], peer, CTAS)
    _hand_back_previous_q(q_empty, t, q, opens_tile)
    return s_ij


@triton.jit
def scores_beside_pv(q_operand, k_tiles, v_tiles, k_full, v_full, k_empty, p, acc, kv, cid,
                     NUM_STAGES: tl.constexpr, V_STAGES: tl.constexpr, CONSUMERS: tl.constexpr, peer=0,
                     CTAS: tl.constexpr = 1):  # fmt: skip
    """On the consumer's turn, ``S = Q @ K^T`` of key block ``kv`` and ``acc += P @ V`` of block ``kv - 1``
    (Q in shared memory or registers, P in registers) go to the tensor cores together; returns S once it is
    done (its key stage goes back) and the accumulator with ``P @ V`` possibly still running: the
    caller's softmax overlaps it."""
    s = kv % NUM_STAGES
    prev = (kv - 1) % V_STAGES
    tlx.named_barrier_wait(_TURN_BARRIER + cid, 256)
    tlx.barrier_wait(k_full[s], (kv // NUM_STAGES) & 1)
    s_ij = tlx.async_dot(q_operand, tlx.local_trans(k_tiles[s]), use_acc=False)
    tlx.barrier_wait(v_full[prev], ((kv - 1) // V_STAGES) & 1)
    acc = tlx.async_dot(p, _first_rows(v_tiles[prev], p.shape[1]), acc)
    tlx.named_barrier_arrive(_next_turn(cid, CONSUMERS), 256)
    s_ij = tlx.async_dot_wait(1, s_ij)
    _release(k_empty[s], peer, CTAS)
    return s_ij, acc


@triton.jit
def _mask_above_diagonal(s_ij, rows, j, BLOCK_N: tl.constexpr):
    """Scores of key block ``j`` (its first ``s_ij.shape[1]`` keys) with the keys past each query row
    (``rows``) left out."""
    cols = j * BLOCK_N + tl.arange(0, s_ij.shape[1])
    return tl.where(rows[:, None] >= cols[None, :], s_ij, float("-inf"))


@triton.jit
def packed_operand(p, dtype: tl.constexpr):
    """P as the 16-bit ``dtype`` of ``P @ V``'s register operand: one ``cvt.rn.{f16x2,bf16x2}.f32`` per pair
    of scores, as ``p.to(dtype)`` lowers, but opaque to LLVM. A key-block loop's P enters it through a phi
    (block 0's P, then each block's); LLVM moves two ``p.to(dtype)`` there behind the phi. In one loop it
    pairs the conversions up again; where a second loop also takes P, it leaves them scalar and ptxas pairs
    the halves with a ``PRMT`` per register (32 per key block at 64x128). Block 0 converted here keeps P's
    conversions in place. Inside a loop ``p.to(dtype)`` compiles 3-8 instructions per block shorter."""
    if dtype == tl.float16:
        # the first of each pair goes to the low half, as in the operand registers
        return tl.inline_asm_elementwise("cvt.rn.f16x2.f32 $0, $2, $1;", "=r,r,r", [p], tl.float16, True, 2)
    else:
        return tl.inline_asm_elementwise("cvt.rn.bf16x2.f32 $0, $2, $1;", "=r,r,r", [p], tl.bfloat16, True, 2)


@triton.jit
def _wait_after_softmax(acc, start_m):
    """``tlx.async_dot_wait(0, acc)`` for ``P @ V``, kept after the softmax that precedes it. Behind the causal
    mask's branch ptxas waits at the top of the block the branch joins, ahead of the whole softmax, so the
    consumer idles while its ``P @ V`` runs (GDPA's causal loop waits where its branch joins too, after its
    activation); in one straight block (non-causal, or ``DIAGONAL_FIRST``) it waits after about half of the
    row maxima, and FlashAttention-3's loop after its row maxima and a dozen exponentials. A branch the
    compiler cannot fold ends the block here: ``start_m`` is never negative, and the second arm, which never
    runs, differs from the first only so that LLVM does not merge the two and hoist the wait again."""
    if start_m >= 0:
        acc = tlx.async_dot_wait(0, acc)
    else:
        tl.debug_barrier()
        acc = tlx.async_dot_wait(0, acc)
    return acc


@triton.jit
def next_key_block(q_operand, k_tiles, v_tiles, k_full, v_full, k_empty, v_empty, p, acc, m_i, l_i, kv, j, start_m,
                   rows, qk_scale, cid, dtype: tl.constexpr, BLOCK_N: tl.constexpr, NUM_STAGES: tl.constexpr,
                   V_STAGES: tl.constexpr, CONSUMERS: tl.constexpr, MASK: tl.constexpr, peer=0, CTAS: tl.constexpr = 1,
                   WAIT_AFTER_SOFTMAX: tl.constexpr = False, LAZY_RESCALE: tl.constexpr = False):  # fmt: skip
    """Key block ``j`` of a tile (ring position ``kv``) after its first: ``S = Q @ K^T`` beside ``P @ V`` of
    block ``j - 1``, the online softmax of S, then the accumulator rescaled once ``P @ V`` is done.
    ``MASK``: leave out the keys past the query ``rows`` if the diagonal of the tile starting at ``start_m``
    crosses block ``j``. ``WAIT_AFTER_SOFTMAX``: see ``_wait_after_softmax``. Returns the block's P (in
    ``dtype``), the accumulator, the row maxima and sums."""
    s_ij, acc = scores_beside_pv(q_operand, k_tiles, v_tiles, k_full, v_full, k_empty, p, acc, kv, cid, NUM_STAGES,
                                 V_STAGES, CONSUMERS, peer, CTAS)  # fmt: skip
    if MASK:
        if (j + 1) * BLOCK_N > start_m:
            s_ij = _mask_above_diagonal(s_ij, rows, j, BLOCK_N)
    p, alpha, m_i, l_i = _online_softmax(s_ij, m_i, l_i, qk_scale, LAZY_RESCALE)
    acc = _wait_after_softmax(acc, start_m) if WAIT_AFTER_SOFTMAX else tlx.async_dot_wait(0, acc)
    _release(v_empty[(kv - 1) % V_STAGES], peer, CTAS)
    p = p.to(dtype)  # P @ V of block j-1 is done with the previous P's registers
    # A warp whose rows all kept their maxima skips the multiplies (LAZY_RESCALE).
    acc = tlx.scale_rows(acc, alpha) if LAZY_RESCALE else acc * alpha[:, None]
    return p, acc, m_i, l_i


@triton.jit
def last_pv(v_tiles, v_full, v_empty, p, acc, kv, cid, pass_turn, V_STAGES: tl.constexpr,
            CONSUMERS: tl.constexpr, peer=0, CTAS: tl.constexpr = 1):  # fmt: skip
    """The tile's last ``acc += P @ V`` (block ``kv - 1``) on the consumer's turn, waited for; the turn
    passes on unless ``pass_turn`` is false (the last consumer's last turn of the walk: nobody waits for
    it)."""
    last = (kv - 1) % V_STAGES
    tlx.named_barrier_wait(_TURN_BARRIER + cid, 256)
    tlx.barrier_wait(v_full[last], ((kv - 1) // V_STAGES) & 1)
    acc = tlx.async_dot(p, _first_rows(v_tiles[last], p.shape[1]), acc)
    if pass_turn:
        tlx.named_barrier_arrive(_next_turn(cid, CONSUMERS), 256)
    acc = tlx.async_dot_wait(0, acc)
    _release(v_empty[last], peer, CTAS)
    return acc


@triton.jit
def key_blocks_from(q_operand, k_tiles, v_tiles, k_full, v_full, k_empty, v_empty, p, acc, m_i, l_i, kv, first,
                    n_blocks, start_m, rows, qk_scale, cid, pass_turn, dtype: tl.constexpr, BLOCK_N: tl.constexpr,
                    NUM_STAGES: tl.constexpr, V_STAGES: tl.constexpr, CONSUMERS: tl.constexpr, MASK: tl.constexpr,
                    peer=0, CTAS: tl.constexpr = 1, WAIT_AFTER_SOFTMAX: tl.constexpr = False,
                    LAZY_RESCALE: tl.constexpr = False):  # fmt: skip
    """Key blocks ``first..n_blocks - 1`` of a tile (``next_key_block`` each; P of block ``first - 1`` comes
    in), then its last ``P @ V`` (``last_pv``). Returns the accumulator, the row sums and the ring position."""
    for j in range(first, n_blocks):
        p, acc, m_i, l_i = next_key_block(q_operand, k_tiles, v_tiles, k_full, v_full, k_empty, v_empty, p, acc, m_i,
                                          l_i, kv, j, start_m, rows, qk_scale, cid, dtype, BLOCK_N, NUM_STAGES,
                                          V_STAGES, CONSUMERS, MASK, peer, CTAS, WAIT_AFTER_SOFTMAX,
                                          LAZY_RESCALE)  # fmt: skip
        kv += 1
    acc = last_pv(v_tiles, v_full, v_empty, p, acc, kv, cid, pass_turn, V_STAGES, CONSUMERS, peer, CTAS)
    return acc, l_i, kv


@triton.jit
def _diagonal_softmax(s_ij, rows, diagonal, qk_scale, BLOCK_N: tl.constexpr):
    """The online softmax's start on a tile's first key block, ``diagonal``, where the query ``rows`` end: the
    keys past each row left out; ``(p, m, l)`` with P unnormalized, in float32."""
    return _first_softmax(_mask_above_diagonal(s_ij, rows, diagonal, BLOCK_N), qk_scale)


@triton.jit
def diagonal_blocks(q_operand, k_tiles, v_tiles, k_full, v_full, k_empty, v_empty, q_empty, acc, kv, t, q, diagonal,
                    opens_tile, trims, start_m, rows, qk_scale, cid, dtype: tl.constexpr, BLOCK_N: tl.constexpr,
                    SUB_M: tl.constexpr, NUM_STAGES: tl.constexpr, V_STAGES: tl.constexpr, CONSUMERS: tl.constexpr,
                    WAIT_AFTER_SOFTMAX: tl.constexpr, LAZY_RESCALE: tl.constexpr, peer=0,
                    CTAS: tl.constexpr = 1):  # fmt: skip
    """The start of a consumer's causal tile walked from the diagonal with the diagonal trimmed
    (``TRIM_DIAGONAL``): ``Q @ K^T`` of key block ``diagonal`` (ring position ``kv``), where the consumer's
    ``rows`` end, masked; if ``trims`` (its rows end half-way into the block, which has a block below), on the
    block's first ``SUB_M`` keys only, and then the next block too, since the trimmed block's P is narrower
    than the key-block loop's. ``opens_tile``: see ``first_scores``. Returns the last block's P (in ``dtype``),
    the accumulator, the row maxima and sums, the ring position and how many blocks are left below."""
    if trims:
        s_narrow = first_scores(q_operand, k_tiles, k_full, k_empty, q_empty, kv, t, q, cid, NUM_STAGES, CONSUMERS,
                                peer, CTAS, KEYS=SUB_M, opens_tile=opens_tile)  # fmt: skip
        p_narrow, m_i, l_i = _diagonal_softmax(s_narrow, rows, diagonal, qk_scale, BLOCK_N)
        p, acc, m_i, l_i = next_key_block(q_operand, k_tiles, v_tiles, k_full, v_full, k_empty, v_empty,
                                          p_narrow.to(dtype), acc, m_i, l_i, kv + 1, 1, start_m, rows, qk_scale, cid,
                                          dtype, BLOCK_N, NUM_STAGES, V_STAGES, CONSUMERS, False, peer, CTAS,
                                          WAIT_AFTER_SOFTMAX, LAZY_RESCALE)  # fmt: skip
        kv += 2
        below = diagonal - 1
    else:
        s_ij = first_scores(q_operand, k_tiles, k_full, k_empty, q_empty, kv, t, q, cid, NUM_STAGES, CONSUMERS,
                            peer, CTAS, opens_tile=opens_tile)  # fmt: skip
        p, m_i, l_i = _diagonal_softmax(s_ij, rows, diagonal, qk_scale, BLOCK_N)
        p = p.to(dtype)
        kv += 1
        below = diagonal
    return p, acc, m_i, l_i, kv, below


@triton.jit
def _tile_start(m, N, BLOCK_M: tl.constexpr, SHORT_LAST_TILE: tl.constexpr):
    """The first row of query block ``m``. When BLOCK_M does not divide N, a head's last block either
    ends early (``SHORT_LAST_TILE``: the consumers whose rows lie past N pass their turns) or ends at N,
    overlapping the block before (those rows are computed twice, identically); either way no tile reads
    or writes another head's rows."""
    if SHORT_LAST_TILE:
        return m * BLOCK_M
    else:
        return tl.minimum(m * BLOCK_M, N - BLOCK_M)


@triton.jit
def skip_key_block(k_full, k_empty, v_full, v_empty, q_empty, kv, t, q, cid, OPENS_TILE: tl.constexpr,
                   NUM_STAGES: tl.constexpr, V_STAGES: tl.constexpr, CONSUMERS: tl.constexpr, peer=0,
                   CTAS: tl.constexpr = 1):  # fmt: skip
    """A consumer's turn on key block ``kv`` (ring position) of tile ``t`` that none of its rows reach: it
    takes the turn and passes it on at once, then hands the key and value stages back once they have landed,
    as a consumer that read them would. ``OPENS_TILE``: the tile's first turn, with ``first_scores``'s duties
    (consumer 0 opens the walk without waiting; the Q buffer of tile ``t - 1`` goes back once its output store
    has read it). Returns the next ring position."""
    _await_turn(cid, t, OPENS_TILE)
    tlx.named_barrier_arrive(_next_turn(cid, CONSUMERS), 256)
    s = kv % NUM_STAGES
    tlx.barrier_wait(k_full[s], (kv // NUM_STAGES) & 1)
    _release(k_empty[s], peer, CTAS)
    v = kv % V_STAGES
    tlx.barrier_wait(v_full[v], (kv // V_STAGES) & 1)
    _release(v_empty[v], peer, CTAS)
    _hand_back_previous_q(q_empty, t, q, OPENS_TILE)
    return kv + 1


@triton.jit
def pass_idle_turns(k_full, k_empty, v_full, v_empty, q_full, q_empty, kv, t, q, n_blocks, cid, pass_turn,
                    NUM_STAGES: tl.constexpr, V_STAGES: tl.constexpr, CONSUMERS: tl.constexpr):  # fmt: skip
    """A consumer whose rows of tile ``t`` lie past the sequence (a head's last tile, when BLOCK_M does
    not divide N) computes nothing but keeps the walk's protocol: it skips each key block on its turn
    (``skip_key_block``) and takes the turn of the tile's last ``P @ V``, once its Q buffer has landed (it
    goes back with the next tile); returns the ring position after the tile."""
    tlx.barrier_wait(q_full[q], (t // 2) & 1)
    kv = skip_key_block(k_full, k_empty, v_full, v_empty, q_empty, kv, t, q, cid, True, NUM_STAGES, V_STAGES,
                        CONSUMERS)  # fmt: skip
    for _ in range(1, n_blocks):
        kv = skip_key_block(k_full, k_empty, v_full, v_empty, q_empty, kv, t, q, cid, False, NUM_STAGES, V_STAGES,
                            CONSUMERS)  # fmt: skip
    tlx.named_barrier_wait(_TURN_BARRIER + cid, 256)
    if pass_turn:
        tlx.named_barrier_arrive(_next_turn(cid, CONSUMERS), 256)
    return kv


@triton.jit
def _walk_tile(schedule, i, CAUSAL: tl.constexpr):
    """Tile ``i`` of a CTA's walk (``head * num_m + m``): the host's plan when causal, else ``i`` itself."""
    if CAUSAL:
        return tl.load(schedule + i)
    else:
        return i


@triton.jit
def _walk_step(schedule, i, rank, N, num_m, BLOCK_M: tl.constexpr, CAUSAL: tl.constexpr, CTAS: tl.constexpr,
               SHORT_LAST_TILE: tl.constexpr):  # fmt: skip
    """Step ``i`` of a CTA's walk: ``(head, start_m, stream_m)``, the query tile's head and first row, and the
    first row of the rows whose keys the step's key/value stream holds (``_kv_blocks`` of ``CTAS * BLOCK_M``
    rows from there). A causal cluster pair's plan lists tiles of ``2 * BLOCK_M`` rows
    (``head * num_m / 2 + a``): the CTAs take its halves, query blocks ``2a`` and ``2a + 1``, and share one
    stream, the longer half's (``2a + 2`` key blocks); which CTA takes the longer half alternates along the
    walk (``i``'s parity), so neither falls behind the other by more than a block."""
    tile = _walk_tile(schedule, i, CAUSAL)
    if CAUSAL and CTAS == 2:
        pairs = num_m // 2
        head = tile // pairs
        stream_m = (tile - head * pairs) * 2 * BLOCK_M
        start_m = stream_m + (rank ^ (i & 1)) * BLOCK_M
    else:
        head = tile // num_m
        start_m = _tile_start(tile - head * num_m, N, BLOCK_M, SHORT_LAST_TILE)
        stream_m = start_m
    return head, start_m, stream_m


@triton.jit
def ws_attention_persistent_kernel(
    q_desc,
    k_desc,
    v_desc,
    o_desc,
    schedule,  # causal: int32, CTA c's tiles are schedule[schedule[c]:schedule[c + 1]] (``_walk_step``)
    N,
    BH,
    qk_scale,  # sm_scale * log2(e): the softmax runs on exp2
    HEAD_DIM: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    NUM_STAGES: tl.constexpr,
    CAUSAL: tl.constexpr,
    CONSUMERS: tl.constexpr,
    REGISTERS: tl.constexpr,
    Q_IN_REGS: tl.constexpr,
    CTAS: tl.constexpr = 1,
    PEEL_DIAGONAL: tl.constexpr = False,
    WAIT_AFTER_SOFTMAX: tl.constexpr = False,
    LAZY_RESCALE: tl.constexpr = False,
    DIAGONAL_FIRST: tl.constexpr = False,
    EXTRA_V_STAGES: tl.constexpr = 0,
    TRIM_DIAGONAL: tl.constexpr = False,
):
    """The ping-pong kernel above, persistent: one CTA per SM walks query tiles, non-causal ones
    round-robin, causal ones as the host planned them (``causal_schedule``).

    What the walk buys is the seam between tiles. Each consumer has two Q buffers: the producer loads
    the next tile's Q while the current tile runs, and the current tile's output is staged for its TMA
    store in its own Q buffer, which its last ``Q @ K^T`` left free; that buffer is handed back to the
    producer once the store has read it (checked after the next tile's first ``Q @ K^T``). The
    key/value ring, its phases and the consumers' turns continue from tile to tile.

    ``CONSUMERS`` consumers of 64 query rows each take turns (``BLOCK_M = 64 * CONSUMERS``), with
    ``REGISTERS`` registers per thread. P crosses from one key block to the next in the input dtype:
    carried in float32, it cost three consumers (160 registers) 1.6 KB of spills per thread. With
    ``Q_IN_REGS`` each tile's Q is loaded into registers once and ``Q @ K^T`` reads it from there.

    ``CTAS=2`` (N a multiple of ``2 * BLOCK_M``; launched with ``ctas_per_cga=(2, 1, 1)``): the two CTAs of a
    cluster walk neighbouring tiles of one head, which read the same keys and values, so each loads half of
    every key/value block and multicasts it into both (as FlashAttention-3 does at D=128, non-causal); a stage
    is refilled once the consumers of both CTAs released it (each arrives on both CTAs' ``empty`` barriers),
    and a CTA stays until the peer's consumers made their last arrive on it. Causal pairs walk from the
    diagonal, trimmed: the longer tile's stream has one block more, which the shorter tile's consumers pass
    (``_walk_step``).

    ``PEEL_DIAGONAL`` (causal): a tile's key blocks below the diagonal run in a loop without the mask's
    test, the blocks the diagonal crosses in a second loop after it, as FlashAttention-3 does.

    ``WAIT_AFTER_SOFTMAX``: each key block waits for the previous block's ``P @ V`` after its softmax, not
    before it where ptxas puts the wait (``_wait_after_softmax``).

    ``LAZY_RESCALE``: rows keep their maxima until one grows by more than 8 (``_online_softmax``), and each
    warp skips the accumulator's rescale when none of its rows changed (``tlx.scale_rows``).

    ``DIAGONAL_FIRST`` (causal): each tile walks its key blocks from the diagonal down, as FlashAttention-3
    does, so that its first block takes the mask and the key-block loop carries no mask. With ``BLOCK_M ==
    BLOCK_N`` one key block holds a tile's whole diagonal; with ``BLOCK_M == 1.5 * BLOCK_N`` (three
    consumers) it lies in the tile's last two key blocks: the walk masks both, the second peeled out of the
    loop. With the mask's branch in the loop, ptxas waits for the previous block's ``P @ V`` at the top of
    the block after the branch, before the row maxima, on every key block (Nsight Compute, 2026-12-06
    session 25 results); that wait's place alone did not measure as the cost (session 26: loops waiting at
    either end of the softmax timed the same).

    ``TRIM_DIAGONAL`` (with ``DIAGONAL_FIRST``): a consumer whose rows end part-way into their diagonal block
    reads only the keys up to there, ``Q @ K^T``, softmax and ``P @ V`` at that width (two consumers: consumer 0
    reads 64 of 128 keys); the next key block is peeled out of the loop, whose P is full width. With three
    consumers (``BLOCK_M == 1.5 * BLOCK_N``) which consumers trim depends on the tile's parity, a run-time
    branch (``diagonal_blocks``) that meets the untrimmed start before the consumer's one key-block loop (two
    consumers at D=64 take it too, measured faster); of the tile's last key block, consumers whose rows end
    before it pass its turn (``skip_key_block``).

    ``EXTRA_V_STAGES``: the value ring is that many stages deeper than the key ring (values are read last and
    handed back last)."""
    dtype = tlx.dtype_of(q_desc)
    SUB_M: tl.constexpr = BLOCK_M // CONSUMERS
    KV_BYTES: tl.constexpr = BLOCK_N * HEAD_DIM * 2
    V_STAGES: tl.constexpr = NUM_STAGES + EXTRA_V_STAGES

    q_tiles = tlx.local_alloc((SUB_M, HEAD_DIM), dtype, 2 * CONSUMERS)  # consumer c, tile t: [2 * c + t % 2]
    k_tiles = tlx.local_alloc((BLOCK_N, HEAD_DIM), dtype, NUM_STAGES)
    v_tiles = tlx.local_alloc((BLOCK_N, HEAD_DIM), dtype, V_STAGES)
    q_full = tlx.alloc_barriers(2 * CONSUMERS)
    q_empty = tlx.alloc_barriers(2 * CONSUMERS)
    k_full = tlx.alloc_barriers(NUM_STAGES)
    v_full = tlx.alloc_barriers(V_STAGES)
    # Every consumer reads every block, in a cluster pair those of both CTAs.
    k_empty = tlx.alloc_barriers(NUM_STAGES, arrive_count=CONSUMERS * CTAS)
    v_empty = tlx.alloc_barriers(V_STAGES, arrive_count=CONSUMERS * CTAS)
    if CTAS == 2:
        done = tlx.alloc_barriers(1, arrive_count=CONSUMERS)  # the peer's consumers made their last arrive here
        tlx.fence_mbarrier_init_cluster()
    rank = tlx.cluster_cta_rank() if CTAS == 2 else 0

    # A causal head's last tile ends at N when BLOCK_M does not divide every N (a multiple of 128): it
    # measured 1-5% faster (three consumers, N = 16384..4096) than a last tile overlapping the one
    # before. Non-causal lost 0.6-0.8% to the branch that lets consumers idle, and keeps the overlap.
    SHORT_LAST_TILE: tl.constexpr = CAUSAL and 128 % BLOCK_M != 0
    tl.static_assert(
        not DIAGONAL_FIRST or ((BLOCK_M == BLOCK_N or 2 * BLOCK_M == 3 * BLOCK_N) and not PEEL_DIAGONAL),
        "DIAGONAL_FIRST needs the diagonal in one or two key blocks (BLOCK_M == BLOCK_N or 1.5 * BLOCK_N) and one loop",
    )
    FROM_DIAGONAL: tl.constexpr = DIAGONAL_FIRST and CAUSAL
    TRIM: tl.constexpr = TRIM_DIAGONAL and FROM_DIAGONAL
    tl.static_assert(
        CTAS == 1 or not CAUSAL or (TRIM and BLOCK_M == BLOCK_N),
        "causal cluster pairs walk from the diagonal, trimmed (DIAGONAL_FIRST, TRIM_DIAGONAL, BLOCK_M == BLOCK_N)",
    )
    tl.static_assert(
        not TRIM or BLOCK_N == 2 * SUB_M,
        "TRIM_DIAGONAL trims the diagonal block to SUB_M keys: BLOCK_N must be 2 * SUB_M",
    )
    num_m = tl.cdiv(N, BLOCK_M)
    if CAUSAL:  # the host's plan: this CTA's (or cluster pair's) tiles, one after the other
        first_tile = tl.load(schedule + tl.program_id(0) // CTAS)
        end_tile = tl.load(schedule + tl.program_id(0) // CTAS + 1)
        step = 1
    else:  # equal tiles, head by head, round-robin (a cluster pair: tiles 2i and 2i + 1, as num_m is even)
        first_tile = tl.program_id(0)
        end_tile = BH * num_m
        step = tl.num_programs(0)

    with tlx.async_tasks():
        with tlx.async_task("default"):
            if CTAS == 2:
                tlx.cluster_barrier()  # the peer's mbarriers are initialized
            t = 0  # tiles so far: which Q buffer, and its phase
            kv = 0  # key/value blocks so far: the ring's position
            for i in range(first_tile, end_tile, step):
                head, start_m, stream_m = _walk_step(schedule, i, rank, N, num_m, BLOCK_M, CAUSAL, CTAS,
                                                     SHORT_LAST_TILE)  # fmt: skip
                row0 = head * N
                load_q_double_buffered(
                    q_desc, q_tiles, q_full, q_empty, t, row0 + start_m, 0, SUB_M, HEAD_DIM, CONSUMERS
                )
                n_blocks = _kv_blocks(stream_m, N, CTAS * BLOCK_M, BLOCK_N, CAUSAL, SHORT_LAST_TILE)
                for j in range(n_blocks):
                    key_block = n_blocks - 1 - j if FROM_DIAGONAL else j
                    load_kv_block(k_desc, v_desc, k_tiles, v_tiles, k_full, v_full, k_empty, v_empty, kv,
                                  row0 + key_block * BLOCK_N, 0, NUM_STAGES, V_STAGES, KV_BYTES, rank,
                                  CTAS)  # fmt: skip
                    kv += 1
                t += 1
            if CTAS == 2:
                tlx.barrier_wait(done[0], 0)

        with tlx.async_task(num_warps=4, registers=REGISTERS, replicate=CONSUMERS):
            cid: tl.constexpr = tlx.async_task_replica_id()
            peer = rank ^ 1
            # TRIM_DIAGONAL: with three consumers whether one trims depends on the tile's parity, and the trimmed
            # and untrimmed starts meet before one key-block loop (``diagonal_blocks``). Two consumers' tiles have
            # their diagonal in the last key block, consumer c's rows end (c + 1) * SUB_M keys into it, and consumer
            # 0 trims but for a head's first tile, which has no block below: at D=128 the kernel knows it trims
            # (TRIMMED) and has the tile's only block end the walk in a branch of its own. H100 (bf16, CUDA graphs,
            # 2026-12-07 session 36 results): at D=128 the branch ran 0.6-1.0% faster (N = 1024, 4096, 16384), at
            # D=64 the run-time start 1.2% / 1.8% faster (N = 2048 / 4096; tied at 1024). Why is not known.
            TRIM_AT_RUN_TIME: tl.constexpr = TRIM and (BLOCK_M > BLOCK_N or HEAD_DIM == 64 or CTAS == 2)
            TRIMMED: tl.constexpr = TRIM and BLOCK_M == BLOCK_N and (cid + 1) * SUB_M < BLOCK_N
            DIAGONAL_KEYS: tl.constexpr = (cid + 1) * SUB_M if TRIMMED else 0
            if CTAS == 2:
                tlx.cluster_barrier()
            t = 0
            kv = 0
            for i in range(first_tile, end_tile, step):
                head, start_m, stream_m = _walk_step(schedule, i, rank, N, num_m, BLOCK_M, CAUSAL, CTAS,
                                                     SHORT_LAST_TILE)  # fmt: skip
                n_blocks = _kv_blocks(stream_m, N, CTAS * BLOCK_M, BLOCK_N, CAUSAL, SHORT_LAST_TILE)
                q = 2 * cid + t % 2
                # The last consumer's last turn of the walk passes to nobody.
                pass_turn = cid < CONSUMERS - 1 or i + step < end_tile
                idle = False
                if SHORT_LAST_TILE:
                    idle = start_m + cid * SUB_M >= N  # this consumer's rows lie past the head's end
                if idle:
                    kv = pass_idle_turns(k_full, k_empty, v_full, v_empty, q_full, q_empty, kv, t, q, n_blocks, cid,
                                         pass_turn, NUM_STAGES, V_STAGES, CONSUMERS)  # fmt: skip
                else:
                    q_tile = q_tiles[q]
                    rows = start_m + cid * SUB_M + tl.arange(0, SUB_M)
                    acc = tl.zeros((SUB_M, HEAD_DIM), dtype=tl.float32)
                    tlx.barrier_wait(q_full[q], (t // 2) & 1)
                    q_operand = tlx.local_load(q_tile) if Q_IN_REGS else q_tile

                    if TRIM_AT_RUN_TIME:
                        # The key block this consumer's rows end in, and whether they end half-way into it, with a
                        # block below. Of a 192-row tile's last block, one or two consumers' rows reach nothing:
                        # they skip its turn.
                        if BLOCK_M == BLOCK_N and CTAS == 1:
                            diagonal = n_blocks - 1
                            opens_tile = True
                            trims = (cid + 1) * SUB_M < BLOCK_N and diagonal > 0
                        else:
                            rows_end = start_m + (cid + 1) * SUB_M
                            diagonal = (rows_end - 1) // BLOCK_N
                            opens_tile = diagonal == n_blocks - 1
                            if not opens_tile:
                                kv = skip_key_block(k_full, k_empty, v_full, v_empty, q_empty, kv, t, q, cid, True,
                                                    NUM_STAGES, V_STAGES, CONSUMERS, peer, CTAS)  # fmt: skip
                            trims = rows_end % BLOCK_N != 0 and diagonal > 0
                        p, acc, m_i, l_i, kv, below = diagonal_blocks(q_operand, k_tiles, v_tiles, k_full, v_full,
                                                                      k_empty, v_empty, q_empty, acc, kv, t, q,
                                                                      diagonal, opens_tile, trims, start_m, rows,
                                                                      qk_scale, cid, dtype, BLOCK_N, SUB_M, NUM_STAGES,
                                                                      V_STAGES, CONSUMERS, WAIT_AFTER_SOFTMAX,
                                                                      LAZY_RESCALE, peer, CTAS)  # fmt: skip
                        acc, l_i, kv = key_blocks_from(q_operand, k_tiles, v_tiles, k_full, v_full, k_empty, v_empty,
                                                       p, acc, m_i, l_i, kv, diagonal + 1 - below, diagonal + 1,
                                                       start_m, rows, qk_scale, cid, pass_turn, dtype, BLOCK_N,
                                                       NUM_STAGES, V_STAGES, CONSUMERS, False, peer, CTAS,
                                                       WAIT_AFTER_SOFTMAX, LAZY_RESCALE)  # fmt: skip
                    else:
                        # Block 0: S only. The consumers alternate issuing across tiles too.
                        s_ij = first_scores(q_operand, k_tiles, k_full, k_empty, q_empty, kv, t, q, cid, NUM_STAGES,
                                            CONSUMERS, peer, CTAS, DIAGONAL_KEYS)  # fmt: skip
                        if FROM_DIAGONAL:  # the tile's last key block, whose keys end where its rows do
                            s_ij = _mask_above_diagonal(s_ij, rows, n_blocks - 1, BLOCK_N)
                        elif CAUSAL:
                            if start_m < BLOCK_N:  # the diagonal runs through block 0
                                s_ij = _mask_above_diagonal(s_ij, rows, 0, BLOCK_N)
                        # With two diagonal blocks a tile's last key block may lie past a consumer's rows: all masked.
                        TWO_DIAGONAL_BLOCKS: tl.constexpr = FROM_DIAGONAL and BLOCK_M > BLOCK_N
                        p, m_i, l_i = _first_softmax(s_ij, qk_scale, TWO_DIAGONAL_BLOCKS)
                        TWO_LOOPS: tl.constexpr = PEEL_DIAGONAL and CAUSAL
                        p = packed_operand(p, dtype) if TWO_LOOPS else p.to(dtype)
                        kv += 1

                        if TRIMMED:  # P of the diagonal block is narrower than the loop's: the next block is peeled
                            if n_blocks > 1:
                                p_wide, acc, m_i, l_i = next_key_block(q_operand, k_tiles, v_tiles, k_full, v_full,
                                                                       k_empty, v_empty, p, acc, m_i, l_i, kv, 1,
                                                                       start_m, rows, qk_scale, cid, dtype, BLOCK_N,
                                                                       NUM_STAGES, V_STAGES, CONSUMERS, False, peer,
                                                                       CTAS, WAIT_AFTER_SOFTMAX,
                                                                       LAZY_RESCALE)  # fmt: skip
                                kv += 1
                                acc, l_i, kv = key_blocks_from(q_operand, k_tiles, v_tiles, k_full, v_full, k_empty,
                                                               v_empty, p_wide, acc, m_i, l_i, kv, 2, n_blocks,
                                                               start_m, rows, qk_scale, cid, pass_turn, dtype, BLOCK_N,
                                                               NUM_STAGES, V_STAGES, CONSUMERS, False, peer, CTAS,
                                                               WAIT_AFTER_SOFTMAX, LAZY_RESCALE)  # fmt: skip
                            else:
                                acc = last_pv(v_tiles, v_full, v_empty, p, acc, kv, cid, pass_turn, V_STAGES,
                                              CONSUMERS, peer, CTAS)  # fmt: skip
                        else:
                            masked_from = 1
                            if TWO_LOOPS:  # first the blocks below the diagonal: they end by start_m
                                masked_from = tl.maximum(start_m // BLOCK_N, 1)
                                for j in range(1, masked_from):
                                    p, acc, m_i, l_i = next_key_block(q_operand, k_tiles, v_tiles, k_full, v_full,
                                                                      k_empty, v_empty, p, acc, m_i, l_i, kv, j,
                                                                      start_m, rows, qk_scale, cid, dtype, BLOCK_N,
                                                                      NUM_STAGES, V_STAGES, CONSUMERS, False, peer,
                                                                      CTAS, WAIT_AFTER_SOFTMAX,
                                                                      LAZY_RESCALE)  # fmt: skip
                                    kv += 1
                            if TWO_DIAGONAL_BLOCKS:  # the block below the last one, masked where the diagonal crosses
                                if n_blocks > 1:
                                    p, acc, m_i, l_i = next_key_block(q_operand, k_tiles, v_tiles, k_full, v_full,
                                                                      k_empty, v_empty, p, acc, m_i, l_i, kv,
                                                                      n_blocks - 2, start_m, rows, qk_scale, cid,
                                                                      dtype, BLOCK_N, NUM_STAGES, V_STAGES, CONSUMERS,
                                                                      True, peer, CTAS, WAIT_AFTER_SOFTMAX,
                                                                      LAZY_RESCALE)  # fmt: skip
                                    kv += 1
                                masked_from = 2
                            acc, l_i, kv = key_blocks_from(q_operand, k_tiles, v_tiles, k_full, v_full, k_empty,
                                                           v_empty, p, acc, m_i, l_i, kv, masked_from, n_blocks,
                                                           start_m, rows, qk_scale, cid, pass_turn, dtype, BLOCK_N,
                                                           NUM_STAGES, V_STAGES, CONSUMERS,
                                                           CAUSAL and not FROM_DIAGONAL, peer, CTAS,
                                                           WAIT_AFTER_SOFTMAX, LAZY_RESCALE)  # fmt: skip

                    # No Q @ K^T reads this tile's Q buffer any more: it stages the output.
                    # One reciprocal per row: ``acc / l_i`` divides each element (div.full.f32, four instructions
                    # each). H100, session 35: 0.0-3.9% faster on all 11 shapes measured (D=64 and 128,
                    # causal N = 1024..16384, non-causal 4096 and 8192), most at N = 1024.
                    tlx.local_store(q_tile, (acc * (1.0 / l_i)[:, None]).to(dtype))
                    tlx.fence_async_shared()
                    tlx.async_descriptor_store(o_desc, q_tile, [head * N + start_m + cid * SUB_M, 0])
                t += 1
            tlx.async_descriptor_store_wait(0)
            if CTAS == 2:
                tlx.barrier_arrive(done[0], remote_cta_rank=peer)


CONFIGS = {
    64: {"BLOCK_M": 128, "BLOCK_N": 128, "NUM_STAGES": 2},
    128: {"BLOCK_M": 128, "BLOCK_N": 128, "NUM_STAGES": 2},
}
#: The persistent kernel's configurations: two consumers (232 registers each), or three (16 warps leave
#: each 160 registers). Three do not fit at D=128: the scores, P and the accumulator alone would take all
#: 160 registers. ``Q_IN_REGS``: 1-3% faster at D=128 (not causal at N <= 2048); at D=64 with two consumers
#: 3-4% faster non-causal and even causal (measured at the power cap), with three half the speed.
#: ``PEEL_DIAGONAL`` (causal key blocks in two loops) and ``WAIT_AFTER_SOFTMAX`` stay off: measured on an H100
#: (bf16, CUDA graphs, 2026-12-06 results), peeling lost 2-6% (its first form, with 32 half swaps of P per
#: block, 3-12%); the wait after the softmax gained 0.5% and 0.2% at D=128 causal N = 16384 and 4096 but
#: lost 0.7% at 8192, 1.7% at 2048, 1.2-3.7% non-causal and 3% at D=64; both together: +0.5% to -4%.
#: More key/value stages at D=64 (3 or 4 for two consumers, 4 for three; all fit) measured -0.8% to +0.7%
#: (H100, 2026-12-06 session 32 results): the stages are not what the consumers wait for.
TWO_CONSUMERS = {
    "BLOCK_M": 128,
    "BLOCK_N": 128,
    "NUM_STAGES": 2,
    "CONSUMERS": 2,
    "REGISTERS": 232,
    "Q_IN_REGS": False,
    "CTAS": 1,
    "PEEL_DIAGONAL": False,
    "WAIT_AFTER_SOFTMAX": False,
    "LAZY_RESCALE": False,
    "DIAGONAL_FIRST": False,
    "EXTRA_V_STAGES": 0,
    "TRIM_DIAGONAL": False,
}
THREE_CONSUMERS = {**TWO_CONSUMERS, "BLOCK_M": 192, "NUM_STAGES": 3, "CONSUMERS": 3, "REGISTERS": 160}
TWO_CONSUMERS_Q_IN_REGS = {**TWO_CONSUMERS, "Q_IN_REGS": True}
#: ``LAZY_RESCALE`` skips 64 of the 455 instructions of a key block at D=128 (two consumers) and 32 of 413 at
#: D=64 (three) when no row of a warp grows by more than 8, adding 13 (the vote and the stale maxima). Measured
#: on an H100 (bf16, CUDA graphs, five rounds, 2026-12-06 results) it pays where it is on: cluster pairs 0.8% /
#: 1.1% (N = 8192 / 16384), three consumers causal 0.5-0.9% (N = 4096..16384); elsewhere it loses: three
#: consumers non-causal 0.9-1.0%, two consumers with Q in registers 0.1-0.3% causal and 2.3% non-causal at
#: N = 4096. At D=128 the consumers are not issue-bound.
THREE_CONSUMERS_CAUSAL = {**THREE_CONSUMERS, "LAZY_RESCALE": True}
#: Three consumers walking each tile from its diagonal (its two masked key blocks first, the second peeled
#: out of the loop), measured on an H100 (bf16, CUDA graphs, three runs of three or five rounds; 2026-12-06
#: session 31 results) against ``THREE_CONSUMERS_CAUSAL``: +1.6% / +1.6% at N = 16384, +1.3% at 12288,
#: +0.8% / +0.8% / +1.1% at 8192, +0.4% / +0.5% at 6144, -1.2% / -0.7% / -0.5% at 4096, where two consumers
#: from the diagonal (``TWO_CONSUMERS_DIAGONAL_FIRST``) gain 0.7% / 0.9% instead (and lose 5% from 6144).
THREE_CONSUMERS_DIAGONAL_FIRST = {**THREE_CONSUMERS_CAUSAL, "DIAGONAL_FIRST": True}
#: The same with the diagonal trimmed (``TRIM_DIAGONAL``): each consumer starts from the key block its rows end in,
#: on its first 64 keys where they end half-way (of a 192-row tile's last block, one or two consumers' rows reach
#: nothing: they pass its turn). Measured on an H100 (bf16, CUDA graphs, three rounds; 2026-12-07 session 36
#: results) against the untrimmed walk: +1.9% at N = 8192, -0.5% at 16384 (the work it leaves out: 2.25% and
#: 1.15%); at 4096, 0.6% behind two consumers. Its first form, with a key-block loop in each branch of the trim,
#: made the kernel 130 KiB of code instead of 108 and ran at 0.59-0.74x: one loop per consumer is what works.
THREE_CONSUMERS_TRIMMED = {**THREE_CONSUMERS_DIAGONAL_FIRST, "TRIM_DIAGONAL": True}
#: ``DIAGONAL_FIRST`` (causal) measured on an H100 (bf16, CUDA graphs, three rounds; 2026-12-06 session 25
#: results): D=64 +1.4% at N = 1024, +2.5% / +2.0% / +0.5% at 2048 (three runs); D=128 -2.1..+0.4%
#: (N = 1024..16384, three runs), where the loop without the mask in the forward order (results wrong, for
#: the bound) is 1.3-2.6% faster: walking from the diagonal and masking the first block cost as much.
#: With ``TRIM_DIAGONAL`` and one more value stage (``EXTRA_V_STAGES``), measured on an H100 (bf16, CUDA
#: graphs, three rounds, two runs where two figures; 2026-12-07 session 35 results) together with the
#: one-reciprocal epilogue against this walk before the three: +7.6% / +8.1% at N = 1024, +4.1% / +4.4% at
#: 2048, +2.0% at 4096. Alone: the trim +5.1 / +2.3 / +0.9%, the value stage -0.3 / +0.3 / -1.0%, the
#: reciprocal +3.2 / +1.5 / +0.3%; the trim with the reciprocal +6.7 / +3.8% at N = 1024 / 2048: the value
#: stage adds its 0.6-1.3% only beside the trim.
TWO_CONSUMERS_DIAGONAL_FIRST = {
    **TWO_CONSUMERS_Q_IN_REGS,
    "DIAGONAL_FIRST": True,
    "TRIM_DIAGONAL": True,
    "EXTRA_V_STAGES": 1,
}
#: D=128 causal walks from the diagonal with Q in shared memory and 240 registers per consumer (the producer
#: keeps 24), FlashAttention-3's split of the register file: measured on an H100 (bf16, CUDA graphs, three
#: rounds, two runs; 2026-12-06 session 26 results) against Q in registers in the forward walk, +2.2% / +2.2%
#: at N = 16384, +1.8% at 8192, +1.1% / +1.4% at 4096, +0.1% / -1.5% at 2048 and -2.7% at 1024; 232 registers
#: gain about half as much, the forward walk with the same registers loses 2-3%. With Q in registers the walk
#: from the diagonal gained nothing (session 25).
#: With ``TRIM_DIAGONAL`` and one more value stage it is the D=128 causal configuration at every N. Measured
#: as above (session 35) with the one-reciprocal epilogue, against what shipped before (the forward walk at
#: N <= 2048, this walk untrimmed above): +7.1% / +6.0% at N = 1024, +3.1% / +4.1% at 2048, +1.4% / +1.6% at
#: 4096, +0.6% at 8192, +0.1% at 16384. The trim with the reciprocal: +5.6% / +3.3% / +0.9% (N = 1024 / 2048 /
#: 4096); the value stage alone -0.2..+1.5%.
TWO_CONSUMERS_DIAGONAL_FIRST_Q_IN_SMEM = {
    **TWO_CONSUMERS,
    "REGISTERS": 240,
    "DIAGONAL_FIRST": True,
    "TRIM_DIAGONAL": True,
    "EXTRA_V_STAGES": 1,
}
#: Cluster pairs sharing their keys and values by multicast (non-causal, N a multiple of 2 * BLOCK_M). Measured
#: on an H100 (bf16, CUDA graphs, three rounds; 2026-12-07 session 39 results) against two consumers with Q in
#: registers: +1.0% at N = 2048 and 4096 (fp16 4096 +1.6%), +0.4% at 8192 (single CTA -1.9% there), -0.2% at 1024;
#: with Q in shared memory and 240 registers (the causal pairs' split) -0.6% to -1.9% instead.
CLUSTER_PAIRS = {**TWO_CONSUMERS_Q_IN_REGS, "CTAS": 2, "LAZY_RESCALE": True}
#: Causal cluster pairs (D=128, N a multiple of 256): the CTAs walk query blocks 2a and 2a + 1 of one head from
#: the diagonal, trimmed, sharing the longer one's key/value stream by multicast; the shorter one's consumers pass
#: its first block (``_walk_step``). They rescale lazily: without it the pairs tied with single CTAs (0.98-1.00x,
#: N = 2048..16384), with it they run 0.5-3.6% faster (H100, bf16 and fp16, 2026-12-07 session 38 results), while
#: single CTAs lose 0.6-2.6% to it.
CAUSAL_CLUSTER_PAIRS = {**TWO_CONSUMERS_DIAGONAL_FIRST_Q_IN_SMEM, "CTAS": 2, "LAZY_RESCALE": True}


def _cluster_rows(cfg: dict) -> int:
    """Query rows a cluster walks as one: ``BLOCK_M`` per CTA, neighbouring tiles of one head (N must be a
    multiple of it)."""
    return cfg.get("CTAS", 1) * cfg["BLOCK_M"]


def persistent_config(head_dim: int, causal: bool, n: int) -> dict:
    """The persistent kernel's configuration for a problem, as measured on the H200 (bf16, one process).
    At D=64 three consumers won by 10% non-causal from N = 2048 (tied at 1024) and causal from N = 4096
    (by 1.9% there, once a head's last tile ended at N); below that, causal lost (by 11% at N = 2048, 32%
    at N = 1024), where a 192-row tile's diagonal crosses two key blocks. At D=128, Q in registers won by
    1-3%; cluster pairs (non-causal) by 0.3% at N = 8192 and 0.5% at 16384 (on an H100 with the lazy
    rescale: 1.0% at 2048 and 4096, tied at 1024). Re-measured at the power cap (steady clocks, CUDA
    graphs): causal N <= 2048 at D=128 is 0-1.2% faster with Q in shared memory; two consumers at D=64
    keep Q in registers too (3% faster non-causal at N = 1024, even causal), and causal ones walk each tile
    from its diagonal (``DIAGONAL_FIRST``, H100: 0.5-2.5% faster). Causal at D=128 from N = 4096 walks from
    the diagonal too, with Q in shared memory and 240 registers (H100: 1.1-2.2% faster), and at every N
    since the diagonal block is trimmed (``TRIM_DIAGONAL``, H100: 3-7% faster at N <= 2048); where N is a
    multiple of 256, causal D=128 runs in cluster pairs rescaling lazily (H100: 0.5-3.6% faster at N =
    1024..16384, most at 8192 and above). Causal at D=64, two consumers walk from the diagonal through N =
    4096 (H100: 0.7-0.9% faster than three in the forward walk there), three above it (H100: 0.4-1.6%
    faster than three in the forward walk, 5% faster than two), with the diagonal trimmed through N = 8192
    (H100: 1.9% faster at 8192, 0.5% slower at 16384)."""
    if head_dim == 128:
        if not causal and n >= 2048 and n % _cluster_rows(CLUSTER_PAIRS) == 0:
            return CLUSTER_PAIRS
        if causal:
            pairs = n % _cluster_rows(CAUSAL_CLUSTER_PAIRS) == 0
            return CAUSAL_CLUSTER_PAIRS if pairs else TWO_CONSUMERS_DIAGONAL_FIRST_Q_IN_SMEM
        return TWO_CONSUMERS_Q_IN_REGS
    if causal:
        if n <= 4096:
            return TWO_CONSUMERS_DIAGONAL_FIRST
        return THREE_CONSUMERS_TRIMMED if n <= 8192 else THREE_CONSUMERS_DIAGONAL_FIRST
    return TWO_CONSUMERS_Q_IN_REGS if n < 2048 else THREE_CONSUMERS


#: A causal schedule hands out its last heads' tiles one by one, longest first, enough of them for about
#: this many rounds of the SMs; fewer heads at once keep their keys and values in L2.
_BALANCING_ROUNDS = 4


def causal_schedule(batch_heads: int, n: int, programs: int, block_m: int, block_n: int) -> list[int]:
    """The persistent kernel's causal plan: which query tiles each of ``programs`` CTAs computes, in order.

    Returns ``programs + 1`` offsets into the list itself, then the tiles, each as
    ``head * num_m + m``: CTA ``c`` computes ``plan[plan[c]:plan[c + 1]]``. Tiles go, in order, to the
    CTA with the least work so far (a tile's work: its key blocks, plus one for its prologue and
    epilogue; two or three measured the same), as a dynamic scheduler would hand them out if every block
    took the same time. On the H200 suite's shapes the SMs then spend about 1% of the walk idle at its end
    (D=128, N >= 2048; 4% at N = 1024), which bounds what a dynamic scheduler could still win. Measured
    (H100, bf16, 2026-12-06 session 28 results): per-tile clock stamps give 1.3% idle at D=128 N = 16384; a
    dynamic walk (tiles taken from a global counter in this order) gained 0.2-0.6% causal over the same
    kernel's static walk (non-causal it lost 1%), but its ``while`` loops cost the static walk 0.3-2.2%
    against these ``for`` loops: a net loss, not kept.

    Causal tiles differ in length by up to ``num_m`` times. Most heads go by pairs, query block
    ``num_m - 1 - p`` with block ``p`` (every pair reads the same number of key blocks), head by head, so
    that the CTAs working at once share a few heads' keys and values in L2; the last few heads go tile by
    tile, longest first, so that the final round ends within about one short tile everywhere. By pairs
    alone, the walk lasted until the last round of pairs ended: up to 6% past the average on the suite's
    shapes (the share of SMs idle in that round). Non-causal tiles are all alike: the kernel walks them
    round-robin without a plan."""
    import heapq

    num_m = -(-n // block_m)

    def work(m: int) -> int:
        return -(-min((m + 1) * block_m, n) // block_n) + 1

    singles = min(batch_heads, -(-_BALANCING_ROUNDS * programs // num_m))
    paired = batch_heads - singles
    items = [
        [h * num_m + m for m in dict.fromkeys((num_m - 1 - p, p))]
        for h in range(paired)
        for p in range((num_m + 1) // 2)
    ]
    items += [[h * num_m + m] for m in reversed(range(num_m)) for h in range(paired, batch_heads)]
    tiles: list[list[int]] = [[] for _ in range(programs)]
    loads = [(0, c) for c in range(programs)]
    for item in items:
        load, c = heapq.heappop(loads)
        tiles[c] += item
        heapq.heappush(loads, (load + sum(work(tile % num_m) for tile in item), c))
    offsets = [programs + 1]
    for mine in tiles:
        offsets.append(offsets[-1] + len(mine))
    return offsets + [tile for mine in tiles for tile in mine]


_CAUSAL_SCHEDULES: dict = {}  # (device, causal_schedule's arguments) -> the plan on that device
_CAUSAL_SCHEDULES_KEPT = 64


def _causal_schedule_on(device, *plan_args):
    """``causal_schedule(*plan_args)`` on ``device``, uploaded on its first use and kept."""
    import torch

    key = (device, plan_args)
    plan = _CAUSAL_SCHEDULES.get(key)
    if plan is None:
        if torch.cuda.is_current_stream_capturing():  # the upload synchronizes: a capture cannot record it
            raise RuntimeError(
                "ws_attention.run: a causal shape's tile schedule is uploaded to the GPU on its first call, "
                "which a CUDA graph capture cannot record; call run() once for this shape before capturing"
            )
        if len(_CAUSAL_SCHEDULES) >= _CAUSAL_SCHEDULES_KEPT:
            del _CAUSAL_SCHEDULES[next(iter(_CAUSAL_SCHEDULES))]
        plan = torch.tensor(causal_schedule(*plan_args), dtype=torch.int32, device=device)
        _CAUSAL_SCHEDULES[key] = plan
    return plan


NUM_WARPS = 4  # the producer; each consumer brings 4 more


def _spec(head_dim: int, causal: bool) -> dict:
    cfg = CONFIGS[head_dim]
    half, bn = cfg["BLOCK_M"] // 2, cfg["BLOCK_N"]
    return {
        "kernel": ws_attention_kernel,
        "signature": {
            "q_desc": f"tensordesc<fp16[{half}, {head_dim}]>",
            "k_desc": f"tensordesc<fp16[{bn}, {head_dim}]>",
            "v_desc": f"tensordesc<fp16[{bn}, {head_dim}]>",
            "o_desc": f"tensordesc<fp16[{half}, {head_dim}]>",
            "N": "i32",
            "qk_scale": "fp32",
            "HEAD_DIM": "constexpr",
            "BLOCK_M": "constexpr",
            "BLOCK_N": "constexpr",
            "NUM_STAGES": "constexpr",
            "CAUSAL": "constexpr",
            "PINGPONG": "constexpr",
        },
        "constexprs": {**cfg, "HEAD_DIM": head_dim, "CAUSAL": causal, "PINGPONG": True},
        "num_warps": NUM_WARPS,
        "ptx": (
            "cp.async.bulk.tensor.2d.shared::cluster.global",
            "mbarrier.try_wait",
            "wgmma.mma_async",
            "wgmma.wait_group.sync.aligned 1",
            "setmaxnreg.inc.sync.aligned.u32",
            "setmaxnreg.dec.sync.aligned.u32",
            "bar.sync",
            "bar.arrive",
            "ex2.approx",
            "cp.async.bulk.tensor.2d.global.shared",
        ),
    }


SPEC = _spec(128, causal=False)
SPEC_CAUSAL_D64 = _spec(64, causal=True)


def _cluster_layout(cfg: dict) -> tuple[int, dict]:
    """Rows of each TMA box of keys and values, and the launch options, for configuration ``cfg``: a cluster
    pair's CTAs (``CTAS=2``) each load half a block, and are launched with ``ctas_per_cga=(2, 1, 1)``."""
    ctas = cfg.get("CTAS", 1)
    return cfg["BLOCK_N"] // ctas, ({"ctas_per_cga": (ctas, 1, 1)} if ctas > 1 else {})


def _persistent_spec(head_dim: int, causal: bool, cfg: dict) -> dict:
    spec = _spec(head_dim, causal)
    kv_rows, options = _cluster_layout(cfg)
    rows = {"q_desc": cfg["BLOCK_M"] // cfg["CONSUMERS"], "k_desc": kv_rows, "v_desc": kv_rows}
    rows["o_desc"] = rows["q_desc"]
    signature = {}
    for name, kind in spec["signature"].items():
        if name == "N":
            signature["schedule"] = "*i32" if causal else "constexpr"
        if name == "qk_scale":
            signature["BH"] = "i32"
        if name in rows:
            kind = f"tensordesc<fp16[{rows[name]}, {head_dim}]>"
        if name != "PINGPONG":
            signature[name] = kind
    # The configurations' knobs past the ones the one-tile kernel takes too (BLOCK_M, BLOCK_N, NUM_STAGES).
    signature.update(dict.fromkeys((name for name in TWO_CONSUMERS if name not in signature), "constexpr"))
    constexprs = {"HEAD_DIM": head_dim, "CAUSAL": causal, **cfg}
    if not causal:  # non-causal tiles are walked round-robin, without a plan
        constexprs["schedule"] = None
    ptx = spec["ptx"]
    if cfg["Q_IN_REGS"]:  # Q goes from its shared-memory buffer to registers by ldmatrix
        ptx += ("ldmatrix.sync.aligned",)
    if cfg.get("LAZY_RESCALE"):  # each warp votes on its rescale and branches around it
        ptx += ("vote.sync.ballot.b32", "bra.uni")
    if cfg["CTAS"] == 2:  # each CTA multicasts half of every key/value block; stages go back to both CTAs
        ptx += ("multicast::cluster", "mapa.shared::cluster", "mbarrier.arrive.shared::cluster.b64", "barrier.cluster")
    return {
        **spec,
        "kernel": ws_attention_persistent_kernel,
        "signature": signature,
        "constexprs": constexprs,
        "ptx": ptx,
        "options": options,
    }


SPEC_PERSISTENT = _persistent_spec(128, causal=False, cfg=TWO_CONSUMERS_Q_IN_REGS)
SPEC_PERSISTENT_CAUSAL_D64 = _persistent_spec(64, causal=True, cfg=TWO_CONSUMERS_Q_IN_REGS)
SPEC_PERSISTENT_THREE_CONSUMERS_D64 = _persistent_spec(64, causal=False, cfg=THREE_CONSUMERS)
SPEC_PERSISTENT_THREE_CONSUMERS_CAUSAL_D64 = _persistent_spec(64, causal=True, cfg=THREE_CONSUMERS_DIAGONAL_FIRST)
SPEC_PERSISTENT_TRIMMED_THREE_CONSUMERS_CAUSAL_D64 = _persistent_spec(64, causal=True, cfg=THREE_CONSUMERS_TRIMMED)
SPEC_PERSISTENT_CLUSTER_PAIRS = _persistent_spec(128, causal=False, cfg=CLUSTER_PAIRS)
SPEC_PERSISTENT_CAUSAL = _persistent_spec(128, causal=True, cfg=TWO_CONSUMERS_DIAGONAL_FIRST_Q_IN_SMEM)
SPEC_PERSISTENT_CAUSAL_CLUSTER_PAIRS = _persistent_spec(128, causal=True, cfg=CAUSAL_CLUSTER_PAIRS)
SPEC_PERSISTENT_PEELED_CAUSAL = _persistent_spec(
    128, causal=True, cfg={**TWO_CONSUMERS_Q_IN_REGS, "PEEL_DIAGONAL": True}
)


def run(
    q, k, v, causal: bool = False, sm_scale: float | None = None, pingpong: bool = True, out=None,
    persistent: bool | None = None, config: dict | None = None,
):  # fmt: skip
    """Attention forward, softmax(q @ k^T * sm_scale) @ v, for (B, H, N, D) fp16/bf16 CUDA tensors.

    ``persistent`` picks the persistent kernel (one CTA per SM, ping-pong only) or the one-CTA-per-tile
    grid; by default the persistent one (with ping-pong), which measured as fast or faster on the H200
    everywhere (at D=64, N >= 8192 by 13-19%; tied at causal D=128, N = 16384).

    N must be a multiple of 128 and D 64 or 128. The result goes to ``out`` when given (contiguous, q's
    shape and dtype), else to a new NaN-filled tensor. ``config`` (``TWO_CONSUMERS``, ``THREE_CONSUMERS``,
    ``TWO_CONSUMERS_Q_IN_REGS``, ``CLUSTER_PAIRS`` or a variant; keys it leaves out are ``TWO_CONSUMERS``')
    replaces the persistent kernel's ``persistent_config``.
    """
    import math

    batch, heads, n, d = q.shape
    if persistent is None:
        persistent = pingpong
    if persistent and not pingpong:
        raise ValueError("the persistent kernel always runs its consumers ping-pong: pass pingpong=True")
    if d not in CONFIGS:
        raise ValueError(f"head dim must be one of {sorted(CONFIGS)}, got {d}")
    if n % 128:
        raise ValueError(f"sequence length must be a multiple of 128, got {n}")

    if persistent:
        cfg = {**TWO_CONSUMERS, **(config or persistent_config(d, causal, n))}
        if n < cfg["BLOCK_M"]:  # two consumers of 64 rows fit any N that is a multiple of 128
            cfg = TWO_CONSUMERS
        if cfg["CTAS"] not in (1, 2):
            raise ValueError(f"config CTAS must be 1 or 2, got {cfg['CTAS']}")
        if cfg["CTAS"] == 2 and n % _cluster_rows(cfg):
            raise ValueError(
                f"cluster pairs (CTAS=2) walk neighbouring tiles of one head: N must be a multiple of "
                f"{_cluster_rows(cfg)}, got {n}"
            )
        pair_walk = (cfg["DIAGONAL_FIRST"], cfg["TRIM_DIAGONAL"], cfg["BLOCK_M"] == cfg["BLOCK_N"])
        if cfg["CTAS"] == 2 and causal and not all(pair_walk):
            raise ValueError(
                "causal cluster pairs (CTAS=2) walk each tile from its diagonal, trimmed: the config needs "
                "DIAGONAL_FIRST=True, TRIM_DIAGONAL=True and BLOCK_M == BLOCK_N"
            )
        rows = cfg["BLOCK_M"] // cfg["CONSUMERS"]
    else:
        cfg = CONFIGS[d]
        rows = cfg["BLOCK_M"] // 2

    import torch
    from triton.tools.tensor_descriptor import TensorDescriptor

    if not (q.dtype == k.dtype == v.dtype) or q.dtype not in (torch.float16, torch.bfloat16):
        raise ValueError("q, k and v must all be float16 or all bfloat16")
    sm_scale = 1.0 / math.sqrt(d) if sm_scale is None else sm_scale
    o = torch.full_like(q, float("nan")) if out is None else out
    if o.shape != q.shape or o.dtype != q.dtype or not o.is_contiguous():
        raise ValueError("out must be a contiguous tensor of q's shape and dtype")
    flat = [t.contiguous().view(batch * heads * n, d) for t in (q, k, v)]
    q_desc = TensorDescriptor.from_tensor(flat[0], [rows, d])
    kv_rows, options = _cluster_layout(cfg)
    k_desc = TensorDescriptor.from_tensor(flat[1], [kv_rows, d])
    v_desc = TensorDescriptor.from_tensor(flat[2], [kv_rows, d])
    o_desc = TensorDescriptor.from_tensor(o.view(batch * heads * n, d), [rows, d])
    if persistent:
        num_sms = torch.cuda.get_device_properties(q.device).multi_processor_count
        tiles = batch * heads * triton.cdiv(n, cfg["BLOCK_M"])
        programs = min(num_sms, tiles) // cfg["CTAS"] * cfg["CTAS"]  # whole clusters
        # A cluster pair walks the plan's tiles of 2 * BLOCK_M rows together.
        plan_args = (batch * heads, n, programs // cfg["CTAS"], _cluster_rows(cfg), cfg["BLOCK_N"])
        ws_attention_persistent_kernel[(programs,)](
            q_desc,
            k_desc,
            v_desc,
            o_desc,
            _causal_schedule_on(q.device, *plan_args) if causal else None,
            n,
            batch * heads,
            sm_scale * 1.4426950408889634,
            HEAD_DIM=d,
            CAUSAL=causal,
            num_warps=NUM_WARPS,
            **cfg,
            **options,
        )
        return o
    grid = (triton.cdiv(n, cfg["BLOCK_M"]), batch * heads)
    ws_attention_kernel[grid](
        q_desc,
        k_desc,
        v_desc,
        o_desc,
        n,
        sm_scale * 1.4426950408889634,
        HEAD_DIM=d,
        CAUSAL=causal,
        PINGPONG=pingpong,
        num_warps=NUM_WARPS,
        **cfg,
    )
    return o
