"""The public TLX API's Blackwell (sm_100) names this TLX does not implement yet.

Defined with the public API's signatures; each is an error at the kernel line (``targets.blackwell_only``):
below sm_100 it says the name needs Blackwell, on sm_100 that this release does not implement it yet.
"""

from __future__ import annotations

import triton.language as tl

from .builtin import builtin
from .targets import blackwell_only

__all__ = [
    "async_dot_scaled",
    "stoch_round",
]


@builtin
def async_dot_scaled(
    A,  # noqa: N803 - the public API's names
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
    """Blackwell: block-scaled MMA, ``tcgen05.mma`` with scale factors (not implemented yet)."""
    blackwell_only("async_dot_scaled", "block-scaled MMA (tcgen05.mma with scales)", _semantic, _generator)


@builtin
def stoch_round(src, dst_ty, rand_bits, _semantic=None, _generator=None):
    """Blackwell: stochastic rounding of float32 to fp8/bf16/fp16, ``cvt.rs`` (not implemented yet)."""
    blackwell_only("stoch_round", "stochastic rounding (cvt.rs.satfinite)", _semantic, _generator)
