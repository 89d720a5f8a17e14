"""Each tlx op compiled to cubin on the CPU shows the instruction it promises in the PTX.

The tutorials cover buffers, TMA, cp.async, mbarrier waits, fences and wgmma (test_tutorials.py); this
covers the rest: mbarrier arrive, special registers and the buffer views.
"""

import re

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler.compiler import ASTSource

import tlx


@triton.jit
def arrive_and_registers(out, BLOCK: tl.constexpr):
    bars = tlx.alloc_barriers(1, arrive_count=128)
    tlx.barrier_arrive(bars[0])
    tlx.barrier_wait(bars[0], 0)
    start = tlx.clock64()
    tid = tlx.thread_id(0)
    offs = tl.arange(0, BLOCK)
    stop = tlx.clock64()
    tl.store(out + offs, offs + tid + (stop - start).to(tl.int32))


@triton.jit
def views(desc, out_desc, BLOCK: tl.constexpr):
    bufs = tlx.local_alloc((64, 128), tl.float16, 1)
    out = tlx.local_alloc((64, 64), tl.float16, 1)
    bars = tlx.alloc_barriers(1)
    tlx.barrier_expect_bytes(bars[0], 64 * 128 * 2)
    tlx.async_descriptor_load(desc, bufs[0], [0, 0], bars[0])
    tlx.barrier_wait(bars[0], 0)
    right = tlx.local_load(tlx.local_slice(bufs[0], [0, 64], [64, 64]))
    left_t = tlx.local_load(tlx.local_trans(tlx.local_slice(bufs[0], [0, 0], [64, 64])))
    tlx.local_store(out[0], right + left_t)
    tlx.fence_async_shared()
    tlx.async_descriptor_store(out_desc, out[0], [0, 0])
    tlx.async_descriptor_store_wait(0)


def compile_sm90(kernel, signature, constexprs):
    names = list(signature)
    constants = {(names.index(name),): value for name, value in constexprs.items()}
    return triton.compile(ASTSource(kernel, signature, constants), target=GPUTarget("cuda", 90, 32))


def test_barrier_arrive_and_special_registers():
    compiled = compile_sm90(arrive_and_registers, {"out": "*i32", "BLOCK": "constexpr"}, {"BLOCK": 128})
    ptx = compiled.asm["ptx"]
    assert re.search(r"mbarrier\.init\.shared(::cta)?\.b64 \[[^\]]+\], 128;", ptx), "arrive count 128"
    assert "mbarrier.arrive" in ptx
    assert "mbarrier.try_wait" in ptx
    assert "%tid.x" in ptx
    assert ptx.count("%clock64") >= 2
    assert tlx.__name__ == "tlx"


def test_views_read_the_slices_they_name():
    compiled = compile_sm90(
        views,
        {"desc": "tensordesc<fp16[64, 128]>", "out_desc": "tensordesc<fp16[64, 64]>", "BLOCK": "constexpr"},
        {"BLOCK": 64},
    )
    ttgir = compiled.asm["ttgir"]
    assert "ttg.memdesc_subslice" in ttgir and "ttg.memdesc_trans" in ttgir
    ptx = compiled.asm["ptx"]
    # Both views are read from shared memory (ld.shared or ldmatrix) after the TMA load completes.
    assert re.search(r"ld\.shared|ldmatrix", ptx)
    assert "cp.async.bulk.tensor.2d.shared::cluster.global" in ptx
    assert compiled.asm["cubin"][:4] == b"\x7fELF"


@triton.jit
def named_barriers(out, bar: tl.int32, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tlx.named_barrier_arrive(bar, 256)
    tlx.named_barrier_wait(1, 128)
    tl.store(out + offs, offs)


def test_named_barriers():
    compiled = compile_sm90(named_barriers, {"out": "*i32", "bar": "i32", "BLOCK": "constexpr"}, {"BLOCK": 128})
    ptx = compiled.asm["ptx"]
    assert re.search(r"bar\.sync\s+1, 128;", ptx), "named barrier wait"
    assert re.search(r"bar\.arrive\s+%r\d+, 256;", ptx), "named barrier arrive with a runtime id"


def test_named_barrier_misuse_names_the_line():
    import inspect

    import pytest
    from triton.compiler.errors import CompilationError

    @triton.jit
    def bad(out, BLOCK: tl.constexpr):
        tlx.named_barrier_wait(16, 128)

    with pytest.raises(CompilationError) as info:
        compile_sm90(bad, {"out": "*i32", "BLOCK": "constexpr"}, {"BLOCK": 128})
    line = inspect.getsourcelines(bad.fn)[1] + 2
    text = str(info.value) + str(info.value.__cause__)
    assert f"{__file__}:{line}" in text and "uses barrier 16; named barriers are 0..15" in text, text


@triton.jit
def cluster_ops(out, BLOCK: tl.constexpr):
    bars = tlx.alloc_barriers(1)
    tlx.fence_mbarrier_init_cluster()
    tlx.cluster_barrier()
    rank = tlx.cluster_cta_rank()
    size = tlx.cluster_size_1d()
    tlx.barrier_arrive(bars[0])
    tl.store(out + tl.arange(0, BLOCK), tl.zeros((BLOCK,), tl.int32) + rank * size)


def test_cluster_rank_barrier_and_mbarrier_init_fence():
    ptx = compile_sm90(cluster_ops, {"out": "*i32", "BLOCK": "constexpr"}, {"BLOCK": 128}).asm["ptx"]
    assert "%cluster_ctarank" in ptx and "%cluster_nctarank" in ptx
    assert "fence.mbarrier_init.release.cluster" in ptx
    arrive = re.search(r"barrier\.cluster\.arrive(\.aligned)?;", ptx)
    wait = re.search(r"barrier\.cluster\.wait(\.aligned)?;", ptx)
    assert arrive and wait and arrive.start() < wait.start(), "arrive (release), then wait (acquire)"


@triton.jit
def fp8_dot(out):
    a = tlx.local_alloc((64, 32), tl.float8e4nv, 1)
    b = tlx.local_alloc((64, 32), tl.float8e4nv, 1)  # N x K: K-major, as wgmma reads 8-bit operands
    acc = tlx.async_dot_wait(0, tlx.async_dot(a[0], tlx.local_trans(b[0])))
    rows, cols = tl.arange(0, 64)[:, None], tl.arange(0, 64)[None, :]
    tl.store(out + rows * 64 + cols, acc)


def test_fp8_async_dot_is_an_e4m3_wgmma():
    ptx = compile_sm90(fp8_dot, {"out": "*fp32"}, {}).asm["ptx"]
    assert re.search(r"wgmma\.mma_async\.sync\.aligned\.m64n64k32\.f32\.e4m3\.e4m3", ptx), ptx[-2000:]


@triton.jit
def only_the_default_task(out):
    # One `with` of two items (as ruff's SIM117 writes nested ones): Triton builds both before entering either.
    with tlx.async_tasks(), tlx.async_task("default"):
        tl.store(out + tl.arange(0, 128), tl.arange(0, 128))


def test_async_tasks_with_only_the_default_task_run_it_in_place():
    compiled = compile_sm90(only_the_default_task, {"out": "*i32"}, {})
    assert "ttg.warp_specialize" not in compiled.asm["ttgir"] and "st.global" in compiled.asm["ptx"]


@triton.jit
def cluster_memory(desc, out, N: tl.constexpr):
    tiles = tlx.local_alloc((64, 128), tl.float16, 1)
    vec = tlx.local_alloc((N,), tl.float32, 2)
    bars = tlx.alloc_barriers(2)
    tlx.fence_mbarrier_init_cluster()
    tlx.cluster_barrier()
    rank = tlx.cluster_cta_rank()
    tlx.barrier_expect_bytes(bars[0], 64 * 128 * 2)
    if rank == 0:
        half = tlx.local_slice(tiles[0], [0, 0], [64, 64])
        tlx.async_descriptor_load(desc, half, [0, 0], bars[0], multicast_targets=[0, 1])
    else:
        half = tlx.local_slice(tiles[0], [0, 64], [64, 64])
        tlx.async_descriptor_load(desc, half, [0, 64], bars[0], multicast_targets=[0, 1])
    tlx.barrier_wait(bars[0], 0)
    tlx.remote_shmem_store(vec[0], tl.arange(0, N).to(tl.float32), rank ^ 1)
    tlx.barrier_arrive(bars[1], 1, remote_cta_rank=rank ^ 1)
    tlx.fence_async_shared()
    tlx.async_remote_shmem_copy(vec[1], vec[0], rank ^ 1, bars[1])
    tlx.async_remote_shmem_store(vec[1], tl.arange(0, N).to(tl.float32), rank ^ 1, bars[1])
    tlx.cluster_barrier()
    tl.store(out + tl.arange(0, N), tlx.local_load(vec[0]))


def test_cluster_memory_maps_the_peer_and_multicasts():
    compiled = triton.compile(
        ASTSource(cluster_memory, {"desc": "tensordesc<fp16[64, 64]>", "out": "*fp32", "N": "constexpr"}, {(2,): 128}),
        target=GPUTarget("cuda", 90, 32),
        options={"ctas_per_cga": (2, 1, 1)},
    )
    ptx = compiled.asm["ptx"]
    assert compiled.metadata.ctas_per_cga == (2, 1, 1)
    # One multicast load per branch, each to the CTAs of mask 0b11.
    multicasts = re.findall(
        r"cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global\.mbarrier::complete_tx::bytes\.multicast::cluster "
        r"\[%r\d+\], \[%rd\d+, \{%r\d+, %r\d+\}\], \[%r\d+\], %rs\d+;",
        ptx,
    )
    assert len(multicasts) == 2, ptx
    assert "mov.b16 \t%rs" in ptx or "cvt.u16.u32" in ptx  # the CTA mask
    assert ptx.count("mapa.shared::cluster") >= 3  # the remote store, the remote arrive, the bulk copy
    assert re.search(r"mbarrier\.arrive\.shared::cluster\.b64 _, \[%r\d+\], %r\d+;", ptx)
    assert re.search(r"st\.shared::cluster\.b32 \[%r\d+\], %r\d+;", ptx)
    st_async = r"st\.async\.shared::cluster\.mbarrier::complete_tx::bytes\.b32 \[%r\d+\], w, \[%r\d+\];"
    assert re.search(st_async, ptx)
    bulk = r"cp\.async\.bulk\.shared::cluster\.shared::cta\.mbarrier::complete_tx::bytes"
    assert re.search(bulk + r" \[%r\d+\], \[%r\d+\], %r\d+, \[%r\d+\];", ptx)


@triton.jit
def warp_barrier(out):
    bars = tlx.alloc_warp_barrier(2, num_warps=4, num_arrivals=2)
    tlx.barrier_arrive(bars[1])
    tlx.barrier_arrive(tlx.local_view(bars, 1))
    tlx.barrier_wait(bars[1], 0)
    tl.store(out + tl.arange(0, 128), tl.arange(0, 128))


def test_warp_barrier_has_every_thread_arrive():
    ptx = compile_sm90(warp_barrier, {"out": "*i32"}, {}).asm["ptx"]
    assert re.search(r"mbarrier\.init\.shared(::cta)?\.b64 \[[^\]]+\], 256;", ptx), "4 warps x 32 threads x 2"
    arrives = re.findall(r"^\s*(@%p\d+ )?mbarrier\.arrive\.shared::cta\.b64 _, \[%r\d+\], %r\d+;", ptx, re.M)
    assert len(arrives) == 2, ptx


@triton.jit
def fences_prefetch_bulk_store(desc, out):
    bufs = tlx.local_alloc((64, 128), tl.float16, 1)
    bars = tlx.alloc_barriers(1)
    tlx.async_descriptor_prefetch_tensor(desc, [0, 0])
    tlx.barrier_expect_bytes(bars[0], 64 * 128 * 2)
    tlx.async_descriptor_load(desc, bufs[0], [0, 0], bars[0])
    tlx.barrier_wait(bars[0], 0)
    tlx.fence("gpu")
    tlx.fence("sys")
    tlx.fence("async_shared")
    tlx.async_store(out, bufs[0], 64 * 128 * 2)
    tlx.async_descriptor_store_wait(0)


def test_fences_tma_prefetch_and_bulk_store():
    signature = {"desc": "tensordesc<fp16[64, 128]>", "out": "*fp16"}
    ptx = compile_sm90(fences_prefetch_bulk_store, signature, {}).asm["ptx"]
    assert "fence.acq_rel.gpu;" in ptx and "fence.acq_rel.sys;" in ptx
    assert "fence.proxy.async.shared::cta" in ptx
    # A 64x128 fp16 block is two 64-column boxes of the 128-byte swizzle: two prefetches.
    prefetches = re.findall(r"cp\.async\.bulk\.prefetch\.tensor\.2d\.L2\.global \[%rd\d+, \{%r\d+, %r\d+\}\];", ptx)
    assert len(prefetches) == 2, ptx
    assert re.search(r"cp\.async\.bulk\.global\.shared::cta\.bulk_group \[%rd\d+\], \[%r\d+\], %r\d+;", ptx)
    assert "cp.async.bulk.commit_group;" in ptx
    assert re.search(r"cp\.async\.bulk\.wait_group\.read\s+0;", ptx)


@triton.jit
def gather_scatter(table, idx, vals, out, N: tl.constexpr, M: tl.constexpr):
    buf = tlx.local_alloc((N * M,), tl.float32, 1)
    tlx.local_store(buf[0], tl.load(table + tl.arange(0, N * M)))
    indices = tl.load(idx + tl.arange(0, N))
    tl.store(out + tl.arange(0, N), tlx.local_gather(buf[0], indices, 0))
    tlx.local_scatter(buf[0], tl.load(vals + tl.arange(0, N)), indices, 0)
    tl.store(out + N + tl.arange(0, N * M), tlx.local_load(buf[0]))


def test_gather_and_scatter_are_shared_loads_and_stores_at_indexed_addresses():
    signature = {"table": "*fp32", "idx": "*i32", "vals": "*fp32", "out": "*fp32", "N": "constexpr", "M": "constexpr"}
    ptx = compile_sm90(gather_scatter, signature, {"N": 32, "M": 32}).asm["ptx"]
    assert re.search(r"ld\.shared\.b32 %r\d+, \[%r\d+\];", ptx)
    assert re.search(r"st\.shared\.b32 \[%r\d+\], %r\d+;", ptx)


@triton.jit
def reshaped_views(out, M: tl.constexpr, N: tl.constexpr):
    tiles = tlx.local_alloc((M, N), tl.float32, 1)
    flat = tlx.local_alloc((M * N,), tl.float32, 1)
    tlx.local_store(tiles[0], tl.zeros((M, N), tl.float32) + 1.0)
    tlx.local_store(flat[0], tl.arange(0, M * N).to(tl.float32))
    halves = tlx.local_reshape(tiles[0], (2, M // 2, N))  # NVMMA: the rows stay, the leading dimension splits
    grid = tlx.local_reshape(flat[0], (M, N))  # unswizzled: any shape
    rows, cols = tl.arange(0, M)[:, None], tl.arange(0, N)[None, :]
    tl.store(out + rows * N + cols, tlx.local_load(grid))
    top = tl.sum(tlx.local_load(halves), axis=0)
    tl.store(out + M * N + tl.arange(0, M // 2)[:, None] * N + cols, top)


def test_local_reshape_compiles_to_memdesc_reshape_views():
    compiled = compile_sm90(reshaped_views, {"out": "*fp32", "M": "constexpr", "N": "constexpr"}, {"M": 64, "N": 64})
    assert compiled.asm["ttgir"].count("ttg.memdesc_reshape") == 2
    assert re.search(r"ld\.shared|ldmatrix", compiled.asm["ptx"])


@triton.jit
def device_descriptor_copy(x, y, M, N, BM: tl.constexpr, BN: tl.constexpr):
    src = tlx.make_tensor_descriptor(None, x, [M, N], [N, 1], [BM, BN])
    dst = tlx.make_tensor_descriptor(desc_ptr=None, base=y, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    buf = tlx.local_alloc((BM, BN), tl.float16, 1)
    bars = tlx.alloc_barriers(1)
    tlx.barrier_expect_bytes(bars[0], BM * BN * 2)
    tlx.async_descriptor_load(src, buf[0], [tl.program_id(0) * BM, 0], bars[0])
    tlx.barrier_wait(bars[0], 0)
    tlx.async_descriptor_store(dst, buf[0], [tl.program_id(0) * BM, 0])
    tlx.async_descriptor_store_wait(0)


def test_device_made_descriptors_take_their_buffers_layout():
    signature = {"x": "*fp16", "y": "*fp16", "M": "i32", "N": "i32", "BM": "constexpr", "BN": "constexpr"}
    ptx = compile_sm90(device_descriptor_copy, signature, {"BM": 64, "BN": 64}).asm["ptx"]
    assert "tensormap.replace" in ptx
    assert "cp.async.bulk.tensor.2d.shared::cluster.global" in ptx
    assert "cp.async.bulk.tensor.2d.global.shared::cta" in ptx


@triton.jit
def layout_report(x, BLOCK: tl.constexpr):
    bufs = tlx.local_alloc((BLOCK, BLOCK), tl.float16, 1)
    rows, cols = tl.arange(0, BLOCK)[:, None], tl.arange(0, BLOCK)[None, :]
    tile = tl.load(x + rows * BLOCK + cols)
    tlx.local_store(bufs[0], tile)
    tlx.dump_layout(bufs[0])  # buffer report
    tlx.dump_layout(tile)  # tensor report
    tl.store(x + rows * BLOCK + cols, tlx.local_load(bufs[0]) + 1)


def test_dump_layout_reports_at_the_line_and_emits_nothing(capsys, monkeypatch):
    import inspect

    monkeypatch.setenv("TRITON_ALWAYS_COMPILE", "1")  # a kernel served from the cache reports nothing

    compiled = compile_sm90(layout_report, {"x": "*fp16", "BLOCK": "constexpr"}, {"BLOCK": 64})
    assert compiled.asm["cubin"][:4] == b"\x7fELF"
    report = capsys.readouterr().err
    lines, first = inspect.getsourcelines(layout_report.fn)
    buffer_line = first + next(i for i, text in enumerate(lines) if "# buffer report" in text)
    tensor_line = first + next(i for i, text in enumerate(lines) if "# tensor report" in text)
    assert re.search(
        rf"test_ops_ptx\.py:{buffer_line}:\d+: remark: layout: '!ttg\.memdesc<64x64xf16, #ttg\.nvmma_shared<", report
    )
    assert re.search(rf"test_ops_ptx\.py:{tensor_line}:\d+: remark: layout: 'tensor<64x64xf16, #ttg\.blocked<", report)
    assert "kernel `layout_report`" in report


@triton.jit
def descriptor_slots_copy(x, y, M, N, BM: tl.constexpr, BN: tl.constexpr):
    slots = tlx.allocate_tensor_descriptor(num=2)
    tlx.make_tensor_descriptor(desc_ptr=slots[0], base=x, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    tlx.make_tensor_descriptor(desc_ptr=slots[1], base=y, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    src = tlx.reinterpret_tensor_descriptor(desc_ptr=slots[0], block_shape=[BM, BN], dtype=tlx.dtype_of(x))
    dst = tlx.reinterpret_tensor_descriptor(desc_ptr=slots[1], block_shape=[BM, BN], dtype=tlx.dtype_of(y))
    buf = tlx.local_alloc((BM, BN), tl.float16, 1)
    bars = tlx.alloc_barriers(1)
    tlx.barrier_expect_bytes(bars[0], BM * BN * 2)
    tlx.async_descriptor_load(src, buf[0], [tl.program_id(0) * BM, 0], bars[0])
    tlx.barrier_wait(bars[0], 0)
    tlx.async_descriptor_store(dst, buf[0], [tl.program_id(0) * BM, 0])
    tlx.async_descriptor_store_wait(0)


_COPY_SIGNATURE = {"x": "*fp16", "y": "*fp16", "M": "i32", "N": "i32", "BM": "constexpr", "BN": "constexpr"}


_TENSORMAP = re.compile(
    r"ttng\.tensormap_create %\S+, (%\w+), (\[[^]]*\]), (\[[^]]*\]), \[[^]]*\], (\[[^]]*\]) (\{[^}]*\})"
)


def _tensormap_fields(ttgir: str) -> list[tuple[str, ...]]:
    """Each descriptor written: its base, box, global sizes, element strides and fields (constants by value, as
    their SSA names read: %c64_i32); the slot and the byte strides (computed values) left out."""
    return sorted(_TENSORMAP.findall(ttgir))


def test_descriptor_slots_are_filled_on_the_device_and_read_back():
    compiled = compile_sm90(descriptor_slots_copy, _COPY_SIGNATURE, {"BM": 64, "BN": 64})
    ttgir, ptx = compiled.asm["ttgir"], compiled.asm["ptx"]
    # One allocation of two 128-byte slots, the launcher's global scratch.
    assert ttgir.count("ttg.global_scratch_alloc") == 1 and "nbytes = 256 : i32" in ttgir
    assert compiled.metadata.global_scratch_size >= 256
    assert ttgir.count("ttng.tensormap_create") == 2 and ttgir.count("ttng.reinterpret_tensor_descriptor") == 2
    assert ptx.count("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu") == 2
    assert ptx.count("fence.proxy.tensormap::generic.acquire.gpu") == 2
    assert "cp.async.bulk.tensor.2d.shared::cluster.global" in ptx
    assert "cp.async.bulk.tensor.2d.global.shared::cta" in ptx


def test_descriptor_slots_hold_what_triton_writes_for_its_own_descriptors():
    """The same two descriptors made in slots of the kernel's own and by tl.make_tensor_descriptor (Triton's
    lowering): the same tensor map fields (element type, box, sizes, swizzle, fill)."""
    ours = compile_sm90(descriptor_slots_copy, _COPY_SIGNATURE, {"BM": 64, "BN": 32}).asm["ttgir"]
    stocks = compile_sm90(device_descriptor_copy, _COPY_SIGNATURE, {"BM": 64, "BN": 32}).asm["ttgir"]
    fields = _tensormap_fields(ours)
    assert len(fields) == 2 and fields == _tensormap_fields(stocks)
    # 64-byte rows of f16: a box of 32 x 64, 64-byte swizzle (mode 2).
    assert fields[0][1] == "[%c32_i32, %c64_i32]" and "swizzle_mode = 2" in fields[0][4], fields


# A register layout that stock Triton would not choose for a 32 x 32 tile: lanes down the rows, each thread
# 8 consecutive elements of its row, the 4 warps side by side along them.
ROWS_LAYOUT = tlx.layout(shape=((32, 4), 8), stride=((32, 8), 1))
ROWS = tl.constexpr(ROWS_LAYOUT)


@triton.jit
def pinned_layout(x, y, LAYOUT: tl.constexpr, PIN: tl.constexpr):
    offs = tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :]
    doubled = tlx.require_layout(tl.load(x + offs) * 2.0, LAYOUT, pin=PIN)
    shifted = doubled + 1.0
    if PIN:
        tlx.assert_same_layout(shifted, LAYOUT)
    tl.store(y + offs, shifted)


_LINEAR = "#ttg.linear<{register = [[0, 1], [0, 2], [0, 4]], lane = [[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]]"


def test_a_pinned_layout_holds_through_the_layout_optimizations():
    signature = {"x": "*fp32", "y": "*fp32", "LAYOUT": "constexpr", "PIN": "constexpr"}
    pinned = compile_sm90(pinned_layout, signature, {"LAYOUT": ROWS_LAYOUT, "PIN": True}).asm["ttgir"]
    assert _LINEAR in pinned
    # The elementwise users of the pinned value are computed in its layout, then converted for the store.
    assert re.search(r"arith\.addf .* : tensor<32x32xf32, #linear>", pinned), pinned
    assert "tlx.layout_marker" not in pinned
    flexible = compile_sm90(pinned_layout, signature, {"LAYOUT": ROWS_LAYOUT, "PIN": False}).asm["ttgir"]
    assert "#ttg.linear" not in flexible  # Triton's optimizations undo an unpinned requirement here


@triton.jit
def load_in_layout(x, y, LAYOUT: tl.constexpr):
    offs = tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :]
    bufs = tlx.local_alloc((32, 32), tl.float32, 1)
    tlx.local_store(bufs[0], tl.load(x + offs))
    tile = tlx.local_load(bufs[0], layout=LAYOUT)
    tlx.assert_same_layout(tile, LAYOUT)
    tl.store(y + offs, tile + 1.0)


def test_local_load_in_a_given_layout():
    signature = {"x": "*fp32", "y": "*fp32", "LAYOUT": "constexpr"}
    compiled = compile_sm90(load_in_layout, signature, {"LAYOUT": ROWS_LAYOUT})
    ttgir = compiled.asm["ttgir"]
    assert re.search(r"ttg\.local_load .* -> tensor<32x32xf32, #linear>", ttgir), ttgir
    assert "tlx.layout_marker" not in ttgir and compiled.asm["cubin"][:4] == b"\x7fELF"


@triton.jit
def layouts_that_differ(x, y):
    offs = tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :]
    loaded = tl.load(x + offs)
    pinned = tlx.require_layout(loaded * 2.0, ROWS)
    tlx.assert_same_layout(loaded, pinned)  # the loaded tile keeps Triton's layout
    tl.store(y + offs, pinned + loaded)


def test_assert_same_layout_fails_at_the_line_when_the_final_layouts_differ():
    import inspect

    from tlx.compiler import TLXCompilationError

    try:
        compile_sm90(layouts_that_differ, {"x": "*fp32", "y": "*fp32"}, {})
    except TLXCompilationError as error:
        message = str(error)
    else:
        raise AssertionError("the assertion passed")
    lines, first = inspect.getsourcelines(layouts_that_differ.fn)
    line = first + next(i for i, text in enumerate(lines) if "tlx.assert_same_layout" in text)
    assert f"test_ops_ptx.py:{line}:" in message, message
    assert "tlx.assert_same_layout: layout assertion failed" in message and "#ttg.linear<" in message, message


@triton.jit
def released_layout(x, y):
    offs = tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :]
    pinned = tlx.require_layout(tl.load(x + offs), ROWS) + 1.0
    tl.store(y + offs, tlx.release_layout(pinned) * 3.0)


def test_a_released_layout_ends_the_pin():
    ttgir = compile_sm90(released_layout, {"x": "*fp32", "y": "*fp32"}, {}).asm["ttgir"]
    assert re.search(r"arith\.addf .* : tensor<32x32xf32, #linear>", ttgir), ttgir  # before the release
    assert re.search(r"arith\.mulf .* : tensor<32x32xf32, #blocked\d*>", ttgir), ttgir  # after it: Triton's layout
    assert "tlx.layout_marker" not in ttgir
