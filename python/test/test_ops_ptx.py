"""Each tlx op compiled to cubin on the CPU shows the instruction it promises in the PTX.

The `SPEC_*` dicts (a tutorial's SPEC form) are also seeds of `tlx.testing.kernel_fuzz --seed-module`.

The tutorials cover buffers, TMA, cp.async, mbarrier waits, fences and wgmma (test_tutorials.py); this
covers the rest: mbarrier arrive, special registers, the buffer views, and (for sm_100a) block-scaled MMA
and stochastic rounding.
"""

import re

import gpus
import pytest
import triton
import triton.language as tl

import tlx
from tlx.tutorials import compile_kernel, compile_tutorial


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


SPEC_ARRIVE_AND_REGISTERS = {
    "kernel": arrive_and_registers,
    "signature": {"out": "*i32", "BLOCK": "constexpr"},
    "constexprs": {"BLOCK": 128},
    "num_warps": 4,
}


def test_barrier_arrive_and_special_registers():
    compiled = compile_tutorial(SPEC_ARRIVE_AND_REGISTERS)
    ptx = compiled.asm["ptx"]
    assert re.search(r"mbarrier\.init\.shared(::cta)?\.b64 \[[^\]]+\], 128;", ptx), "arrive count 128"
    assert "mbarrier.arrive" in ptx
    assert "mbarrier.try_wait" in ptx
    assert "%tid.x" in ptx
    assert ptx.count("%clock64") >= 2
    assert tlx.__name__ == "tlx"


SPEC_VIEWS = {
    "kernel": views,
    "signature": {"desc": "tensordesc<fp16[64, 128]>", "out_desc": "tensordesc<fp16[64, 64]>", "BLOCK": "constexpr"},
    "constexprs": {"BLOCK": 64},
    "num_warps": 4,
}


def test_views_read_the_slices_they_name():
    compiled = compile_tutorial(SPEC_VIEWS)
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


SPEC_NAMED_BARRIERS = {
    "kernel": named_barriers,
    "signature": {"out": "*i32", "bar": "i32", "BLOCK": "constexpr"},
    "constexprs": {"BLOCK": 128},
    "num_warps": 4,
}


def test_named_barriers():
    compiled = compile_tutorial(SPEC_NAMED_BARRIERS)
    ptx = compiled.asm["ptx"]
    assert re.search(r"bar\.sync\s+1, 128;", ptx), "named barrier wait"
    assert re.search(r"bar\.arrive\s+%r\d+, 256;", ptx), "named barrier arrive with a runtime id"
    from tlx.compiler.llir import NAMED_BARRIER_WAIT_MARKER

    assert NAMED_BARRIER_WAIT_MARKER not in ptx, "the marker for the stage hook leaked into the PTX"


def test_named_barrier_misuse_names_the_line():
    import inspect

    import pytest
    from triton.compiler.errors import CompilationError

    @triton.jit
    def bad(out, BLOCK: tl.constexpr):
        tlx.named_barrier_wait(16, 128)

    with pytest.raises(CompilationError) as info:
        compile_kernel(bad, {"out": "*i32", "BLOCK": "constexpr"}, {"BLOCK": 128})
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


SPEC_CLUSTER_OPS = {
    "kernel": cluster_ops,
    "signature": {"out": "*i32", "BLOCK": "constexpr"},
    "constexprs": {"BLOCK": 128},
    "num_warps": 4,
}


def test_cluster_rank_barrier_and_mbarrier_init_fence():
    ptx = compile_tutorial(SPEC_CLUSTER_OPS).asm["ptx"]
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


SPEC_FP8_DOT = {"kernel": fp8_dot, "signature": {"out": "*fp32"}, "constexprs": {}, "num_warps": 4}


def test_fp8_async_dot_is_an_e4m3_wgmma():
    ptx = compile_tutorial(SPEC_FP8_DOT).asm["ptx"]
    assert re.search(r"wgmma\.mma_async\.sync\.aligned\.m64n64k32\.f32\.e4m3\.e4m3", ptx), ptx[-2000:]


@triton.jit
def fp8_registers_dot(p_ptr, v_t_ptr, out, FP8: tl.constexpr):
    """P @ V with P (64 x 64) in registers, as attention's second GEMM in fp8; V stored transposed (N x K)."""
    rows, cols = tl.arange(0, 64)[:, None], tl.arange(0, 64)[None, :]
    p = tl.load(p_ptr + rows * 64 + cols).to(FP8)
    v_t = tlx.local_alloc((64, 64), FP8, 1)
    tlx.local_store(v_t[0], tl.load(v_t_ptr + rows * 64 + cols).to(FP8))
    acc = tlx.async_dot_wait(0, tlx.async_dot(p, tlx.local_trans(v_t[0])))
    tl.store(out + rows * 64 + cols, acc)


SPEC_FP8_REGISTERS_DOT = {
    "kernel": fp8_registers_dot,
    "signature": {"p_ptr": "*fp32", "v_t_ptr": "*fp32", "out": "*fp32"},
    "constexprs": {"FP8": tl.float8e4nv},
    "num_warps": 4,
}


@pytest.mark.parametrize("fp8, name", [(tl.float8e4nv, "e4m3"), (tl.float8e5, "e5m2")])
def test_fp8_async_dot_takes_a_from_registers(fp8, name):
    ptx = compile_tutorial({**SPEC_FP8_REGISTERS_DOT, "constexprs": {"FP8": fp8}}).asm["ptx"]
    # A as 4 registers of 4 fp8 values each (the thread's share of 64 x 32), B by descriptor.
    found = re.findall(
        rf"wgmma\.mma_async\.sync\.aligned\.m64n64k32\.f32\.{name}\.{name} \{{[^}}]*\}}, \{{(%r\d+,?){{4}}\}}, %rd", ptx
    )
    assert len(found) == 2, ptx[-3000:]  # K = 64: two k32 steps


@pytest.mark.gpu
@gpus.hopper
@pytest.mark.parametrize("fp8, torch_fp8", [(tl.float8e4nv, "float8_e4m3fn"), (tl.float8e5, "float8_e5m2")])
def test_fp8_async_dot_from_registers_on_hopper(fp8, torch_fp8):
    import torch

    dtype = getattr(torch, torch_fp8)
    # Values exact in fp8, so the kernel's conversions lose nothing and the float64 product is the reference.
    p = torch.randn(64, 64, device="cuda").to(dtype).double()
    v_t = torch.randn(64, 64, device="cuda").to(dtype).double()
    out = torch.full((64, 64), float("nan"), device="cuda")
    fp8_registers_dot[(1,)](p.float(), v_t.float(), out, FP8=fp8)
    # An fp8 wgmma sums its products in the tensor core's own accumulator, narrower than float32 (stock tl.dot's
    # default for fp8 on sm_90 too; measured on an H100: errors up to 0.006 on these sums of 64 products of
    # N(0, 1) values); a wrong fragment layout would be off by the size of the sums themselves.
    magnitudes = p.abs() @ v_t.abs().T
    error = (out.double() - p @ v_t.T).abs()
    assert not out.isnan().any() and (error <= 2**-9 * magnitudes).all(), (error / magnitudes).max()


@triton.jit
def tf32_dot(out):
    a = tlx.local_alloc((64, 16), tl.float32, 1)
    b = tlx.local_alloc((64, 16), tl.float32, 1)  # N x K: K-major, as wgmma reads tf32 operands
    acc = tlx.async_dot_wait(0, tlx.async_dot(a[0], tlx.local_trans(b[0])))
    rows, cols = tl.arange(0, 64)[:, None], tl.arange(0, 64)[None, :]
    tl.store(out + rows * 64 + cols, acc)


SPEC_TF32_DOT = {"kernel": tf32_dot, "signature": {"out": "*fp32"}, "constexprs": {}, "num_warps": 4}


def test_float32_async_dot_is_a_tf32_wgmma():
    ptx = compile_tutorial(SPEC_TF32_DOT).asm["ptx"]
    assert len(re.findall(r"wgmma\.mma_async\.sync\.aligned\.m64n64k8\.f32\.tf32\.tf32", ptx)) == 2, ptx[-2000:]


@triton.jit
def only_the_default_task(out):
    # One `with` of two items (as ruff's SIM117 writes nested ones): Triton builds both before entering either.
    with tlx.async_tasks(), tlx.async_task("default"):
        tl.store(out + tl.arange(0, 128), tl.arange(0, 128))


SPEC_ONLY_THE_DEFAULT_TASK = {
    "kernel": only_the_default_task,
    "signature": {"out": "*i32"},
    "constexprs": {},
    "num_warps": 4,
}


def test_async_tasks_with_only_the_default_task_run_it_in_place():
    compiled = compile_tutorial(SPEC_ONLY_THE_DEFAULT_TASK)
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


SPEC_CLUSTER_MEMORY = {
    "kernel": cluster_memory,
    "signature": {"desc": "tensordesc<fp16[64, 64]>", "out": "*fp32", "N": "constexpr"},
    "constexprs": {"N": 128},
    "num_warps": 4,
    "options": {"ctas_per_cga": (2, 1, 1)},
}


def test_cluster_memory_maps_the_peer_and_multicasts():
    compiled = compile_tutorial(SPEC_CLUSTER_MEMORY)
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
    # A remote arrive passes its count of 1 in a register (where ptxas then places it measured faster in the
    # attention's cluster pairs; a local arrive leaves the instruction's default out).
    assert re.search(r"mbarrier\.arrive\.shared::cluster\.b64 _, \[%r\d+\], %r\d+;", ptx)
    assert re.search(r"st\.shared::cluster\.b32 \[%r\d+\], %r\d+;", ptx)
    st_async = r"st\.async\.shared::cluster\.mbarrier::complete_tx::bytes\.b32 \[%r\d+\], w, \[%r\d+\];"
    assert re.search(st_async, ptx)
    bulk = r"cp\.async\.bulk\.shared::cluster\.shared::cta\.mbarrier::complete_tx::bytes"
    assert re.search(bulk + r" \[%r\d+\], \[%r\d+\], %r\d+, \[%r\d+\];", ptx)


@triton.jit
def multicast_row_halves(desc):
    tiles = tlx.local_alloc((128, 128), tl.bfloat16, 1)
    bars = tlx.alloc_barriers(1)
    tlx.fence_mbarrier_init_cluster()
    tlx.cluster_barrier()
    rank = tlx.cluster_cta_rank()
    tlx.barrier_expect_bytes(bars[0], 128 * 128 * 2)
    if rank == 0:
        tlx.async_descriptor_load(desc, tlx.local_slice(tiles[0], [0, 0], [64, 128]), [0, 0], bars[0],
                                  multicast_targets=[0, 1])  # fmt: skip
    else:
        tlx.async_descriptor_load(desc, tlx.local_slice(tiles[0], [64, 0], [64, 128]), [64, 0], bars[0],
                                  multicast_targets=[0, 1])  # fmt: skip
    tlx.barrier_wait(bars[0], 0)
    tlx.cluster_barrier()


SPEC_MULTICAST_ROW_HALVES = {
    "kernel": multicast_row_halves,
    "signature": {"desc": "tensordesc<bf16[64, 128]>"},
    "constexprs": {},
    "num_warps": 4,
    "options": {"ctas_per_cga": (2, 1, 1)},
}


def test_multicast_into_row_halves_writes_each_swizzle_column_of_the_tile():
    """A 128x128 bf16 tile is two 128-byte swizzle columns of 16 KB; rows 64..127 of each start 8 KB in. Each
    CTA's half goes out as two 64-column boxes: the second lands a whole column (16 KB) after the first."""
    compiled = compile_tutorial(SPEC_MULTICAST_ROW_HALVES)
    ptx = compiled.asm["ptx"]
    offsets = {register: int(offset) for register, offset in re.findall(r"add\.s32 \t(%r\d+), %r\d+, (\d+);", ptx)}
    destinations = re.findall(r"\.multicast::cluster \[(%r\d+)\]", ptx)
    assert len(destinations) == 4, ptx
    placed = [offsets.get(register, 0) for register in destinations]
    base = min(placed)
    assert sorted(offset - base for offset in placed) == [0, 8192, 16384, 24576], placed


@triton.jit
def warp_barrier(out):
    bars = tlx.alloc_warp_barrier(2, num_warps=4, num_arrivals=2)
    tlx.barrier_arrive(bars[1])
    tlx.barrier_arrive(tlx.local_view(bars, 1))
    tlx.barrier_wait(bars[1], 0)
    tl.store(out + tl.arange(0, 128), tl.arange(0, 128))


SPEC_WARP_BARRIER = {"kernel": warp_barrier, "signature": {"out": "*i32"}, "constexprs": {}, "num_warps": 4}


def test_warp_barrier_has_every_thread_arrive():
    ptx = compile_tutorial(SPEC_WARP_BARRIER).asm["ptx"]
    assert re.search(r"mbarrier\.init\.shared(::cta)?\.b64 \[[^\]]+\], 256;", ptx), "4 warps x 32 threads x 2"
    arrives = re.findall(r"^\s*(@%p\d+ )?mbarrier\.arrive\.shared::cta\.b64 _, \[%r\d+\];", ptx, re.M)  # count 1
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


SPEC_FENCES_PREFETCH_BULK_STORE = {
    "kernel": fences_prefetch_bulk_store,
    "signature": {"desc": "tensordesc<fp16[64, 128]>", "out": "*fp16"},
    "constexprs": {},
    "num_warps": 4,
}


def test_fences_tma_prefetch_and_bulk_store():
    ptx = compile_tutorial(SPEC_FENCES_PREFETCH_BULK_STORE).asm["ptx"]
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


SPEC_GATHER_SCATTER = {
    "kernel": gather_scatter,
    "signature": {"table": "*fp32", "idx": "*i32", "vals": "*fp32", "out": "*fp32", "N": "constexpr", "M": "constexpr"},
    "constexprs": {"N": 32, "M": 32},
    "num_warps": 4,
}


def test_gather_and_scatter_are_shared_loads_and_stores_at_indexed_addresses():
    ptx = compile_tutorial(SPEC_GATHER_SCATTER).asm["ptx"]
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


SPEC_RESHAPED_VIEWS = {
    "kernel": reshaped_views,
    "signature": {"out": "*fp32", "M": "constexpr", "N": "constexpr"},
    "constexprs": {"M": 64, "N": 64},
    "num_warps": 4,
}


def test_local_reshape_compiles_to_memdesc_reshape_views():
    compiled = compile_tutorial(SPEC_RESHAPED_VIEWS)
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


SPEC_DEVICE_DESCRIPTOR_COPY = {
    "kernel": device_descriptor_copy,
    "signature": {"x": "*fp16", "y": "*fp16", "M": "i32", "N": "i32", "BM": "constexpr", "BN": "constexpr"},
    "constexprs": {"BM": 64, "BN": 64},
    "num_warps": 4,
}


def test_device_made_descriptors_take_their_buffers_layout():
    ptx = compile_tutorial(SPEC_DEVICE_DESCRIPTOR_COPY).asm["ptx"]
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


SPEC_LAYOUT_REPORT = {
    "kernel": layout_report,
    "signature": {"x": "*fp16", "BLOCK": "constexpr"},
    "constexprs": {"BLOCK": 64},
    "num_warps": 4,
}


def test_dump_layout_reports_at_the_line_and_emits_nothing(capsys, monkeypatch):
    import inspect

    monkeypatch.setenv("TRITON_ALWAYS_COMPILE", "1")  # a kernel served from the cache reports nothing

    compiled = compile_tutorial(SPEC_LAYOUT_REPORT)
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
def clc_tiles(out, BLOCK: tl.constexpr):
    clc = tlx.clc_create_context(1, num_stages=2)
    tile = tl.program_id(0)
    i = 0
    while tile != -1:
        stage = i % 2
        phase = (i // 2) & 1
        tlx.clc_producer(clc, phase ^ 1, k=stage)
        offs = tile * BLOCK + tl.arange(0, BLOCK)
        tl.store(out + offs, offs)
        tile = tlx.clc_consumer(clc, phase, k=stage)
        i += 1


SPEC_CLC_TILES = {
    "kernel": clc_tiles,
    "signature": {"out": "*i32"},
    "constexprs": {"BLOCK": 128},
    "num_warps": 4,
    "arch": 100,
}
SPEC_CLC_TILES_CLUSTER = {**SPEC_CLC_TILES, "options": {"ctas_per_cga": (2, 1, 1)}}


_TRY_CANCEL = r"clusterlaunchcontrol\.try_cancel\.async\.shared::cta\.mbarrier::complete_tx::bytes"


def test_cluster_launch_control_requests_and_decodes_tiles():
    compiled = compile_tutorial(SPEC_CLC_TILES)
    ttgir, ptx = compiled.asm["ttgir"], compiled.asm["ptx"]
    # Two 16-byte responses, 16-byte aligned (the hardware writes each as one naturally aligned b128).
    assert re.search(r"ttg\.local_alloc \{alignment = 16 : i32\} : \(\) -> !ttg\.memdesc<2x2xi64", ttgir), ttgir
    # One thread issues the request, completing 16 bytes on the full mbarrier the producer armed.
    assert re.search(rf"@%p\d+ {_TRY_CANCEL}\.b128 \[%r\d+\], \[%r\d+\];", ptx), ptx
    assert "multicast::cluster::all" not in ptx and "mapa" not in ptx
    assert re.search(r"mbarrier\.arrive\.expect_tx\.shared(::cta)?\.b64 _, \[%r\d+\], 16;", ptx), ptx
    # Every thread reads and decodes the response, then fences the generic read before the next request.
    query = ptx.index("clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128")
    assert re.search(r"ld\.shared\.b128 response, \[%r\d+\];", ptx)
    assert "clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 canceled, response;" in ptx
    assert query < ptx.index("fence.proxy.async.shared::cta", query)
    assert compiled.asm["cubin"][:4] == b"\x7fELF"


def test_cluster_launch_control_in_a_cluster_multicasts_from_cta_0():
    compiled = compile_tutorial(SPEC_CLC_TILES_CLUSTER)
    ptx = compiled.asm["ptx"]
    assert re.search(rf"@%p\d+ {_TRY_CANCEL}\.multicast::cluster::all\.b128 \[%r\d+\], \[%r\d+\];", ptx), ptx
    assert "%cluster_ctarank" in ptx
    # Arrive remote, wait local: the consumer releases CTA 0's stage; the mbarrier inits are made visible to
    # the cluster before any of that.
    arrive = ptx.index("mbarrier.arrive.shared::cluster.b64")
    assert "mapa.shared::cluster" in ptx[:arrive]
    assert "fence.mbarrier_init.release.cluster" in ptx[: ptx.index("clusterlaunchcontrol.try_cancel")]
    assert compiled.asm["cubin"][:4] == b"\x7fELF"


@triton.jit
def block_scaled_dot(
    a_desc,
    b_desc,
    a_scale_desc,
    b_scale_desc,
    c_ptr,
    A_FORMAT: tl.constexpr,
    B_FORMAT: tl.constexpr,
    SCALES_IN_TMEM: tl.constexpr,
    M: tl.constexpr,
    N: tl.constexpr,
    K: tl.constexpr,
):
    """One block-scaled MMA: A (M x K) and B (stored N x K) by TMA, e8m0 scales by 5-D TMA in the cuBLAS layout."""
    A_BYTES: tl.constexpr = K // 2 if A_FORMAT == "e2m1" else K
    B_BYTES: tl.constexpr = K // 2 if B_FORMAT == "e2m1" else K
    a = tlx.local_alloc((M, A_BYTES), tlx.dtype_of(a_desc), 1)
    b = tlx.local_alloc((N, B_BYTES), tlx.dtype_of(b_desc), 1)
    a_scales = tlx.local_alloc((1, M // 128, K // 128, 2, 256), tl.uint8, 1)
    b_scales = tlx.local_alloc((1, N // 128, K // 128, 2, 256), tl.uint8, 1)
    bars = tlx.alloc_barriers(2)
    tlx.barrier_expect_bytes(bars[0], M * A_BYTES + N * B_BYTES + (M + N) * (K // 32))
    tlx.async_descriptor_load(a_desc, a[0], [0, 0], bars[0])
    tlx.async_descriptor_load(b_desc, b[0], [0, 0], bars[0])
    tlx.async_descriptor_load(a_scale_desc, a_scales[0], [0, 0, 0, 0, 0], bars[0])
    tlx.async_descriptor_load(b_scale_desc, b_scales[0], [0, 0, 0, 0, 0], bars[0])
    tlx.barrier_wait(bars[0], 0)
    acc = tlx.local_alloc((M, N), tl.float32, 1, tlx.storage_kind.tmem)
    if SCALES_IN_TMEM:
        a_tmem = tlx.local_alloc((M, K // 32), tl.uint8, 1, tlx.storage_kind.tmem)
        b_tmem = tlx.local_alloc((N, K // 32), tl.uint8, 1, tlx.storage_kind.tmem)
        tlx.tmem_copy(a_scales[0], a_tmem[0])
        tlx.tmem_copy(b_scales[0], b_tmem[0])
        tlx.async_dot_scaled(
            a[0], tlx.local_trans(b[0]), acc[0], a_tmem[0], A_FORMAT, b_tmem[0], B_FORMAT, False, mBarriers=[bars[1]]
        )
    else:
        tlx.async_dot_scaled(
            a[0], tlx.local_trans(b[0]), acc[0], a_scales[0], A_FORMAT, b_scales[0], B_FORMAT, mBarriers=[bars[1]]
        )
    tlx.barrier_wait(bars[1], 0)
    rows, cols = tl.arange(0, M)[:, None], tl.arange(0, N)[None, :]
    tl.store(c_ptr + rows * N + cols, tlx.local_load(acc[0]))


_MX_TYPES = {"e4m3": "fp8e4nv", "e5m2": "fp8e5", "e2m1": "u8"}


def block_scaled_spec(a_format, b_format, scales_in_tmem, M=128, N=128, K=256) -> dict:
    a_bytes, b_bytes = (K // 2 if f == "e2m1" else K for f in (a_format, b_format))
    signature = {
        "a_desc": f"tensordesc<{_MX_TYPES[a_format]}[{M}, {a_bytes}]>",
        "b_desc": f"tensordesc<{_MX_TYPES[b_format]}[{N}, {b_bytes}]>",
        "a_scale_desc": f"tensordesc<u8[1, {M // 128}, {K // 128}, 2, 256]>",
        "b_scale_desc": f"tensordesc<u8[1, {N // 128}, {K // 128}, 2, 256]>",
        "c_ptr": "*fp32",
        **dict.fromkeys(["A_FORMAT", "B_FORMAT", "SCALES_IN_TMEM", "M", "N", "K"], "constexpr"),
    }
    constexprs = {"A_FORMAT": a_format, "B_FORMAT": b_format, "SCALES_IN_TMEM": scales_in_tmem, "M": M, "N": N, "K": K}
    return {"kernel": block_scaled_dot, "signature": signature, "constexprs": constexprs, "num_warps": 4, "arch": 100}


SPEC_BLOCK_SCALED_MXFP8 = block_scaled_spec("e4m3", "e5m2", scales_in_tmem=True)
SPEC_BLOCK_SCALED_MXFP4 = block_scaled_spec("e2m1", "e2m1", scales_in_tmem=False)


def test_async_dot_scaled_mxfp8_is_a_block_scaled_tcgen05_mma_with_scales_copied_to_tensor_memory():
    compiled = compile_tutorial(SPEC_BLOCK_SCALED_MXFP8)
    ptx, ttgir = compiled.asm["ptx"], compiled.asm["ttgir"]
    assert ".target sm_100a" in ptx and compiled.asm["cubin"][:4] == b"\x7fELF"
    assert "lhs = e4m3 rhs = e5m2" in ttgir and ttgir.count("ttng.tmem_copy") == 2
    # K = 256 is 8 instructions of K = 32, each reading the scales of its 32 columns from tensor memory.
    mma = r"tcgen05\.mma\.cta_group::1\.kind::mxf8f6f4\.block_scale\.scale_vec::1X \[ %r\d+ \+ 0 \], %rd\d+, %rd\d+"
    assert len(re.findall(mma, ptx)) == 8, ptx
    # Each 128 x 8 block of scales is one tcgen05.cp per 128 x 4 block, after the 5-D TMA loads of the scales.
    assert ptx.count("tcgen05.cp.cta_group::1.warpx4.32x128b") == 4
    assert ptx.count("cp.async.bulk.tensor.5d.shared::cluster.global") == 2


def test_async_dot_scaled_mxfp4_reads_shared_memory_scales_through_tensor_memory():
    compiled = compile_tutorial(SPEC_BLOCK_SCALED_MXFP4)
    ptx, ttgir = compiled.asm["ptx"], compiled.asm["ttgir"]
    assert compiled.asm["cubin"][:4] == b"\x7fELF"
    # e2m1 packed two to a byte: K = 256 is 4 instructions of K = 64 (kind::mxf4, two scales per row each).
    assert ptx.count("tcgen05.mma.cta_group::1.kind::mxf4.block_scale.scale_vec::2X") == 4, ptx
    # The compiler copies the shared-memory scales itself (the MMA reads scales from tensor memory only).
    assert ttgir.count("ttng.tmem_copy") == 2 and "#ttng.tensor_memory_scales_encoding" in ttgir
    assert ptx.count("tcgen05.cp.cta_group::1.warpx4.32x128b") == 4


@triton.jit
def stochastic_rounding(x_ptr, bits_ptr, e4m3_ptr, e5m2_ptr, bf16_ptr, f16_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    bits = tl.load(bits_ptr + offs)
    tl.store(e4m3_ptr + offs, tlx.stoch_round(x, tl.float8e4nv, bits))
    tl.store(e5m2_ptr + offs, tlx.stoch_round(x, tl.float8e5, bits))
    tl.store(bf16_ptr + offs, tlx.stoch_round(x, tl.bfloat16, bits))
    tl.store(f16_ptr + offs, tlx.stoch_round(x, tl.float16, bits))


SPEC_STOCHASTIC_ROUNDING = {
    "kernel": stochastic_rounding,
    "signature": {
        "x_ptr": "*fp32",
        "bits_ptr": "*u32",
        "e4m3_ptr": "*fp8e4nv",
        "e5m2_ptr": "*fp8e5",
        "bf16_ptr": "*bf16",
        "f16_ptr": "*fp16",
    },
    "constexprs": {"BLOCK": 1024},
    "num_warps": 4,
    "arch": 100,
}


def test_stoch_round_is_cvt_rs_over_packs_of_a_thread():
    compiled = compile_tutorial(SPEC_STOCHASTIC_ROUNDING)
    ptx = compiled.asm["ptx"]
    assert compiled.asm["cubin"][:4] == b"\x7fELF"
    # 1024 values on 128 threads: 8 a thread, in 2 packs of 4 (fp8) or 4 packs of 2 (16-bit).
    assert ptx.count("cvt.rs.satfinite.e4m3x4.f32") == 2, ptx
    assert ptx.count("cvt.rs.satfinite.e5m2x4.f32") == 2
    assert ptx.count("cvt.rs.satfinite.bf16x2.f32") == 4
    assert ptx.count("cvt.rs.satfinite.f16x2.f32") == 4
    assert "tlx." not in compiled.asm["ttgir"]


@pytest.mark.gpu
@gpus.blackwell
def test_stoch_round_lands_on_a_neighbour_and_is_unbiased_on_blackwell():
    import torch

    n = 8192  # 64 values a thread
    # Distinct values in [1, 5): a value from another lane of a pack would not be a neighbour.
    x = 1 + 4 * torch.rand(n, device="cuda")
    bits = torch.randint(0, 2**32, (n,), device="cuda", dtype=torch.int64).to(torch.int32)
    dtypes = {"e4m3": torch.float8_e4m3fn, "e5m2": torch.float8_e5m2, "bf16": torch.bfloat16, "f16": torch.float16}
    outs = {name: torch.empty(n, device="cuda", dtype=dtype) for name, dtype in dtypes.items()}
    stochastic_rounding[(1,)](x, bits, *outs.values(), BLOCK=n)
    for name, mantissa_bits in {"e4m3": 3, "e5m2": 2, "bf16": 7, "f16": 10}.items():
        ulp = torch.exp2(torch.floor(torch.log2(x)) - mantissa_bits)
        error = (outs[name].float() - x) / ulp
        assert (error.abs() < 1).all(), name
        # Rounding up with probability (x - down) / ulp: the mean error vanishes (its spread is 0.003 here).
        assert error.mean().abs() < 0.02, name


@triton.jit
def cache_hints_and_reductions(desc, out_desc, sum_desc):
    bufs = tlx.local_alloc((64, 128), tl.float16, 1)
    sums = tlx.local_alloc((64, 64), tl.float32, 1)
    bars = tlx.alloc_barriers(1)
    tlx.async_descriptor_prefetch_tensor(desc, [0, 0], eviction_policy="evict_first")
    tlx.barrier_expect_bytes(bars[0], 64 * 128 * 2)
    tlx.async_descriptor_load(desc, bufs[0], [0, 0], bars[0], eviction_policy="evict_last")
    tlx.barrier_wait(bars[0], 0)
    tlx.async_descriptor_store(out_desc, bufs[0], [0, 0], eviction_policy="evict_first")
    tlx.async_descriptor_store(out_desc, bufs[0], [64, 0], store_reduce="min", eviction_policy="evict_last")
    tlx.local_store(sums[0], tl.full((64, 64), 1.0, tl.float32))
    tlx.async_descriptor_store(sum_desc, sums[0], [0, 0], store_reduce="add")
    tlx.async_descriptor_store_wait(0)


SPEC_CACHE_HINTS_AND_REDUCTIONS = {
    "kernel": cache_hints_and_reductions,
    "signature": {
        "desc": "tensordesc<fp16[64, 128]>",
        "out_desc": "tensordesc<fp16[64, 128]>",
        "sum_desc": "tensordesc<fp32[64, 64]>",
    },
    "constexprs": {},
    "num_warps": 4,
}


def test_cache_hints_and_tma_reductions():
    compiled = compile_tutorial(SPEC_CACHE_HINTS_AND_REDUCTIONS)
    ptx = compiled.asm["ptx"]
    assert "createpolicy.fractional.L2::evict_first.b64" in ptx
    assert "createpolicy.fractional.L2::evict_last.b64" in ptx
    coords = r"\[%rd\d+, \{%r\d+, %r\d+\}\]"
    # Two 64-column boxes each (the 128-byte swizzle of a 128-column fp16 block), every one with its policy.
    prefetch = rf"cp\.async\.bulk\.prefetch\.tensor\.2d\.L2\.global\.L2::cache_hint {coords}, %rd\d+;"
    assert len(re.findall(prefetch, ptx)) == 2, ptx
    load = (
        r"cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global\.mbarrier::complete_tx::bytes\.L2::cache_hint "
        rf"\[%r\d+\], {coords}, \[%r\d+\], %rd\d+;"
    )
    assert len(re.findall(load, ptx)) == 2, ptx
    store = (
        rf"cp\.async\.bulk\.tensor\.2d\.global\.shared::cta\.bulk_group\.L2::cache_hint {coords}, \[%r\d+\], %rd\d+;"
    )
    assert len(re.findall(store, ptx)) == 2, ptx
    hinted_min = r"cp\.reduce\.async\.bulk\.tensor\.2d\.global\.shared::cta\.min\.bulk_group\.L2::cache_hint"
    assert len(re.findall(hinted_min, ptx)) == 2, ptx
    # Without a hint the reduction is Triton's own (ttng.async_tma_reduce).
    assert "ttng.async_tma_reduce add" in compiled.asm["ttgir"]
    assert re.search(r"cp\.reduce\.async\.bulk\.tensor\.2d\.global\.shared::cta\.add\.bulk_group \[", ptx), ptx
    assert compiled.asm["cubin"][:4] == b"\x7fELF"


@triton.jit
def bulk_copy_in(x, out, N: tl.constexpr):
    bufs = tlx.local_alloc((N,), tl.float32, 1)
    bars = tlx.alloc_barriers(1)
    tlx.barrier_expect_bytes(bars[0], N * 4)
    tlx.async_load(x, bufs[0], bulk=True, barrier=bars[0])
    tlx.barrier_wait(bars[0], 0)
    tl.store(out + tl.arange(0, N), tlx.local_load(bufs[0]))


SPEC_BULK_COPY_IN = {
    "kernel": bulk_copy_in,
    "signature": {"x": "*fp32", "out": "*fp32", "N": "constexpr"},
    "constexprs": {"N": 256},
    "num_warps": 4,
}


def test_bulk_async_load_is_one_bulk_copy_completing_on_the_mbarrier():
    compiled = compile_tutorial(SPEC_BULK_COPY_IN)
    ptx = compiled.asm["ptx"]
    bulk = (
        r"cp\.async\.bulk\.shared::cluster\.global\.mbarrier::complete_tx::bytes "
        r"\[%r\d+\], \[%rd\d+\], %r\d+, \[%r\d+\];"
    )
    assert len(re.findall(bulk, ptx)) == 1, ptx
    assert "mbarrier.try_wait" in ptx
    assert compiled.asm["cubin"][:4] == b"\x7fELF"


@triton.jit
def two_cta_load(desc, out):
    rank = tlx.cluster_cta_rank()
    bufs = tlx.local_alloc((64, 64), tl.float16, 1)
    bars = tlx.alloc_barriers(1)
    leader = rank % 2 == 0
    tlx.barrier_expect_bytes(bars[0], 2 * 64 * 64 * 2, pred=leader)
    tlx.async_descriptor_load(desc, bufs[0], [rank * 64, 0], bars[0], two_ctas=True)
    tlx.barrier_wait(bars[0], 0, pred=leader)
    tl.store(out + tl.arange(0, 64), rank)


SPEC_TWO_CTA_LOAD = {
    "kernel": two_cta_load,
    "signature": {"desc": "tensordesc<fp16[64, 64]>", "out": "*i32"},
    "constexprs": {},
    "num_warps": 4,
    "arch": 100,
    "options": {"ctas_per_cga": (2, 1, 1)},
}


def test_two_cta_tma_load_completes_on_the_even_ctas_mbarrier():
    compiled = compile_tutorial(SPEC_TWO_CTA_LOAD)
    ptx = compiled.asm["ptx"]
    load = (
        r"cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global\.mbarrier::complete_tx::bytes\.cta_group::2 "
        r"\[%r\d+\], \[%rd\d+, \{%r\d+, %r\d+\}\], \[%r\d+\];"
    )
    assert len(re.findall(load, ptx)) == 1, ptx
    assert "%cluster_ctarank" in ptx and "mapa.shared::cluster" in ptx
    assert compiled.asm["cubin"][:4] == b"\x7fELF"


@triton.jit
def suspending_waits(out, EXCLUSIVE: tl.constexpr):
    bars = tlx.alloc_barriers(1)
    with tlx.async_tasks(exclusive=EXCLUSIVE, mbarrier_try_wait_suspend_ns=50000):
        with tlx.async_task("default"):
            tlx.barrier_wait(bars[0], 0)
            tl.store(out + tl.arange(0, 128), tl.zeros([128], dtype=tl.float32))
        with tlx.async_task(num_warps=1):
            tlx.barrier_arrive(bars[0])


SPEC_SUSPENDING_WAITS = {
    "kernel": suspending_waits,
    "signature": {"out": "*fp32"},
    "constexprs": {"EXCLUSIVE": True},
    "num_warps": 4,
    "arch": 100,
}


def test_suspend_time_hint_on_blackwell_only():
    four_operands = r"mbarrier\.try_wait\.parity\.shared::cta\.b64 complete, \[%r\d+\], %r\d+, %r\d+;"
    blackwell = compile_tutorial(SPEC_SUSPENDING_WAITS).asm["ptx"]
    assert re.search(four_operands, blackwell), blackwell
    assert re.search(r"mov\.(b|u)32\s+%r\d+, 50000;", blackwell), blackwell
    hopper = compile_tutorial({**SPEC_SUSPENDING_WAITS, "constexprs": {"EXCLUSIVE": False}}, 90).asm["ptx"]
    assert "mbarrier.try_wait" in hopper and not re.search(four_operands, hopper)


@triton.jit
def hinted_store_of_register_writes(desc, x):
    buf = tlx.local_alloc((64, 64), tl.float16, 1)[0]
    tlx.local_store(buf, tl.load(x + tl.arange(0, 64)[:, None] * 64 + tl.arange(0, 64)[None, :]))
    tlx.fence_async_shared()
    tlx.async_descriptor_store(desc, buf, [0, 0], eviction_policy="evict_first")
    tlx.async_descriptor_store_wait(0)


SPEC_HINTED_STORE_OF_REGISTER_WRITES = {
    "kernel": hinted_store_of_register_writes,
    "signature": {"desc": "tensordesc<fp16[64, 64]>", "x": "*fp16"},
    "constexprs": {},
    "num_warps": 4,
}


def test_a_copy_of_inline_ptx_waits_for_the_ctas_writes_of_its_buffer():
    # Triton's membar analysis orders its own TMA store after every thread's st.shared; it cannot see the
    # buffer read of inline PTX, so the lowering puts the barrier there itself.
    ptx = compile_tutorial(SPEC_HINTED_STORE_OF_REGISTER_WRITES).asm["ptx"]
    store = ptx.index("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group.L2::cache_hint")
    last_write = ptx.rindex("st.shared", 0, store)
    assert re.search(r"bar\.sync\s+0;", ptx[last_write:store]), ptx[last_write:store]


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


SPEC_DESCRIPTOR_SLOTS_COPY = {
    "kernel": descriptor_slots_copy,
    "signature": _COPY_SIGNATURE,
    "constexprs": {"BM": 64, "BN": 64},
    "num_warps": 4,
}


def test_descriptor_slots_are_filled_on_the_device_and_read_back():
    compiled = compile_tutorial(SPEC_DESCRIPTOR_SLOTS_COPY)
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
    ours = compile_kernel(descriptor_slots_copy, _COPY_SIGNATURE, {"BM": 64, "BN": 32}).asm["ttgir"]
    stocks = compile_kernel(device_descriptor_copy, _COPY_SIGNATURE, {"BM": 64, "BN": 32}).asm["ttgir"]
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


SPEC_PINNED_LAYOUT = {
    "kernel": pinned_layout,
    "signature": {"x": "*fp32", "y": "*fp32"},
    "constexprs": {"LAYOUT": ROWS_LAYOUT, "PIN": True},
    "num_warps": 4,
}


def test_a_pinned_layout_holds_through_the_layout_optimizations():
    pinned = compile_tutorial(SPEC_PINNED_LAYOUT).asm["ttgir"]
    assert _LINEAR in pinned
    # The elementwise users of the pinned value are computed in its layout, then converted for the store.
    assert re.search(r"arith\.addf .* : tensor<32x32xf32, #linear>", pinned), pinned
    assert "tlx.layout_marker" not in pinned
    flexible = compile_tutorial({**SPEC_PINNED_LAYOUT, "constexprs": {"LAYOUT": ROWS_LAYOUT, "PIN": False}}).asm[
        "ttgir"
    ]
    assert "#ttg.linear" not in flexible  # Triton's optimizations undo an unpinned requirement here


@triton.jit
def load_in_layout(x, y, LAYOUT: tl.constexpr):
    offs = tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :]
    bufs = tlx.local_alloc((32, 32), tl.float32, 1)
    tlx.local_store(bufs[0], tl.load(x + offs))
    tile = tlx.local_load(bufs[0], layout=LAYOUT)
    tlx.assert_same_layout(tile, LAYOUT)
    tl.store(y + offs, tile + 1.0)


SPEC_LOAD_IN_LAYOUT = {
    "kernel": load_in_layout,
    "signature": {"x": "*fp32", "y": "*fp32"},
    "constexprs": {"LAYOUT": ROWS_LAYOUT},
    "num_warps": 4,
}


def test_local_load_in_a_given_layout():
    compiled = compile_tutorial(SPEC_LOAD_IN_LAYOUT)
    ttgir = compiled.asm["ttgir"]
    assert re.search(r"ttg\.local_load .* -> tensor<32x32xf32, #linear>", ttgir), ttgir
    assert "tlx.layout_marker" not in ttgir and compiled.asm["cubin"][:4] == b"\x7fELF"


@triton.jit
def load_in_a_global_layout(x, y):
    offs = tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :]
    bufs = tlx.local_alloc((32, 32), tl.float32, 1, tlx.storage_kind.smem)
    tlx.local_store(bufs[0], tl.load(x + offs))
    tl.store(y + offs, tlx.local_load(bufs[0], layout=ROWS_LAYOUT) + 1.0)


SPEC_LOAD_IN_A_GLOBAL_LAYOUT = {
    "kernel": load_in_a_global_layout,
    "signature": {"x": "*fp32", "y": "*fp32"},
    "constexprs": {},
    "num_warps": 4,
}


def test_a_layout_kept_in_a_module_global_is_read_by_the_kernel():
    # As the public attention backward keeps `_QK_SEPARABLE_LAYOUT = tlx.layout(...)`: Triton reads a global
    # that is no constexpr only if its value comes from a `triton.language` module.
    compiled = compile_tutorial(SPEC_LOAD_IN_A_GLOBAL_LAYOUT)
    assert re.search(r"ttg\.local_load .* -> tensor<32x32xf32, #linear>", compiled.asm["ttgir"])
    assert type(ROWS_LAYOUT).__module__.startswith("triton.language.extra.tlx")


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
        compile_kernel(layouts_that_differ, {"x": "*fp32", "y": "*fp32"}, {})
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


SPEC_RELEASED_LAYOUT = {
    "kernel": released_layout,
    "signature": {"x": "*fp32", "y": "*fp32"},
    "constexprs": {},
    "num_warps": 4,
}


def test_a_released_layout_ends_the_pin():
    ttgir = compile_tutorial(SPEC_RELEASED_LAYOUT).asm["ttgir"]
    assert re.search(r"arith\.addf .* : tensor<32x32xf32, #linear>", ttgir), ttgir  # before the release
    assert re.search(r"arith\.mulf .* : tensor<32x32xf32, #blocked\d*>", ttgir), ttgir  # after it: Triton's layout
    assert "tlx.layout_marker" not in ttgir


# ------------------------------------------------------------------------------------------------- scale_rows


@triton.jit
def scaled_rows(X, SCALE, Y, M: tl.constexpr, N: tl.constexpr):
    rows = tl.arange(0, M)
    offs = rows[:, None] * N + tl.arange(0, N)[None, :]
    tl.store(Y + offs, tlx.scale_rows(tl.load(X + offs), tl.load(SCALE + rows)))


@triton.jit
def scaled_accumulator(OUT, SCALE):
    """An online softmax's rescale: a wgmma accumulator's rows (r and r + 8 in each thread) by their factors."""
    a = tlx.local_alloc((64, 64), tl.float16, 1)
    b = tlx.local_alloc((64, 128), tl.float16, 1)
    acc = tlx.async_dot_wait(0, tlx.async_dot(a[0], b[0], use_acc=False))
    acc = tlx.scale_rows(acc, tl.load(SCALE + tl.arange(0, 64)))
    tl.store(OUT + tl.arange(0, 64)[:, None] * 128 + tl.arange(0, 128)[None, :], acc)


SCALED_ROWS = {"X": "*fp32", "SCALE": "*fp32", "Y": "*fp32", "M": "constexpr", "N": "constexpr"}


def _skipped_multiplies(ptx: str) -> list[int]:
    """The number of ``mul.f32`` between each uniform branch on a warp's ballot and its target label."""
    return [
        body.count("mul.f32")
        for _, body in re.findall(r"@!p bra\.uni (tlx_scale_rows_\w+);(.*?)\1:", ptx, re.DOTALL)
        if "vote" not in body and "bra" not in body
    ]


SPEC_SCALED_ROWS = {"kernel": scaled_rows, "signature": SCALED_ROWS, "constexprs": {"M": 64, "N": 32}, "num_warps": 4}


@pytest.mark.parametrize("capability", [90, 100])
def test_scale_rows_branches_around_its_multiplies_on_the_warps_ballot(capability):
    compiled = compile_tutorial(SPEC_SCALED_ROWS, capability)
    ptx = compiled.asm["ptx"]
    assert ptx.count("vote.sync.ballot.b32") == 1, ptx
    assert _skipped_multiplies(ptx) == [64 * 32 // 128], ptx  # every element a thread holds, once
    assert "tlx.layout_marker" not in compiled.asm["ttgir"]


SPEC_SCALED_ACCUMULATOR = {
    "kernel": scaled_accumulator,
    "signature": {"OUT": "*fp32", "SCALE": "*fp32"},
    "constexprs": {},
    "num_warps": 4,
}


def test_scale_rows_of_a_wgmma_accumulator_votes_over_the_two_rows_a_thread_holds():
    compiled = compile_tutorial(SPEC_SCALED_ACCUMULATOR)
    ptx = compiled.asm["ptx"]
    assert ptx.count("vote.sync.ballot.b32") == 1 and "or.b32 any, any," in ptx, ptx
    assert _skipped_multiplies(ptx) == [64 * 128 // 128], ptx
    scaled = r"packed_element = 64 : i32, pure = false\} %\S+, %\S+, %\S+ : tensor<64x128xf32, #mma"
    assert re.search(scaled, compiled.asm["ttgir"])
    # ptxas keeps the branch: the multiplies lie between a branch and its target.
    from tlx.testing.sass import forward_branches, instructions, opcode, sass_of

    sass = sass_of(compiled.asm["cubin"])
    listing = instructions(sass)
    skipped = [
        sum(opcode(text) == "FMUL" for _, text in listing[branch + 1 : target])
        for branch, target in forward_branches(sass)
    ]
    assert 64 in skipped, skipped


@pytest.mark.gpu
@gpus.hopper
def test_scale_rows_on_gpu():
    import torch

    m, n = 64, 32
    x = torch.randn(m, n, device="cuda")
    cases = {
        "all ones": torch.ones(m, device="cuda"),
        "some rows": torch.where(torch.arange(m, device="cuda") % 23 == 5, torch.rand(m, device="cuda"), 1.0),
        "every row": torch.rand(m, device="cuda") + 0.5,
        "infinities": torch.where(torch.arange(m, device="cuda") == 40, float("inf"), 1.0),
    }
    for name, scale in cases.items():
        y = torch.full_like(x, float("nan"))
        scaled_rows[(1,)](x, scale, y, M=m, N=n, num_warps=4)
        assert torch.equal(y, x * scale[:, None]), name  # float32 products, rounded as mul.f32 rounds them
