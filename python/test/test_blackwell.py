"""Blackwell (sm_100a), compiled on the CPU: tensor memory and tcgen05 reach the PTX they promise.

No Blackwell GPU here: every kernel compiles to an sm_100a cubin with stock triton's ptxas and the PTX is
checked for the tcgen05 instructions (alloc, st, ld, mma, commit). The `SPEC_*` dicts (a tutorial's SPEC
form, with `arch` 100) are also seeds of `tlx.testing.kernel_fuzz --seed-module`.
"""

import inspect
import re

import pytest
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget

import tlx
from tlx.compiler import TLXCompilationError, frontend_ir, pipeline
from tlx.tutorials import blackwell_gemm, compile_tutorial


def tcgen05_instructions(ptx: str) -> set[str]:
    return set(re.findall(r"tcgen05\.[a-z0-9_.:]+", ptx))


@triton.jit
def tmem_round_trip(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    bufs = tlx.local_alloc((M, N), tl.float32, 2, storage=tlx.storage_kind.tmem)
    tlx.local_store(bufs[1], tl.load(x_ptr + offs) * 2.0)
    right = tlx.local_load(tlx.subslice(bufs[1], N // 2, N // 2))
    tl.store(out_ptr + offs, tlx.local_load(bufs[1]))
    half = tl.arange(0, M)[:, None] * N + tl.arange(0, N // 2)[None, :]
    tl.store(out_ptr + M * N + half, right)


SPEC_TMEM_ROUND_TRIP = {
    "kernel": tmem_round_trip,
    "signature": {"x_ptr": "*fp32", "out_ptr": "*fp32"},
    "constexprs": {"M": 128, "N": 64},
    "num_warps": 4,
    "arch": 100,
}


@pytest.mark.parametrize("num_warps", [4, 8])
@pytest.mark.parametrize("rows", [64, 128])
def test_tensor_memory_store_and_load_are_tcgen05_st_and_ld(rows, num_warps):
    spec = {**SPEC_TMEM_ROUND_TRIP, "constexprs": {"M": rows, "N": 64}, "num_warps": num_warps}
    compiled = compile_tutorial(spec)
    ttgir = compiled.asm["ttgir"]
    assert "ttng.tmem_alloc" in ttgir and "ttng.tmem_subslice" in ttgir
    assert f"#ttng.tensor_memory_encoding<blockM = {rows}, blockN = 64, colStride = 1>" in ttgir
    found = tcgen05_instructions(compiled.asm["ptx"])
    assert {
        "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32",
        "tcgen05.dealloc.cta_group::1.sync.aligned.b32",
    } <= found
    assert any(i.startswith("tcgen05.st.sync.aligned.") for i in found), found
    assert any(i.startswith("tcgen05.ld.sync.aligned.") for i in found), found
    assert compiled.asm["cubin"][:4] == b"\x7fELF"


@triton.jit
def tcgen05_dot(a_desc, b_desc, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    a = tlx.local_alloc((M, K), tl.float16, 1)
    b = tlx.local_alloc((K, N), tl.float16, 1)
    acc = tlx.local_alloc((M, N), tl.float32, 1, storage=tlx.storage_kind.tmem)
    bars = tlx.alloc_barriers(3)
    tlx.barrier_expect_bytes(bars[0], (M * K + K * N) * 2)
    tlx.async_descriptor_load(a_desc, a[0], [0, 0], bars[0])
    tlx.async_descriptor_load(b_desc, b[0], [0, 0], bars[0])
    tlx.barrier_wait(bars[0], 0)
    tlx.async_dot(a[0], b[0], acc[0], use_acc=False, mBarriers=[bars[1]])
    tlx.async_dot(a[0], b[0], acc[0])  # synchronous: no mbarriers
    tlx.tcgen05_commit(bars[2])
    tlx.barrier_wait(bars[1], 0)
    tlx.barrier_wait(bars[2], 0)
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    tl.store(c_ptr + offs, tlx.local_load(acc[0]))


SPEC_TCGEN05_DOT = {
    "kernel": tcgen05_dot,
    "signature": {"a_desc": "tensordesc<fp16[128, 64]>", "b_desc": "tensordesc<fp16[64, 128]>", "c_ptr": "*fp32"},
    "constexprs": {"M": 128, "N": 128, "K": 64},
    "num_warps": 4,
    "arch": 100,
}


def test_async_dot_into_tensor_memory_is_tcgen05_mma_with_commits():
    compiled = compile_tutorial(SPEC_TCGEN05_DOT)
    ttgir = compiled.asm["ttgir"]
    assert re.search(r"ttng\.tc_gen5_mma .*\{is_async\}", ttgir), ttgir
    found = tcgen05_instructions(compiled.asm["ptx"])
    assert "tcgen05.mma.cta_group::1.kind::f16" in found
    assert "tcgen05.commit.cta_group::1.mbarrier::arrive::one.b64" in found
    assert "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32" in found
    assert "tcgen05.ld.sync.aligned.32x32b.x128.b32" in found
    assert "mbarrier.try_wait" in compiled.asm["ptx"]
    assert compiled.asm["cubin"][:4] == b"\x7fELF"


@triton.jit
def tcgen05_a_from_tensor_memory(x_ptr, b_desc, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    a = tlx.local_alloc((M, K), tl.float16, 1, storage=tlx.storage_kind.tmem)
    tlx.local_store(a[0], tl.load(x_ptr + tl.arange(0, M)[:, None] * K + tl.arange(0, K)[None, :]))
    b = tlx.local_alloc((K, N), tl.float16, 1)
    acc = tlx.local_alloc((M, N), tl.float32, 1, storage=tlx.storage_kind.tmem)
    bars = tlx.alloc_barriers(2)
    tlx.barrier_expect_bytes(bars[0], K * N * 2)
    tlx.async_descriptor_load(b_desc, b[0], [0, 0], bars[0])
    tlx.barrier_wait(bars[0], 0)
    tlx.async_dot(a[0], b[0], acc[0], use_acc=False, mBarriers=[bars[1]])
    tlx.barrier_wait(bars[1], 0)
    tl.store(c_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :], tlx.local_load(acc[0]))


SPEC_TCGEN05_A_FROM_TENSOR_MEMORY = {
    "kernel": tcgen05_a_from_tensor_memory,
    "signature": {"x_ptr": "*fp16", "b_desc": "tensordesc<fp16[64, 128]>", "c_ptr": "*fp32"},
    "constexprs": {"M": 128, "N": 128, "K": 64},
    "num_warps": 4,
    "arch": 100,
}


def test_tcgen05_reads_a_from_tensor_memory():
    compiled = compile_tutorial(SPEC_TCGEN05_A_FROM_TENSOR_MEMORY)
    ptx = compiled.asm["ptx"]
    # Packed fp16 in tensor memory: 64 halves are 32 columns (tcgen05.st .x32).
    assert "tcgen05.st.sync.aligned.32x32b.x32.b32" in ptx
    # `a` is a tensor-memory address in brackets, `b` a shared-memory descriptor.
    assert re.search(r"tcgen05\.mma\.cta_group::1\.kind::f16 \[ %r\d+ \+ 0 \], \[ %r\d+ \+ 0 \], %rd\d+", ptx), ptx
    assert compiled.asm["cubin"][:4] == b"\x7fELF"


@pytest.mark.parametrize("spec", ["SPEC", "SPEC_WS"])
def test_blackwell_gemm_tutorial_compiles_for_sm100(spec):
    spec = getattr(blackwell_gemm, spec)
    compiled = compile_tutorial(spec, arch=100)
    ptx = compiled.asm["ptx"]
    missing = [marker for marker in spec["ptx"] if marker not in ptx]
    assert not missing, f"PTX lacks {missing}"
    assert "tlx." not in compiled.asm["ttgir"], "a TLX op or carrier survived into the final TTGIR"
    assert compiled.asm["cubin"][:4] == b"\x7fELF"
    if spec is blackwell_gemm.SPEC_WS:
        # The MMA issuer is a partition of its own: the MMAs and the final commit run there.
        ttgir = compiled.asm["ttgir"]
        assert "ttg.warp_specialize" in ttgir
        partitions = ttgir.split("partition1(")[1]
        assert "ttng.tc_gen5_mma" in partitions and "ttng.tc_gen5_commit" in partitions


def test_tcgen05_commit_is_exported_by_the_mma_module():
    assert tlx.tcgen05_commit is tlx.language.mma.tcgen05_commit


@triton.jit
def tmem_copy_kernel(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr):
    src = tlx.local_alloc((M, N), tl.float32, 1)
    dst = tlx.local_alloc((M, N), tl.float32, 1, storage=tlx.storage_kind.tmem)
    bars = tlx.alloc_barriers(1)
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    tlx.local_store(src[0], tl.load(x_ptr + offs))
    tlx.fence_async_shared()
    tlx.tmem_copy(src[0], dst[0])
    tlx.tcgen05_commit(bars[0])
    tlx.barrier_wait(bars[0], 0)
    tl.store(out_ptr + offs, tlx.local_load(dst[0]))


SPEC_TMEM_COPY = {
    "kernel": tmem_copy_kernel,
    "signature": {"x_ptr": "*fp32", "out_ptr": "*fp32"},
    "constexprs": {"M": 128, "N": 64},
    "num_warps": 4,
    "arch": 100,
}


@pytest.mark.parametrize("columns", [8, 64, 128])
def test_tmem_copy_is_tcgen05_cp(columns):
    compiled = compile_tutorial({**SPEC_TMEM_COPY, "constexprs": {"M": 128, "N": columns}})
    assert "ttng.tmem_copy" in compiled.asm["ttgir"]
    found = tcgen05_instructions(compiled.asm["ptx"])
    assert "tcgen05.cp.cta_group::1.128x256b" in found, found
    assert "tcgen05.commit.cta_group::1.mbarrier::arrive::one.b64" in found
    assert compiled.asm["cubin"][:4] == b"\x7fELF"


@triton.jit
def two_cta_dot(a_desc, b_desc, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    # Each CTA of the pair: its M rows of A, its half of B's N columns, its M x N rows of the accumulator.
    a = tlx.local_alloc((M, K), tl.float16, 1)
    b = tlx.local_alloc((K, N // 2), tl.float16, 1)
    acc = tlx.local_alloc((M, N), tl.float32, 1, storage=tlx.storage_kind.tmem)
    bars = tlx.alloc_barriers(3)
    tlx.barrier_expect_bytes(bars[0], (M * K + K * N // 2) * 2)
    tlx.async_descriptor_load(a_desc, a[0], [0, 0], bars[0])
    tlx.async_descriptor_load(b_desc, b[0], [0, 0], bars[0])
    tlx.barrier_wait(bars[0], 0)
    tlx.cluster_barrier()  # both halves are in shared memory
    tlx.async_dot(a[0], b[0], acc[0], use_acc=False, mBarriers=[bars[1]], two_ctas=True)
    tlx.tcgen05_commit(bars[2], two_ctas=True)
    tlx.barrier_wait(bars[1], 0)
    tlx.barrier_wait(bars[2], 0)
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    tl.store(c_ptr + offs, tlx.local_load(acc[0]))


SPEC_TWO_CTA_DOT = {
    "kernel": two_cta_dot,
    "signature": {"a_desc": "tensordesc<fp16[128, 64]>", "b_desc": "tensordesc<fp16[64, 64]>", "c_ptr": "*fp32"},
    "constexprs": {"M": 128, "N": 128, "K": 64},
    "num_warps": 4,
    "arch": 100,
    "options": {"ctas_per_cga": (2, 1, 1)},
}


def test_two_ctas_is_tcgen05_cta_group_2():
    compiled = compile_tutorial(SPEC_TWO_CTA_DOT)
    ttgir = compiled.asm["ttgir"]
    assert re.search(r"ttng\.tc_gen5_mma .*\{is_async, two_ctas\}", ttgir), ttgir
    # Each CTA's buffers seen as its half of the pair's operands, Triton 3.6's two-CTA form.
    assert "CTASplitM = 2, twoCTAs = true" in ttgir and "CGALayout = [[0, 1]]" in ttgir
    found = tcgen05_instructions(compiled.asm["ptx"])
    assert "tcgen05.mma.cta_group::2.kind::f16" in found, found
    assert "tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64" in found
    assert "tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32" in found
    # Only the even CTA of the pair issues: the predicate reads %cluster_ctarank.
    assert "%cluster_ctarank" in compiled.asm["ptx"]
    assert compiled.asm["cubin"][:4] == b"\x7fELF"


@triton.jit
def two_cta_slices_then_commit(c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, SYNC: tl.constexpr):
    """P @ V over K slices as the public Blackwell attention issues it: `a` in tensor memory, no mbarriers but
    the last slice's, in a warp-specialized MMA task."""
    p = tlx.local_alloc((M, K), tl.float16, 2, storage=tlx.storage_kind.tmem)
    v = tlx.local_alloc((K, N // 2), tl.float16, 2)
    acc = tlx.local_alloc((M, N), tl.float32, 1, storage=tlx.storage_kind.tmem)
    bars = tlx.alloc_barriers(1)
    with tlx.async_tasks():
        with tlx.async_task("default"):
            tlx.barrier_wait(bars[0], 0)
            tl.store(c_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :], tlx.local_load(acc[0]))
        with tlx.async_task(num_warps=1):
            tlx.async_dot(p[0], v[0], acc[0], use_acc=False, force_async=not SYNC, two_ctas=True)  # slice
            tlx.async_dot(p[1], v[1], acc[0], mBarriers=[bars[0]], two_ctas=True)


SPEC_TWO_CTA_SLICES_THEN_COMMIT = {
    "kernel": two_cta_slices_then_commit,
    "signature": {"c_ptr": "*fp32"},
    "constexprs": {"M": 128, "N": 128, "K": 64, "SYNC": False},
    "num_warps": 4,
    "arch": 100,
    "options": {"ctas_per_cga": (2, 1, 1)},
}


@pytest.mark.parametrize("sync", [False, True], ids=["force_async", "synchronous"])
def test_two_cta_mmas_without_mbarriers(sync):
    spec = {**SPEC_TWO_CTA_SLICES_THEN_COMMIT, "constexprs": {"M": 128, "N": 128, "K": 64, "SYNC": sync}}
    if sync:  # Triton 3.6 would wait for it behind a cluster barrier the other task never reaches
        with pytest.raises(TLXCompilationError, match="without mBarriers must be asynchronous") as info:
            compile_tutorial(spec)
        lines, start = inspect.getsourcelines(two_cta_slices_then_commit.fn)
        line = start + next(i for i, text in enumerate(lines) if "# slice" in text)
        assert f":{line}:" in str(info.value), str(info.value)
        return
    compiled = compile_tutorial(spec)
    ptx = compiled.asm["ptx"]
    mmas = re.findall(r"tcgen05\.mma\.cta_group::2\S* \[[^]]*\], \[", ptx)  # `a` from tensor memory
    assert len(mmas) >= 2, ptx
    # The first slice's mbarrier operand is one of its own whose commit is predicated off: nothing initializes
    # or waits for it (Triton's synchronous form would: init, commit, wait, inval).
    ttgir = compiled.asm["ttgir"]
    assert re.search(r"ttng\.tc_gen5_mma [^\n]*\[%false[^\n]*\{is_async, two_ctas\}", ttgir), ttgir
    assert len(re.findall(r"mbarrier\.init", ptx)) == 1 and "mbarrier.inval" not in ptx


@triton.jit
def two_ctas_without_cluster(a_desc, b_desc, n):
    a = tlx.local_alloc((128, 64), tl.float16, 1)
    b = tlx.local_alloc((64, 64), tl.float16, 1)
    acc = tlx.local_alloc((128, 128), tl.float32, 1, storage=tlx.storage_kind.tmem)
    done = tlx.alloc_barriers(1)
    tlx.async_dot(a[0], b[0], acc[0], mBarriers=[done[0]], two_ctas=True)  # misuse


@triton.jit
def mixed_cta_groups(a_desc, b_desc, n):
    a = tlx.local_alloc((128, 64), tl.float16, 1)
    b = tlx.local_alloc((64, 64), tl.float16, 1)
    acc = tlx.local_alloc((128, 128), tl.float32, 1, storage=tlx.storage_kind.tmem)
    done = tlx.alloc_barriers(1)
    tlx.async_dot(a[0], b[0], acc[0], mBarriers=[done[0]], two_ctas=True)
    tlx.async_dot(a[0], tlx.local_alloc((64, 128), tl.float16, 1)[0], acc[0])  # misuse


@pytest.mark.parametrize(
    "kernel, options, message",
    [
        (two_ctas_without_cluster, {}, "two_ctas (cta_group::2) runs on pairs of CTAs: launch the kernel"),
        (
            mixed_cta_groups,
            {"ctas_per_cga": (2, 1, 1)},
            "two_ctas=False, but an earlier async_dot has two_ctas=True: the tcgen05 MMAs of a kernel use one",
        ),
    ],
    ids=["no_cluster", "mixed"],
)
def test_two_ctas_misuse_is_reported_at_the_line(kernel, options, message):
    signature = {"a_desc": "*fp16", "b_desc": "*fp16", "n": "i32"}
    text = frontend_ir(kernel, signature, target=GPUTarget("cuda", 100, 32), **options)
    with pytest.raises(TLXCompilationError) as info:
        pipeline.run(text, kernel=kernel.__name__, source_name=f"{kernel.__name__}.mlir")
    lines, start = inspect.getsourcelines(kernel.fn)
    line = start + next(i for i, text in enumerate(lines) if "# misuse" in text)
    assert message in str(info.value) and f":{line}:" in str(info.value), str(info.value)
