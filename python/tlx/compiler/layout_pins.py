"""After Triton's layout optimizations: the pinned register layouts applied again, the layout assertions
checked.

``tlx.require_layout(..., pin=True)``, ``tlx.release_layout`` and ``tlx.assert_same_layout`` of tensors
leave markers in the TTGIR (opaque ``tt.elementwise_inline_asm`` ops with a ``tlx.layout_marker``
attribute) that Triton's passes keep. Once they have run, ``tlx-apply-layout-pins`` applies each pin again
up to its releases; the assertions are then checked here with Triton's own comparison of linear layouts
(``is_convert_layout_trivial``: converting one value into the other's layout moves no data), and
``tlx-erase-layout-asserts`` takes their markers out. ``tlx.vote_ballot_sync`` of a tensor leaves a ballot
marker, ``tlx.scale_rows`` a ballot and a scale marker: each gets the number of elements a thread holds in
its final layout (Triton's linear layout of it), and ``tlx-lower-warp-ballots`` writes its PTX over all of
them. Kernels without markers skip all of it.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

from triton._C.libtriton import gluon_ir

from . import pipeline
from .errors import TLXCompilationError

MARKER = "tlx.layout_marker"
APPLY_PINS = "builtin.module(tlx-apply-layout-pins)"
ERASE_ASSERTS = "builtin.module(tlx-erase-layout-asserts)"
LOWER_BALLOTS = "builtin.module(tlx-lower-warp-ballots)"
ELEMENTS_PER_THREAD = "tlx.elements_per_thread"
#: The markers ``tlx-lower-warp-ballots`` writes the PTX of.
WARP_VOTE_MARKERS = frozenset({"ballot", "scale_rows"})


def marker_kinds(module: Any) -> set[str]:
    """The kinds of layout markers (``pin``, ``release``, ``assert``) in ``module``."""
    kinds: set[str] = set()

    def visit(op: Any) -> None:
        if op.get_name() == "tt.elementwise_inline_asm":
            kind = op.get_str_attr(MARKER)
            if kind:
                kinds.add(kind)

    module.walk(visit)
    return kinds


def _parse_where(where: str) -> tuple[str, int, int]:
    file, _, rest = where.rpartition(":")
    file, _, line = file.rpartition(":")
    try:
        return file, int(line), int(rest)
    except ValueError:
        return where, 0, 0


def check_assertions(module: Any, kernel: str) -> None:
    """Raise :class:`TLXCompilationError` at the line of each ``tlx.assert_same_layout`` whose two sides have
    different layouts in ``module``."""
    sides: dict[str, dict[str, list[Any]]] = defaultdict(lambda: {"lhs": [], "rhs": []})
    where: dict[str, str] = {}

    def visit(op: Any) -> None:
        if op.get_name() != "tt.elementwise_inline_asm" or op.get_str_attr(MARKER) != "assert":
            return
        ident, side = op.get_str_attr("tlx.assert_same_layout").split()
        sides[ident][side].append(op.get_operand(0))
        where[ident] = op.get_str_attr("tlx.where") or ""

    module.walk(visit)
    builder = gluon_ir.GluonOpBuilder(module.context)
    diagnostics = []
    for ident in sorted(sides, key=int):
        for lhs in sides[ident]["lhs"]:
            for rhs in sides[ident]["rhs"]:
                if builder.is_convert_layout_trivial(rhs.get_type(), lhs):
                    continue
                file, line, column = _parse_where(where[ident])
                message = (
                    f"tlx.assert_same_layout: layout assertion failed: {lhs.get_type()} and {rhs.get_type()} "
                    "have different layouts once Triton's layout optimizations have run"
                )
                diagnostics.append(("error", file, line, column, message))
    if diagnostics:
        raise TLXCompilationError(
            f"TLX could not compile kernel `{kernel}`:\n{pipeline.format_diagnostics(diagnostics)}",
            kernel=kernel,
            diagnostics=diagnostics,
        )


def _tensor_shape(value: Any) -> list[int]:
    """The shape of a ranked tensor value, from its type (libtriton's Python types do not expose it)."""
    return [int(d) for d in re.match(r"tensor<((?:\d+x)*)", str(value.get_type())).group(1).split("x")[:-1]]


def mark_elements_per_thread(module: Any) -> None:
    """Give each ballot or scale marker the number of elements a thread holds in its first operand's final
    layout."""
    builder = gluon_ir.GluonOpBuilder(module.context)

    def visit(op: Any) -> None:
        if op.get_name() != "tt.elementwise_inline_asm" or op.get_str_attr(MARKER) not in WARP_VOTE_MARKERS:
            return
        flags = op.get_operand(0)
        layout = builder.get_gluon_layout_from_tensor(flags)
        linear = builder.to_linear_layout(layout._to_ir(builder), _tensor_shape(flags))
        op.get_result(0).set_attr(ELEMENTS_PER_THREAD, builder.get_int32_attr(2 ** len(linear.reg_bases)))

    module.walk(visit)


def finalize(module: Any, kernel: str, parse: Any) -> Any:
    """``module`` (final TTGIR, parsed by libtriton) with its pins applied, its assertions checked and
    erased and its tensor ballots lowered; ``parse(text)`` parses TTGIR text back into a module."""
    kinds = marker_kinds(module)
    if not kinds:
        return module
    source_name = f"{kernel}.ttgir-final.mlir"
    text = module.str()
    if kinds - WARP_VOTE_MARKERS:
        text = pipeline.run_passes(text, APPLY_PINS, kernel=kernel, source_name=source_name)
        module = parse(text)
    if kinds & WARP_VOTE_MARKERS:
        mark_elements_per_thread(module)
        text = pipeline.run_passes(module.str(), LOWER_BALLOTS, kernel=kernel, source_name=source_name)
        module = parse(text)
    if "assert" in kinds:
        check_assertions(module, kernel)
        text = pipeline.run_passes(text, ERASE_ASSERTS, kernel=kernel, source_name=source_name)
        module = parse(text)
    return module
