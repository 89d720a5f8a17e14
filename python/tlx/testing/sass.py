"""The loops of a kernel's SASS and what their bodies execute: a hot loop's cost, read on the CPU.

A loop here is the range from a branch target to a branch back to it in ``cuobjdump -sass`` output; its
body counts instructions by opcode (``HGMMA``, ``MUFU``, ``FSEL``, ...: the mnemonic before its first ``.``,
predicate left out). ``sass_of`` gives the listing of a cubin.
"""

from __future__ import annotations

import collections
import dataclasses
import re

from tlx.compiler.dump import sass_of

__all__ = [
    "SassLoop",
    "forward_branches",
    "innermost_loops",
    "instructions",
    "mnemonic",
    "opcode",
    "sass_loops",
    "sass_of",
]

_INSTRUCTION = re.compile(r"^\s*/\*([0-9a-f]+)\*/\s+([^;]*);")
_BRANCH = re.compile(r"\bBRA(?:\.\w+)*\s+(?:[^;]*,\s*)?(0x[0-9a-f]+)\s*$")  # @P0 BRA 0x1f0; BRA.U !UP0, 0x1f0


@dataclasses.dataclass(frozen=True)
class SassLoop:
    first: int  #: index of the loop's first instruction in the listing
    last: int  #: index of its branch back
    opcodes: collections.Counter[str]

    @property
    def length(self) -> int:
        """Instructions in the body, the branch back included."""
        return self.last - self.first + 1

    def contains(self, other: SassLoop) -> bool:
        return self is not other and self.first <= other.first and other.last <= self.last


def instructions(sass: str) -> list[tuple[int, str]]:
    """``(address, instruction)`` of every instruction of ``sass`` (one function), in order."""
    return [(int(m.group(1), 16), m.group(2).strip()) for m in map(_INSTRUCTION.match, sass.splitlines()) if m]


def mnemonic(instruction: str) -> str:
    """``HGMMA.64x128x16.F32.BF16`` of ``@!P0 HGMMA.64x128x16.F32.BF16 R24, gdesc[UR4], RZ`` ("" if empty)."""
    words = re.sub(r"^@!?U?P\w+\s+", "", instruction).split()
    return words[0] if words else ""


def opcode(instruction: str) -> str:
    """``HGMMA`` of ``@!P0 HGMMA.64x128x16.F32.BF16 R24, gdesc[UR4], RZ``."""
    return mnemonic(instruction).split(".")[0]


def _branches(listing: list[tuple[int, str]]) -> list[tuple[int, int]]:
    """``(branch, target)`` listing indices of every branch of ``listing`` whose target is in it."""
    index_of = {address: index for index, (address, _) in enumerate(listing)}
    jumps = []
    for index, (_, text) in enumerate(listing):
        branch = _BRANCH.search(text)
        target = index_of.get(int(branch.group(1), 16)) if branch else None
        if target is not None:
            jumps.append((index, target))
    return jumps


def sass_loops(sass: str) -> list[SassLoop]:
    """Every loop of ``sass`` (one function), outer loops included, in order of their branch back."""
    listing = instructions(sass)
    loops = []
    for index, target in _branches(listing):
        if target <= index:
            body = collections.Counter(opcode(text) for _, text in listing[target : index + 1])
            loops.append(SassLoop(target, index, body))
    return loops


def forward_branches(sass: str) -> list[tuple[int, int]]:
    """``(branch, target)`` listing indices (``instructions(sass)``) of every branch that jumps forward: what
    lies strictly between them is what it skips."""
    return [(index, target) for index, target in _branches(instructions(sass)) if target > index]


def innermost_loops(sass: str, op: str) -> list[SassLoop]:
    """The loops of ``sass`` that execute ``op`` and contain no other loop that does (a key-block loop holds
    the retry loops of its barrier waits)."""
    loops = [loop for loop in sass_loops(sass) if loop.opcodes[op]]
    return [loop for loop in loops if not any(loop.contains(other) for other in loops)]
