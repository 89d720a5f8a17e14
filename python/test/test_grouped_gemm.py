"""The MoE grouped GEMM (`tlx.tutorials.grouped_gemm`) and its stock Triton baseline (`tlx.tools.stock_grouped`).

On the CPU: every stock configuration compiles to TMA + wgmma (the TLX kernels' own compile test is in
test_tutorials), and the host functions refuse bad problems with a message naming what is wrong, before
any GPU work. On a GPU (marker `gpu`): both layouts, both dtypes, against float64 PyTorch on fresh random
inputs with NaN-poisoned outputs, with empty, one-row, unaligned and large groups."""

import gpus
import pytest

from tlx.tools import stock_grouped
from tlx.tutorials import compile_tutorial, grouped_gemm

STOCK = [(config, wgrad) for wgrad in (False, True) for config in stock_grouped.CONFIGS]


@pytest.mark.parametrize(
    "config, wgrad", STOCK, ids=[f"{'wgrad' if w else 'fwd'}-{stock_grouped.describe(c)}" for c, w in STOCK]
)
def test_stock_grouped_configs_compile_to_tma_and_wgmma(config, wgrad):
    ptx = compile_tutorial(stock_grouped.spec(config, wgrad)).asm["ptx"]
    assert "wgmma.mma_async" in ptx
    assert "cp.async.bulk.tensor.2d.shared::cluster.global" in ptx
    assert "tensormap.replace" in ptx, "the per-group descriptors are made on the device"


class _Meta:
    """Shape, dtype and placement of a tensor, all the host checks look at (no PyTorch needed)."""

    def __init__(self, *shape, dtype="torch.bfloat16", device="cuda:0", contiguous=True):
        self.shape, self.dtype, self.device, self._contiguous = tuple(shape), dtype, device, contiguous

    def dim(self):
        return len(self.shape)

    def numel(self):
        total = 1
        for size in self.shape:
            total *= size
        return total

    def is_contiguous(self):
        return self._contiguous


OFFS8 = _Meta(8, dtype="torch.int32")


@pytest.mark.parametrize(
    "call, message",
    [
        (
            lambda: grouped_gemm.grouped_mm(_Meta(64, 100), _Meta(8, 100, 256), OFFS8),
            "K = 100 must be a multiple of 16",
        ),
        (
            lambda: grouped_gemm.grouped_mm(_Meta(64, 128), _Meta(4, 128, 256), OFFS8),
            "offs has 8 group ends but w has 4",
        ),
        (lambda: grouped_gemm.grouped_mm(_Meta(64, 128), _Meta(8, 64, 256), OFFS8), "the K dimensions differ"),
        (lambda: grouped_gemm.grouped_mm(_Meta(64, 128), _Meta(8, 128, 100), OFFS8), "N = 100 must be a multiple of 8"),
        (
            lambda: grouped_gemm.grouped_mm(_Meta(64, 128), _Meta(8, 128, 256, dtype="torch.float16"), OFFS8),
            "must both be float16 or bfloat16",
        ),
        (
            lambda: grouped_gemm.grouped_mm(_Meta(64, 128), _Meta(8, 128, 256), _Meta(8, dtype="torch.int64")),
            "offs must be a 1-D int32 tensor",
        ),
        (
            lambda: grouped_gemm.grouped_mm(
                _Meta(64, 128), _Meta(8, 128, 256), _Meta(8, dtype="torch.int32", device="cpu")
            ),
            "offs must be a 1-D int32 tensor on cuda:0",
        ),
        (
            lambda: grouped_gemm.grouped_mm(_Meta(64, 128, contiguous=False), _Meta(8, 128, 256), OFFS8),
            "must be contiguous",
        ),
        (lambda: grouped_gemm.grouped_mm_wgrad(_Meta(64, 128), _Meta(32, 256), OFFS8), "a has 64 rows but dy has 32"),
        (lambda: grouped_gemm.grouped_mm_wgrad(_Meta(64, 128), _Meta(64, 100), OFFS8), "multiples of 8"),
        (lambda: grouped_gemm.grouped_mm_wgrad(_Meta(64, 128), _Meta(8, 64, 256), OFFS8), "a 2-D A and a 2-D second"),
        (
            lambda: stock_grouped.grouped_mm(_Meta(64, 100), _Meta(8, 100, 256), OFFS8),
            "K = 100 must be a multiple of 16",
        ),
    ],
)
def test_bad_problems_are_refused_on_the_host(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_narrow_tiles_where_they_waste_less_of_n():
    assert grouped_gemm._tiles(1408, grouped_gemm.CONFIG)["BLOCK_N"] == 128  # 11 x 128, not 6 x 256
    assert grouped_gemm._tiles(2048, grouped_gemm.CONFIG)["BLOCK_N"] == 256
    assert grouped_gemm._tiles(200, grouped_gemm.CONFIG)["BLOCK_N"] == 256  # one tile either way
    assert grouped_gemm._block_k(1408, "x") == 64 and grouped_gemm._block_k(48, "x") == 16


gpu = gpus.cuda

#: Group sizes with empty groups (first, middle, last), one-row groups, sizes off the tile grid, a group
#: spanning many tiles, and the routed sizes of the benchmark.
GROUPS = {
    "edges": [0, 1, 130, 0, 255, 64, 2000, 7, 0],
    "one": [777],
    "routed": "routed",
}


def _sizes(kind):
    sizes = GROUPS[kind]
    if sizes == "routed":
        return grouped_gemm.routed_group_sizes(4096, 16, skew=1.0, seed=int.from_bytes(__import__("os").urandom(4)))
    return sizes


def _reference(a, b, sizes, wgrad):
    import torch

    starts = [0]
    for size in sizes:
        starts.append(starts[-1] + size)
    if not wgrad:
        out = torch.zeros(a.shape[0], b.shape[-1], dtype=torch.float64, device=a.device)
        for g in range(len(sizes)):
            out[starts[g] : starts[g + 1]] = a[starts[g] : starts[g + 1]].double() @ b[g].double()
        return out
    out = torch.zeros(len(sizes), a.shape[1], b.shape[1], dtype=torch.float64, device=a.device)
    for g in range(len(sizes)):
        out[g] = a[starts[g] : starts[g + 1]].double().T @ b[starts[g] : starts[g + 1]].double()
    return out


def _check(out, ref):
    out = out.double()
    assert not out.isnan().any(), "some outputs were never written (NaN poison survived)"
    error = ((out - ref).norm() / ref.norm().clamp_min(1e-30)).item()
    assert error < 1e-2, f"relative error {error:.2e}"


@pytest.mark.gpu
@gpu
@pytest.mark.parametrize("implementation", ["tlx", "stock"])
@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("groups", sorted(GROUPS))
@pytest.mark.parametrize("k, n", [(256, 1408), (4096, 256), (208, 136)])
def test_grouped_mm_on_gpu(implementation, dtype, groups, k, n):
    import torch

    sizes = _sizes(groups)
    module = grouped_gemm if implementation == "tlx" else stock_grouped
    a = torch.randn(sum(sizes), k, device="cuda", dtype=getattr(torch, dtype))
    w = torch.randn(len(sizes), k, n, device="cuda", dtype=getattr(torch, dtype))
    out = module.grouped_mm(a, w, grouped_gemm.group_ends(sizes, "cuda"))
    _check(out, _reference(a, w, sizes, wgrad=False))


@pytest.mark.gpu
@gpu
@pytest.mark.parametrize("implementation", ["tlx", "stock"])
@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("groups", sorted(GROUPS))
@pytest.mark.parametrize("k, n", [(256, 1408), (1408, 256), (200, 136)])
def test_grouped_mm_wgrad_on_gpu(implementation, dtype, groups, k, n):
    import torch

    sizes = _sizes(groups)
    module = grouped_gemm if implementation == "tlx" else stock_grouped
    a = torch.randn(sum(sizes), k, device="cuda", dtype=getattr(torch, dtype))
    dy = torch.randn(sum(sizes), n, device="cuda", dtype=getattr(torch, dtype))
    out = module.grouped_mm_wgrad(a, dy, grouped_gemm.group_ends(sizes, "cuda"))
    _check(out, _reference(a, dy, sizes, wgrad=True))
    empty = [g for g, size in enumerate(sizes) if size == 0]
    assert all((out[g] == 0).all() for g in empty), "an empty group's gradient is zeros"


@pytest.mark.gpu
@gpu
def test_rows_past_the_last_group_are_left_alone():
    import torch

    a = torch.randn(512, 128, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(2, 128, 256, device="cuda", dtype=torch.bfloat16)
    out = torch.full((512, 256), 7.0, device="cuda", dtype=torch.bfloat16)
    grouped_gemm.grouped_mm(a, w, grouped_gemm.group_ends([100, 200], "cuda"), out=out)
    assert (out[300:] == 7.0).all()
    _check(out[:300], _reference(a[:300], w, [100, 200], wgrad=False))
