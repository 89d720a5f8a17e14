"""Cluster launch control (Blackwell, sm_100): persistent kernels that claim their next tile dynamically.

A kernel is launched with one CTA (or cluster) per tile, as a plain grid. Each running CTA asks the
hardware to cancel a CTA that has not started yet (``clusterlaunchcontrol.try_cancel``) and, when that
succeeds, computes the canceled CTA's tile itself; when it fails, every tile is taken and the CTA exits. The
requests form a pipeline of ``num_stages`` stages: a 16-byte response and two mbarriers each
(:class:`~tlx.language.types.CLCPipelineContext`).

In a cluster launch (``ctas_per_cga``) the cluster's CTA 0 issues the request and the hardware delivers the
response to every CTA of the cluster (``.multicast::cluster::all``); with ``multi_ctas=True`` the CTAs
hand the stage back to CTA 0 ("arrive remote, wait local").
"""

from __future__ import annotations

from .builtin import builtin
from .semantic import TLXSemantic
from .types import CLCPipelineContext

__all__ = ["clc_consumer", "clc_create_context", "clc_producer"]


@builtin
def clc_create_context(num_consumers, num_stages=1, _semantic=None, _generator=None) -> CLCPipelineContext:
    """The mbarriers and responses of a cluster-launch-control pipeline of ``num_stages`` stages.

    ``num_consumers``: the ``clc_consumer`` calls (one per task that reads the responses) that release a
    stage before the producer reuses it. Both are compile-time ints. Hardware: per stage a 16-byte response
    and two mbarriers in shared memory (sm_100).
    """
    return TLXSemantic(_semantic, _generator).clc_create_context(num_consumers, num_stages)


@builtin
def clc_producer(context, p_producer=None, multi_ctas=True, k=0, _semantic=None, _generator=None) -> None:
    """Request the cancellation of a CTA not launched yet; its id arrives in stage ``k``'s response.

    Waits until stage ``k`` is free (its empty mbarrier completes phase parity ``p_producer``; in a cluster
    with ``multi_ctas``, only CTA 0 waits: the others release CTA 0's stage), announces the response's 16
    bytes on the stage's full mbarrier, and one thread issues
    ``clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128`` (in a cluster
    launch: CTA 0 only, ``.multicast::cluster::all``, so every CTA of the cluster receives the response).
    """
    TLXSemantic(_semantic, _generator).clc_producer(context, p_producer, multi_ctas, k)


@builtin
def clc_consumer(context, p_consumer=None, multi_ctas=True, k=0, return_3d=False, _semantic=None, _generator=None):
    """The tile of stage ``k``'s response: the canceled CTA's id along x (plus this CTA's rank in its
    cluster), or -1 when no CTA was left to cancel; with ``return_3d``, the tuple ``(x, y, z)``.

    Waits for the response (the full mbarrier, phase parity ``p_consumer``), decodes it
    (``clusterlaunchcontrol.query_cancel.is_canceled`` and ``get_first_ctaid``), then releases the stage
    (one arrival on its empty mbarrier; in a cluster with ``multi_ctas``, on CTA 0's) unless the answer is -1.
    """
    return TLXSemantic(_semantic, _generator).clc_consumer(context, p_consumer, multi_ctas, k, return_3d)
