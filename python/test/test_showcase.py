"""The README's main job: showcase kernels compile on the CPU for sm_90 (and, with --arch 100, the Blackwell
tutorials for sm_100a) and every stage is dumped."""

import os
import re

import pytest

from tlx.tools import showcase


@pytest.fixture(scope="module")
def dumps(tmp_path_factory):
    out = tmp_path_factory.mktemp("dumps")
    environment = dict(os.environ)
    assert showcase.main(["--out", str(out)]) == 0
    # It dumps through TLX_DUMP_DIR and TRITON_ALWAYS_COMPILE: left set, every later compile in the process
    # would skip Triton's cache.
    assert dict(os.environ) == environment
    return out


@pytest.mark.parametrize("kernel", [s.name for s in showcase.SHOWCASES])
def test_every_stage_is_written(dumps, kernel):
    directory = dumps / kernel
    ttir = (directory / "ttir.mlir").read_text()
    ttgir = (directory / "ttgir.mlir").read_text()
    ptx = (directory / "kernel.ptx").read_text()
    assert f"tt.func public @{kernel}" in ttir
    assert '"ttg.num-warps"' in ttgir and 'ttg.target = "cuda:90"' in ttgir
    assert ".target sm_90a" in ptx
    assert (directory / "kernel.cubin").read_bytes()[:4] == b"\x7fELF"
    assert "define" in (directory / "llir.ll").read_text()


def test_matmul_uses_wgmma(dumps):
    ptx = (dumps / "matmul" / "kernel.ptx").read_text()
    assert "wgmma.mma_async.sync.aligned" in ptx


@pytest.mark.parametrize("kernel", ["tma_scale_kernel", "tma_matmul_kernel", "cp_async_matmul_kernel"])
def test_tlx_tutorials_are_dumped_stage_by_stage(dumps, kernel):
    directory = dumps / "tlx" / kernel
    raised = (directory / "03-tlx-raised.mlir").read_text()
    lowered = (directory / "04-ttgir-lowered.mlir").read_text()
    assert "tlx.local_alloc" in raised and "tlx.op" not in raised
    body = [line for line in lowered.splitlines() if not line.startswith("#loc")]
    assert not [line for line in body if re.search(r"\btlx\.\w+", line.split(" loc(")[0])], "TLX op left"
    assert "ttg.local_alloc" in lowered
    assert (directory / "07-kernel.ptx").read_text().count(".entry") == 1
    assert "tlx-opt" in (directory / "README.md").read_text()


@pytest.fixture(scope="module")
def blackwell_dumps(tmp_path_factory):
    out = tmp_path_factory.mktemp("dumps-sm100")
    assert showcase.main(["--out", str(out), "--arch", "100"]) == 0
    return out


BLACKWELL_KERNELS = [spec["kernel"].fn.__name__ for spec in showcase.BLACKWELL_SPECS]


def test_arch_100_compiles_the_blackwell_tutorials_instead():
    assert showcase.tutorial_specs(100) == showcase.BLACKWELL_SPECS
    assert BLACKWELL_KERNELS == [
        "blackwell_gemm_kernel",
        "blackwell_ws_gemm_kernel",
        "blackwell_persistent_gemm_kernel",
        "blackwell_clc_gemm_kernel",
        "blackwell_2cta_gemm_kernel",
        "blackwell_mxfp8_gemm_kernel",
        "blackwell_attention_kernel",
        "blackwell_gdpa_kernel",
    ]
    hopper = {spec["kernel"].fn.__name__ for spec in showcase.tutorial_specs(90)}
    assert not hopper & set(BLACKWELL_KERNELS)


@pytest.mark.parametrize("kernel", BLACKWELL_KERNELS)
def test_blackwell_tutorials_are_dumped_stage_by_stage_for_sm100(blackwell_dumps, kernel):
    directory = blackwell_dumps / "tlx" / kernel
    stages = ["01-ttir.mlir", "02-ttgir-converted.mlir", "03-tlx-raised.mlir", "04-ttgir-lowered.mlir"]
    stages += ["05-ttgir-final.mlir", "06-llir.ll", "07-kernel.ptx", "README.md"]
    assert all((directory / stage).is_file() for stage in stages), sorted(p.name for p in directory.iterdir())
    assert not (directory / "error.txt").exists()
    raised = (directory / "03-tlx-raised.mlir").read_text()
    assert "tlx.local_alloc" in raised and "tmem" in raised
    final = (directory / "05-ttgir-final.mlir").read_text()
    assert 'ttg.target = "cuda:100"' in final and "ttng.tc_gen5_mma" in final
    ptx = (directory / "07-kernel.ptx").read_text()
    assert ".target sm_100a" in ptx and "tcgen05.mma" in ptx


@pytest.mark.parametrize("kernel", [s.name for s in showcase.SHOWCASES])
def test_plain_kernels_are_compiled_for_sm100(blackwell_dumps, kernel):
    directory = blackwell_dumps / kernel
    assert 'ttg.target = "cuda:100"' in (directory / "ttgir.mlir").read_text()
    assert ".target sm_100a" in (directory / "kernel.ptx").read_text()
    assert (directory / "kernel.cubin").read_bytes()[:4] == b"\x7fELF"
