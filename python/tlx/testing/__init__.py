"""Test helpers shipped with TLX (used by its own test suite and by users' CI)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path


def fuzz_main(
    description: str,
    run: Callable[..., dict[str, int]],
    default_count: int,
    argv: list[str] | None = None,
    takes_modules: bool = False,
) -> int:
    """The command line of a fuzzer: ``--count``, ``--seed`` (and IR files to start from where it
    ``takes_modules``); prints one JSON line of ``run``'s outcomes."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--count", type=int, default=default_count)
    parser.add_argument("--seed", type=int, default=0)
    if takes_modules:
        parser.add_argument("modules", nargs="*", type=Path, help="more modules to mutate (`// -----` splits a file)")
    args = parser.parse_args(argv)
    extra = (args.modules,) if takes_modules else ()
    print(json.dumps({"seed": args.seed, "count": args.count, "outcomes": run(args.count, args.seed, *extra)}))
    return 0
