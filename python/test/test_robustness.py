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
