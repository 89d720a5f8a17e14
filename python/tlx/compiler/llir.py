"""What the TLX stage hook changes in the LLVM IR of stock ``make_llir``: the cluster barrier of two-CTA MMAs,
and the task barriers stock Membar puts right after a named barrier wait.

Stock Triton 3.6 lowers every two-CTA ``ttng.tc_gen5_mma`` behind ``barrier.cluster.arrive.aligned`` and
``barrier.cluster.wait.aligned`` (``MMAv5.cpp``, ``convertDotImpl``), which every thread of both CTAs must
reach. In a warp-specialized kernel only the MMA task's warps do, once per MMA: the kernel hangs. The public
TLX compiler leaves that barrier out for TLX kernels; so does this one. The kernel orders the CTA pair itself:
the peer's operands are ready when the even CTA has waited on the mbarrier the peer arrives on remotely (as
the public API's 2-CTA kernels do), and the peer's tensor memory and mbarriers are allocated and initialized
when both CTAs have passed the cluster barrier ``tlx-insert-cluster-barrier-init`` puts at the kernel's (or
each task's) start.

The barrier only exists inside stock's lowering, so it goes from its output: TLX's lowering puts
:data:`TWO_CTA_MMA_MARKER` (an empty ``asm sideeffect``, which nothing moves across) right before each two-CTA
MMA (``MMAOpToTritonGPU.cpp``), and :func:`drop_two_cta_mma_cluster_barriers` deletes it with the arrive/wait
pair that follows it in its basic block.
"""

from __future__ import annotations

import re

#: The text of the inline asm before each two-CTA ``ttng.tc_gen5_mma`` (``kTwoCTAMMAMarker`` in C++).
TWO_CTA_MMA_MARKER = "// tlx: cta_group::2 MMA without a cluster barrier"


def _marker_call(text: str) -> re.Pattern[str]:
    """The LLVM IR line of an operand-less ``asm sideeffect`` whose text is ``text``."""
    return re.compile(r'^\s*(tail )?call void asm sideeffect "' + re.escape(text) + r'", ""\(\)')


_MARKER = _marker_call(TWO_CTA_MMA_MARKER)
_ARRIVE = re.compile(r"^\s*(tail )?call void @llvm\.nvvm\.barrier\.cluster\.arrive\.aligned\(\)")
_WAIT = re.compile(r"^\s*(tail )?call void @llvm\.nvvm\.barrier\.cluster\.wait\.aligned\(\)")
# What may stand between the marker and the barrier: stock computes the MMA's predicate there (the warp id,
# read from a special register and made uniform by a shuffle; arithmetic), nothing with a side effect.
_SIDE_EFFECT = re.compile(
    r"\bcall\b(?!.*@llvm\.nvvm\.(read\.ptx\.sreg\.|shfl\.sync\.))|\bstore\b|\bfence\b|\batomicrmw\b|\bcmpxchg\b"
)
_BLOCK_END = re.compile(r"^\s*(br|ret|switch|unreachable|indirectbr|callbr)\b|^[\w.$-]+:|^\}")


#: The text of the inline asm after each ``tlx.named_barrier_wait`` (``kNamedBarrierWaitMarker`` in C++).
NAMED_BARRIER_WAIT_MARKER = "// tlx: named barrier wait (the task's warps are synchronized)"

_WAIT_MARKER = _marker_call(NAMED_BARRIER_WAIT_MARKER)
# `bar.sync id, threads` with constant operands: a named barrier wait's, or the task barrier Membar inserts.
_COUNTED_BAR_SYNC = re.compile(
    r"^\s*(tail )?call void @llvm\.nvvm\.barrier\.cta\.sync\.aligned\.count\(i32 (\d+), i32 (\d+)\)"
)
# What may stand between a named barrier wait and a task barrier that adds nothing to it: no side effect
# (as above) and no load, so no access is left for the task barrier to order.
_MEMORY_OR_SIDE_EFFECT = re.compile(_SIDE_EFFECT.pattern + r"|\bload\b")


def drop_task_barriers_after_named_barrier_waits(llir: str) -> str:
    """``llir`` without each :data:`NAMED_BARRIER_WAIT_MARKER`, and without the ``bar.sync`` that follows a
    named barrier wait in its basic block with no memory access in between and no more threads than it.

    Stock Membar knows only its own barriers: where a warp-specialized task needs one (between two mbarrier
    waits, say) it puts ``bar.sync <task id>, <task threads>`` even right after the kernel's own
    ``tlx.named_barrier_wait``, which has just synchronized the same warps (every warp of the task executes
    the wait and stays there until the barrier's phase completes; a kernel whose named barrier phases could
    complete without all of a waiting task's warps would already break the barrier's contract). Nothing the
    second barrier orders is left unordered by the first, and in the attention kernels it is one barrier per
    key block.
    """
    lines = llir.split("\n")
    dropped: set[int] = set()
    for index, line in enumerate(lines):
        if not _WAIT_MARKER.match(line):
            continue
        dropped.add(index)
        wait = _COUNTED_BAR_SYNC.match(lines[index - 1]) if index else None
        if not wait:  # a thread count known only at run time: keep what follows
            continue
        cursor = index + 1
        while cursor < len(lines) and not _BLOCK_END.match(lines[cursor]):
            task_barrier = _COUNTED_BAR_SYNC.match(lines[cursor])
            if task_barrier:
                # Another named barrier wait (its marker follows it) is the kernel's protocol: it stays.
                theirs = cursor + 1 < len(lines) and _WAIT_MARKER.match(lines[cursor + 1])
                if not theirs and int(task_barrier.group(3)) <= int(wait.group(3)):
                    dropped.add(cursor)
                break
            if _MEMORY_OR_SIDE_EFFECT.search(lines[cursor]):
                break
            cursor += 1
    return "\n".join(line for index, line in enumerate(lines) if index not in dropped)


class TwoCTABarrierError(RuntimeError):
    """The LLVM IR after a two-CTA MMA marker is not what stock Triton 3.6's lowering produces."""


def drop_two_cta_mma_cluster_barriers(llir: str) -> str:
    """``llir`` without each :data:`TWO_CTA_MMA_MARKER` and the cluster arrive/wait pair after it.

    Raises :class:`TwoCTABarrierError` where a marker is not followed, in its basic block and before any
    side effect, by ``barrier.cluster.arrive.aligned`` then ``barrier.cluster.wait.aligned``: a Triton other
    than 3.6, whose lowering TLX would have to read again."""
    lines = llir.split("\n")
    dropped: set[int] = set()
    for index, line in enumerate(lines):
        if not _MARKER.match(line):
            continue
        cursor = index + 1
        while cursor < len(lines) and not _ARRIVE.match(lines[cursor]):
            if _BLOCK_END.match(lines[cursor]) or _SIDE_EFFECT.search(lines[cursor]):
                raise TwoCTABarrierError(
                    f"line {cursor + 1} of the LLVM IR ({lines[cursor].strip()!r}) stands between a two-CTA MMA's "
                    "marker and the cluster barrier stock Triton 3.6 emits before the MMA"
                )
            cursor += 1
        if cursor + 1 >= len(lines) or not _WAIT.match(lines[cursor + 1]):
            raise TwoCTABarrierError("a two-CTA MMA's marker is not followed by barrier.cluster.arrive/wait")
        dropped.update((index, cursor, cursor + 1))
    return "\n".join(line for index, line in enumerate(lines) if index not in dropped)
