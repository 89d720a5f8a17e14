"""GPU check of the cluster features: correctness first, then the 2-CTA multicast GEMM timed against cuBLAS.

Run on the GPU machine: ``bash scripts/gpu.sh -- python3 -m tlx.tools.cluster_check``. Every check draws
fresh random inputs, poisons the output and compares with a float64 reference; timing is
``triton.testing.do_bench`` (median, events) with cuBLAS (``torch.matmul``) measured in the same run.
"""

from __future__ import annotations

import functools
import sys

import torch
import triton
import triton.language as tl

import tlx
from tlx.tutorials import cluster_gemm, cluster_layernorm, ws_gemm


@triton.jit
def _rank_kernel(out):
    pid = tl.program_id(0)
    tl.store(out + 2 * pid, tlx.cluster_cta_rank())
    tl.store(out + 2 * pid + 1, tlx.cluster_size_1d())


@triton.jit
def _rank_3d_kernel(out):
    pid = tl.program_id(0) + tl.num_programs(0) * (tl.program_id(1) + tl.num_programs(1) * tl.program_id(2))
    tl.store(out + 2 * pid, tlx.cluster_cta_rank())
    tl.store(out + 2 * pid + 1, tlx.cluster_size_1d())


@triton.jit
def _swap_kernel(x, y, N: tl.constexpr):
    """Each CTA of a pair stores its row into the peer's buffer; each then writes what it received."""
    buf = tlx.local_alloc((N,), tl.float32, 1)
    rank = tlx.cluster_cta_rank()
    row = tl.program_id(0)
    offs = tl.arange(0, N)
    tlx.cluster_barrier()
    tlx.remote_shmem_store(buf[0], tl.load(x + row * N + offs), rank ^ 1)
    tlx.cluster_barrier()
    tl.store(y + row * N + offs, tlx.local_load(buf[0]))


@triton.jit
def _copy_kernel(x, y, N: tl.constexpr):
    """CTA 0 bulk-copies its buffer into CTA 1, which waits on its mbarrier and writes it out."""
    src = tlx.local_alloc((N,), tl.float32, 1)
    dst = tlx.local_alloc((N,), tl.float32, 1)
    bars = tlx.alloc_barriers(1)
    tlx.fence_mbarrier_init_cluster()
    rank = tlx.cluster_cta_rank()
    if rank == 1:
        tlx.barrier_expect_bytes(bars[0], N * 4)
    tlx.cluster_barrier()
    offs = tl.arange(0, N)
    if rank == 0:
        tlx.local_store(src[0], tl.load(x + offs))
        tlx.fence_async_shared()
        tlx.async_remote_shmem_copy(dst[0], src[0], 1, bars[0])
    if rank == 1:
        tlx.barrier_wait(bars[0], 0)
        tl.store(y + offs, tlx.local_load(dst[0]))
    tlx.cluster_barrier()


def relative_error(out: torch.Tensor, ref: torch.Tensor) -> float:
    out = out.double()
    if not torch.isfinite(out).all():
        return float("inf")
    return float((out - ref).norm() / ref.norm())


def check_basics(rows: list) -> bool:
    ok = True
    out = torch.full((8 * 2,), -1, device="cuda", dtype=torch.int32)
    _rank_kernel[(8,)](out, ctas_per_cga=(2, 1, 1))
    got = out.view(8, 2).cpu()
    good = got[:, 0].tolist() == [0, 1] * 4 and got[:, 1].tolist() == [2] * 8
    rows.append(("cluster_cta_rank / size, ctas_per_cga=(2,1,1), grid 8", "ok" if good else f"FAIL {got.tolist()}"))
    ok &= good
    # A 3-D grid in clusters of 2 x 2 x 2: %cluster_ctarank is x + 2 * y + 4 * z within the cluster.
    grid = (4, 4, 2)
    out = torch.full((4 * 4 * 2 * 2,), -1, device="cuda", dtype=torch.int32)
    _rank_3d_kernel[grid](out, ctas_per_cga=(2, 2, 2))
    got = out.view(2, 4, 4, 2).cpu()  # [z, y, x, (rank, size)]
    z, y, x = torch.meshgrid(torch.arange(2), torch.arange(4), torch.arange(4), indexing="ij")
    expected = (x % 2) + 2 * (y % 2) + 4 * (z % 2)
    good = torch.equal(got[..., 0], expected.int()) and bool((got[..., 1] == 8).all())
    rows.append(("cluster_cta_rank / size, ctas_per_cga=(2,2,2), grid 4x4x2", "ok" if good else "FAIL"))
    ok &= good
    n = 256
    x = torch.randn(4, n, device="cuda")
    y = torch.full_like(x, float("nan"))
    _swap_kernel[(4,)](x, y, N=n, ctas_per_cga=(2, 1, 1))
    good = torch.equal(y, x.view(2, 2, n).flip(1).reshape(4, n))
    rows.append(("remote_shmem_store swap, 2 clusters", "ok" if good else "FAIL"))
    ok &= good
    x = torch.randn(1024, device="cuda")
    y = torch.full_like(x, float("nan"))
    _copy_kernel[(2,)](x, y, N=1024, num_warps=1, ctas_per_cga=(2, 1, 1))
    good = torch.equal(x, y)
    rows.append(("async_remote_shmem_copy 4 KB", "ok" if good else "FAIL"))
    ok &= good
    return ok


def check_gemm(rows: list) -> bool:
    ok = True
    for multicast in (True, False):
        for dtype in (torch.float16, torch.bfloat16):
            for m, n, k in ((4096, 4096, 4096), (1000, 784, 528), (2048, 2304, 4096), (256, 256, 64)):
                a = torch.randn(m, k, device="cuda", dtype=dtype)
                b = torch.randn(k, n, device="cuda", dtype=dtype)
                error = relative_error(cluster_gemm.run(a, b, multicast=multicast), a.double() @ b.double())
                good = error < 1e-2
                ok &= good
                name = f"cluster_gemm multicast={multicast} {str(dtype)[6:]} {m}x{n}x{k}"
                rows.append((name, f"rel.err {error:.1e}" + ("" if good else " FAIL")))
    return ok


def check_layernorm(rows: list) -> bool:
    ok = True
    for rows_, cols in ((4096, 8192), (1000, 16384), (64, 32768)):
        x = torch.randn(rows_, cols, device="cuda", dtype=torch.bfloat16) * 3 + 1
        w = torch.randn(cols, device="cuda", dtype=torch.bfloat16)
        bias = torch.randn(cols, device="cuda", dtype=torch.bfloat16)
        ref = torch.nn.functional.layer_norm(x.double(), (cols,), w.double(), bias.double(), 1e-5)
        error = relative_error(cluster_layernorm.run(x, w, bias), ref)
        good = error < 1e-2
        ok &= good
        rows.append((f"cluster_layernorm bf16 {rows_}x{cols}", f"rel.err {error:.1e}" + ("" if good else " FAIL")))
    return ok


def bench(fn) -> float:
    return triton.testing.do_bench(fn, warmup=100, rep=500, return_mode="median")


def time_gemm(rows: list) -> None:
    for size in (4096, 8192):
        for dtype in (torch.float16, torch.bfloat16):
            a = torch.randn(size, size, device="cuda", dtype=dtype)
            b = torch.randn(size, size, device="cuda", dtype=dtype)
            flops = 2 * size**3
            c = torch.empty(size, size, device="cuda", dtype=dtype)
            cublas = bench(functools.partial(torch.matmul, a, b, out=c))
            variants = {
                "ws_gemm cooperative": functools.partial(ws_gemm.run, a, b, "cooperative", out=c),
                "cluster, no multicast": functools.partial(cluster_gemm.run, a, b, False, out=c),
                "cluster, multicast B": functools.partial(cluster_gemm.run, a, b, True, out=c),
            }
            name = f"{size}^3 {str(dtype)[6:]}"
            rows.append((f"{name} cuBLAS", f"{flops / cublas * 1e-9:.0f} TFLOP/s"))
            for variant, fn in variants.items():
                ms = bench(fn)
                rows.append((f"{name} {variant}", f"{flops / ms * 1e-9:.0f} TFLOP/s  {cublas / ms:.3f}x cuBLAS"))


#: Configurations of the multicast GEMM that ``--sweep`` times against cuBLAS (each on top of ``CONFIG``).
SWEEP = (
    {},
    {"NUM_STAGES": 4, "EPILOGUE_SPLIT": 2},
    {"NUM_STAGES": 4, "EPILOGUE_SPLIT": 2, "GROUP_M": 16},
    {"NUM_STAGES": 4, "EPILOGUE_SPLIT": 2, "GROUP_M": 4},
    {"GROUP_M": 4},
)


def sweep_gemm(rows: list, rounds: int = 3) -> None:
    """Device time (CUDA graph replays) of cuBLAS and the multicast GEMM's configurations, interleaved over
    ``rounds`` rounds so that clock and thermal drift hit every provider alike; the median per provider."""
    for size in (4096, 8192):
        for dtype in (torch.float16, torch.bfloat16):
            a = torch.randn(size, size, device="cuda", dtype=dtype)
            b = torch.randn(size, size, device="cuda", dtype=dtype)
            c = torch.empty(size, size, device="cuda", dtype=dtype)
            ref = a.double() @ b.double()
            calls = {"cuBLAS": functools.partial(torch.matmul, a, b, out=c)}
            for config in SWEEP:
                label = ",".join(f"{k}={v}" for k, v in config.items()) or "default"
                calls[label] = functools.partial(cluster_gemm.run, a, b, True, config=config, out=c)
            times: dict[str, list[float]] = {label: [] for label in calls}
            for label, fn in calls.items():
                c.fill_(float("nan"))
                fn()
                torch.cuda.synchronize()
                if relative_error(c, ref) > 1e-2:
                    raise AssertionError(f"{size}^3 {dtype} {label}: wrong result")
            for _ in range(rounds):
                for label, fn in calls.items():
                    times[label].append(triton.testing.do_bench_cudagraph(fn, rep=300, return_mode="median"))
            flops = 2 * size**3
            best = {label: sorted(ms)[len(ms) // 2] for label, ms in times.items()}
            name = f"{size}^3 {str(dtype)[6:]}"
            for label, ms in best.items():
                ratio = best["cuBLAS"] / ms
                rows.append((f"sweep {name} {label}", f"{flops / ms * 1e-9:.0f} TFLOP/s  {ratio:.3f}x cuBLAS"))


def time_layernorm(rows: list) -> None:
    for rows_, cols in ((4096, 8192), (1024, 32768), (256, 65536)):
        x = torch.randn(rows_, cols, device="cuda", dtype=torch.bfloat16)
        w = torch.randn(cols, device="cuda", dtype=torch.bfloat16)
        bias = torch.randn(cols, device="cuda", dtype=torch.bfloat16)
        moved = 2 * x.numel() * 2
        torch_ms = bench(functools.partial(torch.nn.functional.layer_norm, x, (cols,), w, bias, 1e-5))
        ours = bench(functools.partial(cluster_layernorm.run, x, w, bias))
        rows.append(
            (
                f"layernorm bf16 {rows_}x{cols}",
                f"torch {moved / torch_ms * 1e-6:.0f} GB/s, cluster {moved / ours * 1e-6:.0f} GB/s, "
                f"{torch_ms / ours:.2f}x torch",
            )
        )


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    print(f"tlx {tlx.__version__}, {torch.cuda.get_device_name()}")
    rows: list = []
    ok = True
    for step in (check_basics, check_gemm, check_layernorm):
        try:
            ok &= step(rows)
        except Exception as error:  # report and go on: one broken feature must not hide the others
            rows.append((step.__name__, f"ERROR {type(error).__name__}: {str(error)[:300]}"))
            ok = False
    if "--sweep" in argv:
        steps = (sweep_gemm,)
    elif "--no-time" in argv:
        steps = ()
    else:
        steps = (time_gemm, time_layernorm)
    if steps:
        for step in steps:
            try:
                step(rows)
            except Exception as error:
                rows.append((step.__name__, f"ERROR {type(error).__name__}: {str(error)[:300]}"))
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
