"""The kernel corpus: real kernels compiled by stock Triton 3.6 on the CPU, for sm_90 and sm_100.

``build_corpus()`` compiles every (kernel, arch) of :mod:`corpus.specs` with ``triton.compile`` (``ASTSource``
for ``@triton.jit`` kernels, Gluon's ``GluonASTSource`` for ``@gluon.jit`` ones) all the way to a cubin, so
each kernel is known to be valid for the arch it lists, and returns the TTIR and TTGIR texts as
:class:`Record` s. Gluon kernels start at TTGIR, so they give a ``ttgir`` record only.

Compiled texts are cached in a directory keyed by the triton version and a hash of the corpus sources
(``kernels.py``, ``gluon_kernels.py``, ``specs.py``; their line numbers are in the texts' locations), one
JSON file per (kernel, arch). A cold build runs on a process pool of ``os.cpu_count()`` workers; triton's own
cache goes to a throw-away directory so that "cold" means cold and ``~/.triton`` is left alone.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import json
import multiprocessing
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import triton

STAGES = ("ttir", "ttgir")


@dataclass(frozen=True)
class Record:
    """One module text of the corpus: ``stage`` is ``"ttir"`` or ``"ttgir"``."""

    name: str
    arch: int
    stage: str
    text: str

    @property
    def id(self) -> str:
        return f"{self.name}-sm{self.arch}-{self.stage}"


@dataclass
class BuildReport:
    compiled: int = 0
    cached: int = 0
    seconds: float = 0.0
    failures: dict | None = None


def _specs():
    from . import specs

    return specs


def corpus_key() -> str:
    """Hash of what every compiled text depends on: triton's version and the corpus sources."""
    h = hashlib.sha256(triton.__version__.encode())
    for path in _specs().source_files():
        h.update(Path(path).read_bytes())
    return h.hexdigest()[:16]


def default_cache_dir() -> Path:
    env = os.environ.get("TLX_CORPUS_CACHE")
    if env:
        return Path(env)
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return base / "tlx" / "corpus"


def _cache_dir(root: Path | str | None) -> Path:
    root = Path(root) if root is not None else default_cache_dir()
    key = corpus_key()
    path = root / f"triton-{triton.__version__}" / key
    path.mkdir(parents=True, exist_ok=True)
    for stale in path.parent.iterdir():  # entries of older corpus sources are never read again
        if stale.is_dir() and stale.name != key:
            shutil.rmtree(stale, ignore_errors=True)
    return path


def compile_spec(spec, arch: int, stages=STAGES) -> dict:
    """Compile one spec for one arch with stock triton; return ``{stage: text}`` for those of ``stages`` it has
    (``"ptx"`` and ``"cubin"`` too: every compile goes all the way to a cubin; the cubin is ``bytes``)."""
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    if spec.gluon:
        from triton.experimental.gluon._runtime import GluonASTSource as source_cls
    else:
        source_cls = ASTSource
    src = source_cls(spec.fn, spec.signature, spec.constexprs, spec.attrs)
    kernel = triton.compile(src, target=GPUTarget("cuda", arch, 32), options=spec.compile_options())
    return {stage: kernel.asm[stage] for stage in stages if stage in kernel.asm}


def _worker_compile(name: str, arch: int, out_path: str, triton_cache: str) -> tuple:
    """Process-pool entry: compile ``name`` for ``arch`` into ``out_path`` (JSON); return (name, arch, error)."""
    triton.knobs.cache.dir = triton_cache
    spec = {s.name: s for s in _specs().all_specs()}[name]
    start = time.perf_counter()
    try:
        texts = compile_spec(spec, arch)
    except Exception as error:  # report, do not kill the pool
        return name, arch, f"{type(error).__name__}: {error}"
    payload = {
        "name": name,
        "arch": arch,
        "triton": triton.__version__,
        "seconds": time.perf_counter() - start,
        "texts": texts,
    }
    tmp = f"{out_path}.tmp.{os.getpid()}"
    Path(tmp).write_text(json.dumps(payload))
    os.replace(tmp, out_path)
    return name, arch, None


def _result(future, name: str, arch: int) -> tuple:
    """A worker's result; a worker that died (stock triton aborts on some failed asserts) fails its kernels."""
    try:
        return future.result()
    except concurrent.futures.process.BrokenProcessPool as error:
        return name, arch, f"compiler process died (an abort in stock triton?): {error}"


def _entry_path(cache: Path, spec, arch: int) -> Path:
    return cache / f"{spec.name}.sm{arch}.{spec.key()[:12]}.json"


def build_corpus(
    cache_dir: Path | str | None = None,
    *,
    names=None,
    jobs: int | None = None,
    report: BuildReport | None = None,
    strict: bool = True,
) -> list:
    """Compile (or load from the cache) every (kernel, arch) of the corpus; return its records.

    ``names`` restricts the build to some kernels. With ``strict`` (the default) any compile failure raises
    ``RuntimeError`` listing every failure; otherwise failures are left out and put in ``report.failures``.
    """
    start = time.perf_counter()
    report = report if report is not None else BuildReport()
    cache = _cache_dir(cache_dir)
    specs = [s for s in _specs().all_specs() if names is None or s.name in names]
    todo = [(s, a) for s in specs for a in s.archs if not _entry_path(cache, s, a).exists()]
    failures = {}
    if todo:
        jobs = jobs or os.cpu_count() or 1
        with tempfile.TemporaryDirectory(prefix="tlx-corpus-triton-cache-") as triton_cache:
            if jobs == 1 or len(todo) == 1:
                results = [_worker_compile(s.name, a, str(_entry_path(cache, s, a)), triton_cache) for s, a in todo]
            else:
                ctx = multiprocessing.get_context("spawn")
                with concurrent.futures.ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
                    futures = [
                        pool.submit(_worker_compile, s.name, a, str(_entry_path(cache, s, a)), triton_cache)
                        for s, a in todo
                    ]
                    results = [_result(f, s.name, a) for f, (s, a) in zip(futures, todo, strict=True)]
        for name, arch, error in results:
            if error is not None:
                failures[f"{name}-sm{arch}"] = error
    report.compiled = len(todo) - len(failures)
    report.cached = sum(len(s.archs) for s in specs) - len(todo)
    report.failures = failures
    if failures and strict:
        lines = "\n".join(f"  {k}: {v}" for k, v in sorted(failures.items()))
        raise RuntimeError(f"{len(failures)} corpus kernel(s) failed to compile:\n{lines}")
    records = []
    for s in specs:
        for a in s.archs:
            path = _entry_path(cache, s, a)
            if not path.exists():
                continue
            texts = json.loads(path.read_text())["texts"]
            records.extend(Record(s.name, a, stage, texts[stage]) for stage in STAGES if stage in texts)
    report.seconds = time.perf_counter() - start
    return records


def kernel_table() -> list:
    """(name, archs, kind) for every kernel spec of the corpus."""
    return [(s.name, tuple(s.archs), "gluon" if s.gluon else "triton") for s in _specs().all_specs()]


__all__ = [
    "STAGES",
    "BuildReport",
    "Record",
    "build_corpus",
    "compile_spec",
    "corpus_key",
    "default_cache_dir",
    "kernel_table",
]
