"""Cluster barriers in warp-specialized kernels complete only when every warp of both CTAs arrives. Random task
layouts (tasks of 1, 2 or 4 warps, replicated or not, with register budgets or not) in 2-CTA clusters, with a
remote mbarrier arrival (so TLX adds its own cluster barrier after the mbarrier init) and, in some, cluster
barriers of the kernel's own (directly in the tasks, or in a loop): what compiles passes as many cluster
barriers in every region of its `ttg.warp_specialize` and has no warp outside them; what does not (barriers in
a loop beside idle warps) is refused at the kernel's barrier, naming the idle warps."""

import importlib.util
import os
import random
import re

import pytest

from tlx.compiler import TLXCompilationError
from tlx.tutorials import compile_kernel

_HEADER = "import triton\nimport triton.language as tl\nimport tlx\n\n\n@triton.jit\ndef kernel(out, n):\n"


def _kernel_source(tasks: list[tuple[int, int, int | None]], own_barriers: str, arriving: int) -> str:
    """A kernel whose task `arriving` (0: the default task) arrives on the peer CTA's mbarrier; tasks are
    (num_warps, replicate, registers or None); `own_barriers`: "" (none), "direct" (two in each task's body)
    or "loop" (in a loop of n iterations in each task)."""
    lines = [
        "    arrived = tlx.alloc_barriers(1, arrive_count=1)",
        "    rank = tlx.cluster_cta_rank()",
        "    with tlx.async_tasks():",
    ]
    headers = ['        with tlx.async_task("default"):'] + [
        f"        with tlx.async_task(num_warps={warps}, replicate={replicas}"
        + (f", registers={registers}" if registers else "")
        + "):"
        for warps, replicas, registers in tasks
    ]
    for index, header in enumerate(headers):
        lines.append(header)
        if own_barriers == "direct":
            lines += ["            tlx.cluster_barrier()"] * 2
        elif own_barriers == "loop":
            lines += ["            for _ in range(n):", "                tlx.cluster_barrier()"]
        if index == arriving:
            lines.append("            tlx.barrier_arrive(arrived[0], 1, remote_cta_rank=rank ^ 1)")
        if index == 0:
            lines.append("            tlx.barrier_wait(arrived[0], 0)")
            lines.append("            tl.store(out + tl.program_id(0), rank)")
        elif index != arriving and not own_barriers:
            lines.append("            tlx.fence_async_shared()")
    return _HEADER + "\n".join(lines) + "\n"


def _load(path, source: str):
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.kernel


def _regions(ttgir: str) -> list[tuple[int, str]]:
    """(warps, text) of the default region and each partition of the ttg.warp_specialize."""
    start = ttgir.index("ttg.warp_specialize")
    marks = list(re.finditer(r"partition\d+\(.*?\) num_warps\((\d+)\)", ttgir[start:]))
    regions = [(0, ttgir[start : start + marks[0].start()])]
    for mark, following in zip(marks, marks[1:] + [None], strict=True):
        end = start + following.start() if following else len(ttgir)
        regions.append((int(mark.group(1)), ttgir[start + mark.end() : end]))
    return regions


# Random budgets often cannot all be honoured: TLX's warning says so, which is not what this test is about.
@pytest.mark.filterwarnings("ignore::tlx.compiler.TLXWarning")
def test_every_warp_passes_the_cluster_barriers_of_a_warp_specialized_kernel(tmp_path):
    seed = int(os.environ.get("TLX_FUZZ_SEED", random.SystemRandom().randrange(2**31)))
    rng = random.Random(seed)
    compiled_count = refused = 0
    for case in range(24):
        tasks = [
            (rng.choice([1, 1, 2, 4]), rng.choice([1, 1, 2]), rng.choice([None, None, 24, 40, 152, 232]))
            for _ in range(rng.randint(1, 3))
        ]
        if sum(w * r for w, r, _ in tasks) > 12:
            continue
        own_barriers = rng.choice(["", "", "direct", "loop"])
        arriving = rng.randrange(len(tasks) + 1)
        source = _kernel_source(tasks, own_barriers, arriving)
        kernel = _load(tmp_path / f"cluster_kernel_{case}.py", source)
        label = f"seed {seed}, case {case}: tasks {tasks}, own barriers {own_barriers}\n{source}"
        idle = -sum(w * r for w, r, _ in tasks) % 4
        try:
            compiled = compile_kernel(kernel, {"out": "*i32", "n": "i32"}, ctas_per_cga=(2, 1, 1), num_warps=4)
        except TLXCompilationError as error:
            assert own_barriers == "loop" and idle, (label, str(error))
            assert f"the {idle} idle warps cannot pass barriers in a loop" in str(error), (label, str(error))
            assert f"cluster_kernel_{case}.py:" in str(error), (label, str(error))
            refused += 1
            continue
        assert not (own_barriers == "loop" and idle), ("a kernel that would hang compiled", label)
        regions = _regions(compiled.asm["ttgir"])
        passes = {text.count("ttng.cluster_arrive") for _, text in regions}
        assert len(passes) == 1 and 0 not in passes, ("regions passing different cluster barriers", label, passes)
        threads = int(re.search(r"\.reqntid (\d+)", compiled.asm["ptx"]).group(1))
        assert threads == 32 * (4 + sum(warps for warps, _ in regions)), (label, threads, regions)
        compiled_count += 1
    print(f"seed {seed}: {compiled_count} compiled, {refused} refused")
    assert compiled_count >= 8, (seed, compiled_count)
