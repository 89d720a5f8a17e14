"""The error TLX builtins raise for misuse that Python can see, and where in the kernel it is."""

import sys


class TLXError(Exception):
    """A TLX builtin was called in a way that cannot compile.

    Raised while Triton's code generator builds TTIR. Triton reports it as a
    ``triton.compiler.errors.CompilationError`` pointing at the kernel line
    that made the call (with a source excerpt); the message itself starts with
    ``<file>:<line>: tlx.<op>:`` so that the absolute location survives even
    when the error is logged without its excerpt.
    """


def location(generator) -> str:
    """``<file>:<line>`` of the kernel line a Triton ``CodeGenerator`` is tracing ("" without one)."""
    if generator is None:
        return ""
    line = getattr(generator.cur_node, "lineno", None)
    if line is None:
        return str(generator.file_name)
    return f"{generator.file_name}:{generator.begin_line + line}"


def generator_of(semantic) -> object | None:
    """The ``CodeGenerator`` tracing the kernel, for a builtin Triton calls without ``_generator``.

    Triton 3.6 builds ``with`` context managers with ``_semantic`` only, and plain classes with neither:
    the generator is a caller's ``self`` a few frames up (the one of ``semantic`` when given; ``None``
    outside ``@triton.jit`` code).
    """
    from triton.compiler.code_generator import CodeGenerator

    frame = sys._getframe(1)
    while frame is not None:
        owner = frame.f_locals.get("self")
        if isinstance(owner, CodeGenerator) and (semantic is None or owner.semantic is semantic):
            return owner
        frame = frame.f_back
    return None
