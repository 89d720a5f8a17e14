"""Stock Triton matmuls (no TLX): the baselines `python -m tlx.tools.bench` measures TLX against.

Two kernels, both plain `tl.dot` that stock Triton 3.6 lowers to TMA + async wgmma on Hopper:

* `persistent_tma_matmul_kernel`: one CTA per SM walks the output tiles (grouped order); host
  `TensorDescriptor`s for A, B and C, so the loads and the store are TMA; the tile loop is flattened
  into the k loop (`tl.range(..., flatten=True)`) so the software pipeline runs across tile
  boundaries; optionally the epilogue stores C in two halves (less shared memory, one more stage).
* `matmul_kernel`: the classic one-tile-per-CTA kernel with pointer loads (grouped order).

Each has a list of configurations that are good on Hopper (`PERSISTENT_CONFIGS`, `MATMUL_CONFIGS`);
the bench tries every one of them on every shape and keeps the fastest correct one (an autotune whose
every candidate is checked). `SPECS` compiles each configuration on the CPU (no GPU) for the tests.

Inputs: `a` (M x K) and `b` (K x N), row-major CUDA tensors, fp16 or bf16; fp32 accumulation; the
output has the inputs' dtype.
"""

from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

from tlx.tutorials.tiles import grouped_tile

#: H100/H200: the most dynamic shared memory one CTA may use (227 KiB).
HOPPER_MAX_SHARED_BYTES = 232448


@triton.jit
def persistent_tma_matmul_kernel(
    a_desc,
    b_desc,
    c_desc,
    M,
    N,
    K,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    GROUP_M: tl.constexpr,
    NUM_SMS: tl.constexpr,
    EPILOGUE_SUBTILE: tl.constexpr,
):
    start = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    k_tiles = tl.cdiv(K, BLOCK_K)
    num_tiles = num_pid_m * num_pid_n
    # The epilogue keeps its own tile counter: the flattened pipeline may run the loads of the next tile
    # before this tile's epilogue, so the epilogue must not reuse the prologue's values.
    tile_id_c = start - NUM_SMS
    for tile_id in tl.range(start, num_tiles, NUM_SMS, flatten=True):
        pid_m, pid_n = grouped_tile(tile_id, num_pid_m, num_pid_n, GROUP_M)
        off_m = pid_m * BLOCK_M
        off_n = pid_n * BLOCK_N
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for ki in range(k_tiles):
            a = a_desc.load([off_m, ki * BLOCK_K])
            b = b_desc.load([ki * BLOCK_K, off_n])
            acc = tl.dot(a, b, acc)
        tile_id_c += NUM_SMS
        pid_m, pid_n = grouped_tile(tile_id_c, num_pid_m, num_pid_n, GROUP_M)
        off_cm = pid_m * BLOCK_M
        off_cn = pid_n * BLOCK_N
        if EPILOGUE_SUBTILE:
            halves = tl.permute(tl.reshape(acc, (BLOCK_M, 2, BLOCK_N // 2)), (0, 2, 1))
            acc0, acc1 = tl.split(halves)
            c_desc.store([off_cm, off_cn], acc0.to(c_desc.dtype))
            c_desc.store([off_cm, off_cn + BLOCK_N // 2], acc1.to(c_desc.dtype))
        else:
            c_desc.store([off_cm, off_cn], acc.to(c_desc.dtype))


@triton.jit
def matmul_kernel(
    a_ptr,
    b_ptr,
    c_ptr,
    M,
    N,
    K,
    stride_am,
    stride_bk,
    stride_cm,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    GROUP_M: tl.constexpr,
):
    pid_m, pid_n = grouped_tile(tl.program_id(0), tl.cdiv(M, BLOCK_M), tl.cdiv(N, BLOCK_N), GROUP_M)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    # Rows/columns past the edge wrap around (always in bounds); the store masks them out.
    rm_load = rm % M
    rn_load = rn % N
    a_ptrs = a_ptr + rm_load[:, None] * stride_am + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn_load[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=rk[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=rk[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    c = acc.to(c_ptr.dtype.element_ty)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], c, mask=(rm[:, None] < M) & (rn[None, :] < N))


def _config(bm: int, bn: int, bk: int, stages: int, warps: int, **extra: Any) -> dict:
    return {
        "BLOCK_M": bm,
        "BLOCK_N": bn,
        "BLOCK_K": bk,
        "GROUP_M": 8,
        "num_stages": stages,
        "num_warps": warps,
        **extra,
    }


#: Configurations of `persistent_tma_matmul_kernel` worth trying on Hopper (all fit in 227 KiB).
PERSISTENT_CONFIGS: list[dict] = [
    _config(128, 256, 64, 3, 8, EPILOGUE_SUBTILE=False),
    _config(128, 256, 64, 4, 8, EPILOGUE_SUBTILE=True),
    _config(256, 128, 64, 3, 8, EPILOGUE_SUBTILE=False),
    _config(128, 128, 64, 4, 4, EPILOGUE_SUBTILE=False),
    _config(128, 128, 64, 4, 8, EPILOGUE_SUBTILE=False),
    _config(128, 128, 128, 3, 8, EPILOGUE_SUBTILE=True),
]

#: Configurations of `matmul_kernel` worth trying on Hopper.
MATMUL_CONFIGS: list[dict] = [
    _config(128, 256, 64, 3, 8),
    _config(256, 128, 64, 3, 8),
    _config(128, 128, 64, 4, 4),
    _config(128, 128, 64, 4, 8),
]

#: Variant name -> (kernel, configurations); the bench reports the fastest correct (variant, configuration).
VARIANTS: dict[str, tuple[Any, list[dict]]] = {
    "persistent-tma": (persistent_tma_matmul_kernel, PERSISTENT_CONFIGS),
    "tl.dot": (matmul_kernel, MATMUL_CONFIGS),
}

_TRITON_DTYPES = {"fp16": "fp16", "bf16": "bf16", "float16": "fp16", "bfloat16": "bf16"}


def describe(variant: str, config: dict) -> str:
    """A short name for one (variant, configuration), e.g. 'persistent-tma 128x256x64 s3 w8 subtile'."""
    text = (
        f"{variant} {config['BLOCK_M']}x{config['BLOCK_N']}x{config['BLOCK_K']} "
        f"s{config['num_stages']} w{config['num_warps']}"
    )
    return text + (" subtile" if config.get("EPILOGUE_SUBTILE") else "")


def _constexprs(config: dict) -> dict:
    return {key: value for key, value in config.items() if key not in ("num_stages", "num_warps")}


def spec(variant: str, config: dict, dtype: str = "fp16", num_sms: int = 132) -> dict:
    """What `triton.compile` needs to build one (variant, configuration) on the CPU.

    Same layout as a tutorial's SPEC (`tlx.tutorials.compile_tutorial`), plus `num_stages`; `dtype` is
    'fp16' or 'bf16'; `num_sms` is the persistent kernel's grid (132 on H100/H200 SXM). M, N, K (and the
    pointers and strides) are taken as multiples of 16, as Triton specializes them at launch for the
    bench's shapes."""
    ty = _TRITON_DTYPES[dtype]
    bm, bn, bk = config["BLOCK_M"], config["BLOCK_N"], config["BLOCK_K"]
    constexprs = _constexprs(config)
    if variant == "persistent-tma":
        c_block_n = bn // 2 if config.get("EPILOGUE_SUBTILE") else bn
        signature = {
            "a_desc": f"tensordesc<{ty}[{bm}, {bk}]>",
            "b_desc": f"tensordesc<{ty}[{bk}, {bn}]>",
            "c_desc": f"tensordesc<{ty}[{bm}, {c_block_n}]>",
            "M": "i32",
            "N": "i32",
            "K": "i32",
        }
        constexprs["NUM_SMS"] = num_sms
        divisible: tuple[str, ...] = ("M", "N", "K")
    elif variant == "tl.dot":
        signature = {
            "a_ptr": f"*{ty}",
            "b_ptr": f"*{ty}",
            "c_ptr": f"*{ty}",
            "M": "i32",
            "N": "i32",
            "K": "i32",
            "stride_am": "i32",
            "stride_bk": "i32",
            "stride_cm": "i32",
        }
        divisible = ("a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_bk", "stride_cm")
    else:
        raise ValueError(f"unknown variant {variant!r}; known: {sorted(VARIANTS)}")
    kernel = VARIANTS[variant][0]
    # Every constexpr, in the kernel's parameter order, after the runtime arguments.
    for name in kernel.arg_names:
        if name in constexprs:
            signature[name] = "constexpr"
    return {
        "kernel": kernel,
        "signature": signature,
        "constexprs": constexprs,
        "divisible_by_16": divisible,
        "num_warps": config["num_warps"],
        "num_stages": config["num_stages"],
    }


def _num_sms(device: Any) -> int:
    import torch

    return torch.cuda.get_device_properties(device).multi_processor_count


def matmul(a: Any, b: Any, variant: str = "persistent-tma", config: dict | None = None, out: Any = None) -> Any:
    """c = a @ b with stock Triton: `variant` in VARIANTS, `config` one of its configurations (default: the
    first). `out` (M x N, same dtype, row-major) receives the result if given (e.g. NaN-poisoned), else
    a fresh `torch.empty` does."""
    import torch

    kernel, configs = VARIANTS[variant]
    cfg = dict(config or configs[0])
    num_warps = cfg.pop("num_warps")
    num_stages = cfg.pop("num_stages")
    m, k = a.shape
    k2, n = b.shape
    if k != k2 or a.dtype != b.dtype:
        raise ValueError(f"cannot multiply {tuple(a.shape)} {a.dtype} by {tuple(b.shape)} {b.dtype}")
    c = torch.empty((m, n), device=a.device, dtype=a.dtype) if out is None else out
    bm, bn, bk = cfg["BLOCK_M"], cfg["BLOCK_N"], cfg["BLOCK_K"]
    tiles = triton.cdiv(m, bm) * triton.cdiv(n, bn)
    if variant == "persistent-tma":
        from triton.tools.tensor_descriptor import TensorDescriptor

        num_sms = _num_sms(a.device)
        c_block_n = bn // 2 if cfg.get("EPILOGUE_SUBTILE") else bn
        a_desc = TensorDescriptor.from_tensor(a, [bm, bk])
        b_desc = TensorDescriptor.from_tensor(b, [bk, bn])
        c_desc = TensorDescriptor.from_tensor(c, [bm, c_block_n])
        grid = (min(num_sms, tiles),)
        kernel[grid](
            a_desc, b_desc, c_desc, m, n, k, NUM_SMS=num_sms, num_warps=num_warps, num_stages=num_stages, **cfg
        )
    else:
        kernel[(tiles,)](
            a,
            b,
            c,
            m,
            n,
            k,
            a.stride(0),
            b.stride(0),
            c.stride(0),
            num_warps=num_warps,
            num_stages=num_stages,
            **cfg,
        )
    return c


def candidates() -> list[tuple[str, dict]]:
    """Every (variant, configuration) the bench tries, in order."""
    return [(variant, config) for variant, (_, configs) in VARIANTS.items() for config in configs]
