"""The TLX compiler integration with stock Triton 3.6.

* :mod:`~tlx.compiler.hook` - the stage hook ``import tlx`` installs: TLX kernels get the TLX
  TTGIR stage (stock conversion, the C++ :data:`PIPELINE`, the stock TTGIR passes of
  :mod:`~tlx.compiler.ttgir`); other kernels keep the stock stage.
* :mod:`~tlx.compiler.pipeline` - the C++ pass pipeline, its errors as
  :class:`TLXCompilationError` at the user's lines.
* :mod:`~tlx.compiler.cache_key` - TLX's part of Triton's cache key.
* :mod:`~tlx.compiler.dump` - ``TLX_DUMP_DIR`` IR dumps.
* :func:`frontend_ir` - a kernel's TTIR / converted TTGIR, without the C++ passes.
"""

from .cache_key import COMPILER_KEY, compiler_fingerprint
from .dump import ENV as DUMP_ENV
from .errors import TLXCompilationError, TLXOutOfResources, TLXWarning
from .frontend import frontend_ir
from .hook import has_carriers, install, installed, stages_hook
from .pipeline import LOWER_PIPELINE, PASSES, PIPELINE, RAISE_PIPELINE, pass_registered
from .ttgir import DROPPED, TTGIR_PASSES

__all__ = [
    "COMPILER_KEY",
    "DROPPED",
    "DUMP_ENV",
    "LOWER_PIPELINE",
    "PASSES",
    "PIPELINE",
    "RAISE_PIPELINE",
    "TLXCompilationError",
    "TLXOutOfResources",
    "TLXWarning",
    "TTGIR_PASSES",
    "compiler_fingerprint",
    "frontend_ir",
    "has_carriers",
    "install",
    "installed",
    "pass_registered",
    "stages_hook",
]
