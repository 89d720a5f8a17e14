"""The final TTGIR of a TLX kernel, printed back for a person: grouped by the Python line each op came from,
each group headed by that line's source and the ``tlx.*`` ops it raised to, locations stripped.

    // grouped_gemm.py:122  full = tlx.alloc_barriers(NUM_STAGES)   [tlx.alloc_barriers]
    %full = ttg.local_alloc : () -> !ttg.memdesc<3x1xi64, #shared1, #smem, mutable>
    ttng.init_barrier ...

An op inlined from a helper names the helper's line and the line that called it. The input is MLIR text
printed with locations (``#locN = loc(...)`` aliases, ``loc(...)`` at the end of an op); the TLX ops come
from the raised IR (the 03 dump), matched by location.
"""

from __future__ import annotations

import linecache
import re
from pathlib import Path

_ALIAS = re.compile(r"^#(loc\d*) = loc\((.*)\)\s*$")
_FILE = re.compile(r'^"((?:[^"\\]|\\.)*)":(\d+):(\d+)$')
_NAMED = re.compile(r'^"(?:[^"\\]|\\.)*"\((.*)\)$')
_CALLSITE = re.compile(r"^callsite\((.*) at (.*)\)$")
_TRAILING_LOC = re.compile(r"\s+loc\(((?:[^()]|\([^()]*(?:\([^()]*\))*[^()]*\))*)\)\s*$")
_TLX_OP = re.compile(r"\btlx\.([a-z_0-9]+)\b")

Place = tuple[str, int]


class Locations:
    """The location aliases of one printed module, resolved to Python places (file, line)."""

    def __init__(self, text: str) -> None:
        self.aliases = {}
        for line in text.splitlines():
            match = _ALIAS.match(line)
            if match:
                self.aliases[match.group(1)] = match.group(2).strip()

    def resolve(self, loc: str, depth: int = 0) -> list[Place]:
        """The places of a location, innermost first (a call site adds its caller after the callee)."""
        loc = loc.strip()
        if depth > 64:
            return []
        if loc.startswith("#"):
            return self.resolve(self.aliases.get(loc[1:], "unknown"), depth + 1)
        match = _FILE.match(loc)
        if match:
            return [(match.group(1), int(match.group(2)))]
        match = _NAMED.match(loc)
        if match:
            return self.resolve(match.group(1), depth + 1)
        match = _CALLSITE.match(loc)
        if match:
            return self.resolve(match.group(1), depth + 1) + self.resolve(match.group(2), depth + 1)
        return []


def _split_loc(line: str) -> tuple[str, str | None]:
    """An op line without its trailing ``loc(...)``, and that location (None when it has none)."""
    match = _TRAILING_LOC.search(line)
    if not match:
        return line, None
    return line[: match.start()], match.group(1)


def _strip_inline_locs(code: str) -> str:
    """``code`` without the ``loc(...)`` of block arguments (balanced parentheses)."""
    out, start = [], 0
    while (found := code.find(" loc(", start)) != -1:
        depth, end = 0, found + 4
        for end in range(found + 4, len(code)):
            depth += {"(": 1, ")": -1}.get(code[end], 0)
            if depth == 0:
                break
        out.append(code[start:found])
        start = end + 1
    return "".join(out) + code[start:]


def tlx_ops_by_place(raised: str) -> dict[Place, list[str]]:
    """The ``tlx.*`` ops of the raised IR at each Python place, in order of appearance."""
    locations = Locations(raised)
    ops: dict[Place, list[str]] = {}
    for line in raised.splitlines():
        code, loc = _split_loc(line)
        match = _TLX_OP.search(code)
        if not match or loc is None or code.lstrip().startswith("#"):
            continue
        places = locations.resolve(loc)
        if places:
            names = ops.setdefault(places[0], [])
            if f"tlx.{match.group(1)}" not in names:
                names.append(f"tlx.{match.group(1)}")
    return ops


def _describe(places: list[Place], tlx_ops: dict[Place, list[str]]) -> str:
    file, line = places[0]
    source = linecache.getline(file, line).strip()
    text = f"{Path(file).name}:{line}" + (f"  {source}" if source else "")
    if len(places) > 1:
        caller_file, caller_line = places[-1]
        text += f"   (inlined, called at {Path(caller_file).name}:{caller_line})"
    names = tlx_ops.get(places[0])
    return text + (f"   [{', '.join(names)}]" if names else "")


def annotate(final: str, raised: str | None = None) -> str:
    """``final`` (TTGIR printed with locations) as annotated text; ``raised`` supplies the tlx op names."""
    locations = Locations(final)
    tlx_ops = tlx_ops_by_place(raised) if raised else {}
    out: list[str] = []
    previous: Place | None = None
    for line in final.splitlines():
        if _ALIAS.match(line):
            continue
        code, loc = _split_loc(line)
        places = locations.resolve(loc) if loc else []
        if places and places[0] != previous:
            indent = code[: len(code) - len(code.lstrip())]
            out.append(f"{indent}// {_describe(places, tlx_ops)}")
            previous = places[0]
        out.append(_strip_inline_locs(code).rstrip())
    return "\n".join(out) + "\n"
