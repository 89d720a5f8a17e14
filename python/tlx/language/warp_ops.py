"""Warp-level votes and reductions, built from stock Triton's ``tl.inline_asm_elementwise``.

No TLX op: the PTX rides Triton's elementwise inline assembly, one instance per element a thread holds.
Both are marked impure so that no pass moves them across the control flow that decides which lanes take
part (every lane of ``mask``, or all 32, must reach them together).
"""

from __future__ import annotations

import triton.language as tl
import triton.language.core as tlc

from .builtin import builtin
from .semantic import TLXSemantic, _describe, _unwrap

__all__ = ["vote_ballot_sync", "warp_redux"]

_FULL_WARP = 0xFFFFFFFF
_REDUX_OPS = ("max", "min", "abs_max", "abs_min")


@builtin
def vote_ballot_sync(mask, pred, _semantic=None, _generator=None) -> tlc.tensor:
    """A 32-bit mask with bit ``i`` set where lane ``i`` of the warp is in ``mask`` and its ``pred`` is true.

    ``mask`` (a compile-time constant, ``0xFFFFFFFF`` for the whole warp) names the lanes that take part;
    each of them must execute the call with the same ``mask``. ``pred`` is a scalar (a value of each
    thread, such as one computed from ``tlx.thread_id``); a non-bool is compared with 0. Returns an
    ``int32``, the same in every lane of the warp.

    Hardware: ``vote.sync.ballot.b32``.
    """
    op = "vote_ballot_sync"
    sem = TLXSemantic(_semantic, _generator)
    bits = sem.const_int(op, "mask", mask, minimum=-(2**31), maximum=_FULL_WARP) & _FULL_WARP
    pred = _unwrap(pred)
    if isinstance(pred, tlc.base_value) and not isinstance(pred, tlc.tensor):
        raise sem.error(op, f"`pred` must be a scalar bool or integer, got {_describe(pred)}")
    pred = _semantic.to_tensor(pred)
    if pred.type.is_block():
        # The public API ORs the elements each thread holds into one ballot: what a thread holds is the
        # layout's to decide, which a TLX op would have to see.
        raise sem.error(
            op,
            f"a tensor `pred` (shape {[int(tlc._unwrap_if_constexpr(d)) for d in pred.shape]}) is not supported by "
            "this TLX release yet (each thread's elements "
            "are combined into one ballot, which depends on the tensor's layout): pass a scalar predicate",
        )
    if not (pred.dtype.is_int() or pred.dtype.is_floating()):
        raise sem.error(op, f"`pred` must be a scalar bool or integer, got {_describe(pred)}")
    if pred.dtype != tl.int1:
        pred = _semantic.not_equal(pred, _semantic.to_tensor(0))
    flag = _semantic.cast(pred, tl.int32)
    asm = f"{{ .reg .pred p; setp.ne.b32 p, $1, 0; vote.sync.ballot.b32 $0, p, {bits:#010x}; }}"
    return tlc.inline_asm_elementwise(asm, "=r,r", [flag], tl.int32, False, 1, _semantic=_semantic)


def _redux_asm(kind: str, capability: int | None) -> str:
    """PTX of one element of ``warp_redux``: ``redux.sync`` on sm_100 (Blackwell), a shuffle butterfly before."""
    minmax = kind.removeprefix("abs_")
    absolute = "and.b32 v, v, 0x7FFFFFFF; " if kind.startswith("abs_") else ""
    if capability is not None and 100 <= capability < 120:
        # redux.sync on f32 is an sm_100a instruction: the public API's form.
        return f"{{ .reg .b32 v; mov.b32 v, $1; {absolute}redux.sync.{minmax}.f32 v, v, 0xFFFFFFFF; mov.b32 $0, v; }}"
    steps = "".join(
        f"shfl.sync.bfly.b32 o, v, {lane}, 0x1f, 0xFFFFFFFF; {minmax}.f32 v, v, o; " for lane in (16, 8, 4, 2, 1)
    )
    return f"{{ .reg .f32 v, o; mov.b32 v, $1; {absolute}{steps}mov.b32 $0, v; }}"


@builtin
def warp_redux(x, op, _semantic=None, _generator=None) -> tlc.tensor:
    """Each element of the float32 ``x`` replaced by the reduction of that element over the 32 lanes of its warp.

    ``op``: ``"max"``, ``"min"``, ``"abs_max"`` or ``"abs_min"`` (of the absolute values). Every lane gets the
    result. Which elements meet in one reduction is the tensor's layout's: element ``i`` a thread holds meets
    element ``i`` of the other lanes (for a scalar, the value of each lane). NaN inputs are ignored unless all
    are NaN.

    Hardware: ``redux.sync.{max,min}.f32`` on sm_100 (as in the public API, which needs Blackwell); on sm_90 a
    butterfly of five ``shfl.sync.bfly.b32`` with ``max.f32`` / ``min.f32``.
    """
    name = "warp_redux"
    sem = TLXSemantic(_semantic, _generator)
    kind = _unwrap(op)
    if kind not in _REDUX_OPS:
        raise sem.error(name, f"`op` must be one of {', '.join(repr(k) for k in _REDUX_OPS)}, got {kind!r}")
    x = _unwrap(x)
    if isinstance(x, tlc.base_value) and not isinstance(x, tlc.tensor):
        raise sem.error(name, f"`x` must be a float32 tensor, got {_describe(x)}")
    x = _semantic.to_tensor(x)
    if x.dtype != tl.float32:
        raise sem.error(name, f"`x` must be a float32 tensor, got {_describe(x)}")
    asm = _redux_asm(kind, sem.capability())
    return tlc.inline_asm_elementwise(asm, "=f,f", [x], tl.float32, False, 1, _semantic=_semantic)
