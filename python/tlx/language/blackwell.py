"""The public TLX API's Blackwell (sm_100) names this TLX does not implement yet.

Defined with the public API's signatures; each is an error at the kernel line (``targets.blackwell_only``):
below sm_100 it says the name needs Blackwell, on sm_100 that this release does not implement it yet.
"""

from __future__ import annotations

from .builtin import builtin
from .targets import GatedClass, blackwell_only

__all__ = [
    "CLCPipelineContext",
    "clc_consumer",
    "clc_create_context",
    "clc_producer",
    "clc_response",
    "clc_response_type",
]

_CLC = "cluster launch control (clusterlaunchcontrol.try_cancel)"


@builtin
def clc_create_context(num_consumers, num_stages=1, _semantic=None, _generator=None):
    """Blackwell: the barriers and responses of a cluster-launch-control pipeline (not implemented yet)."""
    blackwell_only("clc_create_context", _CLC, _semantic, _generator)


@builtin
def clc_producer(context, p_producer=None, multi_ctas=True, k=0, _semantic=None, _generator=None):
    """Blackwell: issue a cluster-launch-control cancel request (not implemented yet)."""
    blackwell_only("clc_producer", _CLC, _semantic, _generator)


@builtin
def clc_consumer(context, p_consumer=None, multi_ctas=True, k=0, return_3d=False, _semantic=None, _generator=None):
    """Blackwell: the tile id of a cluster-launch-control response (not implemented yet)."""
    blackwell_only("clc_consumer", _CLC, _semantic, _generator)


class _BlackwellClass(GatedClass):
    _gate = staticmethod(blackwell_only)


class clc_response(_BlackwellClass):
    """Blackwell: the 16-byte responses of cluster launch control in shared memory (not implemented yet)."""

    _what = f"a response of {_CLC}"

    def __init__(self, handle, num, layout, _semantic=None, _generator=None) -> None:
        self._refuse(_semantic, _generator)


class clc_response_type(_BlackwellClass):
    """Blackwell: the type of :class:`clc_response` (not implemented yet)."""

    _what = f"the type of a response of {_CLC}"

    def __init__(self, num, layout, _semantic=None, _generator=None) -> None:
        self._refuse(_semantic, _generator)


class CLCPipelineContext(_BlackwellClass):
    """Blackwell: what ``clc_create_context`` returns (not implemented yet)."""

    _what = f"the pipeline of {_CLC}"

    def __init__(self, clc_mbars_empty, clc_mbars_full, clc_responses, _semantic=None, _generator=None) -> None:
        self._refuse(_semantic, _generator)
