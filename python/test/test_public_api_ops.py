"""The public TLX API's names that need no TLX op: layout classes, warp votes and reductions, prefetch, zeros,
dot_scaled, assume_uniform, get_fp8_format_name.

Each op is compiled to cubin on the CPU (sm_90, and sm_100 where the instruction differs) and its PTX shows
the instruction; on a GPU (marker `gpu`) each computes what PyTorch computes. The `SPEC_*` dicts (a
tutorial's SPEC form) are also seeds of `tlx.testing.kernel_fuzz --seed-module`.
"""

import re

import gpus
import pytest
import triton
import triton.language as tl

import tlx
from tlx.compiler import frontend_ir
from tlx.tutorials import compile_tutorial

gpu = gpus.cuda


# --------------------------------------------------------------------------------------------- layout classes


def test_swizzled_shared_layout_text():
    assert (
        tlx.swizzled_shared_layout_encoding.make_default(2).to_ir_text()
        == "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>"
    )
    layout = tlx.swizzled_shared_layout_encoding(8, 2, 4, [1, 0], [1, 1], [1, 1], [1, 1], [1, 0])
    assert layout.to_ir_text() == "#ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0]}>"
    # a view whose dimension i is dimension dims[i]: the fastest dimension 0 becomes dimension 2
    rank3 = tlx.swizzled_shared_layout_encoding(1, 1, 1, [0, 1, 2], *[[1, 1, 1]] * 3, [2, 1, 0])
    assert rank3.make_permute([1, 2, 0]).order == [2, 0, 1]
    assert layout.make_permute([1, 0]).order == [0, 1]


def test_cute_swizzle_resolves_with_the_buffer_shape():
    # Swizzle<3, 3, 3> on 64 contiguous elements: vec 2**3, maxPhase 2**3, perPhase 2**(3+3) / 64
    assert tlx.swizzled_layout(3, 3, 3).to_ir_text((64, 64)) == (
        "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>"
    )
    assert tlx.swizzled_layout(3, 3, 4).to_ir_text((32, 64)).startswith("#ttg.swizzled_shared<{vec = 8, perPhase = 2,")
    assert tlx.swizzled_layout(2, 2, 5, order=[0, 1]).to_ir_text((32, 64)) == (
        "#ttg.swizzled_shared<{vec = 4, perPhase = 4, maxPhase = 4, order = [0, 1]}>"
    )
    with pytest.raises(tlx.TLXError, match="gives perPhase < 1 for a contiguous extent of 128"):
        tlx.swizzled_layout(3, 3, 3).to_ir_text((64, 128))
    # tlx.layout(swizzle): a trivial swizzle resolves at once, a real one waits for the shape
    trivial = tlx.layout(tlx.swizzled_layout.make_default(2))
    assert trivial == tlx.swizzled_shared_layout_encoding.make_default(2)
    assert tlx.layout(tlx.swizzled_layout(3, 3, 3)) == tlx.swizzled_layout(3, 3, 3)


@pytest.mark.parametrize(
    "shape, dtype, expected",
    [
        ([64, 64], tl.float16, "swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16"),
        ([64, 32], tl.float16, "swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16"),
        ([128, 16], tl.float16, "swizzlingByteWidth = 32, transposed = false, elementBitWidth = 16"),
        ([64, 8], tl.float16, "swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16"),
        ([4, 64], tl.float16, "swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16"),
        ([64, 128], tl.float8e4nv, "swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8"),
        ([2, 64, 64], tl.bfloat16, "swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3"),
    ],
)
def test_nvmma_shared_layout_picks_tritons_swizzle(shape, dtype, expected):
    assert (
        tlx.nv_mma_shared_layout_encoding.make_default(shape, dtype).to_ir_text()
        == f"#ttg.nvmma_shared<{{{expected}}}>"
    )


def test_nvmma_shared_layout_transposed_unswizzled_fp4():
    layout = tlx.nv_mma_shared_layout_encoding.make_default([64, 64], tl.float16)
    assert "transposed = true" in layout.make_permute([1, 0]).to_ir_text()
    unswizzled = tlx.nv_mma_shared_layout_encoding([64, 64], [1, 0], tl.float16, [1, 1], [1, 1], [1, 0], False, False)
    assert unswizzled.to_ir_text().startswith("#ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false")
    fp4 = tlx.nv_mma_shared_layout_encoding.make_default([64, 32], tl.uint8, fp4Padded=True)
    assert fp4.to_ir_text() == (
        "#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8, fp4Padded = true}>"
    )
    multi_cta = tlx.nv_mma_shared_layout_encoding([64, 64], [1, 0], tl.float16, [2, 1], [2, 1], [1, 0], False, True)
    with pytest.raises(tlx.TLXError, match="multi-CTA"):
        multi_cta.to_ir_text()


def test_padded_linear_and_tensor_memory_layout_text():
    identity = tlx.padded_shared_layout_encoding.with_identity_for([[32, 4], [64, 8]], [64, 64])
    assert identity.to_ir_text() == "#ttg.padded_shared<[32:+4, 64:+8] {order = [1, 0], shape = [64, 64]}>"
    assert identity.make_permute([1, 0]).order == [0, 1]
    bases = tlx.padded_shared_layout_encoding.with_bases([[4, 4]], [[0, 1], [0, 2], [1, 0], [2, 0]], [4, 4])
    assert bases.to_ir_text() == "#ttg.padded_shared<[4:+4] {offset = [[0, 1], [0, 2], [1, 0], [2, 0]], block = []}>"
    linear = tlx.shared_linear_layout_encoding([[0, 1], [0, 2], [1, 0], [2, 0]], [[0, 4]], alignment=128)
    assert linear.to_ir_text() == (
        "#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0], [2, 0]], block = [[0, 4]]}, alignment = 128>"
    )
    with pytest.raises(tlx.TLXError, match="power of two"):
        tlx.shared_linear_layout_encoding([[0, 1]], alignment=12)
    tmem = tlx.tensor_memory_layout_encoding.make_default([128, 64])
    assert tmem.to_ir_text() == "#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>"
    split = tlx.tensor_memory_layout_encoding(64, 128, 2, 2, 1)
    assert split.to_ir_text() == "#ttng.tensor_memory_encoding<blockM = 64, blockN = 128, colStride = 2, CTASplitM = 2>"
    assert (tlx.TMemCTAMode.DEFAULT, tlx.TMemCTAMode.TwoCTA_LHS, tlx.TMemCTAMode.TwoCTA_RHS) == (0, 1, 2)


def test_register_layouts():
    # a [32, 4] tile, row-major offsets r * 4 + c: each of the 32 lanes holds one row of 4 values
    rows = tlx.layout(shape=((32,), (4,)), stride=((4,), (1,)))
    assert rows.to_ir_text([32, 4]) == (
        "#ttg.linear<{register = [[0, 1], [0, 2]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]], "
        "warp = [], block = []}>"
    )
    # thread bits past the 5 lane bits are warps
    warps = tlx.layout(shape=((32, 2), (4,)), stride=((4, 128), (1,))).bases([64, 4])
    assert warps["warp"] == [[32, 0]]
    dot = tlx.dot_operand_layout(0, rows, k_width=2)
    assert dot.to_ir_text([32, 4]).startswith("#ttg.dot_op<{opIdx = 0, parent = #ttg.linear<")
    dummy = tlx.DummyRegisterLayoutEncoding([128, 64], tl.float32)
    assert dummy == tlx.DummyRegisterLayoutEncoding([128, 64], tl.float32) and not dummy.tmem_compatible
    assert isinstance(rows, tlx.layout_encoding) and isinstance(LAYOUTS["nvmma"], tlx.shared_layout_encoding)


@triton.jit
def through_a_laid_out_buffer(X, Y, LAYOUT: tl.constexpr):
    buf = tlx.local_alloc((64, 64), tl.float16, 1, layout=LAYOUT)
    offs = tl.arange(0, 64)[:, None] * 64 + tl.arange(0, 64)[None, :]
    tlx.local_store(buf[0], tl.load(X + offs))
    tl.store(Y + offs, tlx.local_load(buf[0]))


LAYOUTS = {
    "swizzled": tlx.swizzled_shared_layout_encoding(8, 1, 8, [1, 0], [1, 1], [1, 1], [1, 1], [1, 0]),
    "cute_swizzle": tlx.swizzled_layout(3, 3, 3),
    "nvmma": tlx.nv_mma_shared_layout_encoding.make_default([64, 64], tl.float16),
    "padded": tlx.padded_shared_layout_encoding.with_identity_for([[64, 8]], [64, 64]),
}


SPEC_LAID_OUT_BUFFER = {
    "kernel": through_a_laid_out_buffer,
    "signature": {"X": "*fp16", "Y": "*fp16"},
    "constexprs": {"LAYOUT": LAYOUTS["swizzled"]},
    "num_warps": 4,
}


@pytest.mark.parametrize("name", LAYOUTS)
def test_local_alloc_takes_a_layout_object(name):
    layout = LAYOUTS[name]
    compiled = compile_tutorial({**SPEC_LAID_OUT_BUFFER, "constexprs": {"LAYOUT": layout}})
    assert f"#shared = {layout.to_ir_text((64, 64))}" in compiled.asm["ttgir"]
    assert compiled.asm["cubin"][:4] == b"\x7fELF"


# ------------------------------------------------------------------------------------------------ utilities


@triton.jit
def fp8_format_names(n):
    tl.static_assert(tlx.get_fp8_format_name(tl.float8e5) == "e5m2")
    tl.static_assert(tlx.get_fp8_format_name(tl.float8e4nv) == "e4m3")
    FORMAT: tl.constexpr = tlx.get_fp8_format_name(tlx.dtype_of(n.to(tl.float8e5)))
    tl.static_assert(FORMAT == "e5m2")


def test_fp8_format_names_are_the_public_apis():
    frontend_ir(fp8_format_names, {"n": "fp32"}, stage="ttir")


@triton.jit
def no_op_hints(X, Y, BLOCK: tl.constexpr):
    base = tlx.assume_uniform(X)
    offs = tl.arange(0, BLOCK)
    tl.store(Y + offs, tl.load(base + offs) + tlx.zeros([BLOCK], tl.float32))


SPEC_NO_OP_HINTS = {
    "kernel": no_op_hints,
    "signature": {"X": "*fp32", "Y": "*fp32"},
    "constexprs": {"BLOCK": 128},
    "num_warps": 4,
}


def test_assume_uniform_and_zeros_are_stock_triton():
    compiled = compile_tutorial(SPEC_NO_OP_HINTS)
    assert "tlx." not in compiled.asm["ttir"] and compiled.asm["cubin"][:4] == b"\x7fELF"


@triton.jit
def scaled_dot(A, B, A_SCALE, B_SCALE, C, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rk = tl.arange(0, K)
    a = tl.load(A + tl.arange(0, M)[:, None] * K + rk[None, :])
    b = tl.load(B + rk[:, None] * N + tl.arange(0, N)[None, :])
    a_scale = tl.load(A_SCALE + tl.arange(0, M)[:, None] * (K // 32) + tl.arange(0, K // 32)[None, :])
    b_scale = tl.load(B_SCALE + tl.arange(0, N)[:, None] * (K // 32) + tl.arange(0, K // 32)[None, :])
    c = tlx.dot_scaled(a, a_scale, "e4m3", b, b_scale, "e4m3")
    tl.store(C + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :], c)


SPEC_SCALED_DOT = {
    "kernel": scaled_dot,
    "signature": {"A": "*fp8e4nv", "B": "*fp8e4nv", "A_SCALE": "*u8", "B_SCALE": "*u8", "C": "*fp32"},
    "constexprs": {"M": 64, "N": 64, "K": 64},
    "num_warps": 4,
}


def test_dot_scaled_is_tritons_on_hopper():
    compiled = compile_tutorial(SPEC_SCALED_DOT)
    assert "tt.dot_scaled" in compiled.asm["ttir"] and compiled.asm["cubin"][:4] == b"\x7fELF"


# ------------------------------------------------------------------------------------- warp votes, reductions


@triton.jit
def ballot(out, seed, BLOCK: tl.constexpr):
    """out[t] = the ballot of thread t's warp over `(t * 7 + seed) % 5 < 2`; one element per thread (BLOCK =
    the kernel's threads, a strided store keeps the layout at one element per thread)."""
    tid = tlx.thread_id(0)
    vote = tlx.vote_ballot_sync(0xFFFFFFFF, (tid * 7 + seed) % 5 < 2)
    tl.store(out + tl.arange(0, BLOCK) * 2, tl.full([BLOCK], vote, tl.int32))


SPEC_BALLOT = {
    "kernel": ballot,
    "signature": {"out": "*i32", "seed": "i32"},
    "constexprs": {"BLOCK": 128},
    "num_warps": 4,
}


def test_vote_ballot_sync_is_a_vote_sync():
    ptx = compile_tutorial(SPEC_BALLOT).asm["ptx"]
    assert re.search(r"vote\.sync\.ballot\.b32 %r\d+, p, 0xffffffff;", ptx), ptx


#: Each thread holds two neighbouring elements of 256: lane l of warp w elements 64 w + 2 l and 64 w + 2 l + 1.
PAIRS = tl.constexpr(tlx.layout(shape=((32, 4), 2), stride=((2, 64), 1)))


@triton.jit
def ballot_of_pairs(X, OUT, MASK: tl.constexpr, LAYOUT: tl.constexpr):
    """The public API's tensor form: each thread votes with the OR of the two elements it holds."""
    offs = tl.arange(0, 256)
    pred = tlx.require_layout(tl.load(X + offs), LAYOUT) > 0
    tl.store(OUT + offs, tlx.vote_ballot_sync(MASK, pred))


@triton.jit
def ballot_of_row_maxima(OUT):
    """FlashAttention-4's rescaling vote (the public Blackwell attention kernels' ``RESCALE_OPT``): a
    predicate per row of a wgmma accumulator (64 rows over 4 warps, rows r and r + 8 in each thread), the
    warp's vote deciding a select on the accumulator."""
    a = tlx.local_alloc((64, 64), tl.float16, 1)
    b = tlx.local_alloc((64, 128), tl.float16, 1)
    acc = tlx.async_dot_wait(0, tlx.async_dot(a[0], b[0], use_acc=False))
    rescale = tlx.vote_ballot_sync(0xFFFFFFFF, tl.max(acc, 1) < 1.0) != 0
    acc = tl.where(rescale[:, None], acc * 0.5, acc)
    tl.store(OUT + tl.arange(0, 64)[:, None] * 128 + tl.arange(0, 128)[None, :], acc)


SPEC_BALLOT_OF_PAIRS = {
    "kernel": ballot_of_pairs,
    "signature": {"X": "*fp32", "OUT": "*i32"},
    "constexprs": {"MASK": 0xFFFFFFFF, "LAYOUT": PAIRS},
    "num_warps": 4,
}
SPEC_BALLOT_OF_ROW_MAXIMA = {
    "kernel": ballot_of_row_maxima,
    "signature": {"OUT": "*fp32"},
    "constexprs": {},
    "num_warps": 4,
}


@pytest.mark.parametrize("capability", [90, 100])
def test_a_tensor_ballot_votes_once_per_thread_over_the_elements_it_holds(capability):
    mask = SPEC_BALLOT_OF_PAIRS["constexprs"]["MASK"]
    compiled = compile_tutorial(SPEC_BALLOT_OF_PAIRS, capability)
    ptx = compiled.asm["ptx"]
    votes = re.findall(
        r"or\.b32 any, any, %r\d+; setp\.ne\.b32 p, any, 0; vote\.sync\.ballot\.b32 (%r\d+), p, (0x[0-9a-f]+);", ptx
    )
    assert len(votes) == 1 and votes[0][1] == f"{mask:#010x}", ptx
    assert re.search(rf"mov\.b32 %r\d+, {votes[0][0]};", ptx), "the ballot goes to both elements"
    assert "packed_element = 2" in compiled.asm["ttgir"] and "tlx.layout_marker" not in compiled.asm["ttgir"]


def test_a_ballot_of_accumulator_rows_votes_over_the_two_rows_a_thread_holds():
    compiled = compile_tutorial(SPEC_BALLOT_OF_ROW_MAXIMA)
    ptx = compiled.asm["ptx"]
    assert ptx.count("vote.sync.ballot.b32") == 1 and "or.b32 any, any," in ptx, ptx
    assert re.search(
        r"packed_element = 2 : i32, pure = false\} %\S+ : tensor<64xi32, #ttg.slice<\{dim = 1", compiled.asm["ttgir"]
    )


@triton.jit
def ballot_after_a_named_barrier(X, OUT, LAYOUT: tl.constexpr):
    """A named barrier wait beside a pinned layout and a tensor ballot: TLX reads Triton's final TTGIR back (printed
    with locations) to apply both, barrier included."""
    tlx.named_barrier_wait(1, 128)
    offs = tl.arange(0, 256)
    pred = tlx.require_layout(tl.load(X + offs), LAYOUT) > 0
    tl.store(OUT + offs, tlx.vote_ballot_sync(0xFFFFFFFF, pred))


SPEC_BALLOT_AFTER_A_NAMED_BARRIER = {
    "kernel": ballot_after_a_named_barrier,
    "signature": {"X": "*fp32", "OUT": "*i32"},
    "constexprs": {"LAYOUT": PAIRS},
    "num_warps": 4,
}


@pytest.mark.parametrize("capability", [90, 100])
def test_a_named_barrier_wait_survives_the_final_ttgir_stage(capability):
    compiled = compile_tutorial(SPEC_BALLOT_AFTER_A_NAMED_BARRIER, capability)
    ptx = compiled.asm["ptx"]
    assert re.search(r"bar\.sync\s+1, 128;", ptx), "the named barrier wait"
    assert ptx.count("vote.sync.ballot.b32") == 1, ptx
    assert "nvvm.barrier id = " in compiled.asm["ttgir"]


@triton.jit
def reduce_in_warps(X, Y, OP: tl.constexpr, BLOCK: tl.constexpr):
    """Strided loads and stores keep one element per thread: element i is lane i % 32 of warp i // 32."""
    offs = tl.arange(0, BLOCK)
    tl.store(Y + offs * 2, tlx.warp_redux(tl.load(X + offs * 2), OP))


SPEC_WARP_REDUX = {
    "kernel": reduce_in_warps,
    "signature": {"X": "*fp32", "Y": "*fp32"},
    "constexprs": {"OP": "max", "BLOCK": 128},
    "num_warps": 4,
}
OPS = ("max", "min", "abs_max", "abs_min")


@pytest.mark.parametrize("op", OPS)
def test_warp_redux_on_hopper_is_a_shuffle_butterfly(op):
    compiled = compile_tutorial({**SPEC_WARP_REDUX, "constexprs": {"OP": op, "BLOCK": 128}})
    ptx = compiled.asm["ptx"]
    minmax = op.removeprefix("abs_")
    for lane in (16, 8, 4, 2, 1):
        assert f"shfl.sync.bfly.b32 o, v, {lane}, 0x1f, 0xFFFFFFFF; {minmax}.f32 v, v, o;" in ptx, ptx
    assert ("and.b32 v, v, 0x7FFFFFFF" in ptx) == op.startswith("abs_")
    assert "sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4]" in compiled.asm["ttgir"]


@pytest.mark.parametrize("op", OPS)
def test_warp_redux_on_blackwell_is_redux_sync(op):
    compiled = compile_tutorial({**SPEC_WARP_REDUX, "constexprs": {"OP": op, "BLOCK": 128}}, 100)
    assert f"redux.sync.{op.removeprefix('abs_')}.f32 v, v, 0xFFFFFFFF;" in compiled.asm["ptx"]
    assert compiled.asm["cubin"][:4] == b"\x7fELF"


@triton.jit
def prefetch_then_load(X, Y, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tlx.prefetch(X + offs, mask=offs < n)
    tlx.prefetch(X + BLOCK + offs, level="L1")
    tlx.prefetch(X)
    tl.store(Y + offs, tl.load(X + offs, mask=offs < n, other=0.0) + tl.load(X + BLOCK + offs))


SPEC_PREFETCH = {
    "kernel": prefetch_then_load,
    "signature": {"X": "*fp32", "Y": "*fp32", "n": "i32"},
    "constexprs": {"BLOCK": 128},
    "num_warps": 4,
}


def test_prefetch_is_prefetch_global():
    ptx = compile_tutorial(SPEC_PREFETCH).asm["ptx"]
    assert re.search(r"@p prefetch\.global\.L2 \[%rd\d+\];", ptx), "masked prefetch into L2"
    assert re.search(r"\{ prefetch\.global\.L1 \[%rd\d+\];", ptx), "unmasked prefetch into L1"
    assert re.search(r"\{ prefetch\.global\.L2 \[%rd\d+\];", ptx), "the scalar pointer"


# ----------------------------------------------------------------------------------------------- on the GPU


@pytest.mark.gpu
@gpu
def test_a_task_whose_body_is_one_run_time_if_on_gpu():
    import torch
    from test_warp_specialization import one_if_per_task

    programs, block = 6, 128
    out = torch.full((programs * block,), -(2**31), dtype=torch.int32, device="cuda")
    one_if_per_task[(programs,)](out, BLOCK=block, num_warps=4)
    offs = torch.arange(programs * block, dtype=torch.int32, device="cuda")
    program = offs // block
    expected = torch.where(program % 2 == 0, offs, torch.where(program < 4, -offs, torch.full_like(offs, -(2**31))))
    assert torch.equal(out, expected)


@pytest.mark.gpu
@gpu
def test_vote_ballot_sync_on_gpu():
    import torch

    seed, warps = 3, 4
    out = torch.full((2 * 32 * warps,), -7, dtype=torch.int32, device="cuda")
    ballot[(1,)](out, seed, BLOCK=32 * warps, num_warps=warps)
    tid = torch.arange(32 * warps)
    pred = ((tid * 7 + seed) % 5 < 2).view(warps, 32).long()
    bits = (pred << torch.arange(32)).sum(dim=1)
    expected = ((bits + 2**31) % 2**32 - 2**31).repeat_interleave(32).to(torch.int32)
    assert torch.equal(out[::2].cpu(), expected)


@pytest.mark.gpu
@gpu
def test_a_tensor_ballot_on_gpu():
    import torch

    x = torch.randn(256, device="cuda")
    x[64:128] = -1.0  # a warp where no lane votes
    out = torch.full((256,), -7, dtype=torch.int32, device="cuda")
    ballot_of_pairs[(1,)](x, out, MASK=0xFFFFFFFF, LAYOUT=PAIRS, num_warps=4)
    lanes = (x > 0).view(4, 32, 2).any(dim=2).long().cpu()
    bits = (lanes << torch.arange(32)).sum(dim=1)
    expected = ((bits + 2**31) % 2**32 - 2**31).repeat_interleave(64).to(torch.int32)
    assert torch.equal(out.cpu(), expected)


@pytest.mark.gpu
@gpu
@pytest.mark.parametrize("op", OPS)
def test_warp_redux_on_gpu(op):
    import torch

    warps = 4
    x = torch.randn(2 * 32 * warps, device="cuda")
    y = torch.full_like(x, float("nan"))
    reduce_in_warps[(1,)](x, y, OP=op, BLOCK=32 * warps, num_warps=warps)
    values = x[::2].view(warps, 32)
    values = values.abs() if op.startswith("abs_") else values
    reduced = values.amax(dim=1) if op.endswith("max") else values.amin(dim=1)
    assert torch.equal(y[::2].view(warps, 32), reduced[:, None].expand(warps, 32))


@pytest.mark.gpu
@gpu
def test_prefetch_on_gpu():
    import torch

    x = torch.randn(256, device="cuda")
    y = torch.full((128,), float("nan"), device="cuda")
    prefetch_then_load[(1,)](x, y, 100, BLOCK=128)
    expected = torch.where(torch.arange(128, device="cuda") < 100, x[:128], 0.0) + x[128:]
    assert torch.equal(y, expected)
