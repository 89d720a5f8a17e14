"""Stock Triton GDPA forward (no TLX): the baseline `tlx.tutorials.gdpa` is measured against.

The same algorithm and jagged layout as the TLX tutorial (read its docstring): for every sequence b and
head h, ``out = where(mask, act(Q K^T * sm_scale), 0) @ V`` with ``act`` the tanh-approximate GELU, SiLU
or nothing, and no softmax. One program per (query tile of ``max_seq_len``, sequence * head); tiles past
a sequence's length exit at once; causal programs start with the tiles that have the most keys.

Written as well as stock Triton 3.6 allows: Q, K and V come through host TMA descriptors over the
(total_tokens, H * D) views (``desc.load``, which the software pipeliner turns into TMA + mbarrier
stages), both products are ``tl.dot`` (wgmma on Hopper), and the key loop is split in two so that only
the blocks that reach past the sequence end or cross the diagonal compute the mask. The output goes out
with a store masked at the sequence end (a tile's last rows may belong to the next sequence).
`candidates()` lists the configurations worth trying on Hopper; the bench times each and keeps the
fastest correct one. `WARP_SPECIALIZED_CONFIGS` go through the compiler's own warp specialization
(``tl.range(..., warp_specialize=True)``, one loop masking every block: Triton 3.6 rejects two
specialized loops in one kernel); they compile but hang on the H200, so they are not candidates.
"""

from __future__ import annotations

import math
from typing import Any

import triton
import triton.language as tl

from tlx.tutorials.gdpa import _activation, _check_inputs, _output, _output_scale, gdpa_key_blocks, gdpa_tile


@triton.jit
def _gdpa_block(acc, q, k_desc, v_desc, j, rows, seq_start, seq_len, col, sm_scale, BLOCK_N: tl.constexpr,
                ACTIVATION: tl.constexpr, CAUSAL: tl.constexpr, MASKED: tl.constexpr):  # fmt: skip
    """``acc + where(mask, act(Q K_j^T * sm_scale), 0) @ V_j`` for key block j (two wgmmas), up to the factor
    ``_output_scale`` the output takes."""
    k = k_desc.load([seq_start + j * BLOCK_N, col])
    p = _activation(tl.dot(q, k.T), sm_scale, ACTIVATION, True)
    if MASKED:
        cols = j * BLOCK_N + tl.arange(0, BLOCK_N)
        keep = cols[None, :] < seq_len
        if CAUSAL:
            keep = keep & (rows[:, None] >= cols[None, :])
        p = tl.where(keep, p, 0.0)
    v = v_desc.load([seq_start + j * BLOCK_N, col])
    return tl.dot(p.to(v.dtype), v, acc)


@triton.jit
def stock_gdpa_kernel(
    q_desc,
    k_desc,
    v_desc,
    o_ptr,
    offsets_ptr,
    H,
    sm_scale,
    HEAD_DIM: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    ACTIVATION: tl.constexpr,
    CAUSAL: tl.constexpr,
    WARP_SPECIALIZE: tl.constexpr,
):
    """One (query tile, sequence, head) of GDPA; the descriptors view q, k, v as (total_tokens, H * HEAD_DIM)."""
    seq_start, seq_len, start_m, col = gdpa_tile(offsets_ptr, H, HEAD_DIM, BLOCK_M, CAUSAL)
    # Triton 3.6's warp specialization fails on a kernel with an early return: there, a tile past the
    # sequence runs no key block and its store is masked off instead. (A constexpr `if` and a runtime
    # one: `and` does not mix them.)
    if not WARP_SPECIALIZE:  # noqa: SIM102
        if start_m >= seq_len:
            return
    n_blocks, mask_from = gdpa_key_blocks(start_m, seq_len, BLOCK_M, BLOCK_N, CAUSAL)
    n_blocks = tl.where(start_m < seq_len, n_blocks, 0)

    q = q_desc.load([seq_start + start_m, col])
    rows = start_m + tl.arange(0, BLOCK_M)
    acc = tl.zeros((BLOCK_M, HEAD_DIM), tl.float32)
    if WARP_SPECIALIZE:
        # Triton 3.6's Hopper warp specialization rejects a function with two such loops (and a
        # specialized loop followed by a plain one): one loop, every block masked.
        for j in tl.range(0, n_blocks, warp_specialize=True):
            acc = _gdpa_block(acc, q, k_desc, v_desc, j, rows, seq_start, seq_len, col, sm_scale, BLOCK_N,
                              ACTIVATION, CAUSAL, True)  # fmt: skip
    else:
        for j in range(0, mask_from):
            acc = _gdpa_block(acc, q, k_desc, v_desc, j, rows, seq_start, seq_len, col, sm_scale, BLOCK_N,
                              ACTIVATION, CAUSAL, False)  # fmt: skip
        for j in range(mask_from, n_blocks):
            acc = _gdpa_block(acc, q, k_desc, v_desc, j, rows, seq_start, seq_len, col, sm_scale, BLOCK_N,
                              ACTIVATION, CAUSAL, True)  # fmt: skip

    offsets = (seq_start + rows).to(tl.int64)[:, None] * (H * HEAD_DIM) + (col + tl.arange(0, HEAD_DIM))[None, :]
    out = acc * _output_scale(sm_scale, ACTIVATION, True)
    tl.store(o_ptr + offsets, out.to(o_ptr.dtype.element_ty), mask=rows[:, None] < seq_len)


def _config(bm: int, bn: int, stages: int, warps: int, ws: bool = False) -> dict:
    return {"BLOCK_M": bm, "BLOCK_N": bn, "num_stages": stages, "num_warps": warps, "WARP_SPECIALIZE": ws}


#: Hopper configurations per head dim, most promising first (FlashAttention's usual tiles: 128 query rows
#: over 8 warps, 64-128 keys per block, 2-3 stages; shared memory bounds the stages at D = 128).
CONFIGS: dict[int, list[dict]] = {
    64: [
        _config(128, 128, 3, 8),
        _config(128, 64, 3, 8),
        _config(128, 128, 2, 8),
        _config(64, 128, 3, 4),
    ],
    128: [
        _config(128, 64, 3, 8),
        _config(128, 128, 2, 8),
        _config(128, 64, 2, 8),
        _config(64, 64, 3, 4),
    ],
}
#: The same algorithm through the compiler's warp specialization (`tl.range(..., warp_specialize=True)`;
#: num_warps = 4 only: with 8 the loop compiles unspecialized). They compile, but on the H200 the first of
#: them (D = 64, 128x128, 3 stages) never finished (measured 2026-11-30, Triton 3.6, both causal settings
#: hung the test run), as the stock grouped GEMM's 128x128 warp-specialized configuration does
#: (tlx.tools.stock_grouped): the bench does not try them; the CPU tests keep compiling them.
WARP_SPECIALIZED_CONFIGS: dict[int, list[dict]] = {
    64: [_config(128, 128, 3, 4, ws=True), _config(128, 64, 3, 4, ws=True)],
    128: [_config(128, 64, 2, 4, ws=True), _config(128, 128, 2, 4, ws=True)],
}


def candidates(head_dim: int = 128) -> list[dict]:
    """The configurations the bench tries for ``head_dim`` (64 or 128), in order."""
    if head_dim not in CONFIGS:
        raise ValueError(f"stock gdpa: head_dim must be one of {sorted(CONFIGS)}, got {head_dim}")
    return list(CONFIGS[head_dim])


def describe(config: dict) -> str:
    """'128x64 s3 w8' (+ ' ws' with the compiler's warp specialization)."""
    text = f"{config['BLOCK_M']}x{config['BLOCK_N']} s{config['num_stages']} w{config['num_warps']}"
    return text + (" ws" if config["WARP_SPECIALIZE"] else "")


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
    config: dict | None = None,
) -> Any:
    """GDPA forward with stock Triton; the arguments and result are those of `tlx.tutorials.gdpa.run`
    (``config``: one of `candidates()`, default the first)."""
    _check_inputs("stock gdpa", q, k, v, offsets, max_seq_len, activation)
    total, heads, d = q.shape
    config = config or candidates(d)[0]
    o = _output("stock gdpa", q, out)
    batch = offsets.numel() - 1
    if total == 0 or batch == 0 or max_seq_len == 0:
        return o
    from triton.tools.tensor_descriptor import TensorDescriptor

    sm_scale = 1.0 / math.sqrt(d) if sm_scale is None else float(sm_scale)
    q2, k2, v2 = (t.view(total, heads * d) for t in (q, k, v))
    q_desc = TensorDescriptor.from_tensor(q2, [config["BLOCK_M"], d])
    k_desc = TensorDescriptor.from_tensor(k2, [config["BLOCK_N"], d])
    v_desc = TensorDescriptor.from_tensor(v2, [config["BLOCK_N"], d])
    grid = (triton.cdiv(max_seq_len, config["BLOCK_M"]), batch * heads)
    stock_gdpa_kernel[grid](
        q_desc, k_desc, v_desc, o, offsets, heads, sm_scale, HEAD_DIM=d, ACTIVATION=activation, CAUSAL=causal, **config
    )
    return o


def spec(
    config: dict, head_dim: int = 128, activation: str = "gelu", causal: bool = False, dtype: str = "bf16"
) -> dict:
    """What `tlx.tutorials.compile_tutorial` needs to compile one configuration on the CPU."""
    bm, bn = config["BLOCK_M"], config["BLOCK_N"]
    constexprs = {
        "HEAD_DIM": head_dim,
        "BLOCK_M": bm,
        "BLOCK_N": bn,
        "ACTIVATION": activation,
        "CAUSAL": causal,
        "WARP_SPECIALIZE": config["WARP_SPECIALIZE"],
    }
    return {
        "kernel": stock_gdpa_kernel,
        "signature": {
            "q_desc": f"tensordesc<{dtype}[{bm}, {head_dim}]>",
            "k_desc": f"tensordesc<{dtype}[{bn}, {head_dim}]>",
            "v_desc": f"tensordesc<{dtype}[{bn}, {head_dim}]>",
            "o_ptr": f"*{dtype}",
            "offsets_ptr": "*i32",
            "H": "i32",
            "sm_scale": "fp32",
            **dict.fromkeys(constexprs, "constexpr"),
        },
        "constexprs": constexprs,
        "divisible_by_16": ("o_ptr", "offsets_ptr"),
        "num_warps": config["num_warps"],
        "num_stages": config["num_stages"],
    }
