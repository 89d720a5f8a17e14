"""Thread ids, clocks, compile-time type queries, stochastic rounding, and register layouts (require, release,
check, report)."""

from __future__ import annotations

import triton.language.core as tlc

from .builtin import builtin
from .errors import TLXError
from .semantic import TLXSemantic
from .types import buffered_tensor

__all__ = [
    "assert_same_layout",
    "clock64",
    "cluster_cta_rank",
    "cluster_size_1d",
    "dtype_of",
    "dump_layout",
    "get_fp8_format_name",
    "release_layout",
    "require_layout",
    "size_of",
    "stoch_round",
    "thread_id",
]


@builtin
def thread_id(axis, _semantic=None, _generator=None) -> tlc.tensor:
    """The thread's index in its CTA along ``axis`` (0, 1 or 2), an ``int32``.

    Hardware: ``mov.u32 %r, %tid.x`` (``%tid.y``, ``%tid.z``).
    """
    return TLXSemantic(_semantic, _generator).thread_id(axis)


@builtin
def stoch_round(src, dst_ty, rand_bits, _semantic=None, _generator=None) -> tlc.tensor:
    """``src`` (a float32 tensor) in ``dst_ty`` (``tl.float8e4nv``, ``tl.float8e5``, ``tl.bfloat16`` or
    ``tl.float16``), rounded stochastically: up or down with a probability given by its distance to the two
    neighbours, ``rand_bits`` (a ``uint32`` tensor of ``src``'s shape) deciding; values beyond the type's
    range saturate to its largest finite value. Blackwell (sm_100).

    Hardware: ``cvt.rs.satfinite.{e4m3x4,e5m2x4}.f32`` (4 values per instruction) or
    ``cvt.rs.satfinite.{bf16x2,f16x2}.f32`` (2). Each instruction takes one 32-bit random word: the XOR of
    its values' ``rand_bits``, each shifted left by its place (0..3) among them, so every element's bits count.
    ``dst_ty`` tl.float32 returns ``src``.
    """
    return TLXSemantic(_semantic, _generator).stoch_round(src, dst_ty, rand_bits)


@builtin
def dump_layout(x, _semantic=None, _generator=None) -> None:
    """Report, at compile time, the layout ``x`` (a register tensor or one buffer) resolved to.

    Once the TLX compiler has chosen layouts, the value's type with its encoding goes to the compiler log
    (stderr) as a remark at this line, e.g. ``!ttg.memdesc<64x64xf16, #ttg.nvmma_shared<...>, ...>``.
    Hardware: none; no code is emitted. Triton's later passes may still convert a register tensor's layout.
    The report comes when the kernel compiles (a kernel served from Triton's cache is not compiled again).
    """
    TLXSemantic(_semantic, _generator).dump_layout(x)


@builtin
def require_layout(x, layout, pin=True, late_address_compute=False, _semantic=None, _generator=None) -> tlc.tensor:
    """``x`` (a register tensor) in the register layout ``layout`` (``tlx.layout(...)``, another TLX register
    layout, or the text of a ``#ttg`` one); the tensors computed elementwise from it, and the values a loop
    carries for them, take that layout too.

    With ``pin=True`` the layout holds through Triton's layout optimizations (the TLX compiler applies it
    again after they have run, up to ``tlx.release_layout``); with ``pin=False`` they may choose another.
    ``late_address_compute`` (a hint for where a conversion computes its shared-memory addresses) is
    accepted and has no effect: Triton 3.6 places those itself.

    Hardware: a register layout conversion (``ttg.convert_layout``: shuffles or a trip through shared
    memory) where the layout differs from the one the value has.
    """
    return TLXSemantic(_semantic, _generator).require_layout(x, layout, pin, late_address_compute)


@builtin
def release_layout(x, _semantic=None, _generator=None) -> tlc.tensor:
    """``x``, where a layout pinned by ``tlx.require_layout`` ends: the tensors computed from the result take
    whatever layout Triton chooses (a conversion here when it differs). Hardware: none, or that conversion.
    """
    return TLXSemantic(_semantic, _generator).release_layout(x)


@builtin
def assert_same_layout(lhs, rhs, _semantic=None, _generator=None) -> None:
    """Check at compile time that ``lhs`` and ``rhs`` end up in the same layout: two register tensors of one
    shape (once Triton's layout optimizations and the pins have run, compared as linear layouts: converting
    one into the other moves no data), two buffers (their shared layouts), or ``lhs`` and a layout ``rhs``
    (``tlx.layout(...)`` or another TLX layout). An error at this line when they differ.

    Hardware: none; no code is emitted. (The check runs when the kernel compiles.)
    """
    TLXSemantic(_semantic, _generator).assert_same_layout(lhs, rhs)


@builtin
def clock64(_semantic=None, _generator=None) -> tlc.tensor:
    """The SM's 64-bit cycle counter, an ``int64``. Not a synchronization point.

    Hardware: ``mov.u64 %rd, %clock64``.
    """
    return TLXSemantic(_semantic, _generator).clock64()


@builtin
def cluster_cta_rank(_semantic=None, _generator=None) -> tlc.tensor:
    """The CTA's rank in its cluster (0 .. cluster size - 1, over all dimensions), an ``int32``.

    Hardware: ``mov.u32 %r, %cluster_ctarank`` (sm_90+; 0 without a cluster launch).
    """
    return TLXSemantic(_semantic, _generator).cluster_op("cluster_cta_rank", tlc.int32)


@builtin
def cluster_size_1d(_semantic=None, _generator=None) -> tlc.tensor:
    """The number of CTAs in the cluster (the product of its dimensions), an ``int32``.

    Hardware: ``mov.u32 %r, %cluster_nctarank`` (sm_90+; 1 without a cluster launch).
    """
    return TLXSemantic(_semantic, _generator).cluster_op("cluster_size_1d", tlc.int32)


@builtin
def dtype_of(v, _semantic=None, _generator=None) -> tlc.dtype:
    """The element type of a tensor (the pointee for pointers), a tensor descriptor or a TLX buffer.

    Compile time only: emits nothing.
    """
    v = tlc._unwrap_if_constexpr(v)
    if isinstance(v, tlc.tensor):
        dtype = v.type.scalar
        return dtype.element_ty if dtype.is_ptr() else dtype
    if isinstance(v, tlc.tensor_descriptor_base):
        return v.dtype
    if isinstance(v, buffered_tensor):
        return v.dtype
    raise TLXError(
        f"{TLXSemantic(_semantic, _generator).where()}: tlx.dtype_of: expects a tensor, a tensor descriptor "
        f"or a TLX buffer, got {v!r}"
    )


@builtin
def size_of(dtype, _semantic=None, _generator=None) -> tlc.constexpr:
    """The size of one element of ``dtype`` in bytes, a ``tl.constexpr``. Compile time only."""
    dtype = tlc._unwrap_if_constexpr(dtype)
    if not isinstance(dtype, tlc.dtype) or isinstance(dtype, tlc.block_type) or dtype == tlc.void:
        raise TLXError(
            f"{TLXSemantic(_semantic, _generator).where()}: tlx.size_of: expects a dtype such as tl.float16, "
            f"got {dtype!r}"
        )
    if dtype.is_ptr():
        return tlc.constexpr(8)
    return tlc.constexpr(dtype.primitive_bitwidth // 8)


#: The FP8 formats scaled MMA names, by dtype.
_FP8_FORMATS = {tlc.float8e5: "e5m2", tlc.float8e4nv: "e4m3"}


@builtin
def get_fp8_format_name(dtype, _semantic=None, _generator=None) -> tlc.constexpr:
    """The format name of an FP8 dtype, a ``tl.constexpr``: ``"e5m2"`` for ``tl.float8e5``, ``"e4m3"`` for
    ``tl.float8e4nv`` (what scaled MMA's ``A_format`` / ``B_format`` take). Compile time only."""
    dtype = tlc._unwrap_if_constexpr(dtype)
    name = next((n for d, n in _FP8_FORMATS.items() if dtype == d), None) if isinstance(dtype, tlc.dtype) else None
    if name is None:
        raise TLXError(
            f"{TLXSemantic(_semantic, _generator).where()}: tlx.get_fp8_format_name: supports only tl.float8e5 "
            f"(e5m2) and tl.float8e4nv (e4m3), got {dtype!r}"
        )
    return tlc.constexpr(name)
