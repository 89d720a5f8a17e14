"""Host cost of launching a kernel: the same work written in stock Triton and with TLX ops, on the GPU.

    python -m tlx.tools.launch_overhead [--launches N] [--profile]

Each pair of kernels takes the same arguments and does the same work on a one-CTA grid, so the GPU
finishes each launch long before the host has issued the next: the wall time of N back-to-back launches
(no synchronization inside the loop) divided by N is the host's cost per launch, everything from
``kernel[grid](...)`` to the driver call. Pairs:

* ``descriptors``: two host TMA descriptors and a scalar (``TensorDescriptor`` arguments, encoded by the
  launcher on every call with ``cuTensorMapEncodeTiled``).
* ``pointers``: two pointers and a size.

Every pair is measured in a fresh state and again with a large live Python heap (a process that has
compiled and run other things holds millions of objects; a launch path that allocates pays for them in
the garbage collector's full collections).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from collections.abc import Callable
from typing import Any

import triton
import triton.language as tl

import tlx
from tlx.tutorials.tma_copy import tma_scale_kernel as tlx_scale_kernel

BLOCK_M = 64
BLOCK_N = 64
BLOCK = 1024
#: Largest absolute error a pair may show against float64 (fp16 rounding of values near 2).
TOLERANCE = 1e-2


@triton.jit
def stock_scale_kernel(in_desc, out_desc, alpha, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """`tlx.tutorials.tma_copy.tma_scale_kernel` (the TLX side of the pair) in stock Triton."""
    off_m = tl.program_id(0) * BLOCK_M
    off_n = tl.program_id(1) * BLOCK_N
    tile = in_desc.load([off_m, off_n])
    out_desc.store([off_m, off_n], (tile.to(tl.float32) * alpha).to(tl.float16))


@triton.jit
def stock_copy_kernel(src, dst, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(dst + offs, tl.load(src + offs, mask=mask) * 2.0, mask=mask)


@triton.jit
def tlx_copy_kernel(src, dst, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    staged = tlx.local_alloc((BLOCK,), tl.float32, 1)
    tlx.local_store(staged[0], tl.load(src + offs, mask=mask))
    tl.store(dst + offs, tlx.local_load(staged[0]) * 2.0, mask=mask)


#: pair name -> (stock kernel, TLX kernel)
PAIRS: dict[str, tuple[Any, Any]] = {
    "descriptors": (stock_scale_kernel, tlx_scale_kernel),
    "pointers": (stock_copy_kernel, tlx_copy_kernel),
}


def launchers(pair: str) -> tuple[Callable[[], None], Callable[[], None], Callable[[], float]]:
    """(stock launch, TLX launch, check) for one pair; check runs both and returns the largest error."""
    import torch
    from triton.tools.tensor_descriptor import TensorDescriptor

    stock, ours = PAIRS[pair]
    if pair == "descriptors":
        x = torch.randn((BLOCK_M, BLOCK_N), device="cuda", dtype=torch.float16)
        outs = [torch.full_like(x, float("nan")) for _ in range(2)]
        src = TensorDescriptor.from_tensor(x, [BLOCK_M, BLOCK_N])
        dsts = [TensorDescriptor.from_tensor(o, [BLOCK_M, BLOCK_N]) for o in outs]
        expected = x.double() * 0.5

        def launch(kernel: Any, dst: Any) -> Callable[[], None]:
            return lambda: kernel[(1, 1)](src, dst, 0.5, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N)
    else:
        x = torch.randn(BLOCK, device="cuda", dtype=torch.float32)
        outs = [torch.full_like(x, float("nan")) for _ in range(2)]
        dsts = outs
        expected = x.double() * 2.0

        def launch(kernel: Any, dst: Any) -> Callable[[], None]:
            return lambda: kernel[(1,)](x, dst, BLOCK, BLOCK=BLOCK)

    stock_launch, tlx_launch = launch(stock, dsts[0]), launch(ours, dsts[1])

    def check() -> float:
        stock_launch()
        tlx_launch()
        torch.cuda.synchronize()
        return max(float((o.double() - expected).abs().max()) for o in outs)

    return stock_launch, tlx_launch, check


def _host_sample(launch: Callable[[], None], launches: int) -> float:
    import torch

    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(launches):
        launch()
    elapsed = time.perf_counter() - start
    torch.cuda.synchronize()
    return elapsed / launches * 1e6


def host_us(launch: Callable[[], None], launches: int = 2000, repeats: int = 7) -> float:
    """Median over `repeats` of the host microseconds per launch of `launches` back-to-back launches."""
    return statistics.median(_host_sample(launch, launches) for _ in range(repeats))


def host_us_pair(
    first: Callable[[], None], second: Callable[[], None], launches: int = 2000, repeats: int = 9
) -> tuple[float, float]:
    """`host_us` of two launchers, their samples interleaved after a warm-up of each, so that drift in the
    host's state (clocks, caches) lands on both alike."""
    for launch in (first, second):
        _host_sample(launch, launches // 4)
    samples: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeats):
        for launch, taken in zip((first, second), samples, strict=True):
            taken.append(_host_sample(launch, launches))
    return statistics.median(samples[0]), statistics.median(samples[1])


def ballast(objects: int = 3_000_000) -> list:
    """A large live heap of small containers, as a process that has compiled and run other work holds."""
    return [[i] for i in range(objects)]


def profile(launch: Callable[[], None], launches: int = 3000, top: int = 18) -> str:
    """cProfile of `launches` launches, the functions with the most own time."""
    import cProfile
    import io
    import pstats

    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(launches):
        launch()
    profiler.disable()
    text = io.StringIO()
    pstats.Stats(profiler, stream=text).sort_stats("tottime").print_stats(top)
    return text.getvalue()


def measure(launches: int = 2000) -> list[dict]:
    """Every pair in every state: one row each, host microseconds per launch."""
    rows = []
    prepared = {pair: launchers(pair) for pair in PAIRS}
    for pair, (_, _, check) in prepared.items():
        error = check()
        if not error < TOLERANCE:
            raise RuntimeError(f"launch_overhead: the {pair} kernels computed wrong results (max error {error})")
    states: list[tuple[str, Callable[[], Any]]] = [("fresh", lambda: None), ("3M live objects", ballast)]
    for state, setup in states:
        kept = setup()
        for pair, (stock_launch, tlx_launch, _) in prepared.items():
            stock_us, tlx_us = host_us_pair(stock_launch, tlx_launch, launches)
            rows.append({"pair": pair, "state": state, "stock_us": stock_us, "tlx_us": tlx_us})
        del kept
        gc.collect()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--launches", type=int, default=2000)
    parser.add_argument("--profile", action="store_true", help="also print cProfile of each kernel's launches")
    args = parser.parse_args(argv)
    rows = measure(args.launches)
    if args.profile:
        for pair in PAIRS:
            stock_launch, tlx_launch, _ = launchers(pair)
            for name, launch in (("stock", stock_launch), ("TLX", tlx_launch)):
                print(f"--- {pair} {name}\n{profile(launch)}")
    print(f"{'pair':12} {'state':16} {'stock us':>9} {'TLX us':>9} {'TLX/stock':>9}")
    for row in rows:
        ratio = row["tlx_us"] / row["stock_us"]
        print(f"{row['pair']:12} {row['state']:16} {row['stock_us']:9.2f} {row['tlx_us']:9.2f} {ratio:9.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
