"""The public API's copy options on a GPU (marker `gpu`; Hopper or newer): L2 cache hints on TMA loads, stores
and prefetches, TMA reductions (``store_reduce``) and bulk loads (``async_load(bulk=True)``) compute what PyTorch
computes, on fresh random inputs, into outputs poisoned first.

Their PTX is checked on the CPU in test_ops_ptx.py.
"""

import gpus
import pytest
import triton
import triton.language as tl

import tlx

pytestmark = [pytest.mark.gpu, gpus.hopper_or_newer]

BM, BN = 64, 64


@triton.jit
def copy_tiles(src_desc, dst_desc, LOAD_EVICT: tl.constexpr, STORE_EVICT: tl.constexpr, REDUCE: tl.constexpr,
               ELEMENT_BYTES: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):  # fmt: skip
    """One tile per program: TMA-loaded, then stored (or reduced) into the same tile of `dst_desc`."""
    bufs = tlx.local_alloc((BM, BN), tlx.dtype_of(src_desc), 1)
    bars = tlx.alloc_barriers(1)
    m = tl.program_id(0) * BM
    n = tl.program_id(1) * BN
    tlx.async_descriptor_prefetch_tensor(src_desc, [m, n], eviction_policy=LOAD_EVICT)
    tlx.barrier_expect_bytes(bars[0], BM * BN * ELEMENT_BYTES)
    tlx.async_descriptor_load(src_desc, bufs[0], [m, n], bars[0], eviction_policy=LOAD_EVICT)
    tlx.barrier_wait(bars[0], 0)
    tlx.async_descriptor_store(dst_desc, bufs[0], [m, n], eviction_policy=STORE_EVICT, store_reduce=REDUCE)
    tlx.async_descriptor_store_wait(0)


def _run_copy(src, dst, load_evict, store_evict, reduce):
    from triton.tools.tensor_descriptor import TensorDescriptor

    m, n = src.shape
    copy_tiles[(m // BM, n // BN)](
        TensorDescriptor.from_tensor(src, [BM, BN]),
        TensorDescriptor.from_tensor(dst, [BM, BN]),
        LOAD_EVICT=load_evict,
        STORE_EVICT=store_evict,
        REDUCE=reduce,
        ELEMENT_BYTES=src.element_size(),
        BM=BM,
        BN=BN,
    )


@pytest.mark.parametrize("load_evict, store_evict", [("evict_last", "evict_first"), ("evict_first", "evict_last")])
@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_cache_hinted_tma_copy_on_gpu(load_evict, store_evict, dtype):
    import torch

    src = torch.randn(256, 192, device="cuda").to(getattr(torch, dtype))
    dst = torch.full_like(src, float("nan"))
    _run_copy(src, dst, load_evict, store_evict, "")
    assert torch.equal(dst, src)


def _random(dtype, shape):
    import torch

    if dtype == torch.int32:
        return torch.randint(-(2**20), 2**20, shape, device="cuda", dtype=dtype)
    return torch.randn(shape, device="cuda").to(dtype)


@pytest.mark.parametrize("store_evict", ["", "evict_first"])
@pytest.mark.parametrize(
    "reduce, dtype",
    [
        ("add", "float32"),
        ("add", "int32"),
        ("add", "float16"),
        ("min", "int32"),
        ("max", "int32"),
        ("min", "bfloat16"),
        ("max", "float16"),
        ("and", "int32"),
        ("or", "int32"),
        ("xor", "int32"),
    ],
)
def test_tma_reduction_on_gpu(reduce, dtype, store_evict):
    import torch

    dtype = getattr(torch, dtype)
    src = _random(dtype, (256, 192))
    start = _random(dtype, (256, 192))
    dst = start.clone()
    _run_copy(src, dst, "", store_evict, reduce)
    combine = {
        "add": torch.add,
        "min": torch.minimum,
        "max": torch.maximum,
        "and": torch.bitwise_and,
        "or": torch.bitwise_or,
        "xor": torch.bitwise_xor,
    }[reduce]
    expected = combine(start, src)
    if dtype.is_floating_point:
        torch.testing.assert_close(dst, expected)
    else:
        assert torch.equal(dst, expected)


@triton.jit
def bulk_load_rows(x, out, N: tl.constexpr, BYTES: tl.constexpr, PASS_SIZE: tl.constexpr):
    """Row r of `x` into a buffer by one bulk copy of BYTES bytes (all of it without PASS_SIZE), then out."""
    bufs = tlx.local_alloc((N,), tl.float32, 1)
    bars = tlx.alloc_barriers(1)
    row = tl.program_id(0)
    tlx.barrier_expect_bytes(bars[0], BYTES)
    if PASS_SIZE:
        tlx.async_load(x + row * N, bufs[0], bulk=True, bulk_size=BYTES, barrier=bars[0])
    else:
        tlx.async_load(x + row * N, bufs[0], bulk=True, barrier=bars[0])
    tlx.barrier_wait(bars[0], 0)
    offs = tl.arange(0, N)
    tl.store(out + row * N + offs, tlx.local_load(bufs[0]), mask=offs < BYTES // 4)


@pytest.mark.parametrize("bytes_, pass_size", [(1024, False), (1024, True), (512, True), (16, True)])
def test_bulk_async_load_on_gpu(bytes_, pass_size):
    import torch

    rows, n = 8, 256
    x = torch.randn(rows, n, device="cuda")
    out = torch.full_like(x, float("nan"))
    bulk_load_rows[(rows,)](x, out, N=n, BYTES=bytes_, PASS_SIZE=pass_size, num_warps=4)
    copied = bytes_ // 4
    assert torch.equal(out[:, :copied], x[:, :copied])
    assert out[:, copied:].isnan().all(), "elements past bulk_size were written"
