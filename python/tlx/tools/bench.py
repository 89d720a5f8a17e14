"""The benchmark suite: TLX kernels against cuBLAS, cuDNN, FlashAttention and stock Triton, on one GPU.

    python -m tlx.tools.bench [--quick] [--out DIR] [--only gemm,attention,broadcast,moe,gdpa,launch] [--timer both]
    python -m tlx.tools.bench --fake [--quick] [--out DIR]     # no GPU: made-up numbers, to see the output

Sections (`--quick`: a small subset for smoke runs):

* GEMM, bf16 and fp16, C = A @ B with A (M x K) and B (K x N) row-major: cuBLAS (`torch.matmul`), stock
  Triton (the fastest correct of `tlx.tools.stock_kernels`' variants and configurations, tried on every
  shape), TLX `ws_gemm` (cooperative and ping-pong schedules) and TLX `wgmma_matmul` (fp16 only).
* Attention forward, (B, H, N, D) with B * N = 16384 tokens and H * D = 2048 (FlashAttention-2's
  setting), N 1024 .. 16384, D 64 and 128, causal and not, bf16 and fp16: cuDNN and FlashAttention
  through `torch.nn.functional.scaled_dot_product_attention`, FlashAttention-3 (`fa3-fwd`, bf16), and
  TLX `ws_attention`.
* In-kernel broadcast scoring (`tlx.tutorials.broadcast_scoring`): the TLX kernel against the
  materialized PyTorch and Triton versions, with each one's host microseconds per call (`host_us`).
* Grouped GEMM for mixture-of-experts (`tlx.tutorials.grouped_gemm`), bf16, MoE shapes with uniform and
  skewed routing, forward and weight-gradient layouts: the TLX kernel against `torch._grouped_mm`
  (cuBLAS/CUTLASS grouped), a loop of `torch.matmul` per expert (its row counts read once, untimed)
  and stock Triton (the fastest correct of `tlx.tools.stock_grouped`'s configurations).
* GDPA forward (`tlx.tutorials.gdpa`), bf16, jagged sequences with log-normal lengths in [128, 4096]
  (mean ~1k), tanh-GELU or SiLU in place of softmax, causal and not: the TLX kernel against stock Triton
  (the fastest correct of `tlx.tools.stock_gdpa`'s configurations, its warp specialization among them)
  and PyTorch (a loop over the sequences, batched over heads).
* Launch overhead (`tlx.tools.launch_overhead`): host microseconds per launch of the same work written
  in stock Triton and with TLX ops (host TMA descriptors; pointers), fresh and with a large live heap.

Every provider at every shape is first checked: fresh random inputs, NaN-poisoned outputs (where the
provider lets us or its host code does), relative Frobenius error against a float64 PyTorch reference,
NaN or Inf anywhere fails. Only then is it timed: `triton.testing.do_bench` (median, L2 flushed between
runs: the call as a user makes it, host launch path included) and, beside it, replays of a CUDA graph of
the same call (`do_bench_cudagraph`: device time); the ratio columns marked "(graph)" compare device
times. While each time is measured, nvidia-smi samples the SM clock, board power and clock-limit reasons
(`tlx.tools.gpu_clocks`); each section's page shows the clock every provider ran at, since on a
power-capped GPU two kernels doing the same work can run 100 MHz apart. With `--rounds N` each case's
providers are timed N times, round-robin once all are checked, and the median reported: timed once each,
one after the other, two providers can differ by the clock's drift alone (2-3% on the H100 and H200). A
provider that is missing (its module not written yet), fails to compile or run, or computes wrong numbers
gets that status in its cell and the suite goes on.

Writes under --out (default ./bench-out): results.json (everything, with the environment), PNG plots,
and `results-<date>-<gpu>.md`. Prints a table last. Exit status 1 when some provider was wrong or raised.
The reporting half (tables, plots, markdown) works on plain dicts and needs no GPU.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import functools
import importlib
import inspect
import json
import math
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import time
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tlx.tools import gpu_clocks

# ---------------------------------------------------------------------------------------------------------------------
# What is measured
# ---------------------------------------------------------------------------------------------------------------------

DTYPES = ("bf16", "fp16")
#: do_bench's warmup: each provider runs its call back to back this long before it is timed, so that every
#: provider is timed at the clock a power-capped GPU settles at. Measured on the H200 (2026-12-03, attention
#: D=128): with 25 ms, a provider timed after the GPU idled (a kernel compiling) ran at up to 1930 MHz while
#: the one before it ran at 1600, and TLX/FA3 read 1.13 where CUDA-graph replays read 1.00; with 1000 ms every
#: provider's events timing ran within 2% of its graph timing's clock, and events and graph ratios agreed
#: within 2%.
WARMUP_MS = 1000
#: Relative Frobenius error a 16-bit result must stay under (its own rounding is ~1e-3).
TOLERANCE = {"bf16": 1e-2, "fp16": 1e-2}

GEMM_SHAPES: list[tuple[int, int, int]] = [
    (4096, 4096, 4096),
    (6144, 6144, 6144),
    (8192, 8192, 8192),
    (8192, 512, 8192),  # skinny N: a narrow projection (few output tiles, long K)
    (512, 8192, 8192),  # skinny M: a small batch of tokens through a wide layer
    (16384, 16384, 512),  # short K: epilogue-heavy (the output is 32x the inputs)
]
GEMM_QUICK_SHAPES: list[tuple[int, int, int]] = [(4096, 4096, 4096)]

#: Attention: B * N tokens per batch and H * D model width, as in the FlashAttention-2 paper.
ATTENTION_TOKENS = 16384
ATTENTION_WIDTH = 2048
ATTENTION_N = (1024, 2048, 4096, 8192, 16384)
ATTENTION_D = (64, 128)
ATTENTION_QUICK_N = (1024, 4096)
ATTENTION_QUICK_D = (128,)

#: Grouped GEMM problems of MoE layers: (experts, tokens per step, K, N, routing skew, layout). The shapes
#: follow open MoE models' expert FFNs (hidden 2048-7168, expert width 1408-4096); skew is the sigma of the
#: log-normal expert popularity (0: uniform routing); "wgrad" is dW[g] = A_g^T dY_g.
MOE_SHAPES: list[tuple[int, int, int, int, float, str]] = [
    (8, 16384, 4096, 2048, 0.0, "fwd"),
    (8, 16384, 4096, 2048, 1.0, "fwd"),
    (64, 32768, 2048, 1408, 1.0, "fwd"),
    (128, 65536, 7168, 2048, 1.0, "fwd"),
    (32, 4096, 2048, 4096, 1.0, "fwd"),
    (8, 16384, 4096, 2048, 1.0, "wgrad"),
    (64, 32768, 2048, 1408, 1.0, "wgrad"),
]
MOE_QUICK_SHAPES = MOE_SHAPES[1:2] + MOE_SHAPES[5:6]
#: The same kernels in fp16 (the grouped GEMM takes both 16-bit types), on one forward and one weight-gradient
#: problem.
MOE_FP16_SHAPES = [MOE_SHAPES[1], MOE_SHAPES[6]]

#: GDPA problems: (sequences, heads, D, activation, causal), lengths log-normal in [128, 4096] with a mean
#: near 1k (user histories of a recommendation model), H * D = 1024.
GDPA_SHAPES: list[tuple[int, int, int, str, bool]] = [
    (64, 8, 128, "gelu", False),
    (64, 8, 128, "gelu", True),
    (64, 16, 64, "gelu", False),
    (64, 16, 64, "gelu", True),
    (64, 8, 128, "silu", False),
    (256, 8, 128, "gelu", False),
]
GDPA_QUICK_SHAPES = GDPA_SHAPES[:1]

#: Per section: the providers (table column order), which of them are TLX, and the baselines the best TLX
#: provider is compared with (column header of the ratio baseline time / TLX time).
SECTIONS: dict[str, dict[str, Any]] = {
    "gemm": {
        "title": "GEMM",
        "providers": ["cuBLAS", "Triton", "TLX coop", "TLX pingpong", "TLX wgmma"],
        "tlx": ["TLX coop", "TLX pingpong", "TLX wgmma"],
        "ratios": {"cuBLAS": "TLX/cuBLAS", "Triton": "TLX/Triton"},
        "metric": "tflops",
    },
    "attention": {
        "title": "Attention forward",
        "providers": ["cuDNN", "flash", "FA3", "TLX", "TLX persistent"],
        "tlx": ["TLX", "TLX persistent"],
        "ratios": {"cuDNN": "TLX/cuDNN", "flash": "TLX/flash", "FA3": "TLX/FA3"},
        "metric": "tflops",
    },
    "broadcast": {
        "title": "In-kernel broadcast scoring",
        "providers": ["TLX", "torch", "Triton"],
        "tlx": ["TLX"],
        "ratios": {"torch": "vs torch", "Triton": "vs Triton"},
        "metric": "ms",
    },
    "moe": {
        "title": "Grouped GEMM (MoE experts)",
        "providers": ["grouped_mm", "matmul loop", "Triton", "TLX"],
        "tlx": ["TLX"],
        "ratios": {"grouped_mm": "TLX/grouped_mm", "matmul loop": "TLX/loop", "Triton": "TLX/Triton"},
        "metric": "tflops",
    },
    "gdpa": {
        "title": "GDPA forward (jagged, activation in place of softmax)",
        "providers": ["torch", "Triton", "TLX", "TLX persistent"],
        "tlx": ["TLX", "TLX persistent"],
        "ratios": {"torch": "TLX/torch", "Triton": "TLX/Triton"},
        "metric": "tflops",
    },
    "launch": {
        "title": "Launch overhead",
        "providers": ["stock", "TLX"],
        "tlx": ["TLX"],
        "ratios": {"stock": "TLX/stock"},
        "metric": "us",
    },
}


def gemm_flops(m: int, n: int, k: int) -> float:
    """Floating-point operations of an (M x K) @ (K x N) product: one multiply and one add per term."""
    return 2.0 * m * n * k


def attention_flops(batch: int, heads: int, n: int, d: int, causal: bool) -> float:
    """Attention forward FLOPs: two N x N x D matmuls per head (Q K^T and P V); causal does half the work."""
    flops = 4.0 * batch * heads * n * n * d
    return flops / 2 if causal else flops


def attention_shape(n: int, d: int) -> tuple[int, int]:
    """(B, H) for sequence length n and head dim d: B * N = ATTENTION_TOKENS, H * D = ATTENTION_WIDTH."""
    return max(1, ATTENTION_TOKENS // n), max(1, ATTENTION_WIDTH // d)


def tflops(flops: float | None, ms: float | None) -> float | None:
    """TFLOP/s of `flops` done in `ms` milliseconds (None when either is unknown)."""
    if not flops or not ms:
        return None
    return flops / ms * 1e-9


def gemm_cases(quick: bool = False) -> list[dict]:
    """The GEMM problems: one dict per (shape, dtype), with no results yet."""
    shapes = GEMM_QUICK_SHAPES if quick else GEMM_SHAPES
    return [
        {"m": m, "n": n, "k": k, "dtype": dtype, "label": f"{m}x{n}x{k}", "flops": gemm_flops(m, n, k)}
        for dtype in DTYPES
        for m, n, k in shapes
    ]


def attention_cases(quick: bool = False) -> list[dict]:
    """The attention problems: one dict per (dtype, D, causal, N), with no results yet."""
    ns = ATTENTION_QUICK_N if quick else ATTENTION_N
    ds = ATTENTION_QUICK_D if quick else ATTENTION_D
    cases = []
    for dtype in DTYPES:
        for d in ds:
            for causal in (False, True):
                for n in ns:
                    batch, heads = attention_shape(n, d)
                    cases.append(
                        {
                            "batch": batch,
                            "heads": heads,
                            "n": n,
                            "d": d,
                            "causal": causal,
                            "dtype": dtype,
                            "flops": attention_flops(batch, heads, n, d, causal),
                        }
                    )
    return cases


_BROADCAST_ABBREVIATIONS = {
    "num_users": "U",
    "items_per_user": "I",
    "user_dim": "du",
    "item_dim": "di",
    "hidden": "h",
}


def moe_label(experts: int, tokens: int, k: int, n: int, skew: float, layout: str) -> str:
    """'G=64 T=32k K=2048 N=1408 skewed fwd'."""
    routing = "uniform" if skew == 0 else "skewed"
    return f"G={experts} T={tokens // 1024}k K={k} N={n} {routing} {layout}"


def moe_cases(quick: bool = False) -> list[dict]:
    """The grouped GEMM problems (bf16, and fp16 on MOE_FP16_SHAPES), with no results yet."""
    shapes = [(shape, "bf16") for shape in (MOE_QUICK_SHAPES if quick else MOE_SHAPES)]
    if not quick:
        shapes += [(shape, "fp16") for shape in MOE_FP16_SHAPES]
    return [
        {
            "experts": experts,
            "tokens": tokens,
            "k": k,
            "n": n,
            "skew": skew,
            "layout": layout,
            "dtype": dtype,
            "label": moe_label(experts, tokens, k, n, skew, layout),
            "flops": gemm_flops(tokens, n, k),
        }
        for (experts, tokens, k, n, skew, layout), dtype in shapes
    ]


def broadcast_label(shape: dict) -> str:
    """A short name for a broadcast-scoring shape, e.g. 'U=64 I=1024 du=256 di=128 h=512'."""
    if "name" in shape:
        return str(shape["name"])
    parts = [f"{_BROADCAST_ABBREVIATIONS.get(key, key)}={value}" for key, value in shape.items() if key != "dtype"]
    return " ".join(parts)


# ---------------------------------------------------------------------------------------------------------------------
# Reporting: plain dicts in, text / markdown / PNG out (no GPU needed)
# ---------------------------------------------------------------------------------------------------------------------


def best_tlx(section: str, case: dict) -> tuple[str, dict] | None:
    """The fastest TLX provider of `case` whose status is ok, as (name, result), or None."""
    found = [
        (name, case["providers"][name])
        for name in SECTIONS[section]["tlx"]
        if case.get("providers", {}).get(name, {}).get("status") == "ok"
    ]
    return min(found, key=lambda item: item[1]["ms"]) if found else None


def ratio(baseline: dict | None, tlx: dict | None, key: str = "ms") -> float | None:
    """Baseline time / TLX time (> 1: TLX is faster) by `key` ('ms', or 'device_ms' for CUDA-graph device
    time); None unless both ran correctly and have that time."""
    if not baseline or not tlx or baseline.get("status") != "ok" or tlx.get("status") != "ok":
        return None
    if not baseline.get(key) or not tlx.get(key):
        return None
    return baseline[key] / tlx[key]


#: The header suffix of the ratio columns computed on device time (CUDA-graph replays).
DEVICE_SUFFIX = " (graph)"


def has_device_times(cases: list[dict]) -> bool:
    """Whether some provider of these cases has a device time (the suite ran with timer 'both')."""
    return any(result.get("device_ms") for case in cases for result in case.get("providers", {}).values())


def ratios(section: str, case: dict, device: bool = False) -> dict[str, float | None]:
    """Ratio column header -> baseline time / best TLX time, for one case; with `device`, the same ratios of
    device times follow (headers ending in DEVICE_SUFFIX), for the TLX provider best by events time."""
    best = best_tlx(section, case)
    providers = case.get("providers", {})
    pairs = SECTIONS[section]["ratios"].items()
    result = {header: ratio(providers.get(baseline), best[1] if best else None) for baseline, header in pairs}
    if device:
        for baseline, header in pairs:
            result[header + DEVICE_SUFFIX] = ratio(providers.get(baseline), best[1] if best else None, "device_ms")
    return result


def cell(result: dict | None, metric: str) -> str:
    """One provider's table cell: its TFLOP/s or milliseconds when ok, else its status."""
    if not result:
        return "-"
    status = result.get("status", "missing")
    if status != "ok":
        return status
    if metric == "tflops":
        return f"{result['tflops']:.1f}" if result.get("tflops") is not None else "?"
    if metric == "us":
        return f"{result['ms'] * 1000:.2f}"
    return f"{result['ms']:.3f}"


def _key_columns(section: str, case: dict) -> list[tuple[str, str]]:
    if section == "gemm":
        return [("M x N x K", case["label"]), ("dtype", case["dtype"])]
    if section == "attention":
        return [
            ("B", str(case["batch"])),
            ("H", str(case["heads"])),
            ("N", str(case["n"])),
            ("D", str(case["d"])),
            ("causal", "yes" if case["causal"] else "no"),
            ("dtype", case["dtype"]),
        ]
    if section == "launch":
        return [("arguments", case["label"]), ("process", case["state"])]
    return [("shape", case["label"]), ("dtype", case["dtype"])]


def case_label(section: str, case: dict) -> str:
    """One line naming a case, e.g. '8192x8192x8192 bf16' or 'B=4 H=16 N=4096 D=128 causal fp16'."""
    if section == "attention":
        causal = "causal" if case["causal"] else "non-causal"
        return f"B={case['batch']} H={case['heads']} N={case['n']} D={case['d']} {causal} {case['dtype']}"
    if section == "launch":
        return f"{case['label']}, {case['state']}"
    return f"{case['label']} {case['dtype']}"


def section_table(section: str, cases: list[dict]) -> tuple[list[str], list[list[str]], int]:
    """(headers, rows, number of key columns) of one section's table.

    GEMM and attention cells are TFLOP/s; broadcast cells are milliseconds plus the TLX TFLOP/s. The ratio
    columns are baseline time / best TLX time ('-' when either did not run correctly)."""
    spec = SECTIONS[section]
    if not cases:
        return [], [], 0
    keys = [name for name, _ in _key_columns(section, cases[0])]
    providers = spec["providers"]
    unit = {"tflops": "", "ms": " ms", "us": " us"}[spec["metric"]]
    headers = keys + [name + unit for name in providers]
    if section == "broadcast":
        headers += ["TLX TFLOP/s", "TLX host us", "Triton host us"]
    device = has_device_times(cases)
    headers += list(ratios(section, cases[0], device))
    rows = []
    for case in cases:
        row = [value for _, value in _key_columns(section, case)]
        results = case.get("providers", {})
        row += [cell(results.get(name), spec["metric"]) for name in providers]
        if section == "broadcast":
            tlx = results.get("TLX") or {}
            row.append(f"{tlx['tflops']:.1f}" if tlx.get("status") == "ok" and tlx.get("tflops") else "-")
            for name in ("TLX", "Triton"):
                host = (results.get(name) or {}).get("host_us")
                row.append(f"{host:.1f}" if host is not None else "-")
        row += [f"{value:.2f}x" if value is not None else "-" for value in ratios(section, case, device).values()]
        rows.append(row)
    return headers, rows, len(keys)


def _clock_cell(result: dict | None) -> str:
    """Mean SM clock (MHz) while the provider's times were measured: 'events / graph', or one of them."""
    clock = (result or {}).get("clock") or {}
    values = [f"{clock[key]['mhz']:.0f}" for key in ("ms", "device_ms") if clock.get(key, {}).get("mhz") is not None]
    return " / ".join(values) or "-"


def clock_table(
    section: str, cases: list[dict], power_field: str | None = None
) -> tuple[list[str], list[list[str]], int, list[str]] | None:
    """(headers, rows, number of key columns, notes) of the SM clocks each provider ran at while it was
    timed, for one section; None when no clock was sampled. The notes give the board power (and the
    nvidia-smi field it was read from, `power_field`, where known) and the clock limits seen (e.g. 'SW power
    cap': the GPU lowered its clock to stay within its power limit)."""
    summaries = [
        summary
        for case in cases
        for result in case.get("providers", {}).values()
        for summary in (result.get("clock") or {}).values()
    ]
    if not summaries:
        return None
    providers = SECTIONS[section]["providers"]
    keys = [name for name, _ in _key_columns(section, cases[0])]
    rows = [
        [value for _, value in _key_columns(section, case)]
        + [_clock_cell(case.get("providers", {}).get(name)) for name in providers]
        for case in cases
    ]
    watts = [summary["watts"] for summary in summaries if summary.get("watts") is not None]
    limits = sorted({limit for summary in summaries for limit in summary.get("limits", [])})
    notes = []
    if watts:
        source = {
            None: "",
            "power.draw": ", nvidia-smi `power.draw`: 1 s averages, so partly the timing before",
        }.get(power_field, f", nvidia-smi `{power_field}`")
        notes.append(f"board power {min(watts):.0f}-{max(watts):.0f} W (means per timing{source})")
    notes.append("clock limits active: " + (", ".join(limits) if limits else "none"))
    return keys + providers, rows, len(keys), notes


def _shorten(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def format_text_table(headers: list[str], rows: list[list[str]], key_columns: int = 1, max_cell: int = 24) -> str:
    """A fixed-width plain-text table: key columns left-aligned, the others right-aligned and cut at max_cell."""
    cells = [[str(v) if i < key_columns else _shorten(str(v), max_cell) for i, v in enumerate(row)] for row in rows]
    widths = [max([len(headers[i])] + [len(row[i]) for row in cells]) for i in range(len(headers))]

    def line(values: list[str]) -> str:
        parts = [
            value.ljust(width) if i < key_columns else value.rjust(width)
            for i, (value, width) in enumerate(zip(values, widths, strict=True))
        ]
        return "  ".join(parts).rstrip()

    rule = "  ".join("-" * width for width in widths)
    return "\n".join([line(headers), rule] + [line(row) for row in cells])


def format_markdown_table(headers: list[str], rows: list[list[str]], key_columns: int = 1) -> str:
    """The same table in GitHub markdown (numbers right-aligned)."""
    align = ["---" if i < key_columns else "---:" for i in range(len(headers))]

    def line(values: Iterable[str]) -> str:
        return "| " + " | ".join(str(value).replace("|", "\\|") for value in values) + " |"

    return "\n".join([line(headers), line(align)] + [line(row) for row in rows])


def _section_heading(section: str) -> str:
    spec = SECTIONS[section]
    if section == "broadcast":
        what = (
            "time in ms (lower is better); speedup = baseline time / TLX time; host us = host microseconds per "
            f"call, median of 3 runs of {HOST_CALLS} calls back to back (the launch path's own cost: where it "
            "nears the device time, the events timer measures the host)"
        )
    elif section == "launch":
        what = (
            "host microseconds per launch of the same work in stock Triton and with TLX ops, one-CTA grids "
            "launched back to back (lower is better); TLX/stock = stock time / TLX time (>= 0.95: TLX adds "
            "nothing measurable)"
        )
    else:
        what = "TFLOP/s; ratios = baseline time / best TLX time"
    return f"{spec['title']}: {what}"


def summary_text(results: dict) -> str:
    """Every section's table as fixed-width text, the environment line on top."""
    env = results.get("environment", {})
    lines = [
        f"GPU: {env.get('gpu', '?')}  driver {env.get('driver', '?')}  torch {env.get('torch', '?')}  "
        f"triton {env.get('triton', '?')}  tlx {env.get('tlx', '?')}  CUDA {env.get('cuda', '?')}  "
        f"cuDNN {env.get('cudnn', '?')}"
    ]
    for section in SECTIONS:
        cases = results.get(section)
        if not cases:
            continue
        headers, rows, keys = section_table(section, cases)
        lines += ["", _section_heading(section), format_text_table(headers, rows, keys)]
    return "\n".join(lines)


def problems(results: dict) -> list[str]:
    """One line per provider that did not run correctly (missing providers folded into one line each)."""
    out: list[str] = []
    missing: dict[tuple[str, str], int] = {}
    for section in SECTIONS:
        for case in results.get(section) or []:
            label = case_label(section, case)
            for name, result in case.get("providers", {}).items():
                status = result.get("status", "missing")
                if status == "ok" or status.startswith("skipped"):
                    continue
                if status == "missing":
                    missing[(section, name)] = missing.get((section, name), 0) + 1
                    continue
                last = (result.get("detail") or "").strip().splitlines()[-1:] or [""]
                detail = f" ({_shorten(last[0], 200)})" if last[0] and last[0] not in status else ""
                out.append(f"{section} {label} {name}: {status}{detail}")
    for (section, name), count in missing.items():
        out.append(f"{section} {name}: missing ({count} cases)")
    return out


def failed(results: dict) -> bool:
    """Whether some provider computed wrong numbers or raised (missing and skipped ones do not count)."""
    for section in SECTIONS:
        for case in results.get(section) or []:
            for result in case.get("providers", {}).values():
                status = result.get("status", "missing")
                if status.startswith("WRONG") or status.startswith("error"):
                    return True
    return False


def gpu_slug(name: str | None) -> str:
    """'NVIDIA H200' -> 'h200', 'NVIDIA H100 80GB HBM3' -> 'h100-80gb-hbm3'; 'gpu' when unknown."""
    words = [w for w in re.split(r"[^a-z0-9]+", (name or "").lower()) if w and w not in ("nvidia", "geforce")]
    return "-".join(words) or "gpu"


def parse_nvidia_smi(text: str, fields: list[str]) -> dict[str, str]:
    """The first GPU's values from `nvidia-smi --query-gpu=<fields> --format=csv,noheader` output."""
    for row in text.splitlines():
        if row.strip():
            values = [value.strip() for value in row.split(",")]
            return dict(zip(fields, values, strict=False))
    return {}


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _values(cases: list[dict], provider: str, key: str) -> list[float]:
    values = []
    for case in cases:
        result = case.get("providers", {}).get(provider) or {}
        value = result.get(key) if result.get("status") == "ok" else None
        values.append(float(value) if value is not None else math.nan)
    return values


def _bar_chart(plt, path: Path, labels: list[str], series: dict[str, list[float]], ylabel: str, title: str) -> None:
    figure, axes = plt.subplots(figsize=(min(12.0, max(6.0, 0.35 * len(labels) * max(1, len(series)) + 2)), 4.5))
    shown = {name: values for name, values in series.items() if any(not math.isnan(v) for v in values)}
    width = 0.8 / max(1, len(shown))
    for i, (name, values) in enumerate(shown.items()):
        positions = [x + (i - (len(shown) - 1) / 2) * width for x in range(len(labels))]
        bars = axes.bar(positions, values, width, label=name)
        axes.bar_label(bars, labels=["" if math.isnan(v) else f"{v:.3g}" for v in values], fontsize=6, rotation=90)
    if not shown:
        axes.text(0.5, 0.5, "no provider ran correctly", ha="center", va="center", transform=axes.transAxes)
    axes.set_xticks(range(len(labels)), labels, rotation=20, ha="right", fontsize=8)
    axes.set_ylabel(ylabel)
    axes.set_title(title, fontsize=10)
    axes.margins(y=0.15)
    if shown:
        axes.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def _line_chart(plt, path: Path, xs: list[int], series: dict[str, list[float]], ylabel: str, title: str) -> None:
    figure, axes = plt.subplots(figsize=(6.5, 4.5))
    shown = {name: values for name, values in series.items() if any(not math.isnan(v) for v in values)}
    for name, values in shown.items():
        axes.plot(xs, values, marker="o", label=name)
    if not shown:
        axes.text(0.5, 0.5, "no provider ran correctly", ha="center", va="center", transform=axes.transAxes)
    axes.set_xscale("log", base=2)
    axes.set_xticks(xs, [str(x) for x in xs])
    axes.set_xlabel("sequence length N")
    axes.set_ylabel(ylabel)
    axes.set_ylim(bottom=0)
    axes.grid(alpha=0.3)
    axes.set_title(title, fontsize=10)
    if shown:
        axes.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def plot_name(section: str, case: dict) -> str:
    """The PNG a case is drawn in: gemm_<dtype>.png, attention_<dtype>_d<D>_<causal|noncausal>.png, broadcast.png."""
    if section == "gemm":
        return f"gemm_{case['dtype']}.png"
    if section == "attention":
        return f"attention_{case['dtype']}_d{case['d']}_{'causal' if case['causal'] else 'noncausal'}.png"
    if section in ("moe", "gdpa"):
        return f"{section}_{case['dtype']}.png"
    return f"{section}.png"


def write_plots(results: dict, out_dir: str | Path) -> list[str]:
    """Draw every section's PNGs into out_dir (matplotlib, Agg); returns their file names in order."""
    plt = _pyplot()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    gpu = results.get("environment", {}).get("gpu", "")
    written: list[str] = []
    for section, spec in SECTIONS.items():
        groups: dict[str, list[dict]] = {}
        for case in results.get(section) or []:
            groups.setdefault(plot_name(section, case), []).append(case)
        for name, cases in groups.items():
            path = out / name
            if section in ("gemm", "moe", "gdpa"):
                series = {p: _values(cases, p, "tflops") for p in spec["providers"]}
                title = f"{spec['title']} {cases[0]['dtype']}, TFLOP/s (higher is better)\n{gpu}"
                _bar_chart(plt, path, [c["label"] for c in cases], series, "TFLOP/s", title)
            elif section == "attention":
                cases = sorted(cases, key=lambda c: c["n"])
                series = {p: _values(cases, p, "tflops") for p in spec["providers"]}
                first = cases[0]
                title = (
                    f"Attention forward {first['dtype']} D={first['d']} {'causal' if first['causal'] else 'non-causal'}"
                    f"\nB*N={ATTENTION_TOKENS} H*D={ATTENTION_WIDTH}, {gpu}"
                )
                _line_chart(plt, path, [c["n"] for c in cases], series, "TFLOP/s", title)
            else:
                series = {p: _values(cases, p, "ms") for p in spec["providers"]}
                labels = [f"{c['label']} {c['dtype']}" for c in cases]
                _bar_chart(plt, path, labels, series, "ms (lower is better)", f"{spec['title']}, time\n{gpu}")
            written.append(name)
    return written


def _version_lines(env: dict) -> list[str]:
    return [
        f"- GPU: {env.get('gpu', '?')} ({env.get('sms', '?')} SMs, {env.get('memory', '?')}, "
        f"max SM clock {env.get('max_sm_clock', '?')}, power limit {env.get('power_limit', '?')})",
        f"- Driver: {env.get('driver', '?')}; CUDA (torch): {env.get('cuda', '?')}; cuDNN: {env.get('cudnn', '?')}",
        f"- torch {env.get('torch', '?')}, triton {env.get('triton', '?')}, TLX {env.get('tlx', '?')} "
        f"(core {env.get('tlx_core', '?')}), Python {env.get('python', '?')}",
    ]


def markdown_page(results: dict, plots: list[str]) -> str:
    """The results page: date, machine, versions, method, every table, links to the plots, problems."""
    env = results.get("environment", {})
    settings = results.get("settings", {})
    date = env.get("date", "?")
    lines = [f"# {date}: TLX benchmark suite on the {env.get('gpu', '?')}", ""]
    lines += _version_lines(env)
    command = settings.get("command") or "python -m tlx.tools.bench"
    wall = results.get("wall_s")
    seed = f", seed {settings['seed']}" if settings.get("seed") is not None else ""
    lines += [f"- Command: `{command}`" + (f", {wall:.0f} s" if wall is not None else "") + seed, ""]
    tolerance = settings.get("tolerance", TOLERANCE)
    tolerance_text = ", ".join(f"{value:g} ({dtype})" for dtype, value in tolerance.items())
    lines += [
        "Method: fresh `torch.randn` inputs per shape; every provider is first checked against a float64 PyTorch "
        f"reference (relative Frobenius error, tolerance {tolerance_text}; outputs NaN-poisoned "
        "where the provider takes an output buffer or poisons its own; NaN/Inf anywhere fails), then timed with "
        + (
            "replays of a CUDA graph of each call (`triton.testing.do_bench_cudagraph`, median): device time, "
            "without the host launch path. "
            if settings.get("timer") == "graph"
            else f"`triton.testing.do_bench` (median, warmup {settings.get('warmup_ms', '?')} ms of back-to-back "
            f"calls, so that every provider is timed at the clock the GPU's power cap settles at; rep "
            f"{settings.get('rep_ms', '?')} ms, L2 flushed before each run). Times include each provider's host "
            "code as a user calls it, launch path included. "
            + (
                "Each provider's device time (replays of a CUDA graph of the same call, "
                "`triton.testing.do_bench_cudagraph`) is recorded beside it; the ratio columns marked "
                f"'{DEVICE_SUFFIX.strip()}' are those of device times. "
                if settings.get("timer", "both") == "both"
                else ""
            )
        )
        + (
            f"Each case's providers were timed {settings['rounds']} times, round-robin once all were checked; "
            "the tables show each one's median, the clock table its first round (every round is in "
            "results.json). "
            if settings.get("rounds", 1) > 1
            else ""
        )
        + "A TLX tutorial's `run()` that allocates and NaN-fills its output pays for that, unless "
        "it takes `out=`, in which case the bench passes a preallocated buffer. Ratios are baseline time / best "
        "TLX time. Stock Triton is the fastest correct of "
        "`tlx.tools.stock_kernels` (persistent TMA and plain `tl.dot`, several configurations) on each shape.",
        "",
    ]
    for section in SECTIONS:
        cases = results.get(section)
        if not cases:
            continue
        headers, rows, keys = section_table(section, cases)
        device_times = has_device_times(cases)
        lines += [f"## {_section_heading(section)}", ""]
        if section == "attention":
            lines += [
                f"B * N = {ATTENTION_TOKENS} tokens, H * D = {ATTENTION_WIDTH}; FLOPs 4·B·H·N²·D, halved when causal.",
                "",
            ]
        winners: dict[str, list[str]] = {}
        for case in cases if section in ("gemm", "moe") else []:
            stock = case.get("providers", {}).get("Triton", {})
            if stock.get("status") == "ok":
                winners.setdefault(stock.get("detail", "?"), []).append(case_label(section, case))
        lines += [format_markdown_table(headers, rows, keys), ""]
        if winners:
            lines += ["Fastest stock Triton kernel:", ""]
            lines += [f"- `{kernel}`: {', '.join(labels)}" for kernel, labels in winners.items()] + [""]
        if section == "broadcast":
            refs = sorted({case.get("reference", "?") for case in cases})
            lines += [f"Reference: {', '.join(refs)}.", ""]
        clocks = clock_table(section, cases, results.get("settings", {}).get("power_field"))
        if clocks:
            clock_headers, clock_rows, clock_keys, clock_notes = clocks
            lines += [
                f"SM clock while each provider was timed (mean MHz{', events / graph' if device_times else ''}; "
                + "; ".join(clock_notes)
                + "):",
                "",
                format_markdown_table(clock_headers, clock_rows, clock_keys),
                "",
            ]
        for plot in plots:
            if plot.startswith(section):
                lines += [f"![{plot[:-4]}]({plot})", ""]
    issues = problems(results)
    if issues:
        lines += ["## Problems", ""] + [f"- {issue}" for issue in issues] + [""]
    if results.get("notes"):
        lines += ["## Notes", ""] + [f"- {note}" for note in results["notes"]] + [""]
    return "\n".join(lines)


def markdown_name(results: dict) -> str:
    """results-<YYYY-MM-DD>-<gpu>.md"""
    env = results.get("environment", {})
    return f"results-{env.get('date', 'undated')}-{gpu_slug(env.get('gpu'))}.md"


def write_outputs(results: dict, out_dir: str | Path) -> dict[str, Any]:
    """results.json, the PNGs and the markdown page under out_dir; returns what was written."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written: dict[str, Any] = {"json": "results.json"}
    (out / "results.json").write_text(json.dumps(results, indent=1, default=str) + "\n")  # the numbers first
    try:
        written["plots"] = write_plots(results, out)
    except Exception as error:  # no matplotlib, or a plotting bug: the numbers and the page still get written
        written["plots"] = []
        results.setdefault("notes", []).append(f"no plots: {type(error).__name__}: {error}")
        (out / "results.json").write_text(json.dumps(results, indent=1, default=str) + "\n")
    page = markdown_name(results)
    (out / page).write_text(markdown_page(results, written["plots"]))
    written["markdown"] = page
    return written


# ---------------------------------------------------------------------------------------------------------------------
# Made-up results, to look at the output without a GPU (--fake)
# ---------------------------------------------------------------------------------------------------------------------

FAKE_BROADCAST_SHAPES: list[dict] = [
    {"num_users": 64, "items_per_user": 1024, "user_dim": 256, "item_dim": 128, "hidden": 512},
    {"num_users": 256, "items_per_user": 512, "user_dim": 512, "item_dim": 256, "hidden": 512},
]


def _fake(rng: random.Random, flops: float | None, tflops_value: float) -> dict:
    value = tflops_value * rng.uniform(0.9, 1.1)
    ms = (flops or 1e12) / value * 1e-9
    mhz = rng.uniform(1500, 1750)
    clock = {"mhz": mhz, "min_mhz": mhz - 60, "max_mhz": mhz + 40, "watts": rng.uniform(640, 695)}
    return {
        "status": "ok",
        "ms": ms,
        "tflops": tflops(flops, ms),
        "rel_err": rng.uniform(1e-3, 3e-3),
        "clock": {"ms": {**clock, "limits": ["SW power cap"], "samples": 5}},
    }


def fake_results(quick: bool = False, seed: int = 0) -> dict:
    """A complete results dict with made-up numbers and a few failures, for --fake and for looking at the output."""
    rng = random.Random(seed)
    gemm = gemm_cases(quick)
    for case in gemm:
        flops = case["flops"]
        case["providers"] = {
            "cuBLAS": _fake(rng, flops, 680),
            "Triton": {**_fake(rng, flops, 600), "detail": "persistent-tma 128x256x64 s3 w8"},
            "TLX coop": _fake(rng, flops, 640),
            "TLX pingpong": _fake(rng, flops, 660),
            "TLX wgmma": _fake(rng, flops, 520) if case["dtype"] == "fp16" else {"status": "skipped: fp16 only"},
        }
    attention = attention_cases(quick)
    for i, case in enumerate(attention):
        flops = case["flops"]
        case["providers"] = {
            "cuDNN": _fake(rng, flops, 520 if case["d"] == 128 else 380),
            "flash": _fake(rng, flops, 420 if case["d"] == 128 else 330),
            "FA3": _fake(rng, flops, 560 if case["d"] == 128 else 400)
            if case["dtype"] in FA3_DTYPES
            else {"status": f"skipped: {FA3_SKIPPED}"},
            "TLX": _fake(rng, flops, 500 if case["d"] == 128 else 360),
        }
        if i == 1:
            case["providers"]["TLX"] = {"status": "WRONG err=3.2e-01", "rel_err": 0.32}
    shapes = FAKE_BROADCAST_SHAPES[:1] if quick else FAKE_BROADCAST_SHAPES
    broadcast = []
    for shape in shapes:
        flops = 2.0 * shape["num_users"] * shape["items_per_user"] * (shape["user_dim"] + shape["item_dim"]) * 512
        broadcast.append(
            {
                "shape": shape,
                "label": broadcast_label(shape),
                "dtype": "bf16",
                "flops": flops,
                "reference": "materialized_torch in float64",
                "providers": {
                    "TLX": {**_fake(rng, flops, 400), "host_us": rng.uniform(20, 30)},
                    "torch": {**_fake(rng, flops, 150), "host_us": rng.uniform(60, 80)},
                    "Triton": {"status": "error: CompilationError: at 12:4: unsupported", "detail": "made up"},
                },
            }
        )
    moe = moe_cases(quick)
    for case in moe:
        flops = case["flops"]
        case["providers"] = {
            "grouped_mm": _fake(rng, flops, 600),
            "matmul loop": _fake(rng, flops, 400),
            "Triton": {**_fake(rng, flops, 500), "detail": "128x256 s3 w8"},
            "TLX": _fake(rng, flops, 640),
        }
    today = datetime.date.today().isoformat()
    return {
        "schema": 1,
        "environment": {
            "date": today,
            "gpu": "FAKE H200 (made-up numbers)",
            "driver": "0.0",
            "sms": 132,
            "torch": "fake",
            "triton": "fake",
            "tlx": "fake",
        },
        "settings": {
            "quick": quick,
            "warmup_ms": WARMUP_MS,
            "rep_ms": 100,
            "tolerance": TOLERANCE,
            "command": "python -m tlx.tools.bench --fake",
            "power_field": "power.draw.instant",
        },
        "gemm": gemm,
        "attention": attention,
        "broadcast": broadcast,
        "moe": moe,
        "gdpa": [
            {
                **case,
                "flops": 1e12,
                "providers": {
                    "torch": _fake(rng, 1e12, 120),
                    "Triton": {**_fake(rng, 1e12, 300), "detail": "128x64 s3 w8"},
                    "TLX": _fake(rng, 1e12, 520),
                },
            }
            for case in gdpa_cases(quick)
        ],
        "launch": [
            {
                "label": label,
                "state": state,
                "dtype": "-",
                "providers": {
                    "stock": {"status": "ok", "ms": base * 1e-3},
                    "TLX": {"status": "ok", "ms": base * rng.uniform(0.97, 1.03) * 1e-3},
                },
            }
            for state in LAUNCH_STATES
            for label, base in (("descriptors", 14.0), ("pointers", 9.5))
        ],
        "wall_s": 0.0,
    }


# ---------------------------------------------------------------------------------------------------------------------
# Measuring (GPU)
# ---------------------------------------------------------------------------------------------------------------------


class Missing(Exception):
    """The provider's module or function does not exist (yet)."""


class Skipped(Exception):
    """The provider does not apply to this case (e.g. an fp16-only kernel at bf16)."""


@dataclass
class Call:
    """A provider bound to its inputs: `call()` runs it; `call(out=buffer)` where `fn` takes `out`."""

    fn: Callable[..., Any]
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)

    def __call__(self, **extra: Any) -> Any:
        return self.fn(*self.args, **self.kwargs, **extra)

    def accepts_out(self) -> bool:
        try:
            return "out" in inspect.signature(self.fn).parameters
        except (TypeError, ValueError):
            return False


def tutorial_function(module: str, name: str = "run") -> Callable[..., Any]:
    """`tlx.tutorials.<module>.<name>`; Missing when the module cannot be imported or lacks it."""
    try:
        mod = importlib.import_module(f"tlx.tutorials.{module}")
    except ImportError as error:
        raise Missing(f"tlx.tutorials.{module}: {error}") from error
    try:
        return getattr(mod, name)
    except AttributeError as error:
        raise Missing(f"tlx.tutorials.{module} has no {name}") from error


def short_error(error: BaseException) -> str:
    """'error: <Type>: <the message's telling line>' (Triton compile errors: their last line), at most 100 chars."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    message = ""
    if lines:
        message = lines[-1] if re.match(r"at \d+:\d+:", lines[0]) else lines[0]
    text = f"error: {type(error).__name__}" + (f": {message}" if message else "")
    return _shorten(text, 100)


def _torch_dtype(name: str):
    import torch

    return {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}[name]


def _dtype_name(dtype: Any) -> str:
    text = str(dtype).replace("torch.", "")
    return {"bfloat16": "bf16", "float16": "fp16", "float32": "fp32"}.get(text, text)


def relative_error(out: Any, ref: Any) -> float:
    """||out - ref|| / ||ref|| in float64 (tensors, or tuples/lists of them summed); NaN if out has NaN/Inf."""
    import torch

    if isinstance(out, list | tuple):
        if not isinstance(ref, list | tuple) or len(out) != len(ref):
            raise ValueError(f"{len(out)} outputs, expected {len(ref) if isinstance(ref, list | tuple) else 1}")
        pairs = list(zip(out, ref, strict=True))
    else:
        pairs = [(out, ref)]
    num = den = 0.0
    for o, r in pairs:
        if tuple(o.shape) != tuple(r.shape):
            raise ValueError(f"output shape {tuple(o.shape)}, expected {tuple(r.shape)}")
        if not torch.isfinite(o).all():
            return math.nan
        r = r.double()
        num += ((o.double() - r).norm() ** 2).item()
        den += (r.norm() ** 2).item()
    return math.sqrt(num / den) if den > 0 else math.sqrt(num)


#: Calls `Runner.host_time` averages over: far below the launch queue's depth at a few launches per call.
HOST_CALLS = 100


#: A timed result's index into its Runner's calls kept for more rounds (removed once they ran).
_ROUND_CALL = "_round_call"
#: The times `Runner.more_rounds` takes again; a result keeps the median of its rounds.
_ROUND_TIMES = ("ms", "device_ms")


def _check_rounds(rounds: int, name: str = "rounds") -> None:
    """How many times a case's providers are timed: at least once. ``name`` is what the caller calls it."""
    if rounds < 1:
        raise ValueError(f"{name} must be at least 1, got {rounds}")


class Runner:
    """Checks, then times, one provider at a time; never lets a provider's failure escape.

    `device` is where inputs are made ('cuda'; another device only for trying the harness itself). With
    `rounds` > 1, `more_rounds` times a case's providers again, round-robin, once all of them are checked."""

    def __init__(
        self,
        warmup: int = WARMUP_MS,
        rep: int = 100,
        device: str = "cuda",
        timer: str = "both",
        cases: str | None = None,
        clocks: gpu_clocks.ClockSampler | None = None,
        rounds: int = 1,
    ):
        _check_rounds(rounds)
        self.cases = re.compile(cases) if cases else None
        self.rounds = rounds
        self._round_calls: list[tuple[Callable[[], Any], float | None]] = []
        self.clocks = clocks  # records the SM clock and power while each time is measured
        self.warmup = warmup
        self.rep = rep
        self.timer = timer
        self.device = device
        self.lost: str | None = None  # set when a failure left the CUDA context unusable

    def release(self) -> None:
        """Give cached device memory back between cases."""
        if self.device.startswith("cuda"):
            import torch

            torch.cuda.empty_cache()

    def bench(self, fn: Callable[[], Any]) -> float:
        """Milliseconds per call: events around each call as a user makes it, or graph replays (timer 'graph')."""
        if self.timer == "graph":
            return self.device_time(fn)
        import triton.testing

        return triton.testing.do_bench(fn, warmup=self.warmup, rep=self.rep, return_mode="median")

    def device_time(self, fn: Callable[[], Any]) -> float:
        """Replays of a CUDA graph of the call: device time, with no host launch path in between."""
        import triton.testing

        return triton.testing.do_bench_cudagraph(fn, rep=self.rep, return_mode="median")

    def host_time(self, fn: Callable[[], Any], calls: int = HOST_CALLS) -> float:
        """Host microseconds per call (`launch_overhead.host_us`: the median of three runs of `calls` calls
        back to back, each synchronized outside the clock). The launch path's own cost: with a few launches
        per call the launch queue never fills, so the device's time does not enter (unless a call
        synchronizes)."""
        from tlx.tools import launch_overhead

        return launch_overhead.host_us(fn, launches=calls, repeats=3)

    def _clock_window(self) -> contextlib.AbstractContextManager[dict[str, Any]]:
        return self.clocks.window() if self.clocks else contextlib.nullcontext({})

    def timings(self, fn: Callable[[], Any]) -> dict[str, Any]:
        """`ms` (the timer's) and, with timer 'both', `device_ms` beside it (None when the call cannot be
        captured in a CUDA graph, with the reason in `device_note`); with a clock sampler, `clock`: for each
        time, the SM clock and power while it was measured (`gpu_clocks.summarize`)."""
        clock: dict[str, dict] = {}
        with self._clock_window() as clock["ms"]:
            result: dict[str, Any] = {"ms": self.bench(fn)}
        if self.timer == "both":
            try:
                with self._clock_window() as clock["device_ms"]:
                    result["device_ms"] = self.device_time(fn)
            except Exception as error:  # e.g. a host synchronization inside the call
                if self.device.startswith("cuda"):
                    import torch

                    torch.cuda.synchronize()
                result["device_ms"] = None
                result["device_note"] = short_error(error)
        clock = {key: summary for key, summary in clock.items() if summary}
        if clock:
            result["clock"] = clock
        return result

    def _failure(self, name: str, error: BaseException) -> dict:
        result = {"status": short_error(error), "detail": traceback.format_exc()[-3000:]}
        if self.device.startswith("cuda"):
            import torch

            try:
                torch.cuda.synchronize()
            except Exception:  # sticky CUDA error: nothing after this can run in this process
                self.lost = name
        return result

    def measure(
        self,
        name: str,
        resolve: Callable[[], Call],
        check: Callable[[Any], float],
        flops: float | None,
        tolerance: float,
        out_factory: Callable[[bool], Any] | None = None,
    ) -> dict:
        """Resolve the provider, check its output (`check` returns the relative error), then time it.

        `out_factory(poisoned)` makes an output buffer (NaN-filled when poisoned) for providers taking
        `out=`: the check gets a poisoned one, the timing one preallocated buffer."""
        if self.lost:
            return {"status": f"skipped: CUDA context lost at {self.lost}"}
        try:
            call = resolve()
        except Missing as error:
            return {"status": "missing", "detail": str(error)}
        except Skipped as error:
            return {"status": f"skipped: {error}"}
        except Exception as error:
            return self._failure(name, error)
        preallocate = out_factory is not None and call.accepts_out()
        try:
            out = call(out=out_factory(True)) if preallocate else call()
            error_value = check(out)
            del out
        except Exception as error:
            return self._failure(name, error)
        result: dict[str, Any] = {"rel_err": error_value if math.isfinite(error_value) else None}
        if math.isnan(error_value) or math.isinf(error_value):
            return {**result, "status": "WRONG: NaN/Inf in output"}
        if not error_value < tolerance:
            return {**result, "status": f"WRONG err={error_value:.1e}"}
        try:
            if preallocate:
                buffer = out_factory(False)

                def timed_call() -> Any:
                    return call(out=buffer)
            else:
                timed_call = call
            timed = self.timings(timed_call)
        except Exception as error:
            return {**result, **self._failure(name, error)}
        ms = timed["ms"]
        measured = {**result, **timed, "status": "ok", "tflops": tflops(flops, ms), "preallocated_out": preallocate}
        if self.rounds > 1:
            measured[_ROUND_CALL] = len(self._round_calls)
            self._round_calls.append((timed_call, flops))
        return measured

    def more_rounds(self, providers: dict[str, dict]) -> None:
        """Time each of a case's timed providers `rounds - 1` more times, one provider after the other in
        every round, and give it the median of its rounds (each round's times, and clocks where sampled, kept
        in `rounds`; `clock`, which the page shows, stays the first round's).

        Under a power cap the clock drifts by a few percent within a case: timed once each, one after the
        other, two providers can differ by that drift alone; interleaved rounds spread it over all of them.
        A provider's stock-Triton candidates keep their first timing (the choice among them is made on it)."""
        calls, self._round_calls = self._round_calls, []
        timed = [name for name, result in providers.items() if result.get(_ROUND_CALL) is not None]
        for name in timed:
            result = providers[name]
            result["rounds"] = {key: [result.get(key)] for key in _ROUND_TIMES if key in result}
            if "clock" in result:
                result["rounds"]["clock"] = [result["clock"]]
        for _ in range(self.rounds - 1):
            for name in timed:
                result = providers[name]
                if result["status"] != "ok" or self.lost:
                    continue
                try:
                    again = self.timings(calls[result[_ROUND_CALL]][0])
                except Exception as error:
                    result.update(self._failure(name, error))
                    continue
                for key, values in result["rounds"].items():
                    values.append(again.get(key))
        for name in timed:
            result = providers[name]
            if result["status"] == "ok":
                for key in _ROUND_TIMES:
                    known = [value for value in result["rounds"].get(key, []) if value is not None]
                    if key in result:
                        result[key] = statistics.median(known) if known else None
                result["tflops"] = tflops(calls[result[_ROUND_CALL]][1], result["ms"])
        for result in providers.values():
            result.pop(_ROUND_CALL, None)
            for candidate in result.get("candidates", {}).values():
                candidate.pop(_ROUND_CALL, None)


def _log(text: str) -> None:
    print(text, flush=True)


def _brief(results: dict[str, dict]) -> str:
    parts = []
    for name, result in results.items():
        status = result.get("status")
        if status == "ok":
            value = f"{result['tflops']:.1f} TFLOP/s" if result.get("tflops") else f"{result['ms']:.3f} ms"
        else:
            value = _shorten(status or "?", 40)
        parts.append(f"{name} {value}")
    return " | ".join(parts)


def _best_stock(runner: Runner, a: Any, b: Any, check, flops: float, tolerance: float, out_factory) -> dict:
    """Every stock Triton (variant, configuration) checked and timed; the fastest correct one, with all tried."""
    from tlx.tools import stock_kernels

    tried: dict[str, dict] = {}
    for variant, config in stock_kernels.candidates():
        label = stock_kernels.describe(variant, config)
        tried[label] = runner.measure(
            f"Triton {label}",
            lambda v=variant, c=config: Call(stock_kernels.matmul, (a, b), {"variant": v, "config": c}),
            check,
            flops,
            tolerance,
            out_factory,
        )
    ok = {label: result for label, result in tried.items() if result["status"] == "ok"}
    brief = {label: {k: v for k, v in result.items() if k != "detail"} for label, result in tried.items()}
    if not ok:
        first = next(iter(tried.values()))
        return {**first, "status": first["status"], "candidates": brief, "detail": first.get("detail", "")}
    label, best = min(ok.items(), key=lambda item: item[1]["ms"])
    return {**best, "detail": label, "candidates": brief}


def gdpa_cases(quick: bool = False) -> list[dict]:
    """The GDPA problems (bf16), with no results yet (lengths are drawn when a case runs)."""
    return [
        {
            "batch": batch,
            "heads": heads,
            "d": d,
            "activation": activation,
            "causal": causal,
            "dtype": "bf16",
            "label": f"B={batch} H={heads} D={d} {activation}{' causal' if causal else ''}",
            "flops": None,
        }
        for batch, heads, d, activation, causal in (GDPA_QUICK_SHAPES if quick else GDPA_SHAPES)
    ]


def _gdpa_torch(q: Any, k: Any, v: Any, bounds: list[tuple[int, int]], activation: str, causal: bool) -> Any:
    """GDPA as a PyTorch user writes it for jagged rows: per sequence (the bounds already on the host,
    untimed), batched over heads: matmul, activation, mask, matmul. (Padding every sequence to the
    longest would need tens of GB of scores at these lengths.)"""
    import torch

    out = torch.zeros_like(q)
    act = {"gelu": lambda x: torch.nn.functional.gelu(x, approximate="tanh"), "silu": torch.nn.functional.silu}
    for start, end in bounds:
        qs, ks, vs = (t[start:end].transpose(0, 1) for t in (q, k, v))
        p = act.get(activation, lambda x: x)((qs @ ks.transpose(-1, -2)) * (q.shape[-1] ** -0.5))
        if causal:
            p = p.tril()
        out[start:end] = (p @ vs).transpose(0, 1)
    return out


def gdpa_case(runner: Runner, case: dict) -> dict[str, dict]:
    """Every GDPA provider on one problem: name -> result (sets the case's lengths summary and flops)."""
    import torch

    from tlx.tools import stock_gdpa

    names = SECTIONS["gdpa"]["providers"]
    if runner.lost:
        return _lost(runner, names)
    batch, heads, d = case["batch"], case["heads"], case["d"]
    activation, causal = case["activation"], case["causal"]
    try:
        module = importlib.import_module("tlx.tutorials.gdpa")
        lengths = module.jagged_lengths(batch, seed=random.randrange(1 << 30))
        case["lengths"] = {"min": min(lengths), "mean": sum(lengths) // len(lengths), "max": max(lengths)}
        case["flops"] = module.flops(lengths, heads, d, causal)
        inputs = module.make_inputs(batch, heads, d, lengths, torch.bfloat16, runner.device, random.randrange(1 << 30))
        ref = module.reference(**inputs, activation=activation, causal=causal)
        starts = [0]
        for length in lengths:
            starts.append(starts[-1] + length)
        bounds = list(zip(starts, starts[1:], strict=False))
    except Exception as error:
        return {name: runner._failure("inputs", error) for name in names}
    flops, tol = case["flops"], TOLERANCE[case["dtype"]]
    q, k, v, offsets, max_len = (inputs[key] for key in ("q", "k", "v", "offsets", "max_seq_len"))

    def check(out: Any) -> float:
        return relative_error(out, ref)

    def out_factory(poisoned: bool) -> Any:
        return torch.full_like(q, float("nan")) if poisoned else torch.empty_like(q)

    common = {"activation": activation, "causal": causal}
    providers = {
        "torch": runner.measure(
            "torch",
            lambda: Call(_gdpa_torch, (q, k, v, bounds, activation, causal)),
            check,
            flops,
            tol,
        )
    }
    tried = {
        stock_gdpa.describe(config): runner.measure(
            "Triton",
            lambda c=config: Call(stock_gdpa.run, (q, k, v, offsets, max_len), {**common, "config": c}),
            check,
            flops,
            tol,
            out_factory,
        )
        for config in stock_gdpa.candidates(d)
    }
    ok = {label: result for label, result in tried.items() if result["status"] == "ok"}
    if ok:
        label, best = min(ok.items(), key=lambda item: item[1]["ms"])
        providers["Triton"] = {**best, "detail": label}
    else:
        providers["Triton"] = next(iter(tried.values()))
    providers["Triton"]["candidates"] = {
        label: {k: v for k, v in r.items() if k != "detail"} for label, r in tried.items()
    }
    for label, persistent in (("TLX", False), ("TLX persistent", True)):
        providers[label] = runner.measure(
            label,
            lambda p=persistent: Call(module.run, (q, k, v, offsets, max_len), {**common, "persistent": p}),
            check,
            flops,
            tol,
            out_factory,
        )
    return providers


def run_gdpa(runner: Runner, quick: bool) -> list[dict]:
    """The GDPA section: its cases with their provider results."""
    return _measure_cases(runner, "gdpa", gdpa_cases(quick), functools.partial(gdpa_case, runner))


def _lost(runner: Runner, names: list[str]) -> dict[str, dict]:
    return {name: {"status": f"skipped: CUDA context lost at {runner.lost}"} for name in names}


def gemm_case(runner: Runner, case: dict) -> dict[str, dict]:
    """Every GEMM provider on one (shape, dtype): name -> result."""
    import torch

    names = SECTIONS["gemm"]["providers"]
    if runner.lost:
        return _lost(runner, names)
    m, n, k, dtype_name = case["m"], case["n"], case["k"], case["dtype"]
    try:
        dtype = _torch_dtype(dtype_name)
        a = torch.randn(m, k, device=runner.device, dtype=dtype)
        b = torch.randn(k, n, device=runner.device, dtype=dtype)
        ref = a.double() @ b.double()
    except Exception as error:
        return {name: runner._failure("inputs", error) for name in names}
    flops, tol = case["flops"], TOLERANCE[dtype_name]

    def check(out: Any) -> float:
        return relative_error(out, ref)

    def out_factory(poisoned: bool) -> Any:
        if poisoned:
            return torch.full((m, n), float("nan"), device=runner.device, dtype=dtype)
        return torch.empty((m, n), device=runner.device, dtype=dtype)

    def ws_gemm(schedule: str) -> Call:
        return Call(tutorial_function("ws_gemm"), (a, b), {"schedule": schedule})

    def wgmma() -> Call:
        if dtype_name != "fp16":
            raise Skipped("fp16 only")
        return Call(tutorial_function("wgmma_matmul"), (a, b))

    providers = {"cuBLAS": runner.measure("cuBLAS", lambda: Call(torch.matmul, (a, b)), check, flops, tol)}
    providers["Triton"] = _best_stock(runner, a, b, check, flops, tol, out_factory)
    for schedule, label in (("cooperative", "TLX coop"), ("pingpong", "TLX pingpong")):
        providers[label] = runner.measure(label, functools.partial(ws_gemm, schedule), check, flops, tol, out_factory)
    providers["TLX wgmma"] = runner.measure("TLX wgmma", wgmma, check, flops, tol, out_factory)
    return providers


def _measure_cases(runner: Runner, section: str, cases: list[dict], measure: Callable[[dict], dict]) -> list[dict]:
    """Give every case of `section` its provider results (`measure(case)`), logging each as it lands; with
    the runner's `cases` pattern, only the cases whose label (`case_label`) it matches."""
    if runner.cases is not None:
        cases = [case for case in cases if runner.cases.search(case_label(section, case))]
    for case in cases:
        case["providers"] = measure(case)
        runner.more_rounds(case["providers"])
        _log(f"{section} {case_label(section, case)}: {_brief(case['providers'])}")
        runner.release()
    return cases


def run_gemm(runner: Runner, quick: bool) -> list[dict]:
    """The GEMM section: its cases with their provider results."""
    return _measure_cases(runner, "gemm", gemm_cases(quick), functools.partial(gemm_case, runner))


def _attention_reference(q: Any, k: Any, v: Any, causal: bool, scale: float) -> tuple[list, Any, list]:
    """float64 attention on a few (b, h) heads and a subset of query rows: (heads, rows, references)."""
    import torch

    batch, heads, n, _ = q.shape
    picks = sorted({(0, 0), (batch - 1, heads - 1), (batch // 2, heads // 2)})
    if n <= 1024:
        rows = torch.arange(n, device=q.device)
    else:  # the first and last 128 rows (causal edges) and 768 in between
        middle = torch.randperm(n - 256, device=q.device)[:768] + 128
        rows = torch.cat([torch.arange(128, device=q.device), middle, torch.arange(n - 128, n, device=q.device)])
        rows = torch.unique(rows)
    refs = []
    for b, h in picks:
        scores = (q[b, h, rows].double() @ k[b, h].double().T) * scale
        if causal:
            keys = torch.arange(n, device=q.device)
            scores = scores.masked_fill(keys[None, :] > rows[:, None], float("-inf"))
        refs.append(torch.softmax(scores, dim=-1) @ v[b, h].double())
    return picks, rows, refs


def _sdpa(q: Any, k: Any, v: Any, causal: bool, scale: float, backend: str) -> Any:
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel

    with sdpa_kernel(getattr(SDPBackend, backend)):
        return F.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=scale)


#: FlashAttention-3's forward (PyPI `fa3-fwd`: a forward-only, bf16 build of FlashAttention-3 for Hopper).
FA3_MODULE = "fa3_fwd_interface"
#: The dtypes that wheel is built for, and why the others have no FA3 row.
FA3_DTYPES = ("bf16",)
FA3_SKIPPED = "the fa3-fwd wheel is built without fp16"


def _fa3(interface: Any, q: Any, k: Any, v: Any, causal: bool, scale: float) -> Any:
    """FlashAttention-3 on (B, H, N, D) tensors: it takes (B, N, H, D), which a transposed view gives without a
    copy (FA3 reads any batch, sequence and head strides); the result comes back the same way."""
    out = interface.flash_attn_func(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), scale, causal)
    out = out[0] if isinstance(out, tuple) else out
    return out.transpose(1, 2)


def attention_case(runner: Runner, case: dict) -> dict[str, dict]:
    """Every attention provider on one (B, H, N, D, causal, dtype): name -> result."""
    import torch

    names = SECTIONS["attention"]["providers"]
    if runner.lost:
        return _lost(runner, names)
    batch, heads, n, d, causal = case["batch"], case["heads"], case["n"], case["d"], case["causal"]
    scale = 1.0 / math.sqrt(d)
    try:
        dtype = _torch_dtype(case["dtype"])
        q, k, v = (torch.randn(batch, heads, n, d, device=runner.device, dtype=dtype) for _ in range(3))
        picks, rows, refs = _attention_reference(q, k, v, causal, scale)
    except Exception as error:
        return {name: runner._failure("inputs", error) for name in names}

    def check(out: Any) -> float:
        if tuple(out.shape) != (batch, heads, n, d):
            raise ValueError(f"output shape {tuple(out.shape)}, expected {(batch, heads, n, d)}")
        if not torch.isfinite(out).all():
            return math.nan
        return relative_error([out[b, h, rows] for b, h in picks], refs)

    def out_factory(poisoned: bool) -> Any:
        return torch.full_like(q, float("nan")) if poisoned else torch.empty_like(q)

    def sdpa(backend: str) -> Call:
        return Call(_sdpa, (q, k, v, causal, scale, backend))

    def tlx_attention(persistent: bool) -> Call:
        options = {"causal": causal, "sm_scale": scale, "persistent": persistent}
        return Call(tutorial_function("ws_attention"), (q, k, v), options)

    def fa3() -> Call:
        try:
            interface = importlib.import_module(FA3_MODULE)
        except ImportError as error:
            raise Missing(f"{FA3_MODULE} (pip install fa3-fwd): {error}") from error
        if case["dtype"] not in FA3_DTYPES:
            raise Skipped(FA3_SKIPPED)
        return Call(_fa3, (interface, q, k, v, causal, scale))

    flops, tol = case["flops"], TOLERANCE[case["dtype"]]
    providers = {}
    for label, backend in (("cuDNN", "CUDNN_ATTENTION"), ("flash", "FLASH_ATTENTION")):
        providers[label] = runner.measure(label, functools.partial(sdpa, backend), check, flops, tol)
    providers["FA3"] = runner.measure("FA3", fa3, check, flops, tol)
    providers["TLX"] = runner.measure("TLX", functools.partial(tlx_attention, False), check, flops, tol, out_factory)
    providers["TLX persistent"] = runner.measure(
        "TLX persistent", functools.partial(tlx_attention, True), check, flops, tol, out_factory
    )
    return providers


def run_attention(runner: Runner, quick: bool) -> list[dict]:
    """The attention section: its cases with their provider results."""
    return _measure_cases(runner, "attention", attention_cases(quick), functools.partial(attention_case, runner))


def _float64(inputs: dict) -> dict:
    import torch

    return {
        key: value.double() if isinstance(value, torch.Tensor) and value.is_floating_point() else value
        for key, value in inputs.items()
    }


def broadcast_shapes(module: Any, quick: bool) -> list[dict]:
    """`module.SHAPES` as make_inputs keyword dicts (tuples are taken in make_inputs' parameter order)."""
    parameters = inspect.signature(module.make_inputs).parameters
    names = [p for p in parameters if p not in ("dtype", "device")]
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())
    shapes = []
    for shape in module.SHAPES:
        if isinstance(shape, dict):
            kwargs = {key: value for key, value in shape.items() if takes_any or key in parameters or key == "name"}
        else:
            kwargs = dict(zip(names, shape, strict=False))
        shapes.append(kwargs)
    return shapes[:1] if quick else shapes


def broadcast_case(runner: Runner, module: Any, case: dict) -> dict[str, dict]:
    """The TLX broadcast-scoring kernel and its two materialized baselines on one shape: name -> result.

    Sets case['flops'] (module.flops, where it exists) and case['reference'] (what the outputs are checked
    against: materialized_torch on the inputs in float64, or in their own dtype if float64 fails)."""

    names = SECTIONS["broadcast"]["providers"]
    if runner.lost:
        return _lost(runner, names)
    kwargs = {key: value for key, value in case["shape"].items() if key not in ("name", "dtype")}
    try:
        inputs = module.make_inputs(**kwargs, dtype=_torch_dtype(case["dtype"]), device=runner.device)
        if hasattr(module, "flops"):
            case["flops"] = float(module.flops(**inputs))
        try:
            ref = module.materialized_torch(**_float64(inputs))
            case["reference"] = "materialized_torch in float64"
        except Exception:
            ref = module.materialized_torch(**inputs)
            case["reference"] = f"materialized_torch in {case['dtype']} (float64 failed)"
    except Exception as error:
        return {name: runner._failure("inputs", error) for name in names}

    def check(out: Any) -> float:
        return relative_error(out, ref)

    def provider(attr: str) -> Call:
        return Call(tutorial_function("broadcast_scoring", attr), (), inputs)

    flops, tol = case["flops"], TOLERANCE.get(case["dtype"], 1e-2)
    results = {}
    for label, attr in (("TLX", "run"), ("torch", "materialized_torch"), ("Triton", "materialized_triton")):
        results[label] = runner.measure(label, functools.partial(provider, attr), check, flops, tol)
        if results[label]["status"] == "ok":  # the call as a user makes it: its host side alone
            results[label]["host_us"] = runner.host_time(provider(attr))
    return results


def run_broadcast(runner: Runner, quick: bool) -> list[dict]:
    """The broadcast-scoring section: one case per shape of broadcast_scoring.SHAPES (bf16 unless it says)."""

    try:
        module = importlib.import_module("tlx.tutorials.broadcast_scoring")
        shapes = broadcast_shapes(module, quick)
    except Exception as error:  # no module (yet), or no SHAPES / make_inputs: one row saying so
        status = "missing" if isinstance(error, ImportError | AttributeError) else short_error(error)
        detail = f"tlx.tutorials.broadcast_scoring: {error}"
        row = {p: {"status": status, "detail": detail} for p in SECTIONS["broadcast"]["providers"]}
        return [{"shape": {}, "label": "(no shapes)", "dtype": "bf16", "flops": None, "providers": row}]
    cases = []
    for shape in shapes:
        dtype = shape.get("dtype", "bf16")
        cases.append(
            {
                "shape": {
                    key: value if isinstance(value, int | float | str) else str(value) for key, value in shape.items()
                },
                "label": broadcast_label(shape),
                "dtype": dtype if isinstance(dtype, str) else _dtype_name(dtype),
                "flops": None,
            }
        )
    return _measure_cases(runner, "broadcast", cases, functools.partial(broadcast_case, runner, module))


def _run_command(argv: list[str]) -> str | None:
    try:
        return subprocess.run(argv, capture_output=True, text=True, timeout=30, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return None


NVIDIA_SMI_FIELDS = ["name", "driver_version", "clocks.max.sm", "power.limit", "memory.total"]


def capture_environment() -> dict:
    """Date, GPU (nvidia-smi where present, else PyTorch), driver, and every relevant version."""
    env: dict[str, Any] = {
        "date": datetime.date.today().isoformat(),
        "time_utc": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cuda_visible_devices": os.environ.get("CUDA_VISIBLE_DEVICES"),
    }
    import triton

    env["triton"] = triton.__version__
    try:
        import tlx

        env["tlx"] = tlx.__version__
        env["tlx_core"] = tlx._C.version() if hasattr(tlx, "_C") and hasattr(tlx._C, "version") else None
    except Exception as error:
        env["tlx"] = f"unavailable ({error})"
    try:
        import torch

        env["torch"] = torch.__version__
        env["cuda"] = torch.version.cuda
        env["cudnn"] = torch.backends.cudnn.version()
        if torch.cuda.is_available():
            props = torch.cuda.get_device_properties(0)
            env["gpu"] = torch.cuda.get_device_name(0)
            env["capability"] = f"{props.major}.{props.minor}"
            env["sms"] = props.multi_processor_count
            env["memory"] = f"{props.total_memory / 2**30:.0f} GiB"
            try:
                version = torch._C._cuda_getDriverVersion()
                env["driver"] = f"CUDA driver API {version // 1000}.{version % 1000 // 10}"
            except Exception:
                env["driver"] = "?"
    except ImportError:
        env["torch"] = None
    smi = _run_command(["nvidia-smi", "-i", "0", f"--query-gpu={','.join(NVIDIA_SMI_FIELDS)}", "--format=csv,noheader"])
    if smi:
        values = parse_nvidia_smi(smi, NVIDIA_SMI_FIELDS)
        env["gpu"] = values.get("name") or env.get("gpu")
        env["driver"] = values.get("driver_version") or env.get("driver")
        env["max_sm_clock"] = values.get("clocks.max.sm")
        env["power_limit"] = values.get("power.limit")
        env["memory"] = values.get("memory.total") or env.get("memory")
    return env


def _matmul_loop(a: Any, b: Any, starts: list[int], layout: str, out: Any) -> Any:
    """The per-expert loop a user writes (the row counts already on the host)."""
    import torch

    for g, (lo, hi) in enumerate(zip(starts, starts[1:], strict=False)):
        if layout == "fwd":
            torch.matmul(a[lo:hi], b[g], out=out[lo:hi])
        else:
            torch.matmul(a[lo:hi].T, b[lo:hi], out=out[g])
    return out


def moe_case(runner: Runner, case: dict) -> dict[str, dict]:
    """Every grouped GEMM provider on one MoE problem: name -> result (sets case['sizes'] summary)."""
    import torch

    from tlx.tools import stock_grouped

    names = SECTIONS["moe"]["providers"]
    if runner.lost:
        return _lost(runner, names)
    experts, tokens, k, n, layout = case["experts"], case["tokens"], case["k"], case["n"], case["layout"]
    try:
        module = importlib.import_module("tlx.tutorials.grouped_gemm")
        dtype = _torch_dtype(case["dtype"])
        sizes = module.routed_group_sizes(tokens, experts, case["skew"], seed=random.randrange(1 << 30))
        case["group_rows"] = {"min": min(sizes), "max": max(sizes), "empty": sizes.count(0)}
        offs = module.group_ends(sizes, runner.device)
        starts = module.group_starts(sizes)
        a = torch.randn(tokens, k, device=runner.device, dtype=dtype)
        if layout == "fwd":
            b = torch.randn(experts, k, n, device=runner.device, dtype=dtype) / math.sqrt(k)
            out_shape = (tokens, n)
        else:
            b = torch.randn(tokens, n, device=runner.device, dtype=dtype)
            out_shape = (experts, k, n)
        ref = module.reference(a, b, sizes, wgrad=layout == "wgrad")
    except Exception as error:
        return {name: runner._failure("inputs", error) for name in names}
    flops, tol = case["flops"], TOLERANCE[case["dtype"]]

    def check(out: Any) -> float:
        return relative_error(out, ref)

    def out_factory(poisoned: bool) -> Any:
        if poisoned:
            return torch.full(out_shape, float("nan"), device=runner.device, dtype=dtype)
        return torch.empty(out_shape, device=runner.device, dtype=dtype)

    def grouped_mm() -> Call:
        if not hasattr(torch, "_grouped_mm"):
            raise Missing("torch._grouped_mm (PyTorch 2.8+)")
        if layout == "fwd":
            return Call(torch._grouped_mm, (a, b), {"offs": offs, "out_dtype": dtype})
        return Call(torch._grouped_mm, (a.T, b), {"offs": offs, "out_dtype": dtype})

    def loop() -> Call:
        return Call(_matmul_loop, (a, b, starts, layout))

    def tlx_grouped() -> Call:
        fn = "grouped_mm" if layout == "fwd" else "grouped_mm_wgrad"
        return Call(getattr(module, fn), (a, b, offs))

    providers = {
        "grouped_mm": runner.measure("grouped_mm", grouped_mm, check, flops, tol),
        "matmul loop": runner.measure("matmul loop", loop, check, flops, tol, out_factory),
    }
    stock = stock_grouped.grouped_mm if layout == "fwd" else stock_grouped.grouped_mm_wgrad
    tried = {
        stock_grouped.describe(config): runner.measure(
            "Triton", lambda c=config: Call(stock, (a, b, offs), {"config": c}), check, flops, tol, out_factory
        )
        for config in stock_grouped.CONFIGS
    }
    ok = {label: result for label, result in tried.items() if result["status"] == "ok"}
    if ok:
        label, best = min(ok.items(), key=lambda item: item[1]["ms"])
        providers["Triton"] = {**best, "detail": label}
    else:
        providers["Triton"] = next(iter(tried.values()))
    providers["Triton"]["candidates"] = {
        label: {k: v for k, v in r.items() if k != "detail"} for label, r in tried.items()
    }
    providers["TLX"] = runner.measure("TLX", tlx_grouped, check, flops, tol, out_factory)
    return providers


def run_moe(runner: Runner, quick: bool) -> list[dict]:
    """The grouped GEMM section: its cases with their provider results."""
    return _measure_cases(runner, "moe", moe_cases(quick), functools.partial(moe_case, runner))


#: The process states the launch section measures in: as started, and holding a large live heap.
LAUNCH_STATES = ("fresh", "3M live objects")


def run_launch(runner: Runner, quick: bool) -> list[dict]:
    """The launch section: host microseconds per launch of `tlx.tools.launch_overhead`'s kernel pairs (each
    pair first checked against float64), in a fresh state and with a large live heap."""
    import gc

    from tlx.tools import launch_overhead

    launches = 500 if quick else 2000
    cases = []
    prepared = {}
    for pair in launch_overhead.PAIRS:
        try:
            stock_launch, tlx_launch, check = launch_overhead.launchers(pair)
            error = check()
            status = "ok" if error < launch_overhead.TOLERANCE else f"WRONG err={error:.1e}"
        except Exception as error:
            status = short_error(error)
        prepared[pair] = (stock_launch, tlx_launch) if status == "ok" else status
    for state in LAUNCH_STATES:
        kept = launch_overhead.ballast() if state != "fresh" else None
        for pair, launch in prepared.items():
            if isinstance(launch, str):
                providers = {name: {"status": launch} for name in SECTIONS["launch"]["providers"]}
            else:
                times = launch_overhead.host_us_pair(*launch, launches)
                providers = {
                    name: {"status": "ok", "ms": us * 1e-3}
                    for name, us in zip(SECTIONS["launch"]["providers"], times, strict=True)
                }
            case = {"label": pair, "state": state, "dtype": "-", "providers": providers}
            _log(f"launch {case_label('launch', case)}: {_brief(providers)}")
            cases.append(case)
        del kept
        gc.collect()
    return cases


RUNNERS: dict[str, Callable[[Runner, bool], list[dict]]] = {
    "gemm": run_gemm,
    "attention": run_attention,
    "broadcast": run_broadcast,
    "moe": run_moe,
    "gdpa": run_gdpa,
    "launch": run_launch,
}


def _parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small subset, for smoke runs")
    parser.add_argument("--out", default="bench-out", help="where results.json, the PNGs and the page go")
    parser.add_argument(
        "--only", default=",".join(SECTIONS), help=f"comma-separated sections to run (default: {','.join(SECTIONS)})"
    )
    parser.add_argument(
        "--warmup",
        type=int,
        default=WARMUP_MS,
        help="do_bench warmup, ms: the call runs back to back this long before it is timed",
    )
    parser.add_argument("--rep", type=int, default=100, help="do_bench repetition time, ms")
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="time every provider of a case this many times, round-robin after all are checked, and report "
        "the median: under a power cap, single timings taken one after the other drift by a few percent",
    )
    parser.add_argument(
        "--timer",
        choices=("both", "events", "graph"),
        default="both",
        help="events: do_bench around each call as a user makes it; graph: CUDA-graph replays (device time); "
        "both (default): events, with the device time beside it",
    )
    parser.add_argument(
        "--cases", default=None, help="only the cases whose label matches this regular expression (e.g. 'fp16')"
    )
    parser.add_argument("--fake", action="store_true", help="no GPU: made-up results through the reporting path")
    args = parser.parse_args(argv)
    try:
        _check_rounds(args.rounds, "--rounds")
    except ValueError as error:
        parser.error(str(error))
    args.sections = [name.strip() for name in args.only.split(",") if name.strip()]
    unknown = sorted(set(args.sections) - set(SECTIONS))
    if unknown:
        parser.error(f"unknown sections {unknown}; known: {list(SECTIONS)}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = _parse_args(argv)
    command = "python -m tlx.tools.bench" + "".join(f" {arg}" for arg in (sys.argv[1:] if argv is None else argv))
    start = time.time()
    if args.fake:
        results = fake_results(args.quick)
        for section in SECTIONS:
            if section not in args.sections:
                results.pop(section, None)
        results["settings"]["command"] = command
    else:
        import torch

        if not torch.cuda.is_available():
            print("no CUDA GPU: nothing to measure (--fake shows the output with made-up numbers)", file=sys.stderr)
            return 2
        seed = torch.seed()  # fresh random inputs every run, recorded to replay one
        results = {
            "schema": 1,
            "environment": capture_environment(),
            "settings": {
                "quick": args.quick,
                "sections": args.sections,
                "warmup_ms": args.warmup,
                "rep_ms": args.rep,
                "timer": args.timer,
                "rounds": args.rounds,
                "cases": args.cases,
                "tolerance": TOLERANCE,
                "command": command,
                "seed": seed,
            },
            "section_wall_s": {},
        }
        clocks = gpu_clocks.ClockSampler()
        results["settings"]["clock_sampling"] = clocks.start()
        results["settings"]["power_field"] = clocks.power_field
        runner = Runner(args.warmup, args.rep, timer=args.timer, cases=args.cases, clocks=clocks, rounds=args.rounds)
        try:
            for section in args.sections:
                section_start = time.time()
                try:
                    results[section] = RUNNERS[section](runner, args.quick)
                except Exception:  # a bug of the harness itself: report it, run the other sections
                    trace = traceback.format_exc()
                    _log(f"section {section} failed:\n{trace}")
                    results.setdefault("notes", []).append(
                        f"section {section} failed: {trace.strip().splitlines()[-1]}"
                    )
                    results["harness_error"] = True
                results["section_wall_s"][section] = round(time.time() - section_start, 1)
        finally:  # even interrupted: keep what was measured
            clocks.close()
            results["wall_s"] = time.time() - start
            written = write_outputs(results, args.out)
    if args.fake:
        results["wall_s"] = time.time() - start
        written = write_outputs(results, args.out)
    out = Path(args.out)
    _log(f"\nwrote {out / written['json']}, {out / written['markdown']}, {len(written['plots'])} plots in {out}")
    for issue in problems(results):
        _log(f"problem: {issue}")
    for note in results.get("notes", []):
        _log(f"note: {note}")
    _log("")
    _log(summary_text(results))
    return 1 if failed(results) or results.get("harness_error") else 0


if __name__ == "__main__":
    sys.exit(main())
