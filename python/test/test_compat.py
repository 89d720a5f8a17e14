"""Kernels written the way the public TLX API's users write them, compiled here unchanged.

Our own kernels, in the public API's idiom (facebookexperimental/triton, third_party/tlx): ``import
triton.language.extra.tlx as tlx``, keyword arguments with the public names, replicated consumers that
branch on a constexpr replica id, ``num_regs``, warp barriers, per-stage ``local_view`` of barrier sets,
a 2-CTA cluster GEMM launched with ``ctas_per_cga`` through ``triton.Config``. On the CPU each compiles to
a cubin with the instructions it relies on; with a GPU (marker ``gpu``) each computes what torch computes.
The ``SPEC_*`` dicts (a tutorial's SPEC form) are also seeds of ``tlx.testing.kernel_fuzz --seed-module``.
"""

import importlib
import re

import gpus
import pytest
import triton
import triton.language as tl

from tlx.tutorials import compile_tutorial

# `import triton.language.extra.tlx as tlx`, the public API's spelling; importing `tlx` first installs that
# name where no .pth does (the GPU harness stages tlx on PYTHONPATH).
importlib.import_module("tlx")
tlx = importlib.import_module("triton.language.extra.tlx")


@triton.jit
def _bufidx_phase(accum_cnt, NUM_BUFFERS: tl.constexpr):
    return accum_cnt % NUM_BUFFERS, (accum_cnt // NUM_BUFFERS) & 1


@triton.jit
def ws_gemm_public_idiom(
    a_desc,
    b_desc,
    c_desc,
    M,
    N,
    K,
    BM: tl.constexpr,
    BN: tl.constexpr,
    BK: tl.constexpr,
    NUM_STAGES: tl.constexpr,
    NUM_CTAS: tl.constexpr,
    USE_WARP_BARRIER: tl.constexpr,
    CHOOSE_HALF: tl.constexpr = False,
):
    """Warp-specialized GEMM: one TMA producer, two consumers each on half of BM, in clusters of NUM_CTAS.
    ``CHOOSE_HALF``: each CTA picks its half of B in an ``if`` and issues one multicast load after it (as the
    public ``hopper_gemm_ws`` does), instead of a load in each branch."""
    BLOCK_M_SPLIT: tl.constexpr = BM // 2
    a = tlx.local_alloc((BLOCK_M_SPLIT, BK), tlx.dtype_of(a_desc), NUM_STAGES * 2)
    b = tlx.local_alloc((BK, BN), tlx.dtype_of(b_desc), NUM_STAGES)
    if USE_WARP_BARRIER:
        # Every consumer thread arrives (warp barriers are this CTA's only: not with NUM_CTAS=2).
        bars_empty = tlx.alloc_warp_barrier(num_barriers=NUM_STAGES, num_warps=4, num_arrivals=2)
    else:
        bars_empty = tlx.alloc_barriers(num_barriers=NUM_STAGES, arrive_count=2 * NUM_CTAS)
    bars_full = tlx.alloc_barriers(num_barriers=NUM_STAGES, arrive_count=1)
    done = tlx.alloc_barriers(num_barriers=1, arrive_count=2)
    if NUM_CTAS == 2:
        tlx.fence_mbarrier_init_cluster()
    cta = tlx.cluster_cta_rank() if NUM_CTAS == 2 else 0
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offset_am = pid_m * BM
    offset_bn = pid_n * BN
    with tlx.async_tasks():
        with tlx.async_task("default"):
            if NUM_CTAS == 2:
                tlx.cluster_barrier()
            for k in range(0, tl.cdiv(K, BK)):
                buf, p = _bufidx_phase(k, NUM_STAGES)
                tlx.barrier_wait(bar=tlx.local_view(bars_empty, buf), phase=p ^ 1)
                full = tlx.local_view(bars_full, buf)
                tlx.barrier_expect_bytes(full, (BM * BK + BK * BN) * tlx.size_of(tlx.dtype_of(a_desc)))
                for part in tl.static_range(2):
                    tlx.async_descriptor_load(
                        a_desc,
                        result=tlx.local_view(a, buf * 2 + part),
                        offsets=[offset_am + part * BLOCK_M_SPLIT, k * BK],
                        barrier=full,
                    )
                if NUM_CTAS == 2 and CHOOSE_HALF:
                    if cta == 0:
                        half = tlx.local_slice(tlx.local_view(b, buf), [0, 0], [BK, BN // 2])
                    else:
                        half = tlx.local_slice(tlx.local_view(b, buf), [0, BN // 2], [BK, BN // 2])
                    tlx.async_descriptor_load(
                        b_desc, half, [k * BK, offset_bn + cta * (BN // 2)], full, multicast_targets=[cta, cta ^ 1]
                    )
                elif NUM_CTAS == 2:
                    if cta == 0:
                        tlx.async_descriptor_load(
                            b_desc,
                            tlx.local_slice(tlx.local_view(b, buf), [0, 0], [BK, BN // 2]),
                            [k * BK, offset_bn],
                            full,
                            multicast_targets=[cta, cta ^ 1],
                        )
                    else:
                        tlx.async_descriptor_load(
                            b_desc,
                            tlx.local_slice(tlx.local_view(b, buf), [0, BN // 2], [BK, BN // 2]),
                            [k * BK, offset_bn + BN // 2],
                            full,
                            multicast_targets=[cta, cta ^ 1],
                        )
                else:
                    tlx.async_descriptor_load(b_desc, tlx.local_view(b, buf), [k * BK, offset_bn], full)
            if NUM_CTAS == 2:
                tlx.barrier_wait(done[0], 0)
        with tlx.async_task(num_warps=4, num_regs=232, replicate=2):
            cid: tl.constexpr = tlx.async_task_replica_id()
            if NUM_CTAS == 2:
                tlx.cluster_barrier()
            acc = tl.zeros([BLOCK_M_SPLIT, BN], dtype=tl.float32)
            for k in range(0, tl.cdiv(K, BK)):
                buf, p = _bufidx_phase(k, NUM_STAGES)
                tlx.barrier_wait(bar=tlx.local_view(bars_full, buf), phase=p)
                acc = tlx.async_dot(tlx.local_view(a, buf * 2 + cid), tlx.local_view(b, buf), acc)
                acc = tlx.async_dot_wait(tl.constexpr(0), acc)
                empty = tlx.local_view(bars_empty, buf)
                tlx.barrier_arrive(empty)
                if NUM_CTAS == 2:
                    tlx.barrier_arrive(empty, 1, remote_cta_rank=cta ^ 1)
            c_desc.store([offset_am + BLOCK_M_SPLIT * cid, offset_bn], acc.to(tlx.dtype_of(c_desc)))
            if NUM_CTAS == 2:
                tlx.barrier_arrive(done[0], remote_cta_rank=cta ^ 1)


CONFIG = {"BM": 128, "BN": 128, "BK": 64, "NUM_STAGES": 3}


def _gemm_spec(num_ctas: int, warp_barrier: bool, choose_half: bool = False) -> dict:
    return {
        "kernel": ws_gemm_public_idiom,
        "signature": {
            "a_desc": "tensordesc<fp16[64, 64]>",
            "b_desc": f"tensordesc<fp16[64, {128 // num_ctas}]>",
            "c_desc": "tensordesc<fp16[64, 128]>",
            "M": "i32",
            "N": "i32",
            "K": "i32",
        },
        "constexprs": {**CONFIG, "NUM_CTAS": num_ctas, "USE_WARP_BARRIER": warp_barrier, "CHOOSE_HALF": choose_half},
        "num_warps": 4,
        "options": {"ctas_per_cga": (2, 1, 1)} if num_ctas == 2 else {},
    }


SPEC_GEMM = _gemm_spec(1, warp_barrier=False)
SPEC_GEMM_WARP_BARRIER = _gemm_spec(1, warp_barrier=True)
SPEC_GEMM_CLUSTER = _gemm_spec(2, warp_barrier=False)
SPEC_GEMM_CLUSTER_CHOOSING_A_HALF = _gemm_spec(2, warp_barrier=False, choose_half=True)
GEMM_SPECS = ["SPEC_GEMM", "SPEC_GEMM_WARP_BARRIER", "SPEC_GEMM_CLUSTER", "SPEC_GEMM_CLUSTER_CHOOSING_A_HALF"]


@pytest.mark.parametrize("name", GEMM_SPECS)
def test_public_idiom_gemm_compiles(name):
    spec = globals()[name]
    compiled = compile_tutorial(spec)
    ptx = compiled.asm["ptx"]
    assert "wgmma.mma_async" in ptx and re.search(r"setmaxnreg\.inc\.sync\.aligned\.u32\s+232;", ptx)
    assert "cp.async.bulk.tensor.2d.shared::cluster.global" in ptx
    if spec["constexprs"]["USE_WARP_BARRIER"]:
        # 4 warps x 32 threads x 2 consumers: every thread arrives.
        assert re.search(r"mbarrier\.init\.shared(::cta)?\.b64 \[[^\]]+\], 256;", ptx), ptx[:3000]
    if spec["constexprs"]["NUM_CTAS"] == 2:
        assert compiled.metadata.ctas_per_cga == (2, 1, 1)
        assert "multicast::cluster" in ptx and "mapa.shared::cluster" in ptx


@triton.autotune(
    configs=[
        triton.Config({**CONFIG, "NUM_CTAS": 2, "USE_WARP_BARRIER": False}, num_warps=4, ctas_per_cga=(2, 1, 1)),
        triton.Config({**CONFIG, "NUM_CTAS": 1, "USE_WARP_BARRIER": True}, num_warps=4),
    ],
    key=["M", "N", "K"],
)
@triton.jit
def autotuned_gemm(a_desc, b_desc, c_desc, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                   NUM_STAGES: tl.constexpr, NUM_CTAS: tl.constexpr, USE_WARP_BARRIER: tl.constexpr):  # fmt: skip
    ws_gemm_public_idiom(a_desc, b_desc, c_desc, M, N, K, BM, BN, BK, NUM_STAGES, NUM_CTAS, USE_WARP_BARRIER)


@pytest.mark.gpu
@gpus.cuda
@pytest.mark.parametrize("name", GEMM_SPECS)
def test_public_idiom_gemm_on_gpu(name):
    import torch
    from triton.tools.tensor_descriptor import TensorDescriptor

    spec = globals()[name]
    num_ctas = spec["constexprs"]["NUM_CTAS"]
    m, n, k = 512, 384, 640
    a = torch.randn(m, k, device="cuda", dtype=torch.float16)
    b = torch.randn(k, n, device="cuda", dtype=torch.float16)
    c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float16)
    a_desc = TensorDescriptor.from_tensor(a, [64, 64])
    b_desc = TensorDescriptor.from_tensor(b, [64, 128 // num_ctas])
    c_desc = TensorDescriptor.from_tensor(c, [64, 128])
    grid = (m // 128, n // 128)
    ws_gemm_public_idiom[grid](
        a_desc, b_desc, c_desc, m, n, k, **spec["constexprs"], num_warps=spec["num_warps"], **spec["options"]
    )
    ref = a.double() @ b.double()
    assert float((c.double() - ref).norm() / ref.norm()) < 1e-2


@pytest.mark.gpu
@gpus.cuda
def test_public_idiom_autotune_with_ctas_per_cga_on_gpu():
    import torch
    from triton.tools.tensor_descriptor import TensorDescriptor

    m, n, k = 512, 384, 640
    a = torch.randn(m, k, device="cuda", dtype=torch.float16)
    b = torch.randn(k, n, device="cuda", dtype=torch.float16)
    c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float16)

    # Both configurations' descriptors: the B block differs, so the pre-hook sets it as public kernels do.
    def set_blocks(nargs):
        nargs["b_desc"].block_shape = [64, 128 // nargs["NUM_CTAS"]]

    for config in autotuned_gemm.configs:
        config.pre_hook = set_blocks
    a_desc = TensorDescriptor.from_tensor(a, [64, 64])
    b_desc = TensorDescriptor.from_tensor(b, [64, 64])
    c_desc = TensorDescriptor.from_tensor(c, [64, 128])
    autotuned_gemm[(m // 128, n // 128)](a_desc, b_desc, c_desc, m, n, k)
    ref = a.double() @ b.double()
    assert float((c.double() - ref).norm() / ref.norm()) < 1e-2


@triton.jit
def cluster_row_sum(x, out, M: tl.constexpr, N: tl.constexpr, NUM_CTAS: tl.constexpr):
    """Row sums of an M x N matrix whose columns are split over a cluster: each CTA sends its partial sums to
    CTA 0 with async_remote_shmem_store, which waits on one mbarrier per sender."""
    BLOCK_N: tl.constexpr = N // NUM_CTAS
    partials = tlx.local_alloc((M,), tl.float32, NUM_CTAS)
    barriers = tlx.alloc_barriers(num_barriers=NUM_CTAS)
    for i in tl.static_range(1, NUM_CTAS):
        tlx.barrier_expect_bytes(barriers[i], M * tlx.size_of(tl.float32))
    tlx.fence_mbarrier_init_cluster()
    tlx.cluster_barrier()
    cta_rank = tlx.cluster_cta_rank()
    offs_m = tl.arange(0, M)
    offs_n = cta_rank * BLOCK_N + tl.arange(0, BLOCK_N)
    local_sum = tl.sum(tl.load(x + offs_m[:, None] * N + offs_n[None, :]), axis=1)
    if cta_rank != 0:
        tlx.async_remote_shmem_store(
            dst=partials[cta_rank], src=local_sum, remote_cta_rank=0, barrier=barriers[cta_rank]
        )
    if cta_rank == 0:
        total = local_sum
        for i in tl.static_range(1, NUM_CTAS):
            tlx.barrier_wait(barriers[i], phase=0)
            total += tlx.local_load(partials[i])
        tl.store(out + offs_m, total)


SPEC_CLUSTER_ROW_SUM = {
    "kernel": cluster_row_sum,
    "signature": {"x": "*fp32", "out": "*fp32"},
    "constexprs": {"M": 64, "N": 256, "NUM_CTAS": 4},
    "num_warps": 1,
    "options": {"ctas_per_cga": (4, 1, 1)},
}


def test_async_remote_shmem_store_counts_each_byte_once():
    """A sum tensor is held by many threads at once: the PTX stores each 32-bit word from one thread."""
    ptx = compile_tutorial(SPEC_CLUSTER_ROW_SUM).asm["ptx"]
    assert "st.async.shared::cluster.mbarrier::complete_tx::bytes.b32" in ptx


@pytest.mark.gpu
@gpus.cuda
@pytest.mark.parametrize("num_ctas, num_warps", [(2, 1), (4, 4)])
def test_cluster_row_sum_on_gpu(num_ctas, num_warps):
    import torch

    m, n = 64, 256
    x = torch.randn(m, n, device="cuda")
    out = torch.full((m,), float("nan"), device="cuda")
    cluster_row_sum[(num_ctas,)](x, out, M=m, N=n, NUM_CTAS=num_ctas, num_warps=num_warps,
                                 ctas_per_cga=(num_ctas, 1, 1))  # fmt: skip
    torch.testing.assert_close(out, x.double().sum(1).float(), rtol=1e-5, atol=1e-4)


@triton.jit
def peer_handshake_from_a_one_warp_task(x, out, N: tl.constexpr):
    """Each CTA's one-warp task arrives on the peer CTA's mbarrier; the default task waits for that arrival,
    then stores. The cluster barrier TLX inserts after the mbarrier init must be passed by every warp: the
    3 warps Triton would leave idle beside the one-warp task get a task of their own that passes it."""
    arrived = tlx.alloc_barriers(1, arrive_count=1)
    rank = tlx.cluster_cta_rank()
    with tlx.async_tasks():
        with tlx.async_task("default"):
            tlx.barrier_wait(arrived[0], 0)
            offs = tl.program_id(0) * N + tl.arange(0, N)
            tl.store(out + offs, tl.load(x + offs) + rank)
        with tlx.async_task(num_warps=1):
            tlx.barrier_arrive(arrived[0], 1, remote_cta_rank=rank ^ 1)


def _pair_spec(kernel) -> dict:
    """``kernel(x, out, N)`` in clusters of two CTAs of 4 warps."""
    return {
        "kernel": kernel,
        "signature": {"x": "*fp32", "out": "*fp32"},
        "constexprs": {"N": 128},
        "num_warps": 4,
        "options": {"ctas_per_cga": (2, 1, 1)},
    }


SPEC_PEER_HANDSHAKE = _pair_spec(peer_handshake_from_a_one_warp_task)


def test_one_warp_task_leaves_no_warp_outside_the_init_cluster_barrier():
    compiled = compile_tutorial(SPEC_PEER_HANDSHAKE)
    partitions = sorted(int(n) for n in re.findall(r"num_warps\((\d+)\)", compiled.asm["ttgir"]))
    assert partitions == [1, 1, 2], partitions  # the task, and the idle warps' 2 + 1
    ptx = compiled.asm["ptx"]
    assert ".reqntid 256" in ptx  # 4 + 4 warps: no more than without the added tasks
    assert ptx.count("barrier.cluster.arrive.aligned;") == ptx.count("barrier.cluster.wait.aligned;") == 4


@triton.jit
def warp_barrier_on_the_leader(x, out, N: tl.constexpr):
    """The public 2-CTA GEMM's epilogue idiom: every thread of both CTAs arrives on CTA 0's warp barrier
    (`tlx.alloc_warp_barrier` counts each thread of 4 warps, once per CTA), CTA 0 waits for all 256
    arrivals, then stores; CTA 1 stores without waiting."""
    released = tlx.alloc_warp_barrier(1, num_warps=4, num_arrivals=2)
    rank = tlx.cluster_cta_rank()
    tlx.barrier_arrive(released[0], 1, remote_cta_rank=0)
    if rank == 0:
        tlx.barrier_wait(released[0], 0)
    offs = tl.program_id(0) * N + tl.arange(0, N)
    tl.store(out + offs, tl.load(x + offs) + rank)


SPEC_WARP_BARRIER_ON_THE_LEADER = _pair_spec(warp_barrier_on_the_leader)


def test_a_warp_barrier_arrives_from_every_thread_on_another_cta():
    ptx = compile_tutorial(SPEC_WARP_BARRIER_ON_THE_LEADER).asm["ptx"]
    assert re.search(r"mbarrier\.init\.shared(::cta)?\.b64 \[[^\]]+\], 256;", ptx), "4 warps x 32 threads x 2"
    arrive = re.search(r"^\s*@(%p\d+) mbarrier\.arrive\.shared::cluster\.b64 _, \[(%r\d+)\], %r\d+;", ptx, re.M)
    assert arrive, ptx
    predicate, address = arrive.groups()
    assert re.search(rf"mapa\.shared::cluster\.u32\s+{address},", ptx), "the peer's address"
    # Every thread arrives: the predicate is the constant true, not a test of the thread's index.
    assert re.search(rf"mov\.pred\s+{predicate}, -1;", ptx), ptx


# Each CTA of a cluster of two adds its rank once the peer's arrival releases it: a one-thread remote arrive on
# the warp barrier would leave CTA 0 waiting for 255 more arrivals.
@pytest.mark.gpu
@gpus.cuda
@pytest.mark.parametrize("kernel", ["peer_handshake_from_a_one_warp_task", "warp_barrier_on_the_leader"])
def test_cluster_handshakes_on_gpu(kernel):
    import torch

    x = torch.randn(4 * 128, device="cuda")
    out = torch.full_like(x, float("nan"))
    globals()[kernel][(4,)](x, out, N=128, num_warps=4, ctas_per_cga=(2, 1, 1))
    torch.cuda.synchronize()
    rank = torch.arange(4, device="cuda").repeat_interleave(128) % 2
    torch.testing.assert_close(out, x + rank)


@triton.jit
def diagonal_gather_scatter(matrix_ptr, indices_ptr, values_ptr, out_ptr, N: tl.constexpr, M: tl.constexpr):
    """The diagonal of an N x M matrix held flat in shared memory (local_gather), then the diagonal replaced
    (local_scatter) and the whole matrix written back."""
    flat = tlx.local_alloc((N * M,), tlx.dtype_of(matrix_ptr), 1)
    smem = tlx.local_view(flat, 0)
    rows, cols = tl.arange(0, N), tl.arange(0, M)
    tlx.local_store(smem, tl.load(matrix_ptr + rows[:, None] * M + cols[None, :]).reshape((N * M,)))
    indices = tl.load(indices_ptr + rows)
    tl.store(out_ptr + rows, tlx.local_gather(smem, indices, 0))
    tlx.local_scatter(smem, tl.load(values_ptr + rows), indices, 0)
    tl.store(out_ptr + N + tl.arange(0, N * M), tlx.local_load(smem))


@pytest.mark.gpu
@gpus.cuda
@pytest.mark.parametrize("n, num_warps", [(32, 1), (64, 4)])
def test_gather_scatter_on_gpu(n, num_warps):
    import torch

    matrix = torch.randn(n, n, device="cuda")
    indices = torch.randperm(n * n, device="cuda")[:n].to(torch.int32)
    values = torch.randn(n, device="cuda")
    out = torch.full((n + n * n,), float("nan"), device="cuda")
    diagonal_gather_scatter[(1,)](matrix, indices, values, out, N=n, M=n, num_warps=num_warps)
    expected_flat = matrix.flatten().clone()
    expected_flat[indices.long()] = values
    torch.testing.assert_close(out[:n], matrix.flatten()[indices.long()])
    torch.testing.assert_close(out[n:], expected_flat)


@pytest.mark.gpu
@gpus.cuda
def test_local_reshape_on_gpu():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    import torch
    from test_ops_ptx import reshaped_views

    m = n = 64
    out = torch.full((m * n + m // 2 * n,), float("nan"), device="cuda")
    reshaped_views[(1,)](out, M=m, N=n)
    torch.testing.assert_close(out[: m * n], torch.arange(m * n, device="cuda", dtype=torch.float32))
    torch.testing.assert_close(out[m * n :], torch.full((m // 2 * n,), 2.0, device="cuda"))


@pytest.mark.gpu
@gpus.cuda
def test_device_made_descriptors_on_gpu():
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    import torch
    from test_ops_ptx import device_descriptor_copy

    def alloc(size, alignment, stream):
        return torch.empty(size, dtype=torch.int8, device="cuda")

    triton.set_allocator(alloc)
    m, n = 512, 64
    x = torch.randn(m, n, device="cuda", dtype=torch.float16)
    y = torch.full_like(x, float("nan"))
    device_descriptor_copy[(m // 64,)](x, y, m, n, BM=64, BN=64)
    assert torch.equal(x, y)


@triton.jit
def grouped_gemm_descriptor_slots(
    group_a_ptrs,
    group_b_ptrs,
    group_c_ptrs,
    group_gemm_sizes,
    g_lds,
    BM: tl.constexpr,
    BN: tl.constexpr,
    BK: tl.constexpr,
):
    """C_g = A_g @ B_g for each group g (fp16, row-major, sizes and leading dimensions per group), one BM x BN
    tile of one group per program. The program writes its group's three TMA descriptors into descriptor
    slots of its own and copies through the descriptors it reads back from them (the public grouped GEMM's
    idiom); tiles past a group's edges load zeros and store nothing (TMA bounds)."""
    g = tl.program_id(1)
    a_ptr = tl.load(group_a_ptrs + g).to(tl.pointer_type(tl.float16))
    b_ptr = tl.load(group_b_ptrs + g).to(tl.pointer_type(tl.float16))
    c_ptr = tl.load(group_c_ptrs + g).to(tl.pointer_type(tl.float16))
    gm = tl.load(group_gemm_sizes + g * 3)
    gn = tl.load(group_gemm_sizes + g * 3 + 1)
    gk = tl.load(group_gemm_sizes + g * 3 + 2)
    lda = tl.load(g_lds + g * 3)
    ldb = tl.load(g_lds + g * 3 + 1)
    ldc = tl.load(g_lds + g * 3 + 2)

    desc_ptrs = tlx.allocate_tensor_descriptor(num=3)
    tlx.make_tensor_descriptor(
        desc_ptr=desc_ptrs[0], base=a_ptr, shape=[gm, gk], strides=[lda, 1], block_shape=[BM, BK]
    )
    tlx.make_tensor_descriptor(
        desc_ptr=desc_ptrs[1], base=b_ptr, shape=[gk, gn], strides=[ldb, 1], block_shape=[BK, BN]
    )
    tlx.make_tensor_descriptor(
        desc_ptr=desc_ptrs[2], base=c_ptr, shape=[gm, gn], strides=[ldc, 1], block_shape=[BM, BN]
    )
    a_desc = tlx.reinterpret_tensor_descriptor(desc_ptr=desc_ptrs[0], block_shape=[BM, BK], dtype=tl.float16)
    b_desc = tlx.reinterpret_tensor_descriptor(desc_ptr=desc_ptrs[1], block_shape=[BK, BN], dtype=tl.float16)
    c_desc = tlx.reinterpret_tensor_descriptor(desc_ptr=desc_ptrs[2], block_shape=[BM, BN], dtype=tl.float16)

    a_smem = tlx.local_alloc((BM, BK), tl.float16, 1)
    b_smem = tlx.local_alloc((BK, BN), tl.float16, 1)
    c_smem = tlx.local_alloc((BM, BN), tl.float16, 1)
    bar = tlx.alloc_barriers(num_barriers=1)
    num_n = tl.cdiv(gn, BN)
    off_m = (tl.program_id(0) // num_n) * BM
    off_n = (tl.program_id(0) % num_n) * BN
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    phase = 0
    for k in range(0, tl.cdiv(gk, BK)):
        tlx.barrier_expect_bytes(bar[0], (BM * BK + BK * BN) * 2)
        tlx.async_descriptor_load(a_desc, a_smem[0], [off_m, k * BK], bar[0])
        tlx.async_descriptor_load(b_desc, b_smem[0], [k * BK, off_n], bar[0])
        tlx.barrier_wait(bar[0], phase)
        phase ^= 1
        acc = tlx.async_dot(a_smem[0], b_smem[0], acc)
        acc = tlx.async_dot_wait(0, acc)
    tlx.local_store(c_smem[0], acc.to(tl.float16))
    tlx.fence_async_shared()
    tlx.async_descriptor_store(c_desc, c_smem[0], [off_m, off_n])
    tlx.async_descriptor_store_wait(0)


GROUPED_CONFIG = {"BM": 64, "BN": 128, "BK": 64}
SPEC_GROUPED_GEMM_DESCRIPTOR_SLOTS = {
    "kernel": grouped_gemm_descriptor_slots,
    "signature": {
        "group_a_ptrs": "*i64",
        "group_b_ptrs": "*i64",
        "group_c_ptrs": "*i64",
        "group_gemm_sizes": "*i32",
        "g_lds": "*i32",
    },
    "constexprs": GROUPED_CONFIG,
    "num_warps": 4,
}


def test_grouped_gemm_with_descriptor_slots_compiles():
    compiled = compile_tutorial(SPEC_GROUPED_GEMM_DESCRIPTOR_SLOTS)
    ptx = compiled.asm["ptx"]
    # Three descriptors written into the program's slots (3 x 128 bytes of global scratch), then used by TMA.
    assert compiled.metadata.global_scratch_size == 3 * 128
    assert ptx.count("tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu") == 3
    assert ptx.count("fence.proxy.tensormap::generic.acquire.gpu") == 3
    assert "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes" in ptx
    assert "cp.async.bulk.tensor.2d.global.shared::cta" in ptx
    assert "wgmma.mma_async" in ptx


@pytest.mark.gpu
@gpus.cuda
def test_grouped_gemm_with_descriptor_slots_on_gpu():
    import torch

    def alloc(size, alignment, stream):
        return torch.empty(size, dtype=torch.int8, device="cuda")

    triton.set_allocator(alloc)
    shapes = [(192, 256, 128), (64, 128, 320), (320, 384, 64), (128, 136, 200)]  # M, N, K: ragged edges too
    a = [torch.randn(m, k, device="cuda", dtype=torch.float16) for m, _, k in shapes]
    b = [torch.randn(k, n, device="cuda", dtype=torch.float16) for _, n, k in shapes]
    c = [torch.full((m, n), float("nan"), device="cuda", dtype=torch.float16) for m, n, _ in shapes]
    ptrs = [torch.tensor([t.data_ptr() for t in ts], device="cuda", dtype=torch.int64) for ts in (a, b, c)]
    sizes = torch.tensor([d for s in shapes for d in s], device="cuda", dtype=torch.int32)
    lds = torch.tensor([d for m, n, k in shapes for d in (k, n, n)], device="cuda", dtype=torch.int32)
    bm, bn = GROUPED_CONFIG["BM"], GROUPED_CONFIG["BN"]
    tiles = max(triton.cdiv(m, bm) * triton.cdiv(n, bn) for m, n, _ in shapes)
    grouped_gemm_descriptor_slots[(tiles, len(shapes))](*ptrs, sizes, lds, **GROUPED_CONFIG, num_warps=4)
    torch.cuda.synchronize()
    for group, (ai, bi, ci) in enumerate(zip(a, b, c, strict=True)):
        ref = ai.double() @ bi.double()
        assert not ci.isnan().any(), f"group {group}: tiles left unwritten"
        assert float((ci.double() - ref).norm() / ref.norm()) < 1e-2, f"group {group}"


@pytest.mark.gpu
@gpus.cuda
@pytest.mark.parametrize("pin", [True, False])
def test_pinned_layout_keeps_the_values_on_gpu(pin):
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    import torch
    from test_ops_ptx import ROWS_LAYOUT, load_in_layout, pinned_layout

    x = torch.randn(32, 32, device="cuda")
    y = torch.full_like(x, float("nan"))
    pinned_layout[(1,)](x, y, LAYOUT=ROWS_LAYOUT, PIN=pin)
    torch.testing.assert_close(y, x * 2 + 1)
    z = torch.full_like(x, float("nan"))
    load_in_layout[(1,)](x, z, LAYOUT=ROWS_LAYOUT)
    torch.testing.assert_close(z, x + 1)


def test_host_code_asks_the_target_for_its_backend_as_on_the_fork():
    """Public tutorials call ``driver.active.get_current_target().is_cuda_backend()`` when imported."""
    from triton.backends.compiler import GPUTarget

    assert GPUTarget("cuda", 90, 32).is_cuda_backend()
    assert GPUTarget("tileir", 100, 32).is_cuda_backend()
    assert not GPUTarget("hip", "gfx942", 64).is_cuda_backend()


class _E8M0:
    def __str__(self) -> str:
        return "torch.float8_e8m0fnu"


class _MXScales:
    """What the specializer reads of a CUDA tensor of ``torch.float8_e8m0fnu`` (no torch needed)."""

    dtype = _E8M0()

    def data_ptr(self) -> int:
        return 256


@triton.jit
def weighted_rows(x, out, N: tl.constexpr, B: tl.constexpr):
    offs = tl.arange(0, B)
    rows = [tl.load(x + i * B + offs) * (i + 1) for i in range(N)]
    total = rows[0]
    for i in tl.static_range(1, N):
        total += rows[i]
    tl.store(out + offs, total)


@triton.jit
def comprehension_over_a_runtime_range(x, out, n):
    rows = [tl.load(x + i) for i in range(n)]
    tl.store(out, rows[0])


def test_a_list_comprehension_over_a_constexpr_range_unrolls_as_on_the_fork():
    spec = {"kernel": weighted_rows, "signature": {"x": "*fp32", "out": "*fp32"}, "constexprs": {"N": 3, "B": 64}}
    assert compile_tutorial({**spec, "num_warps": 4}).asm["ttir"].count("tt.load") == 3
    runtime_range = {
        "kernel": comprehension_over_a_runtime_range,
        "signature": {"x": "*fp32", "out": "*fp32", "n": "i32"},
    }
    with pytest.raises(triton.CompilationError, match="bounds must be constexpr ints"):
        compile_tutorial({**runtime_range, "constexprs": {}, "num_warps": 4})


@pytest.mark.gpu
@gpus.cuda
def test_a_list_comprehension_over_a_constexpr_range_on_gpu():
    import torch

    x = torch.randn(3, 64, device="cuda")
    out = torch.full((64,), float("nan"), device="cuda")
    weighted_rows[(1,)](x, out, N=3, B=64)
    weights = torch.arange(1, 4, dtype=torch.float64, device="cuda")[:, None]
    torch.testing.assert_close(out.double(), (x.double() * weights).sum(0), rtol=1e-5, atol=1e-6)  # fp32 sums


@triton.jit
def view_carried_by_a_loop(x, out, n, N: tl.constexpr):
    """The public Blackwell GDPA's idiom: a view taken before the loop and again in its body, used one iteration
    later (`v_view`). Each step adds one to the previous buffer's values."""
    bufs = tlx.local_alloc((N,), tl.float32, 2)
    view = tlx.local_view(bufs, 0)
    tlx.local_store(view, tl.load(x + tl.arange(0, N)))
    for i in range(1, n):
        following = tlx.local_view(bufs, i % 2)
        tlx.local_store(following, tlx.local_load(view) + 1)
        view = following
    tl.store(out + tl.arange(0, N), tlx.local_load(view))


SPEC_VIEW_CARRIED_BY_A_LOOP = {
    "kernel": view_carried_by_a_loop,
    "signature": {"x": "*fp32", "out": "*fp32", "n": "i32"},
    "constexprs": {"N": 128},
    "num_warps": 4,
}


def test_a_view_carried_by_a_loop_is_carried_as_its_index():
    ttgir = compile_tutorial(SPEC_VIEW_CARRIED_BY_A_LOOP).asm["ttgir"]
    loop = re.search(r"scf\.for .* -> \(i32\)", ttgir)
    assert loop, ttgir  # the loop carries the buffer's index, not a handle
    assert ttgir.count("ttg.memdesc_index") >= 3  # before, inside and after the loop


@pytest.mark.gpu
@gpus.cuda
@pytest.mark.parametrize("n", [1, 2, 5])
def test_a_view_carried_by_a_loop_on_gpu(n):
    import torch

    x = torch.randn(128, device="cuda")
    out = torch.full_like(x, float("nan"))
    view_carried_by_a_loop[(1,)](x, out, n, N=128)
    torch.testing.assert_close(out, x + (n - 1))


def test_mx_scale_tensors_specialize_as_bytes_as_on_the_fork():
    """Public MX GEMMs pass ``torch.float8_e8m0fnu`` scale tensors; the fork specializes them as ``*u8``."""
    from triton._C.libtriton import native_specialize_impl
    from triton.backends.compiler import BaseBackend

    assert native_specialize_impl(BaseBackend, _MXScales(), False, True, True)[0] == "*u8"
