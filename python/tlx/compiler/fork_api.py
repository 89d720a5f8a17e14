"""Host-side names that kernels written for the public TLX fork call on its Triton and Triton 3.6 lacks.

* ``GPUTarget.is_cuda_backend()``: True for targets that compile through the CUDA backend (the fork's
  ``cuda`` and ``tileir``). Public tutorials call it at import time
  (``driver.active.get_current_target().is_cuda_backend()``), so without it their files do not import.
* ``torch.float8_e8m0fnu`` arguments (MX block scales): the fork specializes them as ``u8`` pointers, the bytes
  tcgen05's block scaling reads; Triton 3.6's specializer has no name for the dtype (``KeyError``).
"""

from __future__ import annotations


def _is_cuda_backend(self) -> bool:
    """True if this target compiles through a CUDA backend (``cuda`` or ``tileir``)."""
    return self.backend in ("cuda", "tileir")


def install() -> None:
    """Add the missing names (idempotent; a Triton that has them keeps its own)."""
    from triton._utils import type_canonicalisation_dict
    from triton.backends.compiler import GPUTarget

    if not hasattr(GPUTarget, "is_cuda_backend"):
        GPUTarget.is_cuda_backend = _is_cuda_backend
    type_canonicalisation_dict.setdefault("float8_e8m0fnu", "u8")
