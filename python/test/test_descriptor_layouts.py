"""A TMA descriptor's host tensor map swizzles as the buffer it copies, whatever layout the buffer has; a
descriptor block with leading dimensions of 1 copies a buffer of fewer dimensions.

TLX gives a descriptor its buffer's layout; stock ``optimize_descriptor_encoding`` (one of the TTGIR passes)
would give every descriptor no stock TMA op uses the default layout of its block, and the host tensor map
would follow (silently wrong data). It runs only for kernels with a descriptor of stock's own, and
``tlx-restore-descriptor-layouts`` gives TLX's descriptors their types back after it. CPU: the swizzle of the
tensor map the launch builds (``tensordesc_meta``) for every layout and both architectures, with a stock
descriptor beside, and with a task that does not use the descriptor. GPU: the data through such buffers."""

import re

import gpus
import pytest
import triton
import triton.language as tl

import tlx
from tlx.compiler.errors import TLXCompilationError
from tlx.tutorials import compile_tutorial

#: Tensor map swizzle modes (CUtensorMapSwizzle) by the NVMMA layout's swizzle width in bytes.
SWIZZLE_MODE = {0: 0, 32: 1, 64: 2, 128: 3}
BM, BN = 64, 64


def _nvmma(swizzle_bytes: int) -> str:
    return f"#ttg.nvmma_shared<{{swizzlingByteWidth = {swizzle_bytes}, transposed = false, elementBitWidth = 16}}>"


@triton.jit
def through_buffer(desc, out_desc, out_ptr, LAYOUT: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    """One tile: TMA-loaded into a buffer of ``LAYOUT``, read into registers (``out_ptr``) and TMA-stored back
    (``out_desc``). A tensor map of another swizzle than the buffer's scrambles the registers' copy only."""
    bufs = tlx.local_alloc((BM, BN), tl.float16, 1, layout=LAYOUT)
    bars = tlx.alloc_barriers(1)
    tlx.barrier_expect_bytes(bars[0], BM * BN * 2)
    tlx.async_descriptor_load(desc, bufs[0], [0, 0], bars[0])
    tlx.barrier_wait(bars[0], 0)
    tile = tlx.local_load(bufs[0])
    tl.store(out_ptr + tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :], tile)
    tlx.async_descriptor_store(out_desc, bufs[0], [0, 0])
    tlx.async_descriptor_store_wait(0)


@triton.jit
def beside_a_stock_load(desc, stock_desc, out_ptr, LAYOUT: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    """``desc`` through a TLX buffer of ``LAYOUT``, ``stock_desc`` through a plain ``desc.load``."""
    bufs = tlx.local_alloc((BM, BN), tl.float16, 1, layout=LAYOUT)
    bars = tlx.alloc_barriers(1)
    tlx.barrier_expect_bytes(bars[0], BM * BN * 2)
    tlx.async_descriptor_load(desc, bufs[0], [0, 0], bars[0])
    tlx.barrier_wait(bars[0], 0)
    tile = tlx.local_load(bufs[0]) + stock_desc.load([0, 0])
    tl.store(out_ptr + tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :], tile)


@triton.jit
def device_made_beside_a_stock_load(x, stock_desc, out_ptr, M, N, LAYOUT: tl.constexpr, BM: tl.constexpr,
                                    BN: tl.constexpr):  # fmt: skip
    """A descriptor made on the device (its tensor map written by the kernel) into a buffer of ``LAYOUT``."""
    src = tlx.make_tensor_descriptor(None, x, [M, N], [N, 1], [BM, BN])
    beside_a_stock_load(src, stock_desc, out_ptr, LAYOUT, BM, BN)


@triton.jit
def in_one_of_three_tasks(desc, out_ptr, LAYOUT: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    """``desc`` used by one task only: every task's region still receives it."""
    bufs = tlx.local_alloc((BM, BN), tl.float16, 1, layout=LAYOUT)
    full = tlx.alloc_barriers(1)
    with tlx.async_tasks():
        with tlx.async_task("default"):
            tlx.barrier_wait(full[0], 0)
            tile = tlx.local_load(bufs[0])
            tl.store(out_ptr + tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :], tile)
        with tlx.async_task(num_warps=1):
            tlx.barrier_wait(full[0], 0)
        with tlx.async_task(num_warps=1):
            tlx.barrier_expect_bytes(full[0], BM * BN * 2)
            tlx.async_descriptor_load(desc, bufs[0], [0, 0], full[0])


@triton.jit
def four_d_block(desc, out_desc, out_ptr, LAYOUT: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    """A [1, 1, BM, BN] block of a 4-D tensor through a BM x BN buffer, as registers and back by TMA."""
    bufs = tlx.local_alloc((BM, BN), tl.float16, 1, layout=LAYOUT)
    bars = tlx.alloc_barriers(1)
    b = tl.program_id(0)
    tlx.barrier_expect_bytes(bars[0], BM * BN * 2)
    tlx.async_descriptor_load(desc, bufs[0], [b, 1, 0, 0], bars[0])
    tlx.barrier_wait(bars[0], 0)
    tile = tlx.local_load(bufs[0])
    tl.store(out_ptr + b * BM * BN + tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :], tile)
    tlx.async_descriptor_store(out_desc, bufs[0], [b, 1, 0, 0])
    tlx.async_descriptor_store_wait(0)


DESC = f"tensordesc<fp16[{BM}, {BN}]>"
DESC_4D = f"tensordesc<fp16[1, 1, {BM}, {BN}]>"


def _compile(kernel, signature: dict, swizzle_bytes: int, arch: int):
    constexprs = {"LAYOUT": _nvmma(swizzle_bytes), "BM": BM, "BN": BN}
    signature = {**signature, **dict.fromkeys(constexprs, "constexpr")}
    return compile_tutorial({"kernel": kernel, "signature": signature, "constexprs": constexprs, "num_warps": 4}, arch)


@pytest.mark.parametrize("arch", [90, 100])
@pytest.mark.parametrize("swizzle_bytes", [0, 32, 64, 128])
def test_the_host_tensor_map_swizzles_as_the_buffer(swizzle_bytes, arch):
    compiled = _compile(through_buffer, {"desc": DESC, "out_desc": DESC, "out_ptr": "*fp16"}, swizzle_bytes, arch)
    assert [meta["swizzle"] for meta in compiled.metadata.tensordesc_meta] == [SWIZZLE_MODE[swizzle_bytes]] * 2
    assert "tlx.descriptor_type" not in compiled.asm["ttgir"]


@pytest.mark.parametrize("swizzle_bytes", [0, 64])
def test_a_stock_descriptor_beside_keeps_stocks_layout(swizzle_bytes):
    compiled = _compile(beside_a_stock_load, {"desc": DESC, "stock_desc": DESC, "out_ptr": "*fp16"}, swizzle_bytes, 90)
    ttgir = compiled.asm["ttgir"]
    assert [meta["swizzle"] for meta in compiled.metadata.tensordesc_meta] == [SWIZZLE_MODE[swizzle_bytes], 3]
    assert "tlx.descriptor_type" not in ttgir and "tlx.stock_typed_descriptors" not in ttgir


@pytest.mark.parametrize("swizzle_bytes", [0, 64])
def test_a_device_made_descriptor_beside_a_stock_one_writes_its_buffers_swizzle(swizzle_bytes):
    signature = {"x": "*fp16", "stock_desc": DESC, "out_ptr": "*fp16", "M": "i32", "N": "i32"}
    compiled = _compile(device_made_beside_a_stock_load, signature, swizzle_bytes, 90)
    written = re.findall(r"tensormap\.replace\.tile\.swizzle_mode\S* \[[^]]*\], (\w+);", compiled.asm["ptx"])
    assert [int(mode, 0) for mode in written] == [SWIZZLE_MODE[swizzle_bytes]]
    assert [meta["swizzle"] for meta in compiled.metadata.tensordesc_meta] == [3]  # the stock descriptor's


@pytest.mark.parametrize("arch", [90, 100])
def test_a_task_that_does_not_use_the_descriptor(arch):
    # Stock's pass retyped the captured argument and the using task's, not the others' (verifier error).
    compiled = _compile(in_one_of_three_tasks, {"desc": DESC, "out_ptr": "*fp16"}, 0, arch)
    assert [meta["swizzle"] for meta in compiled.metadata.tensordesc_meta] == [0]


@pytest.mark.parametrize("arch", [90, 100])
@pytest.mark.parametrize("swizzle_bytes", [0, 128])
def test_a_block_with_leading_ones_copies_a_buffer_of_fewer_dimensions(swizzle_bytes, arch):
    compiled = _compile(four_d_block, {"desc": DESC_4D, "out_desc": DESC_4D, "out_ptr": "*fp16"}, swizzle_bytes, arch)
    meta = compiled.metadata.tensordesc_meta
    assert [(m["swizzle"], list(m["block_size"])) for m in meta] == [(SWIZZLE_MODE[swizzle_bytes], [1, 1, BM, BN])] * 2
    ptx = compiled.asm["ptx"]
    assert "cp.async.bulk.tensor.4d.shared::cluster.global" in ptx and "cp.async.bulk.tensor.4d.global.shared" in ptx


def test_leading_ones_need_the_plain_copy():
    @triton.jit
    def multicast_4d(desc, BM: tl.constexpr, BN: tl.constexpr):
        bufs = tlx.local_alloc((BM, BN), tl.float16, 1)
        bars = tlx.alloc_barriers(1)
        tlx.async_descriptor_load(desc, bufs[0], [0, 0, 0, 0], bars[0], eviction_policy="evict_first")

    with pytest.raises(TLXCompilationError, match=r"into a buffer of fewer dimensions \[64, 64\]: with multicast"):
        compile_tutorial(
            {
                "kernel": multicast_4d,
                "signature": {"desc": DESC_4D, "BM": "constexpr", "BN": "constexpr"},
                "constexprs": {"BM": BM, "BN": BN},
                "num_warps": 4,
            }  # fmt: skip
        )


@pytest.mark.gpu
@gpus.hopper_or_newer
@pytest.mark.parametrize("swizzle_bytes", [0, 64, 128])
def test_data_through_buffers_of_every_swizzle_on_gpu(swizzle_bytes):
    import torch
    from triton.tools.tensor_descriptor import TensorDescriptor

    x = torch.randn(BM, BN, device="cuda", dtype=torch.float16)
    via_registers = torch.full_like(x, float("nan"))
    via_tma = torch.full_like(x, float("nan"))
    through_buffer[(1,)](
        TensorDescriptor.from_tensor(x, [BM, BN]),
        TensorDescriptor.from_tensor(via_tma, [BM, BN]),
        via_registers,
        LAYOUT=_nvmma(swizzle_bytes),
        BM=BM,
        BN=BN,
    )
    torch.testing.assert_close(via_registers, x, rtol=0, atol=0)
    torch.testing.assert_close(via_tma, x, rtol=0, atol=0)

    out = torch.full_like(x, float("nan"))
    stock = torch.randn_like(x)
    beside_a_stock_load[(1,)](
        TensorDescriptor.from_tensor(x, [BM, BN]),
        TensorDescriptor.from_tensor(stock, [BM, BN]),
        out,
        LAYOUT=_nvmma(swizzle_bytes),
        BM=BM,
        BN=BN,
    )
    torch.testing.assert_close(out.double(), x.double() + stock.double(), rtol=1e-3, atol=1e-3)

    x4 = torch.randn(3, 2, BM, BN, device="cuda", dtype=torch.float16)
    via_registers = torch.full((3, BM, BN), float("nan"), device="cuda", dtype=torch.float16)
    via_tma = torch.full_like(x4, float("nan"))
    four_d_block[(3,)](
        TensorDescriptor.from_tensor(x4, [1, 1, BM, BN]),
        TensorDescriptor.from_tensor(via_tma, [1, 1, BM, BN]),
        via_registers,
        LAYOUT=_nvmma(swizzle_bytes),
        BM=BM,
        BN=BN,
    )
    torch.testing.assert_close(via_registers, x4[:, 1], rtol=0, atol=0)
    torch.testing.assert_close(via_tma[:, 1], x4[:, 1], rtol=0, atol=0)
    assert via_tma[:, 0].isnan().all()

    out = torch.full_like(x, float("nan"))
    in_one_of_three_tasks[(1,)](
        TensorDescriptor.from_tensor(x, [BM, BN]), out, LAYOUT=_nvmma(swizzle_bytes), BM=BM, BN=BN
    )
    torch.testing.assert_close(out, x, rtol=0, atol=0)
