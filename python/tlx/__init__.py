"""TLX: Triton Low-level Language Extensions.

Explicit control for Triton kernels on Hopper and Blackwell: warp-specialized
tasks, buffers in shared and tensor memory, mbarriers, asynchronous copies and
MMA. This release holds the compiler core: the TLX MLIR dialect and its
passes, reachable from Python through :func:`run_pipeline` and from the shell
through ``tlx-opt``.
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

__all__ = ["PipelineError", "__version__", "run_pipeline"]
