"""Structure-aware fuzzing of the TLX passes: mutations that keep IR parseable and reach the passes.

    python -m tlx.testing.structured_fuzz --count 10000 --seed 1234 SEED.mlir [SEED.mlir ...]

The seeds are modules with TLX carriers or TLX dialect ops (``// -----`` splits a file into several).
Each input mutates one seed in one to three places a pass reads: carrier attribute values (ints,
``tlx.type`` texts, operand segments), the carried op's name, operands of one carrier, whole carrier or
TLX op lines, sizes in TLX types, constant operands. Every input goes through the TLX pipeline in three
steps (raise, checks, lowering), so the report says how far inputs got: one JSON line with the count of
inputs stopped at each step, and ``internal`` for any caught assertion or signal (a compiler bug). Run
it in a child process: a core that took the process down shows as its exit status.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import re
import sys
from pathlib import Path

from .. import _C
from ..compiler.pipeline import PASSES
from ..language.contracts import contracts

#: The pipeline in three steps: carriers -> TLX ops, the checks, the lowering.
STEPS = (
    ("raise", [p for p in PASSES if p == "tlx-raise-carriers"]),
    ("checks", [p for p in PASSES if p.startswith("tlx-check-")]),
    ("lowering", [p for p in PASSES if p != "tlx-raise-carriers" and not p.startswith("tlx-check-")]),
)

INTERESTING_INTS = (-(2**31), -1, 0, 1, 2, 3, 7, 8, 15, 16, 31, 32, 64, 255, 256, 1024, 65536, 2**31 - 1, 2**40)

_INT_ATTR = re.compile(r"(\b(?:tlx\.\w+|arrive_count|pendings|count) = )(-?\d+)")
_TYPE_TEXT = re.compile(r'tlx\.type = "([^"]*)"')
_OP_NAME = re.compile(r'(tlx\.op = ")(\w+)(")')
_SEGMENTS = re.compile(r"tlx\.operand_segments = dense<([^>]*)> : tensor<(\d+)xi32>")
_TLX_TYPE = re.compile(r"!tlx\.(?:buffers|mbarriers|buffer)<[^>]*>")
_CONSTANT = re.compile(r"(arith\.constant )(-?\d+)( : i32)")
_CALL_OPERANDS = re.compile(r"(tt\.call @[\w.$-]+\()([^)]*)(\))")
_TLX_OP = re.compile(r"\btlx\.([a-z_]+)\b")


def seeds_of(paths: list[Path]) -> list[str]:
    """The modules of seed files (split at ``// -----``), RUN/CHECK comment lines dropped."""
    modules = []
    for path in paths:
        for part in path.read_text().split("// -----"):
            text = "\n".join(line for line in part.splitlines() if not line.lstrip().startswith("//"))
            if "tlx." in text:
                modules.append(text + "\n")
    return modules


def _number(rng: random.Random) -> int:
    return rng.choice(INTERESTING_INTS) if rng.random() < 0.7 else rng.randrange(-100, 5000)


def _replace_one(rng: random.Random, pattern: re.Pattern, text: str, replace) -> str | None:
    matches = list(pattern.finditer(text))
    if not matches:
        return None
    match = rng.choice(matches)
    return text[: match.start()] + replace(match) + text[match.end() :]


def _mutate_numbers_in(rng: random.Random, snippet: str) -> str:
    numbers = list(re.finditer(r"\d+", snippet))
    if not numbers:
        return snippet
    match = rng.choice(numbers)
    return snippet[: match.start()] + str(abs(_number(rng))) + snippet[match.end() :]


def _drop_line(rng: random.Random, text: str) -> str | None:
    lines = text.splitlines()
    candidates = [i for i, line in enumerate(lines) if "tlx." in line and "func" not in line]
    if not candidates:
        return None
    del lines[rng.choice(candidates)]
    return "\n".join(lines) + "\n"


#: At most this many operand segments: a seed's count may be huge (raise-carriers-invalid.mlir's malformed case
#: has 4294967297, which took all of the fuzzer's memory).
_MAX_SEGMENTS = 16


def _random_segments(rng: random.Random, count: int) -> str:
    count = min(count, _MAX_SEGMENTS)
    values = ", ".join(str(rng.randint(-1, 3)) for _ in range(count))
    return f"tlx.operand_segments = dense<[{values}]> : tensor<{count}xi32>"


def _swap_operands(match: re.Match, rng: random.Random) -> str:
    operands = [o.strip() for o in match.group(2).split(",") if o.strip()]
    rng.shuffle(operands)
    return match.group(1) + ", ".join(operands) + match.group(3)


def mutate(rng: random.Random, text: str, op_names: list[str]) -> str:
    """One to three structure-aware mutations of ``text`` (a mutation that finds no site is skipped)."""
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(8)
        if kind == 0:
            new = _replace_one(rng, _INT_ATTR, text, lambda m: m.group(1) + str(_number(rng)))
        elif kind == 1:
            new = _replace_one(rng, _TYPE_TEXT, text, lambda m: f'tlx.type = "{_mutate_numbers_in(rng, m.group(1))}"')
        elif kind == 2:
            new = _replace_one(rng, _OP_NAME, text, lambda m: m.group(1) + rng.choice(op_names) + m.group(3))
        elif kind == 3:
            new = _replace_one(rng, _SEGMENTS, text, lambda m: _random_segments(rng, int(m.group(2))))
        elif kind == 4:
            new = _replace_one(rng, _TLX_TYPE, text, lambda m: _mutate_numbers_in(rng, m.group(0)))
        elif kind == 5:
            new = _replace_one(rng, _CONSTANT, text, lambda m: m.group(1) + str(_number(rng)) + m.group(3))
        elif kind == 6:
            new = _replace_one(rng, _CALL_OPERANDS, text, lambda m: _swap_operands(m, rng))
        else:
            new = _drop_line(rng, text)
        text = new if new is not None else text
    return text


def run_steps(text: str) -> str:
    """How far ``text`` gets: the step it stopped at (``parse``, ``raise``, ``checks``, ``lowering``),
    ``internal`` for a caught crash, or ``accepted``."""
    for step, passes in STEPS:
        try:
            text = _C.run_pipeline(text, f"builtin.module({','.join(passes)})")
        except _C.PipelineError as error:
            if error.stage == "internal":
                return "internal"
            return "parse" if error.stage == "parse" and step == "raise" else step
    return "accepted"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save-internal", type=Path, help="write inputs that hit an internal error here")
    parser.add_argument("seeds", nargs="+", type=Path)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    modules = seeds_of(args.seeds)
    op_names = sorted(contracts()) + ["linked_operand", "no_such_op"]
    outcomes: collections.Counter[str] = collections.Counter()
    for index in range(args.count):
        text = mutate(rng, rng.choice(modules), op_names)
        outcome = run_steps(text)
        outcomes[outcome] += 1
        if outcome == "internal" and args.save_internal:
            args.save_internal.mkdir(parents=True, exist_ok=True)
            (args.save_internal / f"internal-{args.seed}-{index}.mlir").write_text(text)
    print(json.dumps({"seeds": len(modules), "outcomes": dict(outcomes)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
