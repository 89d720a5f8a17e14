"""The built binaries are self-contained and export nothing but their entry points."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import tlx._C
from tlx.tools.tlx_opt import binary_path

SYSTEM_LIBRARIES = {"linux-vdso.so.1", "libstdc++.so.6", "libm.so.6", "libgcc_s.so.1", "libc.so.6"}


def _needed_libraries(path: Path) -> set[str]:
    output = subprocess.run(["ldd", str(path)], capture_output=True, text=True, check=True).stdout
    names = set()
    for line in output.splitlines():
        name = line.strip().split()[0]
        if "ld-linux" not in name:
            names.add(name)
    return names


@pytest.mark.skipif(shutil.which("nm") is None, reason="binutils nm not installed")
def test_extension_exports_only_its_init_symbol():
    output = subprocess.run(
        ["nm", "-D", "--defined-only", tlx._C.__file__], capture_output=True, text=True, check=True
    ).stdout
    symbols = [line.split()[-1] for line in output.splitlines() if line.strip()]
    assert symbols == ["PyInit__C"]


@pytest.mark.skipif(shutil.which("ldd") is None, reason="ldd not installed")
@pytest.mark.parametrize("binary", ["extension", "tlx-opt"])
def test_binaries_need_only_system_libraries(binary):
    path = Path(tlx._C.__file__) if binary == "extension" else binary_path()
    needed = _needed_libraries(path.resolve())
    assert needed <= SYSTEM_LIBRARIES, needed - SYSTEM_LIBRARIES


def test_tlx_opt_reports_its_version_and_passes():
    version = subprocess.run([binary_path(), "--version"], capture_output=True, text=True, check=True).stdout
    assert f"TLX version {tlx._C.version()}" in version
    assert "LLVM version 22.1.8" in version
    help_text = subprocess.run([binary_path(), "--help"], capture_output=True, text=True, check=True).stdout
    assert re.search(r"--tlx-check-static-bounds\s+-\s+Reject constant buffer indices", help_text)
    assert re.search(r"Available Dialects: .*\btlx\b", help_text)


def test_tlx_opt_console_script_runs_the_binary(tmp_path):
    source = tmp_path / "m.mlir"
    source.write_text("func.func @f() {\n  %b = tlx.alloc_barriers arrive_count = 2 : !tlx.mbarriers<3>\n  return\n}\n")
    script = Path(sys.executable).parent / "tlx-opt"
    assert script.exists(), "the tlx-opt console script is not installed"
    out = subprocess.run([script, str(source)], capture_output=True, text=True, check=True).stdout
    assert "tlx.alloc_barriers arrive_count = 2 : !tlx.mbarriers<3>" in out
