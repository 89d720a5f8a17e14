"""The public TLX API's names this TLX defines but does not implement yet (not tied to a target).

Defined with the public API's signatures; each is an error at the kernel line (``targets.not_yet``) that says
what the name is for, instead of ``AttributeError``: device-side TMA descriptors in slots of the kernel's own
(``allocate_tensor_descriptor``, ``reinterpret_tensor_descriptor``, ``tensor_descriptor_ptr``) and the register
layout pins (``require_layout``, ``release_layout``, ``assert_same_layout``).
"""

from __future__ import annotations

from .builtin import builtin
from .targets import GatedClass, not_yet

__all__ = [
    "allocate_tensor_descriptor",
    "assert_same_layout",
    "reinterpret_tensor_descriptor",
    "release_layout",
    "require_layout",
    "tensor_descriptor_ptr",
    "tensor_descriptor_ptr_type",
]

_DESC = "device-side TMA descriptors in slots of the kernel's own (tensormap.replace into global scratch)"
_USE_DESC = "tlx.make_tensor_descriptor(None, ...) or tl.make_tensor_descriptor makes one in Triton's scratch"
_LAYOUT = "pinning a register tensor's layout (a TLX op the layout passes respect)"


@builtin
def allocate_tensor_descriptor(num, _semantic=None, _generator=None):
    """Global scratch for ``num`` 128-byte TMA descriptors (not implemented yet)."""
    not_yet("allocate_tensor_descriptor", _DESC, _semantic, _generator, _USE_DESC)


@builtin
def reinterpret_tensor_descriptor(desc_ptr, block_shape, dtype, _semantic=None, _generator=None):
    """The TMA descriptor stored at ``desc_ptr``, of ``block_shape`` blocks of ``dtype`` (not implemented yet)."""
    not_yet("reinterpret_tensor_descriptor", _DESC, _semantic, _generator, _USE_DESC)


@builtin
def require_layout(x, layout, pin=True, late_address_compute=False, _semantic=None, _generator=None):
    """Give register tensor ``x`` the register ``layout``, pinned through layout propagation (not implemented
    yet)."""
    not_yet("require_layout", _LAYOUT, _semantic, _generator)


@builtin
def release_layout(x, _semantic=None, _generator=None):
    """Release a layout pinned by ``require_layout`` (not implemented yet)."""
    not_yet("release_layout", _LAYOUT, _semantic, _generator)


@builtin
def assert_same_layout(lhs, rhs, _semantic=None, _generator=None):
    """Check at compile time that two values (or a value and a layout) end up in the same layout (not
    implemented yet)."""
    not_yet(
        "assert_same_layout",
        "comparing final layouts at compile time",
        _semantic,
        _generator,
        "tlx.dump_layout(x) reports the layout TLX chose",
    )


class _PendingClass(GatedClass):
    _gate = staticmethod(not_yet)


class tensor_descriptor_ptr(_PendingClass):
    """A pointer to ``num`` descriptor slots of ``descriptor_size`` bytes (not implemented yet)."""

    _what = f"a pointer to {_DESC}"

    def __init__(self, handle, num, descriptor_size, _semantic=None, _generator=None) -> None:
        self._refuse(_semantic, _generator)


class tensor_descriptor_ptr_type(_PendingClass):
    """The type of :class:`tensor_descriptor_ptr` (not implemented yet)."""

    _what = f"the type of a pointer to {_DESC}"

    def __init__(self, num, size=128, _semantic=None, _generator=None) -> None:
        self._refuse(_semantic, _generator)
