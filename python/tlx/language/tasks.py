"""Warp specialization: ``async_tasks``, ``async_task`` and ``async_task_replica_id``."""

from __future__ import annotations

import triton.language.core as tlc

from .builtin import builtin
from .errors import generator_of as _generator_of
from .semantic import TaskRegion, TLXSemantic

__all__ = ["async_task", "async_task_replica_id", "async_tasks"]


@builtin
def async_tasks(
    *args,
    exclusive=False,
    no_ending_cluster_sync=False,
    mbarrier_try_wait_suspend_ns=None,
    _semantic=None,
    _generator=None,
    **kwargs,
) -> TaskRegion:
    """``with tlx.async_tasks():`` holds the tasks that run at once on disjoint warp groups.

    Its body holds only ``with tlx.async_task(...)`` blocks, one of them the
    default task. Lowers to ``ttg.warp_specialize``: in PTX each task is a
    branch on the warp index, with ``setmaxnreg`` where tasks set register
    budgets. ``no_ending_cluster_sync`` is accepted and changes nothing (this
    TLX never adds a cluster barrier after the tasks). ``exclusive=True``
    promises these are the kernel's only tasks (checked; the public TLX then
    dispatches warps by warp id, stock Triton 3.6 has one dispatch for all).
    ``mbarrier_try_wait_suspend_ns=N`` (a non-negative int): on sm_100 and
    newer every ``barrier_wait`` of the kernel polls ``mbarrier.try_wait``
    with a suspend-time hint of N ns (the smallest over the kernel's task
    sets; 0 and older targets: no hint).
    """
    semantic = TLXSemantic(_semantic, _generator or _generator_of(_semantic))
    return semantic.async_tasks(args, kwargs, exclusive, mbarrier_try_wait_suspend_ns)


@builtin
def async_task(*args, _semantic=None, _generator=None, **kwargs) -> TaskRegion:
    """``with tlx.async_task("default"):`` or ``with tlx.async_task(num_warps=, registers=, replicate=):``.

    The default task runs on the kernel's own ``num_warps`` warps. Every other
    task runs ``replicate`` times, each replica on ``num_warps`` more warps;
    ``registers`` (or ``num_regs``, the same) caps its registers per thread
    (``setmaxnreg``; the default task gets what the others leave, or asks for
    its own). Scalars, pointers, descriptors, buffers and barriers from
    outside are passed in; tensors from outside are recomputed inside; names
    bound inside stay inside. ``warp_group_start_id`` (where the task's warps
    start) is accepted and left to the compiler, which places the warps.
    """
    return TLXSemantic(_semantic, _generator or _generator_of(_semantic)).async_task(args, kwargs)


@builtin
def async_task_replica_id(_semantic=None, _generator=None) -> tlc.constexpr:
    """Which replica of its task runs this code: a ``tl.constexpr`` in ``0 .. replicate - 1`` (0 in the default task).

    Each replica of a task is traced on its own, so the id is a compile-time constant: ``if cid == 0:`` and
    ``NUM_STAGES * cid`` resolve while tracing. No instruction.
    """
    return TLXSemantic(_semantic, _generator).async_task_replica_id()
