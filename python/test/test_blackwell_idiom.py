"""Kernels in the public TLX API's Blackwell idiom (``blackwell_idiom_kernels.py``) compile here unmodified.

No Blackwell GPU: each kernel compiles on the CPU to an sm_100a cubin through stock triton's ptxas, its PTX
holds the tcgen05 instructions the idiom asks for, no TLX op survives into the final TTGIR and the
protocol checker warns nothing. Every idiom of the public Blackwell tutorials this suite collected compiles
(the strict xfails it began with are all gone).
"""

from __future__ import annotations

import importlib
import re
import sys
import warnings
from pathlib import Path

import pytest

from tlx.compiler import TLXWarning
from tlx.tutorials import compile_tutorial

sys.path.insert(0, str(Path(__file__).parent))
import blackwell_idiom_kernels as kernels  # noqa: E402

_TCGEN05 = ("tcgen05.alloc.cta_group::1", "tcgen05.mma.cta_group::1.kind::f16", "tcgen05.ld.sync.aligned.32x32b")
_TCGEN05_PAIR = (
    "tcgen05.alloc.cta_group::2",
    "tcgen05.mma.cta_group::2.kind::f16",
    "tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64",
    "%cluster_ctarank",
    "mapa.shared::cluster",
    "mbarrier.arrive.shared::cluster.b64",
)

_CLC = (
    "clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes",
    "clusterlaunchcontrol.query_cancel.is_canceled.pred.b128",
    "clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128",
)

#: What each spec's PTX must hold, beyond .target sm_100a and a cubin.
PROMISED_PTX: dict[str, tuple[str, ...]] = {
    "SPEC_TMEM_GEMM": _TCGEN05
    + (
        "tensormap.replace",  # device-side descriptors (tl.make_tensor_descriptor)
        "tcgen05.st.sync.aligned.32x32b",  # the accumulator zeroed in tensor memory
        "cp.async.bulk.tensor.2d.shared::cluster.global",
        "cp.async.bulk.tensor.2d.global.shared::cta",
    ),
    "SPEC_WS_GEMM": _TCGEN05 + ("tcgen05.commit.cta_group::1.mbarrier::arrive::one", "setmaxnreg.dec.sync.aligned.u32"),
    "SPEC_2CTA_GEMM": _TCGEN05_PAIR,
    "SPEC_2CTA_WS_GEMM": _TCGEN05_PAIR,
    "SPEC_ATTENTION_FWD": _TCGEN05
    + (
        "tcgen05.st.sync.aligned.32x32b.x1.b32",  # alpha, l and m: one column each
        "tcgen05.st.sync.aligned.32x32b.x64.b32",  # P (fp16, two per 32-bit column) and O *= alpha
        "ex2.approx",
        "cp.async.bulk.tensor.2d.global.shared::cta",  # desc_o.store
    ),
    "SPEC_CLC_LOOP": _CLC,
    "SPEC_CLC_CLUSTER_LOOP": _CLC
    + (".multicast::cluster::all.b128", "mapa.shared::cluster", "mbarrier.arrive.shared::cluster.b64"),
    "SPEC_CLC_GEMM": _CLC + _TCGEN05 + ("cp.async.bulk.tensor.2d.global.shared::cta",),
    "SPEC_MXFP8_WS_GEMM": (
        "tcgen05.alloc.cta_group::1",
        "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X",
        "tcgen05.cp.cta_group::1.warpx4.32x128b",  # the scales, shared -> tensor memory
        "cp.async.bulk.tensor.5d.shared::cluster.global",  # the scales' 5-D TMA loads
        "tcgen05.ld.sync.aligned.32x32b",
    ),
    "SPEC_STORE_EVICTION_POLICY": (
        "createpolicy.fractional.L2::evict_first.b64",
        "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group.L2::cache_hint",
    ),
    "SPEC_TWO_CTAS_TMA_LOAD": (
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.cta_group::2",
        "mapa.shared::cluster",
        "tcgen05.mma.cta_group::2.kind::f16",
    ),
    "SPEC_ASYNC_TASKS_OPTIONS": ("mbarrier.try_wait.parity.shared::cta.b64 complete", "50000;"),
    "SPEC_TMEM_STORAGE_ALIAS": (
        "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32",
        "tcgen05.ld.sync.aligned.32x32b.x64.b32",  # S, in two halves of 64 columns
        "tcgen05.st.sync.aligned.32x32b.x32.b32",  # a P subtile: 64 fp16, two per column
        "tcgen05.st.sync.aligned.32x32b.x1.b32",  # alpha
    ),
    "SPEC_DESCRIPTOR_SLOTS": (
        "tensormap.replace",  # the descriptor written into the program's slot
        "fence.proxy.tensormap::generic.acquire",
        "cp.async.bulk.tensor.2d.shared::cluster.global",  # the copy through the descriptor read back
    ),
}


_compiled: dict[str, object] = {}


def _compile(name: str):
    """Compile ``kernels.<name>`` once per session; the first compile runs with TLX warnings as errors."""
    if name not in _compiled:
        with warnings.catch_warnings():
            warnings.simplefilter("error", TLXWarning)  # the protocol checker finds nothing to warn about
            _compiled[name] = compile_tutorial(getattr(kernels, name), 100)
    return _compiled[name]


@pytest.mark.parametrize("name", list(PROMISED_PTX))
def test_idiom_kernel_compiles_to_sm100a_cubin(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRITON_ALWAYS_COMPILE", "1")  # a kernel served from the cache warns nothing
    compiled = _compile(name)
    ptx = compiled.asm["ptx"]
    assert ".target sm_100a" in ptx
    missing = [marker for marker in PROMISED_PTX[name] if marker not in ptx]
    assert not missing, f"PTX lacks {missing}"
    assert compiled.asm["cubin"][:4] == b"\x7fELF"
    assert "tlx." not in compiled.asm["ttgir"], "a TLX op or carrier survived into the final TTGIR"


def _partitions(ttgir: str) -> list[str]:
    return re.split(r"\bpartition\d+\(", ttgir)[1:]


def test_ws_gemm_tasks_and_double_buffered_accumulator() -> None:
    ttgir = _compile("SPEC_WS_GEMM").asm["ttgir"]
    assert re.search(r"ttng\.tmem_alloc .*memdesc<2x128x256xf32, #tmem", ttgir)
    assert re.findall(r"num_warps\((\d+)\)", ttgir) == ["1", "1"]  # the MMA issuer and the producer
    partitions = _partitions(ttgir)
    assert sum("ttng.tc_gen5_mma" in p for p in partitions) == 1
    assert sum("ttng.async_tma_copy_global_to_local" in p for p in partitions) == 1
    # EPILOGUE_SUBTILE column slices of the accumulator, one tcgen05.ld each.
    assert _compile("SPEC_WS_GEMM").asm["ptx"].count("tcgen05.ld.sync.aligned.32x32b.x64.b32") == 4


def test_attention_keeps_s_p_o_and_row_statistics_in_tensor_memory() -> None:
    ttgir = _compile("SPEC_ATTENTION_FWD").asm["ttgir"]
    assert len(re.findall(r"ttng\.tmem_alloc ", ttgir)) == 6  # S, P, O, alpha, l, m
    assert re.search(r"ttng\.tmem_alloc .*memdesc<1x128x128xf16, #tmem", ttgir), "P in tensor memory"
    # P @ V reads P straight from tensor memory (tcgen05.mma's A operand), not through shared memory.
    assert re.search(r"ttng\.tc_gen5_mma %\S+, %\S+, .*memdesc<128x128xf16, #tmem", ttgir)
    assert re.findall(r"num_warps\((\d+)\)", ttgir) == ["4", "1", "1"]


def test_two_cta_mma_is_issued_by_the_even_cta_only() -> None:
    ttgir = _compile("SPEC_2CTA_GEMM").asm["ttgir"]
    assert re.search(r"ttng\.tc_gen5_mma .*\{is_async, two_ctas\}", ttgir)
    assert "CTASplitM = 2, twoCTAs = true" in ttgir


def test_mxfp8_scales_in_shared_memory_reach_the_mma_through_tensor_memory() -> None:
    ttgir = _compile("SPEC_MXFP8_WS_GEMM").asm["ttgir"]
    mma = [p for p in _partitions(ttgir) if "ttng.tc_gen5_mma_scaled" in p]
    # The MMA issuer copies both scale tiles into tensor memory allocations of their own, then multiplies.
    assert len(mma) == 1 and mma[0].count("ttng.tmem_copy") == 2
    assert "lhs = e4m3 rhs = e4m3" in mma[0]
    assert len(re.findall(r"ttng\.tmem_alloc : \(\) -> !ttg\.memdesc<128x4xi8, #tmem_scales", ttgir)) == 2


def test_tmem_storage_alias_puts_p_and_alpha_in_s_columns() -> None:
    compiled = _compile("SPEC_TMEM_STORAGE_ALIAS")
    ttgir, ptx = compiled.asm["ttgir"], compiled.asm["ptx"]
    # One allocation of S's 128 columns; S, P and alpha are views of it, each counted in its own buffers.
    assert len(re.findall(r"ttng\.tmem_alloc ", ttgir)) == 1
    assert "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r1], 128;" in ptx
    views = re.findall(
        r"ttg\.memdesc_reinterpret %\w+ : !ttg\.memdesc<128x128x1xi32[^>]*> -> !ttg\.memdesc<(\w+)", ttgir
    )
    assert sorted(views) == ["128x128x1xf32", "1x128x128xf32", "4x128x64xf16"], views
    # S at column c, P[0] at c, P[1] at c + 32 (64 fp16 two per column), alpha at c + 64 (after P).
    s_column = re.search(r"tcgen05\.st\.sync\.aligned\.32x32b\.x128\.b32 \[(%r\d+) \+ 0\]", ptx).group(1)
    p1 = re.search(rf"add\.s32\s+(%r\d+), {s_column}, 32;", ptx).group(1)
    alpha = re.search(rf"add\.s32\s+(%r\d+), {s_column}, 64;", ptx).group(1)
    assert re.search(rf"tcgen05\.st\.sync\.aligned\.32x32b\.x32\.b32 \[{s_column} \+ 0\]", ptx), "P[0]"
    assert re.search(rf"tcgen05\.st\.sync\.aligned\.32x32b\.x32\.b32 \[{p1} \+ 0\]", ptx), "P[1]"
    assert re.search(rf"tcgen05\.st\.sync\.aligned\.32x32b\.x1\.b32 \[{alpha} \+ 0\]", ptx), "alpha"


# --------------------------------------------------------------------------------------------------------
# What the compiler does for the idiom: the proxy fence the public tutorials leave out.
# --------------------------------------------------------------------------------------------------------


def test_a_tma_store_of_register_writes_gets_its_fence_from_the_compiler() -> None:
    # The public API's tutorials leave fence_async_shared out before a TMA store; its compiler inserts it, and
    # so does ours (tlx-insert-proxy-fences).
    ptx = _compile("SPEC_STORE_WITHOUT_FENCE").asm["ptx"]
    store = ptx.index("cp.async.bulk.tensor.2d.global.shared")
    assert "fence.proxy.async.shared::cta" in ptx[:store]


def test_the_warp_spec_helpers_module_is_there() -> None:
    # The public tutorials import get_bufidx_phase from it; the idiom kernels above do too.
    module = importlib.import_module("triton.language.extra.tlx.warp_spec")
    assert module.get_bufidx_phase is importlib.import_module("tlx.warp_spec").get_bufidx_phase


def test_cluster_mbarrier_init_is_made_visible_before_the_first_remote_arrive() -> None:
    # The public compiler makes a cluster kernel's mbarrier inits visible to the peer; so does
    # tlx-insert-cluster-barrier-init (the idiom kernel has no fence of its own).
    ptx = _compile("SPEC_2CTA_GEMM").asm["ptx"]
    first_remote_arrive = ptx.index("mbarrier.arrive.shared::cluster")
    assert "fence.mbarrier_init.release.cluster" in ptx[:first_remote_arrive]
    assert "barrier.cluster.wait" in ptx[:first_remote_arrive]


def test_two_cta_mma_in_a_task_has_no_cluster_barrier() -> None:
    # Stock Triton 3.6 puts barrier.cluster.arrive/wait.aligned before every two-CTA tcgen05.mma, which in a
    # 1-warp MMA task no other warp of the cluster reaches (a hang on hardware). TLX drops it: the cluster
    # barriers left are the one at the start of each task (tlx-insert-cluster-barrier-init), which every warp of
    # both CTAs passes once; the MMA waits on the mbarrier the peer arrives on remotely, then issues. The two
    # 1-warp tasks leave two warps of their warp group idle: a 2-warp task of the pass's passes the barrier there.
    compiled = _compile("SPEC_2CTA_WS_GEMM")
    ttgir, ptx = compiled.asm["ttgir"], compiled.asm["ptx"]
    partitions = [int(n) for n in re.findall(r"num_warps\((\d+)\)", ttgir)]
    assert sorted(partitions) == [1, 1, 2], partitions
    tasks = 1 + len(partitions)
    assert ptx.count("barrier.cluster.arrive.aligned;") == ptx.count("barrier.cluster.wait.aligned;") == tasks == 4
    first_mma = ptx.index("tcgen05.mma.cta_group::2")
    last_wait = ptx.rindex("mbarrier.try_wait", 0, first_mma)
    assert "barrier.cluster" not in ptx[last_wait:first_mma]
    assert "cta_group::2 MMA without a cluster barrier" not in ptx, "the marker left in the PTX"


def test_two_cta_mma_without_tasks_has_only_the_init_cluster_barrier() -> None:
    # Not warp-specialized, all warps would reach stock's barrier; it is dropped all the same (the public
    # compiler omits it for TLX kernels): one cluster barrier, after the mbarrier inits, orders the pair.
    ptx = _compile("SPEC_2CTA_GEMM").asm["ptx"]
    assert ptx.count("barrier.cluster.arrive.aligned;") == ptx.count("barrier.cluster.wait.aligned;") == 1
    assert ptx.index("barrier.cluster.wait.aligned;") < ptx.index("tcgen05.mma.cta_group::2")


_LLIR = """
define void @k(i1 %p) {
  %r = tail call i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
  tail call void asm sideeffect "{marker}", ""() #7, !dbg !27
  %w = tail call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %r, i32 0, i32 31)
  %e = and i32 %w, 1
  tail call void @llvm.nvvm.barrier.cluster.arrive.aligned(), !dbg !27
  tail call void @llvm.nvvm.barrier.cluster.wait.aligned(), !dbg !27
  br i1 %p, label %mma, label %end
mma:
  tail call void @llvm.nvvm.barrier.cluster.arrive.aligned()
  tail call void @llvm.nvvm.barrier.cluster.wait.aligned()
  br label %end
end:
  ret void
}
"""


def test_the_two_cta_mma_barrier_goes_from_the_llvm_ir_with_its_marker_only() -> None:
    from tlx.compiler.llir import TWO_CTA_MMA_MARKER, TwoCTABarrierError, drop_two_cta_mma_cluster_barriers

    llir = _LLIR.replace("{marker}", TWO_CTA_MMA_MARKER)
    dropped = drop_two_cta_mma_cluster_barriers(llir)
    # The marked pair goes, an unmarked one (the kernel's own cluster barrier) stays, the rest is untouched.
    assert TWO_CTA_MMA_MARKER not in dropped
    assert dropped.count("barrier.cluster.arrive.aligned") == dropped.count("barrier.cluster.wait.aligned") == 1
    assert "%e = and i32 %w, 1" in dropped and dropped.index("mma:") < dropped.index("barrier.cluster.arrive")
    # Anything with a side effect between the marker and the barrier: not stock 3.6's lowering, an error.
    store = llir.replace("  %e = and", "  store i32 0, ptr null\n  %e = and")
    with pytest.raises(TwoCTABarrierError, match="stands between"):
        drop_two_cta_mma_cluster_barriers(store)
    no_barrier = llir.replace("  tail call void @llvm.nvvm.barrier.cluster.arrive.aligned(), !dbg !27\n", "", 1)
    with pytest.raises(TwoCTABarrierError):
        drop_two_cta_mma_cluster_barriers(no_barrier)
