"""Every tutorial compiles on the CPU to a cubin for sm_90 with the instructions its ops promise;
on a GPU (marker `gpu`) each computes what PyTorch computes."""

import importlib.util

import pytest

from tlx.tutorials import compile_tutorial, cp_async_matmul, tma_copy, tma_matmul, wgmma_matmul

TUTORIALS = [tma_copy, tma_matmul, cp_async_matmul, wgmma_matmul]


@pytest.mark.parametrize("module", TUTORIALS, ids=lambda m: m.__name__.split(".")[-1])
def test_tutorial_compiles_to_cubin_with_promised_ptx(module):
    compiled = compile_tutorial(module.SPEC)
    ptx = compiled.asm["ptx"]
    missing = [marker for marker in module.SPEC["ptx"] if marker not in ptx]
    assert not missing, f"PTX lacks {missing}"
    assert compiled.asm["cubin"][:4] == b"\x7fELF"
    assert "tlx." not in compiled.asm["ttgir"], "a TLX op or carrier survived into the final TTGIR"


def _cuda_available() -> bool:
    if importlib.util.find_spec("torch") is None:
        return False
    import torch

    return torch.cuda.is_available()


gpu = pytest.mark.skipif(not _cuda_available(), reason="needs a CUDA GPU and PyTorch")


def _relative_error(out, ref) -> float:
    out = out.double()
    assert not out.isnan().any(), "some outputs were never written (NaN poison survived)"
    return ((out - ref).norm() / ref.norm()).item()


@pytest.mark.gpu
@gpu
@pytest.mark.parametrize("shape", [(64, 64), (1000, 776), (2048, 1024)])
def test_tma_copy_on_gpu(shape):
    import torch

    x = torch.randn(*shape, device="cuda", dtype=torch.float16)
    alpha = float(torch.rand(()).item()) + 0.5
    assert _relative_error(tma_copy.run(x, alpha), x.double() * alpha) < 1e-3


@pytest.mark.gpu
@gpu
@pytest.mark.parametrize("module", [tma_matmul, cp_async_matmul, wgmma_matmul], ids=lambda m: m.__name__.split(".")[-1])
@pytest.mark.parametrize("shape", [(128, 128, 64), (1000, 784, 528), (520, 384, 1040)])
def test_matmul_on_gpu(module, shape):
    import torch

    m, n, k = shape
    a = torch.randn(m, k, device="cuda", dtype=torch.float16)
    b = torch.randn(k, n, device="cuda", dtype=torch.float16)
    assert _relative_error(module.run(a, b), a.double() @ b.double()) < 1e-2
