"""Run every tutorial once at a small shape and check it: the driver for compute-sanitizer.

    compute-sanitizer --tool racecheck python -m tlx.tools.tutorial_smoke [NAME ...]

Small shapes keep the sanitizers fast (a few CTAs each) while every code path runs: several k-steps,
several tiles per persistent CTA, both consumer schedules, causal and not. Exits non-zero if a result
is wrong, so a run is "clean" only when the sanitizer reports nothing *and* this exits 0.
`stock_gluon_warp_specialize` is the baseline: the same pattern in stock Gluon, to tell Triton's own
warp-specialization protocol apart from what a tutorial adds.
"""

from __future__ import annotations

import sys


def _check(name: str, out, ref, tolerance: float = 1e-2) -> bool:
    out = out.double()
    error = float("inf") if out.isnan().any() else ((out - ref).norm() / ref.norm()).item()
    ok = error < tolerance
    print(f"{name:40s} err={error:.1e} {'ok' if ok else 'WRONG'}", flush=True)
    return ok


def _stock_gluon_warp_specialize():
    """The same producer/consumer shape written in stock Gluon (no TLX): the sanitizer's baseline for what
    Triton's own warp-specialization protocol reports."""
    from triton.experimental import gluon
    from triton.experimental.gluon import language as gl
    from triton.experimental.gluon.language.nvidia.hopper import mbarrier

    @gluon.jit
    def producer(x_ptr, smem, ready, empty, n, BLOCK: gl.constexpr):
        offs = gl.arange(0, BLOCK, layout=gl.BlockedLayout([1], [32], [1], [0]))
        for i in range(n):
            mbarrier.wait(empty.index(i % 2), ((i // 2) & 1) ^ 1)
            smem.index(i % 2).store(gl.load(x_ptr + i * BLOCK + offs))
            mbarrier.arrive(ready.index(i % 2), count=1)

    @gluon.jit
    def consumer(smem, ready, empty, n, BLOCK: gl.constexpr):
        layout: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
        acc = gl.zeros([BLOCK], gl.float32, layout)
        for i in range(n):
            mbarrier.wait(ready.index(i % 2), (i // 2) & 1)
            acc += smem.index(i % 2).load(layout)
            mbarrier.arrive(empty.index(i % 2), count=1)
        return (acc,)

    @gluon.jit
    def kernel(x_ptr, out_ptr, n, BLOCK: gl.constexpr):
        smem = gl.allocate_shared_memory(gl.float32, [2, BLOCK], gl.SwizzledSharedLayout(1, 1, 1, [0]))
        ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
        empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
        for i in gl.static_range(2):
            mbarrier.init(ready.index(i), count=1)
            mbarrier.init(empty.index(i), count=1)
        (acc,) = gl.warp_specialize(
            [(consumer, (smem, ready, empty, n, BLOCK)), (producer, (x_ptr, smem, ready, empty, n, BLOCK))],
            [1],
            [48],
        )
        gl.store(out_ptr + gl.arange(0, BLOCK, layout=gl.BlockedLayout([1], [32], [4], [0])), acc)

    return kernel


def _cases():
    import torch

    from tlx.tutorials import (
        broadcast_scoring,
        cp_async_matmul,
        gdpa,
        tma_copy,
        tma_matmul,
        wgmma_matmul,
        ws_attention,
        ws_gemm,
    )

    def randn(*shape, dtype=torch.float16):
        return torch.randn(*shape, device="cuda", dtype=dtype)

    def matmul(module, **kwargs):
        def case():
            a, b = randn(256, 192), randn(192, 512)
            return module.run(a, b, **kwargs), a.double() @ b.double()

        return case

    def copy():
        x = randn(256, 128)
        return tma_copy.run(x, 1.5), x.double() * 1.5

    def gemm(schedule):
        def case():
            # 3x4 tiles on 2 CTAs: several tiles per persistent CTA, both consumers busy.
            a, b = randn(384, 256, dtype=torch.bfloat16), randn(256, 1024, dtype=torch.bfloat16)
            return ws_gemm.run(a, b, schedule, config={"GROUP_M": 1}, num_sms=2), a.double() @ b.double()

        return case

    def attention(causal, head_dim):
        def case():
            q, k, v = (randn(1, 2, 384, head_dim) for _ in range(3))
            scores = q.double() @ k.double().transpose(-1, -2) / head_dim**0.5
            if causal:
                scores = scores.masked_fill(
                    torch.ones(384, 384, dtype=torch.bool, device="cuda").triu(1), float("-inf")
                )
            return ws_attention.run(q, k, v, causal=causal), torch.softmax(scores, -1) @ v.double()

        return case

    def jagged_attention(activation, causal, head_dim):
        def case():
            # Sequences of 0, 1, 200 and 300 tokens: early exits, a partial tile's masked store and
            # several key blocks on the longest.
            inputs = gdpa.make_inputs(4, 2, head_dim, [0, 1, 200, 300], torch.float16, "cuda")
            ref = gdpa.reference(**inputs, activation=activation, causal=causal)
            return gdpa.run(**inputs, activation=activation, causal=causal), ref

        return case

    def broadcast():
        inputs = broadcast_scoring.make_inputs(2, 256, 64, 64, 128)
        return broadcast_scoring.run(**inputs), broadcast_scoring.reference(**inputs)

    def stock_gluon():
        x = randn(4, 128, dtype=torch.float32)
        out = torch.full((128,), float("nan"), device="cuda")
        _stock_gluon_warp_specialize()[(1,)](x, out, 4, BLOCK=128, num_warps=4)
        return out, x.double().sum(0)

    return {
        "stock_gluon_warp_specialize": stock_gluon,
        "tma_copy": copy,
        "tma_matmul": matmul(tma_matmul),
        "cp_async_matmul": matmul(cp_async_matmul),
        "wgmma_matmul": matmul(wgmma_matmul),
        "ws_gemm.cooperative": gemm("cooperative"),
        "ws_gemm.pingpong": gemm("pingpong"),
        "ws_attention.d128": attention(False, 128),
        "ws_attention.d64.causal": attention(True, 64),
        "gdpa.d128.gelu": jagged_attention("gelu", False, 128),
        "gdpa.d64.silu.causal": jagged_attention("silu", True, 64),
        "broadcast_scoring": broadcast,
    }


def main(argv: list[str]) -> int:
    import torch

    cases = _cases()
    names = argv or list(cases)
    ok = True
    for name in names:
        out, ref = cases[name]()
        torch.cuda.synchronize()
        ok &= _check(name, out, ref)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
