"""The broadcast-scoring tutorial: its kernels compile on the CPU for sm_90 (the TLX kernel, in every
plan `_plan` makes, with the instructions it promises and within Hopper's shared memory; the stock-Triton
projection and baselines too); its plan, ring bookkeeping and CPU-side estimate hold; on a GPU (marker
`gpu`) the TLX path and both materialized baselines compute the float64 reference."""

import re

import gpus
import pytest
import triton

from tlx.tutorials import broadcast_scoring, compile_kernel, compile_tutorial

BLOCK_M = broadcast_scoring.CONFIG["BLOCK_M"]

#: (Di, H) beside SHAPES whose plans differ: a partial K tile with a 256-wide tile, H <= 128, Di between
#: 256 and 512 (one accumulator, 6 stages), three K tiles.
EXTRA_DIMS = [(72, 136), (64, 128), (384, 256), (192, 512)]


def _plans() -> list[tuple[int, int, int, int]]:
    """The distinct (Di, N_SUB, NUM_STAGES, Y_BUFS) `_plan` picks for SHAPES and EXTRA_DIMS."""
    dims = [(di, h) for _, _, _, di, h in broadcast_scoring.SHAPES] + EXTRA_DIMS
    plans = set()
    for di, h in dims:
        plan = broadcast_scoring._plan(4, 1024, 64, di, h, 132)
        plans.add((di, plan["n_sub"], plan["num_stages"], plan["y_bufs"]))
    return sorted(plans)


def _compile_plain(spec, dtype="fp16", divisible_by_16=()):
    """Compile a stock-Triton kernel; `divisible_by_16` names the arguments the launcher would specialize
    (pointers from PyTorch, sizes that are multiples of 16)."""
    kernel, signature, constexprs, options = spec
    signature = {name: kind.replace("fp16", dtype) for name, kind in signature.items()}
    return compile_kernel(kernel, signature, constexprs, divisible_by_16=divisible_by_16, **options)


def _check_tlx_kernel(spec: dict, dtype: str, item_dim: int, n_sub: int, num_stages: int, y_bufs: int = 1) -> None:
    compiled = compile_tutorial(spec)
    ptx = compiled.asm["ptx"]
    missing = [marker for marker in spec["ptx"] if marker not in ptx]
    assert not missing, f"PTX lacks {missing}"
    # The element type comes from the descriptors: bf16 inputs give bf16 wgmma, not fp16.
    ptx_type = {"fp16": "f16", "bf16": "bf16"}[dtype]
    assert f"wgmma.mma_async.sync.aligned.m64n128k16.f32.{ptx_type}.{ptx_type}" in ptx
    # Zero-started accumulators: each tile's first wgmma ignores the accumulator (scale-d = 0).
    assert re.search(r"wgmma\.mma_async[^;]*, 0, 1, 1, 0, 1;", ptx), "no wgmma with scale-d 0"
    assert compiled.asm["cubin"][:4] == b"\x7fELF"
    assert "tlx." not in compiled.asm["ttgir"], "a TLX op or carrier survived into the final TTGIR"
    shared = compiled.metadata.shared
    assert shared <= broadcast_scoring.SMEM_LIMIT, f"{shared} bytes of shared memory"
    # `_plan` sizes the ring with `_smem_bytes`: it must not underestimate, and it must count what the kernel
    # allocates (within the mbarriers' slack: less than one P row), which also ties the kernel's P_SLOTS
    # to the host's `_p_slots` that `test_ring_bookkeeping` checks.
    model = broadcast_scoring._smem_bytes(item_dim, n_sub, num_stages, y_bufs)
    assert 0 <= model - shared < broadcast_scoring.CONFIG["SUB_N"] * 4, (model, shared)


@pytest.mark.parametrize("dtype", ["fp16", "bf16"])
@pytest.mark.parametrize("name", ["SPEC", "SPEC_NARROW"])
def test_kernel_compiles_to_cubin_with_promised_ptx(name, dtype):
    spec = getattr(broadcast_scoring, name)
    c = spec["constexprs"]
    _check_tlx_kernel(
        broadcast_scoring._spec(c["ITEM_DIM"], c["N_SUB"], c["NUM_STAGES"], dtype),
        dtype,
        c["ITEM_DIM"],
        c["N_SUB"],
        c["NUM_STAGES"],
    )


@pytest.mark.parametrize("plan", _plans(), ids=lambda p: f"di{p[0]}-nsub{p[1]}-stages{p[2]}-ybufs{p[3]}")
def test_every_plan_compiles_within_shared_memory(plan):
    item_dim, n_sub, num_stages, y_bufs = plan
    spec = broadcast_scoring._spec(item_dim, n_sub, num_stages, y_bufs=y_bufs)
    _check_tlx_kernel(spec, "fp16", item_dim, n_sub, num_stages, y_bufs)


@pytest.mark.parametrize("plan", [(128, 2, 5, 2), (256, 2, 4, 1), (512, 1, 4, 1)], ids=lambda p: f"di{p[0]}")
def test_prologue_fetches_only_the_first_tile_before_gdc_wait(plan):
    """Before `gdc_wait` (P still being computed by the projection kernel) the prologue fetches W_i and only
    the first tile's X steps; after it, the prologue tiles' P rows, then the rest of the ring."""
    item_dim, n_sub, num_stages, y_bufs = plan
    ttgir = compile_tutorial(broadcast_scoring._spec(item_dim, n_sub, num_stages, y_bufs=y_bufs)).asm["ttgir"]
    prologue = ttgir[: ttgir.index("scf.for")]
    order = re.findall(r"griddepcontrol\.wait|async_tma_copy_global_to_local %(\w)_desc", prologue)
    k_tiles = item_dim // broadcast_scoring.CONFIG["BLOCK_K"]
    first_tile_steps = min(k_tiles, num_stages)
    p_rows = triton.cdiv(num_stages, k_tiles)  # the tiles whose first step is in the ring's first pass
    expected = (
        ["w"] * (k_tiles * n_sub)
        + ["x"] * first_tile_steps
        + [""]
        + ["p"] * (p_rows * n_sub)
        + ["x"] * (num_stages - first_tile_steps)
    )
    assert order == expected


def test_some_plan_stages_each_half_in_its_own_buffer():
    # Di <= 128 with two halves leaves room for a staging buffer per half (the stores overlap the casts).
    assert any(y_bufs == n_sub == 2 for _, n_sub, _, y_bufs in _plans())


def test_specs_are_plans_of_their_shapes():
    def picked(di, h):
        plan = broadcast_scoring._plan(8, 1024, 64, di, h, 132)
        return {"ITEM_DIM": di, "N_SUB": plan["n_sub"], "NUM_STAGES": plan["num_stages"], "Y_BUFS": plan["y_bufs"]}

    for name, (di, h) in (("SPEC", broadcast_scoring.SHAPES[0][3:]), ("SPEC_NARROW", broadcast_scoring.SHAPES[2][3:])):
        constexprs = getattr(broadcast_scoring, name)["constexprs"]
        assert {key: constexprs[key] for key in ("ITEM_DIM", "N_SUB", "NUM_STAGES", "Y_BUFS")} == picked(di, h), name


@pytest.mark.parametrize("dtype", ["fp16", "bf16"])
def test_projection_kernel_compiles_for_sm90(dtype):
    # As launched for SHAPES: every Du and H a multiple of 16.
    divisible = ("user_ptr", "weight_ptr", "proj_ptr", "user_dim", "hidden")
    compiled = _compile_plain(broadcast_scoring.PROJECTION_SPEC, dtype, divisible)
    ptx = compiled.asm["ptx"]
    assert compiled.asm["cubin"][:4] == b"\x7fELF"
    assert "tlx." not in compiled.asm["ttir"], "the projection is plain Triton"
    # tl.dot on the tensor cores (mma.sync at 16 rows), the Du loop pipelined with cp.async (num_stages).
    ptx_type = {"fp16": "f16", "bf16": "bf16"}[dtype]
    assert f"mma.sync.aligned.m16n8k16.row.col.f32.{ptx_type}.{ptx_type}.f32" in ptx
    assert "cp.async.cg.shared.global" in ptx and "cp.async.wait_group" in ptx
    # It lets the scoring kernel, its programmatic dependent, start early.
    assert "griddepcontrol.launch_dependents" in ptx


@pytest.mark.parametrize("spec", broadcast_scoring.BASELINE_SPECS, ids=lambda s: s[0].__name__)
def test_baseline_kernels_compile_for_sm90(spec):
    compiled = _compile_plain(spec)
    assert compiled.asm["cubin"][:4] == b"\x7fELF"
    assert "tlx." not in compiled.asm["ttir"], "the baselines are plain Triton"
    if spec[0] is broadcast_scoring.matmul_kernel:
        assert "wgmma.mma_async" in compiled.asm["ptx"]
        assert "cp.async.bulk.tensor" in compiled.asm["ptx"]


def test_docstring_estimate_matches_estimate():
    number = r"\s+([\d.]+)"
    rows = re.findall(r"^\s*\((\d+(?:, \d+){4})\)" + number * 10 + r"\s*$", broadcast_scoring.__doc__, re.M)
    table = {tuple(int(v) for v in shape.split(", ")): [float(v) for v in values] for shape, *values in rows}
    assert set(table) == set(broadcast_scoring.SHAPES), "the docstring's table and SHAPES differ"
    for shape, values in table.items():
        block_n, stages, grid, tiles, mat_gflop, tlx_gflop, ratio, tlx_mb, concat_mb, ms = values
        e = broadcast_scoring.estimate(shape)
        assert (block_n, stages, grid, tiles) == (e["block_n"], e["num_stages"], e["grid"], e["tiles_per_program"])
        assert mat_gflop == pytest.approx(e["materialized_flops"] / 1e9, abs=0.051), shape
        assert tlx_gflop == pytest.approx(e["tlx_flops"] / 1e9, abs=0.051), shape
        assert ratio == pytest.approx(e["ratio"], abs=0.051), shape
        assert tlx_mb == pytest.approx(e["tlx_bytes"] / 1e6, abs=0.051), shape
        assert concat_mb == pytest.approx(e["concat_bytes"] / 1e6, abs=0.051), shape
        assert ms == pytest.approx(e["predicted_s"] * 1e3, abs=0.00051), shape
        # The point of the tutorial: the user part is most of the materialized work.
        assert e["ratio"] >= 3


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
        ((2**16, 2**15, 64, 64, 128), "int32"),
    ],
)
def test_unsupported_shapes_are_refused(shape, message):
    with pytest.raises(ValueError, match=message):
        broadcast_scoring.check_shape(*shape)


PLAN_SHAPES = [
    (1, 128, 64, 64, 128),
    (3, 1408, 512, 64, 264),
    (5, 384, 200, 72, 136),
    (4, 2048, 512, 512, 384),
    *broadcast_scoring.SHAPES,
]


@pytest.mark.parametrize("num_sms", [1, 7, 132, 10**6])
@pytest.mark.parametrize("shape", PLAN_SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_plan_covers_every_tile_once(shape, num_sms):
    users, n, du, di, h = shape
    plan = broadcast_scoring._plan(users, n, du, di, h, num_sms)
    assert plan["smem"] <= broadcast_scoring.SMEM_LIMIT
    assert plan["num_stages"] >= (broadcast_scoring.MIN_STAGES if plan["n_sub"] == 2 else 2)
    assert plan["block_n"] == plan["n_sub"] * broadcast_scoring.CONFIG["SUB_N"]
    assert plan["num_n"] == triton.cdiv(h, plan["block_n"])
    assert plan["row_tiles"] == users * n // BLOCK_M
    # The kernel: program pid takes slice pid % num_n and tiles pid // num_n + i * stride, i < my_tiles.
    num_n, grid = plan["num_n"], plan["grid"]
    assert grid % num_n == 0
    stride = grid // num_n
    covered = {}
    for pid in range(grid):
        first = pid // num_n
        my_tiles = triton.cdiv(plan["row_tiles"] - first, stride)
        assert 1 <= my_tiles <= plan["tiles_per_program"], "an idle program, or one past the plan"
        for i in range(my_tiles):
            key = (pid % num_n, first + i * stride)
            assert key not in covered, f"{key} twice"
            covered[key] = pid
    assert set(covered) == {(s, m) for s in range(num_n) for m in range(plan["row_tiles"])}


@pytest.mark.parametrize("k_tiles", [1, 2, 3, 4, 5, 8])
@pytest.mark.parametrize("num_stages", [2, 3, 4, 5, 6, 7, 8])
@pytest.mark.parametrize("my_tiles", [1, 2, 3, 9])
def test_ring_bookkeeping(k_tiles, num_stages, my_tiles):
    """Replay the kernel's loads and reads in program order: every X stage and P slot holds what its
    reader expects, and no load overwrites a P row before its tile's epilogue has read it."""
    p_slots = broadcast_scoring._p_slots(k_tiles, num_stages)
    steps = my_tiles * k_tiles
    stage = {}  # X stage -> step it holds
    slot = {}  # P slot -> tile whose row it holds

    def load(step, tile, k):
        assert step == tile * k_tiles + k
        stage[step % num_stages] = step
        if k == 0:
            slot[tile % p_slots] = tile

    for i in range(min(num_stages, steps)):  # the prologue
        load(i, i // k_tiles, i % k_tiles)
    for t in range(my_tiles):
        for k in range(k_tiles):
            step = t * k_tiles + k
            assert stage[step % num_stages] == step
            refill = step - 1 + num_stages
            if step > 0 and refill < steps:
                load(refill, t + (k - 1 + num_stages) // k_tiles, (k - 1 + num_stages) % k_tiles)
        assert slot[t % p_slots] == t, "the P row was overwritten before the epilogue read it"


# ----------------------------------------------------------------------------- on a GPU


gpu = gpus.cuda

IMPLEMENTATIONS = {
    "tlx": broadcast_scoring.run,
    "materialized_torch": broadcast_scoring.materialized_torch,
    "materialized_triton": broadcast_scoring.materialized_triton,
}

# (B, n, Du, Di, H): one user and one tile (one 128-wide accumulator); Du, Di and H not multiples of the
# blocks (partial user-dim step, partial K tile, a second accumulator mostly past H); the second
# accumulator of the last slice wholly past H; several slices of Di = 512 with a partial last one; a SHAPE.
GPU_SHAPES = [
    (1, 128, 64, 64, 128),
    (5, 384, 200, 72, 136),
    (3, 256, 96, 128, 264),
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


def _poisoned(inputs):
    import torch

    items, weight = inputs["items"], inputs["weight"]
    return torch.full((items.shape[0], weight.shape[1]), float("nan"), device=items.device, dtype=items.dtype)


@pytest.mark.gpu
@gpu
@pytest.mark.parametrize("dtype", ["fp16", "bf16"])
@pytest.mark.parametrize("impl", list(IMPLEMENTATIONS))
@pytest.mark.parametrize("shape", GPU_SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_matches_reference_on_gpu(shape, impl, dtype):
    inputs = broadcast_scoring.make_inputs(*shape, dtype=_dtype(dtype))
    out = _poisoned(inputs)
    result = IMPLEMENTATIONS[impl](**inputs, out=out)
    assert result is out and out.dtype == _dtype(dtype)
    assert _relative_error(out, broadcast_scoring.reference(**inputs)) < 1e-2
    # Without `out`: a fresh tensor of the right shape.
    fresh = IMPLEMENTATIONS[impl](**inputs)
    assert fresh.shape == (shape[0] * shape[1], shape[4]) and fresh.dtype == _dtype(dtype)
    assert _relative_error(fresh, broadcast_scoring.reference(**inputs)) < 1e-2


@pytest.mark.gpu
@gpu
@pytest.mark.parametrize("num_sms", [1, 7, 10**6], ids=["one-program-per-slice", "uneven", "one-tile-per-program"])
def test_every_work_split_matches_reference_on_gpu(num_sms, monkeypatch):
    """The ring runs across many item tiles (one program per slice), programs get different tile counts
    (7 per slice for 48 tiles), each program starts cleanly (one tile each): the same answer every way."""
    monkeypatch.setattr(broadcast_scoring, "_num_sms", lambda device: num_sms)
    for shape in ((6, 1024, 320, 192, 256), (6, 1024, 320, 512, 256)):
        inputs = broadcast_scoring.make_inputs(*shape)
        out = _poisoned(inputs)
        broadcast_scoring.run(**inputs, out=out)
        assert _relative_error(out, broadcast_scoring.reference(**inputs)) < 1e-2, shape


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
    with pytest.raises(ValueError, match="out must be"):
        broadcast_scoring.run(**inputs, out=_poisoned(inputs)[:, :64])


@pytest.mark.gpu
@gpu
def test_repeated_launches_and_graph_replays_match_reference_on_gpu():
    """After the first launch of a shape `run` takes the cached launch path (descriptors encoded once per
    address and handed to the C launcher, P reused, the scoring kernel a programmatic dependent of the
    projection): fresh inputs in the same tensors, a new output tensor (its descriptor encoded anew),
    launches on a second stream, and replays of a CUDA graph of `run` all give the reference."""
    import torch

    shape = (12, 512, 1024, 256, 256)
    inputs = broadcast_scoring.make_inputs(*shape)
    out = _poisoned(inputs)

    def refill():
        for name, tensor in inputs.items():
            fresh = broadcast_scoring.make_inputs(*shape)[name]
            tensor.copy_(fresh)
        out.fill_(float("nan"))

    for _ in range(3):
        refill()
        broadcast_scoring.run(**inputs, out=out)
        assert _relative_error(out, broadcast_scoring.reference(**inputs)) < 1e-2
    dtype = inputs["items"].dtype
    launches = [launch for key, launch in broadcast_scoring._LAUNCHES.items() if key[2:8] == (dtype, *shape)]
    assert launches and all(launch.c_launchers is not None for launch in launches), "the C launchers are not used"
    moved = _poisoned(inputs)
    broadcast_scoring.run(**inputs, out=moved)
    assert _relative_error(moved, broadcast_scoring.reference(**inputs)) < 1e-2
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(2):
            broadcast_scoring.run(**inputs, out=out)
    torch.cuda.current_stream().wait_stream(side)
    assert _relative_error(out, broadcast_scoring.reference(**inputs)) < 1e-2

    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        broadcast_scoring.run(**inputs, out=out)
    for _ in range(3):
        refill()
        graph.replay()
        torch.cuda.synchronize()
        assert _relative_error(out, broadcast_scoring.reference(**inputs)) < 1e-2


@pytest.mark.gpu
@gpu
def test_launch_hooks_see_both_kernels_after_the_first_launch_on_gpu():
    """A launch hook (a profiler's) turns the cached C-launcher path off: with one registered, repeated
    launches go through Triton's regular launch, the hook sees the projection and the scoring kernel
    each time, and the answer stays the reference; without it the cached path comes back."""
    from triton import knobs

    shape = (3, 256, 96, 128, 264)
    inputs = broadcast_scoring.make_inputs(*shape)
    broadcast_scoring.run(**inputs)  # compiles; later launches would take the cached path
    seen = []

    def hook(metadata):
        seen.append(metadata.get()["name"])

    knobs.runtime.launch_enter_hook.add(hook)
    try:
        for _ in range(2):
            out = _poisoned(inputs)
            broadcast_scoring.run(**inputs, out=out)
            assert _relative_error(out, broadcast_scoring.reference(**inputs)) < 1e-2
    finally:
        knobs.runtime.launch_enter_hook.remove(hook)
    assert seen == ["user_projection_kernel", "broadcast_scoring_kernel"] * 2, seen
    out = _poisoned(inputs)
    broadcast_scoring.run(**inputs, out=out)
    assert _relative_error(out, broadcast_scoring.reference(**inputs)) < 1e-2
    assert seen == ["user_projection_kernel", "broadcast_scoring_kernel"] * 2, "a hook ran after its removal"
