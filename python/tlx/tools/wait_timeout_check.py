"""The bounded-wait knob on the GPU: a deadlocked kernel fails fast with its report, and what the knob costs.

    python -m tlx.tools.wait_timeout_check [--timeout-ms 200]

1. A kernel that waits on a phase no one completes (one arrival, then a wait for the second phase: the
   static checker cannot see it) runs in a child process with ``TLX_WAIT_TIMEOUT_MS``: the launch must
   fail within seconds, and the child's output must hold the report (kernel, mbarrier, phase, line).
2. The warp-specialized GEMM and attention tutorials are timed in child processes with the knob off and
   on (each process compiles its own variant): the ratio is the knob's cost.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_DEADLOCK = r"""
import torch, triton, triton.language as tl, tlx

@triton.jit
def second_phase_never_completes(out):
    bars = tlx.alloc_barriers(1)
    tlx.barrier_arrive(bars[0])
    tlx.barrier_wait(bars[0], 1)  # phase 1 would need a second arrival
    tl.store(out, 1)

import time
out = torch.zeros(1, device="cuda", dtype=torch.int32)
second_phase_never_completes.warmup(out, grid=(1,))  # compile first: time the launch alone
start = time.perf_counter()
try:
    second_phase_never_completes[(1,)](out)
    torch.cuda.synchronize()
    print("RETURNED WITHOUT ERROR")
except RuntimeError as error:
    print(f"launch failed after {time.perf_counter() - start:.3f} s: {str(error).splitlines()[0]}", flush=True)
"""

_TIMING = r"""
import math, torch, triton
from tlx.tutorials import ws_gemm, ws_attention
a = torch.randn(8192, 8192, device="cuda", dtype=torch.float16)
b = torch.randn(8192, 8192, device="cuda", dtype=torch.float16)
ms = triton.testing.do_bench(lambda: ws_gemm.run(a, b), rep=300)
print(f"ws_gemm 8192^3 fp16 {2 * 8192**3 / ms * 1e-9:.1f}")
q, k, v = (torch.randn(4, 16, 4096, 128, device="cuda", dtype=torch.bfloat16) for _ in range(3))
ms = triton.testing.do_bench(lambda: ws_attention.run(q, k, v, causal=False, sm_scale=1 / math.sqrt(128)), rep=300)
print(f"ws_attention B4 H16 N4096 D128 bf16 {4 * 4 * 16 * 4096 * 4096 * 128 / ms * 1e-9:.1f}")
"""


def _child(code: str, timeout_ms: float | None, limit_s: float) -> tuple[int, str, float]:
    """Run ``code`` as a script in a fresh process (Triton's @jit needs a source file) with the knob set."""
    env = dict(os.environ)
    env.pop("TLX_WAIT_TIMEOUT_MS", None)
    if timeout_ms is not None:
        env["TLX_WAIT_TIMEOUT_MS"] = str(timeout_ms)
    with tempfile.TemporaryDirectory() as directory:
        script = Path(directory) / "child.py"
        script.write_text(code)
        start = time.perf_counter()
        try:
            result = subprocess.run(
                [sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=limit_s
            )
            return result.returncode, result.stdout + result.stderr, time.perf_counter() - start
        except subprocess.TimeoutExpired as error:
            output = (error.stdout or b"").decode() + (error.stderr or b"").decode()
            return -1, output + "\n(child killed: it hung)", time.perf_counter() - start


def _tflops(output: str) -> dict[str, float]:
    values = {}
    for line in output.splitlines():
        name, _, value = line.rpartition(" ")
        try:
            values[name] = float(value)
        except ValueError:
            continue
    return values


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout-ms", type=float, default=200.0)
    args = parser.parse_args(argv)
    ok = True

    code, output, seconds = _child(_DEADLOCK, args.timeout_ms, limit_s=120)
    reported = "TLX: mbarrier wait timed out" in output
    print(f"deadlocking kernel with TLX_WAIT_TIMEOUT_MS={args.timeout_ms:g}: exit {code}, {seconds:.1f} s in the child")
    report = [line for line in output.splitlines() if "TLX: mbarrier wait timed out" in line]
    print("  report: " + (report[0].strip() if report else "(none)"))
    print("  " + next((line for line in output.splitlines() if line.startswith("launch failed")), "(no failure)"))
    # The child catches the failed launch and exits normally: what counts is the report and the failure.
    failed_fast = any(line.startswith("launch failed") for line in output.splitlines())
    if not reported or not failed_fast or "RETURNED WITHOUT ERROR" in output:
        ok = False
        print(output[-3000:])

    timings = {}
    for label, timeout in (("off", None), ("on", 1000.0)):
        code, output, _ = _child(_TIMING, timeout, limit_s=300)
        timings[label] = _tflops(output)
        if code != 0:
            ok = False
            print(f"timing with the knob {label} failed:\n{output[-3000:]}")
    print(f"\n{'kernel':<38}{'knob off':>10}{'knob on':>10}{'on/off':>8}  (TFLOP/s)")
    for name, off in timings.get("off", {}).items():
        on = timings.get("on", {}).get(name)
        ratio = f"{on / off:.3f}" if on else "-"
        print(f"{name:<38}{off:>10.1f}{(on or float('nan')):>10.1f}{ratio:>8}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
