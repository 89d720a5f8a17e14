"""ptxas rejecting a TLX kernel's PTX, reported at the kernel line the rejected instruction came from.

Stock Triton raises ``PTXASError`` with ptxas's stderr and the whole PTX ("please share the reproducer"),
which says nothing about the kernel. ptxas names a PTX line, and the ``.loc`` directive before that line
(Triton keeps line info in the PTX) names the kernel's ``file:line``.
"""

from __future__ import annotations

import re

from triton.runtime.errors import PTXASError

from .errors import TLXCompilationError
from .pipeline import format_diagnostics

_PTX_LINE = re.compile(r"\bline (\d+)\b")
_LOC = re.compile(r"^\s*\.loc\s+(\d+)\s+(\d+)\s+(\d+)")
_FILE = re.compile(r'^\s*\.file\s+(\d+)\s+"([^"]*)"(?:\s*,?\s*"([^"]*)")?')
_THREADS = re.compile(r"^\s*\.reqntid\s+(\d+)", re.M)
_REGISTERS = re.compile(r"Insufficient registers \((\d+)\) to compile instruction.*?register target of (\d+)")
_ABORTED = "Ptx assembly aborted"
_REPRODUCER = re.compile(r"\n\n={64}\n.*?please share the reproducer above with Triton project\.\n\n?", re.S)


class TLXPTXASError(TLXCompilationError, PTXASError):
    """ptxas rejected the PTX of a TLX kernel; the message names the kernel line the instruction came from.

    Also a ``PTXASError``, so the autotuner skips the configuration as it skips any that ptxas rejects."""


def source_position(ptx: str, ptx_line: int) -> tuple[str, int, int] | None:
    """The kernel ``(file, line, column)`` of PTX line ``ptx_line`` (1-based): the last ``.loc`` at or
    before it that names a source line (line 0 marks compiler-made code)."""
    lines = ptx.splitlines()
    files = {}
    for text in lines:
        match = _FILE.match(text)
        if match:
            directory, name = match.group(2), match.group(3)
            files[match.group(1)] = f"{directory}/{name}" if name else directory
    for text in reversed(lines[: max(0, ptx_line)]):
        match = _LOC.match(text)
        if match and int(match.group(2)) > 0 and match.group(1) in files:
            return files[match.group(1)], int(match.group(2)), int(match.group(3))
    return None


def without_reproducer(printed: str) -> str:
    """What stock make_cubin printed, less the whole-PTX reproducer it prints when ptxas fails."""
    return _REPRODUCER.sub("", printed)


def _first_ptxas_error(error: PTXASError) -> str:
    """ptxas's first error line, spaces collapsed; else the first line of the exception."""
    for line in (error.error_message or "").splitlines():
        if line.startswith("ptxas") and _ABORTED not in line and ("error" in line or "fatal" in line):
            return " ".join(line.split())
    return str(error).splitlines()[0]


def _register_advice(ptx: str, message: str) -> str:
    match = _REGISTERS.search(message)
    if not match:
        return ""
    launch, needed = match.groups()
    threads = _THREADS.search(ptx)
    runs = f"runs {int(threads.group(1)) // 32} warps, so each" if threads else "launches so that each"
    return (
        f"\nThe kernel {runs} thread starts with at most {launch} registers (an SM has 65536 for all of its "
        f"threads), and ptxas fits every instruction within that launch budget, whatever a task's `registers=` "
        f"(setmaxnreg) grants after the launch; this instruction needs {needed}. Run fewer warps (a task of 1 or "
        f"2 warps still takes a whole warp group of 4), or give this op a smaller tile."
    )


def ptxas_failure(kernel: str, ptx: str, error: PTXASError, defined_at: str | None) -> TLXPTXASError:
    """The error to raise when ptxas rejects the PTX of TLX kernel ``kernel``."""
    first = _first_ptxas_error(error)
    match = _PTX_LINE.search(first)
    position = source_position(ptx, int(match.group(1))) if match else None
    message = f"ptxas rejected the PTX of kernel `{kernel}` at this line: {first}"
    diagnostics = [("error", *position, message)] if position else []
    text = format_diagnostics(diagnostics) if position else f"{defined_at or f'kernel `{kernel}`'}: error: {message}"
    text += _register_advice(ptx, first)
    repro = next((line for line in (error.error_message or "").splitlines() if line.startswith("Repro command:")), "")
    if repro:
        text += f"\n{repro}"
    return TLXPTXASError(text, kernel=kernel, diagnostics=diagnostics)
