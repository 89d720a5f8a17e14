"""Asynchronous matrix multiply: ``async_dot`` (wgmma on Hopper, tcgen05 on Blackwell), ``async_dot_wait``,
``tcgen05_commit``."""

from __future__ import annotations

import triton.language as tl

from .builtin import builtin
from .semantic import TLXSemantic

__all__ = ["async_dot", "async_dot_wait", "tcgen05_commit"]


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
    buffers (``A`` may be a register tensor) and the float32 accumulator in
    registers (``acc`` None starts from zero; ``use_acc`` False ignores
    ``acc``). Read the result only after ``async_dot_wait``; the buffers must
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
def async_dot_wait(pendings, inp, _semantic=None, _generator=None):
    """Wait until at most ``pendings`` async dots are in flight; returns ``inp`` (an ``async_dot`` result) ready.

    Hopper: ``wgmma.wait_group pendings``.
    """
    return TLXSemantic(_semantic, _generator).async_dot_wait(pendings, inp)


@builtin
def tcgen05_commit(mBarrier, two_ctas=False, _semantic=None, _generator=None):  # noqa: N803 - the TLX API's names
    """Blackwell: ``mBarrier`` receives one arrival once every earlier ``tcgen05`` op of this thread completes.

    ``tcgen05.commit.cta_group::1.mbarrier::arrive::one.b64``. Use an mbarrier of its own, not one passed to
    ``async_dot(mBarriers=)``.
    """
    return TLXSemantic(_semantic, _generator).tcgen05_commit(mBarrier, two_ctas)
