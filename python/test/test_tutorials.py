"""Every tutorial compiles on the CPU to a cubin for sm_90 with the instructions its ops promise;
on a GPU (marker `gpu`) each computes what PyTorch computes."""

import gpus
import pytest
import triton
import triton.language as tl

import tlx
from tlx.tutorials import (
    cluster_gemm,
    cluster_layernorm,
    compile_tutorial,
    cp_async_matmul,
    grouped_gemm,
    tma_copy,
    tma_matmul,
    wgmma_matmul,
    ws_attention,
    ws_gemm,
)

TUTORIALS = [
    tma_copy,
    tma_matmul,
    cp_async_matmul,
    wgmma_matmul,
    ws_gemm,
    ws_attention,
    cluster_gemm,
    cluster_layernorm,
    grouped_gemm,
]
#: Every compile spec of every tutorial (a module may show one kernel in several configurations).
SPECS = [
    (module, name)
    for module in TUTORIALS
    for name in sorted(vars(module))
    if name == "SPEC" or name.startswith("SPEC_")
]


@pytest.mark.parametrize("module, spec", SPECS, ids=[f"{m.__name__.split('.')[-1]}.{n}" for m, n in SPECS])
def test_tutorial_compiles_to_cubin_with_promised_ptx(module, spec):
    spec = getattr(module, spec)
    compiled = compile_tutorial(spec)
    ptx = compiled.asm["ptx"]
    missing = [marker for marker in spec["ptx"] if marker not in ptx]
    assert not missing, f"PTX lacks {missing}"
    assert compiled.asm["cubin"][:4] == b"\x7fELF"
    assert "tlx." not in compiled.asm["ttgir"], "a TLX op or carrier survived into the final TTGIR"
    tlx.run_pipeline(compiled.asm["ttgir"], "builtin.module()")  # the final TTGIR reads back (tlx-opt replays it)


@triton.jit
def _arange_of_default_width(out, OFFSET: tl.constexpr, WIDTH: tl.constexpr = 8):
    tl.store(out + OFFSET + tl.arange(0, WIDTH), tl.arange(0, WIDTH))


def test_compile_tutorial_binds_the_defaults_of_constexprs_a_spec_leaves_out():
    spec = {"kernel": _arange_of_default_width, "signature": {"out": "*i32", "OFFSET": "constexpr"}}
    ttir = compile_tutorial({**spec, "constexprs": {"OFFSET": 3}, "num_warps": 1}).asm["ttir"]
    assert "end = 8 : i32" in ttir and "end = 3" not in ttir, ttir
    ttir = compile_tutorial({**spec, "constexprs": {"OFFSET": 3, "WIDTH": 16}, "num_warps": 1}).asm["ttir"]
    assert "end = 16 : i32" in ttir, ttir


class _Shape:
    """A stand-in for a (B, H, N, D) tensor: the checks ``ws_attention.run`` makes before it needs PyTorch."""

    def __init__(self, *shape: int):
        self.shape = shape


@pytest.mark.parametrize(
    "shape, options, message",
    [
        ((1, 2, 256, 64), {"pingpong": False, "persistent": True}, "always runs its consumers ping-pong"),
        ((1, 2, 256, 96), {}, "head dim must be one of"),
        ((1, 2, 200, 64), {"persistent": False}, "multiple of 128, got 200"),
        ((1, 2, 512, 128), {"causal": True, "config": ws_attention.CLUSTER_PAIRS}, "from its diagonal, trimmed"),
        ((1, 2, 384, 128), {"config": ws_attention.CLUSTER_PAIRS}, "multiple of 256, got 384"),
        ((1, 2, 640, 128), {"causal": True, "config": ws_attention.CAUSAL_CLUSTER_PAIRS}, "multiple of 256, got 640"),
        ((1, 2, 512, 128), {"config": {**ws_attention.CLUSTER_PAIRS, "CTAS": 4}}, "CTAS must be 1 or 2, got 4"),
    ],
)
def test_ws_attention_refuses_bad_calls_on_the_host(shape, options, message):
    q = _Shape(*shape)
    with pytest.raises(ValueError, match=message):
        ws_attention.run(q, q, q, **options)


def _key_blocks(m: int, n: int, block_m: int, block_n: int = 128) -> int:
    """Key blocks causal query tile ``m`` reads: up to its last row (a head's last tile may be short)."""
    return -(-min((m + 1) * block_m, n) // block_n)


def _per_cta_tiles(plan: list[int], programs: int) -> list[list[int]]:
    assert plan[0] == programs + 1 and plan[programs] == len(plan)
    assert all(a <= b for a, b in zip(plan[:programs], plan[1 : programs + 1], strict=True))
    return [plan[plan[c] : plan[c + 1]] for c in range(programs)]


@pytest.mark.parametrize(
    "batch_heads, n, programs, block_m",
    # the suite's shapes (B * N = 16384, H * D = 2048) at D=64 and D=128 on 132 SMs; fewer tiles than SMs;
    # a head's short last tile (N = 8192 in 192-row tiles); one head; causal cluster pairs' plans (tiles of 256
    # rows for 66 clusters; one cluster).
    [(64, 4096, 132, 128), (64, 8192, 132, 192), (32, 16384, 132, 192), (16, 16384, 132, 128),
     (256, 1024, 132, 128), (6, 384, 132, 128), (60, 1152, 132, 128), (1, 8192, 132, 192), (3, 640, 7, 192),
     (16, 8192, 66, 256), (1, 256, 1, 256)],
)  # fmt: skip
def test_causal_attention_schedule_covers_every_tile_once_and_balances_work(batch_heads, n, programs, block_m):
    num_m = -(-n // block_m)
    per_cta = _per_cta_tiles(ws_attention.causal_schedule(batch_heads, n, programs, block_m, 128), programs)
    assert sorted(t for tiles in per_cta for t in tiles) == list(range(batch_heads * num_m))
    work = [sum(_key_blocks(t % num_m, n, block_m) + 1 for t in tiles) for tiles in per_cta]
    if batch_heads * num_m >= 8 * programs:  # many tiles: within 2% of a perfect split
        assert max(work) <= 1.02 * sum(work) / programs, (max(work), sum(work) / programs)
    else:  # no CTA ends more than one tile's work past the average
        assert max(work) <= sum(work) / programs + max(_key_blocks(m, n, block_m) + 1 for m in range(num_m))


def test_causal_attention_schedule_keeps_the_tiles_running_together_on_few_heads():
    """The suite's D=64 N=16384 shape: the tiles each round of the SMs starts belong to a few heads, whose
    keys and values fit in L2 together (4 MB a head), not to all 32."""
    programs, n, block_m = 132, 16384, 192
    num_m = -(-n // block_m)
    per_cta = _per_cta_tiles(ws_attention.causal_schedule(32, n, programs, block_m, 128), programs)
    for k in range(min(len(tiles) for tiles in per_cta)):
        heads = {tiles[k] // num_m for tiles in per_cta}
        assert len(heads) <= 8, (k, sorted(heads))


gpu = gpus.cuda


def _relative_error(out, ref) -> float:
    out = out.double()
    assert not out.isnan().any(), "some outputs were never written (NaN poison survived)"
    return ((out - ref).norm() / ref.norm()).item()


@pytest.mark.gpu
@gpu
@pytest.mark.parametrize("shape", [(64, 64), (1000, 776), (2048, 1024)])
def test_tma_copy_on_gpu(shape):
    import torch

    x = torch.randn(*shape, device="cuda", dtype=torch.float16)
    alpha = float(torch.rand(()).item()) + 0.5
    assert _relative_error(tma_copy.run(x, alpha), x.double() * alpha) < 1e-3


@pytest.mark.gpu
@gpu
@pytest.mark.parametrize("module", [tma_matmul, cp_async_matmul, wgmma_matmul], ids=lambda m: m.__name__.split(".")[-1])
@pytest.mark.parametrize("shape", [(128, 128, 64), (1000, 784, 528), (520, 384, 1040)])
def test_matmul_on_gpu(module, shape):
    import torch

    m, n, k = shape
    a = torch.randn(m, k, device="cuda", dtype=torch.float16)
    b = torch.randn(k, n, device="cuda", dtype=torch.float16)
    assert _relative_error(module.run(a, b), a.double() @ b.double()) < 1e-2


@pytest.mark.gpu
@gpu
@pytest.mark.parametrize("schedule", ["cooperative", "pingpong"])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("shape", [(128, 256, 64), (1000, 784, 528), (520, 384, 1040), (2048, 2304, 4096)])
def test_ws_gemm_on_gpu(schedule, dtype, shape):
    import torch

    m, n, k = shape
    a = torch.randn(m, k, device="cuda", dtype=getattr(torch, dtype))
    b = torch.randn(k, n, device="cuda", dtype=getattr(torch, dtype))
    assert _relative_error(ws_gemm.run(a, b, schedule), a.double() @ b.double()) < 1e-2


@pytest.mark.gpu
@gpu
@pytest.mark.parametrize("multicast", [True, False])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("shape", [(256, 256, 64), (1000, 784, 528), (2048, 2304, 4096)])
def test_cluster_gemm_on_gpu(multicast, dtype, shape):
    import torch

    m, n, k = shape
    a = torch.randn(m, k, device="cuda", dtype=getattr(torch, dtype))
    b = torch.randn(k, n, device="cuda", dtype=getattr(torch, dtype))
    assert _relative_error(cluster_gemm.run(a, b, multicast), a.double() @ b.double()) < 1e-2


@pytest.mark.gpu
@gpu
@pytest.mark.parametrize("shape", [(4096, 8192), (1000, 16384), (37, 65536)])
def test_cluster_layernorm_on_gpu(shape):
    import torch

    x = torch.randn(*shape, device="cuda", dtype=torch.bfloat16) * 3 + 1
    w = torch.randn(shape[1], device="cuda", dtype=torch.bfloat16)
    b = torch.randn(shape[1], device="cuda", dtype=torch.bfloat16)
    ref = torch.nn.functional.layer_norm(x.double(), shape[1:], w.double(), b.double(), 1e-5)
    assert _relative_error(cluster_layernorm.run(x, w, b), ref) < 1e-2


def _attention_reference(q, k, v, causal):
    import torch

    q, k, v = q.double(), k.double(), v.double()
    scores = q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5
    if causal:
        n = q.shape[2]
        scores = scores.masked_fill(torch.ones(n, n, dtype=torch.bool, device=q.device).triu(1), float("-inf"))
    return torch.softmax(scores, -1) @ v


def _growing_scores(q, k):
    """``q`` and ``k`` changed so that the scores of each key block spread wider than the block's before: a
    row's maximum grows by more than 8 (log2) from block to block, which is when a lazy rescale happens
    (with random inputs it happens in the first blocks only)."""
    import torch

    ramp = 1 + 10 * torch.arange(k.shape[2], device=k.device, dtype=torch.float32) / k.shape[2]
    return (q.float() * 3).to(q.dtype), (k.float() * ramp[:, None]).to(k.dtype)


@pytest.mark.gpu
@gpu
@pytest.mark.parametrize("pingpong", [True, False])
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("head_dim", [64, 128])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("shape", [(1, 1, 128), (2, 3, 384), (1, 2, 1280)])
def test_ws_attention_on_gpu(shape, dtype, head_dim, causal, pingpong):
    import torch

    batch, heads, n = shape
    q, k, v = (torch.randn(batch, heads, n, head_dim, device="cuda", dtype=getattr(torch, dtype)) for _ in range(3))
    out = ws_attention.run(q, k, v, causal=causal, pingpong=pingpong, persistent=False)
    assert _relative_error(out, _attention_reference(q, k, v, causal)) < 1e-2


@pytest.mark.gpu
@gpu
@pytest.mark.filterwarnings("ignore:The CUDA Graph is empty")  # the refused capture records no kernel
def test_ws_attention_causal_runs_in_a_cuda_graph_once_its_shape_has_run():
    """A causal shape's first call uploads its tile schedule, which a capture cannot record: the capture
    fails with a message that says what to do, and after one call the captured graph replays correctly."""
    import torch

    # a shape no other test runs: its schedule is not uploaded yet in this process
    q, k, v = (torch.randn(1, 7, 896, 64, device="cuda", dtype=torch.bfloat16) for _ in range(3))
    out = torch.full_like(q, float("nan"))
    capture = torch.cuda.graph(torch.cuda.CUDAGraph())
    with pytest.raises(RuntimeError, match=r"call run\(\) once for this shape before capturing"), capture:
        ws_attention.run(q, k, v, causal=True, out=out)
    ws_attention.run(q, k, v, causal=True, out=out)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        ws_attention.run(q, k, v, causal=True, out=out)
    out.fill_(float("nan"))
    graph.replay()
    torch.cuda.synchronize()
    assert _relative_error(out, _attention_reference(q, k, v, True)) < 1e-2


@pytest.mark.gpu
@gpu
@pytest.mark.parametrize(
    "config",
    [
        "default",
        "other",
        "peeled",
        "other peeled",
        "wait after softmax",
        "lazy rescale, growing scores",
        "diagonal first",
        "other diagonal first",
        "untrimmed diagonal",
        "other diagonal first, trimmed",
    ],
)
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("head_dim", [64, 128])
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
# Fewer tiles than SMs; many tiles per SM, with the last group of heads partial (60 heads, 42 per group at
# D=128); one head longer than the L2 plan. Three consumers (D=64): N below their 192 rows (two take over);
# a head's last tile short when causal, one (N = 8192) or two (N = 640) consumers idle in it, and
# overlapping the tile before when not.
@pytest.mark.parametrize("shape", [(2, 3, 384), (3, 20, 1152), (1, 1, 8192), (1, 1, 128), (2, 3, 640)])
def test_ws_attention_persistent_on_gpu(shape, dtype, head_dim, causal, config):
    """The configuration ``run`` picks, and the other one of its head dim: three consumers at D=64 (where
    the default has two below N = 2048 or, causal, through 4096); at D=128 Q where the default does not
    keep it (registers or shared memory). Causal, each also with its key blocks peeled (``PEEL_DIAGONAL``:
    with three consumers the diagonal crosses two blocks of a tile; where the default is causal cluster pairs,
    the single CTA of the same walk peeled). The default with each block's wait for
    ``P @ V`` after its softmax (``WAIT_AFTER_SOFTMAX``); with lazy rescaling (``LAZY_RESCALE``) on scores
    that make rows rescale block after block. Causal, key blocks from the diagonal down (``DIAGONAL_FIRST``:
    the default causal, at D=128 with Q in shared memory and 240 registers; at D=64 with three consumers
    too, whose 192-row tiles have their diagonal in two key blocks, and whose last tile leaves one or two
    consumers idle): the tile's first row starts from one key. The default's two consumers trim the diagonal
    block (``TRIM_DIAGONAL``) and keep one more value stage (``EXTRA_V_STAGES``); "untrimmed diagonal" walks
    without either; "other diagonal first, trimmed" is three consumers with both (the default at D=64 causal
    N = 8192 trims without the deeper ring), whose 192-row tiles of either parity leave one or two consumers
    nothing to do in the tile's last key block."""
    import torch

    batch, heads, n = shape
    if ("peeled" in config or "diagonal" in config) and not causal:
        pytest.skip("peeling and the walk from the diagonal change causal tiles only")
    if config.startswith(("diagonal first", "other diagonal first")) and head_dim == 128:
        pytest.skip("at D=128 the walk from the diagonal has one configuration, the causal default: the 'default' case")
    q, k, v = (torch.randn(batch, heads, n, head_dim, device="cuda", dtype=getattr(torch, dtype)) for _ in range(3))
    if "growing" in config:
        q, k = _growing_scores(q, k)
    if head_dim == 64:
        other = ws_attention.THREE_CONSUMERS
    elif ws_attention.persistent_config(head_dim, causal, n)["Q_IN_REGS"]:
        other = ws_attention.TWO_CONSUMERS
    else:
        other = ws_attention.TWO_CONSUMERS_Q_IN_REGS
    trimmed, untrimmed = config.endswith(", trimmed"), "untrimmed" in config
    options = {}
    if config != "default":
        chosen = other if config.startswith("other") else ws_attention.persistent_config(head_dim, causal, n)
        if "peeled" in config and chosen["CTAS"] == 2:  # causal pairs walk from the diagonal: peel a single CTA
            chosen = ws_attention.TWO_CONSUMERS_DIAGONAL_FIRST_Q_IN_SMEM
        if "diagonal" in config and head_dim == 128:
            chosen = ws_attention.TWO_CONSUMERS_DIAGONAL_FIRST_Q_IN_SMEM
        elif untrimmed:  # the default's two consumers
            chosen = ws_attention.TWO_CONSUMERS_DIAGONAL_FIRST
        elif trimmed:
            chosen = ws_attention.THREE_CONSUMERS_TRIMMED
        options = {
            "config": {
                **chosen,
                "PEEL_DIAGONAL": "peeled" in config,
                "WAIT_AFTER_SOFTMAX": "wait after" in config,
                "LAZY_RESCALE": chosen["LAZY_RESCALE"] or "lazy" in config,
                "DIAGONAL_FIRST": chosen["DIAGONAL_FIRST"] and "peeled" not in config or "diagonal" in config,
                "TRIM_DIAGONAL": (chosen["TRIM_DIAGONAL"] or trimmed) and not untrimmed,
                "EXTRA_V_STAGES": 0 if untrimmed else 1 if trimmed else chosen["EXTRA_V_STAGES"],
            }
        }
    out = ws_attention.run(q, k, v, causal=causal, persistent=True, **options)
    assert _relative_error(out, _attention_reference(q, k, v, causal)) < 1e-2


@pytest.mark.gpu
@gpu
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
# One cluster; fewer tiles than SMs; many tiles per SM with a partial last round (210 tiles on 132 CTAs);
# one long head.
@pytest.mark.parametrize("shape", [(1, 1, 256), (2, 3, 512), (5, 7, 768), (3, 20, 1024), (1, 1, 8192)])
@pytest.mark.parametrize("growing", [False, True])
@pytest.mark.parametrize("causal", [False, True], ids=["all-keys", "causal"])
def test_ws_attention_cluster_pairs_on_gpu(shape, dtype, growing, causal):
    """Two-CTA clusters that multicast each half of every key/value block into both CTAs (D=128): on random
    scores (rows rescale in the first blocks), and on scores that grow block after block. Both rescale lazily;
    causal pairs walk query blocks 2a and 2a + 1 of one head from the diagonal, the shorter one's consumers pass
    the first block of the longer one's stream, and which CTA has the longer tile alternates."""
    import torch

    batch, heads, n = shape
    q, k, v = (torch.randn(batch, heads, n, 128, device="cuda", dtype=getattr(torch, dtype)) for _ in range(3))
    if growing:
        q, k = _growing_scores(q, k)
    config = ws_attention.CAUSAL_CLUSTER_PAIRS if causal else ws_attention.CLUSTER_PAIRS
    out = ws_attention.run(q, k, v, causal=causal, config=config)
    assert _relative_error(out, _attention_reference(q, k, v, causal)) < 1e-2
