"""Asynchronous matrix multiply: ``async_dot`` (wgmma on Hopper, tcgen05 on Blackwell), ``async_dot_scaled``
(block-scaled tcgen05), ``async_dot_wait``, ``tcgen05_commit``."""

from __future__ import annotations

import triton.language as tl

from .builtin import builtin
from .semantic import TLXSemantic

__all__ = ["async_dot", "async_dot_scaled", "async_dot_wait", "tcgen05_commit"]


@builtin
def async_dot(
    A,  # noqa: N803 - the TLX API's names
    B,  # noqa: N803
    acc=None,
    use_acc=None,
    pred=None,
    mBarriers=(),  # noqa: N803
    two_ctas=False,
    force_async=False,
    input_precision=None,
    out_dtype=tl.float32,
    _semantic=None,
    _generator=None,
):
    """``acc + a @ b`` on the tensor cores, asynchronously: returns at once.

    Hopper: ``wgmma.mma_async`` with ``A`` and ``B`` read from shared-memory
    buffers (``A`` may be a register tensor of fp16, bf16 or fp8; 8-bit and
    tf32 ``B`` K-major, i.e. an N x K buffer seen through ``local_trans``)
    and the float32 accumulator in registers (``acc`` None starts from zero;
    ``use_acc`` False ignores ``acc``). Read the result only after ``async_dot_wait``; the buffers must
    not be overwritten before then. wgmma is always asynchronous. wgmma has
    no issue predicate: ``pred`` may only be None or True here (the public TLX
    compiler ignores it on this path; put the call under ``if`` instead).

    Blackwell (sm_100, ``acc`` a tensor-memory buffer): ``tcgen05.mma`` with
    ``A`` from shared or tensor memory, ``B`` from shared memory, the float32
    accumulator updated in place in tensor memory; returns nothing.
    ``use_acc`` (default True) False overwrites ``acc``. Each mbarrier of
    ``mBarriers`` receives one arrival when the MMA completes
    (``tcgen05.commit``); without mBarriers (and ``force_async`` False) the
    MMA completes before the next instruction.
    """
    sem = TLXSemantic(_semantic, _generator)
    force = sem.const_bool("async_dot", "force_async", force_async)
    return sem.async_dot(A, B, acc, use_acc, pred, mBarriers, two_ctas, input_precision, out_dtype, force)


@builtin
def async_dot_scaled(
    A,  # noqa: N803 - the TLX API's names
    B,  # noqa: N803
    acc,
    A_scale,  # noqa: N803
    A_format,  # noqa: N803
    B_scale,  # noqa: N803
    B_format,  # noqa: N803
    use_acc=None,
    pred=None,
    mBarriers=(),  # noqa: N803
    two_ctas=False,
    force_async=False,
    out_dtype=tl.float32,
    _semantic=None,
    _generator=None,
):
    """``acc (+)= (A * A_scale) @ (B * B_scale)``, microscaled (MX) formats, on Blackwell's tensor cores.

    ``A`` (M x K) and ``B`` (K x N) are shared-memory buffers in ``A_format`` / ``B_format``: ``"e4m3"`` or
    ``"e5m2"`` (fp8; buffers of ``tl.float8e4nv`` / ``tl.float8e5`` or raw ``tl.uint8``) for both, or
    ``"e2m1"`` (fp4, two values per ``tl.uint8`` byte, low nibble first: the buffer has K / 2 bytes along
    K; pass B as ``tlx.local_trans`` of an N x K / 2 buffer) for both. Every 32 consecutive elements along K
    share one e8m0 scale (a ``tl.uint8`` ``s``, the factor ``2^(s - 127)``): ``A_scale`` holds M x K / 32,
    ``B_scale`` N x K / 32, either a tensor-memory buffer of that shape (``tlx.tmem_copy`` fills it) or a
    shared-memory buffer in the cuBLAS block-scaling layout (``[1, rows / 128, K / 128, 2, 256]``, as TMA
    loads it), copied to tensor memory before the MMA. ``acc``: the M x N float32 accumulator in tensor
    memory, M = 128, N a multiple of 8 up to 256. ``use_acc`` (default True) False overwrites ``acc``; each
    mbarrier of ``mBarriers`` receives one arrival when the MMA completes; without them (and
    ``force_async`` False) it completes before the next instruction. Returns nothing.

    Hardware: ``tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale`` (fp8) or ``kind::mxf4.block_scale``
    (e2m1), scales from tensor memory (``tcgen05.cp`` from shared memory). ``two_ctas`` is not supported.
    """
    sem = TLXSemantic(_semantic, _generator)
    operands = {"A": A, "B": B, "acc": acc, "A_scale": A_scale, "B_scale": B_scale}
    formats = {"A_format": A_format, "B_format": B_format}
    return sem.async_dot_scaled(operands, formats, use_acc, pred, mBarriers, two_ctas, force_async, out_dtype)


@builtin
def async_dot_wait(pendings, inp, _semantic=None, _generator=None):
    """Wait until at most ``pendings`` async dots are in flight; returns ``inp`` (an ``async_dot`` result) ready.

    Hopper: ``wgmma.wait_group pendings``, which covers the issuing warp group only. So in an ``async_task`` of
    more than 4 warps Triton 3.6 has all of the task's warps meet (``bar.sync`` of the task) after the wait,
    before their next shared-memory access, an mbarrier wait included: warp groups that take turns on the
    tensor cores (ping-pong) deadlock there when they share one task; give each its own (``replicate=``).
    """
    return TLXSemantic(_semantic, _generator).async_dot_wait(pendings, inp)


@builtin
def tcgen05_commit(mBarrier, two_ctas=False, _semantic=None, _generator=None):  # noqa: N803 - the TLX API's names
    """Blackwell: ``mBarrier`` receives one arrival once every earlier ``tcgen05`` op of this thread completes.

    ``tcgen05.commit.cta_group::1.mbarrier::arrive::one.b64``. Use an mbarrier of its own, not one passed to
    ``async_dot(mBarriers=)``.
    """
    return TLXSemantic(_semantic, _generator).tcgen05_commit(mBarrier, two_ctas)
