"""The broadcast-scoring tutorial: its TLX kernel and the stock-Triton baselines compile on the CPU for
sm_90 (the kernel with the instructions it promises, within Hopper's shared memory); its CPU-side flop
estimate and work split hold; on a GPU (marker `gpu`) the TLX kernel and both materialized baselines
compute the float64 reference."""

import importlib.util
import re

import pytest
import triton
from triton.backends.compiler import GPUTarget
from triton.compiler.compiler import ASTSource

from tlx.tutorials import broadcast_scoring, compile_tutorial

#: Largest dynamic shared memory one CTA may use on sm_90 (227 KiB).
SM90_MAX_SHARED = 232448


def _spec(dtype: str, item_dim: int) -> dict:
    spec = dict(broadcast_scoring.SPEC)
    spec["signature"] = {name: kind.replace("fp16", dtype) for name, kind in spec["signature"].items()}
    spec["constexprs"] = {**spec["constexprs"], "ITEM_DIM": item_dim}
    return spec


@pytest.mark.parametrize("dtype", ["fp16", "bf16"])
@pytest.mark.parametrize("item_dim", [72, 256, broadcast_scoring.MAX_ITEM_DIM])
def test_kernel_compiles_to_cubin_with_promised_ptx(dtype, item_dim):
    compiled = compile_tutorial(_spec(dtype, item_dim))
    ptx = compiled.asm["ptx"]
    missing = [marker for marker in broadcast_scoring.SPEC["ptx"] if marker not in ptx]
    assert not missing, f"PTX lacks {missing}"
    # The element type comes from the descriptors: bf16 inputs give bf16 wgmma, not fp16.
    ptx_type = {"fp16": "f16", "bf16": "bf16"}[dtype]
    assert f"wgmma.mma_async.sync.aligned.m64n128k16.f32.{ptx_type}.{ptx_type}" in ptx
    assert compiled.asm["cubin"][:4] == b"\x7fELF"
    assert "tlx." not in compiled.asm["ttgir"], "a TLX op or carrier survived into the final TTGIR"
    assert compiled.metadata.shared <= SM90_MAX_SHARED, f"{compiled.metadata.shared} bytes of shared memory"


@pytest.mark.parametrize("spec", broadcast_scoring.BASELINE_SPECS, ids=lambda s: s[0].__name__)
def test_baseline_kernels_compile_for_sm90(spec):
    kernel, signature, constexprs, options = spec
    names = list(signature)
    constants = {(names.index(name),): value for name, value in constexprs.items()}
    compiled = triton.compile(
        ASTSource(kernel, signature, constants), target=GPUTarget("cuda", 90, 32), options=options
    )
    assert compiled.asm["cubin"][:4] == b"\x7fELF"
    assert "tlx." not in compiled.asm["ttir"], "the baselines are plain Triton"
    if kernel is broadcast_scoring.matmul_kernel:
        assert "wgmma.mma_async" in compiled.asm["ptx"]
        assert "cp.async.bulk.tensor" in compiled.asm["ptx"]


def test_docstring_estimate_matches_estimate():
    rows = re.findall(
        r"^\s*\((\d+(?:, \d+){4})\)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s", broadcast_scoring.__doc__, re.M
    )
    table = {
        tuple(int(v) for v in shape.split(", ")): (int(c), float(m), float(k), float(r)) for shape, c, m, k, r in rows
    }
    assert set(table) == set(broadcast_scoring.SHAPES), "the docstring's table and SHAPES differ"
    for shape, (chunks, mat_gflop, kernel_gflop, ratio) in table.items():
        want_chunks, materialized, in_kernel, want_ratio = broadcast_scoring.estimate(shape)
        assert chunks == want_chunks, shape
        assert mat_gflop == pytest.approx(materialized / 1e9, abs=0.051), shape
        assert kernel_gflop == pytest.approx(in_kernel / 1e9, abs=0.051), shape
        assert ratio == pytest.approx(want_ratio, abs=0.051), shape
        # The point of the tutorial: the user part is most of the materialized work.
        assert want_ratio >= 3


@pytest.mark.parametrize("shape", broadcast_scoring.SHAPES)
def test_shapes_are_supported(shape):
    broadcast_scoring.check_shape(*shape)


@pytest.mark.parametrize(
    "shape, message",
    [
        ((4, 200, 64, 64, 128), "multiple of BLOCK_M"),
        ((4, 256, 64, 60, 128), "multiples of 8"),
        ((4, 256, 64, 64, 100), "multiples of 8"),
        ((4, 256, 64, 1024, 128), "at most 512"),
        ((0, 256, 64, 64, 128), "positive"),
    ],
)
def test_unsupported_shapes_are_refused(shape, message):
    with pytest.raises(ValueError, match=message):
        broadcast_scoring.check_shape(*shape)


@pytest.mark.parametrize("num_sms", [1, 8, 132, 10**6])
@pytest.mark.parametrize("shape", [(1, 128, 64, 64, 128), (3, 1408, 512, 64, 256), *broadcast_scoring.SHAPES])
def test_plan_covers_every_item_tile_once(shape, num_sms):
    users, n, du, di, h = shape
    tiles = n // broadcast_scoring.CONFIG["BLOCK_M"]
    per_chunk, chunks = broadcast_scoring._plan(users, n, du, di, h, num_sms)
    assert per_chunk >= 1 and chunks >= 1
    # The kernel gives chunk c the tiles [c * per_chunk, min((c + 1) * per_chunk, tiles)): all, none twice,
    # none empty.
    assert (chunks - 1) * per_chunk < tiles <= chunks * per_chunk


# ----------------------------------------------------------------------------- on a GPU


def _cuda_available() -> bool:
    if importlib.util.find_spec("torch") is None:
        return False
    import torch

    return torch.cuda.is_available()


gpu = pytest.mark.skipif(not _cuda_available(), reason="needs a CUDA GPU and PyTorch")

IMPLEMENTATIONS = {
    "tlx": broadcast_scoring.run,
    "materialized_torch": broadcast_scoring.materialized_torch,
    "materialized_triton": broadcast_scoring.materialized_triton,
}

# (B, n, Du, Di, H): one user and one tile; Du, Di and H not multiples of the blocks (partial user-dim
# step, partial K tile, partial N slice); several chunks per user; the largest resident W_i; a SHAPE.
GPU_SHAPES = [
    (1, 128, 64, 64, 128),
    (5, 384, 200, 72, 136),
    (12, 512, 1024, 256, 256),
    (4, 2048, 512, 512, 384),
    broadcast_scoring.SHAPES[0],
]


def _relative_error(out, ref) -> float:
    out = out.double()
    assert not out.isnan().any(), "some outputs were never written (NaN poison survived)"
    return ((out - ref).norm() / ref.norm()).item()


def _dtype(name):
    import torch

    return {"fp16": torch.float16, "bf16": torch.bfloat16}[name]


@pytest.mark.gpu
@gpu
@pytest.mark.parametrize("dtype", ["fp16", "bf16"])
@pytest.mark.parametrize("impl", list(IMPLEMENTATIONS))
@pytest.mark.parametrize("shape", GPU_SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_matches_reference_on_gpu(shape, impl, dtype):
    inputs = broadcast_scoring.make_inputs(*shape, dtype=_dtype(dtype))
    out = IMPLEMENTATIONS[impl](**inputs)
    assert out.shape == (shape[0] * shape[1], shape[4]) and out.dtype == _dtype(dtype)
    assert _relative_error(out, broadcast_scoring.reference(**inputs)) < 1e-2


@pytest.mark.gpu
@gpu
@pytest.mark.parametrize("num_sms", [1, 10**6], ids=["one-chunk-per-user", "one-tile-per-program"])
def test_every_work_split_matches_reference_on_gpu(num_sms, monkeypatch):
    """The ring runs across item tiles (one chunk per user) and each program starts cleanly (one tile
    each): the same answer either way."""
    monkeypatch.setattr(broadcast_scoring, "_num_sms", lambda device: num_sms)
    inputs = broadcast_scoring.make_inputs(6, 1024, 320, 192, 256)
    assert _relative_error(broadcast_scoring.run(**inputs), broadcast_scoring.reference(**inputs)) < 1e-2


@pytest.mark.gpu
@gpu
def test_run_refuses_what_it_cannot_do_on_gpu():

    inputs = broadcast_scoring.make_inputs(2, 128, 64, 64, 128)
    with pytest.raises(ValueError, match="one dtype"):
        broadcast_scoring.run(inputs["user"].float(), inputs["items"], inputs["weight"])
    with pytest.raises(ValueError, match="multiple of BLOCK_M"):
        broadcast_scoring.run(**broadcast_scoring.make_inputs(2, 96, 64, 64, 128))
    with pytest.raises(ValueError, match="contiguous"):
        weight = inputs["weight"].t().contiguous().t()  # same values, column-major
        assert not weight.is_contiguous()
        broadcast_scoring.run(inputs["user"], inputs["items"], weight)
