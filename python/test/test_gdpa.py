"""GDPA forward (`tlx.tutorials.gdpa`) and its stock Triton baseline (`tlx.tools.stock_gdpa`).

On the CPU: every SPEC of the tutorial compiles to a cubin for sm_90 with the instructions its ops
promise and no TLX op left in the final TTGIR; every stock configuration compiles to TMA + wgmma (the
warp-specialized ones with setmaxnreg); the host functions refuse bad inputs with a message naming
what is wrong, before any GPU work (stand-ins for the tensors: no PyTorch needed); the length and flop
helpers. On a GPU (marker `gpu`): both implementations against a float64 reference on fresh random
inputs with NaN-poisoned outputs, every activation, causal and not, D 64 and 128, both dtypes, sequences
of length 0, 1, off the tile grid and long, and rows outside every sequence left untouched."""

from __future__ import annotations

import functools
import math
import os
import warnings

import gpus
import pytest

import tlx
from tlx.compiler import TLXWarning
from tlx.tools import stock_gdpa
from tlx.tutorials import compile_tutorial, gdpa

SPECS = sorted(name for name in vars(gdpa) if name == "SPEC" or name.startswith("SPEC_"))


@pytest.mark.parametrize("name", SPECS)
def test_spec_compiles_to_cubin_with_promised_ptx(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = getattr(gdpa, name)
    monkeypatch.setenv("TRITON_ALWAYS_COMPILE", "1")  # a kernel served from the cache warns nothing
    with warnings.catch_warnings():
        warnings.simplefilter("error", TLXWarning)  # the protocol checker finds nothing to warn about
        compiled = compile_tutorial(spec)
    ptx = compiled.asm["ptx"]
    missing = [marker for marker in spec["ptx"] if marker not in ptx]
    assert not missing, f"PTX lacks {missing}"
    assert compiled.asm["cubin"][:4] == b"\x7fELF"
    assert "tlx." not in compiled.asm["ttgir"], "a TLX op or carrier survived into the final TTGIR"
    tlx.run_pipeline(compiled.asm["ttgir"], "builtin.module()")  # the final TTGIR reads back (tlx-opt replays it)


@pytest.mark.parametrize("kernel", ["grid", "persistent", "stock"])
def test_silu_takes_one_tanh_per_score_and_no_division(kernel: str) -> None:
    """SiLU runs as ``h + h tanh(h)``: one multi-function-unit instruction per score, not ``ex2`` and a division."""
    spec = {
        "grid": gdpa.SPEC_SILU_CAUSAL_D64,
        "persistent": gdpa.SPEC_PERSISTENT_SILU_CAUSAL_D64,
        "stock": stock_gdpa.spec(stock_gdpa.candidates(64)[0], 64, "silu", causal=True, dtype="bf16"),
    }[kernel]
    ptx = compile_tutorial(spec).asm["ptx"]
    assert "tanh.approx.f32" in ptx
    assert not [op for op in ("ex2.approx", "div.full", "div.rn", "rcp.") if op in ptx]


def test_specs_cover_the_promised_cases() -> None:
    cases = {
        (spec["constexprs"]["HEAD_DIM"], spec["constexprs"]["ACTIVATION"], spec["constexprs"]["CAUSAL"])
        for spec in (getattr(gdpa, name) for name in SPECS)
    }
    assert {(128, "gelu", False), (64, "silu", True)} <= cases


#: What the bench tries (the warp-specialized configurations hang on the H200: compiled only).
TRIED = [(d, config) for d in (64, 128) for config in stock_gdpa.candidates(d)]
STOCK = [(d, config) for d in (64, 128) for config in stock_gdpa.candidates(d) + stock_gdpa.WARP_SPECIALIZED_CONFIGS[d]]


@pytest.mark.parametrize(
    "head_dim, config", STOCK, ids=[f"d{d}-{stock_gdpa.describe(c).replace(' ', '-')}" for d, c in STOCK]
)
def test_stock_configs_compile_to_tma_and_wgmma(head_dim: int, config: dict) -> None:
    ptx = compile_tutorial(stock_gdpa.spec(config, head_dim, "gelu", causal=False)).asm["ptx"]
    assert "wgmma.mma_async" in ptx
    assert "cp.async.bulk.tensor.2d.shared::cluster.global" in ptx
    assert "tanh.approx.f32" in ptx
    if config["WARP_SPECIALIZE"]:
        assert "setmaxnreg" in ptx, "the compiler's warp specialization did not happen"


@pytest.mark.parametrize(
    "head_dim, config, activation, marker",
    [
        (64, stock_gdpa.candidates(64)[0], "silu", "tanh.approx.f32"),
        (128, stock_gdpa.WARP_SPECIALIZED_CONFIGS[128][-1], "none", "setmaxnreg"),
    ],
    ids=["d64-silu", "d128-none-ws"],
)
def test_stock_causal_compiles(head_dim: int, config: dict, activation: str, marker: str) -> None:
    ptx = compile_tutorial(stock_gdpa.spec(config, head_dim, activation, causal=True, dtype="fp16")).asm["ptx"]
    assert "wgmma.mma_async" in ptx and marker in ptx


class _Meta:
    """Shape, dtype and placement of a tensor, all the host checks look at (no PyTorch needed)."""

    def __init__(self, *shape: int, dtype: str = "torch.bfloat16", device: str = "cuda:0", contiguous: bool = True):
        self.shape, self.dtype, self.device, self._contiguous = tuple(shape), dtype, device, contiguous

    def dim(self) -> int:
        return len(self.shape)

    def numel(self) -> int:
        return math.prod(self.shape)

    def is_contiguous(self) -> bool:
        return self._contiguous


QKV = (_Meta(300, 4, 128), _Meta(300, 4, 128), _Meta(300, 4, 128))
OFFSETS = _Meta(4, dtype="torch.int32")

BAD_INPUTS = [
    ((*QKV, OFFSETS, 256), {"activation": "relu"}, "activation must be one of"),
    (
        (_Meta(300, 4, 128, dtype="torch.float32"), *QKV[1:], OFFSETS, 256),
        {},
        "q, k and v must all be float16",
    ),
    (
        (QKV[0], _Meta(300, 4, 128, dtype="torch.float16"), QKV[2], OFFSETS, 256),
        {},
        "must all be float16 or all bfloat16",
    ),
    ((_Meta(300, 512), _Meta(300, 512), _Meta(300, 512), OFFSETS, 256), {}, r"q must be \(total_tokens, heads"),
    ((QKV[0], _Meta(300, 4, 64), QKV[2], OFFSETS, 256), {}, "q, k and v must have one shape"),
    ((_Meta(300, 4, 96), _Meta(300, 4, 96), _Meta(300, 4, 96), OFFSETS, 256), {}, "head_dim must be one of"),
    ((QKV[0], QKV[1], _Meta(300, 4, 128, contiguous=False), OFFSETS, 256), {}, "must be contiguous"),
    (
        (_Meta(300, 4, 128, device="cpu"), _Meta(300, 4, 128, device="cpu"), _Meta(300, 4, 128, device="cpu"), OFFSETS)
        + (256,),
        {},
        "must be on one CUDA device",
    ),
    ((*QKV, _Meta(4, dtype="torch.int64"), 256), {}, "offsets must be a 1-D int32 tensor"),
    ((*QKV, _Meta(4, dtype="torch.int32", device="cpu"), 256), {}, "offsets must be a 1-D int32 tensor on cuda:0"),
    ((*QKV, _Meta(2, 2, dtype="torch.int32"), 256), {}, "offsets must be a 1-D int32 tensor"),
    ((*QKV, _Meta(0, dtype="torch.int32"), 256), {}, "offsets must have B \\+ 1 >= 1 entries"),
    ((*QKV, OFFSETS, -1), {}, "max_seq_len must be a non-negative int"),
    ((*QKV, OFFSETS, 256.0), {}, "max_seq_len must be a non-negative int"),
    ((*QKV, _Meta(20000, dtype="torch.int32"), 256), {}, "B \\* H = 79996 exceeds 65535"),
]


@pytest.mark.parametrize("implementation", ["tlx", "stock"])
@pytest.mark.parametrize("args, kwargs, message", BAD_INPUTS, ids=[case[2][:40] for case in BAD_INPUTS])
def test_bad_inputs_are_refused_on_the_host(implementation: str, args: tuple, kwargs: dict, message: str) -> None:
    module = gdpa if implementation == "tlx" else stock_gdpa
    with pytest.raises(ValueError, match=message):
        module.run(*args, **kwargs)


@pytest.mark.parametrize(
    "offsets, kwargs, message",
    [
        (OFFSETS, {"pingpong": False, "persistent": True}, "persistent kernel always runs its consumers ping-pong"),
        (_Meta(1026, dtype="torch.int32"), {"persistent": True}, "takes up to 1024 sequences, got 1025"),
    ],
)
def test_persistent_options_are_refused_on_the_host(offsets, kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        gdpa.run(*QKV, offsets, 256, **kwargs)


def test_the_grid_limit_binds_the_grid_kernel_only() -> None:
    """999 sequences x 128 heads: more programs than the grid's second dimension takes (the persistent
    walk has no such limit, so only the grid launch is refused)."""
    qkv = [_Meta(300, 128, 64) for _ in range(3)]
    offsets = _Meta(1000, dtype="torch.int32")
    for run in (functools.partial(gdpa.run, persistent=False), stock_gdpa.run):
        with pytest.raises(ValueError, match="B \\* H = 127872 exceeds 65535"):
            run(*qkv, offsets, 256)


def test_run_takes_the_persistent_walk_unless_the_grid_measured_faster() -> None:
    assert gdpa.default_persistent(64, 8, 128, "gelu") and gdpa.default_persistent(64, 16, 64, "silu")
    assert not gdpa.default_persistent(64, 8, 128, "silu")  # GRID_FIRST
    assert gdpa.default_persistent(1000, 128, 128, "silu")  # 128000 programs: more than the grid takes
    assert not gdpa.default_persistent(64, 8, 128, "gelu", pingpong=False)
    assert not gdpa.default_persistent(gdpa.PERSISTENT_MAX_BATCH + 1, 8, 64, "gelu")


def test_stock_candidates_refuse_an_unknown_head_dim() -> None:
    with pytest.raises(ValueError, match="head_dim must be one of"):
        stock_gdpa.candidates(96)


def test_jagged_lengths_are_realistic_and_reproducible() -> None:
    lengths = gdpa.jagged_lengths(2000, seed=3)
    assert lengths == gdpa.jagged_lengths(2000, seed=3)
    assert lengths != gdpa.jagged_lengths(2000, seed=4)
    assert min(lengths) >= 128 and max(lengths) <= 4096
    assert 850 <= sum(lengths) / len(lengths) <= 1200, "the mean is about 1k"
    assert len(set(lengths)) > 500, "the lengths vary"
    assert all(64 <= n <= 100 for n in gdpa.jagged_lengths(50, mean=80, low=64, high=100))


def test_flops_count_both_products() -> None:
    assert gdpa.flops([3, 5], heads=2, head_dim=64) == 4 * (9 + 25) * 2 * 64
    assert gdpa.flops([3, 5], heads=2, head_dim=64, causal=True) == 2 * (9 + 25) * 2 * 64
    assert gdpa.flops([], heads=2, head_dim=64) == 0


gpu = gpus.cuda

#: Sequence lengths: empty (first, middle, last), one token, off the 128-row tile, exactly a tile, one
#: past it, a long one; and the benchmark's log-normal lengths (fresh each run).
LENGTHS = {
    "edges": [0, 1, 300, 0, 128, 129, 37, 1000, 0],
    "jagged": "jagged",
}


def _lengths(kind: str) -> list[int]:
    if LENGTHS[kind] == "jagged":
        return gdpa.jagged_lengths(6, mean=700, high=2048, seed=int.from_bytes(os.urandom(4)))
    return list(LENGTHS[kind])


def _check(out, ref, starts: list[int]) -> None:
    inside = out[: starts[-1]].double()
    assert not inside.isnan().any(), "some rows of a sequence were never written (NaN poison survived)"
    ref = ref[: starts[-1]]
    error = ((inside - ref).norm() / ref.norm().clamp_min(1e-30)).item()
    assert error < 1e-2, f"relative error {error:.2e}"


def _run(implementation: str, inputs: dict, **kwargs):
    if implementation == "stock":
        return stock_gdpa.run(**inputs, **kwargs)
    return gdpa.run(**inputs, **kwargs, persistent=implementation == "tlx-persistent")


@pytest.mark.gpu
@gpu
@pytest.mark.parametrize("implementation", ["tlx", "tlx-persistent", "stock"])
@pytest.mark.parametrize("lengths", sorted(LENGTHS))
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("activation", gdpa.ACTIVATIONS)
@pytest.mark.parametrize("head_dim, dtype", [(64, "float16"), (128, "bfloat16"), (128, "float16")])
def test_gdpa_on_gpu(implementation: str, lengths: str, causal: bool, activation: str, head_dim: int, dtype: str):
    import torch

    sizes = _lengths(lengths)
    inputs = gdpa.make_inputs(
        len(sizes), 3, head_dim, sizes, getattr(torch, dtype), "cuda", seed=int.from_bytes(os.urandom(4))
    )
    out = _run(implementation, inputs, activation=activation, causal=causal)
    ref = gdpa.reference(**inputs, activation=activation, causal=causal)
    _check(out, ref, inputs["offsets"].tolist())


@pytest.mark.gpu
@gpu
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("head_dim", [64, 128])
def test_tlx_without_pingpong_on_gpu(causal: bool, head_dim: int) -> None:
    sizes = _lengths("edges")
    import torch

    inputs = gdpa.make_inputs(
        len(sizes), 2, head_dim, sizes, torch.bfloat16, "cuda", seed=int.from_bytes(os.urandom(4))
    )
    out = gdpa.run(**inputs, activation="gelu", causal=causal, pingpong=False)
    _check(out, gdpa.reference(**inputs, activation="gelu", causal=causal), inputs["offsets"].tolist())


@pytest.mark.gpu
@gpu
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("head_dim", [64, 128])
def test_persistent_walk_over_many_tiles_on_gpu(causal: bool, head_dim: int) -> None:
    """Thousands of tiles for 132 CTAs, 200 sequences (a 256-wide sequence table), empty ones among them."""
    import torch

    sizes = gdpa.jagged_lengths(200, mean=500, high=2048, seed=int.from_bytes(os.urandom(4)))
    sizes[7] = sizes[150] = 0
    inputs = gdpa.make_inputs(
        len(sizes), 4, head_dim, sizes, torch.bfloat16, "cuda", seed=int.from_bytes(os.urandom(4))
    )
    out = gdpa.run(**inputs, activation="gelu", causal=causal, persistent=True)
    _check(out, gdpa.reference(**inputs, activation="gelu", causal=causal), inputs["offsets"].tolist())


@pytest.mark.gpu
@gpu
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("head_dim, config", TRIED, ids=[f"d{d}-{stock_gdpa.describe(c)}" for d, c in TRIED])
def test_every_stock_config_on_gpu(head_dim: int, config: dict, causal: bool) -> None:
    import torch

    sizes = _lengths("edges")
    inputs = gdpa.make_inputs(
        len(sizes), 2, head_dim, sizes, torch.bfloat16, "cuda", seed=int.from_bytes(os.urandom(4))
    )
    out = stock_gdpa.run(**inputs, activation="silu", causal=causal, config=config)
    _check(out, gdpa.reference(**inputs, activation="silu", causal=causal), inputs["offsets"].tolist())


@pytest.mark.gpu
@gpu
@pytest.mark.parametrize("implementation", ["tlx", "tlx-persistent", "stock"])
@pytest.mark.parametrize("causal", [False, True])
def test_rows_outside_every_sequence_are_left_alone(implementation: str, causal: bool) -> None:
    import torch

    sizes = [100, 1, 0, 200]
    inputs = gdpa.make_inputs(len(sizes), 2, 128, sizes, torch.bfloat16, "cuda", seed=int.from_bytes(os.urandom(4)))
    # 212 rows past the last sequence (offsets[B] < total_tokens): never written, never read into a result.
    extra = [torch.randn(212, 2, 128, device="cuda", dtype=torch.bfloat16) for _ in range(3)]
    for name, more in zip("qkv", extra, strict=True):
        inputs[name] = torch.cat([inputs[name], more])
    out = torch.full_like(inputs["q"], 7.0)
    result = _run(implementation, inputs, activation="gelu", causal=causal, sm_scale=0.3, out=out)
    assert result is out
    assert (out[301:] == 7.0).all(), "a row past the last sequence was written"
    ref = gdpa.reference(**inputs, activation="gelu", causal=causal, sm_scale=0.3)
    _check(out, ref, inputs["offsets"].tolist())


@pytest.mark.gpu
@gpu
@pytest.mark.parametrize("implementation", ["tlx", "stock"])
def test_nothing_to_do_launches_nothing(implementation: str) -> None:
    import torch

    q = torch.randn(16, 2, 64, device="cuda", dtype=torch.float16)
    for offsets, max_seq_len in (([0], 0), ([0, 0, 0], 0), ([0, 16], 0)):
        out = torch.full_like(q, 7.0)
        offsets = torch.tensor(offsets, dtype=torch.int32, device="cuda")
        module = gdpa if implementation == "tlx" else stock_gdpa
        module.run(q, q, q, offsets, max_seq_len, out=out)
        assert (out == 7.0).all()
