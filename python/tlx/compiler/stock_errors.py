"""Stock Triton failing on what the TLX pipeline made of a kernel, reported at the kernel line.

Stock Triton's passes and parser print their MLIR diagnostics on the process's stderr (file descriptor 2,
from C++) and raise a bare ``RuntimeError`` ("PassManager::run failed", "Parse MLIR file failed"), after a
whole-module reproducer. Around the stock steps of a TLX compilation the hook captures that stream: on
success it is written back unchanged; on failure the first error with a kernel location becomes a
``TLXCompilationError`` at that ``file:line:col`` (with advice where the cause is known), and the full
output is kept in a file the message names.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import tempfile
import threading
from collections.abc import Iterator

from .errors import TLXCompilationError
from .pipeline import format_diagnostics

# `file:line:col: error: message`, or with a named location: `loc("name"("file":line:col)): error: message`.
_DIAGNOSTIC = re.compile(
    r'^(?:loc\((?:"[^"]*"\()?"?)?(?P<file>[^":\s][^":]*)"?:(?P<line>\d+):(?P<col>\d+)\)*: error: (?P<message>.*)$'
)
# A stock pass that asserted or called report_fatal_error (Triton's pass manager recovers from both): the
# message names no kernel line.
_FATAL = re.compile(r"Assertion `(.*)' failed\.|LLVM ERROR: (.*)")
# What MLIR says about every failing pipeline, not about the kernel.
_GENERIC = ("Failures have been detected while processing an MLIR pass pipeline", "failed to legalize operation")
# The note MLIR adds to that: which pass failed.
_FAILED_PASS = re.compile(r"Pipeline failed while executing \[`([^`]+)`")

_ADVICE = (
    (
        "cp.async does not support transfers smaller than 4 bytes",
        "tlx.async_load copies with cp.async, at least 4 bytes per thread: the tile must hold 4 bytes or more "
        "for each thread of the task (a 1x64 int8 tile is 64 bytes for 128 threads), its addresses must be "
        "known 4-byte aligned (Triton specializes pointer arguments divisible by 16 at launch; an offset such as "
        "`x + 1` loses that), and each thread's elements contiguous along the buffer's last dimension",
    ),
    (
        "We don't support splitting along the swizzling pattern",
        "this slice cuts the swizzle pattern of the buffer's layout (the NVMMA layout TLX gives a 2-D buffer "
        "repeats it every 8 rows): slice whole multiples of 8 rows, or keep data read in smaller pieces in a "
        "buffer of its own",
    ),
    (
        "pack size must be a divisor of the number of elements per thread",
        "tl.map_elementwise(..., pack=N) hands each call N elements of one thread, so each thread of the task "
        "must hold a multiple of N elements of every tensor it maps (256 elements in a task of 16 warps are one "
        "per thread; stock Triton 3.6 fails the same way with num_warps=16 and no TLX): map a larger tensor, "
        "give the task fewer warps, or pass a smaller pack",
    ),
)


class StderrCapture:
    """What was written to file descriptor 2 inside :func:`captured_stderr`."""

    text = ""


# File descriptor 2 belongs to the process: one capture at a time (compilations may run in threads; what
# another thread writes meanwhile is captured too: written back, or kept in the file a failure names).
_CAPTURE_LOCK = threading.Lock()


@contextlib.contextmanager
def captured_stderr() -> Iterator[StderrCapture]:
    """Redirect file descriptor 2 (C++ and Python alike) into a buffer for the duration."""
    capture = StderrCapture()
    with _CAPTURE_LOCK:
        yield from _capturing(capture)


def _capturing(capture: StderrCapture) -> Iterator[StderrCapture]:
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with tempfile.TemporaryFile() as sink:
            os.dup2(sink.fileno(), 2)
            try:
                yield capture
            finally:
                sys.stderr.flush()
                os.dup2(saved, 2)
                sink.seek(0)
                capture.text = sink.read().decode(errors="replace")
    finally:
        os.close(saved)


def _kernel_errors(printed: str) -> list[tuple[str, int, int, str]]:
    errors = []
    for line in printed.splitlines():
        match = _DIAGNOSTIC.match(line.strip())
        if match and not match.group("message").startswith(_GENERIC):
            errors.append((match["file"], int(match["line"]), int(match["col"]), match["message"]))
    return errors


def stock_failure(kernel: str, stage: str, printed: str, defined_at: str | None) -> TLXCompilationError | None:
    """The error to raise when stock Triton's `stage` failed on TLX kernel `kernel` after printing `printed`;
    None when no error there names a kernel line (the caller's own error stands)."""
    errors = _kernel_errors(printed)
    fatal = _FATAL.search(printed)
    failed_pass = _FAILED_PASS.search(printed)
    if not errors and not ((fatal or failed_pass) and defined_at):
        return None
    fd, kept = tempfile.mkstemp(prefix=f"tlx-{kernel}-", suffix=".stock-error.txt")
    with os.fdopen(fd, "w") as f:
        f.write(printed)
    if not errors and fatal:  # the kernel's definition stands for the line
        text = (
            f"{defined_at}: error: stock Triton's {stage} failed on what TLX made of kernel `{kernel}`: "
            f"{fatal.group(1) or fatal.group(2)}\n(a check TLX should make itself: please report it with the "
            f"kernel)\nStock Triton's output, with its reproducer: {kept}"
        )
        return TLXCompilationError(text, kernel=kernel)
    if not errors:
        # Stock Triton 3.6 fails so on plain Triton code too (measured): `i // D` or `i % D` where D is a
        # constexpr 0 or a loop counter starting at 0 fails Coalesce or ConvertTritonGPUToLLVM without a line.
        text = (
            f"{defined_at}: error: stock Triton's {stage} failed on kernel `{kernel}` in pass "
            f"`{failed_pass.group(1)}` without naming a line\n(stock Triton 3.6 fails this way on an integer "
            "division or remainder whose divisor is 0 or may be by the range the compiler knows: a constexpr 0, "
            "a replica id of 0, a loop counter starting at 0; otherwise please report it with the kernel)\n"
            f"Stock Triton's output, with its reproducer: {kept}"
        )
        return TLXCompilationError(text, kernel=kernel)
    file, line, column, message = errors[0]
    diagnostic = (
        "error",
        file,
        line,
        column,
        f"stock Triton's {stage} rejects what TLX made of this line of kernel `{kernel}`: {message}",
    )
    advice = next((advice for cause, advice in _ADVICE if message.startswith(cause)), None)
    text = format_diagnostics([diagnostic])
    text += f"\n{advice}" if advice else "\n(a check TLX should make itself: please report it with the kernel)"
    text += f"\nStock Triton's output, with its reproducer: {kept}"
    return TLXCompilationError(text, kernel=kernel, diagnostics=[diagnostic])
