"""Blackwell (sm_100a), compiled on the CPU: tensor memory and tcgen05 reach the PTX they promise.

No Blackwell GPU here: every kernel compiles to an sm_100a cubin with stock triton's ptxas and the PTX is
checked for the tcgen05 instructions (alloc, st, ld, mma, commit).
"""

import re

import pytest
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler.compiler import ASTSource

import tlx
from tlx.tutorials import blackwell_gemm, compile_tutorial


def compile_sm100(kernel, signature, constexprs, **options):
    names = list(signature)
    constants = {(names.index(name),): value for name, value in constexprs.items()}
    return triton.compile(ASTSource(kernel, signature, constants), target=GPUTarget("cuda", 100, 32), options=options)


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


@pytest.mark.parametrize("num_warps", [4, 8])
@pytest.mark.parametrize("rows", [64, 128])
def test_tensor_memory_store_and_load_are_tcgen05_st_and_ld(rows, num_warps):
    signature = {"x_ptr": "*fp32", "out_ptr": "*fp32", "M": "constexpr", "N": "constexpr"}
    compiled = compile_sm100(tmem_round_trip, signature, {"M": rows, "N": 64}, num_warps=num_warps)
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


def test_async_dot_into_tensor_memory_is_tcgen05_mma_with_commits():
    signature = {
        "a_desc": "tensordesc<fp16[128, 64]>",
        "b_desc": "tensordesc<fp16[64, 128]>",
        "c_ptr": "*fp32",
        "M": "constexpr",
        "N": "constexpr",
        "K": "constexpr",
    }
    compiled = compile_sm100(tcgen05_dot, signature, {"M": 128, "N": 128, "K": 64})
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


def test_tcgen05_reads_a_from_tensor_memory():
    signature = {
        "x_ptr": "*fp16",
        "b_desc": "tensordesc<fp16[64, 128]>",
        "c_ptr": "*fp32",
        "M": "constexpr",
        "N": "constexpr",
        "K": "constexpr",
    }
    compiled = compile_sm100(tcgen05_a_from_tensor_memory, signature, {"M": 128, "N": 128, "K": 64})
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
