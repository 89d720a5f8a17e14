"""Host-side names that kernels written for the public TLX fork call on its Triton and Triton 3.6 lacks.

* ``GPUTarget.is_cuda_backend()``: True for targets that compile through the CUDA backend (the fork's
  ``cuda`` and ``tileir``). Public tutorials call it at import time
  (``driver.active.get_current_target().is_cuda_backend()``), so without it their files do not import.
"""

from __future__ import annotations


def _is_cuda_backend(self) -> bool:
    """True if this target compiles through a CUDA backend (``cuda`` or ``tileir``)."""
    return self.backend in ("cuda", "tileir")


def install() -> None:
    """Add the missing names (idempotent; a Triton that has them keeps its own)."""
    from triton.backends.compiler import GPUTarget

    if not hasattr(GPUTarget, "is_cuda_backend"):
        GPUTarget.is_cuda_backend = _is_cuda_backend
