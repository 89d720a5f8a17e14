"""The stock TTGIR passes a TLX kernel gets after the TLX pipeline: the one list.

Taken from stock ``make_ttgir`` (``triton/backends/nvidia/compiler.py``,
triton 3.6.0), in its order, minus the conversion (run before the TLX
pipeline) and minus what only serves automatic software pipelining and
warp specialization: a TLX kernel is pipelined and specialized by hand, and
those passes would restructure its loops, partitions and barriers behind
its back (see :data:`DROPPED`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from triton._C.libtriton import ir, nvidia, passes


def _always(capability: int) -> bool:
    return True


def _sm8x_9x(capability: int) -> bool:  # stock's `capability // 10 in [8, 9]` branch
    return capability // 10 in (8, 9)


def _sm100_up(capability: int) -> bool:  # stock's `capability // 10 >= 10` branch
    return capability // 10 >= 10


def _sm80_up(capability: int) -> bool:
    return capability // 10 >= 8


def _sm90_up(capability: int) -> bool:
    return capability // 10 >= 9


@dataclass(frozen=True)
class TTGIRPass:
    """One stock pass: its name (the ``passes.*.add_<name>`` it calls), when it runs, how it is added."""

    name: str
    add: Callable[[ir.pass_manager, object, int], None]
    when: Callable[[int], bool] = _always


P = TTGIRPass
ttg, ttng, common, ttir = passes.ttgpuir, nvidia.passes.ttnvgpuir, passes.common, passes.ttir

#: Stock make_ttgir after the conversion, in stock order, without the passes in DROPPED.
TTGIR_PASSES: tuple[TTGIRPass, ...] = (
    P("coalesce", lambda pm, opt, cap: ttg.add_coalesce(pm)),
    P("f32_dot_tc", lambda pm, opt, cap: ttg.add_f32_dot_tc(pm, _sm80_up(cap))),
    P("plan_cta", lambda pm, opt, cap: ttng.add_plan_cta(pm)),
    P("remove_layout_conversions", lambda pm, opt, cap: ttg.add_remove_layout_conversions(pm)),
    P("optimize_thread_locality", lambda pm, opt, cap: ttg.add_optimize_thread_locality(pm)),
    P("accelerate_matmul", lambda pm, opt, cap: ttg.add_accelerate_matmul(pm)),
    P("remove_layout_conversions", lambda pm, opt, cap: ttg.add_remove_layout_conversions(pm)),
    P("optimize_dot_operands", lambda pm, opt, cap: ttg.add_optimize_dot_operands(pm, cap >= 80)),
    P("optimize_descriptor_encoding", lambda pm, opt, cap: ttng.add_optimize_descriptor_encoding(pm)),
    P("loop_aware_cse", lambda pm, opt, cap: ttir.add_loop_aware_cse(pm)),
    # sm_8x / sm_9x branch
    P("canonicalizer", lambda pm, opt, cap: common.add_canonicalizer(pm), _sm8x_9x),
    P("triton_licm", lambda pm, opt, cap: ttir.add_triton_licm(pm), _sm8x_9x),
    P("canonicalizer", lambda pm, opt, cap: common.add_canonicalizer(pm), _sm8x_9x),
    P("combine_tensor_select_and_if", lambda pm, opt, cap: ttg.add_combine_tensor_select_and_if(pm), _sm8x_9x),
    # sm_10x+ branch
    P("canonicalizer", lambda pm, opt, cap: common.add_canonicalizer(pm), _sm100_up),
    P("triton_licm", lambda pm, opt, cap: ttir.add_triton_licm(pm), _sm100_up),
    P("optimize_accumulator_init", lambda pm, opt, cap: ttg.add_optimize_accumulator_init(pm), _sm100_up),
    P("hoist_tmem_alloc", lambda pm, opt, cap: ttg.add_hoist_tmem_alloc(pm, False), _sm100_up),
    P("promote_lhs_to_tmem", lambda pm, opt, cap: ttng.add_promote_lhs_to_tmem(pm), _sm100_up),
    P("combine_tensor_select_and_if", lambda pm, opt, cap: ttg.add_combine_tensor_select_and_if(pm), _sm100_up),
    P("hoist_tmem_alloc", lambda pm, opt, cap: ttg.add_hoist_tmem_alloc(pm, True), _sm100_up),
    P("remove_tmem_tokens", lambda pm, opt, cap: ttng.add_remove_tmem_tokens(pm), _sm100_up),
    # pre-Ampere branch
    P("triton_licm", lambda pm, opt, cap: ttir.add_triton_licm(pm), lambda cap: cap // 10 < 8),
    # common tail
    P("canonicalizer", lambda pm, opt, cap: common.add_canonicalizer(pm)),
    P("loop_aware_cse", lambda pm, opt, cap: ttir.add_loop_aware_cse(pm)),
    P("prefetch", lambda pm, opt, cap: ttg.add_prefetch(pm)),
    P("optimize_dot_operands", lambda pm, opt, cap: ttg.add_optimize_dot_operands(pm, cap >= 80)),
    P("coalesce_async_copy", lambda pm, opt, cap: ttg.add_coalesce_async_copy(pm)),
    P("optimize_tmem_layouts", lambda pm, opt, cap: ttng.add_optimize_tmem_layouts(pm)),
    P("tma_lowering", lambda pm, opt, cap: ttng.add_tma_lowering(pm), _sm90_up),
    P("remove_layout_conversions", lambda pm, opt, cap: ttg.add_remove_layout_conversions(pm)),
    P("interleave_tmem", lambda pm, opt, cap: ttng.add_interleave_tmem(pm)),
    P("reduce_data_duplication", lambda pm, opt, cap: ttg.add_reduce_data_duplication(pm)),
    P("reorder_instructions", lambda pm, opt, cap: ttg.add_reorder_instructions(pm)),
    P("loop_aware_cse", lambda pm, opt, cap: ttir.add_loop_aware_cse(pm)),
    P("symbol_dce", lambda pm, opt, cap: common.add_symbol_dce(pm)),
    P("fence_insertion", lambda pm, opt, cap: ttng.add_fence_insertion(pm, cap)),
    P("lower_mma", lambda pm, opt, cap: ttng.add_lower_mma(pm)),
    P("sccp", lambda pm, opt, cap: common.add_sccp(pm)),
    P("cse", lambda pm, opt, cap: common.add_cse(pm)),
    P("canonicalizer", lambda pm, opt, cap: common.add_canonicalizer(pm)),
)

#: Stock make_ttgir passes a TLX kernel does not get, and why.
DROPPED: dict[str, str] = {
    "convert_to_ttgpuir": "runs before the TLX pipeline, with stock's arguments",
    "fuse_nested_loops": "only flattens loop nests for the pipeliner; would rewrite hand-written loops and phases",
    "hopper_warpspec": "automatic warp specialization (sm_90); TLX kernels specialize with tlx.async_tasks",
    "assign_latencies": "pipeliner input (latency model)",
    "schedule_loops": "pipeliner input (loop schedule)",
    "pipeline": "automatic software pipelining; TLX kernels pipeline by hand with buffers and mbarriers",
    "warp_specialize": "automatic warp specialization (sm_100)",
    "optimize_partition_warps": "re-sizes warp-specialized partitions; TLX tasks state their num_warps",
}


@dataclass(frozen=True)
class Bracketed:
    """A stock pass that runs between two TLX passes, on the module printed and parsed again around it
    (libtriton cannot run TLX passes), and only where ``needed(ttgir text)``."""

    stock: TTGIRPass
    before: str
    after: str
    needed: Callable[[str], bool]


_DESCRIPTOR_WITHOUT_LAYOUT = re.compile(r"!tt\.tensordesc<tensor<[^,<>]*>>")


def has_descriptor_without_layout(ttgir: str) -> bool:
    """Whether TTGIR text has a descriptor whose block has no layout: one only stock TMA ops use (TLX gives
    the others the layout of the buffers they copy)."""
    return _DESCRIPTOR_WITHOUT_LAYOUT.search(ttgir) is not None


#: Stock passes TLX brackets, by name: (TLX pass before, TLX pass after, when the three run).
#: ``optimize_descriptor_encoding`` types every descriptor from the stock TMA ops using it and gives the others
#: the default layout of their block, whatever buffers TLX copies them with (the host tensor map would swizzle
#: otherwise than the buffer); it also retypes a captured descriptor without the argument of a task that does
#: not use it (``ttg.warp_specialize`` would fail to verify). It runs only for descriptors TLX left without a
#: layout, and TLX's come back after it.
BRACKETED: dict[str, tuple[str, str, Callable[[str], bool]]] = {
    "optimize_descriptor_encoding": (
        "tlx-record-descriptor-layouts",
        "tlx-restore-descriptor-layouts",
        has_descriptor_without_layout,
    ),
}


def ttgir_steps(capability: int) -> list[list[TTGIRPass] | Bracketed]:
    """:data:`TTGIR_PASSES` for ``capability``, in order: runs of stock passes, and the :data:`BRACKETED` ones."""
    steps: list[list[TTGIRPass] | Bracketed] = [[]]
    for p in TTGIR_PASSES:
        if not p.when(capability):
            continue
        if p.name in BRACKETED:
            steps += [Bracketed(p, *BRACKETED[p.name]), []]
        else:
            steps[-1].append(p)
    return [step for step in steps if step]


def add_ttgir_passes(pm: ir.pass_manager, passes: list[TTGIRPass], options: object, capability: int) -> None:
    """Add ``passes`` (of :data:`TTGIR_PASSES`) to ``pm``."""
    for p in passes:
        p.add(pm, options, capability)
