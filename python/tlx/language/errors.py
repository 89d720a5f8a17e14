"""The error TLX builtins raise for misuse that Python can see."""


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
