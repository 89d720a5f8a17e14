"""Bad input never takes the process down: random mutations of valid modules."""

import json
import os
import random
import subprocess
import sys

MUTATIONS = 10_000


def test_random_mutations_never_crash_the_process():
    seed = int(os.environ.get("TLX_FUZZ_SEED", random.SystemRandom().randrange(2**31)))
    # A child process: if the core aborted, this test sees an exit status instead of pytest dying.
    child = subprocess.run(
        [sys.executable, "-m", "tlx.testing.mutate", "--count", str(MUTATIONS), "--seed", str(seed)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert child.returncode == 0, f"seed {seed}: exit {child.returncode}\n{child.stderr[-4000:]}"
    report = json.loads(child.stdout.strip().splitlines()[-1])
    outcomes = report["outcomes"]
    print(f"seed {seed}: {outcomes}")
    assert sum(outcomes.values()) - outcomes.get("malformed-diagnostics", 0) == MUTATIONS
    # a caught assertion or signal is still a compiler bug: reproduce with TLX_FUZZ_SEED
    assert outcomes.get("rejected:internal", 0) == 0, f"seed {seed}: {outcomes}"
    assert outcomes.get("malformed-diagnostics", 0) == 0, f"seed {seed}: {outcomes}"
    assert outcomes.get("rejected:parse", 0) > MUTATIONS // 2, "mutations should mostly break the syntax"
    assert outcomes.get("accepted", 0) > 0, "some mutations should stay valid"
    assert "LLVM ERROR" not in child.stderr and "Assertion" not in child.stderr, child.stderr[-4000:]


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
