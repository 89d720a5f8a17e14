"""Misuse of tlx ops, fuzzed: random changes to the arguments of ``tlx.*`` calls in the tutorials, compiled on
the CPU, must compile or fail with a compile error at a kernel line, never with an internal error or a dead
process.

    python -m tlx.testing.kernel_fuzz --count 200 --seed 1234 [--only ws_gemm] [--keep DIR]
        [--seed-module python/test/test_ops_ptx.py]

Each input takes one tutorial module (or a ``--seed-module``: any module of ``SPEC*`` dicts in a tutorial's
form) and one of its ``SPEC`` s (``blackwell_*`` modules' for sm_100, the others' for sm_90), picks one
``tlx.*`` call in a ``@triton.jit`` function the spec's kernel reaches, changes one thing in its arguments
(an integer, a dtype, a tuple's length, an argument dropped, swapped, replaced by another name of the
function or by a value of the wrong kind, a keyword of the op's signature added), or calls another tlx op
with them, or drops the call (``None`` in its place), or swaps a one-line statement calling a tlx op with
its neighbour, and compiles the changed module's spec in a worker process. Outcomes:

* ``compiled``: the change was still a valid kernel (or sat in a branch the trace does not take);
* ``reported``: a ``CompilationError`` at a line of the kernel (Triton's frontend or TLX's own checks);
* ``late``: stock Triton's passes failed on what TLX made of the kernel, translated to the kernel line by
  ``tlx.compiler.stock_errors``: at the line, but a check TLX should have made before lowering;
* ``internal``: the compile error wraps an ``AssertionError``, ``AttributeError``, ``IndexError``,
  ``KeyError``, ... or a C++ binding's refusal of its arguments, raised inside TLX's Python package (or
  in stock Triton code a TLX op called): misuse reached code that assumed valid input;
* ``stock-frontend``: stock Triton's frontend built a module that does not verify and raised a bare
  ``RuntimeError`` ("error encountered during parsing"), its first diagnostic about a stock op (e.g. ``x[:, :,
  None]`` on a 1-D tensor: stock Triton 3.6 does the same without TLX);
* ``escaped``: any other exception than a ``CompilationError`` left ``triton.compile``;
* ``crashed`` / ``hung``: the worker died or took longer than ``--timeout`` seconds.

``late`` and ``stock-frontend`` are findings to read; the others after ``reported`` are bugs (``BUGS``). The
last line printed is JSON: the seed, the count, the outcomes and, for every outcome but the first two, a
finding that says which change to which line gave what (``--keep`` also writes the changed module there;
``--replay`` compiles such a module again and shows the whole error).
"""

from __future__ import annotations

import argparse
import ast
import collections
import copy
import dataclasses
import importlib
import importlib.util
import inspect
import json
import os
import pkgutil
import random
import select
import subprocess
import sys
import tempfile
import traceback
import types
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import tlx
import tlx.tutorials

from .structured_fuzz import INTERESTING_INTS

#: Outcomes that are not findings.
EXPECTED = ("compiled", "reported")
#: Findings that are bugs (in TLX, or in how TLX reports stock Triton's failures).
BUGS = ("internal", "escaped", "crashed", "hung")
#: What stock Triton's frontend raises when the module it built does not verify.
STOCK_FRONTEND_FAILURE = "RuntimeError: error encountered during parsing"

DTYPES = (
    "int1",
    "int8",
    "uint8",
    "int16",
    "int32",
    "int64",
    "float8e4nv",
    "float8e5",
    "float16",
    "bfloat16",
    "float32",
    "float64",
)
#: Values of the wrong kind for an argument: ``ast`` expressions as source text.
FOREIGN_VALUES = ("0", "-1", "1.5", "None", "True", "'text'", "(1, 2)", "[]", "tl.float32", "tlx.storage_kind.tmem")

#: Exception types Python raises by itself when code meets a value it did not expect.
INTERNAL_TYPES = (
    AssertionError,
    AttributeError,
    IndexError,
    KeyError,
    ZeroDivisionError,
    UnboundLocalError,
    RecursionError,
    OverflowError,
)

PACKAGE_DIR = Path(tlx.__file__).resolve().parent
TUTORIALS_DIR = Path(tlx.tutorials.__file__).resolve().parent
#: In TLX's package but not the compiler: the tutorials (user code) and the testing helpers.
NOT_THE_COMPILER = (TUTORIALS_DIR, Path(__file__).resolve().parent)


@dataclasses.dataclass(frozen=True)
class Seed:
    """A spec to mutate: ``<module>.<spec>`` of the module at ``path``, whose kernel is ``kernel``, compiled
    for ``arch``."""

    module: str
    path: Path
    spec: str
    kernel: str
    arch: int


def _arch(module_name: str) -> int:
    """The target of a seed module's specs: sm_100 for a ``blackwell_*`` module, else sm_90."""
    return 100 if module_name.startswith("blackwell_") else 90


def _load(path: Path, name: str, beside: Path) -> types.ModuleType:
    """The module at ``path``, run as ``sys.modules[name]`` with ``beside`` on ``sys.path`` (the seed module's
    folder, for what it imports from there)."""
    if str(beside) not in sys.path:
        sys.path.insert(0, str(beside))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def seeds(only: str | None = None, modules: Sequence[Path] = ()) -> list[Seed]:
    """Every ``SPEC*`` dict of every tutorial module and of ``modules`` (``only``: of the modules whose name
    contains it). A spec compiles for its ``arch``, else a ``blackwell_*`` module's for sm_100 and the others'
    for sm_90."""
    found = []
    tutorials = [
        (info.name, TUTORIALS_DIR / f"{info.name}.py", importlib.import_module(f"tlx.tutorials.{info.name}"))
        for info in pkgutil.iter_modules([str(TUTORIALS_DIR)])
        if not only or only in info.name
    ]
    others = [
        (path.stem, path.resolve(), _load(path.resolve(), f"tlx_fuzz_seed_{path.stem}", path.resolve().parent))
        for path in modules
        if not only or only in path.stem
    ]
    for name, path, module in tutorials + others:
        for spec_name, value in vars(module).items():
            if spec_name.startswith("SPEC") and isinstance(value, dict) and "kernel" in value:
                found.append(Seed(name, path, spec_name, value["kernel"].fn.__name__, value.get("arch", _arch(name))))
    return found


# ---------------------------------------------------------------------------------------------- mutations


@dataclasses.dataclass(frozen=True)
class Mutation:
    """A changed module: its text, and which call changed how (for the report)."""

    source: str
    line: int
    before: str
    after: str

    def describe(self) -> str:
        return f"line {self.line}: {self.before}  ->  {self.after}"


def _is_jit(function: ast.FunctionDef) -> bool:
    return any("jit" in ast.unparse(decorator) for decorator in function.decorator_list)


def _reachable(functions: dict[str, ast.FunctionDef], root: str) -> list[ast.FunctionDef]:
    """The jit functions ``root`` calls, transitively, by name (``root`` included)."""
    seen, todo = set(), [root]
    while todo:
        name = todo.pop()
        if name in seen or name not in functions:
            continue
        seen.add(name)
        for node in ast.walk(functions[name]):
            if isinstance(node, ast.Name) and node.id in functions:
                todo.append(node.id)
    return [functions[name] for name in sorted(seen)]


def _tlx_op(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "tlx":
        return func.attr
    return None


def _argument_nodes(call: ast.Call) -> list[ast.expr]:
    return [*call.args, *(keyword.value for keyword in call.keywords)]


def _inside(call: ast.Call, kind: type | tuple[type, ...]) -> list[ast.AST]:
    return [node for value in _argument_nodes(call) for node in ast.walk(value) if isinstance(node, kind)]


def _replace_node(call: ast.Call, old: ast.AST, new: ast.AST) -> None:
    """Put ``new`` where ``old`` is in ``call`` 's arguments."""
    for parent in ast.walk(call):
        for field, value in ast.iter_fields(parent):
            if value is old:
                setattr(parent, field, new)
                return
            if isinstance(value, list) and any(item is old for item in value):
                value[next(i for i, item in enumerate(value) if item is old)] = new
                return


def _int_literal(rng: random.Random, call: ast.Call, _: list[str]) -> bool:
    ints = [n for n in _inside(call, ast.Constant) if type(n.value) is int]
    if not ints:
        return False
    node = rng.choice(ints)
    node.value = rng.choice((*INTERESTING_INTS, node.value * 2, node.value // 2 if node.value else 3, node.value + 1))
    return True


def _bool_literal(rng: random.Random, call: ast.Call, _: list[str]) -> bool:
    bools = [n for n in _inside(call, ast.Constant) if type(n.value) is bool]
    if not bools:
        return False
    node = rng.choice(bools)
    node.value = not node.value
    return True


def _dtype(rng: random.Random, call: ast.Call, _: list[str]) -> bool:
    dtypes = [n for n in _inside(call, ast.Attribute) if n.attr in DTYPES]
    if not dtypes:
        return False
    node = rng.choice(dtypes)
    node.attr = rng.choice([d for d in DTYPES if d != node.attr])
    return True


def _sequence_length(rng: random.Random, call: ast.Call, _: list[str]) -> bool:
    sequences = [n for n in _inside(call, (ast.Tuple, ast.List)) if n.elts]
    if not sequences:
        return False
    node = rng.choice(sequences)
    index = rng.randrange(len(node.elts))
    choice = rng.random()
    if choice < 0.4:
        del node.elts[index]
    elif choice < 0.8:
        node.elts.insert(index, copy.deepcopy(node.elts[index]))
    else:
        node.elts.clear()
    return True


def _drop_argument(rng: random.Random, call: ast.Call, _: list[str]) -> bool:
    slots = [("args", i) for i in range(len(call.args))] + [("keywords", i) for i in range(len(call.keywords))]
    if not slots:
        return False
    field, index = rng.choice(slots)
    del getattr(call, field)[index]
    return True


def _swap_arguments(rng: random.Random, call: ast.Call, _: list[str]) -> bool:
    if len(call.args) < 2:
        return False
    i, j = rng.sample(range(len(call.args)), 2)
    call.args[i], call.args[j] = call.args[j], call.args[i]
    return True


def _other_name(rng: random.Random, call: ast.Call, names: list[str]) -> bool:
    used = [n for n in _inside(call, ast.Name) if n.id not in ("tl", "tlx", "triton")]
    if not used or len(names) < 2:
        return False
    node = rng.choice(used)
    node.id = rng.choice([name for name in names if name != node.id])
    return True


def _foreign_value(rng: random.Random, call: ast.Call, _: list[str]) -> bool:
    arguments = _argument_nodes(call)
    if not arguments:
        return False
    _replace_node(call, rng.choice(arguments), ast.parse(rng.choice(FOREIGN_VALUES), mode="eval").body)
    return True


def _extra_keyword(rng: random.Random, call: ast.Call, names: list[str]) -> bool:
    op = getattr(tlx, _tlx_op(call) or "", None)
    try:
        parameters = list(inspect.signature(op).parameters.values())
    except (TypeError, ValueError):
        return False
    given = {keyword.arg for keyword in call.keywords}
    free = [
        p.name
        for p in parameters[len(call.args) :]
        if p.name not in given and not p.name.startswith("_") and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
    ]
    if not free:
        return False
    value = rng.choice([*FOREIGN_VALUES, *names]) if names else rng.choice(FOREIGN_VALUES)
    call.keywords.append(ast.keyword(arg=rng.choice(free), value=ast.parse(value, mode="eval").body))
    return True


def _device_ops() -> list[str]:
    """The tlx names a kernel calls: the builtin ops, and ``reuse_group`` (host helpers such as
    ``run_pipeline`` and classes such as ``CLCPipelineContext``, which ops build, are left out: stock Triton's
    dependency scan rejects a call of a plain Python function itself)."""
    builtins = [name for name in tlx.__all__ if getattr(getattr(tlx, name), "__triton_builtin__", False)]
    return [name for name in builtins if name[0].islower()] + ["reuse_group"]


def _other_op(rng: random.Random, call: ast.Call, _: list[str]) -> bool:
    """Another tlx op with the same arguments (``barrier_arrive`` for ``barrier_wait``, ...)."""
    call.func.attr = rng.choice([op for op in _device_ops() if op != call.func.attr])
    return True


MUTATORS: tuple[Callable[[random.Random, ast.Call, list[str]], bool], ...] = (
    _int_literal,
    _int_literal,
    _bool_literal,
    _dtype,
    _sequence_length,
    _drop_argument,
    _swap_arguments,
    _other_name,
    _other_name,
    _foreign_value,
    _extra_keyword,
    _other_op,
)


def _names_of(function: ast.FunctionDef) -> list[str]:
    """The parameters of ``function`` and the names it assigns."""
    names = {arg.arg for arg in function.args.args}
    names.update(n.id for n in ast.walk(function) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
    return sorted(names)


def _offset(lines: list[bytes], line: int, column: int) -> int:
    """The character offset of ``ast`` 's (1-based line, UTF-8 byte column) in the joined text."""
    return sum(len(text.decode()) for text in lines[: line - 1]) + len(lines[line - 1][:column].decode())


def _swap_statements(rng: random.Random, source: str, functions: list[ast.FunctionDef]) -> Mutation | None:
    """A one-line statement calling a tlx op traded places with the one-line statement before or after it (a
    barrier wait after the load it guards, an arrive before the store it publishes)."""
    pairs = []
    for function in functions:
        for block in ast.walk(function):
            body = getattr(block, "body", None)
            if not isinstance(body, list):
                continue
            for first, second in zip(body, body[1:], strict=False):
                one_line = first.lineno == first.end_lineno and second.lineno == second.end_lineno
                calls_tlx = any(isinstance(n, ast.Call) and _tlx_op(n) for s in (first, second) for n in ast.walk(s))
                if one_line and calls_tlx and second.lineno == first.lineno + 1:
                    pairs.append(first.lineno)
    if not pairs:
        return None
    line = rng.choice(pairs)
    lines = source.splitlines(keepends=True)
    before, after = lines[line - 1], lines[line]
    lines[line - 1], lines[line] = after, before
    return Mutation("".join(lines), line, before.strip() + " / " + after.strip(), "swapped")


def mutate(rng: random.Random, source: str, kernel_name: str) -> Mutation | None:
    """One change to one ``tlx.*`` call reachable from ``kernel_name`` in ``source``; None when the module
    has no such call."""
    tree = ast.parse(source)
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef) and _is_jit(node)}
    sites = [
        (function, node)
        for function in _reachable(functions, kernel_name)
        for node in ast.walk(function)
        if isinstance(node, ast.Call) and _tlx_op(node)
    ]
    if not sites:
        return None
    if rng.random() < 0.1:
        swapped = _swap_statements(rng, source, _reachable(functions, kernel_name))
        if swapped is not None:
            return swapped
    for _ in range(20):
        function, call = rng.choice(sites)
        changed = copy.deepcopy(call)
        if rng.random() < 0.05:  # the call gone: its statement does nothing, its value is None
            changed = ast.Constant(None)
        elif not rng.choice(MUTATORS)(rng, changed, _names_of(function)):
            continue
        before, after = ast.unparse(call), ast.unparse(changed)
        if before == after:
            continue
        lines = source.encode().splitlines(keepends=True)
        start = _offset(lines, call.lineno, call.col_offset)
        end = _offset(lines, call.end_lineno, call.end_col_offset)
        return Mutation(source[:start] + after + source[end:], call.lineno, before, after)
    return None


# ------------------------------------------------------------------------------------------------- worker


def _innermost(error: BaseException) -> BaseException:
    """The exception at the bottom of ``error`` 's chain (causes, and contexts not suppressed)."""
    seen = set()
    while id(error) not in seen:
        seen.add(id(error))
        below = error.__cause__ or (None if error.__suppress_context__ else error.__context__)
        if below is None:
            break
        error = below
    return error


def _raised_in_tlx(error: BaseException) -> str | None:
    """``file:line`` of the TLX frame (tutorials aside) ``error`` was raised in or under, None when it was
    raised by stock Triton code that the kernel called itself (the code generator's frame comes first)."""
    for frame in reversed(traceback.extract_tb(error.__traceback__)):
        path = Path(frame.filename).resolve()
        if path.is_relative_to(PACKAGE_DIR) and not any(path.is_relative_to(d) for d in NOT_THE_COMPILER):
            return f"{path.relative_to(PACKAGE_DIR.parent)}:{frame.lineno}"
        if path.name == "code_generator.py":
            return None
    return None


def _from_a_binding(error: BaseException) -> bool:
    """A C++ builder refused its arguments (pybind11's TypeError): a value reached it unchecked."""
    return isinstance(error, TypeError) and "incompatible function arguments" in str(error)


def classify(error: BaseException | None) -> tuple[str, str]:
    """The outcome of one compile and what to say about it."""
    from triton.compiler.errors import CompilationError

    from tlx.compiler.errors import TLXCompilationError

    if error is None:
        return "compiled", ""
    first_line = (str(error).strip().splitlines() or [""])[0][:300]
    if isinstance(error, TLXCompilationError):
        return ("late" if "stock Triton's" in str(error) else "reported"), first_line
    if isinstance(error, CompilationError):
        cause = _innermost(error)
        where = _raised_in_tlx(cause)
        said = f"{type(cause).__name__}: {str(cause).strip()[:200]}" + (f" (raised at {where})" if where else "")
        internal = isinstance(cause, INTERNAL_TYPES) or _from_a_binding(cause)
        return ("internal" if where and internal else "reported"), said
    where = _raised_in_tlx(error)
    return "escaped", f"{type(error).__name__}: {str(error)[:300]}" + (f" (raised at {where})" if where else "")


def _compile(job: dict, directory: Path, index: int) -> tuple[str, str]:
    from tlx.tutorials import compile_tutorial

    name = f"tlx_fuzz_{job['module']}_{index}"
    path = directory / f"{name}.py"
    path.write_text(job["source"])
    try:
        module = _load(path, name, Path(job["beside"]))
        compile_tutorial(getattr(module, job["spec"]), job["arch"])
        error = None
    except Exception as caught:  # the classification is the point: every exception is an outcome
        error = caught
    finally:
        sys.modules.pop(name, None)
    return classify(error)


def worker(directory: Path) -> int:
    """Compile the jobs read from stdin (one JSON line each) with their modules in ``directory``, answer one
    JSON line each on stdout."""
    # A kernel may print while it is traced (a mutated static_print): only answers go to the driver.
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "w")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    sys.stdout = sys.stderr
    for index, line in enumerate(sys.stdin):
        outcome, detail = _compile(json.loads(line), directory, index)
        answers.write(json.dumps({"outcome": outcome, "detail": detail}) + "\n")
        answers.flush()
    return 0


def replay(path: Path) -> int:
    """Compile a module ``--keep`` wrote (``<seed>-<index>-<module>.<SPEC>.py``) and show the whole error."""
    from tlx.tutorials import compile_tutorial

    module_name, spec_name = path.stem.split("-", 2)[2].split(".")
    module = _load(path, f"tlx_fuzz_replay_{module_name}", path.parent)
    try:
        compile_tutorial(getattr(module, spec_name), _arch(module_name))
    except Exception as error:  # shown, then classified as the fuzzer does
        traceback.print_exception(error)
        print(classify(error))
        return 1
    print(classify(None))
    return 0


# ------------------------------------------------------------------------------------------------- driver


def _stock_frontend(printed: str, detail: str) -> tuple[str, str]:
    """``stock-frontend`` when the first error stock's frontend printed is about a stock op, else ``escaped``."""
    error = next((line for line in printed.splitlines() if ": error: " in line), "")
    about_tlx = "tlx" in error.split(": error: ", 1)[-1] or "'tt.call'" in error
    return ("escaped" if about_tlx or not error else "stock-frontend"), f"{detail}: {error[:300]}"


class _Worker:
    """A worker process; restarted after it dies or hangs. Everything it writes stays in ``directory``: the
    changed modules, Triton's cache, the stock-error files of failed compiles, its stderr."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.stderr_path = directory / "worker.stderr"
        self.process: subprocess.Popen | None = None

    def _start(self) -> subprocess.Popen:
        scratch = Path(tempfile.mkdtemp(prefix="worker-", dir=self.directory))
        environment = dict(os.environ, TRITON_CACHE_DIR=str(scratch / "triton-cache"), TMPDIR=str(scratch))
        self.stderr = open(self.stderr_path, "w")  # noqa: SIM115 (lives as long as the process)
        return subprocess.Popen(
            [sys.executable, "-m", "tlx.testing.kernel_fuzz", "--worker", str(scratch)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            text=True,
            env=environment,
        )

    def run(self, job: dict, timeout: float) -> tuple[str, str]:
        if self.process is None or self.process.poll() is not None:
            self.process = self._start()
        printed_before = self.stderr_path.stat().st_size
        self.process.stdin.write(json.dumps(job) + "\n")
        self.process.stdin.flush()
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        answer = self.process.stdout.readline() if ready else ""
        if answer:
            result = json.loads(answer)
            if result["outcome"] == "escaped" and result["detail"].startswith(STOCK_FRONTEND_FAILURE):
                with open(self.stderr_path, errors="replace") as printed:
                    printed.seek(printed_before)
                    return _stock_frontend(printed.read(), result["detail"])
            return result["outcome"], result["detail"]
        if not ready:
            self.process.kill()
        status = self.process.wait()
        self.stderr.close()
        tail = self.stderr_path.read_text(errors="replace").strip().splitlines()[-3:]
        self.process = None
        return ("hung", f"no answer in {timeout:.0f} s") if not ready else ("crashed", f"exit {status}: {tail}")

    def close(self) -> None:
        if self.process is not None:
            self.process.stdin.close()
            self.process.wait()
            self.stderr.close()


def jobs(count: int, seed: int, only: str | None, modules: Sequence[Path] = ()) -> Iterator[tuple[Seed, Mutation]]:
    """``count`` mutations, the same for the same ``seed``."""
    rng = random.Random(seed)
    candidates = seeds(only, modules)
    sources = {s.path: s.path.read_text() for s in candidates}
    made = 0
    while made < count:
        target = rng.choice(candidates)
        mutation = mutate(rng, sources[target.path], target.kernel)
        if mutation is not None:
            made += 1
            yield target, mutation


def run(
    count: int,
    seed: int,
    only: str | None = None,
    keep: Path | None = None,
    timeout: float = 300,
    modules: Sequence[Path] = (),
) -> dict:
    outcomes: collections.Counter[str] = collections.Counter()
    findings = []
    with tempfile.TemporaryDirectory(prefix="tlx-kernel-fuzz-") as directory:
        worker_process = _Worker(Path(directory))
        try:
            for index, (target, mutation) in enumerate(jobs(count, seed, only, modules)):
                job = {
                    "source": mutation.source,
                    "module": target.module,
                    "beside": str(target.path.parent),
                    "spec": target.spec,
                    "arch": target.arch,
                }
                outcome, detail = worker_process.run(job, timeout)
                outcomes[outcome] += 1
                if (index + 1) % 100 == 0:
                    print(f"{index + 1}/{count}: {dict(outcomes)}", file=sys.stderr, flush=True)
                if outcome in EXPECTED:
                    continue
                finding = {
                    "index": index,
                    "outcome": outcome,
                    "tutorial": f"{target.module}.{target.spec} (sm_{target.arch})",
                    "change": mutation.describe(),
                    "detail": detail,
                }
                if keep is not None:
                    keep.mkdir(parents=True, exist_ok=True)
                    path = keep / f"{seed}-{index}-{target.module}.{target.spec}.py"
                    path.write_text(mutation.source)
                    finding["kept"] = str(path)
                findings.append(finding)
        finally:
            worker_process.close()
    return {"seed": seed, "count": count, "outcomes": dict(outcomes), "findings": findings}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", help="seed modules whose name contains this")
    parser.add_argument(
        "--seed-module", type=Path, action="append", default=[], help="a module of SPEC dicts to mutate too"
    )
    parser.add_argument("--keep", type=Path, help="write each finding's changed module here")
    parser.add_argument("--timeout", type=float, default=300, help="seconds one compile may take")
    parser.add_argument(
        "--replay",
        type=Path,
        help="compile one module --keep wrote and show its error (a --seed-module's folder on PYTHONPATH)",
    )
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return worker(args.worker)
    if args.replay:
        return replay(args.replay)
    print(json.dumps(run(args.count, args.seed, args.only, args.keep, args.timeout, args.seed_module)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
