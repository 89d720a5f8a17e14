"""Asynchronous matrix multiply: ``async_dot`` and ``async_dot_wait``."""

from __future__ import annotations

import triton.language as tl

from .builtin import builtin
from .semantic import TLXSemantic

__all__ = ["async_dot", "async_dot_wait"]


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
    not be overwritten before then. ``force_async`` is the Blackwell form's
    (tcgen05 without mbarriers); wgmma is always asynchronous.
    """
    sem = TLXSemantic(_semantic, _generator)
    sem.const_bool("async_dot", "force_async", force_async)
    return sem.async_dot(A, B, acc, use_acc, pred, mBarriers, two_ctas, input_precision, out_dtype)


@builtin
def async_dot_wait(pendings, inp, _semantic=None, _generator=None):
    """Wait until at most ``pendings`` async dots are in flight; returns ``inp`` (an ``async_dot`` result) ready.

    Hopper: ``wgmma.wait_group pendings``.
    """
    return TLXSemantic(_semantic, _generator).async_dot_wait(pendings, inp)
