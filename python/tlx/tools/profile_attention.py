"""One launch of each attention forward, inside a CUDA profiler range, for Nsight Compute.

    ncu --profile-from-start off --clock-control none --metrics <...> \
        python -m tlx.tools.profile_attention [--d 64 128] [--n 4096] [--dtype bf16]

Each provider (TLX `ws_attention`, cuDNN through `scaled_dot_product_attention`, FlashAttention-3 where
`fa3_fwd_interface` imports and the dtype is bf16) is compiled and run
first outside the range, so that the range holds exactly one launch of each kernel per shape: ncu then
reports one row per kernel. The shapes follow the benchmark suite (B * N = 16384 tokens, H * D = 2048).
`METRICS` is what the issue's question needs: how busy the tensor pipe is (wgmma), the MUFU and FMA
pipes (the softmax), and what the warps stall on. With ``--section SourceCounters``, ``tlx.tools.ncu_source``
reads the report's source page (``ncu -i REPORT --page source --csv``) instruction by instruction.
"""

from __future__ import annotations

import argparse
import importlib
import sys

#: Nsight Compute metrics for Hopper (sm_90): pipes as a share of peak, stalls per active warp.
METRICS = (
    "gpu__time_duration.sum",
    "sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active",
    "sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active",
    "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active",
    "sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active",
    "smsp__warp_issue_stalled_barrier_per_warp_active.pct",
    "smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct",
    "smsp__warp_issue_stalled_wait_per_warp_active.pct",
    "smsp__warp_issue_stalled_math_pipe_throttle_per_warp_active.pct",
    "smsp__warp_issue_stalled_membar_per_warp_active.pct",
    "dram__throughput.avg.pct_of_peak_sustained_elapsed",
)


def main(argv: list[str] | None = None) -> int:
    import torch

    from tlx.tools.bench import FA3_DTYPES, FA3_MODULE, _fa3, _sdpa
    from tlx.tutorials import ws_attention

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--d", type=int, nargs="+", default=[64, 128])
    parser.add_argument("--n", type=int, nargs="+", default=[4096])
    parser.add_argument("--dtype", choices=("bf16", "fp16"), default="bf16")
    parser.add_argument("--causal", action="store_true")
    args = parser.parse_args(argv)
    dtype = torch.bfloat16 if args.dtype == "bf16" else torch.float16

    providers = {
        "TLX": lambda q, k, v, scale: ws_attention.run(q, k, v, causal=args.causal, sm_scale=scale),
        "cuDNN": lambda q, k, v, scale: _sdpa(q, k, v, args.causal, scale, "CUDNN_ATTENTION"),
    }
    try:
        fa3 = importlib.import_module(FA3_MODULE)
    except ImportError as error:
        print(f"profile_attention: FlashAttention-3 left out ({FA3_MODULE}: {error})", file=sys.stderr)
    else:
        if args.dtype in FA3_DTYPES:
            providers["FA3"] = lambda q, k, v, scale: _fa3(fa3, q, k, v, args.causal, scale)

    cases = []
    for d in args.d:
        for n in args.n:
            batch, heads = 16384 // n, 2048 // d
            q, k, v = (torch.randn(batch, heads, n, d, device="cuda", dtype=dtype) for _ in range(3))
            for run in providers.values():
                run(q, k, v, d**-0.5)  # compile and warm up outside the profiled range
            cases.append((q, k, v, d**-0.5))
    torch.cuda.synchronize()
    torch.cuda.cudart().cudaProfilerStart()
    for case in cases:
        for run in providers.values():
            run(*case)
    torch.cuda.synchronize()
    torch.cuda.cudart().cudaProfilerStop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
