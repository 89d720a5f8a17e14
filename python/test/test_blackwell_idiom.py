"""Kernels in the public TLX API's Blackwell idiom (``blackwell_idiom_kernels.py``) compile here unmodified.

No Blackwell GPU: each kernel compiles on the CPU to an sm_100a cubin through stock triton's ptxas, its PTX
holds the tcgen05 instructions the idiom asks for, no TLX op survives into the final TTGIR and the
protocol checker warns nothing. The idioms the public tutorials use that this TLX does not have yet are
strict xfails, each with its smallest reproducer (a ``gap_*`` kernel) and the exact gap as the reason.
"""

from __future__ import annotations

import importlib
import re
import sys
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler.compiler import ASTSource

from tlx.compiler import TLXWarning

sys.path.insert(0, str(Path(__file__).parent))
import blackwell_idiom_kernels as kernels  # noqa: E402


@dataclass(frozen=True)
class Case:
    """One kernel to compile for sm_100a: its signature, constexprs, launch options and promised PTX."""

    kernel: object
    signature: dict[str, str]
    constexprs: dict[str, object]
    ptx: tuple[str, ...] = ()
    options: dict[str, object] = field(default_factory=dict)


def _desc(shape: tuple[int, int], dtype: str = "fp16") -> str:
    return f"tensordesc<{dtype}[{shape[0]}, {shape[1]}]>"


_CLUSTER = {"ctas_per_cga": (2, 1, 1)}
_TCGEN05 = ("tcgen05.alloc.cta_group::1", "tcgen05.mma.cta_group::1.kind::f16", "tcgen05.ld.sync.aligned.32x32b")
_TCGEN05_PAIR = (
    "tcgen05.alloc.cta_group::2",
    "tcgen05.mma.cta_group::2.kind::f16",
    "tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64",
    "%cluster_ctarank",
    "mapa.shared::cluster",
    "mbarrier.arrive.shared::cluster.b64",
)

CASES: dict[str, Case] = {
    "tmem_gemm": Case(
        kernels.idiom_tmem_gemm,
        {
            "a_ptr": "*fp16",
            "b_ptr": "*fp16",
            "c_ptr": "*fp16",
            "M": "i32",
            "N": "i32",
            "K": "i32",
            "stride_am": "i32",
            "stride_ak": "constexpr",
            "stride_bk": "i32",
            "stride_bn": "constexpr",
            "stride_cm": "i32",
            "stride_cn": "constexpr",
            "BLOCK_SIZE_M": "constexpr",
            "BLOCK_SIZE_N": "constexpr",
            "BLOCK_SIZE_K": "constexpr",
            "NUM_STAGES": "constexpr",
        },
        {
            "stride_ak": 1,
            "stride_bn": 1,
            "stride_cn": 1,
            "BLOCK_SIZE_M": 128,
            "BLOCK_SIZE_N": 128,
            "BLOCK_SIZE_K": 64,
            "NUM_STAGES": 3,
        },
        _TCGEN05
        + (
            "tensormap.replace",  # device-side descriptors (tl.make_tensor_descriptor)
            "tcgen05.st.sync.aligned.32x32b",  # the accumulator zeroed in tensor memory
            "cp.async.bulk.tensor.2d.shared::cluster.global",
            "cp.async.bulk.tensor.2d.global.shared::cta",
        ),
    ),
    "ws_gemm": Case(
        kernels.idiom_ws_gemm,
        {
            "a_desc": _desc((128, 64)),
            "b_desc": _desc((64, 256)),
            "c_desc": _desc((128, 64)),
            "M": "i32",
            "N": "i32",
            "K": "i32",
            "BLOCK_SIZE_M": "constexpr",
            "BLOCK_SIZE_N": "constexpr",
            "BLOCK_SIZE_K": "constexpr",
            "GROUP_SIZE_M": "constexpr",
            "NUM_SMEM_BUFFERS": "constexpr",
            "NUM_TMEM_BUFFERS": "constexpr",
            "EPILOGUE_SUBTILE": "constexpr",
            "NUM_SMS": "constexpr",
        },
        {
            "BLOCK_SIZE_M": 128,
            "BLOCK_SIZE_N": 256,
            "BLOCK_SIZE_K": 64,
            "GROUP_SIZE_M": 8,
            "NUM_SMEM_BUFFERS": 3,
            "NUM_TMEM_BUFFERS": 2,
            "EPILOGUE_SUBTILE": 4,
            "NUM_SMS": 148,
        },
        _TCGEN05 + ("tcgen05.commit.cta_group::1.mbarrier::arrive::one", "setmaxnreg.dec.sync.aligned.u32"),
    ),
    "2cta_gemm": Case(
        kernels.idiom_2cta_gemm,
        {
            "a_ptr": "*fp16",
            "stride_am": "i32",
            "stride_ak": "constexpr",
            "b_ptr": "*fp16",
            "stride_bk": "i32",
            "stride_bn": "constexpr",
            "c_ptr": "*fp16",
            "stride_cm": "i32",
            "stride_cn": "constexpr",
            "M": "i32",
            "N": "i32",
            "K": "i32",
            "BLOCK_M": "constexpr",
            "BLOCK_N": "constexpr",
            "BLOCK_K": "constexpr",
            "OUT_DTYPE": "constexpr",
        },
        {
            "stride_ak": 1,
            "stride_bn": 1,
            "stride_cn": 1,
            "BLOCK_M": 128,
            "BLOCK_N": 256,
            "BLOCK_K": 64,
            "OUT_DTYPE": tl.float32,
        },
        _TCGEN05_PAIR,
        _CLUSTER,
    ),
    "2cta_ws_gemm": Case(
        kernels.idiom_2cta_ws_gemm,
        {
            "a_desc": _desc((128, 64)),
            "b_desc": _desc((64, 128)),
            "c_ptr": "*fp16",
            "stride_cm": "i32",
            "stride_cn": "constexpr",
            "K": "i32",
            "BLOCK_M": "constexpr",
            "BLOCK_N": "constexpr",
            "BLOCK_K": "constexpr",
            "NUM_SMEM_BUFFERS": "constexpr",
        },
        {"stride_cn": 1, "BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 64, "NUM_SMEM_BUFFERS": 3},
        _TCGEN05_PAIR,
        _CLUSTER,
    ),
    "attention_fwd": Case(
        kernels.idiom_attention_fwd,
        {
            "sm_scale": "fp32",
            "M": "*fp32",
            "Z": "i32",
            "H": "i32",
            "desc_q": _desc((128, 128)),
            "desc_k": _desc((128, 128)),
            "desc_v": _desc((128, 128)),
            "desc_o": _desc((128, 128)),
            "N_CTX": "i32",
            "HEAD_DIM": "constexpr",
            "BLOCK_M": "constexpr",
            "BLOCK_N": "constexpr",
            "NUM_BUFFERS_KV": "constexpr",
        },
        {"HEAD_DIM": 128, "BLOCK_M": 128, "BLOCK_N": 128, "NUM_BUFFERS_KV": 3},
        _TCGEN05
        + (
            "tcgen05.st.sync.aligned.32x32b.x1.b32",  # alpha, l and m: one column each
            "tcgen05.st.sync.aligned.32x32b.x64.b32",  # P (fp16, two per 32-bit column) and O *= alpha
            "ex2.approx",
            "cp.async.bulk.tensor.2d.global.shared::cta",  # desc_o.store
        ),
    ),
    "descriptor_slots": Case(
        kernels.idiom_descriptor_slots,
        {"a_ptr": "*fp16", "M": "i32", "K": "i32", "BLOCK_M": "constexpr", "BLOCK_K": "constexpr"},
        {"BLOCK_M": 128, "BLOCK_K": 64},
        (
            "tensormap.replace",  # the descriptor written into the program's slot
            "fence.proxy.tensormap::generic.acquire",
            "cp.async.bulk.tensor.2d.shared::cluster.global",  # the copy through the descriptor read back
        ),
    ),
}

_compiled: dict[str, object] = {}


def compile_sm100(case: Case):
    names = list(case.signature)
    constants = {(names.index(name),): value for name, value in case.constexprs.items()}
    source = ASTSource(case.kernel, case.signature, constants)
    options = {"num_warps": 4, **case.options}
    return triton.compile(source, target=GPUTarget("cuda", 100, 32), options=options)


def _compile(name: str):
    """Compile once per session; the first compile runs with TLX warnings as errors."""
    if name not in _compiled:
        with warnings.catch_warnings():
            warnings.simplefilter("error", TLXWarning)  # the protocol checker finds nothing to warn about
            _compiled[name] = compile_sm100(CASES[name])
    return _compiled[name]


@pytest.mark.parametrize("name", list(CASES))
def test_idiom_kernel_compiles_to_sm100a_cubin(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRITON_ALWAYS_COMPILE", "1")  # a kernel served from the cache warns nothing
    compiled = _compile(name)
    ptx = compiled.asm["ptx"]
    assert ".target sm_100a" in ptx
    missing = [marker for marker in CASES[name].ptx if marker not in ptx]
    assert not missing, f"PTX lacks {missing}"
    assert compiled.asm["cubin"][:4] == b"\x7fELF"
    assert "tlx." not in compiled.asm["ttgir"], "a TLX op or carrier survived into the final TTGIR"


def _partitions(ttgir: str) -> list[str]:
    return re.split(r"\bpartition\d+\(", ttgir)[1:]


def test_ws_gemm_tasks_and_double_buffered_accumulator() -> None:
    ttgir = _compile("ws_gemm").asm["ttgir"]
    assert re.search(r"ttng\.tmem_alloc .*memdesc<2x128x256xf32, #tmem", ttgir)
    assert re.findall(r"num_warps\((\d+)\)", ttgir) == ["1", "1"]  # the MMA issuer and the producer
    partitions = _partitions(ttgir)
    assert sum("ttng.tc_gen5_mma" in p for p in partitions) == 1
    assert sum("ttng.async_tma_copy_global_to_local" in p for p in partitions) == 1
    # EPILOGUE_SUBTILE column slices of the accumulator, one tcgen05.ld each.
    assert _compile("ws_gemm").asm["ptx"].count("tcgen05.ld.sync.aligned.32x32b.x64.b32") == 4


def test_attention_keeps_s_p_o_and_row_statistics_in_tensor_memory() -> None:
    ttgir = _compile("attention_fwd").asm["ttgir"]
    assert len(re.findall(r"ttng\.tmem_alloc ", ttgir)) == 6  # S, P, O, alpha, l, m
    assert re.search(r"ttng\.tmem_alloc .*memdesc<1x128x128xf16, #tmem", ttgir), "P in tensor memory"
    # P @ V reads P straight from tensor memory (tcgen05.mma's A operand), not through shared memory.
    assert re.search(r"ttng\.tc_gen5_mma %\S+, %\S+, .*memdesc<128x128xf16, #tmem", ttgir)
    assert re.findall(r"num_warps\((\d+)\)", ttgir) == ["4", "1", "1"]


def test_two_cta_mma_is_issued_by_the_even_cta_only() -> None:
    ttgir = _compile("2cta_gemm").asm["ttgir"]
    assert re.search(r"ttng\.tc_gen5_mma .*\{is_async, two_ctas\}", ttgir)
    assert "CTASplitM = 2, twoCTAs = true" in ttgir


# --------------------------------------------------------------------------------------------------------
# The gaps: idioms of the public Blackwell tutorials this TLX does not have yet (strict xfails).
# --------------------------------------------------------------------------------------------------------

_STORE = {"c_desc": _desc((128, 128)), "BLOCK_M": "constexpr", "BLOCK_N": "constexpr"}
_TILE = {"BLOCK_M": 128, "BLOCK_N": 128}

GAPS = [
    pytest.param(
        Case(kernels.gap_store_eviction_policy, _STORE, _TILE),
        marks=pytest.mark.xfail(
            strict=True, reason="async_descriptor_store(eviction_policy=) is not supported by this TLX release yet"
        ),
        id="store_eviction_policy",
    ),
    pytest.param(
        Case(kernels.gap_tmem_storage_alias, {"BLOCK_M": "constexpr", "BLOCK_N": "constexpr"}, _TILE),
        marks=pytest.mark.xfail(
            strict=True,
            reason="storage aliasing works in shared memory only: storage_alias_spec(storage=tmem) is an error, so "
            "tensor-memory buffers cannot alias (the public FA kernels put P, alpha, l and m inside S's columns)",
        ),
        id="tmem_storage_alias",
    ),
    pytest.param(
        Case(
            kernels.gap_two_ctas_tma_load,
            {
                "a_desc": _desc((128, 64)),
                "b_desc": _desc((64, 128)),
                **dict.fromkeys(("BLOCK_M", "BLOCK_N", "BLOCK_K"), "constexpr"),
            },
            {"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 64},
            options=_CLUSTER,
        ),
        marks=pytest.mark.xfail(
            strict=True,
            reason="async_descriptor_load(two_ctas=True) (TMA completing on the even CTA's mbarrier) is not "
            "supported by this TLX release yet",
        ),
        id="two_ctas_tma_load",
    ),
    pytest.param(
        Case(kernels.gap_async_tasks_options, {"out_ptr": "*fp32"}, {}),
        marks=pytest.mark.xfail(
            strict=True,
            reason="async_tasks(exclusive=, mbarrier_try_wait_suspend_ns=) are not supported by this TLX release yet",
        ),
        id="async_tasks_options",
    ),
    pytest.param(
        Case(kernels.gap_clc, {"out_ptr": "*i32"}, {}),
        marks=pytest.mark.xfail(
            strict=True,
            reason="cluster launch control (clc_create_context/clc_producer/clc_consumer) is not implemented",
        ),
        id="cluster_launch_control",
    ),
]


def test_a_tma_store_of_register_writes_gets_its_fence_from_the_compiler() -> None:
    # The public API's tutorials leave fence_async_shared out before a TMA store; its compiler inserts it, and
    # so does ours (tlx-insert-proxy-fences).
    ptx = compile_sm100(Case(kernels.gap_store_without_fence, _STORE, _TILE)).asm["ptx"]
    store = ptx.index("cp.async.bulk.tensor.2d.global.shared")
    assert "fence.proxy.async.shared::cta" in ptx[:store]


@pytest.mark.parametrize("case", GAPS)
def test_gap_idiom_compiles(case: Case) -> None:
    assert compile_sm100(case).asm["cubin"][:4] == b"\x7fELF"


def test_the_warp_spec_helpers_module_is_there() -> None:
    # The public tutorials import get_bufidx_phase from it; the idiom kernels above do too.
    module = importlib.import_module("triton.language.extra.tlx.warp_spec")
    assert module.get_bufidx_phase is importlib.import_module("tlx.warp_spec").get_bufidx_phase


def test_cluster_mbarrier_init_is_made_visible_before_the_first_remote_arrive() -> None:
    # The public compiler makes a cluster kernel's mbarrier inits visible to the peer; so does
    # tlx-insert-cluster-barrier-init (the idiom kernel has no fence of its own).
    ptx = _compile("2cta_gemm").asm["ptx"]
    first_remote_arrive = ptx.index("mbarrier.arrive.shared::cluster")
    assert "fence.mbarrier_init.release.cluster" in ptx[:first_remote_arrive]
    assert "barrier.cluster.wait" in ptx[:first_remote_arrive]


@pytest.mark.xfail(
    strict=True,
    reason="stock Triton 3.6 lowers every two_ctas tcgen05.mma with barrier.cluster.arrive/wait.aligned before "
    "the issue; in a 1-warp MMA task the other warps of the cluster never arrive, a deadlock on hardware (the "
    "public compiler omits that barrier for TLX kernels and inside warp specialization)",
)
def test_gap_two_cta_mma_in_a_task_has_no_cluster_barrier() -> None:
    assert "barrier.cluster" not in _compile("2cta_ws_gemm").asm["ptx"]
