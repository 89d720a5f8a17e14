"""The TLX C++ pass pipeline, run in-process through ``tlx._C``.

Input: TTGIR text straight after stock ``convert-triton-to-tritongpu``, with
locations. Output: TTGIR text that stock libtriton parses, every TLX carrier
lowered to ``ttg``/``ttng``/``nvvm``.
"""

from __future__ import annotations

import functools
import linecache
import re
import sys
import warnings
from collections.abc import Callable
from typing import Any

from .. import _C
from . import knobs
from .errors import TLXCompilationError, TLXOutOfResources, TLXWarning

#: The whole TLX pipeline, as ``tlx-opt --pass-pipeline=`` and ``tlx._C.run_pipeline`` take it.
PIPELINE = (
    "builtin.module(tlx-raise-carriers,tlx-insert-proxy-fences,tlx-check-clusters,tlx-insert-cluster-barrier-init,tlx-check-static-bounds,tlx-check-divergent-sync,tlx-check-async-hazards,"
    "tlx-check-protocol,tlx-check-shared-memory,"
    "tlx-fit-task-layouts,tlx-assign-layouts,tlx-lower-to-nvvm,tlx-lower-to-ttg)"
)


def _split(pipeline: str) -> tuple[str, str]:
    """``builtin.module(a,b,c)`` -> (``builtin.module(a)``, ``builtin.module(b,c)``)."""
    match = re.fullmatch(r"builtin\.module\((.*)\)", pipeline)
    assert match, pipeline
    first, _, rest = match.group(1).partition(",")
    return f"builtin.module({first})", f"builtin.module({rest})"


#: The first pass alone (carriers -> TLX dialect), and the rest: run as two calls to see the raised IR.
RAISE_PIPELINE, LOWER_PIPELINE = _split(PIPELINE)
#: The passes of PIPELINE, in order.
PASSES = tuple(re.fullmatch(r"builtin\.module\((.*)\)", PIPELINE).group(1).split(","))


@functools.cache
def pass_registered(name: str) -> bool:
    """Whether this ``tlx._C`` build registers pass ``name`` (checked by running it on an empty module)."""
    try:
        _C.run_pipeline("module {}", f"builtin.module({name})")
    except _C.PipelineError:
        return False
    return True


def kernel_location(text: str) -> str | None:
    """``file:line`` of the kernel definition: Triton gives the entry function the first location alias."""
    match = re.search(r'^#loc = loc\("((?:[^"\\]|\\.)*)":(\d+):\d+\)', text, re.M)
    return f"{match.group(1)}:{match.group(2)}" if match else None


def format_diagnostics(diagnostics) -> str:
    lines = []
    for severity, file, line, column, message in diagnostics:
        where = f"{file}:{line}:{column}" if line else str(file)
        lines.append(f"{where}: {severity}: {message}")
        source = linecache.getline(file, line).rstrip() if line and file and not file.startswith("<") else ""
        if source:
            lines.append(f"    {source.strip()}")
    return "\n".join(lines)


def _report(kernel: str) -> Callable[[tuple], None]:
    """What the C++ side calls with each warning and remark of a successful pipeline: a warning becomes a
    Python TLXWarning, a remark (``tlx.dump_layout``) a line on stderr, both naming the kernel and the user's
    line."""

    def report(diagnostic: tuple) -> None:
        text = f"kernel `{kernel}`: {format_diagnostics([diagnostic])}"
        if diagnostic[0] == "warning":
            warnings.warn(TLXWarning(text), stacklevel=2)
        else:
            print(text, file=sys.stderr, flush=True)

    return report


def _failure(kernel: str, text: str, pipeline: str, error: Exception) -> TLXCompilationError:
    # MLIR's note with the failing op in generic form (a whole warp-specialized region, say) would bury the
    # user's line; `tlx-opt` and `tlx.run_pipeline` still show it.
    diagnostics = [
        d
        for d in getattr(error, "diagnostics", []) or []
        if not (d[0] == "note" and d[4].startswith("see current operation"))
    ]
    stage = getattr(error, "stage", "pipeline")
    defined = kernel_location(text)
    header = f"TLX could not compile kernel `{kernel}`" + (f" (defined at {defined})" if defined else "")
    missing = [name for name in PASSES if not pass_registered(name)]
    if stage == "pipeline" and missing:
        body = (
            f"the TLX pass pipeline {pipeline} cannot run: this tlx._C build does not register "
            f"{', '.join(missing)}. Rebuild TLX (`ninja -C build/cmake`) with the TLX compiler passes.\n"
            f"{error}"
        )
    else:
        body = f"{stage} stage of {pipeline} failed:\n" + (format_diagnostics(diagnostics) or str(error))
    # Marked so by the pass that found it (tlx/Support/OutOfResources.h): a configuration the autotuner skips.
    if marked := getattr(error, "out_of_resources", None):
        resource, required, limit = marked[0]
        return TLXOutOfResources(f"{header}: {body}", kernel, diagnostics, required, limit, resource)
    return TLXCompilationError(f"{header}: {body}", kernel=kernel, diagnostics=diagnostics)


def run(
    text: str,
    *,
    kernel: str,
    source_name: str,
    on_raised: Callable[[str], None] | None = None,
    options: Any = None,
) -> str:
    """Run :data:`PIPELINE` over ``text`` (converted TTGIR with locations) and return the lowered text.

    ``options`` (the kernel's compile options) may leave the protocol checks out (``tlx_protocol_check``).

    With ``on_raised``, the pipeline runs in two calls (``RAISE_PIPELINE``
    then ``LOWER_PIPELINE``) and ``on_raised`` receives the IR in between.
    Failures become :class:`TLXCompilationError` naming the kernel and the
    user's ``file:line`` of each diagnostic.
    """
    chosen = knobs.effective_pipeline(PIPELINE, options)
    pipelines = [chosen] if on_raised is None else list(_split(chosen))
    current = text
    for pipeline in pipelines:
        current = run_passes(current, pipeline, kernel=kernel, source_name=source_name, original=text)
        if on_raised is not None and pipeline == pipelines[0]:
            on_raised(current)
    return current


def run_passes(text: str, pipeline: str, *, kernel: str, source_name: str, original: str | None = None) -> str:
    """Run the TLX passes ``pipeline`` over ``text``; failures become :class:`TLXCompilationError` at the
    user's lines (``original``: the text the kernel's definition is read from, ``text`` by default)."""
    try:
        return _C.run_pipeline(text, pipeline, source_name=source_name, debug_info=True, on_diagnostic=_report(kernel))
    except _C.PipelineError as error:
        raise _failure(kernel, original or text, pipeline, error) from error
