"""The TLX language: builtins callable from ``@triton.jit`` kernels.

Every builtin checks its arguments while the kernel is traced and emits a
*carrier* (``docs/carriers.md``) that rides through stock Triton's TTIR passes
to the TLX compiler. The builtin modules are thin; all IR is built in
:mod:`tlx.language.semantic`. The public TLX API's other names: layout classes
(``layouts``), warp votes and reductions and other ops stock Triton provides
(``warp_ops``, ``stock``), and the AMD-only names, each an error at the kernel line (``amd``;
``docs/public-api.md``).
"""

# Each builtin module's __all__ is the one list of its public names.
from . import (
    amd,
    barrier,
    dynamic_launch,
    layouts,
    mem_ops,
    mma,
    stock,
    tasks,
    types,
    utility,
    warp_ops,
)
from .amd import *  # noqa: F403
from .barrier import *  # noqa: F403
from .dynamic_launch import *  # noqa: F403
from .errors import TLXError as TLXError
from .layouts import *  # noqa: F403
from .mem_ops import *  # noqa: F403
from .mma import *  # noqa: F403
from .stock import *  # noqa: F403
from .tasks import *  # noqa: F403
from .types import *  # noqa: F403
from .utility import *  # noqa: F403
from .warp_ops import *  # noqa: F403

__all__ = sorted(
    [
        "TLXError",
        *amd.__all__,
        *barrier.__all__,
        *dynamic_launch.__all__,
        *layouts.__all__,
        *mem_ops.__all__,
        *mma.__all__,
        *stock.__all__,
        *tasks.__all__,
        *types.__all__,
        *utility.__all__,
        *warp_ops.__all__,
    ]
)
