"""On a GPU: check every tutorial against PyTorch, then time the GEMMs against cuBLAS and the attention
forward against cuDNN.

    python -m tlx.tools.gpu_check [--quick]

Correctness uses fresh random inputs, NaN-poisoned outputs and a float64 reference, at several shapes
including ragged ones. Timing uses triton.testing.do_bench (median), with cuBLAS (torch.matmul), a
stock Triton tl.dot matmul and cuDNN (scaled_dot_product_attention) measured in the same run. Prints a
table last. The full comparison (more shapes and baselines) is the benchmark suite, `tlx.tools.bench`.
"""

from __future__ import annotations

import argparse
import functools
import sys

import torch
import triton

from tlx.tools import stock_gdpa
from tlx.tools.stock_kernels import matmul_kernel
from tlx.tutorials import (
    broadcast_scoring,
    cp_async_matmul,
    gdpa,
    grouped_gemm,
    tma_copy,
    tma_matmul,
    wgmma_matmul,
    ws_attention,
    ws_gemm,
)


def stock_matmul(a, b):
    m, k = a.shape
    _, n = b.shape
    c = torch.empty((m, n), device=a.device, dtype=torch.float16)
    grid = (triton.cdiv(m, 128) * triton.cdiv(n, 128),)
    matmul_kernel[grid](
        a,
        b,
        c,
        m,
        n,
        k,
        a.stride(0),
        b.stride(0),
        c.stride(0),
        BLOCK_M=128,
        BLOCK_N=128,
        BLOCK_K=64,
        GROUP_M=8,
        num_warps=8,
        num_stages=4,
    )
    return c


def relative_error(out, ref) -> float:
    out = out.double()
    if torch.isnan(out).any():
        return float("inf")
    return ((out - ref).norm() / ref.norm()).item()


def check(rows: list, name: str, shape: str, error: float, tolerance: float) -> bool:
    ok = error < tolerance
    rows.append((name, shape, f"{error:.1e}", "ok" if ok else "FAIL"))
    return ok


WGMMA_CONFIGS = [
    {"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 64, "NUM_STAGES": 3},
    {"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 32, "NUM_STAGES": 4},
    {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "NUM_STAGES": 4},
    {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "NUM_STAGES": 5},
    {"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 64, "NUM_STAGES": 2},
]


def sweep_wgmma(size: int = 8192) -> int:
    """TFLOP/s of wgmma_matmul configurations next to cuBLAS, one run."""
    a = torch.randn(size, size, device="cuda", dtype=torch.float16)
    b = torch.randn(size, size, device="cuda", dtype=torch.float16)
    flops = 2 * size**3
    cublas = flops / triton.testing.do_bench(functools.partial(torch.matmul, a, b), return_mode="median") * 1e-9
    print(f"\n{size}^3 fp16 cuBLAS {cublas:.1f} TFLOP/s")
    for config in WGMMA_CONFIGS:
        ref = a[:512].double() @ b.double()
        error = relative_error(wgmma_matmul.run(a, b, config)[:512], ref)
        ms = triton.testing.do_bench(functools.partial(wgmma_matmul.run, a, b, config), return_mode="median")
        tflops = flops / ms * 1e-9
        print(f"{config}  {tflops:7.1f} TFLOP/s  {tflops / cublas:.2f}x  rel.err {error:.1e}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip the 8192^3 timing")
    parser.add_argument("--sweep", action="store_true", help="only time wgmma_matmul configurations at 8192^3")
    args = parser.parse_args(argv)
    if args.sweep:
        return sweep_wgmma()
    torch.manual_seed(torch.seed())
    device = "cuda"
    rows: list = []
    ok = True

    for m, n in [(64, 64), (1000, 776), (4096, 4096)]:
        x = torch.randn(m, n, device=device, dtype=torch.float16)
        alpha = float(torch.rand(()).item() + 0.5)
        out = tma_copy.run(x, alpha)
        ok &= check(rows, "tma_copy (scale)", f"{m}x{n}", relative_error(out, x.double() * alpha), 1e-3)

    for module in (tma_matmul, cp_async_matmul, wgmma_matmul):
        for m, n, k in [(128, 128, 64), (1000, 784, 528), (520, 384, 1040), (2048, 2048, 2048)]:
            a = torch.randn(m, k, device=device, dtype=torch.float16)
            b = torch.randn(k, n, device=device, dtype=torch.float16)
            out = module.run(a, b)
            ok &= check(
                rows, module.__name__.split(".")[-1], f"{m}x{n}x{k}", relative_error(out, a.double() @ b.double()), 1e-2
            )

    for schedule in ("cooperative", "pingpong"):
        for m, n, k in [(1000, 784, 528), (2048, 2048, 2048)]:
            a = torch.randn(m, k, device=device, dtype=torch.bfloat16)
            b = torch.randn(k, n, device=device, dtype=torch.bfloat16)
            out = ws_gemm.run(a, b, schedule)
            error = relative_error(out, a.double() @ b.double())
            ok &= check(rows, f"ws_gemm ({schedule})", f"{m}x{n}x{k}", error, 1e-2)

    for causal in (False, True):
        for d in (64, 128):
            q, k, v = (torch.randn(2, 4, 512, d, device=device, dtype=torch.bfloat16) for _ in range(3))
            out = ws_attention.run(q, k, v, causal=causal)
            ref = torch.nn.functional.scaled_dot_product_attention(q.double(), k.double(), v.double(), is_causal=causal)
            name = f"ws_attention{' causal' if causal else ''}"
            ok &= check(rows, name, f"2x4x512 D={d}", relative_error(out, ref), 1e-2)

    inputs = broadcast_scoring.make_inputs(4, 256, 192, 128, 256)
    poisoned = torch.full((4 * 256, 256), float("nan"), device=device, dtype=inputs["items"].dtype)
    out = broadcast_scoring.run(**inputs, out=poisoned)
    ref = broadcast_scoring.reference(**inputs)
    ok &= check(rows, "broadcast_scoring", "4x256 192+128->256", relative_error(out, ref), 1e-2)

    # Grouped GEMM with empty, one-row, unaligned and large groups, both layouts.
    for group_sizes in ([0, 1, 130, 0, 255, 2000, 7], [4096] * 4):
        offs = grouped_gemm.group_ends(group_sizes, device)
        a = torch.randn(sum(group_sizes), 512, device=device, dtype=torch.bfloat16)
        w = torch.randn(len(group_sizes), 512, 384, device=device, dtype=torch.bfloat16)
        dy = torch.randn(sum(group_sizes), 384, device=device, dtype=torch.bfloat16)
        ref = grouped_gemm.reference(a, w, group_sizes)
        out = grouped_gemm.grouped_mm(a, w, offs)
        ok &= check(rows, "grouped_gemm", f"{len(group_sizes)} groups", relative_error(out, ref), 1e-2)
        ref = grouped_gemm.reference(a, dy, group_sizes, wgrad=True)
        out = grouped_gemm.grouped_mm_wgrad(a, dy, offs)
        ok &= check(rows, "grouped_gemm (wgrad)", f"{len(group_sizes)} groups", relative_error(out, ref), 1e-2)

    # GDPA on jagged sequences (empty, one-token and off-tile ones), TLX and stock Triton.
    gdpa_lengths = [0, 1, 300, 129, 1000]
    for head_dim, activation, causal in [(128, "gelu", False), (64, "silu", True)]:
        inputs = gdpa.make_inputs(len(gdpa_lengths), 2, head_dim, gdpa_lengths, torch.bfloat16, device, seed=1)
        ref = gdpa.reference(**inputs, activation=activation, causal=causal)
        shape = f"D={head_dim} {activation}{' causal' if causal else ''}"
        for name, module in (("gdpa", gdpa), ("gdpa (stock)", stock_gdpa)):
            out = module.run(**inputs, activation=activation, causal=causal)
            ok &= check(rows, name, shape, relative_error(out, ref), 1e-2)

    timing = []
    sizes = [4096] if args.quick else [4096, 8192]
    for size in sizes:
        a = torch.randn(size, size, device=device, dtype=torch.float16)
        b = torch.randn(size, size, device=device, dtype=torch.float16)
        flops = 2 * size**3
        implementations = {
            "cuBLAS": torch.matmul,
            "stock Triton": stock_matmul,
            "TLX tma_matmul": tma_matmul.run,
            "TLX cp_async_matmul": cp_async_matmul.run,
            "TLX wgmma_matmul": wgmma_matmul.run,
        }
        results = {}
        for name, matmul in implementations.items():
            ms = triton.testing.do_bench(functools.partial(matmul, a, b), warmup=50, rep=300, return_mode="median")
            results[name] = flops / ms * 1e-9
        for name, tflops in results.items():
            timing.append((f"{size}^3 fp16", name, f"{tflops:7.1f}", f"{tflops / results['cuBLAS']:.2f}x"))

    # Attention forward: B * N = 16384 tokens, H * D = 2048, as the benchmark suite's attention section.
    for d in (64, 128):
        n, heads = 4096, 2048 // d
        q, k, v = (torch.randn(4, heads, n, d, device=device, dtype=torch.bfloat16) for _ in range(3))
        flops = 4 * 4 * heads * n * n * d

        def cudnn(q=q, k=k, v=v):
            with torch.nn.attention.sdpa_kernel(torch.nn.attention.SDPBackend.CUDNN_ATTENTION):
                return torch.nn.functional.scaled_dot_product_attention(q, k, v)

        results = {}
        for name, attention in (
            ("cuDNN", cudnn),
            ("TLX ws_attention", lambda q=q, k=k, v=v: ws_attention.run(q, k, v)),
        ):
            ms = triton.testing.do_bench(attention, warmup=50, rep=300, return_mode="median")
            results[name] = flops / ms * 1e-9
        for name, tflops in results.items():
            timing.append((f"attn N={n} D={d}", name, f"{tflops:7.1f}", f"{tflops / results['cuDNN']:.2f}x"))

    print(f"\nGPU: {torch.cuda.get_device_name()}  torch {torch.__version__}  triton {triton.__version__}")
    print(f"{'kernel':<22} {'shape':<16} {'rel.err':>9}  result")
    for row in rows:
        print(f"{row[0]:<22} {row[1]:<16} {row[2]:>9}  {row[3]}")
    print(f"\n{'problem':<18} {'implementation':<22} {'TFLOP/s':>8}  vs cuBLAS / cuDNN")
    for row in timing:
        print(f"{row[0]:<18} {row[1]:<22} {row[2]:>8}  {row[3]}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
