"""The expert-parallel MoE layer (`tlx.tutorials.moe_layer`): its chunking on the CPU; on one GPU (a
one-rank process group) and on two (`torchrun`, where the machine has them: both transports, NCCL and
the copy engines) its output against the whole layer computed on one GPU in float32, with and without
overlap."""

import importlib.util
import os
import subprocess
import sys

import pytest

from tlx.tutorials import moe_layer


@pytest.mark.parametrize("rows, chunks", [(0, 4), (3, 4), (1000, 4), (1001, 3), (5, 1)])
def test_chunks_cover_the_rows_once_in_order(rows, chunks):
    bounds = moe_layer._chunk_bounds(rows, chunks)
    assert bounds[0] == 0 and bounds[-1] == rows and len(bounds) == chunks + 1
    assert all(lo <= hi for lo, hi in zip(bounds, bounds[1:], strict=False))
    assert (
        max(hi - lo for lo, hi in zip(bounds, bounds[1:], strict=False))
        - min(hi - lo for lo, hi in zip(bounds, bounds[1:], strict=False))
        <= 1
    )


def test_combine_kernel_compiles_to_a_gather_and_float32_sum():
    from tlx.tutorials import compile_tutorial

    signature = {"rows_ptr": "*bf16", "where_ptr": "*i64", "weights_ptr": "*fp32", "out_ptr": "*bf16", "H": "i32"}
    spec = {
        "kernel": moe_layer._combine_kernel,
        "signature": {**signature, "TOP_K": "constexpr", "BLOCK": "constexpr"},
        "constexprs": {"TOP_K": 2, "BLOCK": 1024},
        "num_warps": 4,
    }
    ptx = compile_tutorial(spec).asm["ptx"]
    assert ptx.count("ld.global.b64") >= 2 or ptx.count("ld.global.u64") >= 2, "one row index per pick"
    assert "fma.rn.f32" in ptx or "mul.f32" in ptx


def test_unknown_transport_is_refused():
    layer = object.__new__(moe_layer.ExpertParallelMoE)
    with pytest.raises(ValueError, match="transport must be 'nccl' or 'copy-engine'"):
        layer.forward(None, transport="rdma")


def test_segment_starts():
    assert moe_layer.grouped_gemm.group_starts([3, 0, 5]) == [0, 3, 3, 8]
    assert moe_layer.grouped_gemm.group_starts([]) == [0]


def _gpus() -> int:
    if importlib.util.find_spec("torch") is None:
        return 0
    import torch

    return torch.cuda.device_count() if torch.cuda.is_available() else 0


@pytest.mark.gpu
@pytest.mark.skipif(_gpus() < 1, reason="needs a CUDA GPU and PyTorch")
@pytest.mark.parametrize("overlap", [True, False])
def test_one_rank_layer_matches_the_reference(overlap):
    import torch
    import torch.distributed as dist

    if not dist.is_initialized():
        dist.init_process_group("nccl", store=dist.HashStore(), rank=0, world_size=1)
    shape = moe_layer.MoEShape(tokens=1000, hidden=256, ffn=384, experts=8, top_k=2, skew=2.0)
    layer = moe_layer.ExpertParallelMoE(shape, seed=int.from_bytes(os.urandom(2)))
    x = torch.randn(shape.tokens, shape.hidden, device="cuda", dtype=torch.bfloat16)
    reference = layer.reference(x)
    out = layer.forward(x, overlap=overlap, chunks=3)
    assert torch.isfinite(out).all()
    assert ((out.float() - reference).norm() / reference.norm()).item() < 2e-2


@pytest.mark.gpu
@pytest.mark.skipif(_gpus() < 2, reason="needs two CUDA GPUs")
def test_two_rank_layer_matches_the_one_gpu_reference():
    command = [sys.executable, "-m", "torch.distributed.run", "--nproc-per-node", "2", "-m", "tlx.tutorials.moe_layer"]
    command += ["--tokens", "2048", "--hidden", "512", "--ffn", "768", "--experts", "8", "--repeat", "3"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "-> ok" in result.stdout
