"""Test helpers shipped with TLX (used by its own test suite and by users' CI)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable


def fuzz_main(description: str, run: Callable[[int, int], dict[str, int]], default_count: int, argv=None) -> int:
    """The command line of a fuzzer: ``--count``, ``--seed``; prints one JSON line of ``run``'s outcomes."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--count", type=int, default=default_count)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    print(json.dumps({"seed": args.seed, "count": args.count, "outcomes": run(args.count, args.seed)}))
    return 0
