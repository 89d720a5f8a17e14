"""Random region nestings that use SSA names before defining them, often cut short by a parse error.

    python -m tlx.testing.name_scopes --count 5000 --seed 1234

MLIR's parser keeps one name table per isolated scope, not per region: a use of a name before any
definition resolves to the next definition of it, even one inside a region that does not hold the
use. If that region's op then fails to parse after its first block, the parser destroys an operation
that still has a use and aborts (tlx/Support/InputRespelling.h). Each input here nests region ops
(builtin.module, tlx.async_tasks and tlx.async_task, scf.execute_region, func.func; custom and generic
forms), defines and uses a few names at random places (op results, block label and function
arguments), splits regions into several blocks, and then breaks the text at a random place or leaves
it whole. Every input goes through
tlx.run_pipeline; one JSON line reports the outcomes, ``internal`` for any caught abort, and how many
inputs used a name outside the region that defines it later (the shape that aborted). Run it in a
child process: a core that took the process down shows as its exit status.
"""

from __future__ import annotations

import collections
import random
import sys

import tlx

from . import fuzz_main

NAMES = ("x", "y", "0")
#: (opening, closing) of a region op; ``{arg}`` is a name the region takes as an argument.
REGION_OPS = (
    ("builtin.module {", "}"),
    ("tlx.async_tasks {", "}"),
    ("tlx.async_task default {", "}"),
    ("scf.execute_region {", "  scf.yield\n}"),
    ("func.func @f() {", "  return\n}"),
    ("func.func @g(%{arg}: f32) {", "  return\n}"),
    ('"scf.execute_region"() ({', "  scf.yield\n}) : () -> ()"),
    ('"builtin.module"() ({', "}) : () -> ()"),
)
BREAKS = ("bogus", '"x.y"() : () -> ()', "^", "%", "}", "{", "")


class _Generator:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.lines: list[str] = []
        #: ("use" or "definition", name, the path of regions around it), in text order
        self.events: list[tuple[str, str, tuple[int, ...]]] = []
        self.regions = 0
        self.fresh = 0

    def _emit(self, line: str, path: tuple[int, ...]) -> None:
        self.lines.append("  " * len(path) + line)

    def _op(self, path: tuple[int, ...], depth: int) -> None:
        rng = self.rng
        choice = rng.random()
        name = rng.choice(NAMES)
        if choice < 0.3:
            self._emit(f"%{name} = arith.constant 1.0 : f32", path)
            self.events.append(("definition", name, path))
        elif choice < 0.6:
            self.fresh += 1
            suffix = "#0" if rng.random() < 0.2 else ""
            self._emit(f"%t{self.fresh} = arith.negf %{name}{suffix} : f32", path)
            self.events.append(("use", name, path))
        elif depth < 4:
            self._region(path, depth + 1)

    def _region(self, path: tuple[int, ...], depth: int) -> None:
        rng = self.rng
        opening, closing = rng.choice(REGION_OPS)
        self.regions += 1
        inner = (*path, self.regions)
        if "{arg}" in opening:
            argument = rng.choice(NAMES)
            opening = opening.replace("{arg}", argument)
            self.events.append(("definition", argument, inner))
        self._emit(opening, path)
        for block in range(rng.randint(1, 3)):
            if block:
                if rng.random() < 0.5:
                    name = rng.choice(NAMES)
                    self._emit(f"^bb{block}(%{name}: f32):", path)
                    self.events.append(("definition", name, inner))
                else:
                    self._emit(f"^bb{block}:", path)
            for _ in range(rng.randint(0, 3)):
                self._op(inner, depth)
        for line in closing.split("\n"):
            self._emit(line.strip(), path if line.strip().startswith("}") else inner)

    def generate(self) -> str:
        for _ in range(self.rng.randint(1, 4)):
            self._op((), 0)
        text = "\n".join(self.lines) + "\n"
        if self.rng.random() < 0.8:
            cut = self.rng.randrange(len(text) + 1)
            text = text[:cut] + self.rng.choice(BREAKS) + ("\n" + text[cut:] if self.rng.random() < 0.5 else "")
        return text

    def uses_outside_a_later_definition(self) -> bool:
        """Whether a use precedes a definition of its name in a region that does not hold the use."""
        return any(
            kind == "use"
            and later_kind == "definition"
            and later_name == name
            and path[: len(later_path)] != later_path
            for index, (kind, name, path) in enumerate(self.events)
            for later_kind, later_name, later_path in self.events[index + 1 :]
        )


def run(count: int, seed: int) -> dict[str, int]:
    rng = random.Random(seed)
    outcomes: collections.Counter[str] = collections.Counter()
    for _ in range(count):
        generator = _Generator(rng)
        text = generator.generate()
        if generator.uses_outside_a_later_definition():
            outcomes["shape:use-outside-inner-definition"] += 1
        try:
            tlx.run_pipeline(text, "builtin.module()")
            outcomes["accepted"] += 1
        except tlx.PipelineError as error:
            outcomes[f"rejected:{error.stage}"] += 1
    return dict(outcomes)


def main(argv: list[str] | None = None) -> int:
    return fuzz_main(__doc__.splitlines()[0], run, 5_000, argv)


if __name__ == "__main__":
    sys.exit(main())
