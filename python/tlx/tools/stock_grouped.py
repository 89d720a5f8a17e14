"""Stock Triton grouped GEMMs (no TLX): the baselines `python -m tlx.tools.bench` measures TLX's against.

The same problems and the same scheduling as `tlx.tutorials.grouped_gemm`, written as well as stock
Triton 3.6 allows: persistent CTAs walk every group's tiles round-robin, reading the group ends
(`offs`) on the device; the k-loop is plain `tl.dot` on TMA loads, which the compiler software-pipelines
into TMA + async wgmma. Per-group descriptors made on the device (`tl.make_tensor_descriptor`) clip each
group's rows. `CONFIGS` lists configurations that are good on Hopper, with and without the compiler's
own warp specialization (`tl.range(..., warp_specialize=True)`); the bench tries every one on every
shape and keeps the fastest correct one.

* `grouped_mm(a, w, offs)`: `out[rows of g] = a[rows of g] @ w[g]`, a (T x K), w (G x K x N).
* `grouped_mm_wgrad(a, dy, offs)`: `dw[g] = a[rows of g]^T @ dy[rows of g]`, (G x K x N).
"""

from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

from tlx.tutorials.grouped_gemm import _block_k, _check_inputs, _ensure_allocator, _first_tile, _group_end
from tlx.tutorials.tiles import grouped_tile


@triton.jit
def grouped_matmul_kernel(
    a_desc,
    w_desc,
    out_ptr,
    offs_ptr,
    G,
    T,
    N,
    K,
    NUM_SMS: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    GROUP_M: tl.constexpr,
    WARP_SPECIALIZE: tl.constexpr,
):
    pid = tl.program_id(0)
    num_n = tl.cdiv(N, BLOCK_N)
    k_steps = tl.cdiv(K, BLOCK_K)
    tile_base = 0
    start = 0
    for g in range(G):
        end = _group_end(offs_ptr, g, start, T)
        num_m = tl.cdiv(end - start, BLOCK_M)
        count = num_m * num_n
        first = _first_tile(tile_base, pid, NUM_SMS)
        if first < tile_base + count:
            out_desc = tl.make_tensor_descriptor(out_ptr, [end, N], [N, 1], [BLOCK_M, BLOCK_N])
            for tile in range(first, tile_base + count, NUM_SMS):
                pid_m, pid_n = grouped_tile(tile - tile_base, num_m, num_n, GROUP_M)
                off_m = start + pid_m * BLOCK_M
                acc = tl.zeros((BLOCK_M, BLOCK_N), tl.float32)
                for k in tl.range(k_steps, warp_specialize=WARP_SPECIALIZE):
                    a = a_desc.load([off_m, k * BLOCK_K])
                    w = w_desc.load([g * K + k * BLOCK_K, pid_n * BLOCK_N])
                    acc = tl.dot(a, w, acc)
                out_desc.store([off_m, pid_n * BLOCK_N], acc.to(out_desc.dtype))
        tile_base += count
        start = end


@triton.jit
def grouped_matmul_wgrad_kernel(
    a_ptr,
    dy_ptr,
    dw_ptr,
    offs_ptr,
    G,
    T,
    K,
    N,
    NUM_SMS: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    GROUP_M: tl.constexpr,
    WARP_SPECIALIZE: tl.constexpr,
):
    pid = tl.program_id(0)
    num_m = tl.cdiv(K, BLOCK_M)
    num_n = tl.cdiv(N, BLOCK_N)
    per_group = num_m * num_n
    start = 0
    for g in range(G):
        end = _group_end(offs_ptr, g, start, T)
        k_steps = tl.cdiv(end - start, BLOCK_K)
        first = _first_tile(g * per_group, pid, NUM_SMS)
        if first < (g + 1) * per_group:
            a_desc = tl.make_tensor_descriptor(a_ptr, [end, K], [K, 1], [BLOCK_K, BLOCK_M])
            dy_desc = tl.make_tensor_descriptor(dy_ptr, [end, N], [N, 1], [BLOCK_K, BLOCK_N])
            dw_desc = tl.make_tensor_descriptor(dw_ptr + g.to(tl.int64) * K * N, [K, N], [N, 1], [BLOCK_M, BLOCK_N])
            for tile in range(first, (g + 1) * per_group, NUM_SMS):
                pid_m, pid_n = grouped_tile(tile - g * per_group, num_m, num_n, GROUP_M)
                acc = tl.zeros((BLOCK_M, BLOCK_N), tl.float32)
                for k in tl.range(k_steps, warp_specialize=WARP_SPECIALIZE):
                    a = a_desc.load([start + k * BLOCK_K, pid_m * BLOCK_M])
                    dy = dy_desc.load([start + k * BLOCK_K, pid_n * BLOCK_N])
                    acc = tl.dot(a.T, dy, acc)
                dw_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], acc.to(dw_desc.dtype))
        start = end


def _config(bm: int, bn: int, stages: int, warps: int, ws: bool = False) -> dict:
    return {"BLOCK_M": bm, "BLOCK_N": bn, "num_stages": stages, "num_warps": warps, "WARP_SPECIALIZE": ws}


#: Hopper configurations (BLOCK_K follows K, as in the TLX kernel; GROUP_M 8). Not here: 128x128 s4 w4
#: with warp specialization compiles but hangs on the H200 (Triton 3.6, seen 2026-11-30, both layouts).
CONFIGS: list[dict] = [
    _config(128, 256, 3, 8),
    _config(128, 128, 4, 8),
    _config(128, 128, 4, 4),
    _config(64, 128, 5, 4),
    _config(128, 256, 3, 8, ws=True),
]


def describe(config: dict) -> str:
    """'128x256 s3 w8' (+ ' ws' with the compiler's warp specialization)."""
    text = f"{config['BLOCK_M']}x{config['BLOCK_N']} s{config['num_stages']} w{config['num_warps']}"
    return text + (" ws" if config["WARP_SPECIALIZE"] else "")


def _launch_options(config: dict, num_sms: int) -> dict:
    return {"GROUP_M": 8, "NUM_SMS": num_sms, **config}


def _num_sms(device: Any) -> int:
    import torch

    return torch.cuda.get_device_properties(device).multi_processor_count


def grouped_mm(a: Any, w: Any, offs: Any, config: dict | None = None, out: Any = None) -> Any:
    """`out[rows of g] = a[rows of g] @ w[g]` with stock Triton (`config`: one of CONFIGS)."""
    _check_inputs("stock grouped_mm", a, w, offs, 3)
    config = config or CONFIGS[0]
    t, k = a.shape
    g, _, n = w.shape
    block_k = _block_k(k, "stock grouped_mm")
    import torch
    from triton.tools.tensor_descriptor import TensorDescriptor

    c = torch.full((t, n), float("nan"), device=a.device, dtype=a.dtype) if out is None else out
    a_desc = TensorDescriptor.from_tensor(a, [config["BLOCK_M"], block_k])
    w_desc = TensorDescriptor.from_tensor(w.view(g * k, n), [block_k, config["BLOCK_N"]])
    _ensure_allocator()
    num_sms = _num_sms(a.device)
    grouped_matmul_kernel[(num_sms,)](
        a_desc, w_desc, c, offs, g, t, n, k, BLOCK_K=block_k, **_launch_options(config, num_sms)
    )
    return c


def grouped_mm_wgrad(a: Any, dy: Any, offs: Any, config: dict | None = None, out: Any = None) -> Any:
    """`dw[g] = a[rows of g]^T @ dy[rows of g]` with stock Triton (`config`: one of CONFIGS)."""
    _check_inputs("stock grouped_mm_wgrad", a, dy, offs, 2)
    config = config or CONFIGS[0]
    t, k = a.shape
    n = dy.shape[1]
    g = offs.numel()
    import torch

    c = torch.full((g, k, n), float("nan"), device=a.device, dtype=a.dtype) if out is None else out
    _ensure_allocator()
    num_sms = _num_sms(a.device)
    grouped_matmul_wgrad_kernel[(num_sms,)](a, dy, c, offs, g, t, k, n, BLOCK_K=64, **_launch_options(config, num_sms))
    return c


def spec(config: dict, wgrad: bool = False, num_sms: int = 132) -> dict:
    """What `tlx.tutorials.compile_tutorial` needs to compile one configuration on the CPU (bf16)."""
    options = {key: config[key] for key in ("num_warps", "num_stages")}
    constexprs = {
        "NUM_SMS": num_sms,
        "BLOCK_M": config["BLOCK_M"],
        "BLOCK_N": config["BLOCK_N"],
        "BLOCK_K": 64,
        "GROUP_M": 8,
        "WARP_SPECIALIZE": config["WARP_SPECIALIZE"],
    }
    scalars = dict.fromkeys(("G", "T", "K", "N") if wgrad else ("G", "T", "N", "K"), "i32")
    if wgrad:
        pointers = {"a_ptr": "*bf16", "dy_ptr": "*bf16", "dw_ptr": "*bf16", "offs_ptr": "*i32"}
    else:
        pointers = {
            "a_desc": f"tensordesc<bf16[{config['BLOCK_M']}, 64]>",
            "w_desc": f"tensordesc<bf16[64, {config['BLOCK_N']}]>",
            "out_ptr": "*bf16",
            "offs_ptr": "*i32",
        }
    return {
        "kernel": grouped_matmul_wgrad_kernel if wgrad else grouped_matmul_kernel,
        "signature": {**pointers, **scalars, **dict.fromkeys(constexprs, "constexpr")},
        "constexprs": constexprs,
        "divisible_by_16": [name for name in pointers if name.endswith("_ptr")] + ["K", "N"],
        "num_warps": options["num_warps"],
        "num_stages": options["num_stages"],
    }
