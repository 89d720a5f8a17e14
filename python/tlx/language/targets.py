"""Names of the public TLX API that need hardware or support this TLX does not have: one gate each.

This TLX targets NVIDIA GPUs: Hopper (sm_90) and, compile-only, Blackwell (sm_100). The public API also
exports AMD-only operations and Blackwell operations this release does not implement yet. They are defined
here with the public API's signatures, so that a kernel written for it gets, at the line that uses one,
an error that says what the name is for and why it cannot be used, instead of ``AttributeError``:

* :func:`amd_only`: ``tlx.<name>: for AMD GPUs only (...); this TLX targets NVIDIA GPUs ...``
* :func:`blackwell_only`: below sm_100, ``... needs sm_100 (Blackwell) or newer; this kernel is compiled
  for sm_90``; on sm_100, ``... is not implemented by this TLX release yet``.

The same gates serve classes (:class:`GatedClass`), which the public API constructs inside kernels or
returns from gated builtins.
"""

from __future__ import annotations

from typing import Any, NoReturn

from .errors import TLXError, location
from .errors import generator_of as _generator_of

#: What this TLX compiles for, as the AMD-only error says it.
NVIDIA_TARGETS = "this TLX targets NVIDIA GPUs (Hopper sm_90; Blackwell sm_100, compile-only)"
BLACKWELL = 100


def _where(semantic: Any, generator: Any) -> str:
    where = location(generator or _generator_of(semantic))
    return f"{where}: " if where else ""


class _Target:
    """Just enough of a TLXSemantic for :meth:`TLXSemantic.capability`, the one reader of the target."""

    def __init__(self, semantic: Any) -> None:
        self.builder = semantic.builder


def _capability(semantic: Any) -> int | None:
    if semantic is None:
        return None
    from .semantic import TLXSemantic

    return TLXSemantic.capability(_Target(semantic))


def amd_only(name: str, what: str, _semantic: Any = None, _generator: Any = None, instead: str = "") -> NoReturn:
    """Raise the error of ``tlx.<name>``, an AMD-only name (``what`` it is on AMD; ``instead``: what to use on
    NVIDIA, if anything)."""
    hint = f"; on NVIDIA use {instead}" if instead else ""
    raise TLXError(f"{_where(_semantic, _generator)}tlx.{name}: for AMD GPUs only ({what}); {NVIDIA_TARGETS}{hint}")


def blackwell_only(name: str, what: str, _semantic: Any = None, _generator: Any = None) -> NoReturn:
    """Raise the error of ``tlx.<name>``, a Blackwell (sm_100) name this TLX does not implement yet."""
    where = _where(_semantic, _generator)
    capability = _capability(_semantic)
    if capability is not None and capability < BLACKWELL:
        raise TLXError(
            f"{where}tlx.{name}: {what} needs sm_{BLACKWELL} (Blackwell) or newer; "
            f"this kernel is compiled for sm_{capability}"
        )
    raise TLXError(f"{where}tlx.{name}: {what} is not implemented by this TLX release yet (Blackwell, sm_100)")


class GatedClass:
    """Base of the public API's classes this TLX cannot construct: the constructor raises its gate.

    Each subclass spells the public API's constructor (argument names, defaults) and calls
    ``self._refuse(_semantic, _generator)``. Marked as a Triton builtin, so that a construction inside a
    kernel receives ``_semantic`` (the target) and ``_generator`` (the line) like any builtin call.
    """

    __triton_builtin__ = True
    _gate = staticmethod(amd_only)
    _what = ""

    def _refuse(self, _semantic: Any, _generator: Any) -> NoReturn:
        type(self)._gate(type(self).__name__, type(self)._what, _semantic, _generator)
