"""tlx.tools.public_check's import plumbing on the CPU: the fork's tutorial names resolve to the fork's files
(not to tlx.tutorials), packages included, and a tutorial that fails to import is listed and stood in for."""

import sys

import pytest

from tlx.tools import public_check

PREFIX = "triton.language.extra.tlx.tutorials."


@pytest.fixture
def fork(tmp_path, monkeypatch):
    tutorials = tmp_path / "third_party/tlx/tutorials"
    (tutorials / "testing").mkdir(parents=True)
    (tutorials / "sub").mkdir()
    (tutorials / "hopper_thing.py").write_text("VALUE = 41 + 1\n")
    (tutorials / "sub/inner.py").write_text("from triton.language.extra.tlx.tutorials.hopper_thing import VALUE\n")
    (tutorials / "amd_thing.py").write_text("raise RuntimeError('needs a ROCm build\\nsecond line')\n")
    (tutorials / "amd_other.py").write_text("import hip_only_module\n")
    (tutorials / "testing/test_correctness.py").write_text(
        f"from {PREFIX}hopper_thing import (\n    VALUE, )\n"
        f"from {PREFIX}sub.inner import VALUE as V2\n"
        f"from {PREFIX}amd_thing import (\n    run as _amd, )\n"
        f"from {PREFIX.rstrip('.')} import amd_other as _other\n"
    )
    helper = tmp_path / "third_party/nvidia/language/cuda"
    helper.mkdir(parents=True)
    (helper / "inline_ptx_lib.py").write_text("MARK = 'fork helper'\n")
    meta_path = list(sys.meta_path)
    yield tmp_path
    sys.meta_path[:] = meta_path
    for name in [n for n in sys.modules if n.startswith(PREFIX) or n.endswith("inline_ptx_lib")]:
        del sys.modules[name]


def test_fork_tutorials_import_from_the_fork_and_failures_are_listed(fork):
    failed = public_check.install_fork_imports(fork)
    assert failed == {
        f"{PREFIX}amd_thing": "RuntimeError: needs a ROCm build",
        f"{PREFIX}amd_other": "ModuleNotFoundError: No module named 'hip_only_module'",
    }
    assert sys.modules[f"{PREFIX}hopper_thing"].VALUE == 42
    assert sys.modules[f"{PREFIX}hopper_thing"].__file__ == str(fork / "third_party/tlx/tutorials/hopper_thing.py")
    assert sys.modules[f"{PREFIX}sub.inner"].VALUE == 42
    # What test_correctness does with a stand-in's names while it is imported and collected.
    stand_in = sys.modules[f"{PREFIX}amd_other"]
    assert stand_in.get_inputs() == [] and list(stand_in.KERNEL_REGISTRY) == [] and not len(stand_in.M)
    assert list(stand_in.KERNEL_REGISTRY.keys()) == [] and stand_in.CONFIGS["x"]["y"]() == []
    import triton.language.extra.cuda.inline_ptx_lib as helper

    assert getattr(helper, "MARK", None) in ("fork helper", None)  # the fork's unless Triton has its own


def test_other_tutorial_names_still_mean_ours(fork):
    public_check.install_fork_imports(fork)
    import tlx.tutorials.ws_gemm as ours

    assert ours.__name__ == "tlx.tutorials.ws_gemm"
