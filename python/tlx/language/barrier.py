"""mbarriers: allocation, expected transaction bytes, arrive, wait."""

from __future__ import annotations

from .builtin import builtin
from .semantic import TLXSemantic
from .types import mbarrier

__all__ = [
    "alloc_barriers",
    "alloc_warp_barrier",
    "cluster_barrier",
    "fence_mbarrier_init_cluster",
    "barrier_arrive",
    "barrier_expect_bytes",
    "barrier_wait",
    "named_barrier_arrive",
    "named_barrier_wait",
]


@builtin
def alloc_barriers(num_barriers, arrive_count=1, _semantic=None, _generator=None) -> mbarrier:
    """Allocate ``num_barriers`` mbarriers, each expecting ``arrive_count`` arrivals per phase.

    Index them with ``bars[i]``. Hardware: 8 bytes of shared memory each,
    ``mbarrier.init.shared::cta.b64`` then ``fence.mbarrier_init.release.cluster``.
    """
    return TLXSemantic(_semantic, _generator).alloc_barriers(num_barriers, arrive_count)


@builtin
def alloc_warp_barrier(num_barriers, num_warps=1, num_arrivals=1, _semantic=None, _generator=None) -> mbarrier:
    """Allocate ``num_barriers`` warp barriers: every thread of ``num_warps`` warps arrives on its own.

    Each expects ``num_warps * 32 * num_arrivals`` arrivals per phase, and
    ``barrier_arrive`` on one of them has every thread arrive (no leader
    thread, so no synchronization of the warp first). Hardware: as
    ``alloc_barriers``; each thread's ``mbarrier.arrive.shared::cta.b64``.
    """
    return TLXSemantic(_semantic, _generator).alloc_warp_barrier(num_barriers, num_warps, num_arrivals)


@builtin
def barrier_expect_bytes(bar, size, pred=None, _semantic=None, _generator=None) -> None:
    """Arrive on ``bar`` and announce ``size`` bytes that asynchronous copies (TMA) will deliver.

    ``size`` is a compile-time int in 1..2^20-1. Hardware (one thread):
    ``mbarrier.arrive.expect_tx.shared::cta.b64`` (sm_90+).
    """
    TLXSemantic(_semantic, _generator).barrier_expect_bytes(bar, size, pred)


@builtin
def barrier_wait(bar, phase, pred=None, _semantic=None, _generator=None) -> None:
    """Wait until ``bar`` completes the phase with parity ``phase`` (0 or 1).

    Hardware: a loop on ``mbarrier.try_wait.parity.shared::cta.b64``.
    """
    TLXSemantic(_semantic, _generator).barrier_wait(bar, phase, pred)


@builtin
def barrier_arrive(bar, arrive_count=1, remote_cta_rank=None, pred=None, _semantic=None, _generator=None) -> None:
    """Arrive on ``bar``, counting ``arrive_count`` arrivals; one thread of the task arrives.

    Hardware: ``mbarrier.arrive.shared::cta.b64``. With ``remote_cta_rank``
    (or ``bar`` a ``tlx.remote_view``), on the same mbarrier of that CTA of the
    cluster: ``mapa.shared::cluster`` then ``mbarrier.arrive.shared::cluster.b64``
    (sm_90+; the kernel needs a cluster launch, ``ctas_per_cga``). Like the
    public TLX, the remote arrive releases at CTA scope: it does not publish
    this CTA's stores to the other CTA (``cluster_barrier`` does). ``pred``
    (a scalar bool) skips the arrive where false.
    """
    TLXSemantic(_semantic, _generator).barrier_arrive(bar, arrive_count, remote_cta_rank, pred)


@builtin
def cluster_barrier(_semantic=None, _generator=None) -> None:
    """Synchronize every thread of every CTA of the cluster; all CTAs must reach the same barriers.

    In a warp-specialized kernel every task calls it, as many times. Where the tasks beside the default
    one do not fill whole warp groups, Triton pads them with idle warps: TLX gives those a task that
    passes as many barriers when every task calls it directly in its body (not in a loop or branch; a
    compile error says so otherwise).

    Hardware: ``barrier.cluster.arrive`` then ``barrier.cluster.wait`` (sm_90+).
    """
    TLXSemantic(_semantic, _generator).cluster_op("cluster_barrier")


@builtin
def fence_mbarrier_init_cluster(_semantic=None, _generator=None) -> None:
    """Make this CTA's mbarrier initialization visible to the other CTAs of the cluster.

    Use after ``alloc_barriers`` and before a ``cluster_barrier``, when other CTAs will arrive on these
    mbarriers. Hardware: ``fence.mbarrier_init.release.cluster`` (sm_90+).
    """
    TLXSemantic(_semantic, _generator).cluster_op("fence_mbarrier_init_cluster")


@builtin
def named_barrier_wait(bar, arrive_count, _semantic=None, _generator=None) -> None:
    """Wait at hardware barrier ``bar`` (0..15) until ``arrive_count`` threads arrived.

    Hardware: ``bar.sync bar, arrive_count``; ``arrive_count`` counts whole
    warps. Warp groups hand work to each other with these (ping-pong).
    """
    TLXSemantic(_semantic, _generator).named_barrier("named_barrier_wait", bar, arrive_count)


@builtin
def named_barrier_arrive(bar, arrive_count, _semantic=None, _generator=None) -> None:
    """Arrive at hardware barrier ``bar`` without waiting.

    Hardware: ``bar.arrive bar, arrive_count``.
    """
    TLXSemantic(_semantic, _generator).named_barrier("named_barrier_arrive", bar, arrive_count)
