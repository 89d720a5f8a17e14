"""Bad input never takes the process down: random mutations of valid modules."""

import collections
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

MUTATIONS = 10_000


def _run_fuzzer(module: str, count: int, *extra: str) -> tuple[int, dict[str, int], str]:
    """Run ``python -m tlx.testing.<module>`` in a child process (an abort in the core ends the child, not
    pytest): the seed (random, or TLX_FUZZ_SEED to reproduce), its outcomes and its stderr."""
    seed = int(os.environ.get("TLX_FUZZ_SEED", random.SystemRandom().randrange(2**31)))
    child = subprocess.run(
        [sys.executable, "-m", f"tlx.testing.{module}", "--count", str(count), "--seed", str(seed), *extra],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert child.returncode == 0, f"seed {seed}: exit {child.returncode}\n{child.stderr[-4000:]}"
    outcomes = json.loads(child.stdout.strip().splitlines()[-1])["outcomes"]
    print(f"seed {seed}: {outcomes}")
    return seed, outcomes, child.stderr


def test_random_mutations_never_crash_the_process():
    seed, outcomes, stderr = _run_fuzzer("mutate", MUTATIONS)
    assert sum(outcomes.values()) - outcomes.get("malformed-diagnostics", 0) == MUTATIONS
    # a caught assertion or signal is still a compiler bug: reproduce with TLX_FUZZ_SEED
    assert outcomes.get("rejected:internal", 0) == 0, f"seed {seed}: {outcomes}"
    assert outcomes.get("malformed-diagnostics", 0) == 0, f"seed {seed}: {outcomes}"
    assert outcomes.get("rejected:parse", 0) > MUTATIONS // 2, "mutations should mostly break the syntax"
    assert outcomes.get("accepted", 0) > 0, "some mutations should stay valid"
    assert "LLVM ERROR" not in stderr and "Assertion" not in stderr, stderr[-4000:]


def _nested_regions(depth: int) -> str:
    return "func.func @f() {\n" + "scf.execute_region {\n" * depth + "scf.yield\n}\n" * depth + "return\n}\n"


def _nested_types(depth: int) -> str:
    return "func.func @g(%a: " + "tensor<" * depth + "f32" + ">" * depth + ") {\n  return\n}\n"


def test_deep_nesting_is_a_parse_error_at_its_position_not_a_dead_process():
    # A child process: a stack overflow in the parser would end it, not pytest.
    code = """
import json, sys, tlx
out = []
for text in sys.stdin.read().split("\\0"):
    try:
        tlx.run_pipeline(text, "builtin.module(canonicalize)")
        out.append("accepted")
    except tlx.PipelineError as error:
        out.append([error.stage, error.diagnostics[0][2], error.diagnostics[0][4]])
print(json.dumps(out))
"""
    inputs = _nested_regions(20000) + "\0" + _nested_types(100000)
    child = subprocess.run([sys.executable, "-c", code], input=inputs, capture_output=True, text=True, timeout=300)
    assert child.returncode == 0, child.stderr[-4000:]
    (regions, types) = json.loads(child.stdout.strip().splitlines()[-1])
    assert regions[:2] == ["parse", 1001] and "more than 1000 levels deep" in regions[2], regions
    assert types[:2] == ["parse", 1] and "more than 1000 levels deep" in types[2], types


def test_nesting_within_the_limit_parses():
    import tlx

    tlx.run_pipeline(_nested_regions(900), "builtin.module(canonicalize)")


def test_tlx_opt_refuses_deep_nesting_from_a_file_and_from_stdin(tmp_path):
    from tlx.tools.tlx_opt import binary_path

    deep = tmp_path / "deep.mlir"
    deep.write_text(_nested_regions(5000))
    for args, stdin in (([str(deep)], None), ([], deep.read_text())):
        child = subprocess.run([str(binary_path()), *args], input=stdin, capture_output=True, text=True, timeout=120)
        assert child.returncode == 1, child.stderr[-2000:]
        assert ":1001:20: error: the input nests brackets more than 1000 levels deep" in child.stderr, child.stderr


NAME_SCOPE_INPUTS = 5_000


def test_names_used_outside_the_region_defining_them_never_crash_the_parser():
    seed, outcomes, stderr = _run_fuzzer("name_scopes", NAME_SCOPE_INPUTS)
    assert outcomes.get("rejected:internal", 0) == 0, f"seed {seed}: {outcomes} (reproduce with TLX_FUZZ_SEED)"
    assert "LLVM ERROR" not in stderr and "Assertion" not in stderr, stderr[-4000:]
    # The shape that aborted MLIR's parser is common here, and both outcomes occur.
    assert outcomes["shape:use-outside-inner-definition"] > NAME_SCOPE_INPUTS // 5, outcomes
    assert outcomes.get("accepted", 0) > 0 and outcomes.get("rejected:parse", 0) > 0, outcomes


@pytest.mark.parametrize(
    "opening,closing",
    [("builtin.module {", "}"), ("tlx.async_tasks {", "}"), ("tlx.async_task default {", "}")],
)
def test_a_use_resolved_into_a_region_cut_short_reports_the_real_error(opening, closing):
    import tlx

    text = f"%t = arith.negf %z : f32\n{opening}\n  %z = arith.constant 1.0 : f32\n^bb1:\n  bogus\n{closing}\n"
    with pytest.raises(tlx.PipelineError) as caught:
        tlx.run_pipeline(text, "builtin.module()")
    assert caught.value.stage == "parse", caught.value.diagnostics
    severity, _, line, column, message = caught.value.diagnostics[0]
    assert (severity, line, column) == ("error", 5, 3) and "'bogus'" in message, caught.value.diagnostics


def test_a_use_outside_the_region_defining_its_name_is_undeclared_at_the_use():
    import tlx

    text = """func.func @f() {
  %t = arith.negf %z : f32
  scf.execute_region {
    %z = arith.constant 1.0 : f32
    scf.yield
  }
  return
}
"""
    with pytest.raises(tlx.PipelineError) as caught:
        tlx.run_pipeline(text, "builtin.module()")
    assert caught.value.diagnostics[0][2:] == (2, 19, "use of undeclared SSA value name"), caught.value.diagnostics


def test_renaming_a_region_s_names_keeps_what_valid_ir_means():
    import tlx

    # `(%i)` of scf.forall reads as a use to the renaming, so the later `%i =` in @b is renamed there.
    text = """func.func @a(%n: index) {
  scf.forall (%i) in (%n) {
    %t = arith.index_cast %i : index to i32
  }
  return
}
func.func @b() -> index {
  %i = arith.constant 3 : index
  %j = arith.addi %i, %i : index
  return %j : index
}
"""
    distinct = text.replace("%i = arith.constant", "%k = arith.constant").replace("addi %i, %i", "addi %k, %k")
    assert "%k" in distinct
    assert tlx.run_pipeline(text, "builtin.module()") == tlx.run_pipeline(distinct, "builtin.module()")


# MLIR 22 accepts these names because the dialect is loaded, then aborts creating the op.
NAMELESS_GENERIC_OPS = ['"tt"()', '"arith."()', '"builtin"()', '"t\\74"()']


@pytest.mark.parametrize("op", NAMELESS_GENERIC_OPS)
def test_a_generic_op_named_by_its_dialect_alone_is_a_parse_error_at_its_position(op):
    import tlx

    text = f"func.func @f() {{\n  %0 = {op} : () -> i32\n  return\n}}\n"
    with pytest.raises(tlx.PipelineError) as caught:
        tlx.run_pipeline(text, "builtin.module()")
    assert caught.value.stage == "parse"
    assert caught.value.diagnostics[0][2:4] == (2, 8), caught.value.diagnostics
    assert "names no operation: a generic operation is named dialect.operation" in caught.value.diagnostics[0][4]


def test_tlx_opt_refuses_a_generic_op_named_by_its_dialect_alone(tmp_path):
    from tlx.tools.tlx_opt import binary_path

    source = tmp_path / "nameless.mlir"
    source.write_text('func.func @f() {\n  "tt"() : () -> ()\n  return\n}\n')
    child = subprocess.run([str(binary_path()), str(source)], capture_output=True, text=True, timeout=120)
    assert child.returncode == 1 and "LLVM ERROR" not in child.stderr, child.stderr
    assert f"{source}:2:3: error: 'tt' names no operation" in child.stderr, child.stderr
    # Where unregistered dialects are allowed, it is an op of one.
    child = subprocess.run(
        [str(binary_path()), str(source), "--allow-unregistered-dialect"], capture_output=True, text=True, timeout=120
    )
    assert child.returncode == 0 and '"tt"() : () -> ()' in child.stdout, child.stderr


def test_a_location_named_like_a_dialect_still_parses():
    import tlx

    text = '#l = loc("tt"("k.py":1:2))\nfunc.func @f() {\n  return loc("arith"(#l))\n}\n'
    assert "func.func @f()" in tlx.run_pipeline(text, "builtin.module()")


REPO = Path(__file__).resolve().parents[2]
FUZZ_SEEDS = sorted(str(p) for p in (REPO / "test" / "TLX").glob("*.mlir") if "invalid" not in p.name)
LIT_MODULES = sorted(
    str(p)
    for p in [*(REPO / "test").rglob("*.mlir"), *(REPO / "third_party" / "nvidia" / "test").rglob("*.mlir")]
    if "Output" not in p.parts
)
LIT_MUTATIONS = 5_000


def test_random_mutations_of_every_lit_module_never_crash_the_process():
    # Every op, type and attribute syntax the lit tests hold, valid and invalid, mutated.
    seed, outcomes, stderr = _run_fuzzer("mutate", LIT_MUTATIONS, *LIT_MODULES)
    assert len(LIT_MODULES) > 50
    assert outcomes.get("rejected:internal", 0) == 0, f"seed {seed}: {outcomes} (reproduce with TLX_FUZZ_SEED)"
    assert outcomes.get("malformed-diagnostics", 0) == 0, f"seed {seed}: {outcomes}"
    assert "LLVM ERROR" not in stderr and "Assertion" not in stderr, stderr[-4000:]
    assert outcomes.get("accepted", 0) > 0 and outcomes.get("rejected:pass", 0) > 0, outcomes


STRUCTURED_INPUTS = 10_000


def test_structured_fuzzing_reaches_every_tlx_pass_and_never_crashes():
    seed, outcomes, _ = _run_fuzzer("structured_fuzz", STRUCTURED_INPUTS, *FUZZ_SEEDS)
    total = sum(outcomes.values())
    reached = {
        "raise": total - outcomes.get("parse", 0),
        "checks": total - outcomes.get("parse", 0) - outcomes.get("raise", 0),
        "lowering": outcomes.get("lowering", 0) + outcomes.get("accepted", 0),
    }
    print(f"seed {seed}: {outcomes}; share reaching each step: " + str({k: v / total for k, v in reached.items()}))
    assert total == STRUCTURED_INPUTS
    assert outcomes.get("internal", 0) == 0, f"seed {seed}: {outcomes} (reproduce with TLX_FUZZ_SEED)"
    # Structure-aware: most inputs parse and get past the raise; many reach the lowering.
    assert reached["raise"] > 0.6 * total and reached["checks"] > 0.4 * total and reached["lowering"] > 0.3 * total
    assert all(outcomes.get(step, 0) > 0 for step in ("raise", "checks", "lowering", "accepted")), outcomes


def test_structured_mutations_keep_operand_segment_lists_short():
    """A seed's segment count may be huge (raise-carriers-invalid.mlir has tensor<4294967297xi32>): the fuzzer
    once built that many segments and took all of the machine's memory. (A million here: without the cap this
    fails, in megabytes.)"""
    from tlx.testing.structured_fuzz import _random_segments

    segments = _random_segments(random.Random(0), 10**6)
    assert len(re.search(r"dense<\[(.*)\]>", segments).group(1).split(",")) <= 16, segments[:200]


def test_tlx_opt_survives_structured_mutations(tmp_path):
    from tlx.compiler.pipeline import PIPELINE
    from tlx.language.contracts import contracts
    from tlx.testing.structured_fuzz import mutate, seeds_of
    from tlx.tools.tlx_opt import binary_path

    seed = int(os.environ.get("TLX_FUZZ_SEED", random.SystemRandom().randrange(2**31)))
    rng = random.Random(seed)
    modules = seeds_of([Path(p) for p in FUZZ_SEEDS])
    exits = collections.Counter()
    for index in range(200):
        path = tmp_path / f"input{index}.mlir"
        path.write_text(mutate(rng, rng.choice(modules), sorted(contracts())))
        child = subprocess.run(
            [str(binary_path()), str(path), f"--pass-pipeline={PIPELINE}", "-o", os.devnull],
            capture_output=True,
            text=True,
            timeout=120,
        )
        exits[child.returncode] += 1
        assert child.returncode in (0, 1), f"seed {seed}: {path.read_text()}\n{child.stderr[-3000:]}"
    print(f"seed {seed}: tlx-opt exit codes {dict(exits)}")


def test_failed_tlx_compiles_do_not_grow_the_process():
    """100 kernels rejected by the TLX pipeline (a verifier error at the user's line) in one process."""
    code = """
import gc, os, sys
sys.path.insert(0, sys.argv[1])
import test_misuse as t
from tlx.compiler import TLXCompilationError, frontend_ir, pipeline
texts = [frontend_ir(k, t.N) for k in (t.store_wrong_shape, t.alloc_over_shared_memory, t.dot_k8)]
def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
def fail_all():
    for text in texts:
        try:
            pipeline.run(text, kernel="k", source_name="k.mlir")
        except TLXCompilationError:
            continue
        raise AssertionError("compiled")
for _ in range(10):
    fail_all()
gc.collect()
before = rss()
for _ in range(34):
    fail_all()
gc.collect()
print(rss() - before)
"""
    child = subprocess.run(
        [sys.executable, "-c", code, str(Path(__file__).parent)], capture_output=True, text=True, timeout=300
    )
    assert child.returncode == 0, child.stderr[-4000:]
    growth = int(child.stdout.strip().splitlines()[-1])
    print(f"RSS growth over 102 failed TLX compiles: {growth / 1024:.0f} KB")
    assert growth < 2 << 20, growth


# ------------------------------------------------------------------------------ misuse of tlx ops, fuzzed

KERNEL_CHANGES = 300
#: Test modules whose `SPEC_*` kernels the fuzz pass mutates besides the tutorials': the ops no tutorial calls,
#: the public API's idiom (Hopper and Blackwell) and its names without a TLX op, tasks, storage aliasing, tcgen05,
#: tasks' register budgets.
SEED_MODULES = (
    "test_ops_ptx.py",
    "test_compat.py",
    "blackwell_idiom_kernels.py",
    "test_public_api_ops.py",
    "test_warp_specialization.py",
    "test_storage_alias.py",
    "test_blackwell.py",
    "test_warp_group_budgets.py",
)


def test_random_changes_to_tlx_calls_in_the_tutorials_fail_at_a_kernel_line():
    """One argument of one tlx.* call changed (tlx.testing.kernel_fuzz): a valid kernel or a compile error at a
    line, never an internal Python error, a bare RuntimeError or a dead compiler."""
    from tlx.testing.kernel_fuzz import BUGS

    seed = int(os.environ.get("TLX_FUZZ_SEED", random.SystemRandom().randrange(2**31)))
    child = subprocess.run(
        [
            *(sys.executable, "-m", "tlx.testing.kernel_fuzz", "--count", str(KERNEL_CHANGES), "--seed", str(seed)),
            *(arg for name in SEED_MODULES for arg in ("--seed-module", str(Path(__file__).parent / name))),
        ],
        capture_output=True,
        text=True,
        timeout=1200,
    )
    assert child.returncode == 0, f"seed {seed}: exit {child.returncode}\n{child.stderr[-4000:]}"
    report = json.loads(child.stdout.strip().splitlines()[-1])
    outcomes = report["outcomes"]
    print(f"seed {seed}: {outcomes}")
    bugs = [finding for finding in report["findings"] if finding["outcome"] in BUGS]
    assert not bugs, f"seed {seed} (reproduce with TLX_FUZZ_SEED): {json.dumps(bugs, indent=1)}"
    assert sum(outcomes.values()) == KERNEL_CHANGES
    assert outcomes.get("reported", 0) > KERNEL_CHANGES // 2 and outcomes.get("compiled", 0) > 0, outcomes


def test_kernel_fuzz_seeds_are_the_tutorials_and_the_modules_given():
    from tlx.testing import kernel_fuzz

    tutorials = kernel_fuzz.seeds()
    both = kernel_fuzz.seeds(modules=[Path(__file__).parent / "test_ops_ptx.py"])
    names = {(seed.module, seed.spec, seed.arch) for seed in tutorials}
    assert {("ws_gemm", "SPEC", 90), ("blackwell_gemm", "SPEC", 100), ("cluster_gemm", "SPEC", 90)} <= names
    added = {(seed.spec, seed.kernel) for seed in both} - {(seed.spec, seed.kernel) for seed in tutorials}
    assert ("SPEC_CLUSTER_MEMORY", "cluster_memory") in added and ("SPEC_GATHER_SCATTER", "gather_scatter") in added
    idiom = kernel_fuzz.seeds(
        "_idiom", [Path(__file__).parent / "test_compat.py", Path(__file__).parent / "blackwell_idiom_kernels.py"]
    )
    names = {(seed.module, seed.spec, seed.arch) for seed in idiom}
    assert ("blackwell_idiom_kernels", "SPEC_2CTA_WS_GEMM", 100) in names, names
    assert not any(seed.module == "test_compat" for seed in idiom)  # `only` picks modules by name
    compat = {
        (seed.spec, seed.arch) for seed in kernel_fuzz.seeds("compat", [Path(__file__).parent / "test_compat.py"])
    }
    assert {("SPEC_GEMM_CLUSTER", 90), ("SPEC_WARP_BARRIER_ON_THE_LEADER", 90)} <= compat, compat
    every = kernel_fuzz.seeds("test_", [Path(__file__).parent / name for name in SEED_MODULES])
    assert {name.removesuffix(".py") for name in SEED_MODULES if name.startswith("test_")} == {s.module for s in every}
    assert ("test_blackwell", "SPEC_TCGEN05_DOT", 100) in {(s.module, s.spec, s.arch) for s in every}  # its own arch


def test_kernel_fuzz_changes_one_tlx_call_of_the_kernel():
    import ast

    from tlx.testing import kernel_fuzz
    from tlx.tutorials import ws_gemm

    source = Path(ws_gemm.__file__).read_text()
    lines = source.splitlines()
    rng = random.Random(5)
    swaps = 0
    for _ in range(100):
        mutation = kernel_fuzz.mutate(rng, source, ws_gemm.SPEC["kernel"].fn.__name__)
        ast.parse(mutation.source)
        changed = mutation.source.splitlines()
        line = mutation.line
        assert changed[: line - 1] == lines[: line - 1]
        if mutation.after == "swapped":  # two neighbouring one-line statements, one calling a tlx op
            swaps += 1
            assert (
                changed[line - 1 : line + 1] == lines[line : line - 2 : -1] and changed[line + 1 :] == lines[line + 1 :]
            )
            assert "tlx." in lines[line - 1] + lines[line]
            continue
        assert mutation.before.startswith("tlx.") and (mutation.after.startswith("tlx.") or mutation.after == "None")
        assert mutation.before != mutation.after and mutation.after in changed[line - 1]
        assert mutation.before in ast.unparse(ast.parse(source))
    assert swaps > 0


def test_kernel_fuzz_tells_internal_errors_from_reported_ones():
    import triton
    from triton.compiler.errors import CompilationError

    from tlx.compiler import TLXCompilationError
    from tlx.testing import kernel_fuzz

    def raised_in(path, code, namespace=None):
        try:
            exec(compile(code, str(path), "exec"), {} if namespace is None else namespace)
        except Exception as error:
            wrapper = CompilationError("src", None, repr(error))
            wrapper.__cause__ = error
            return wrapper

    def raised_under(*paths):
        """The first path's function calls the next one's ..., the last one's asserts."""
        namespace = {}
        exec(compile("def f0():\n    assert False\n", str(paths[-1]), "exec"), namespace)
        for depth, path in enumerate(reversed(paths[:-1]), 1):
            exec(compile(f"def f{depth}():\n    f{depth - 1}()\n", str(path), "exec"), namespace)
        return raised_in(paths[0], f"f{len(paths) - 1}()", namespace)

    inside = kernel_fuzz.PACKAGE_DIR / "language" / "semantic.py"
    stock = Path(triton.__file__).parent / "language" / "semantic.py"
    generator = Path(triton.__file__).parent / "compiler" / "code_generator.py"
    assert kernel_fuzz.classify(raised_in(inside, "None.type"))[0] == "internal"
    # stock's bare assert reached through a tlx op is TLX's to check; reached from the kernel's own code, stock's
    assert kernel_fuzz.classify(raised_under(inside, stock))[0] == "internal"
    assert kernel_fuzz.classify(raised_under(inside, generator, stock))[0] == "reported"
    assert kernel_fuzz.classify(raised_in(inside, "raise ValueError('bad shape')"))[0] == "reported"
    binding = "raise TypeError('get_int32_attr(): incompatible function arguments. The following ...')"
    assert kernel_fuzz.classify(raised_in(inside, binding))[0] == "internal"
    assert kernel_fuzz.classify(raised_in(kernel_fuzz.TUTORIALS_DIR / "ws_gemm.py", "None.type"))[0] == "reported"
    assert kernel_fuzz.classify(None) == ("compiled", "")
    assert kernel_fuzz.classify(TLXCompilationError("k.py:3: error: stock Triton's TTGIR passes failed"))[0] == "late"
    assert kernel_fuzz.classify(TLXCompilationError("k.py:3: tlx.local_view: bad"))[0] == "reported"
    assert kernel_fuzz.classify(RuntimeError("PassManager::run failed"))[0] == "escaped"
    stock = "k.py:9:29: error: 'arith.cmpi' op requires all operands to have the same type\n"
    detail = "RuntimeError: error encountered during parsing"
    assert kernel_fuzz._stock_frontend(stock, detail)[0] == "stock-frontend"
    assert kernel_fuzz._stock_frontend("k.py:9:29: error: 'tt.call' op bad\n", detail)[0] == "escaped"


@pytest.mark.parametrize(
    "source, timeout, outcome",
    [("import os\nos._exit(3)\n", 120, "crashed"), ("import time\ntime.sleep(60)\n", 5, "hung")],
)
def test_kernel_fuzz_counts_a_dead_or_stuck_compiler(tmp_path, source, timeout, outcome):
    from tlx.testing.kernel_fuzz import _Worker
    from tlx.tutorials import ws_gemm

    worker = _Worker(tmp_path)
    try:
        job = {"source": source, "module": "ws_gemm", "beside": ".", "spec": "SPEC", "arch": 90}
        assert worker.run(job, timeout)[0] == outcome
        # a fresh worker takes over
        assert worker.run({**job, "source": Path(ws_gemm.__file__).read_text()}, 300) == ("compiled", "")
    finally:
        worker.close()
