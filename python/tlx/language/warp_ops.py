"""Warp-level votes and reductions.

``vote_ballot_sync`` is the TLX op of that name (a tensor predicate needs the final register layout, which
only the compiler sees); so is ``scale_rows``, which votes on its factors and branches on the ballot.
``warp_redux`` is no TLX op: its PTX rides stock Triton's elementwise inline assembly, one instance per
element a thread holds. All three are impure so that no pass moves them across the control flow that decides
which lanes take part (every lane of ``mask``, or all 32, must reach them together).
"""

from __future__ import annotations

import triton.language as tl
import triton.language.core as tlc

from .builtin import builtin
from .semantic import Linked, Scalar, TLXSemantic, _describe, _unwrap

__all__ = ["scale_rows", "vote_ballot_sync", "warp_redux"]

_FULL_WARP = 0xFFFFFFFF
_REDUX_OPS = ("max", "min", "abs_max", "abs_min")


@builtin
def vote_ballot_sync(mask, pred, _semantic=None, _generator=None) -> tlc.tensor:
    """A 32-bit mask with bit ``i`` set where lane ``i`` of the warp is in ``mask`` and its predicate is true.

    ``mask`` (a compile-time constant, ``0xFFFFFFFF`` for the whole warp) names the lanes that take part;
    each of them must execute the call with the same ``mask``, and no other lane may (PTX leaves that
    undefined: a tensor ``pred``, which every thread votes on, needs the whole warp). ``pred`` is a scalar
    (a value of each thread, such as one computed from ``tlx.thread_id``) or, as in the public API, a
    tensor: a thread's predicate is then the OR of the elements it holds in the tensor's register layout,
    and the result is an ``int32`` tensor of ``pred``'s shape whose every element is the warp's ballot
    (which elements a thread holds is the layout's: ``tlx.require_layout`` fixes it). A non-bool is
    compared with 0. A scalar result is the same in every lane of the warp.

    Hardware: ``vote.sync.ballot.b32`` (for a tensor, once per thread after an ``or.b32`` of its elements).
    """
    op = "vote_ballot_sync"
    sem = TLXSemantic(_semantic, _generator)
    bits = sem.const_int(op, "mask", mask, minimum=-(2**31), maximum=_FULL_WARP) & _FULL_WARP
    pred = _unwrap(pred)
    if isinstance(pred, tlc.base_value) and not isinstance(pred, tlc.tensor):
        raise sem.error(op, f"`pred` must be a bool or integer scalar or tensor, got {_describe(pred)}")
    pred = _semantic.to_tensor(pred)
    if not (pred.dtype.is_int() or pred.dtype.is_floating()):
        raise sem.error(op, f"`pred` must be a bool or integer scalar or tensor, got {_describe(pred)}")
    if pred.dtype != tl.int1:
        pred = _semantic.not_equal(pred, _semantic.to_tensor(0))
    attrs = {"mask": bits - (1 << 32) if bits >= 1 << 31 else bits}  # the op's mask is a signed i32
    if pred.type.is_block():
        result = tl.block_type(tl.int32, list(pred.shape))
        return tlc.tensor(sem.emit(op, {"pred": pred}, attrs, result=result), result)
    return tlc.tensor(sem.emit(op, {"pred": Scalar(pred.handle, tl.int1)}, attrs, result=tl.int32), tl.int32)


@builtin
def scale_rows(x, scale, _semantic=None, _generator=None) -> tlc.tensor:
    """``x * scale[:, None]``, for a float32 ``x`` of shape ``(M, N)`` and a float32 ``scale`` of shape ``(M,)``,
    skipped by each warp whose factors are all exactly 1.

    The result is the same either way (``x * 1.0`` is ``x``); what changes is the work. An online softmax that
    keeps a row's stale maximum until the row's new one exceeds it by enough (FlashAttention-4's lazy
    rescaling: factor 1 for every other row) then rescales its accumulator only in the warps where some row
    changed, and the others issue one vote and a branch instead of a multiply per element. Every lane of
    the warp must reach the call, as for ``vote_ballot_sync`` of a tensor.

    Hardware: ``vote.sync.ballot.b32`` on the thread's factors that differ from 1, then a ``bra.uni`` around
    one ``mul.f32`` per element the thread holds.
    """
    op = "scale_rows"
    sem = TLXSemantic(_semantic, _generator)
    x, scale = _unwrap(x), _unwrap(scale)
    # Shapes and element types are the op's verifier's; a carrier needs tensors.
    for name, value in (("x", x), ("scale", scale)):
        if not isinstance(value, tlc.tensor) or not value.type.is_block():
            raise sem.error(op, f"`{name}` must be a tensor, got {_describe(value)}")
    return tlc.tensor(sem.emit(op, {"src": x, "scale": Linked(scale)}, result=x.type), x.type)


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
