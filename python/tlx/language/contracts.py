"""The op contract table: what the carrier of each TLX op carries (docs/carriers.md).

The table is generated at build time from the ODS definitions of the TLX ops
(``include/tlx/Dialect/TLX/IR/TLXOps.td``, by ``tools/gen-op-contracts``) and
compiled into the TLX core; the raise pass reads carriers with it and
:mod:`tlx.language.semantic` builds them from it, so no operand position or
attribute name is written by hand on either side.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass

#: Carrier attributes that are not ODS attributes.
OP_ATTR = "op"
TYPE_ATTR = "type"
SEGMENTS_ATTR = "operand_segments"
LINK_ATTR = "link"
LINKED_PREFIX = "linked_"
#: The carrier of an operand whose shape differs from the op carrier's tensors (docs/carriers.md).
LINKED_OPERAND_OP = "linked_operand"


@dataclass(frozen=True)
class Value:
    """An operand or result: its ODS name, what it may be (handle, tensor, scalar, desc), its arity."""

    name: str
    kinds: frozenset[str]
    arity: str  # single, optional, variadic


@dataclass(frozen=True)
class Attribute:
    """An ODS attribute and how a carrier encodes it (int, bool, unit, i32_array, text)."""

    name: str
    kind: str
    optional: bool


@dataclass(frozen=True)
class OpContract:
    name: str
    operands: tuple[Value, ...]
    attributes: dict[str, Attribute]
    results: tuple[Value, ...]
    regions: int

    @property
    def has_variable_operands(self) -> bool:
        """Whether its carriers say how many values each operand has (``tlx.operand_segments``)."""
        return any(operand.arity != "single" for operand in self.operands)


def _value(entry: dict) -> Value:
    return Value(entry["name"], frozenset(entry["kinds"].split("|")), entry["arity"])


def parse(text: str) -> dict[str, OpContract]:
    """The contracts of a table's JSON text, by op name."""
    table = json.loads(text)
    return {
        name: OpContract(
            name,
            tuple(_value(o) for o in op["operands"]),
            {a["name"]: Attribute(a["name"], a["kind"], a["optional"]) for a in op["attributes"]},
            tuple(_value(r) for r in op["results"]),
            op["regions"],
        )
        for name, op in table["ops"].items()
    }


@functools.cache
def contracts() -> dict[str, OpContract]:
    """Every TLX op's contract, from the compiler core this package runs with."""
    from .. import _C

    return parse(_C.op_contracts())


def contract(op: str) -> OpContract:
    return contracts()[op]
