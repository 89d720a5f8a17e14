"""Host-side names that kernels written for the public TLX fork call on its Triton and Triton 3.6 lacks.

* ``GPUTarget.is_cuda_backend()``: True for targets that compile through the CUDA backend (the fork's
  ``cuda`` and ``tileir``). Public tutorials call it at import time
  (``driver.active.get_current_target().is_cuda_backend()``), so without it their files do not import.
* ``torch.float8_e8m0fnu`` arguments (MX block scales): the fork specializes them as ``u8`` pointers, the bytes
  tcgen05's block scaling reads; Triton 3.6's specializer has no name for the dtype (``KeyError``).
* List comprehensions over ``range(...)`` of constexprs in a kernel (``[tl.zeros(...) for _ in range(N)]``,
  public ``blackwell_scaled_mm_ws.py``): the fork unrolls them into a tuple, one element per index, as it does
  a comprehension over a tuple; Triton 3.6 takes only the latter ("only tuple comprehensions are supported").
"""

from __future__ import annotations

import ast
import functools
from typing import Any


def _is_cuda_backend(self) -> bool:
    """True if this target compiles through a CUDA backend (``cuda`` or ``tileir``)."""
    return self.backend in ("cuda", "tileir")


def _comprehension_over_constexpr_range(stock: Any) -> Any:
    @functools.wraps(stock)
    def visit_ListComp(self, node: ast.ListComp) -> Any:
        from triton.language import constexpr
        from triton.language import tuple as tl_tuple
        from triton.language.core import _unwrap_if_constexpr

        if len(node.generators) != 1 or not isinstance(node.generators[0].target, ast.Name):
            return stock(self, node)
        comp = node.generators[0]
        if not (isinstance(comp.iter, ast.Call) and self.visit(comp.iter.func) is range):
            return stock(self, node)
        bounds = [_unwrap_if_constexpr(self.visit(arg)) for arg in comp.iter.args]
        if not all(isinstance(bound, int) for bound in bounds):
            raise TypeError("a list comprehension over range(...) is unrolled: its bounds must be constexpr ints")
        elements = []
        for index in range(*bounds):
            self.set_value(comp.target.id, constexpr(index))
            elements.append(self.visit(node.elt))
        return tl_tuple(elements)

    return visit_ListComp


def install() -> None:
    """Add the missing names (idempotent; a Triton that has them keeps its own)."""
    from triton._utils import type_canonicalisation_dict
    from triton.backends.compiler import GPUTarget

    if not hasattr(GPUTarget, "is_cuda_backend"):
        GPUTarget.is_cuda_backend = _is_cuda_backend
    type_canonicalisation_dict.setdefault("float8_e8m0fnu", "u8")
    from triton.compiler.code_generator import CodeGenerator

    if not getattr(CodeGenerator.visit_ListComp, "_tlx_constexpr_range", False):
        CodeGenerator.visit_ListComp = _comprehension_over_constexpr_range(CodeGenerator.visit_ListComp)
        CodeGenerator.visit_ListComp._tlx_constexpr_range = True
