"""Compile a kernel only as far as TLX's input: its TTIR, or the TTGIR the TLX pipeline receives."""

from __future__ import annotations

from typing import Any

from triton._C.libtriton import ir, passes
from triton.backends.compiler import GPUTarget
from triton.compiler.compiler import ASTSource, make_backend

from . import clusters

STAGES = ("ttir", "converted")


def frontend_ir(
    kernel: Any,
    signature: dict[str, str],
    constexprs: dict[str, Any] | None = None,
    *,
    stage: str = "converted",
    target: GPUTarget | None = None,
    **options: Any,
) -> str:
    """The IR text (with locations) of ``kernel`` after stock ``make_ttir`` (``stage="ttir"``) or
    after stock ``convert-triton-to-tritongpu`` (``stage="converted"``, what the TLX pipeline gets).

    ``signature`` and ``constexprs`` are as for ``triton.compile(ASTSource(...))``; ``target``
    defaults to ``cuda:90``; ``options`` are backend options (``num_warps``, ``num_ctas``, ...).
    No GPU and no TLX C++ pass is needed; nothing is cached.
    """
    if stage not in STAGES:
        raise ValueError(f"stage must be one of {STAGES}, got {stage!r}")
    target = target or GPUTarget("cuda", 90, 32)
    backend = make_backend(target)
    parsed = backend.parse_options(options)
    capability = backend._parse_arch(parsed.arch)
    context = ir.context()
    ir.load_dialects(context)
    backend.load_dialects(context)
    source = ASTSource(kernel, signature, constexprs)
    module = source.make_ir(
        target, parsed, backend.get_codegen_implementation(parsed), backend.get_module_map(), context
    )
    module = backend.make_ttir(module, {}, parsed, capability)
    if stage == "converted":
        pm = ir.pass_manager(module.context)
        pm.enable_debug()
        passes.ttir.add_convert_to_ttgpuir(pm, f"cuda:{capability}", parsed.num_warps, 32, parsed.num_ctas)
        pm.run(module, "convert_to_ttgpuir")
        clusters.annotate_module(module, parsed)
    return module.str()
