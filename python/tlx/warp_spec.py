"""Helpers of the public TLX API's ``triton.language.extra.tlx.warp_spec`` module, for warp-specialized
pipelines: which slot of a ring of buffers and mbarriers a step uses, and the phase parity to wait for."""

import triton
import triton.language as tl

__all__ = ["get_bufidx_phase"]


@triton.jit
def get_bufidx_phase(accum_cnt, NUM_BUFFERS: tl.constexpr):  # noqa: N803 - the public API's names
    """(slot, parity) of the ``accum_cnt``-th use of a ring of ``NUM_BUFFERS``: the slot cycles, and the
    parity flips each time the ring wraps (the phase an ``mbarrier.try_wait.parity`` on that slot waits for)."""
    return accum_cnt % NUM_BUFFERS, (accum_cnt // NUM_BUFFERS) & 1
