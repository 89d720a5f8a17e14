"""The decorator every TLX builtin wears."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import TypeVar

import triton.language.core as tlc

from ..compiler.cache_key import COMPILER_KEY
from .errors import TLXError, location

F = TypeVar("F", bound=Callable)


def builtin(fn: F) -> F:
    """Mark ``fn`` as a Triton builtin that belongs to TLX.

    On top of ``triton.language.core.builtin`` (callable from ``@triton.jit``
    code only, where Triton passes ``_semantic`` and ``_generator``):

    * a call that does not fit the signature (wrong arity, unknown keyword)
      raises :class:`TLXError` naming ``tlx.<name>`` and the kernel line;
    * the TLX compiler enters the Triton cache key of every kernel that names
      a TLX builtin. Triton 3.6 keys a kernel on its source and dependencies
      (``triton.runtime.jit.DependenciesFinder``): a referenced value marked
      ``__triton_aggregate__`` contributes its ``hash_attrs``, and a
      ``JITCallable`` among them its ``cache_key``. ``COMPILER_KEY`` is such a
      ``JITCallable``, keyed on the TLX version and a hash of the TLX compiler
      (``tlx.compiler.cache_key``). Kernels without TLX keep their stock key.
    """
    # The user's view of the call: Triton passes `_semantic` and `_generator` by keyword, so a surplus
    # positional argument must read "too many", not "multiple values for argument '_semantic'".
    internal = ("_semantic", "_generator")
    signature = inspect.signature(fn)
    user_signature = signature.replace(parameters=[p for p in signature.parameters.values() if p.name not in internal])

    @functools.wraps(fn)
    def checked(*args, **kwargs):
        try:
            user_signature.bind(*args, **{k: v for k, v in kwargs.items() if k not in internal})
        except TypeError as error:
            where = location(kwargs.get("_generator"))
            raise TLXError(f"{where + ': ' if where else ''}tlx.{fn.__name__}: {error}") from None
        return fn(*args, **kwargs)

    wrapper = tlc.builtin(checked)
    wrapper.__triton_aggregate__ = True
    wrapper.hash_attrs = (COMPILER_KEY,)
    return wrapper
