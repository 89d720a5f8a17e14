"""TLX: Triton Low-level Language Extensions.

Explicit control for Triton kernels on Hopper and Blackwell: warp-specialized
tasks, buffers in shared and tensor memory, mbarriers, asynchronous copies and
MMA. Use it from ``@triton.jit`` kernels::

    import tlx                                  # or: import triton.language.extra.tlx as tlx

    @triton.jit
    def kernel(...):
        bufs = tlx.local_alloc((128, 64), tl.float16, 2)
        bars = tlx.alloc_barriers(2)
        ...

Importing ``tlx`` (under either name) installs the TLX compiler into Triton:
kernels that use ``tlx.*`` compile through the TLX pass pipeline (the C++
core, :func:`run_pipeline`, ``tlx-opt`` on the shell), every other kernel
through stock Triton unchanged. ``triton.language.extra.tlx`` is this package
(the same module object) once ``tlx`` has been imported.
"""

from ._version import __version__

try:
    from ._C import PipelineError, run_pipeline
    from ._C import version as _core_version
except ImportError as error:  # pragma: no cover - depends on the build
    raise ImportError(
        f"the TLX compiler core (tlx._C) is not built or does not load: {error}. "
        "Build it with `pip install --no-build-isolation -e .` (see README)."
    ) from error

if _core_version() != __version__:  # pragma: no cover - depends on the build
    raise ImportError(
        f"tlx._C was built for TLX {_core_version()} but the Python package is {__version__}: "
        "rebuild with `ninja -C build/cmake` or `pip install -e .`"
    )

from . import compiler, language  # noqa: E402
from .language import *  # noqa: E402,F403
from .language import __all__ as _language_all  # noqa: E402

compiler.install()

from . import _alias  # noqa: E402

_alias.install()

__all__ = ["PipelineError", "__version__", "compiler", "language", "run_pipeline", *_language_all]
