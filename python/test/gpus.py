"""The GPU a test needs, in one place: skip markers for the GPU tests (which are also marked ``gpu``)."""

from __future__ import annotations

import importlib.util

import pytest


def cuda_capability() -> int | None:
    """The major compute capability of the current CUDA device; None without PyTorch or a GPU."""
    if importlib.util.find_spec("torch") is None:
        return None
    import torch

    if not torch.cuda.is_available():
        return None
    return torch.cuda.get_device_capability()[0]


CAPABILITY = cuda_capability()

cuda = pytest.mark.skipif(CAPABILITY is None, reason="needs a CUDA GPU and PyTorch")
hopper_or_newer = pytest.mark.skipif(
    CAPABILITY is None or CAPABILITY < 9, reason="needs a Hopper-or-newer GPU and PyTorch"
)
hopper = pytest.mark.skipif(CAPABILITY != 9, reason="needs a Hopper (sm_90) GPU and PyTorch")
blackwell = pytest.mark.skipif(CAPABILITY != 10, reason="needs a Blackwell (sm_100) GPU and PyTorch")
