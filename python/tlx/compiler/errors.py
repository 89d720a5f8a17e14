"""The exception a TLX kernel's compilation raises when the TLX compiler rejects it."""

from __future__ import annotations

from collections.abc import Sequence

from triton.compiler.errors import CompilationError
from triton.runtime.errors import OutOfResources

Diagnostic = tuple[str, str, int, int, str]


class TLXCompilationError(CompilationError):
    """The TLX compiler could not compile a kernel.

    A ``triton.compiler.errors.CompilationError`` (what Triton's own frontend
    raises), so code that handles Triton's compile errors handles these too.
    ``kernel`` names the kernel; ``diagnostics`` holds the C++ side's
    ``(severity, file, line, column, message)`` tuples, where ``file:line`` is
    the user's Python line when the diagnostic is about a TLX op.
    """

    def __init__(self, message: str, kernel: str | None = None, diagnostics: Sequence[Diagnostic] = ()) -> None:
        # CompilationError.__init__ formats a source excerpt from an AST node;
        # these errors come from IR, whose locations are already in `message`.
        self.src = None
        self.node = None
        self.error_message = message
        self.message = message
        self.kernel = kernel
        self.diagnostics = list(diagnostics)

    def __str__(self) -> str:
        return self.message

    def __reduce__(self):
        return type(self), (self.message, self.kernel, self.diagnostics)


class TLXOutOfResources(TLXCompilationError, OutOfResources):
    """A TLX kernel needs more of a resource (``name``: shared memory, tensor memory columns) than a CTA has:
    ``required`` against ``limit``. Also an ``OutOfResources``, so the autotuner skips the configuration as it
    skips one that fails at launch for the same reason; the message names the user's lines."""

    def __init__(
        self,
        message: str,
        kernel: str | None = None,
        diagnostics: Sequence[Diagnostic] = (),
        required: int = 0,
        limit: int = 0,
        name: str = "shared memory",
    ) -> None:
        super().__init__(message, kernel, diagnostics)
        self.required = required
        self.limit = limit
        self.name = name

    def __reduce__(self):
        return type(self), (self.message, self.kernel, self.diagnostics, self.required, self.limit, self.name)


class TLXWarning(UserWarning):
    """The TLX compiler found something in a kernel it cannot prove wrong but cannot prove right either
    (a protocol that holds on some paths only, say). The message names the user's ``file:line``."""
