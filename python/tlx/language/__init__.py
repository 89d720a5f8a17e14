"""The TLX language: builtins callable from ``@triton.jit`` kernels.

Every builtin checks its arguments while the kernel is traced and emits a
*carrier* (``docs/carriers.md``) that rides through stock Triton's TTIR passes
to the TLX compiler. The builtin modules are thin; all IR is built in
:mod:`tlx.language.semantic`.
"""

# Each builtin module's __all__ is the one list of its public names.
from . import barrier, mem_ops, mma, tasks, types, utility
from .barrier import *  # noqa: F403
from .errors import TLXError as TLXError
from .mem_ops import *  # noqa: F403
from .mma import *  # noqa: F403
from .tasks import *  # noqa: F403
from .types import *  # noqa: F403
from .utility import *  # noqa: F403

__all__ = sorted(
    [
        "TLXError",
        *barrier.__all__,
        *mem_ops.__all__,
        *mma.__all__,
        *tasks.__all__,
        *types.__all__,
        *utility.__all__,
    ]
)
