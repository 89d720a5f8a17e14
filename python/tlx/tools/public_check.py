"""The public TLX Hopper tutorials, unmodified, on this TLX (GPU machine).

    bash scripts/gpu.sh -- python3 -m tlx.tools.public_check --fork DIR

``DIR`` holds a checkout of facebookexperimental/triton, or at least its ``third_party/tlx/tutorials`` and
``third_party/nvidia/language/cuda`` (its PTX helper library), e.g. ``git -C <clone> archive HEAD
third_party/tlx/tutorials third_party/nvidia/language/cuda | tar -x -C DIR``, inside the repository (untracked)
so that the device runner carries it. Runs:

* the fork's own correctness tests of the Hopper tutorials (``testing/test_correctness.py -k hopper``: the
  pipelined and warp-specialized GEMMs, warp barriers, four flash-attention variants) as they are; that file
  imports every tutorial at its top, so one that does not import here (a Blackwell or AMD one) is replaced by
  a stand-in and listed;
* the three Hopper files whose ``test_op`` prints instead of asserting (the persistent cooperative and
  ping-pong GEMMs, every autotune configuration of each; ``vector-add2``), on fresh random inputs against a
  float64 (GEMM) or torch (vector add) reference.

The fork's ``triton.language.extra.tlx.tutorials.X`` names resolve to its files (``import tlx`` maps that
package to ``tlx.tutorials`` otherwise). Exit status 0 when everything passed.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import re
import sys
import traceback
import types
from collections.abc import Callable
from pathlib import Path

PREFIX = "triton.language.extra.tlx.tutorials."
PERSISTENT_GEMMS = ("hopper-persistent-gemm-ws-cooperative", "hopper-persistent-gemm-ws-pingpong")


class _ForkTutorials:
    """A meta path finder: ``triton.language.extra.tlx.tutorials.X[.Y]`` -> the fork's ``X[/Y].py``."""

    def __init__(self, tutorials: Path) -> None:
        self.tutorials = tutorials

    def find_spec(self, fullname: str, path=None, target=None):
        if not fullname.startswith(PREFIX):
            return None
        base = self.tutorials.joinpath(*fullname[len(PREFIX) :].split("."))
        if base.is_dir():
            spec = importlib.machinery.ModuleSpec(fullname, None, is_package=True)
            spec.submodule_search_locations = [str(base)]
            return spec
        if base.with_suffix(".py").exists():
            return importlib.util.spec_from_file_location(fullname, base.with_suffix(".py"))
        return None


def _load(name: str, path: Path) -> types.ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


class _Absent:
    """What a stand-in module's names are: nothing, in every use test_correctness makes of them at import and
    collection (called: an empty list of parameters; iterated: empty; an attribute or item: absent again)."""

    def __call__(self, *args, **kwargs) -> list:
        return []

    def __iter__(self):
        return iter(())

    def __len__(self) -> int:
        return 0

    def __getattr__(self, name: str) -> _Absent:
        if name.startswith("__"):
            raise AttributeError(name)
        return _Absent()

    def __getitem__(self, key) -> _Absent:
        return _Absent()


def _stand_in(name: str) -> types.ModuleType:
    module = types.ModuleType(name)
    module.__getattr__ = lambda attribute: _Absent()
    return module


def _tutorial_imports(source: str) -> set[str]:
    """The fork tutorial modules ``source`` imports: ``from <package>.X import ...`` and
    ``from <package> import X as Y``."""
    package = re.escape(PREFIX.rstrip("."))
    names = set(re.findall(rf"from ({package}\.[\w.]+) import", source))
    names |= {PREFIX + name for name in re.findall(rf"from {package} import (\w+)", source)}
    return names


def install_fork_imports(fork: Path) -> dict[str, str]:
    """Makes the fork's tutorial modules importable; returns those of test_correctness's imports that fail
    here (name -> first line of the error), each replaced by a stand-in."""
    import tlx  # noqa: F401  (triton.language.extra.tlx)

    tutorials = fork / "third_party/tlx/tutorials"
    sys.meta_path.insert(0, _ForkTutorials(tutorials))
    helper = "triton.language.extra.cuda.inline_ptx_lib"
    try:
        __import__(helper)
    except ImportError:
        _load(helper, fork / "third_party/nvidia/language/cuda/inline_ptx_lib.py")
    source = (tutorials / "testing/test_correctness.py").read_text()
    failed = {}
    for name in sorted(_tutorial_imports(source)):
        try:
            __import__(name)
        except Exception as error:  # noqa: BLE001  (any import-time failure of a fork module)
            failed[name] = f"{type(error).__name__}: {(str(error).splitlines() or [''])[0][:160]}"
            sys.modules[name] = _stand_in(name)
    return failed


def _check(results: list[tuple[str, bool]], label: str, body: Callable[[], None]) -> None:
    try:
        body()
        results.append((label, True))
    except Exception:  # noqa: BLE001  (reported, and the run goes on)
        traceback.print_exc()
        results.append((label, False))


def check_standalone(tutorials: Path) -> list[tuple[str, bool]]:
    import torch
    import triton

    results: list[tuple[str, bool]] = []
    for stem in PERSISTENT_GEMMS:
        module = _load(stem.replace("-", "_"), tutorials / f"{stem}.py")
        kernel = module.matmul_kernel_tlx_ws_persistent
        for config in list(kernel.configs):

            def gemm(config=config, module=module, kernel=kernel):
                kernel.configs = [config]
                kernel.cache.clear()
                triton.set_allocator(module.alloc_fn)
                a = torch.randn((module.M, module.K), dtype=torch.float16, device="cuda")
                b = torch.randn((module.K, module.N), dtype=torch.float16, device="cuda")
                out = module.matmul_tlx_ws_persistent(a, b)
                assert not out.isnan().any()
                torch.testing.assert_close(out.double(), a.double() @ b.double(), atol=0.25, rtol=1e-2)

            shown = ("BN", "NUM_STAGES", "USE_NAMED_BARRIER")
            named = " ".join(f"{k}={v}" for k, v in config.kwargs.items() if k in shown)
            _check(results, f"{stem} {module.M}x{module.N}x{module.K} {named}", gemm)
    module = _load("vector_add2", tutorials / "vector-add2.py")

    def vector_add():
        x, y, a, b = (torch.rand(98432, device="cuda") for _ in range(4))
        want = module.dual_add(x, y, a, b)
        for got in (module.add2(x, y, a, b), module.add2_warp_specialized(x, y, a, b)):
            for g, w in zip(got, want, strict=True):
                torch.testing.assert_close(g, w)

    _check(results, "vector-add2: add2, add2_warp_specialized", vector_add)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fork", type=Path, required=True, help="a checkout of facebookexperimental/triton")
    args = parser.parse_args()
    tutorials = args.fork / "third_party/tlx/tutorials"
    failed = install_fork_imports(args.fork)
    print(f"fork tutorial modules that do not import here ({len(failed)}, replaced by stand-ins):")
    for name, why in failed.items():
        print(f"  {name}: {why}")
    import pytest

    status = pytest.main(
        [str(tutorials / "testing/test_correctness.py"), "-k", "hopper", "-q", "-p", "no:cacheprovider", "-rf"]
    )
    results = check_standalone(tutorials)
    print(f"\nfork test_correctness.py -k hopper: pytest exit {int(status)}")
    print("standalone Hopper files:")
    for label, ok in results:
        print(f"  {'ok  ' if ok else 'FAIL'} {label}")
    return int(status != 0 or not all(ok for _, ok in results) or any("hopper" in n for n in failed))


if __name__ == "__main__":
    sys.exit(main())
