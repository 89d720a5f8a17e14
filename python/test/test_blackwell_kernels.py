"""The Blackwell tutorial kernels (persistent GEMM, CLC GEMM, 2-CTA GEMM, MXFP8 GEMM, attention, GDPA) compile on
the CPU to sm_100a cubins.

No Blackwell GPU here: each SPEC compiles with stock triton's ptxas for sm_100a, its PTX holds the
instructions it promises, no TLX op survives into the final TTGIR and the protocol checker warns nothing.
The structural checks below pin the choices the docstrings describe (two tensor-memory accumulators,
subtiled epilogue, P in S's tensor-memory columns for attention and through shared memory for GDPA, the task
layout).
"""

from __future__ import annotations

import re
import warnings
from types import ModuleType

import gpus
import pytest

import tlx
from tlx.compiler import TLXWarning
from tlx.tutorials import (
    blackwell_2cta_gemm,
    blackwell_attention,
    blackwell_clc_gemm,
    blackwell_gdpa,
    blackwell_mxfp8_gemm,
    blackwell_ws_gemm,
    compile_tutorial,
)

MODULES = [
    blackwell_ws_gemm,
    blackwell_clc_gemm,
    blackwell_2cta_gemm,
    blackwell_mxfp8_gemm,
    blackwell_attention,
    blackwell_gdpa,
]
SPECS = [
    (module, name) for module in MODULES for name in sorted(vars(module)) if name == "SPEC" or name.startswith("SPEC_")
]

_compiled: dict[tuple[str, str], object] = {}


def _compile(module: ModuleType, name: str):
    """Compile once per test session (the structural tests reuse the first compile)."""
    key = (module.__name__, name)
    if key not in _compiled:
        with warnings.catch_warnings():
            warnings.simplefilter("error", TLXWarning)  # the protocol checker finds nothing to warn about
            _compiled[key] = compile_tutorial(getattr(module, name), arch=100)
    return _compiled[key]


@pytest.mark.parametrize("module, name", SPECS, ids=[f"{m.__name__.split('.')[-1]}.{n}" for m, n in SPECS])
def test_spec_compiles_to_sm100_cubin_with_promised_ptx(module: ModuleType, name: str, monkeypatch) -> None:
    monkeypatch.setenv("TRITON_ALWAYS_COMPILE", "1")  # a kernel served from the cache warns nothing
    compiled = _compile(module, name)
    ptx = compiled.asm["ptx"]
    assert ".target sm_100a" in ptx
    missing = [marker for marker in getattr(module, name)["ptx"] if marker not in ptx]
    assert not missing, f"PTX lacks {missing}"
    assert compiled.asm["cubin"][:4] == b"\x7fELF"
    assert "tlx." not in compiled.asm["ttgir"], "a TLX op or carrier survived into the final TTGIR"
    tlx.run_pipeline(compiled.asm["ttgir"], "builtin.module()")  # the final TTGIR reads back (tlx-opt replays it)


def test_gdpa_silu_takes_one_tanh_per_score_and_no_division() -> None:
    ptx = _compile(blackwell_gdpa, "SPEC_SILU_D64").asm["ptx"]
    assert "tanh.approx.f32" in ptx
    assert not [op for op in ("ex2.approx", "div.full", "div.rn", "rcp.") if op in ptx]


def _partitions(ttgir: str) -> list[str]:
    """The text of each partition region of the kernel's one ttg.warp_specialize."""
    assert ttgir.count("ttg.warp_specialize") >= 1, "not warp-specialized"
    return re.split(r"\bpartition\d+\(", ttgir)[1:]


def test_gemm_double_buffers_the_accumulator_in_tensor_memory() -> None:
    compiled = _compile(blackwell_ws_gemm, "SPEC")
    cfg = blackwell_ws_gemm.CONFIG
    ttgir, ptx = compiled.asm["ttgir"], compiled.asm["ptx"]
    bm, bn = cfg["BLOCK_M"], cfg["BLOCK_N"]
    assert re.search(rf"ttng\.tmem_alloc .*memdesc<{cfg['NUM_ACC']}x{bm}x{bn}xf32, #tmem", ttgir), "one 2-buffer alloc"
    # The MMA issuer's partition issues every tcgen05.mma and the commit that hands a tile over.
    mma_partition = [p for p in _partitions(ttgir) if "ttng.tc_gen5_mma" in p]
    assert len(mma_partition) == 1 and "ttng.tc_gen5_commit" in mma_partition[0]
    # Epilogue subtiling: EPILOGUE_SUBTILE tcgen05.ld of BLOCK_N / EPILOGUE_SUBTILE columns, one TMA store each.
    slice_n = bn // cfg["EPILOGUE_SUBTILE"]
    assert ptx.count(f"tcgen05.ld.sync.aligned.32x32b.x{slice_n}.b32") == cfg["EPILOGUE_SUBTILE"]
    assert ptx.count("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group") == cfg["EPILOGUE_SUBTILE"]
    # A slice's store overlaps the next slice's tcgen05.ld: only the store two slices back is waited for.
    assert re.search(r"cp\.async\.bulk\.wait_group\.read\s+1;", ptx)


def test_clc_gemm_asks_for_the_next_tile_in_the_epilogue_and_every_task_reads_the_answer() -> None:
    compiled = _compile(blackwell_clc_gemm, "SPEC")
    ttgir, ptx = compiled.asm["ttgir"], compiled.asm["ptx"]
    # Two CLC stages: two 16-byte responses, 16-byte aligned.
    stages = blackwell_clc_gemm.CONFIG["NUM_CLC_STAGES"]
    assert re.search(rf"ttg\.local_alloc \{{alignment = 16 : i32\}} : \(\) -> !ttg\.memdesc<{stages}x2xi64", ttgir)
    # The default task (before the first partition) issues the one request; all three tasks decode answers.
    default, *partitions = re.split(r"\bpartition\d+\(", ttgir)
    assert default.count("clusterlaunchcontrol.try_cancel") == 1
    assert not any("clusterlaunchcontrol.try_cancel" in p for p in partitions)
    assert sum("clusterlaunchcontrol.query_cancel" in p for p in [default, *partitions]) == 3
    # One CTA per tile, no cluster: no multicast, nothing remote.
    assert "multicast::cluster::all" not in ptx and "mapa.shared::cluster" not in ptx
    # The same tensor-memory pipeline as the statically scheduled persistent GEMM.
    assert re.search(r"ttng\.tmem_alloc .*memdesc<2x128x256xf32, #tmem", ttgir)


def test_clc_gemm_in_clusters_releases_cta_0s_stage_remotely() -> None:
    ptx = _compile(blackwell_clc_gemm, "SPEC_CLUSTER").asm["ptx"]
    assert re.search(r"clusterlaunchcontrol\.try_cancel\S*\.multicast::cluster::all\.b128", ptx)
    # Each of the three tasks arrives on CTA 0's empty mbarrier: three remote arrives.
    assert ptx.count("mbarrier.arrive.shared::cluster.b64") == 3
    first_remote = ptx.index("mbarrier.arrive.shared::cluster.b64")
    assert "fence.mbarrier_init.release.cluster" in ptx[:first_remote]


def test_gdpa_keeps_s_and_o_in_tensor_memory_and_p_in_shared() -> None:
    compiled = _compile(blackwell_gdpa, "SPEC")
    ttgir = compiled.asm["ttgir"]
    # Two S (128 x BLOCK_N) and two O (128 x D) buffers: all 512 columns at D = 128.
    assert re.search(r"ttng\.tmem_alloc .*memdesc<2x128x128xf32, #tmem", ttgir)
    assert len(re.findall(r"ttng\.tmem_alloc ", ttgir)) == 2
    # P @ V reads P from shared memory (a local_alloc of 2 x 128 x BLOCK_N fp16), not from tensor memory.
    assert re.search(r"ttg\.local_alloc .*memdesc<2x128x128xf16, #shared", ttgir)
    # The tasks: the default plus two 4-warp activation replicas, the 2-warp MMA and load tasks.
    assert re.findall(r"num_warps\((\d+)\)", ttgir) == ["4", "4", "2", "2"]
    partitions = _partitions(ttgir)
    assert sum("ttng.tc_gen5_mma" in p for p in partitions) == 1
    assert sum("ttng.async_tma_copy_global_to_local" in p for p in partitions) == 1
    assert sum("ttng.tmem_load" in p for p in partitions) == 2  # the replicas read S


# tcgen05.mma [d], a, b, ...: a is a shared-memory descriptor (%rd) or a tensor-memory address ([%r + col]).
_MMA_SS = re.compile(r"tcgen05\.mma\.cta_group::1\.kind::f16 \[ %r\d+ \+ 0 \], %rd\d+, %rd\d+,")
_MMA_TS = re.compile(r"tcgen05\.mma\.cta_group::1\.kind::f16 \[ %r\d+ \+ 0 \], \[ %r\d+ \+ \d+ \], %rd\d+,")


@pytest.mark.parametrize("name", ["SPEC", "SPEC_CAUSAL_D64"])
def test_attention_writes_p_into_s_columns_and_reads_it_from_tensor_memory(name: str) -> None:
    compiled = _compile(blackwell_attention, name)
    ttgir, ptx = compiled.asm["ttgir"], compiled.asm["ptx"]
    d = 64 if name.endswith("D64") else 128
    # Tensor memory: S of both groups (256 columns, P, alpha and l inside) and O. Shared memory holds Q and
    # the K/V ring only.
    allocs = re.findall(r"ttng\.tmem_alloc : \(\) -> !ttg\.memdesc<(\w+)", ttgir)
    assert allocs == ["256x128x1xi32", f"2x128x{d}xf32"], allocs
    num_kv = blackwell_attention.CONFIGS[d]["NUM_KV"]
    shared = re.findall(r"ttg\.local_alloc [^\n]*-> !ttg\.memdesc<(\w+x(?:f16|f32))", ttgir)
    assert sorted(shared) == sorted([f"2x128x{d}xf16", f"{num_kv}x128x{d}xf16"]), shared
    views = re.findall(r"ttg\.memdesc_reinterpret %s_storage : [^>]*> -> !ttg\.memdesc<(\w+)", ttgir)
    # (alpha's and l's views have one type: Triton's CSE keeps one of the two.)
    assert set(views) == {"256x128x1xf32", "2x128x128xf32", "4x128x128xf16"}, views
    # P @ V takes P from tensor memory as tcgen05's A operand (K = 128 fp16: 8 MMAs of K = 16, 8 columns
    # apart); Q @ K^T takes both operands from shared memory. Two groups of each.
    mma_ts = _MMA_TS.findall(ptx)
    assert len(mma_ts) == 2 * 8 and len(_MMA_SS.findall(ptx)) == 2 * (d // 16)
    a_columns = sorted({int(c) for c in re.findall(r"\], \[ %r\d+ \+ (\d+) \], %rd", ptx)})
    assert a_columns == list(range(0, 64, 8)), a_columns
    # Softmax replica g reads S[g] (128 columns from 128 g) and writes P over its first 64 columns (P's
    # 64-column buffer 2 g), alpha and l in the next two (one-column buffers 128 g + 64 and + 65).
    for g, part in enumerate(_partitions(ttgir)[:2]):
        index = {
            name: sorted(int(c) for c in re.findall(rf"memdesc_index %{name}\w*\[%c(\d+)_i32", part))
            for name in ("s_tiles", "p_tiles", "alpha_tiles")
        }
        assert index == {"s_tiles": [g], "p_tiles": [2 * g], "alpha_tiles": [128 * g + 64, 128 * g + 65]}, index
    # One tcgen05.st of P per replica (128 fp16 per row: 64 columns), alpha and l one column each.
    assert ptx.count("tcgen05.st.sync.aligned.32x32b.x64.b32") == 2
    assert ptx.count("tcgen05.st.sync.aligned.32x32b.x1.b32") == 4


def test_attention_task_structure() -> None:
    # The public kernel's four roles: the default task (correction and epilogue), two 4-warp softmax replicas,
    # the MMA issuer and the TMA loader; softmax and correction are separate tasks.
    ttgir = _compile(blackwell_attention, "SPEC").asm["ttgir"]
    assert re.findall(r"num_warps\((\d+)\)", ttgir) == ["4", "4", "2", "2"]
    default = ttgir.split("partition0(")[0].split("ttg.warp_specialize")[1]
    softmax, softmax_1, mma, load = _partitions(ttgir)
    # The softmax reads S and writes P, alpha and l into tensor memory; it issues no MMA, loads nothing.
    for replica in (softmax, softmax_1):
        assert "ttng.tmem_load" in replica and replica.count("ttng.tmem_store") == 3
        assert "ttng.tc_gen5_mma" not in replica and "async_tma" not in replica
    # The correction reads alpha and rescales O there, then stores O / l by TMA.
    assert "ttng.tmem_load" in default and "ttng.tmem_store" in default
    assert "ttng.async_tma_copy_local_to_global" in default and "ttng.tc_gen5_mma" not in default
    # All MMAs in the MMA task: two Q @ K^T, two P @ V with P a tensor-memory memdesc.
    assert mma.count("ttng.tc_gen5_mma") == 4 and "ttng.tmem_load" not in mma
    pv = [
        line for line in mma.splitlines() if "ttng.tc_gen5_mma" in line and ": !ttg.memdesc<128x128xf16, #tmem" in line
    ]
    assert len(pv) == 2
    assert "ttng.async_tma_copy_global_to_local" in load and "ttng.tc_gen5_mma" not in load


def test_attention_correction_rescales_o_in_tensor_memory() -> None:
    ttgir = _compile(blackwell_attention, "SPEC").asm["ttgir"]
    # O *= alpha: tcgen05.ld, multiply, tcgen05.st, in 64-column slices at D = 128, in the default task
    # (the correction: before the first partition).
    default = ttgir.split("partition0(")[0]
    assert re.search(r"ttng\.tmem_store .*memdesc<128x64xf32, #tmem", default)
    assert re.search(r"ttng\.tmem_load .*memdesc<128x64xf32, #tmem", default)
    # Only the correction writes O; the softmax replicas write S's columns (P, alpha, l).
    assert not re.search(r"ttng\.tmem_store .*memdesc<128x64xf32", ttgir.split("partition0(")[1])


def test_2cta_gemm_pairs_ctas_on_one_mma_and_signals_the_even_cta() -> None:
    compiled = _compile(blackwell_2cta_gemm, "SPEC")
    ttgir, ptx = compiled.asm["ttgir"], compiled.asm["ptx"]
    cfg = blackwell_2cta_gemm.CONFIG
    bm, bn, bk = cfg["BLOCK_M"], cfg["BLOCK_N"], cfg["BLOCK_K"]
    # One MMA over the pair: A is 2 * BLOCK_M rows, B the whole BLOCK_N, each CTA holding its half.
    assert re.search(rf"ttng\.tc_gen5_mma .*\{{is_async, two_ctas\}} : !ttg\.memdesc<{2 * bm}x{bk}xf16", ttgir)
    assert re.search(rf"ttg\.local_alloc .*memdesc<{cfg['NUM_STAGES']}x{bk}x{bn // 2}xf16", ttgir), "half of B"
    # Each CTA arrives on the even CTA's pair_ready (mapa to rank & ~1), and only the even CTA waits on it.
    assert "mapa.shared::cluster" in ptx and "mbarrier.arrive.shared::cluster.b64" in ptx
    assert "@!%p" in ptx.split("mbarrier.arrive.shared::cluster.b64")[1].split("tcgen05.mma")[0], "predicated wait"
    # The mbarrier inits are made visible to the cluster before the first remote arrive.
    first_remote = ptx.index("mbarrier.arrive.shared::cluster.b64")
    assert "fence.mbarrier_init.release.cluster" in ptx[:first_remote]
    assert "barrier.cluster.wait" in ptx[:first_remote]


@pytest.mark.parametrize("name", ["SPEC", "SPEC_N256"])
def test_mxfp8_gemm_copies_scales_to_tensor_memory_for_each_block_scaled_mma(name: str) -> None:
    compiled = _compile(blackwell_mxfp8_gemm, name)
    ttgir = compiled.asm["ttgir"]
    cfg = {**blackwell_mxfp8_gemm.CONFIG, **getattr(blackwell_mxfp8_gemm, name)["constexprs"]}
    bm, bn, scale_k = cfg["BLOCK_M"], cfg["BLOCK_N"], cfg["BLOCK_K"] // 32
    # The scales' shared-memory ring is unswizzled (the cuBLAS layout is the swizzle), so is their TMA.
    unswizzled = "#ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 8, rank = 5}>"
    alias = re.search(rf"(#shared\d*) = {re.escape(unswizzled)}", ttgir).group(1)
    assert re.search(rf"tensordesc<tensor<1x{bn // 128}x{scale_k // 4}x2x256xui8, {alias}>>", ttgir)
    # Two sets of tensor-memory scales, one allocation per buffer.
    allocs = re.findall(rf"ttng\.tmem_alloc : \(\) -> !ttg\.memdesc<(\d+)x{scale_k}xi8, #tmem_scales", ttgir)
    assert sorted(map(int, allocs)) == sorted([bm, bm, bn, bn])
    # The MMA issuer copies both scales and issues the MMA, for either set; the loader loads four tiles.
    mma = [p for p in _partitions(ttgir) if "ttng.tc_gen5_mma_scaled" in p]
    assert len(mma) == 1 and mma[0].count("ttng.tmem_copy") == 4 and mma[0].count("ttng.tc_gen5_mma_scaled") == 2
    assert sum(p.count("ttng.async_tma_copy_global_to_local") == 4 for p in _partitions(ttgir)) == 1
    assert "lhs = e4m3 rhs = e4m3" in ttgir


@pytest.mark.gpu
@gpus.blackwell
def test_mxfp8_gemm_matches_the_reference_on_blackwell() -> None:
    import torch

    torch.manual_seed(0)
    m, n, k = 256, 384, 1024
    a = torch.randn(m, k, device="cuda").to(torch.float8_e4m3fn)
    b = torch.randn(n, k, device="cuda").to(torch.float8_e4m3fn)
    a_scale = torch.randint(120, 134, (m, k // 32), dtype=torch.uint8, device="cuda")
    b_scale = torch.randint(120, 134, (n, k // 32), dtype=torch.uint8, device="cuda")
    out = blackwell_mxfp8_gemm.run(a, b, a_scale, b_scale)
    expected = blackwell_mxfp8_gemm.reference(a, b, a_scale, b_scale)
    torch.testing.assert_close(out.float(), expected.float(), rtol=1e-2, atol=1e-2 * expected.abs().max().item())


def test_gdpa_reuses_the_hopper_host_checks() -> None:
    from tlx.tutorials import gdpa

    assert blackwell_gdpa._check_inputs is gdpa._check_inputs
    assert blackwell_gdpa.reference is gdpa.reference
    with pytest.raises(ValueError, match="blackwell_gdpa: activation must be one of"):
        blackwell_gdpa.run(None, None, None, None, 0, activation="relu")


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__.split(".")[-1])
def test_module_docstring_says_compile_verified_only(module: ModuleType) -> None:
    assert "Compile-verified only" in module.__doc__
    assert callable(module.run)
