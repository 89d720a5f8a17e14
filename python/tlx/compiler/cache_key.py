"""The TLX compiler's part of Triton's cache key.

Triton 3.6 keys its compile cache on Triton's own sources, the kernel's
source and dependencies, the backend and the options
(``triton.runtime.cache.get_cache_key``); the stages hook that runs the TLX
compiler is not part of it. So a kernel compiled by one TLX build would be
served from the cache to another. TLX enters the key through the kernel's
dependencies instead: every TLX builtin lists :data:`COMPILER_KEY` among its
``hash_attrs`` (see ``tlx.language.builtin``), and ``DependenciesFinder``
hashes the ``cache_key`` of that ``JITCallable`` into the key of each kernel
that names a TLX builtin. Kernels without TLX keep their stock key.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from triton.runtime.jit import JITCallable

from .. import _version
from .pipeline import PIPELINE

_PACKAGE = Path(__file__).resolve().parent.parent


def compiler_libraries() -> list[Path]:
    """The TLX compiler core: the ``tlx._C`` extension loaded in this process, and the
    ``libtlx_core`` shared library beside it when the extension is only a thin binding
    (the GPU machine's build, scripts/gpu.sh)."""
    from .. import _C

    extension = Path(_C.__file__)
    cores = {p.resolve() for d in {extension.parent, extension.resolve().parent} for p in d.glob("libtlx_core*.so*")}
    return [extension.resolve(), *sorted(cores)]


def _python_sources() -> list[Path]:
    """The Python half of the TLX compiler: what emits carriers and drives the passes."""
    return sorted([*(_PACKAGE / "language").glob("*.py"), *(_PACKAGE / "compiler").glob("*.py")])


@functools.cache
def compiler_fingerprint() -> str:
    """sha256 of the TLX version, PIPELINE, the compiler core's bytes and the TLX Python compiler sources."""
    digest = hashlib.sha256()
    digest.update(f"tlx {_version.__version__}\n{PIPELINE}\n".encode())
    for path in compiler_libraries():
        with open(path, "rb") as library:
            while chunk := library.read(1 << 20):
                digest.update(chunk)
    for source in _python_sources():
        digest.update(str(source.relative_to(_PACKAGE)).encode() + b"\0" + source.read_bytes())
    return digest.hexdigest()


class TLXCompilerKey(JITCallable):
    """Stands for the TLX compiler among a kernel's dependencies; its ``cache_key`` is the compiler's."""

    def __init__(self) -> None:  # not a Python function: nothing of JITCallable's state applies
        self.__name__ = self.__qualname__ = "tlx_compiler"
        self.__module__ = __name__
        self.used_global_vals = {}
        self.noinline = False

    @property
    def cache_key(self) -> str:
        return f"tlx-{_version.__version__}-{compiler_fingerprint()}"

    def __repr__(self) -> str:
        return f"<TLX compiler {_version.__version__}>"


#: The one instance every TLX builtin names in ``hash_attrs``.
COMPILER_KEY = TLXCompilerKey()
