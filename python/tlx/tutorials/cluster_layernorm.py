"""LayerNorm with each row split across a cluster: partial sums exchanged through distributed shared memory.

A cluster of ``CLUSTER`` CTAs (``ctas_per_cga=(CLUSTER, 1, 1)``) normalizes ``BLOCK_ROWS`` rows; CTA
``rank`` holds columns ``[rank * CHUNK, (rank + 1) * CHUNK)`` of them in registers, so a row of 64k
elements is read once from memory and never leaves the SMs. The statistics need the whole row:

1. each CTA sums its chunk of every row (sum and sum of squares, fp32);
2. it stores those partials into slot ``rank`` of a small buffer in every CTA of the cluster,
   its own included (``tlx.remote_shmem_store``: ``mapa`` + ``st.shared::cluster``);
3. ``tlx.cluster_barrier()`` makes all the stores visible; each CTA adds the ``CLUSTER`` slots and
   normalizes its chunk.

No CTA writes another's shared memory after the barrier, so every CTA may exit once it has written
its output.
"""

import triton
import triton.language as tl

import tlx


@triton.jit
def cluster_layernorm_kernel(
    x,
    weight,
    bias,
    y,
    rows,
    eps,
    COLS: tl.constexpr,
    CLUSTER: tl.constexpr,
    BLOCK_ROWS: tl.constexpr,
):
    CHUNK: tl.constexpr = COLS // CLUSTER
    sums = tlx.local_alloc((BLOCK_ROWS,), tl.float32, CLUSTER)
    squares = tlx.local_alloc((BLOCK_ROWS,), tl.float32, CLUSTER)
    rank = tlx.cluster_cta_rank()
    first_row = (tl.program_id(0) // CLUSTER) * BLOCK_ROWS
    row = first_row + tl.arange(0, BLOCK_ROWS)
    col = rank * CHUNK + tl.arange(0, CHUNK)
    mask = (row < rows)[:, None]
    offsets = row[:, None].to(tl.int64) * COLS + col[None, :]
    chunk = tl.load(x + offsets, mask=mask, other=0.0).to(tl.float32)
    partial_sum = tl.sum(chunk, axis=1)
    partial_squares = tl.sum(chunk * chunk, axis=1)
    for peer in tl.static_range(CLUSTER):
        tlx.remote_shmem_store(sums[rank], partial_sum, peer)
        tlx.remote_shmem_store(squares[rank], partial_squares, peer)
    tlx.cluster_barrier()
    total = tlx.local_load(sums[0])
    total_squares = tlx.local_load(squares[0])
    for peer in tl.static_range(1, CLUSTER):
        total += tlx.local_load(sums[peer])
        total_squares += tlx.local_load(squares[peer])
    mean = total / COLS
    rstd = 1.0 / tl.sqrt(tl.maximum(total_squares / COLS - mean * mean, 0.0) + eps)
    w = tl.load(weight + col).to(tl.float32)
    b = tl.load(bias + col).to(tl.float32)
    out = (chunk - mean[:, None]) * rstd[:, None] * w[None, :] + b[None, :]
    tl.store(y + offsets, out.to(y.dtype.element_ty), mask=mask)


#: Per row length: CTAs per cluster, rows per cluster, warps per CTA (a CTA holds BLOCK_ROWS x COLS / CLUSTER).
def _config(cols: int) -> dict:
    cluster = 2 if cols <= 8192 else 4 if cols <= 32768 else 8
    block_rows = max(1, min(16, 8192 * cluster // cols))
    return {"CLUSTER": cluster, "BLOCK_ROWS": block_rows, "num_warps": 8}


SPEC = {
    "kernel": cluster_layernorm_kernel,
    "signature": {
        "x": "*bf16",
        "weight": "*bf16",
        "bias": "*bf16",
        "y": "*bf16",
        "rows": "i32",
        "eps": "fp32",
        "COLS": "constexpr",
        "CLUSTER": "constexpr",
        "BLOCK_ROWS": "constexpr",
    },
    "constexprs": {"COLS": 16384, "CLUSTER": 4, "BLOCK_ROWS": 2},
    "num_warps": 8,
    "options": {"ctas_per_cga": (4, 1, 1)},
    "ptx": ("mapa.shared::cluster", "st.shared::cluster.b32", "barrier.cluster.arrive", "%cluster_ctarank"),
}


def run(x, weight, bias, eps: float = 1e-5, out=None):
    """LayerNorm over the last dimension of a 2-D CUDA tensor (its length a power of two, >= 2048)."""
    import torch

    rows, cols = x.shape
    if cols < 2048 or cols & (cols - 1):
        raise ValueError(f"the row length must be a power of two >= 2048, got {cols}")
    cfg = _config(cols)
    y = torch.full_like(x, float("nan")) if out is None else out
    cluster = cfg["CLUSTER"]
    grid = (triton.cdiv(rows, cfg["BLOCK_ROWS"]) * cluster,)
    cluster_layernorm_kernel[grid](
        x,
        weight,
        bias,
        y,
        rows,
        eps,
        COLS=cols,
        CLUSTER=cluster,
        BLOCK_ROWS=cfg["BLOCK_ROWS"],
        num_warps=cfg["num_warps"],
        ctas_per_cga=(cluster, 1, 1),
    )
    return y
