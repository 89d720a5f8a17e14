"""The TLX passes leave no invalid memory access: every `tlx-opt` RUN line of the TLX lit tests, under valgrind.

A use after free in a pass can go unseen for a long time: the process usually survives it. Once, it did not:
a splat shared by two carriers was erased twice, and a later `free` deadlocked on the heap lock that the
crash-recovered pass had left taken. Skipped where valgrind is not installed.
"""

import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from tlx.tools.tlx_opt import binary_path

ROOT = Path(__file__).resolve().parents[2]
LIT_FILES = sorted((ROOT / "test" / "TLX").glob("*.mlir")) + sorted((ROOT / "third_party").rglob("test/**/*.mlir"))


def run_lines(path: Path) -> list[list[str]]:
    """The tlx-opt arguments of each `// RUN: tlx-opt ...` line (up to the first pipe)."""
    commands = []
    for line in path.read_text().splitlines():
        match = re.match(r"//\s*RUN:\s*tlx-opt\s+(.*)", line)
        if match:
            command = match.group(1).split("|")[0]
            commands.append([arg.replace("%s", str(path)) for arg in shlex.split(command)])
    return commands


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
@pytest.mark.parametrize("path", LIT_FILES, ids=lambda p: p.name)
def test_tlx_passes_are_clean_under_valgrind(path):
    commands = run_lines(path)
    assert commands, f"{path.name} has no tlx-opt RUN line"
    for args in commands:
        result = subprocess.run(
            ["valgrind", "-q", "--error-exitcode=99", str(binary_path()), *args, "-o", "/dev/null"],
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert result.returncode != 99, f"valgrind found errors in tlx-opt {' '.join(args)}:\n{result.stderr[-4000:]}"
