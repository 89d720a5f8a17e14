"""The main job: compile the showcase kernels for Hopper (or Blackwell) and write every IR stage.

    python -m tlx.tools.showcase [--out DIR] [--arch 90|100]

Everything compiles on the CPU for the target (no GPU needed):

* the TLX tutorials (tlx/tutorials: TMA copy, TMA+mbarrier pipelined matmul,
  cp.async matmul, wgmma matmul, warp-specialized persistent GEMM and
  FlashAttention forward, in-kernel broadcast scoring, MoE grouped GEMM, jagged
  GDPA forward) through
  the TLX compiler, with every stage -- TTIR with carriers, the converted TTGIR
  our pipeline reads, the raised TLX IR, our TTGIR, the final TTGIR, LLVM IR, PTX, SASS -- in DIR/tlx/<kernel>/ (each
  with a README saying how to replay a step with tlx-opt);
* two plain Triton kernels through stock Triton, in DIR/<kernel>/.

``--arch 100`` compiles the Blackwell tutorials instead (sm_100a: the pipelined
and warp-specialized GEMM of ``blackwell_gemm``, the persistent GEMM with a
double-buffered tensor-memory accumulator, the same GEMM scheduled by cluster
launch control (``clusterlaunchcontrol.try_cancel``), the 2-CTA GEMM (``cta_group::2`` over a
2-CTA cluster), the MXFP8 GEMM (block-scaled ``tcgen05.mma``), attention and GDPA forward), with the
same stages in DIR/tlx/<kernel>/; they are compile-verified only and never run.

Where a CUDA GPU and PyTorch are present (and the target is sm_90), every kernel also runs and is checked
against a float64 PyTorch reference on fresh random inputs with NaN-poisoned
outputs (and the matmuls are timed against cuBLAS).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections.abc import Callable
from pathlib import Path

import triton
import triton.language as tl

import tlx
from tlx.compiler.dump import sass_of
from tlx.tools.stock_kernels import matmul_kernel
from tlx.tools.tlx_opt import binary_path
from tlx.tutorials import (
    blackwell_2cta_gemm,
    blackwell_attention,
    blackwell_clc_gemm,
    blackwell_gdpa,
    blackwell_gemm,
    blackwell_mxfp8_gemm,
    blackwell_ws_gemm,
    broadcast_scoring,
    compile_kernel,
    compile_tutorial,
    cp_async_matmul,
    gdpa,
    grouped_gemm,
    tma_copy,
    tma_matmul,
    wgmma_matmul,
    ws_attention,
    ws_gemm,
)

#: The plain Triton matmul is the benchmark suite's stock baseline (tlx.tools.stock_kernels).
MATMUL_CONSTEXPRS = {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8}

TLX_TUTORIALS = (
    tma_copy,
    tma_matmul,
    cp_async_matmul,
    wgmma_matmul,
    ws_gemm,
    ws_attention,
    broadcast_scoring,
    grouped_gemm,
    gdpa,
)

#: The Blackwell tutorials (``--arch 100``), each SPEC a dump directory of its own: compile-verified only.
BLACKWELL_SPECS = (
    blackwell_gemm.SPEC,
    blackwell_gemm.SPEC_WS,
    blackwell_ws_gemm.SPEC,
    blackwell_clc_gemm.SPEC,
    blackwell_2cta_gemm.SPEC,
    blackwell_mxfp8_gemm.SPEC,
    blackwell_attention.SPEC,
    blackwell_gdpa.SPEC,
)


def tutorial_specs(arch: int) -> tuple[dict, ...]:
    """The SPECs of the TLX tutorials the showcase compiles for ``arch``: Blackwell's from sm_100 on."""
    if arch >= 100:
        return BLACKWELL_SPECS
    return tuple(tutorial.SPEC for tutorial in TLX_TUTORIALS)


@triton.jit
def vector_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


@dataclasses.dataclass(frozen=True)
class Showcase:
    """A kernel, the signature and constants to compile it with, and its GPU check."""

    name: str
    kernel: triton.JITFunction
    signature: dict[str, str]
    constexprs: dict[str, int]
    num_warps: int
    # what the PTX must contain for the compile to count as the intended one
    ptx_markers: tuple[str, ...]
    run_on_gpu: Callable[[], str]
    # the markers on sm_100 and later, where they differ (stock Triton's matmul is tcgen05 there)
    ptx_markers_sm100: tuple[str, ...] | None = None

    def markers(self, arch: int) -> tuple[str, ...]:
        return self.ptx_markers_sm100 if arch >= 100 and self.ptx_markers_sm100 is not None else self.ptx_markers


def _check_vector_add() -> str:
    import torch

    n = 98_307  # ragged: not a multiple of BLOCK
    x, y = (torch.randn(n, device="cuda") for _ in range(2))
    out = torch.full_like(x, float("nan"))
    vector_add[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    ref = x.double() + y.double()
    error = ((out.double() - ref).norm() / ref.norm()).item()
    assert error < 1e-6, f"vector_add relative error {error}"
    return f"n={n} rel.err={error:.1e}"


def _check_matmul() -> str:
    import torch

    m, n, k = 1000, 776, 520  # ragged in every dimension
    a = torch.randn(m, k, device="cuda", dtype=torch.float16)
    b = torch.randn(k, n, device="cuda", dtype=torch.float16)
    c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float16)
    grid = (triton.cdiv(m, 128) * triton.cdiv(n, 128),)
    matmul_kernel[grid](
        a, b, c, m, n, k, a.stride(0), b.stride(0), c.stride(0), num_warps=8, num_stages=3, **MATMUL_CONSTEXPRS
    )
    ref = a.double() @ b.double()
    error = ((c.double() - ref).norm() / ref.norm()).item()
    assert error < 1e-2, f"matmul relative error {error}"
    return f"{m}x{n}x{k} fp16 rel.err={error:.1e}"


SHOWCASES = (
    Showcase(
        "vector_add",
        vector_add,
        {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"},
        {"BLOCK": 1024},
        4,
        ("ld.global", "st.global"),
        _check_vector_add,
    ),
    Showcase(
        "matmul",
        matmul_kernel,
        {
            "a_ptr": "*fp16",
            "b_ptr": "*fp16",
            "c_ptr": "*fp16",
            "M": "i32",
            "N": "i32",
            "K": "i32",
            "stride_am": "i32",
            "stride_bk": "i32",
            "stride_cm": "i32",
            "BLOCK_M": "constexpr",
            "BLOCK_N": "constexpr",
            "BLOCK_K": "constexpr",
            "GROUP_M": "constexpr",
        },
        MATMUL_CONSTEXPRS,
        8,
        ("wgmma.mma_async",),
        _check_matmul,
        ("tcgen05.mma",),
    ),
)

STAGE_FILES = {"ttir": "ttir.mlir", "ttgir": "ttgir.mlir", "llir": "llir.ll", "ptx": "kernel.ptx"}


def compile_showcase(showcase: Showcase, arch: int) -> triton.compiler.CompiledKernel:
    """Compile on the CPU for `arch` (no GPU needed)."""
    return compile_kernel(showcase.kernel, showcase.signature, showcase.constexprs, arch, num_warps=showcase.num_warps)


def write_stages(compiled: triton.compiler.CompiledKernel, directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for stage, filename in STAGE_FILES.items():
        path = directory / filename
        path.write_text(compiled.asm[stage])
        written.append(path)
    cubin = directory / "kernel.cubin"
    cubin.write_bytes(compiled.asm["cubin"])
    written.append(cubin)
    try:
        (directory / "kernel.sass").write_text(sass_of(compiled.asm["cubin"]))
        written.append(directory / "kernel.sass")
    except Exception:  # no or a failing cuobjdump: the SASS is optional
        pass
    return written


def _gpu_available() -> bool:
    try:
        import torch
    except ImportError:
        return False
    return torch.cuda.is_available()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("dumps"), help="where the IR dumps go (default: dumps)")
    parser.add_argument("--arch", type=int, default=90, help="CUDA compute capability to compile for (default: 90)")
    args = parser.parse_args(argv)

    print(f"TLX {tlx.__version__} (tlx-opt: {binary_path()}), triton {triton.__version__}, target sm_{args.arch}")
    # The Blackwell kernels cannot run on the Hopper GPUs this runs on: compile them only.
    gpu = _gpu_available() and args.arch < 100
    rows = []
    tlx_dumps = (args.out / "tlx").resolve()
    previous = {name: os.environ.get(name) for name in ("TLX_DUMP_DIR", "TRITON_ALWAYS_COMPILE")}
    os.environ["TLX_DUMP_DIR"] = str(tlx_dumps)
    os.environ["TRITON_ALWAYS_COMPILE"] = "1"  # a cached kernel would not be dumped
    try:
        for spec in tutorial_specs(args.arch):
            compiled = compile_tutorial(spec, args.arch)
            name = spec["kernel"].fn.__name__
            missing = [marker for marker in spec["ptx"] if marker not in compiled.asm["ptx"]]
            if missing:
                print(f"{name}: PTX lacks {missing}", file=sys.stderr)
                return 1
            rows.append(
                (
                    name,
                    len(compiled.asm["cubin"]),
                    ", ".join(spec["ptx"][:2]),
                    "see table below" if gpu else "not run (no GPU)",
                )
            )
            print(f"  wrote {tlx_dumps / name}/ (TLX stages)")
    finally:  # the caller's environment as it was: compiles after this one use the cache again
        for name, value in previous.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    for showcase in SHOWCASES:
        compiled = compile_showcase(showcase, args.arch)
        written = write_stages(compiled, args.out / showcase.name)
        ptx = compiled.asm["ptx"]
        markers = showcase.markers(args.arch)
        missing = [marker for marker in markers if marker not in ptx]
        if missing:
            print(f"{showcase.name}: PTX lacks {missing}", file=sys.stderr)
            return 1
        result = showcase.run_on_gpu() if gpu else "not run (no GPU)"
        rows.append((showcase.name, len(compiled.asm["cubin"]), ", ".join(markers), result))
        for path in written:
            print(f"  wrote {path}")
    print()
    width = max(26, *(len(row[0]) for row in rows))
    print(f"{'kernel':<{width}} {'cubin bytes':>11}  {'PTX has':<58} GPU check")
    for name, size, markers, result in rows:
        print(f"{name:<{width}} {size:>11}  {markers:<58} {result}")
    if gpu:
        from tlx.tools import gpu_check

        return gpu_check.main(["--quick"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
