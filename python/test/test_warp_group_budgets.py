"""Register budgets of tasks smaller than a warp group: the public TLX API's idiom

    with tlx.async_task("default"): ...                     # epilogue, the kernel's num_warps
    with tlx.async_task(num_warps=1, num_regs=24): ...      # TMA loads
    with tlx.async_task(num_warps=1, num_regs=24): ...      # MMA issue

compiles unmodified, with the meaning stock Triton 3.6 gives it. `setmaxnreg` sets a whole warp group:
stock `allocate-warp-groups` pads the partitions to whole warp groups with empty ones (powers of 2, largest
first, asking for 16 registers), places the partitions largest first after the kernel's warps, and runs each
warp group at the largest budget of its partitions. TLX accounts for the warp groups the same way when it
picks the launch cap (`ttg.maxnreg`), so the default task gets exactly what TLX computed: the tests run stock's
pass on the final TTGIR and compare. A task whose group-mates ask for more runs with their budget (a warning
at its line); budgets that do not fit are dropped with a warning, as the public TLX drops them.
The `SPEC_*` dicts are also seeds of `tlx.testing.kernel_fuzz --seed-module`.
"""

from __future__ import annotations

import os
import random
import re
import tempfile
import warnings
from pathlib import Path

import pytest
import triton
import triton.language as tl

import tlx
from tlx.compiler import TLXWarning
from tlx.compiler.errors import TLXCompilationError
from tlx.tutorials import compile_kernel, compile_tutorial

HERE = Path(__file__).resolve()
SOURCE = HERE.read_text().splitlines()
pytestmark = pytest.mark.needs_tlx_passes


@pytest.fixture(autouse=True)
def _always_compile(monkeypatch):
    monkeypatch.setenv("TRITON_ALWAYS_COMPILE", "1")  # a kernel served from the cache warns nothing


def line_of(marker: str) -> int:
    hits = [i + 1 for i, text in enumerate(SOURCE) if text.rstrip().endswith(f"# @{marker}")]
    assert len(hits) == 1, (marker, hits)
    return hits[0]


def compile_quietly(spec: dict):
    """Compile a spec with every TLXWarning an error: the budgets are honoured exactly."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", TLXWarning)
        return compile_tutorial(spec)


def setmaxnreg(ptx: str) -> set[int]:
    return {int(v) for v in re.findall(r"setmaxnreg\.(?:inc|dec)\.sync\.aligned\.u32\s+(\d+);", ptx)}


def stock_warp_groups(ttgir: str) -> dict:
    """Stock Triton's own allocate-warp-groups pass on the final TTGIR: where it puts each partition and
    which registers it gives each (the default task first)."""
    from triton._C.libtriton import ir, passes

    context = ir.context()
    ir.load_dialects(context)
    from triton._C.libtriton import nvidia

    nvidia.load_dialects(context)
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "kernel.ttgir"
        path.write_text(ttgir)
        module = ir.parse_mlir_module(str(path), context)
    manager = ir.pass_manager(context)
    passes.ttgpuir.add_allocate_warp_groups(manager)
    manager.run(module, "allocate-warp-groups")
    text = str(module)
    ws = re.search(r"ttg\.warp_specialize\(.*\) attributes \{(.*)\}", text).group(1)

    def array(name):
        found = re.search(rf"{name} = array<i32: ([\d, ]+)>", ws)
        return [int(v) for v in found.group(1).split(", ")] if found else None

    warps = [int(v) for v in re.findall(r"partition\d+\(.*\) num_warps\((\d+)\)", text)]
    return {
        "actual": array("actualRegisters"),
        "requested": array("requestedRegisters"),
        "start": array("warpGroupStartIds"),
        "warps": warps,
        "maxnreg": int(re.search(r"ttg\.maxnreg = (\d+)", text).group(1)),
    }


# --- The public API's Blackwell GEMM: 1-warp TMA and MMA tasks of 24 registers each ---------------------------


@triton.jit
def ws_gemm_public_idiom(
    a_desc,
    b_desc,
    c_desc,
    K,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    NUM_STAGES: tl.constexpr,
):
    off_m = tl.program_id(0) * BLOCK_M
    off_n = tl.program_id(1) * BLOCK_N
    a_tiles = tlx.local_alloc((BLOCK_M, BLOCK_K), tl.float16, NUM_STAGES)
    b_tiles = tlx.local_alloc((BLOCK_K, BLOCK_N), tl.float16, NUM_STAGES)
    c_tile = tlx.local_alloc((BLOCK_M, BLOCK_N), tl.float16, 1)
    ready = tlx.alloc_barriers(NUM_STAGES)
    empty = tlx.alloc_barriers(NUM_STAGES)
    done = tlx.alloc_barriers(1)
    acc = tlx.local_alloc((BLOCK_M, BLOCK_N), tl.float32, 1, storage=tlx.storage_kind.tmem)
    stage_bytes: tl.constexpr = (BLOCK_M * BLOCK_K + BLOCK_K * BLOCK_N) * 2
    k_steps = tl.cdiv(K, BLOCK_K)
    with tlx.async_tasks():
        with tlx.async_task("default"):  # epilogue, the kernel's num_warps
            tlx.barrier_wait(done[0], 0)
            result = tlx.local_load(acc[0])
            tlx.local_store(c_tile[0], result.to(tl.float16))
            tlx.fence_async_shared()
            tlx.async_descriptor_store(c_desc, c_tile[0], [off_m, off_n])
            tlx.async_descriptor_store_wait(0)
        with tlx.async_task(num_warps=1, num_regs=24):  # TMA loads
            for k in range(k_steps):
                s = k % NUM_STAGES
                tlx.barrier_wait(empty[s], ((k // NUM_STAGES) & 1) ^ 1)
                tlx.barrier_expect_bytes(ready[s], stage_bytes)
                tlx.async_descriptor_load(a_desc, a_tiles[s], [off_m, k * BLOCK_K], ready[s])
                tlx.async_descriptor_load(b_desc, b_tiles[s], [k * BLOCK_K, off_n], ready[s])
        with tlx.async_task(num_warps=1, num_regs=24):  # MMA issue
            for k in range(k_steps):
                s = k % NUM_STAGES
                tlx.barrier_wait(ready[s], (k // NUM_STAGES) & 1)
                tlx.async_dot(a_tiles[s], b_tiles[s], acc[0], use_acc=k > 0, mBarriers=[empty[s]])
            tlx.tcgen05_commit(done[0])


GEMM_SIGNATURE = {
    "a_desc": "tensordesc<fp16[128, 64]>",
    "b_desc": "tensordesc<fp16[64, 128]>",
    "c_desc": "tensordesc<fp16[128, 128]>",
    "K": "i32",
    "BLOCK_M": "constexpr",
    "BLOCK_N": "constexpr",
    "BLOCK_K": "constexpr",
    "NUM_STAGES": "constexpr",
}
SPEC_GEMM_PUBLIC_IDIOM = {
    "kernel": ws_gemm_public_idiom,
    "signature": GEMM_SIGNATURE,
    "constexprs": {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "NUM_STAGES": 3},
    "num_warps": 4,
    "arch": 100,
}


def test_one_warp_tasks_of_24_registers_share_a_padded_warp_group_on_sm100():
    compiled = compile_quietly(SPEC_GEMM_PUBLIC_IDIOM)
    ttgir, ptx = compiled.asm["ttgir"], compiled.asm["ptx"]
    assert "requestedRegisters = array<i32: 24, 24>" in ttgir
    # 4 + 2 warps: one extra warp group, 8 warps in all. Launch cap 136: the warp group of the two tasks
    # (and stock's 2 padding warps) holds 24 x 4 warps, the default keeps (136 * 8 - 24 * 4) / 4 = 248.
    assert ".reqntid 256" in ptx
    assert ".maxnreg 136" in ptx
    assert setmaxnreg(ptx) == {24, 248}, setmaxnreg(ptx)
    assert re.search(r"setmaxnreg\.dec\.sync\.aligned\.u32\s+24;", ptx)
    assert re.search(r"setmaxnreg\.inc\.sync\.aligned\.u32\s+248;", ptx)
    assert compiled.asm["cubin"][:4] == b"\x7fELF"
    # Stock's pass agrees: a 2-warp padding partition (16 registers) first, at warp 4, the tasks at warps
    # 6 and 7, all three in one warp group of 24; the default gets 248.
    stock = stock_warp_groups(ttgir)
    assert stock["warps"] == [1, 1, 2]
    assert stock["requested"] == [24, 24, 16]
    assert stock["start"] == [6, 7, 4]
    assert stock["actual"] == [248, 24, 24, 24]
    assert stock["maxnreg"] == 136


# --- Hopper: the same idiom with scalar tasks ------------------------------------------------------------------


@triton.jit
def one_warp_tasks(desc, out_ptr, BLOCK: tl.constexpr, LOAD_REGS: tl.constexpr, RELAY_REGS: tl.constexpr):
    bufs = tlx.local_alloc((BLOCK, BLOCK), tl.float16, 1)
    loaded = tlx.alloc_barriers(1)
    relayed = tlx.alloc_barriers(1)
    with tlx.async_tasks():
        with tlx.async_task("default"):
            tlx.barrier_wait(relayed[0], 0)
            offs = tl.arange(0, BLOCK)
            tile = tlx.local_load(bufs[0])
            tl.store(out_ptr + offs[:, None] * BLOCK + offs[None, :], tile)
        with tlx.async_task(num_warps=1, num_regs=LOAD_REGS):  # @load
            tlx.barrier_expect_bytes(loaded[0], BLOCK * BLOCK * 2)
            tlx.async_descriptor_load(desc, bufs[0], [0, 0], loaded[0])
        with tlx.async_task(num_warps=1, num_regs=RELAY_REGS):  # @relay
            tlx.barrier_wait(loaded[0], 0)
            tlx.barrier_arrive(relayed[0])


ONE_WARP_SIGNATURE = {
    "desc": "tensordesc<fp16[64, 64]>",
    "out_ptr": "*fp16",
    "BLOCK": "constexpr",
    "LOAD_REGS": "constexpr",
    "RELAY_REGS": "constexpr",
}
SPEC_ONE_WARP_TASKS = {
    "kernel": one_warp_tasks,
    "signature": ONE_WARP_SIGNATURE,
    "constexprs": {"BLOCK": 64, "LOAD_REGS": 24, "RELAY_REGS": 24},
    "num_warps": 4,
}


def test_one_warp_tasks_of_24_registers_on_sm90():
    compiled = compile_quietly(SPEC_ONE_WARP_TASKS)
    ptx = compiled.asm["ptx"]
    assert ".maxnreg 136" in ptx and ".reqntid 256" in ptx
    assert setmaxnreg(ptx) == {24, 248}, setmaxnreg(ptx)
    stock = stock_warp_groups(compiled.asm["ttgir"])
    assert stock["actual"] == [248, 24, 24, 24]


def test_unequal_budgets_in_one_warp_group_take_the_largest_with_a_warning():
    constexprs = {"BLOCK": 64, "LOAD_REGS": 24, "RELAY_REGS": 56}
    with pytest.warns(TLXWarning) as record:
        compiled = compile_kernel(one_warp_tasks, ONE_WARP_SIGNATURE, constexprs, arch=90)
    texts = [str(w.message) for w in record if issubclass(w.category, TLXWarning)]
    assert len(texts) == 1, texts
    assert f"{HERE}:{line_of('load')}:" in texts[0], texts[0]
    assert "runs with 56 registers per thread, not the 24 it asks for" in texts[0], texts[0]
    ptx = compiled.asm["ptx"]
    # The warp group runs at 56 (56 x 4 warps): launch cap 152, the default keeps (152 * 8 - 56 * 4) / 4 = 248.
    # Stock's lowering passes through 256 (default) and 48 (waiting workers) on the way.
    assert ".maxnreg 152" in ptx
    assert {56, 248} <= setmaxnreg(ptx) and 24 not in setmaxnreg(ptx), setmaxnreg(ptx)
    stock = stock_warp_groups(compiled.asm["ttgir"])
    assert stock["actual"] == [248, 56, 56, 56]


# --- Tasks of 4, 2 and 1 warps: whole warp groups stay whole -------------------------------------------------


@triton.jit
def mixed_warp_counts(out_ptr, n):
    bars = tlx.alloc_barriers(1, arrive_count=3)
    with tlx.async_tasks():
        with tlx.async_task("default"):
            tlx.barrier_wait(bars[0], 0)
            tl.store(out_ptr + tl.arange(0, 128), tl.zeros((128,), tl.float32) + n)
        with tlx.async_task(num_warps=4, num_regs=192):
            tl.store(out_ptr + 128 + tl.arange(0, 128), tl.zeros((128,), tl.float32) + n)
            tlx.barrier_arrive(bars[0])
        with tlx.async_task(num_warps=2, num_regs=24):
            tlx.barrier_arrive(bars[0])
        with tlx.async_task(num_warps=1, num_regs=24):
            tlx.barrier_arrive(bars[0])


SPEC_MIXED_WARP_COUNTS = {
    "kernel": mixed_warp_counts,
    "signature": {"out_ptr": "*fp32", "n": "i32"},
    "constexprs": {},
    "num_warps": 4,
}


def test_a_four_warp_task_keeps_its_warp_group_and_the_small_ones_share_one():
    compiled = compile_quietly(SPEC_MIXED_WARP_COUNTS)
    ptx = compiled.asm["ptx"]
    # 4 + 4 + 2 + 1 (+ 1 padding) = 12 warps: launch cap 152, the default keeps
    # (152 * 12 - 192 * 4 - 24 * 4) / 4 = 240.
    assert ".maxnreg 152" in ptx and ".reqntid 384" in ptx
    assert {24, 192, 240} <= setmaxnreg(ptx), setmaxnreg(ptx)
    stock = stock_warp_groups(compiled.asm["ttgir"])
    assert stock["warps"] == [4, 2, 1, 1]
    assert stock["start"] == [4, 8, 10, 11]
    assert stock["actual"] == [240, 192, 24, 24, 24]


@triton.jit
def consumer_in_the_default_task(out_ptr, n):
    # FA3's layout: the kernel's own warps are consumer 0, one more consumer warp group, a 1-warp producer.
    bars = tlx.alloc_barriers(1, arrive_count=2)
    with tlx.async_tasks():
        with tlx.async_task("default", registers=232):
            tlx.barrier_wait(bars[0], 0)
            tl.store(out_ptr + tl.arange(0, 128), tl.zeros((128,), tl.float32) + n)
        with tlx.async_task(num_warps=4, registers=232):
            tl.store(out_ptr + 128 + tl.arange(0, 128), tl.zeros((128,), tl.float32) + n)
            tlx.barrier_arrive(bars[0])
        with tlx.async_task(num_warps=1, registers=24):
            tlx.barrier_arrive(bars[0])


SPEC_CONSUMER_IN_THE_DEFAULT_TASK = {
    "kernel": consumer_in_the_default_task,
    "signature": {"out_ptr": "*fp32", "n": "i32"},
    "constexprs": {},
    "num_warps": 4,
}


def test_a_default_budget_no_launch_cap_lands_on_gets_the_next_one_up():
    compiled = compile_quietly(SPEC_CONSUMER_IN_THE_DEFAULT_TASK)
    ptx = compiled.asm["ptx"]
    # 12 warps; the cap 160 would leave the default (160 * 12 - 232 * 4 - 24 * 4) / 4 = 224 < 232, 168 leaves 248.
    assert ".maxnreg 168" in ptx and ".reqntid 384" in ptx
    assert {24, 232, 248} <= setmaxnreg(ptx), setmaxnreg(ptx)
    stock = stock_warp_groups(compiled.asm["ttgir"])
    assert stock["actual"] == [248, 232, 24, 24, 24]


# --- What cannot be honoured ---------------------------------------------------------------------------------


@triton.jit
def budgets_that_do_not_fit(out_ptr, n):
    with tlx.async_tasks():  # @unfit
        with tlx.async_task("default", num_regs=200):
            tl.store(out_ptr + tl.arange(0, 128), tl.zeros((128,), tl.float32) + n)
        with tlx.async_task(num_warps=4, num_regs=232, replicate=2):
            tl.store(out_ptr + 128 + tl.arange(0, 128), tl.zeros((128,), tl.float32) + n)


def test_budgets_that_do_not_fit_are_dropped_with_a_warning():
    with pytest.warns(TLXWarning, match="register budgets do not fit") as record:
        compiled = compile_kernel(budgets_that_do_not_fit, {"out_ptr": "*fp32", "n": "i32"}, {}, arch=90)
    text = next(str(w.message) for w in record if "do not fit" in str(w.message))
    assert f"{HERE}:{line_of('unfit')}:" in text, text
    assert "Compiled without register budgets (no setmaxnreg)" in text, text
    # As the public TLX does: no budget at all, no launch cap.
    assert "requestedRegisters" not in compiled.asm["ttgir"]
    assert "setmaxnreg" not in compiled.asm["ptx"]
    assert ".maxnreg" not in compiled.asm["ptx"]


@triton.jit
def tasks_in_a_two_warp_kernel(out_ptr, n):
    bars = tlx.alloc_barriers(1)
    with tlx.async_tasks():  # @two_warps
        with tlx.async_task("default"):
            tlx.barrier_wait(bars[0], 0)
        with tlx.async_task(num_warps=1, num_regs=24):
            tlx.barrier_arrive(bars[0])


def test_warp_specialization_needs_whole_warp_groups_for_the_default_task():
    # Stock Triton's ttg.warp_specialize verifier refuses it too (and so does the public TLX).
    with pytest.raises(TLXCompilationError) as info:
        compile_kernel(tasks_in_a_two_warp_kernel, {"out_ptr": "*fp32", "n": "i32"}, {}, arch=90, num_warps=2)
    text = str(info.value)
    assert "warp specialization needs the kernel's num_warps to be a multiple of 4" in text, text
    assert re.search(rf"{re.escape(str(HERE))}:{line_of('two_warps')}:\d+: error:", text), text


# --- Random task sets, stock's allocate-warp-groups as the referee ---------------------------------------------


def _task_set_module(base_warps: int, default_registers: int | None, tasks: list[tuple[int, int, int]]) -> str:
    default = f" registers({default_registers})" if default_registers else ""
    lines = [f"      tlx.async_task default{default} {{\n      }}"]
    for warps, registers, replicas in tasks:
        task = f"num_warps({warps}) registers({registers}) replicate({replicas})"
        lines.append(f"      tlx.async_task {task} {{\n      }}")
    body = "\n".join(lines)
    return (
        f'module attributes {{"ttg.num-warps" = {base_warps} : i32}} {{\n  tt.func @k() {{\n'
        f"    tlx.async_tasks {{\n{body}\n    }}\n    tt.return\n  }}\n}}\n"
    )


def _with_budgets(lowered: str, requested: list[int], launch_cap: int) -> str:
    """The lowered module as if TLX had kept `requested` under the launch cap `launch_cap`."""
    requested_attr = ", ".join(map(str, requested))
    attrs = f"attributes {{requestedRegisters = array<i32: {requested_attr}>}}"
    text = lowered.replace("ttg.warp_specialize()", f"ttg.warp_specialize() {attrs}")
    return text.replace("module attributes {", f"module attributes {{ttg.maxnreg = {launch_cap} : i32, ", 1)


def test_budgets_are_kept_whenever_a_launch_cap_honours_them():
    """For random task sets: where TLX keeps the budgets, stock gives every task at least its budget and the
    default task at least what it asks for, within the SM; where TLX drops them (with its warning), no launch
    cap would have done that."""
    from tlx import _C

    seed = int(os.environ.get("TLX_FUZZ_SEED", random.SystemRandom().randrange(2**31)))
    rng = random.Random(seed)
    kept = dropped = 0
    for _ in range(300):
        base = rng.choice([4, 4, 8])
        budgets = [24, 40, 48, 152, 160, 192, 200, 224, 232, 240]
        tasks = [
            (rng.choice([1, 2, 4, 4, 8]), rng.choice(budgets), rng.choice([1, 2])) for _ in range(rng.randint(1, 3))
        ]
        task_warps = sum(warps * replicas for warps, _, replicas in tasks)
        total_warps = base + -(-task_warps // 4) * 4  # stock pads the tasks to whole warp groups
        if total_warps > 32:
            continue
        asked = rng.choice([None, 24, 48, 96, 160, 200, 232, 240, 256])
        diagnostics = []
        lowered = _C.run_pipeline(
            _task_set_module(base, asked, tasks),
            "builtin.module(tlx-assign-layouts,tlx-lower-to-ttg)",
            on_diagnostic=diagnostics.append,
        )
        requested = [registers for warps, registers, replicas in tasks for _ in range(replicas)]
        case = f"seed {seed}: {base} warps, default asks {asked}, tasks (warps, registers, replicas) {tasks}"
        if "ttg.maxnreg" in lowered:
            kept += 1
            stock = stock_warp_groups(lowered)
            assert stock["maxnreg"] * total_warps * 32 <= 65536, case
            assert max(asked or 24, 24) <= stock["actual"][0] <= 256, (case, stock)
            # stock's actual registers: the default task, each task's replicas in order, then its padding
            granted = stock["actual"][1 : 1 + len(requested)]
            assert all(got >= want for got, want in zip(granted, requested, strict=True)), (case, stock)
            continue
        dropped += 1
        assert any("register budgets do not fit" in d[4] for d in diagnostics), (case, diagnostics)
        for launch_cap in range(24, 65536 // (total_warps * 32) + 1, 8):
            default = stock_warp_groups(_with_budgets(lowered, requested, launch_cap))["actual"]
            assert not (default and max(asked or 24, 24) <= default[0] <= 256), (case, launch_cap, default)
    print(f"seed {seed}: budgets kept {kept}, dropped {dropped}")
    assert kept > 20 and dropped > 20
