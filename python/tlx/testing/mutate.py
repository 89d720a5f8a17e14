"""Random mutations of IR text, for robustness testing of the compiler core.

    python -m tlx.testing.mutate --count 10000 --seed 1234 [MODULE.mlir ...]

Feeds `count` mutated variants of known-valid modules (and of any modules given,
e.g. the lit tests') to tlx.run_pipeline and prints one JSON line of outcome
counts. Run it in a child process: if the core
ever took the process down, the parent sees the exit status instead of dying.
"""

from __future__ import annotations

import collections
import random
import sys
from collections.abc import Sequence
from pathlib import Path

import tlx

from ..compiler.pipeline import PIPELINE
from . import fuzz_main

SEED_MODULES = (
    """\
func.func @tlx_ops(%i: i32, %phase: i32, %pred: i1) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %a = tlx.local_alloc : !tlx.buffers<3, 128x64xf16, smem>
  %v = tlx.local_view %a[%i] : !tlx.buffers<3, 128x64xf16, smem>
  %t = tlx.local_alloc : !tlx.buffers<1, 128x256xf32, tmem>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<2>
  %m = tlx.local_view %bars[%c1] : !tlx.mbarriers<2>
  tlx.barrier_expect_bytes %m, 16384, %pred : !tlx.mbarrier
  tlx.barrier_wait %m, %phase : !tlx.mbarrier
  tlx.barrier_arrive %m, 1 : !tlx.mbarrier
  return
}
""",
    """\
module attributes {"ttg.num-warps" = 4 : i32} {
  func.func @loop(%n: index, %x: f32) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %x) -> (f32) {
      %y = arith.mulf %acc, %x : f32
      %z = math.exp %y : f32
      scf.yield %z : f32
    }
    %cmp = arith.cmpf olt, %r, %x : f32
    cf.cond_br %cmp, ^bb1, ^bb2(%r : f32)
  ^bb1:
    cf.br ^bb2(%x : f32)
  ^bb2(%out: f32):
    return %out : f32
  }
}
""",
    """\
llvm.func @nvvm_ops(%bar: !llvm.ptr<3>, %n: i32) {
  %tid = nvvm.read.ptx.sreg.tid.x : i32
  nvvm.barrier0
  nvvm.mbarrier.init %bar, %n : !llvm.ptr<3>, i32
  nvvm.fence.mbarrier.init
  %e = nvvm.elect.sync -> i1
  llvm.return
}
""",
    """\
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#loc = loc("kernel.py":3:4)
!f32t = tensor<128xf32, #blocked>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @k(%p: !tt.ptr<f32> loc(#loc), %n: i32) attributes {noinline = false} {
    %c = arith.constant dense<1.000000e+00> : !f32t loc(#loc)
    %r = "tt.reduce"(%c) <{axis = 0 : i32}> ({
    ^bb0(%l: f32, %rr: f32):
      %s = arith.addf %l, %rr : f32
      tt.reduce.return %s : f32
    }) : (!f32t) -> f32
    %t:2 = scf.while (%i = %n, %acc = %r) : (i32, f32) -> (i32, f32) {
      %go = arith.cmpi sgt, %i, %n : i32
      scf.condition(%go) %i, %acc : i32, f32
    } do {
    ^bb0(%j: i32, %a: f32):
      scf.yield %j, %a : i32, f32
    }
    tt.store %p, %t#1 : !tt.ptr<f32>
    tt.return
  } loc(#loc)
}
""",
    """\
func.func @tasks(%n: index, %x: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tlx.async_tasks {
    tlx.async_task default {
      %v = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %x) -> (f32) {
        %y = arith.addf %acc, %x : f32
        scf.yield %y : f32
      }
    }
    tlx.async_task num_warps(4) registers(232) replicate(2) {
      %r = tlx.async_task_replica_id : i32
      %e = scf.execute_region -> i32 {
        cf.br ^bb1(%r : i32)
      ^bb1(%q: i32):
        scf.yield %q : i32
      }
    }
  }
  return
}
""",
)

TOKENS = (
    "%",
    "{",
    "}",
    "(",
    ")",
    "<",
    ">",
    "[",
    "]",
    ":",
    ",",
    "->",
    "=",
    '"',
    "^bb0",
    "x",
    "?",
    "-1",
    "0",
    "4294967296",
    "99999999999999999999999",
    "1.5e309",
    "i1",
    "i0",
    "f16",
    "index",
    "none",
    "!tlx.buffers<",
    "!tlx.mbarriers<",
    "!tlx.buffer<",
    "!tlx.mbarrier",
    "smem",
    "tmem",
    "gmem",
    "tlx.local_view",
    "tlx.local_alloc",
    "tlx.barrier_wait",
    "arrive_count",
    "#loc",
    "loc(",
    "dense<",
    "arith.constant",
    "scf.yield",
    "^bb2",
    "builtin.module",
    "attributes",
    "\n",
    "\x00",
    "\u00e9",
    "//",
    "@",
    "#",
    "!",
    "^bb1:",
    "^bb1(%q: i32):",
    "builtin.module {",
    "tlx.async_tasks {",
    "<{",
    "}>",
    "#1",
    "loc(#loc)",
)

#: Upstream passes, one TLX check, the parser alone, and the whole TLX pipeline a kernel goes through.
PIPELINES = (
    "builtin.module(canonicalize,cse)",
    "tlx-check-static-bounds",
    "builtin.module()",
    "symbol-dce,inline",
    PIPELINE,
)


def mutate(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 4)):
        if not text:
            text = rng.choice(TOKENS)
            continue
        position = rng.randrange(len(text))
        kind = rng.randrange(5)
        if kind == 0:  # delete a span
            text = text[:position] + text[position + rng.randint(1, 8) :]
        elif kind == 1:  # insert a token
            text = text[:position] + rng.choice(TOKENS) + text[position:]
        elif kind == 2:  # replace one character
            text = text[:position] + chr(rng.randrange(32, 127)) + text[position + 1 :]
        elif kind == 3:  # duplicate a span elsewhere
            start = rng.randrange(len(text))
            span = text[start : start + rng.randint(1, 40)]
            text = text[:position] + span + text[position:]
        else:  # swap two lines
            lines = text.split("\n")
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
    return text


def run(count: int, seed: int, modules: Sequence[Path] = ()) -> dict[str, int]:
    seeds = list(SEED_MODULES)
    for path in modules:
        seeds += [chunk for chunk in path.read_text().split("// -----") if chunk.strip()]
    rng = random.Random(seed)
    outcomes: collections.Counter[str] = collections.Counter()
    for index in range(count):
        text = mutate(rng.choice(seeds), rng)
        try:
            tlx.run_pipeline(text, PIPELINES[index % len(PIPELINES)])
            outcomes["accepted"] += 1
        except tlx.PipelineError as error:
            outcomes[f"rejected:{error.stage}"] += 1
            severities = {diagnostic[0] for diagnostic in error.diagnostics}
            if not severities or not severities <= {"error", "warning", "note", "remark"}:
                outcomes["malformed-diagnostics"] += 1
    return dict(outcomes)


def main(argv: list[str] | None = None) -> int:
    return fuzz_main(__doc__.splitlines()[0], run, 10_000, argv, takes_modules=True)


if __name__ == "__main__":
    sys.exit(main())
