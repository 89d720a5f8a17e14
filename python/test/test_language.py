"""tlx.* builtins emit exactly the carriers of docs/carriers.md, and the carriers survive stock
make_ttir and convert-triton-to-tritongpu intact, in order, at the user's Python line.

No TLX C++ pass is involved: kernels are compiled only as far as TLX's input (tlx.compiler.frontend_ir).
"""

import inspect
import re
from pathlib import Path

import pytest
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget

import tlx
from tlx.compiler import frontend_ir
from tlx.testing.carriers import callees, carriers

HERE = Path(__file__).resolve()
SOURCE = HERE.read_text().splitlines()


def line_of(marker: str) -> int:
    """The line of this file that ends with `# @<marker>`."""
    hits = [i + 1 for i, text in enumerate(SOURCE) if text.rstrip().endswith(f"# @{marker}")]
    assert len(hits) == 1, (marker, hits)
    return hits[0]


def strip_encoding(type_text: str) -> str:
    """`tensor<64xf16, #blocked1>` -> `tensor<64xf16>`: TTIR and TTGIR print the same carrier."""
    return re.sub(r", #[\w.]+>", ">", type_text)


@triton.jit
def every_op(desc, out_desc, X, Y, n, i, BLOCK: tl.constexpr):
    bufs = tlx.local_alloc((64, 64), tl.float16, 2)  # @alloc
    bars = tlx.alloc_barriers(2, arrive_count=3)  # @bars
    bar = bars[0]  # @bar
    buf = tlx.local_view(bufs, i)  # @view
    tlx.barrier_expect_bytes(bar, 8192, pred=n > 0)  # @expect
    tlx.async_descriptor_load(desc, buf, [0, 64], bar)  # @tma_load
    tlx.barrier_wait(bar, 1)  # @wait
    t = tlx.local_load(buf)  # @load
    tlx.local_store(buf, t)  # @store
    tlx.fence_async_shared()  # @fence
    tlx.async_descriptor_store(out_desc, buf, [64, 0])  # @tma_store
    tlx.async_descriptor_store_wait(1)  # @store_wait
    tlx.barrier_arrive(bar, 2)  # @arrive
    c = tlx.local_alloc((BLOCK,), tl.float32, 1)  # @alloc_c
    offs = tl.arange(0, BLOCK)
    cb = c[0]  # @view_c
    token = tlx.async_load(X + offs, cb, mask=offs < n, other=1.5, is_volatile=True)  # @cp_async
    tlx.async_load_commit_group([token])  # @commit
    tlx.async_load_wait_group(0)  # @wait_group
    tid = tlx.thread_id(2)  # @tid
    start = tlx.clock64()  # @clock
    v = tlx.local_load(cb)  # @load_c
    tl.store(Y + offs, v + tid + start.to(tl.float32))


EVERY_OP_SIGNATURE = {
    "desc": "tensordesc<fp16[64, 64]>",
    "out_desc": "tensordesc<fp16[64, 64]>",
    "X": "*fp32",
    "Y": "*fp32",
    "n": "i32",
    "i": "i32",
    "BLOCK": "constexpr",
}
DESC = "!tt.tensordesc<tensor<64x64xf16>>"


def segments(*counts: int) -> str:
    """How `tlx.operand_segments` prints (a splat when all counts are equal)."""
    values = f"[{', '.join(map(str, counts))}]" if len(set(counts)) > 1 else str(counts[0])
    return f"dense<{values}> : tensor<{len(counts)}xi32>"


# (op, form, marker, tlx.* attributes, operand types, result types): the whole program, in order.
# Operands are in the ODS order of each op's definition (the op contract).
EXPECTED = [
    (
        "local_alloc",
        "A",
        "alloc",
        {"tlx.operand_segments": "dense<0> : tensor<1xi32>", "tlx.type": '"!tlx.buffers<2, 64x64xf16, smem>"'},
        [],
        ["i64"],
    ),
    ("alloc_barriers", "A", "bars", {"tlx.type": '"!tlx.mbarriers<2>"', "tlx.arrive_count": "3 : i32"}, [], ["i64"]),
    ("local_view", "A", "bar", {"tlx.type": '"!tlx.mbarrier"'}, ["i64", "i32"], ["i64"]),
    ("local_view", "A", "view", {"tlx.type": '"!tlx.buffer<64x64xf16, smem>"'}, ["i64", "i32"], ["i64"]),
    (
        "barrier_expect_bytes",
        "A",
        "expect",
        {"tlx.bytes": "8192 : i32", "tlx.operand_segments": segments(1, 1)},
        ["i64", "i1"],
        [],
    ),
    (
        "async_descriptor_load",
        "A",
        "tma_load",
        {"tlx.cache": "1 : i32", "tlx.evict": "1 : i32", "tlx.operand_segments": segments(1, 2, 1, 1, 0, 0)},
        [DESC, "i32", "i32", "i64", "i64"],
        [],
    ),
    ("barrier_wait", "A", "wait", {"tlx.operand_segments": segments(1, 1, 0)}, ["i64", "i32"], []),
    ("local_load", "B", "load", {}, ["tensor<64x64xi64>"], ["tensor<64x64xf16>"]),
    ("local_store", "B", "store", {}, ["tensor<64x64xf16>", "tensor<64x64xi64>"], ["tensor<64x64xi1>"]),
    ("fence_async_shared", "A", "fence", {}, [], []),
    (
        "async_descriptor_store",
        "A",
        "tma_store",
        {"tlx.operand_segments": segments(1, 2, 1)},
        [DESC, "i32", "i32", "i64"],
        [],
    ),
    ("async_descriptor_store_wait", "A", "store_wait", {"tlx.pendings": "1 : i32"}, [], []),
    ("barrier_arrive", "A", "arrive", {"tlx.count": "2 : i32", "tlx.operand_segments": segments(1, 0, 0)}, ["i64"], []),
    (
        "local_alloc",
        "A",
        "alloc_c",
        {"tlx.operand_segments": "dense<0> : tensor<1xi32>", "tlx.type": '"!tlx.buffers<1, 128xf32, smem>"'},
        [],
        ["i64"],
    ),
    ("local_view", "A", "view_c", {"tlx.type": '"!tlx.buffer<128xf32, smem>"'}, ["i64", "i32"], ["i64"]),
    (
        "async_load",
        "B",
        "cp_async",
        {
            "tlx.cache": "1 : i32",
            "tlx.evict": "1 : i32",
            "tlx.isVolatile": "true",
            "tlx.operand_segments": segments(1, 1, 1, 1),
        },
        ["tensor<128x!tt.ptr<f32>>", "tensor<128xi64>", "tensor<128xi1>", "tensor<128xf32>"],
        ["tensor<128xi1>"],
    ),
    ("async_load_commit_group", "A", "commit", {}, [], []),
    ("async_load_wait_group", "A", "wait_group", {"tlx.pendings": "0 : i32"}, [], []),
    ("thread_id", "A", "tid", {"tlx.axis": "2 : i32"}, [], ["i32"]),
    ("clock64", "A", "clock", {}, [], ["i64"]),
    ("local_load", "B", "load_c", {}, ["tensor<128xi64>"], ["tensor<128xf32>"]),
]


@pytest.fixture(scope="module", params=["ttir", "converted"])
def every_op_ir(request):
    return frontend_ir(every_op, EVERY_OP_SIGNATURE, {"BLOCK": 128}, stage=request.param)


def test_every_carrier_survives_intact_in_order_at_the_user_line(every_op_ir):
    found = carriers(every_op_ir)
    assert [c.op for c in found] == [e[0] for e in EXPECTED]
    for carrier, (_, form, marker, attrs, operand_types, result_types) in zip(found, EXPECTED, strict=True):
        assert carrier.form == form, carrier.text
        tlx_attrs = {k: v for k, v in carrier.attrs.items() if k.startswith("tlx.") and k != "tlx.op"}
        assert tlx_attrs == attrs, carrier.text
        assert [strip_encoding(t) for t in carrier.operand_types] == operand_types, carrier.text
        assert [strip_encoding(t) for t in carrier.result_types] == result_types, carrier.text
        assert (carrier.file, carrier.line) == (str(HERE), line_of(marker)), carrier.text


def test_form_b_carriers_are_side_effecting_inline_asm(every_op_ir):
    for carrier in carriers(every_op_ir):
        if carrier.form == "B":
            assert f'tt.elementwise_inline_asm "tlx.{carrier.op}"' in carrier.text
            assert carrier.attrs["pure"] == "false"
            assert carrier.attrs["packed_element"] == "1 : i32"


def test_handles_flow_from_their_carriers(every_op_ir):
    """local_view takes the local_alloc / alloc_barriers result; Form B takes a tt.splat of a handle."""
    found = carriers(every_op_ir)
    results = {c.op + str(i): c.results for i, c in enumerate(found)}
    assert found[2].named_operands()["source"] == [results["alloc_barriers1"][0]]
    assert found[3].named_operands()["source"] == [results["local_alloc0"][0]]
    view = found[3].results[0]
    assert found[4].named_operands()["barrier"] == [found[2].results[0]]  # expect_bytes on bars[0]
    load = found[5].named_operands()
    assert (load["desc"], load["buffer"], load["barrier"], load["pred"]) == (
        ["%desc"],
        [view],
        [found[2].results[0]],
        [],
    )
    assert len(load["offsets"]) == 2
    (splat,) = found[7].named_operands()["buffer"]
    assert re.search(rf"{re.escape(splat)} = tt\.splat {re.escape(view)} : i64 -> tensor<64x64xi64", every_op_ir)
    stored, handle = found[8].operands
    assert found[8].named_operands() == {"value": [stored], "buffer": [handle]}
    assert stored == found[7].results[0]
    assert re.search(rf"{re.escape(handle)} = tt\.splat {re.escape(view)} : i64 ->", every_op_ir)


def test_one_private_noinline_callee_per_signature_with_an_opaque_body(every_op_ir):
    found = carriers(every_op_ir)
    functions = callees(every_op_ir)
    names = {c.callee for c in found if c.form == "A"}
    assert names == set(functions), "every Form A carrier calls a tlx.* callee and no callee is left over"
    assert all(len(defs) == 1 for defs in functions.values()), functions
    assert "tlx.local_view.a_i64i32_r_i64" in names
    assert "tlx.async_descriptor_load.a_d64x64xf16i32i32i64i64" in names
    assert "tlx.fence_async_shared" in names and "tlx.local_alloc.r_i64" in names
    for name, (callee,) in functions.items():
        assert callee.signature.startswith(f"tt.func private @{name}("), callee.signature
        assert "noinline = true" in callee.attributes, callee.signature
        results = re.search(r"-> (\w+) attributes", callee.signature)
        asm = [line for line in callee.body if "tt.elementwise_inline_asm" in line]
        if results:  # the result comes from side-effecting inline asm of its width
            constraint = {"i64": "=l", "i32": "=r"}[results.group(1)]
            assert len(asm) == 1 and "pure = false" in asm[0] and f'constraints = "{constraint}"' in asm[0]
        else:
            assert not asm
        assert callee.body[-1].startswith("tt.return"), callee.body


@triton.jit
def element_types(DTYPE: tl.constexpr):
    tlx.local_alloc((16, 32), DTYPE, 3)


@pytest.mark.parametrize(
    "dtype, spelled",
    [
        (tl.float16, "f16"),
        (tl.bfloat16, "bf16"),
        (tl.float32, "f32"),
        (tl.float64, "f64"),
        (tl.float8e4nv, "f8E4M3FN"),
        (tl.float8e5, "f8E5M2"),
        (tl.int1, "i1"),
        (tl.int8, "i8"),
        (tl.uint8, "i8"),
        (tl.int16, "i16"),
        (tl.int32, "i32"),
        (tl.int64, "i64"),
    ],
)
def test_element_types_are_spelled_as_mlir_does(dtype, spelled):
    (alloc,) = carriers(frontend_ir(element_types, {"DTYPE": "constexpr"}, {"DTYPE": dtype}, stage="ttir"))
    assert alloc.attrs["tlx.type"] == f'"!tlx.buffers<3, 16x32x{spelled}, smem>"'


@triton.jit
def storages(STORAGE: tl.constexpr):
    tlx.local_alloc((128, 64), tl.float32, 2, storage=STORAGE, layout="#ttg.swizzled_shared<{vec = 1}>")


@pytest.mark.parametrize("storage", list(tlx.storage_kind))
def test_storage_kinds_and_explicit_layout(storage):
    text = frontend_ir(
        storages, {"STORAGE": "constexpr"}, {"STORAGE": storage}, stage="ttir", target=GPUTarget("cuda", 100, 32)
    )
    (alloc,) = carriers(text)
    assert alloc.attrs["tlx.type"] == f'"!tlx.buffers<2, 128x64xf32, {storage.value}>"'
    assert alloc.attrs["tlx.layout"] == '"#ttg.swizzled_shared<{vec = 1}>"'


@triton.jit
def optional_operands(desc, X, p, k, j: tl.int64):
    bars = tlx.alloc_barriers(1)
    bufs = tlx.local_alloc((64, 64), tl.float16, 1)
    c = tlx.local_alloc((64,), tl.float16, 4)
    tlx.barrier_expect_bytes(bars[0], tlx.size_of(tl.float16) * 64 * 64)
    tlx.barrier_wait(bars[0], k, pred=p)
    tlx.async_descriptor_load(desc, bufs[0], (k, 0), bars[0], pred=p)
    tlx.async_load(X + tl.arange(0, 64), c[j], cache_modifier=".cg")
    tlx.async_load(X + tl.arange(0, 64), c[1], mask=tl.arange(0, 64) < k)
    tlx.local_alloc((32,), tlx.dtype_of(X), 1)
    tlx.local_alloc((64, 64), tlx.dtype_of(desc), 1)


def test_optional_operands_and_compile_time_queries():
    text = frontend_ir(
        optional_operands,
        {"desc": "tensordesc<fp16[64, 64]>", "X": "*fp16", "p": "i1", "k": "i32", "j": "i64"},
        stage="converted",
    )
    found = carriers(text)
    by_op = {}
    for c in found:
        by_op.setdefault(c.op, []).append(c)
    (expect,) = by_op["barrier_expect_bytes"]
    assert expect.attrs["tlx.bytes"] == "8192 : i32" and expect.operand_types == ["i64"]
    assert expect.named_operands()["pred"] == []
    (wait,) = by_op["barrier_wait"]
    assert wait.operand_types == ["i64", "i32", "i1"] and wait.named_operands()["pred"] == ["%p"]
    (load,) = by_op["async_descriptor_load"]
    assert load.attrs["tlx.operand_segments"] == segments(1, 2, 1, 1, 1, 0) and load.operand_types[-1] == "i1"
    assert load.named_operands()["offsets"][0] == "%k" and load.named_operands()["pred"] == ["%p"]
    cg, masked = by_op["async_load"]
    assert cg.attrs["tlx.operand_segments"] == segments(1, 1, 0, 0) and cg.attrs["tlx.cache"] == "3 : i32"
    assert masked.attrs["tlx.operand_segments"] == segments(1, 1, 1, 0) and len(masked.named_operands()["mask"]) == 1
    # the i64 index of c[j] is truncated to the i32 operand of local_view
    views = by_op["local_view"]
    assert re.search(r"arith\.trunci %j : i64 to i32", text) and views[-2].operand_types == ["i64", "i32"]
    assert [a.attrs["tlx.type"] for a in by_op["local_alloc"][-2:]] == [
        '"!tlx.buffers<1, 32xf16, smem>"',
        '"!tlx.buffers<1, 64x64xf16, smem>"',
    ]


@triton.jit
def stage_in(buf, bar, x):
    tlx.local_store(buf, x)  # @helper_store
    tlx.barrier_arrive(bar)


@triton.jit
def helpers_and_loops(X, n):
    bufs = tlx.local_alloc((64,), tl.float32, 2)
    bars = tlx.alloc_barriers(2)
    offs = tl.arange(0, 64)
    token = tlx.async_load(X + offs, bufs[0])
    for k in range(n):
        s = k % 2
        stage_in(bufs[s], bars[s], tl.load(X + offs))
        tlx.barrier_wait(bars[s], (k // 2) & 1)  # @loop_wait
        token = tlx.async_load(X + k * 64 + offs, bufs[s])
    tlx.async_load_commit_group(token)


def test_buffers_cross_jit_helpers_and_tokens_cross_loops():
    text = frontend_ir(helpers_and_loops, {"X": "*fp32", "n": "i32"}, stage="converted")
    found = carriers(text)
    assert [c.op for c in found] == [
        "local_alloc",
        "alloc_barriers",
        "local_view",
        "async_load",
        "local_view",
        "local_view",
        "local_store",
        "barrier_arrive",
        "local_view",
        "barrier_wait",
        "local_view",
        "async_load",
        "async_load_commit_group",
    ]
    # make_ttir inlined the helper: its carriers sit in the loop, at the helper's own line
    assert (found[6].file, found[6].line) == (str(HERE), line_of("helper_store"))
    assert found[9].line == line_of("loop_wait")
    assert "tt.call @stage_in" not in text
    assert re.search(r"scf\.for .*\{\n(.*\n)*?\s+.*tt\.call @tlx\.barrier_wait", text)


@triton.jit
def tensor_memory():
    acc = tlx.local_alloc((128, 128), tl.float32, 1, storage=tlx.storage_kind.tmem)
    tlx.local_store(acc[0], tl.zeros((128, 128), tl.float32))


def test_tensor_memory_on_blackwell():
    text = frontend_ir(tensor_memory, {}, stage="converted", target=GPUTarget("cuda", 100, 32))
    alloc, view, store = carriers(text)
    assert alloc.attrs["tlx.type"] == '"!tlx.buffers<1, 128x128xf32, tmem>"'
    assert store.op == "local_store"


@triton.jit
def clc_round(out, MULTI: tl.constexpr):
    clc = tlx.clc_create_context(2, num_stages=3)
    tlx.clc_producer(clc, 1, multi_ctas=MULTI, k=2)
    tile, y, z = tlx.clc_consumer(clc, 0, multi_ctas=MULTI, k=2, return_3d=True)
    tl.store(out, tile + y + z)


def _clc_carriers(**options):
    text = frontend_ir(
        clc_round, {"out": "*i32", "MULTI": "constexpr"}, {"MULTI": True}, target=GPUTarget("cuda", 100, 32), **options
    )
    return carriers(text)


def test_clc_producer_and_consumer_are_barrier_ops_around_a_request_and_a_query():
    found = _clc_carriers()
    assert [c.op for c in found] == [
        "alloc_barriers",  # empty: num_consumers arrivals
        "alloc_barriers",  # full: the producer's expectation
        "alloc_clc_responses",
        *["local_view"] * 3,
        "barrier_wait",  # the stage is free (no cluster: every CTA waits on its own)
        "barrier_expect_bytes",
        "clc_try_cancel",
        *["local_view"] * 3,
        "barrier_wait",  # the response is in
        "clc_query",
        "fence_async_shared",
        "barrier_arrive",  # the stage is released, unless no tile is left
    ]
    empty, full, responses = found[:3]
    assert (empty.attrs["tlx.arrive_count"], full.attrs["tlx.arrive_count"]) == ("2 : i32", "1 : i32")
    assert responses.attrs["tlx.type"] == '"!tlx.clc_responses<3>"'
    assert found[7].attrs["tlx.bytes"] == "16 : i32"
    assert found[8].attrs["tlx.multicast"] == "false"
    assert found[13].result_types == ["i32", "i32", "i32"]
    assert "dense<[1, 0, 1]>" in found[15].attrs["tlx.operand_segments"]  # local, predicated on a tile


def test_clc_in_a_cluster_multicasts_and_releases_cta_0s_stage():
    found = _clc_carriers(ctas_per_cga=(2, 1, 1))
    ops = [c.op for c in found]
    # CTA 0 alone waits for the stage; the request is multicast; the consumer arrives on CTA 0's barrier.
    wait = ops.index("barrier_wait")
    assert ops[wait - 1] == "cluster_cta_rank" and "dense<1>" in found[wait].attrs["tlx.operand_segments"]
    assert found[ops.index("clc_try_cancel")].attrs["tlx.multicast"] == "true"
    arrive = found[ops.index("barrier_arrive")]
    assert "dense<1>" in arrive.attrs["tlx.operand_segments"]  # barrier, remote rank 0, predicate


@triton.jit
def _next_tile(clc, phase):
    return tlx.clc_consumer(clc, phase)


@triton.jit
def clc_through_a_helper(out):
    clc = tlx.clc_create_context(1)
    tlx.clc_producer(clc, 1)
    tl.store(out, _next_tile(clc, 0))


def test_a_clc_context_crosses_jit_helpers():
    # The public tutorials wrap clc_consumer in @triton.jit helpers: the context is a Triton aggregate.
    text = frontend_ir(clc_through_a_helper, {"out": "*i32"}, target=GPUTarget("cuda", 100, 32))
    ops = [c.op for c in carriers(text)]
    assert ops.count("clc_query") == 1 and ops.count("clc_try_cancel") == 1
    assert list(inspect.signature(tlx.CLCPipelineContext).parameters) == [
        "clc_mbars_empty",
        "clc_mbars_full",
        "clc_responses",
    ]


def test_alias_import_gives_the_same_builtins():
    import triton.language.extra.tlx as alias

    assert alias is tlx
    assert alias.local_alloc is tlx.language.mem_ops.local_alloc


@triton.jit
def transaction_patterns(a_desc, b_desc, k_steps, STAGES: tl.constexpr):
    a = tlx.local_alloc((64, 64), tl.float16, STAGES)
    b = tlx.local_alloc((64, 64), tl.float16, STAGES)
    full = tlx.alloc_barriers(STAGES)
    stage_bytes: tl.constexpr = 2 * 64 * 64 * tlx.size_of(tl.float16)
    for s in tl.static_range(STAGES):  # unrolled prologue: one block, several barriers
        tlx.barrier_expect_bytes(full[s], stage_bytes)
        tlx.async_descriptor_load(a_desc, a[s], [0, s * 64], full[s])
        tlx.async_descriptor_load(b_desc, b[s], [s * 64, 0], full[s])
    for k in range(k_steps):  # the ring: wait, then refill the same stage
        stage = k % STAGES
        tlx.barrier_wait(full[stage], (k // STAGES) & 1)
        tlx.barrier_expect_bytes(full[stage], stage_bytes)
        tlx.async_descriptor_load(a_desc, a[stage], [0, k * 64], full[stage])
        tlx.async_descriptor_load(b_desc, b[stage], [k * 64, 0], full[stage])
    # two announcements, then the loads they announce
    tlx.barrier_expect_bytes(full[0], 8192)
    tlx.barrier_expect_bytes(full[0], 8192)
    tlx.async_descriptor_load(a_desc, a[0], [0, 0], full[0])
    tlx.async_descriptor_load(b_desc, b[0], [0, 0], full[0])
    # an announcement before a branch, the load inside it: not this check's business
    tlx.barrier_expect_bytes(full[1], 4096)
    if k_steps > 3:
        tlx.async_descriptor_load(a_desc, a[1], [0, 0], full[1])


def test_transaction_bytes_check_accepts_valid_kernels():
    text = frontend_ir(
        transaction_patterns,
        {"a_desc": "tensordesc<fp16[64, 64]>", "b_desc": "tensordesc<fp16[64, 64]>", "k_steps": "i32"},
        {"STAGES": 3},
        stage="ttir",
    )
    ops = [c.op for c in carriers(text)]
    assert ops.count("async_descriptor_load") == 11 and ops.count("barrier_expect_bytes") == 7


# ---------------------------------------------------------------- buffer views


@triton.jit
def buffer_views(desc, X, Y):
    bufs = tlx.local_alloc((64, 128), tl.float16, 2)  # @v_alloc
    bars = tlx.alloc_barriers(1)  # @v_bars
    buf = bufs[1]  # @v_view
    left = tlx.local_slice(buf, [0, 0], [64, 64])  # @v_left
    tlx.barrier_expect_bytes(bars[0], 64 * 64 * 2)  # @v_expect
    tlx.async_descriptor_load(desc, left, [0, 0], bars[0])  # @v_tma_into_slice
    right = tlx.subslice(buf, 64, 64)  # @v_right
    t = tlx.local_trans(buf)  # @v_trans
    tile = tlx.local_load(t)  # @v_load_trans
    tlx.local_store(right, tlx.local_load(left))  # @v_store_slice
    wide = tlx.local_reinterpret(buf, tl.float32, (64, 64))  # @v_reinterpret
    same = tlx.local_reinterpret(left, tl.int16)  # @v_same_shape
    cube = tlx.local_alloc((2, 4, 64), tl.float32, 1)  # @v_cube
    permuted = tlx.local_trans(cube[0], (2, 0, 1))  # @v_permute
    offs = tl.arange(0, 64)
    tlx.async_load(X + offs[:, None] * 64 + offs[None, :], wide)  # @v_cp_async
    tlx.async_descriptor_store(desc, tlx.local_slice(t, [64, 0], [64, 64]), [0, 0])  # @v_tma_from_view
    tl.store(Y + offs, tl.sum(tile.to(tl.float32), axis=0) + tl.sum(tlx.local_load(same).to(tl.float32), axis=0))
    tl.store(Y + tl.arange(0, 128), tl.reshape(tlx.local_load(permuted), (128, 4)).sum(axis=1))


BUFFER_VIEWS_SIGNATURE = {"desc": "tensordesc<fp16[64, 64]>", "X": "*fp32", "Y": "*fp32"}


def _dense(values):
    """How MLIR prints a dense i32 array attribute (a splat when all values are equal)."""
    body = str(values[0]) if len(set(values)) == 1 else "[" + ", ".join(map(str, values)) + "]"
    return f"dense<{body}> : tensor<{len(values)}xi32>"


def _buffer(text):
    return f'"!tlx.buffer<{text}, smem>"'


# (op, marker, tlx.* attributes): the views and what consumes them, in order
EXPECTED_VIEWS = [
    (
        "local_alloc",
        "v_alloc",
        {"tlx.operand_segments": "dense<0> : tensor<1xi32>", "tlx.type": '"!tlx.buffers<2, 64x128xf16, smem>"'},
    ),
    ("alloc_barriers", "v_bars", None),
    ("local_view", "v_view", {"tlx.type": _buffer("64x128xf16")}),
    ("local_slice", "v_left", {"tlx.offsets": _dense([0, 0]), "tlx.type": _buffer("64x64xf16")}),
    ("local_view", "v_expect", {"tlx.type": '"!tlx.mbarrier"'}),
    ("barrier_expect_bytes", "v_expect", None),
    ("local_view", "v_tma_into_slice", {"tlx.type": '"!tlx.mbarrier"'}),
    ("async_descriptor_load", "v_tma_into_slice", None),
    ("local_slice", "v_right", {"tlx.offsets": _dense([0, 64]), "tlx.type": _buffer("64x64xf16")}),
    ("local_trans", "v_trans", {"tlx.order": _dense([1, 0]), "tlx.type": _buffer("128x64xf16")}),
    ("local_load", "v_load_trans", {}),
    ("local_load", "v_store_slice", {}),
    ("local_store", "v_store_slice", {}),
    ("local_reinterpret", "v_reinterpret", {"tlx.type": _buffer("64x64xf32")}),
    ("local_reinterpret", "v_same_shape", {"tlx.type": _buffer("64x64xi16")}),
    (
        "local_alloc",
        "v_cube",
        {"tlx.operand_segments": "dense<0> : tensor<1xi32>", "tlx.type": '"!tlx.buffers<1, 2x4x64xf32, smem>"'},
    ),
    ("local_view", "v_permute", {"tlx.type": _buffer("2x4x64xf32")}),
    ("local_trans", "v_permute", {"tlx.order": _dense([2, 0, 1]), "tlx.type": _buffer("64x2x4xf32")}),
    ("async_load", "v_cp_async", None),
    ("local_slice", "v_tma_from_view", {"tlx.offsets": _dense([64, 0]), "tlx.type": _buffer("64x64xf16")}),
    ("async_descriptor_store", "v_tma_from_view", None),
    ("local_load", None, {}),
    ("local_load", None, {}),
]


@pytest.fixture(scope="module", params=["ttir", "converted"])
def buffer_views_ir(request):
    return frontend_ir(buffer_views, BUFFER_VIEWS_SIGNATURE, stage=request.param)


def test_view_carriers_survive_intact_in_order_at_the_user_line(buffer_views_ir):
    found = carriers(buffer_views_ir)
    assert [c.op for c in found] == [e[0] for e in EXPECTED_VIEWS]
    for carrier, (op, marker, attrs) in zip(found, EXPECTED_VIEWS, strict=True):
        if attrs is not None:
            tlx_attrs = {k: v for k, v in carrier.attrs.items() if k.startswith("tlx.") and k != "tlx.op"}
            assert tlx_attrs == attrs, carrier.text
        if marker is not None:
            assert (carrier.file, carrier.line) == (str(HERE), line_of(marker)), carrier.text
        if op in ("local_trans", "local_slice", "local_reinterpret"):
            assert carrier.form == "A" and carrier.callee == f"tlx.{op}.a_i64_r_i64", carrier.text
            assert carrier.operand_types == ["i64"] and carrier.result_types == ["i64"], carrier.text


def test_views_are_buffers_for_every_consumer(buffer_views_ir):
    """Each view's handle is what the next op gets: TMA (both ways), local_load/store, cp.async, another view."""
    found = carriers(buffer_views_ir)
    view = {marker: c.results[0] for c, (_, marker, _) in zip(found, EXPECTED_VIEWS, strict=True) if c.results}
    by_marker = {}
    for c, (_, marker, _) in zip(found, EXPECTED_VIEWS, strict=True):
        by_marker.setdefault(marker, []).append(c)

    def splat_of(value):
        match = re.search(rf"{re.escape(value)} = tt\.splat (%[\w#.]+) : i64", buffer_views_ir)
        return match.group(1) if match else None

    assert by_marker["v_left"][0].operands == [view["v_view"]]
    assert by_marker["v_tma_into_slice"][-1].named_operands()["buffer"] == [view["v_left"]]
    assert by_marker["v_right"][0].operands == [view["v_view"]]
    assert splat_of(by_marker["v_load_trans"][0].operands[0]) == view["v_trans"]
    load_left, store_right = by_marker["v_store_slice"]
    assert splat_of(load_left.operands[0]) == view["v_left"]
    assert splat_of(store_right.named_operands()["buffer"][0]) == view["v_right"]
    assert by_marker["v_same_shape"][0].operands == [view["v_left"]]
    assert by_marker["v_permute"][-1].operands == [by_marker["v_permute"][0].results[0]]
    assert splat_of(by_marker["v_cp_async"][0].named_operands()["buffer"][0]) == view["v_reinterpret"]
    view_of_view, store = by_marker["v_tma_from_view"]
    assert view_of_view.operands == [view["v_trans"]]
    assert store.named_operands()["buffer"] == [view_of_view.results[0]]


@triton.jit
def tmem_views():
    acc = tlx.local_alloc((128, 256), tl.float32, 1, storage=tlx.storage_kind.tmem)
    half = tlx.subslice(acc[0], 128, 128)
    tlx.local_store(half, tl.zeros((128, 128), tl.float32))
    tlx.local_store(tlx.local_reinterpret(half, tl.bfloat16, (128, 256)), tl.zeros((128, 256), tl.bfloat16))


def test_tensor_memory_views_on_blackwell():
    text = frontend_ir(tmem_views, {}, stage="converted", target=GPUTarget("cuda", 100, 32))
    found = [c for c in carriers(text) if c.op in ("local_slice", "local_reinterpret")]
    assert [(c.op, c.attrs["tlx.type"]) for c in found] == [
        ("local_slice", '"!tlx.buffer<128x128xf32, tmem>"'),
        ("local_reinterpret", '"!tlx.buffer<128x256xbf16, tmem>"'),
    ]
    assert found[0].attrs["tlx.offsets"] == _dense([0, 128])
