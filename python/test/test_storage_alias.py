"""Storage aliasing: `tlx.storage_alias_spec`, `local_alloc(..., reuse=)`, `reuse_group`, `set_buffer_overlap`.

Buffer sets of one spec are views of one shared-memory allocation: compiled to cubin on the CPU, the final
TTGIR has one `ttg.local_alloc` of bytes and one `ttg.memdesc_reinterpret` per buffer set, indexed at the
offsets the reuse-group tree gives, and the kernel's shared memory is the spec's size, not the sum of its
buffer sets. In tensor memory (sm_100) the same holds in 32-bit columns: one `ttng.tmem_alloc`, each buffer
set a view of it (the Blackwell idiom kernels place P and alpha in S's columns). Misuse is an error at the
kernel line. The `SPEC_*` dicts are also seeds of `tlx.testing.kernel_fuzz --seed-module`.
"""

import re
from pathlib import Path

import gpus
import pytest
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler.errors import CompilationError

import tlx
from tlx.compiler import TLXCompilationError, TLXOutOfResources, TLXWarning, frontend_ir, pipeline
from tlx.tutorials import compile_kernel, compile_tutorial

HERE = Path(__file__).resolve()
SM90, SM100 = GPUTarget("cuda", 90, 32), GPUTarget("cuda", 100, 32)


@triton.jit
def attention_like(out, N: tl.constexpr, ALIAS: tl.constexpr):
    # QK (fp32) shares its memory with P (fp16, two subtiles per QK buffer) beside alpha.
    if ALIAS:
        spec = tlx.storage_alias_spec(storage=tlx.storage_kind.smem)
        qk = tlx.local_alloc((64, 64), tl.float32, 2, reuse=spec)
        p = tlx.local_alloc((64, 32), tl.float16, 4, reuse=spec)
        alpha = tlx.local_alloc((64,), tl.float32, 2, reuse=spec)
        spec.set_buffer_overlap(
            tlx.reuse_group(
                qk,
                tlx.reuse_group(tlx.reuse_group(p, group_size=2), alpha, group_type=tlx.reuse_group_type.distinct),
                group_type=tlx.reuse_group_type.shared,
            )
        )
    else:
        qk = tlx.local_alloc((64, 64), tl.float32, 2)
        p = tlx.local_alloc((64, 32), tl.float16, 4)
        alpha = tlx.local_alloc((64,), tl.float32, 2)
    rows = tl.arange(0, 64)
    cols = tl.arange(0, 32)
    for i in tl.range(0, N):
        s = i % 2
        tlx.local_store(qk[s], (rows[:, None] + rows[None, :] + i).to(tl.float32))
        x = tlx.local_load(qk[s])
        tlx.local_store(alpha[s], tl.sum(x, axis=1))
        tlx.local_store(p[2 * s], (rows[:, None] * cols[None, :]).to(tl.float16))
        tlx.local_store(p[2 * s + 1], (rows[:, None] - cols[None, :]).to(tl.float16))
        y = tlx.local_load(p[2 * s + 1]).to(tl.float32)
        tl.store(out + rows, tlx.local_load(alpha[s]) + tl.sum(y, axis=1))


SIGNATURE = {"out": "*fp32", "N": "constexpr", "ALIAS": "constexpr"}


SPEC_ATTENTION_LIKE_ALIASED = {
    "kernel": attention_like,
    "signature": SIGNATURE,
    "constexprs": {"N": 4, "ALIAS": True},
    "num_warps": 4,
}


SPEC_ATTENTION_LIKE_SEPARATE = {
    "kernel": attention_like,
    "signature": SIGNATURE,
    "constexprs": {"N": 4, "ALIAS": False},
    "num_warps": 4,
}


def test_buffer_sets_of_a_spec_are_views_of_one_allocation():
    aliased = compile_tutorial(SPEC_ATTENTION_LIKE_ALIASED)
    separate = compile_tutorial(SPEC_ATTENTION_LIKE_SEPARATE)
    ttgir = aliased.asm["ttgir"]
    # One allocation of bytes, aligned for any swizzle; each buffer set a view of it, counted in its own
    # buffers: QK 2 x 16 KB per 16 KB index (stride 1), P 8 x 4 KB, alpha 128 x 256 B.
    allocs = re.findall(r"ttg\.local_alloc .*", ttgir)
    assert len(allocs) == 1 and "alignment = 1024" in allocs[0] and "!ttg.memdesc<32768xi8" in allocs[0], allocs
    views = re.findall(r"ttg\.memdesc_reinterpret %\w+ : !ttg\.memdesc<32768xi8[^>]*> -> !ttg\.memdesc<(\w+)", ttgir)
    assert sorted(views) == ["128x64xf32", "2x64x64xf32", "8x64x32xf16"], views
    # alpha lies after P's two 4 KB subtiles: buffer s is alpha's 256-byte slot 64 s + 32.
    assert re.search(r"arith\.constant 32 : i32", ttgir) and re.search(r"arith\.constant 64 : i32", ttgir)
    # 32 KB for the spec (plus Triton's reduction scratch), against 48.5 KB for separate buffers.
    assert aliased.metadata.shared < 32768 + 1024 and separate.metadata.shared >= 49664
    assert "ld.shared" in aliased.asm["ptx"] and aliased.asm["cubin"][:4] == b"\x7fELF"


@triton.jit
def reuse_other_buffers(out):
    a = tlx.local_alloc((64, 64), tl.float32, 1)
    b = tlx.local_alloc((64, 64), tl.float16, 2, reuse=a)
    sized = tlx.storage_alias_spec(buffer_size_bytes=8192)
    c = tlx.local_alloc((64,), tl.float32, 4, reuse=sized)
    rows = tl.arange(0, 64)
    tlx.local_store(a[0], (rows[:, None] + rows[None, :]).to(tl.float32))
    x = tlx.local_load(a[0])
    tlx.local_store(b[1], x.to(tl.float16))
    tlx.local_store(c[3], tl.sum(x, axis=1))
    tl.store(out + rows, tl.sum(tlx.local_load(b[1]).to(tl.float32), axis=1) + tlx.local_load(c[3]))


SPEC_REUSE_OTHER_BUFFERS = {
    "kernel": reuse_other_buffers,
    "signature": {"out": "*fp32"},
    "constexprs": {},
    "num_warps": 4,
}


def test_reuse_of_buffers_and_a_sized_spec():
    compiled = compile_tutorial(SPEC_REUSE_OTHER_BUFFERS)
    ttgir = compiled.asm["ttgir"]
    # b is a view of a's 16 KB; the sized spec has its 8 KB although c needs 1 KB.
    assert re.search(r"ttg\.memdesc_reinterpret %\w+ : !ttg\.memdesc<1x64x64xf32.* -> !ttg\.memdesc<2x64x64xf16", ttgir)
    assert "!ttg.memdesc<8192xi8" in ttgir
    assert compiled.asm["cubin"][:4] == b"\x7fELF"


@triton.jit
def tensor_memory_buffers_reused(out):
    # The public API's older form: P and the row statistics are views of S's columns, each counted in its own
    # buffers from S's first column (blackwell_fa_ws: p[1] is the upper half of S[0], alpha[128] S[1]'s first).
    qk = tlx.local_alloc((128, 128), tl.float32, 2, tlx.storage_kind.tmem)
    p = tlx.local_alloc((128, 128), tl.float16, 4, tlx.storage_kind.tmem, reuse=qk)
    alpha = tlx.local_alloc((128, 1), tl.float32, 256, tlx.storage_kind.tmem, reuse=qk)
    rows = tl.arange(0, 128)
    x = (rows[:, None] + rows[None, :]).to(tl.float32)
    tlx.local_store(qk[1], x)
    tlx.local_store(p[3], x.to(tl.float16))
    tlx.local_store(alpha[128], tl.max(x, 1)[:, None])
    tl.store(out + rows, tl.reshape(tlx.local_load(alpha[128]), [128]))


SPEC_TENSOR_MEMORY_BUFFERS_REUSED = {
    "kernel": tensor_memory_buffers_reused,
    "signature": {"out": "*fp32"},
    "constexprs": {},
    "num_warps": 4,
    "arch": 100,
}


def test_tensor_memory_buffers_can_reuse_other_buffers_columns():
    compiled = compile_tutorial(SPEC_TENSOR_MEMORY_BUFFERS_REUSED)
    ttgir, ptx = compiled.asm["ttgir"], compiled.asm["ptx"]
    assert len(re.findall(r"ttng\.tmem_alloc ", ttgir)) == 1
    views = re.findall(
        r"ttg\.memdesc_reinterpret %\w+ : !ttg\.memdesc<2x128x128xf32[^>]*> -> !ttg\.memdesc<(\w+)", ttgir
    )
    assert sorted(views) == ["256x128x1xf32", "4x128x128xf16"], views
    # S[1] at column c + 128, p[3] at c + 192 (64 columns per fp16 buffer), alpha[128] at c + 128.
    base = re.search(r"tcgen05\.alloc\.cta_group::1\.sync\.aligned\.shared::cta\.b32 \[%r\d+\], 256;", ptx)
    assert base, "S's 256 columns are the only allocation"
    s1 = re.search(r"add\.s32\s+(%r\d+), (%r\d+), 128;", ptx)
    p3 = re.search(rf"add\.s32\s+(%r\d+), {s1.group(2)}, 192;", ptx).group(1)
    assert re.search(rf"tcgen05\.st\.sync\.aligned\.32x32b\.x64\.b32 \[{p3} \+ 0\]", ptx), "p[3]"
    assert re.search(rf"tcgen05\.st\.sync\.aligned\.32x32b\.x1\.b32 \[{s1.group(1)} \+ 0\]", ptx), "alpha[128]"
    assert re.search(rf"tcgen05\.st\.sync\.aligned\.32x32b\.x128\.b32 \[{s1.group(1)} \+ 0\]", ptx), "S[1]"


@triton.jit
def small_buffers_filled_by_tma(desc, copy_desc, out, n):
    # Two sets of 64-byte buffers side by side, each buffer filled by a 1-D TMA load: each must start at a
    # multiple of 128 bytes (the shared-memory alignment of a TMA copy), and a 1-D buffer that TMA fills needs
    # an NVMMA layout (of rank 1); a[i] goes back out by a 1-D TMA store too.
    spec = tlx.storage_alias_spec()
    a = tlx.local_alloc((16,), tl.float32, 2, reuse=spec)
    b = tlx.local_alloc((16,), tl.float32, 2, reuse=spec)
    spec.set_buffer_overlap(tlx.reuse_group(a, b, group_type=tlx.reuse_group_type.distinct))
    bars = tlx.alloc_barriers(2)
    i = n % 2
    tlx.barrier_expect_bytes(bars[0], 64)
    tlx.async_descriptor_load(desc, a[i], [0], bars[0])
    tlx.barrier_expect_bytes(bars[1], 64)
    tlx.async_descriptor_load(desc, b[i], [16], bars[1])
    tlx.barrier_wait(bars[0], 0)
    tlx.barrier_wait(bars[1], 0)
    offs = tl.arange(0, 16)
    tl.store(out + offs, tlx.local_load(a[i]))
    tl.store(out + 16 + offs, tlx.local_load(b[i]))
    tlx.async_descriptor_store(copy_desc, a[i], [0])
    tlx.async_descriptor_store_wait(0)


SPEC_SMALL_BUFFERS_FILLED_BY_TMA = {
    "kernel": small_buffers_filled_by_tma,
    "signature": {"desc": "tensordesc<fp32[16]>", "copy_desc": "tensordesc<fp32[16]>", "out": "*fp32", "n": "i32"},
    "constexprs": {},
    "num_warps": 4,
}


def test_small_buffers_start_at_128_bytes_and_take_one_dimensional_tma():
    compiled = compile_tutorial(SPEC_SMALL_BUFFERS_FILLED_BY_TMA)
    ttgir, ptx = compiled.asm["ttgir"], compiled.asm["ptx"]
    assert re.search(r"ttg\.local_alloc \{alignment = 1024 : i32\} : \(\) -> !ttg\.memdesc<512xi8", ttgir)
    assert "-> !ttg.memdesc<8x16xf32, #shared" in ttgir  # both sets as 64-byte buffers, 8 per spec (one view)
    assert "nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 32, rank = 1}>" in ttgir
    assert len(re.findall(r"cp\.async\.bulk\.tensor\.1d\.shared::cluster\.global", ptx)) == 2
    assert len(re.findall(r"cp\.async\.bulk\.tensor\.1d\.global\.shared::cta", ptx)) == 1


@pytest.mark.gpu
@gpus.hopper_or_newer
@pytest.mark.parametrize("n", [0, 1])
def test_small_buffers_filled_by_tma_on_the_gpu(n):
    import torch
    from triton.tools.tensor_descriptor import TensorDescriptor

    x = torch.randn(32, device="cuda")
    out = torch.full((32,), float("nan"), device="cuda")
    copy = torch.full((16,), float("nan"), device="cuda")
    descriptors = TensorDescriptor.from_tensor(x, [16]), TensorDescriptor.from_tensor(copy, [16])
    small_buffers_filled_by_tma[(1,)](*descriptors, out, n)
    assert torch.equal(out, x) and torch.equal(copy, x[:16])


@triton.jit
def tensor_memory_of_sixty_four_rows(out):
    # The public API counts buffer_size_bytes of 64-row buffers as 64 rows x 4 bytes per column: 64 x 64 x 4.
    spec = tlx.storage_alias_spec(storage=tlx.storage_kind.tmem, buffer_size_bytes=16384)
    acc = tlx.local_alloc((64, 64), tl.float32, 1, tlx.storage_kind.tmem, reuse=spec)
    tlx.local_store(acc[0], tl.zeros((64, 64), tl.float32) + 1.0)
    offs = tl.arange(0, 64)
    tl.store(out + offs[:, None] * 64 + offs[None, :], tlx.local_load(acc[0]))


SPEC_TENSOR_MEMORY_OF_SIXTY_FOUR_ROWS = {
    "kernel": tensor_memory_of_sixty_four_rows,
    "signature": {"out": "*fp32"},
    "constexprs": {},
    "num_warps": 4,
    "arch": 100,
}


def test_a_sized_spec_of_sixty_four_row_buffers_counts_as_the_public_api():
    ptx = compile_tutorial(SPEC_TENSOR_MEMORY_OF_SIXTY_FOUR_ROWS).asm["ptx"]
    assert re.findall(r"tcgen05\.alloc\.cta_group::1\.sync\.aligned\.shared::cta\.b32 \[%r\d+\], (\d+);", ptx) == ["64"]


@triton.jit
def spec_left_unused(out):
    tlx.storage_alias_spec(buffer_size_bytes=4096)  # misuse
    buf = tlx.local_alloc((64,), tl.float32, 1)
    tlx.local_store(buf[0], tl.zeros((64,), tl.float32))
    tl.store(out + tl.arange(0, 64), tlx.local_load(buf[0]))


def test_a_spec_no_buffer_set_uses_is_a_warning_at_its_line(monkeypatch):
    monkeypatch.setenv("TRITON_ALWAYS_COMPILE", "1")  # a kernel served from the cache warns nothing
    with pytest.warns(TLXWarning) as record:
        compile_kernel(spec_left_unused, {"out": "*fp32"})
    texts = [str(w.message) for w in record if issubclass(w.category, TLXWarning)]
    assert len(texts) == 1 and f"{HERE}:{misuse_line(spec_left_unused)}:" in texts[0], texts
    assert "no buffer set is allocated with reuse=<this storage_alias_spec>: it holds nothing" in texts[0]


# ------------------------------------------------------------------------------------------------- misuse


@triton.jit
def spec_too_small(n):
    spec = tlx.storage_alias_spec(buffer_size_bytes=4096)  # misuse
    a = tlx.local_alloc((64, 64), tl.float16, 2, reuse=spec)
    tlx.local_store(a[n % 2], tl.zeros((64, 64), tl.float16))


@triton.jit
def spec_other_storage(n):
    spec = tlx.storage_alias_spec(storage=tlx.storage_kind.smem)
    a = tlx.local_alloc((128, 64), tl.float32, 1, tlx.storage_kind.tmem, reuse=spec)  # misuse
    tlx.local_store(a[0], tl.zeros((128, 64), tl.float32))


@triton.jit
def counts_differ(n):
    spec = tlx.storage_alias_spec()
    a = tlx.local_alloc((64, 64), tl.float16, 2, reuse=spec)
    b = tlx.local_alloc((64, 32), tl.float16, 3, reuse=spec)
    spec.set_buffer_overlap(tlx.reuse_group(a, b))  # misuse


@triton.jit
def buffers_left_out(n):
    spec = tlx.storage_alias_spec()
    a = tlx.local_alloc((64, 64), tl.float16, 2, reuse=spec)
    b = tlx.local_alloc((64, 32), tl.float16, 2, reuse=spec)
    tlx.local_store(b[0], tl.zeros((64, 32), tl.float16))
    spec.set_buffer_overlap(tlx.reuse_group(a))  # misuse


@triton.jit
def foreign_buffers(n):
    spec = tlx.storage_alias_spec()
    a = tlx.local_alloc((64, 64), tl.float16, 2, reuse=spec)
    b = tlx.local_alloc((64, 32), tl.float16, 2)
    spec.set_buffer_overlap(tlx.reuse_group(a, b))  # misuse


@triton.jit
def overlap_twice(n):
    spec = tlx.storage_alias_spec()
    a = tlx.local_alloc((64, 64), tl.float16, 2, reuse=spec)
    spec.set_buffer_overlap(tlx.reuse_group(a))
    spec.set_buffer_overlap(tlx.reuse_group(a))  # misuse


@triton.jit
def reuse_too_large(n):
    a = tlx.local_alloc((64, 64), tl.float16, 1)
    b = tlx.local_alloc((64, 64), tl.float32, 1, reuse=a)  # misuse
    tlx.local_store(b[0], tl.zeros((64, 64), tl.float32))


@triton.jit
def tensor_memory_counts_differ(n):
    # Two P buffers in one S buffer need group_size=2: shared groups overlap index by index.
    spec = tlx.storage_alias_spec(storage=tlx.storage_kind.tmem)
    qk = tlx.local_alloc((128, 128), tl.float32, 1, tlx.storage_kind.tmem, reuse=spec)
    p = tlx.local_alloc((128, 128), tl.float16, 2, tlx.storage_kind.tmem, reuse=spec)
    spec.set_buffer_overlap(tlx.reuse_group(qk, p, group_type=tlx.reuse_group_type.shared))  # misuse


@triton.jit
def tensor_memory_spec_too_small(n):
    spec = tlx.storage_alias_spec(storage=tlx.storage_kind.tmem, buffer_size_bytes=32768)  # misuse
    a = tlx.local_alloc((128, 128), tl.float32, 1, tlx.storage_kind.tmem, reuse=spec)
    tlx.local_store(a[0], tl.zeros((128, 128), tl.float32))


@triton.jit
def tensor_memory_reuse_too_large(n):
    a = tlx.local_alloc((128, 128), tl.float32, 1, tlx.storage_kind.tmem)
    b = tlx.local_alloc((128, 128), tl.float16, 4, tlx.storage_kind.tmem, reuse=a)  # misuse
    tlx.local_store(b[0], tl.zeros((128, 128), tl.float16))


@triton.jit
def tensor_memory_spec_over_512_columns(n):
    spec = tlx.storage_alias_spec(storage=tlx.storage_kind.tmem)  # misuse
    a = tlx.local_alloc((128, 256), tl.float32, 2, tlx.storage_kind.tmem, reuse=spec)
    b = tlx.local_alloc((128, 256), tl.float32, 2, tlx.storage_kind.tmem, reuse=spec)
    spec.set_buffer_overlap(tlx.reuse_group(a, b, group_type=tlx.reuse_group_type.distinct))
    tlx.local_store(a[0], tl.zeros((128, 256), tl.float32))


COMPILER_CASES = [
    (spec_too_small, SM90, "'tlx.storage_alias_spec' op buffer_size_bytes = 4096 is too small: the buffers"),
    (spec_other_storage, SM100, "allocates tmem buffers with reuse=<a storage_alias_spec in smem>: the storage"),
    (counts_differ, SM90, "every buffer set of a storage_alias_spec needs the same number of buffer indices"),
    (buffers_left_out, SM90, "does not place buffers allocated with reuse=<this storage_alias_spec>"),
    (foreign_buffers, SM90, "'tlx.reuse_group' op element #1 is not a buffer set allocated with reuse="),
    (overlap_twice, SM90, "is the second overlap definition of this storage_alias_spec"),
    (reuse_too_large, SM90, "'tlx.local_alloc' op needs 16384 bytes, more than the 8192 bytes of the buffers it"),
    (tensor_memory_counts_differ, SM100, "every buffer set of a storage_alias_spec needs the same number of buffer"),
    (
        tensor_memory_spec_too_small,
        SM100,
        "buffer_size_bytes = 32768 is too small: the buffers that share it need 65536",
    ),
    (tensor_memory_reuse_too_large, SM100, "needs 256 tensor-memory columns, more than the 128 columns of the buffers"),
    (tensor_memory_spec_over_512_columns, SM100, "in tensor memory needs 1024 columns; tensor memory has 512 columns"),
]


def misuse_line(kernel) -> int:
    for offset, text in enumerate(kernel.raw_src):
        if text.rstrip().endswith("# misuse"):
            return kernel.starting_line_number + offset
    raise AssertionError(f"{kernel.__name__} has no `# misuse` line")


@pytest.mark.parametrize("kernel, target, message", COMPILER_CASES, ids=[c[0].__name__ for c in COMPILER_CASES])
def test_misuse_is_reported_at_the_kernel_line(kernel, target, message):
    text = frontend_ir(kernel, {"n": "i32"}, stage="converted", target=target)
    with pytest.raises(TLXCompilationError) as info:
        pipeline.run(text, kernel=kernel.__name__, source_name=f"{kernel.__name__}.mlir")
    error = str(info.value)
    assert message in error, error
    assert f"{HERE}:{misuse_line(kernel)}:" in error, error
    assert "internal compiler error" not in error, error


def test_a_spec_over_tensor_memory_is_out_of_resources_for_the_autotuner():
    text = frontend_ir(tensor_memory_spec_over_512_columns, {"n": "i32"}, stage="converted", target=SM100)
    with pytest.raises(TLXOutOfResources) as info:
        pipeline.run(text, kernel="tensor_memory_spec_over_512_columns", source_name="spec.mlir")
    assert (info.value.required, info.value.limit, info.value.name) == (1024, 512, "tensor memory columns")


@triton.jit
def reuse_one_buffer(n):
    a = tlx.local_alloc((64, 64), tl.float16, 2)
    tlx.local_alloc((64, 64), tl.float16, 1, reuse=a[0])  # misuse


@triton.jit
def overlap_not_a_group(n):
    spec = tlx.storage_alias_spec()
    a = tlx.local_alloc((64, 64), tl.float16, 2, reuse=spec)
    spec.set_buffer_overlap(a)  # misuse


@triton.jit
def spec_in_cluster_memory(n):
    tlx.storage_alias_spec(storage=tlx.storage_kind.smemCluster)  # misuse


@triton.jit
def group_size_beyond_i32(n):
    spec = tlx.storage_alias_spec()
    a = tlx.local_alloc((64, 64), tl.float16, 2, reuse=spec)
    b = tlx.local_alloc((64, 64), tl.float16, 2, reuse=spec)
    spec.set_buffer_overlap(tlx.reuse_group(a, b, group_size=2**40))  # misuse


@pytest.mark.parametrize(
    "kernel, message",
    [
        (reuse_one_buffer, "tlx.local_alloc: `reuse` must be a tlx.storage_alias_spec or a set of buffers"),
        (overlap_not_a_group, "tlx.set_buffer_overlap: `overlap_def` must be a tlx.reuse_group"),
        (spec_in_cluster_memory, "tlx.storage_alias_spec: smemCluster storage is not supported"),
        (group_size_beyond_i32, "tlx.reuse_group: `group_size` = 1099511627776 does not fit in 32 bits"),
    ],
    ids=["reuse_one_buffer", "overlap_not_a_group", "spec_in_cluster_memory", "group_size_beyond_i32"],
)
def test_tracing_misuse_is_reported_at_the_kernel_line(kernel, message):
    with pytest.raises(CompilationError) as info:
        frontend_ir(kernel, {"n": "i32"}, stage="ttir")
    assert f"{HERE}:{misuse_line(kernel)}: {message}" in str(info.value), str(info.value)


def test_reuse_group_checks_its_arguments_as_the_public_api():
    with pytest.raises(ValueError, match="at least one element"):
        tlx.reuse_group()
    with pytest.raises(ValueError, match="group_size must be a positive integer"):
        tlx.reuse_group(object(), group_size=0)
    with pytest.raises(TypeError, match="reuse_group elements must be buffered_tensor or reuse_group"):
        tlx.reuse_group(3)
    assert tlx.reuse_group_ir_type(tlx.reuse_group_type.distinct).mangle() == "reuse_group_distinct"
    assert tlx.storage_alias_spec_type(tlx.storage_kind.smem, 64).mangle() == "storage_alias_spec_smem_64"
