"""Asynchronous matrix multiply: ``async_dot`` and ``async_dot_wait``."""

from __future__ import annotations

import triton.language as tl

from .builtin import builtin
from .semantic import TLXSemantic

__all__ = ["async_dot", "async_dot_wait"]


@builtin
def async_dot(
    a,
    b,
    acc=None,
    use_acc=None,
    pred=None,
    mBarriers=(),  # noqa: N803 - the TLX API's name
    two_ctas=False,
    input_precision=None,
    out_dtype=tl.float32,
    _semantic=None,
    _generator=None,
):
    """``acc + a @ b`` on the tensor cores, asynchronously: returns at once.

    Hopper: ``wgmma.mma_async`` with ``a`` and ``b`` read from shared-memory
    buffers and the float32 accumulator in registers (``acc`` None starts from
    zero; ``use_acc`` False ignores ``acc``). Read the result only after
    ``async_dot_wait``; the buffers must not be overwritten before then.
    """
    return TLXSemantic(_semantic, _generator).async_dot(
        a, b, acc, use_acc, pred, mBarriers, two_ctas, input_precision, out_dtype
    )


@builtin
def async_dot_wait(pendings, acc, _semantic=None, _generator=None):
    """Wait until at most ``pendings`` async dots are in flight; returns ``acc`` ready.

    Hopper: ``wgmma.wait_group pendings``.
    """
    return TLXSemantic(_semantic, _generator).async_dot_wait(pendings, acc)
