"""Read TLX carriers (docs/carriers.md) back out of printed TTIR / TTGIR text.

    from tlx.testing.carriers import carriers, callees
    for c in carriers(text):               # in program order
        print(c.op, c.form, c.attrs, c.operand_types, c.result_types, c.file, c.line)
        print(c.named_operands())          # {ODS operand name: [operand texts]}, read with the op contract

The parser knows the textual forms Triton 3.6 prints (generic enough for
tests, not a full MLIR parser): ``tt.call`` / ``tt.elementwise_inline_asm``
with a ``tlx.op`` attribute, and locations resolved through the ``#locN``
alias table (file:line:col, name locations, call sites, fused locations).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tlx.language.contracts import LINKED_PREFIX, SEGMENTS_ATTR, contract

_ALIAS = re.compile(r"^(#loc\d*) = loc\((.*)\)\s*$", re.M)
_FILE_LINE = re.compile(r'^"((?:[^"\\]|\\.)*)":(\d+):(\d+)')
_CALL = re.compile(
    r"^\s*(?:(?P<results>%[^=]+?) = )?tt\.call @(?P<callee>[\w.$-]+)\((?P<operands>[^)]*)\)"
    r" \{(?P<attrs>.*)\} : \((?P<operand_types>.*)\) -> (?P<result_types>.*?) loc\((?P<loc>.*)\)\s*$"
)
_ASM = re.compile(
    r'^\s*(?P<results>%[^=]+?) = tt\.elementwise_inline_asm "(?P<asm>[^"]*)" \{(?P<attrs>.*)\}'
    r"(?: (?P<operands>[^:]*?))? : (?P<operand_types>.*) -> (?P<result_types>.*?) loc\((?P<loc>.*)\)\s*$"
)


@dataclass
class Carrier:
    """One carrier as printed."""

    op: str
    form: str  # "A" (tt.call) or "B" (tt.elementwise_inline_asm)
    attrs: dict[str, str]
    operands: list[str]
    operand_types: list[str]
    result_types: list[str]
    results: list[str]
    callee: str | None
    file: str | None
    line: int | None
    text: str = field(repr=False)

    def segments(self) -> list[int]:
        """How many values each ODS operand has (``tlx.operand_segments``, else one each)."""
        spec = contract(self.op)
        attr = self.attrs.get(f"tlx.{SEGMENTS_ATTR}")
        if attr is None:
            return [1] * len(spec.operands)
        match = re.fullmatch(r"dense<(\[?[-0-9, ]*\]?)> : tensor<(\d+)xi32>", attr)
        assert match, attr
        values = [int(v) for v in match.group(1).strip("[]").split(",") if v.strip()]
        return values * int(match.group(2)) if len(values) == 1 else values

    def named_operands(self) -> dict[str, list[str]]:
        """The carried operands by ODS operand name, in ODS order (op contract); a linked operand maps to
        ``["link <N>"]``."""
        named, rest = {}, list(self.operands)
        for operand, count in zip(contract(self.op).operands, self.segments(), strict=True):
            link = self.attrs.get(f"tlx.{LINKED_PREFIX}{operand.name}")
            if link is not None:
                named[operand.name] = [f"link {link.split(':')[0].strip()}"]
                continue
            named[operand.name], rest = rest[:count], rest[count:]
        assert not rest, (self.text, rest)
        return named


def _split_top(text: str) -> list[str]:
    """Split on commas outside <>, (), [], {} and strings."""
    parts, depth, current, quoted = [], 0, [], False
    for ch in text:
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in "<([{":
            depth += 1
        elif not quoted and ch in ">)]}":
            depth -= 1
        if ch == "," and depth == 0 and not quoted:
            parts.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    if "".join(current).strip():
        parts.append("".join(current).strip())
    return parts


def _types(text: str) -> list[str]:
    text = text.strip()
    if text in ("", "()"):
        return []
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1]
    return _split_top(text)


def location_table(text: str) -> dict[str, str]:
    return {name: body for name, body in _ALIAS.findall(text)}


def resolve(loc: str, table: dict[str, str], depth: int = 0) -> tuple[str, int] | None:
    """file and line of a printed location (the first file:line found, following aliases)."""
    loc = loc.strip()
    if depth > 50:
        return None
    if loc.startswith("#loc"):
        return resolve(table.get(loc, "unknown"), table, depth + 1)
    match = _FILE_LINE.match(loc)
    if match:
        return match.group(1), int(match.group(2))
    name = re.match(r'^"(?:[^"\\]|\\.)*"\((.*)\)$', loc)  # name location "x"(inner)
    if name:
        return resolve(name.group(1), table, depth + 1)
    if loc.startswith("callsite(") or loc.startswith("fused"):
        for inner in re.findall(r"#loc\d*|\"(?:[^\"\\]|\\.)*\":\d+:\d+", loc):
            found = resolve(inner, table, depth + 1)
            if found:
                return found
    return None


def _attrs(text: str) -> dict[str, str]:
    """``name = value`` entries of an attribute dictionary (values may hold commas inside <>, [], strings:
    ``dense<[0, 64]> : tensor<2xi32>``); unit attributes map to ``"unit"``."""
    out = {}
    for entry in _split_top(text):
        name, sep, value = entry.partition(" = ")
        out[name.strip().strip('"')] = value.strip() if sep else "unit"
    return out


def carriers(text: str, function: str | None = None) -> list[Carrier]:
    """The carriers of ``function`` (default: the public entry function), in program order."""
    table = location_table(text)
    found, inside = [], False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("tt.func"):
            name = re.search(r"@([\w.$-]+)", stripped).group(1)
            inside = name == function if function else stripped.startswith("tt.func public")
            continue
        if not inside:
            continue
        for form, pattern in (("A", _CALL), ("B", _ASM)):
            match = pattern.match(line)
            if not match:
                continue
            attrs = _attrs(match.group("attrs"))
            if "tlx.op" not in attrs:
                break
            where = resolve(match.group("loc"), table)
            found.append(
                Carrier(
                    op=attrs["tlx.op"].strip('"'),
                    form=form,
                    attrs=attrs,
                    operands=_split_top(match.group("operands") or ""),
                    operand_types=_types(match.group("operand_types")),
                    result_types=_types(match.group("result_types")),
                    results=[r.strip() for r in (match.group("results") or "").split(",") if r.strip()],
                    callee=match.groupdict().get("callee"),
                    file=where[0] if where else None,
                    line=where[1] if where else None,
                    text=line,
                )
            )
            break
    return found


@dataclass
class Callee:
    name: str
    signature: str
    attributes: str
    body: list[str]


def callees(text: str) -> dict[str, list[Callee]]:
    """The ``tlx.*`` functions of a module by name (a list, to see duplicates)."""
    out: dict[str, list[Callee]] = {}
    lines = text.splitlines()
    for i, line in enumerate(lines):
        match = re.match(r"^\s*tt\.func (?:private |public )?@(tlx\.[\w.$-]+)\((.*)$", line)
        if not match:
            continue
        body = []
        for inner in lines[i + 1 :]:
            if inner.strip().startswith("}"):
                break
            body.append(inner.strip())
        attributes = re.search(r"attributes \{(.*)\}", line)
        out.setdefault(match.group(1), []).append(
            Callee(match.group(1), line.strip(), attributes.group(1) if attributes else "", body)
        )
    return out
