"""The loops of a kernel's SASS and what their bodies execute: a hot loop's cost, read on the CPU.

A loop here is the range from a label to a branch back to it (``cuobjdump -sass`` through Triton's
``get_sass``, which names branch targets ``LBB<n>``); its body counts instructions by opcode (``HGMMA``,
``MUFU``, ``FSEL``, ...: the mnemonic before its first ``.``, predicate and control bits left out).
"""

from __future__ import annotations

import collections
import dataclasses
import re

_LABEL = re.compile(r"^(LBB\d+):$")
_BRANCH = re.compile(r"\bBRA(?:\.\w+)*\s+(?:[^;]*,\s*)?(LBB\d+)\s*;")  # BRA.U !UP0, L; BRA.DIV UR4, L


@dataclasses.dataclass(frozen=True)
class SassLoop:
    first: int  #: index of the loop's first instruction in the function
    last: int  #: index of its branch back
    opcodes: collections.Counter[str]

    @property
    def length(self) -> int:
        """Instructions in the body, the branch back included."""
        return self.last - self.first + 1

    def contains(self, other: SassLoop) -> bool:
        return self is not other and self.first <= other.first and other.last <= self.last


def sass_of(cubin: bytes) -> str:
    """The SASS of a cubin, its branch targets as labels (needs ``cuobjdump``, which Triton bundles)."""
    from triton.tools.disasm import get_sass

    return get_sass(cubin)


def _opcode(instruction: str) -> str:
    mnemonic = re.sub(r"^@!?U?P\w+\s+", "", instruction.split("\t")[-1].strip())
    return mnemonic.split()[0].split(".")[0]


def sass_loops(sass: str) -> list[SassLoop]:
    """Every loop of ``sass`` (one function), outer loops included, in order of their branch back."""
    instructions: list[str] = []
    labels: dict[str, int] = {}
    for line in sass.splitlines():
        line = line.strip()
        if match := _LABEL.match(line):
            labels[match.group(1)] = len(instructions)
        elif line.endswith(";"):
            instructions.append(line)
    loops = []
    for index, instruction in enumerate(instructions):
        branch = _BRANCH.search(instruction)
        if branch and labels.get(branch.group(1), index + 1) <= index:
            first = labels[branch.group(1)]
            body = collections.Counter(_opcode(text) for text in instructions[first : index + 1])
            loops.append(SassLoop(first, index, body))
    return loops


def innermost_loops(sass: str, opcode: str) -> list[SassLoop]:
    """The loops of ``sass`` that execute ``opcode`` and contain no other loop that does (a key-block loop
    holds the retry loops of its barrier waits)."""
    loops = [loop for loop in sass_loops(sass) if loop.opcodes[opcode]]
    return [loop for loop in loops if not any(loop.contains(other) for other in loops)]
