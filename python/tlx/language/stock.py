"""Names of the public TLX API that stock Triton provides the instructions for: no TLX op.

``prefetch`` rides Triton's elementwise inline assembly; ``zeros`` and ``dot_scaled`` are Triton's own
(``tl.zeros``, ``tl.dot_scaled``); ``assume_uniform`` is an AMD hint that NVIDIA code does not need.
"""

from __future__ import annotations

import triton.language as tl
import triton.language.core as tlc

from .builtin import builtin
from .semantic import TLXSemantic, _describe, _unwrap
from .targets import amd_only

__all__ = ["assume_uniform", "dot_scaled", "prefetch", "zeros"]


@builtin
def prefetch(pointer, level="L2", mask=None, tensormap=False, _semantic=None, _generator=None) -> None:
    """Prefetch the global memory each pointer of ``pointer`` (a tensor of pointers or one pointer) points to.

    ``level``: ``"L2"`` (into L2) or ``"L1"`` (into L1 and L2). ``mask``: only where it is true. A hint:
    nothing waits for it. ``tensormap=True`` (prefetch a TMA descriptor) is not supported yet.

    Hardware: ``prefetch.global.L2`` / ``prefetch.global.L1``, one per element a thread holds.
    """
    op = "prefetch"
    sem = TLXSemantic(_semantic, _generator)
    if sem.const_bool(op, "tensormap", tensormap):
        raise sem.error(
            op, "`tensormap=True` (prefetch.tensormap of a TMA descriptor) is not supported by this TLX release yet"
        )
    level = _unwrap(level)
    if level not in ("L1", "L2"):
        raise sem.error(op, f"`level` must be 'L1' or 'L2', got {level!r}")
    pointer = _unwrap(pointer)
    if not isinstance(pointer, tlc.tensor) or not pointer.dtype.is_ptr():
        raise sem.error(op, f"`pointer` must be a pointer or a tensor of pointers, got {_describe(pointer)}")
    mask = _unwrap(mask)
    if mask is None:
        asm = f"{{ prefetch.global.{level} [$1]; mov.b32 $0, 0; }}"
        tlc.inline_asm_elementwise(asm, "=r,l", [pointer], tl.int32, False, 1, _semantic=_semantic)
        return
    mask = _semantic.to_tensor(mask)
    if mask.dtype != tl.int1:
        raise sem.error(op, f"`mask` must be a bool tensor, got {_describe(mask)}")
    flags = _semantic.cast(mask, tl.int32)
    asm = f"{{ .reg .pred p; setp.ne.b32 p, $2, 0; @p prefetch.global.{level} [$1]; mov.b32 $0, 0; }}"
    tlc.inline_asm_elementwise(asm, "=r,l,r", [pointer, flags], tl.int32, False, 1, _semantic=_semantic)


@builtin
def zeros(shape, dtype, layout=None, _semantic=None, _generator=None) -> tlc.tensor:
    """A tensor of zeros, ``tl.zeros(shape, dtype)``. ``layout`` (an explicit register layout) is not supported
    yet."""
    sem = TLXSemantic(_semantic, _generator)
    sem.unsupported("zeros", "layout", layout)
    return tlc.full(shape, 0, sem.element_dtype("zeros", "dtype", dtype), _semantic=_semantic)


@builtin
def dot_scaled(
    lhs,
    lhs_scale,
    lhs_format,
    rhs,
    rhs_scale,
    rhs_format,
    acc=None,
    fast_math=False,
    lhs_k_pack=True,
    rhs_k_pack=True,
    out_dtype=tl.float32,
    tiles_per_warp=None,
    _semantic=None,
    _generator=None,
) -> tlc.tensor:
    """``tl.dot_scaled``: a matrix product of block-scaled operands (on Hopper, Triton upcasts the operands and
    runs wgmma). ``tiles_per_warp`` is an AMD WMMA schedule.

    Stock Triton checks the operands' shapes and formats with ``assert`` (and meets values of the wrong kind
    with AttributeErrors); here each argument's kind is checked first and stock's assertions are reported at
    the kernel line."""
    op = "dot_scaled"
    sem = TLXSemantic(_semantic, _generator)
    if _unwrap(tiles_per_warp) is not None:
        amd_only(op, "`tiles_per_warp`, a schedule of AMD WMMA tiles", _semantic, _generator)
    sem.register_tensor(op, "lhs", lhs)
    sem.register_tensor(op, "rhs", rhs)
    for name, value in (("lhs_scale", lhs_scale), ("rhs_scale", rhs_scale), ("acc", acc)):
        if _unwrap(value) is not None:
            sem.register_tensor(op, name, value)
    for name, value in (("lhs_format", lhs_format), ("rhs_format", rhs_format)):
        value = _unwrap(value)
        if not isinstance(value, str) or not value:
            raise sem.error(op, f"`{name}` must name the operand's format, e.g. 'e4m3', got {_describe(value)}")
    for name, value in (("fast_math", fast_math), ("lhs_k_pack", lhs_k_pack), ("rhs_k_pack", rhs_k_pack)):
        sem.const_bool(op, name, value)
    sem.element_dtype(op, "out_dtype", out_dtype)
    try:
        return tl.dot_scaled(
            lhs,
            lhs_scale,
            lhs_format,
            rhs,
            rhs_scale,
            rhs_format,
            acc,
            fast_math,
            lhs_k_pack,
            rhs_k_pack,
            out_dtype,
            _semantic=_semantic,
        )
    except AssertionError as refused:
        reason = str(refused) or "the accumulator's shape or dtype is not the product's"
        raise sem.error(op, f"stock Triton refuses these operands: {reason}") from None


@builtin
def assume_uniform(value, _semantic=None, _generator=None):
    """``value`` (a scalar pointer or a 16/32/64-bit scalar), unchanged.

    On AMD it tells the compiler the value is the same in every lane (``v_readfirstlane``); NVIDIA code
    needs no such hint, so it emits nothing here, as in the public API on non-AMD targets.
    """
    op = "assume_uniform"
    sem = TLXSemantic(_semantic, _generator)
    tensor = _unwrap(value)
    if not isinstance(tensor, tlc.tensor):
        tensor = _semantic.to_tensor(tensor)
    scalar = tensor.type.scalar
    if tensor.type.is_block() or not (scalar.is_ptr() or scalar.primitive_bitwidth >= 16):
        raise sem.error(op, f"expects a scalar pointer or a 16/32/64-bit scalar, got {_describe(tensor)}")
    return value
