"""Warp specialization (`tlx.async_tasks` / `tlx.async_task` / `tlx.async_task_replica_id`) and wgmma with A
from registers, end to end on the CPU: carriers, the lowered `ttg.warp_specialize`, the PTX each promises
(`setmaxnreg` with the budgets asked for, one branch per task), and misuse reported at the kernel line. The
`SPEC_*` dicts (a tutorial's SPEC form) are also seeds of `tlx.testing.kernel_fuzz --seed-module`.
"""

import math
import re
from pathlib import Path

import gpus
import pytest
import triton
import triton.language as tl
from corpus.kernels import soft_clip_pair
from triton.backends.compiler import GPUTarget
from triton.compiler.errors import CompilationError

import tlx
from tlx.compiler import frontend_ir
from tlx.compiler.errors import TLXCompilationError
from tlx.tutorials import compile_kernel, compile_tutorial

HERE = Path(__file__).resolve()
SOURCE = HERE.read_text().splitlines()
SM90 = GPUTarget("cuda", 90, 32)


def line_of(marker: str) -> int:
    hits = [i + 1 for i, text in enumerate(SOURCE) if text.rstrip().endswith(f"# @{marker}")]
    assert len(hits) == 1, (marker, hits)
    return hits[0]


@triton.jit
def producer_consumers(x_ptr, out_ptr, n, BLOCK: tl.constexpr, REGISTERS: tl.constexpr):
    bufs = tlx.local_alloc((BLOCK,), tl.float32, 2)
    full = tlx.alloc_barriers(2)
    empty = tlx.alloc_barriers(2, arrive_count=2)
    offs = tl.arange(0, BLOCK)  # a tensor from above: recomputed inside the consumers
    scale = n * 3  # a scalar from above: passed in
    with tlx.async_tasks():  # @tasks
        with tlx.async_task("default"):  # @default
            for i in range(n):
                s = i % 2
                tlx.barrier_wait(empty[s], ((i // 2) & 1) ^ 1)
                tlx.local_store(bufs[s], tl.load(x_ptr + i * BLOCK + offs))
                tlx.barrier_arrive(full[s])
        with tlx.async_task(num_warps=4, registers=REGISTERS, replicate=2):  # @consumers
            r = tlx.async_task_replica_id()  # @replica
            for i in range(n):
                s = i % 2
                tlx.barrier_wait(full[s], (i // 2) & 1)
                y = tlx.local_load(bufs[s])
                tlx.barrier_arrive(empty[s])
                tl.store(out_ptr + (2 * i + r) * BLOCK + offs, y * scale)


PRODUCER_CONSUMERS = {"x_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr", "REGISTERS": "constexpr"}


def test_task_carriers_are_scf_if_on_opaque_calls_at_the_user_lines():
    text = frontend_ir(producer_consumers, PRODUCER_CONSUMERS, {"BLOCK": 128, "REGISTERS": 152})
    calls = re.findall(r"(%\S+) = tt\.call @(tlx\.async_tasks?\.r_i1)\(\) \{([^}]*)\}", text)
    # The consumers (replicate=2) are traced once per replica: two tasks of their own.
    assert [name.split(".")[1] for _, name, _ in calls] == ["async_tasks", "async_task", "async_task", "async_task"]
    for value, _, _attrs in calls:
        assert re.search(rf"scf\.if {re.escape(value)} \{{", text), value  # each carrier guards one region
    for _, _, consumer_attrs in calls[2:]:
        for attr in ("tlx.numWarps = 4 : i32", "tlx.registers = 152 : i32", "tlx.isDefault = false"):
            assert attr in consumer_attrs, consumer_attrs
        assert "tlx.replicate" not in consumer_attrs
    assert "tlx.isDefault = true" in calls[1][2]
    # The replica id is a constant of each copy: no op carries it.
    assert "async_task_replica_id" not in text
    locations = re.findall(r'loc\("[^"]*test_warp_specialization\.py":(\d+):', text)
    for marker in ("tasks", "default", "consumers"):
        assert str(line_of(marker)) in locations, marker


SPEC_PRODUCER_CONSUMERS = {
    "kernel": producer_consumers,
    "signature": PRODUCER_CONSUMERS,
    "constexprs": {"BLOCK": 128, "REGISTERS": 152},
    "num_warps": 4,
}


@pytest.mark.needs_tlx_passes
def test_tasks_lower_to_warp_specialize_with_register_budgets():
    compiled = compile_tutorial(SPEC_PRODUCER_CONSUMERS)
    ttgir, ptx = compiled.asm["ttgir"], compiled.asm["ptx"]
    assert "tlx." not in ttgir
    ws = re.search(r"ttg\.warp_specialize\((.*)\) attributes \{(.*)\}", ttgir)
    assert ws, ttgir
    assert "requestedRegisters = array<i32: 152, 152>" in ws.group(2)
    # Two replicas of 4 warps: partition0 and partition1, each with the replica id as a constant.
    assert len(re.findall(r"partition\d\(.*\) num_warps\(4\)", ttgir)) == 2
    # The scalar `scale` is passed in; `offs` is recomputed in the partitions (tensors are never captured).
    captured = ws.group(1).split(", ")
    assert sorted(captured) == ["%bufs", "%empty", "%full", "%n", "%out_ptr", "%scale"], captured
    partition_args = re.search(r"partition0\((.*)\) num_warps", ttgir).group(1)
    assert "tensor<" not in partition_args, partition_args
    assert ttgir.count("tt.make_range") >= 3
    # Entry cap 168 per thread for 12 warps; the default task keeps (168*12 - 152*8)/4 = 200.
    assert ".maxnreg 168" in ptx
    budgets = {int(v) for v in re.findall(r"setmaxnreg\.\w+\.sync\.aligned\.u32\s+(\d+);", ptx)}
    assert {152, 200} <= budgets, budgets


@pytest.mark.needs_tlx_passes
def test_the_ws_gemm_gives_the_producer_24_and_the_consumers_232_registers():
    from tlx.tutorials import ws_gemm

    ptx = compile_tutorial(ws_gemm.SPEC).asm["ptx"]
    increases = {int(v) for v in re.findall(r"setmaxnreg\.inc\.sync\.aligned\.u32\s+(\d+);", ptx)}
    decreases = {int(v) for v in re.findall(r"setmaxnreg\.dec\.sync\.aligned\.u32\s+(\d+);", ptx)}
    assert ws_gemm.SPEC["registers"]["consumer"] in increases, increases
    assert ws_gemm.SPEC["registers"]["producer"] in decreases, decreases


@triton.jit
def default_asks_for_registers(out_ptr, n, BLOCK: tl.constexpr):
    with tlx.async_tasks():
        with tlx.async_task("default", registers=48):
            tl.store(out_ptr + tl.arange(0, BLOCK), tl.zeros((BLOCK,), tl.float32) + n)
        with tlx.async_task(num_warps=4, registers=224):
            tl.store(out_ptr + BLOCK + tl.arange(0, BLOCK), tl.zeros((BLOCK,), tl.float32) + n)


SPEC_DEFAULT_ASKS_FOR_REGISTERS = {
    "kernel": default_asks_for_registers,
    "signature": {"out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"},
    "constexprs": {"BLOCK": 128},
    "num_warps": 4,
}


@pytest.mark.needs_tlx_passes
def test_a_default_task_budget_sets_the_launch_cap():
    compiled = compile_tutorial(SPEC_DEFAULT_ASKS_FOR_REGISTERS)
    ptx = compiled.asm["ptx"]
    # 8 warps: (48 * 4 + 224 * 4) / 8 = 136 at launch; the default task lands on exactly 48.
    assert ".maxnreg 136" in ptx
    assert re.search(r"setmaxnreg\.dec\.sync\.aligned\.u32\s+48;", ptx)
    assert re.search(r"setmaxnreg\.inc\.sync\.aligned\.u32\s+224;", ptx)


@triton.jit
def scalar_only_producer(desc, out_ptr, n, BLOCK: tl.constexpr):
    bufs = tlx.local_alloc((BLOCK, BLOCK), tl.float16, 1)
    bars = tlx.alloc_barriers(1)
    with tlx.async_tasks():
        with tlx.async_task("default"):
            tlx.barrier_wait(bars[0], 0)
            offs = tl.arange(0, BLOCK)
            row = tlx.local_load(bufs[0])
            tl.store(out_ptr + offs[:, None] * BLOCK + offs[None, :], row)
        with tlx.async_task(num_warps=1):  # TMA and barriers only: one warp is enough
            tlx.barrier_expect_bytes(bars[0], BLOCK * BLOCK * 2)
            tlx.async_descriptor_load(desc, bufs[0], [0, 0], bars[0])


SPEC_SCALAR_ONLY_PRODUCER = {
    "kernel": scalar_only_producer,
    "signature": {"desc": "tensordesc<fp16[64, 64]>", "out_ptr": "*fp16", "n": "i32", "BLOCK": "constexpr"},
    "constexprs": {"BLOCK": 64},
    "num_warps": 4,
}


@pytest.mark.needs_tlx_passes
def test_a_one_warp_task_of_scalars_and_tma():
    compiled = compile_tutorial(SPEC_SCALAR_ONLY_PRODUCER)
    assert re.search(r"partition0\(.*\) num_warps\(1\)", compiled.asm["ttgir"])
    assert "cp.async.bulk.tensor.2d.shared::cluster.global" in compiled.asm["ptx"]
    assert "setmaxnreg" not in compiled.asm["ptx"]  # no budgets asked for: none set


@triton.jit
def one_if_per_task(out_ptr, BLOCK: tl.constexpr):
    """Each task's body is one `if` on a run-time value: stock's canonicalizer merges such an `if` with the
    task's own (the raise nests them again)."""
    even = tl.program_id(0) % 2 == 0
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    with tlx.async_tasks():
        with tlx.async_task("default"):
            if even:
                tl.store(out_ptr + offs, offs)
        with tlx.async_task(num_warps=4):
            if not even:  # noqa: SIM102  (two nested ifs: canonicalization merges them with the task too)
                if tl.program_id(0) < 4:
                    tl.store(out_ptr + offs, -offs)


SPEC_ONE_IF_PER_TASK = {
    "kernel": one_if_per_task,
    "signature": {"out_ptr": "*i32"},
    "constexprs": {"BLOCK": 128},
    "num_warps": 4,
}


@pytest.mark.needs_tlx_passes
@pytest.mark.parametrize("capability", [90, 100])
def test_a_task_whose_body_is_one_run_time_if(capability):
    compiled = compile_tutorial(SPEC_ONE_IF_PER_TASK, capability)
    ttgir = compiled.asm["ttgir"]
    partition = ttgir[ttgir.index("partition0(") :]
    assert "scf.if" in partition and "tt.store" in partition, partition


@triton.jit
def constant_tensor_in_a_four_warp_task(out_ptr):
    bars = tlx.alloc_barriers(1)
    with tlx.async_tasks():
        with tlx.async_task("default"):
            tlx.barrier_wait(bars[0], 0)
        with tlx.async_task(num_warps=4):
            tl.store(out_ptr + tl.arange(0, 128), tl.full((128,), float("-inf"), tl.float32))
        with tlx.async_task(num_warps=1):
            tlx.barrier_arrive(bars[0])


SPEC_CONSTANT_TENSOR_IN_A_FOUR_WARP_TASK = {
    "kernel": constant_tensor_in_a_four_warp_task,
    "signature": {"out_ptr": "*fp32"},
    "constexprs": {},
    "num_warps": 4,
}


@pytest.mark.needs_tlx_passes
def test_a_constant_tensor_goes_only_to_the_task_that_uses_it():
    # The frontend hoists the constant out of the tasks; a copy in the 1-warp task would carry the 4-warp
    # task's layout, which no 1-warp partition can hold.
    compiled = compile_tutorial(SPEC_CONSTANT_TENSOR_IN_A_FOUR_WARP_TASK)
    assert re.search(r"partition1\(.*\) num_warps\(1\)", compiled.asm["ttgir"])
    assert compiled.asm["cubin"][:4] == b"\x7fELF"


@triton.jit
def dot_a_from_registers(a_desc, b_desc, out_ptr, BLOCK: tl.constexpr):
    a_buf = tlx.local_alloc((64, BLOCK), tl.float16, 1)
    b_buf = tlx.local_alloc((BLOCK, BLOCK), tl.float16, 1)
    bars = tlx.alloc_barriers(1)
    tlx.barrier_expect_bytes(bars[0], (64 * BLOCK + BLOCK * BLOCK) * 2)
    tlx.async_descriptor_load(a_desc, a_buf[0], [0, 0], bars[0])
    tlx.async_descriptor_load(b_desc, b_buf[0], [0, 0], bars[0])
    tlx.barrier_wait(bars[0], 0)
    a = tlx.local_load(a_buf[0]) * 2.0  # computed in registers
    acc = tlx.async_dot(a.to(tl.float16), b_buf[0])  # @reg_a_dot
    acc = tlx.async_dot_wait(0, acc)
    rows = tl.arange(0, 64)
    cols = tl.arange(0, BLOCK)
    tl.store(out_ptr + rows[:, None] * BLOCK + cols[None, :], acc)


REG_A = {
    "a_desc": "tensordesc<fp16[64, 128]>",
    "b_desc": "tensordesc<fp16[128, 128]>",
    "out_ptr": "*fp32",
    "BLOCK": "constexpr",
}


def test_a_register_operand_rides_a_linked_carrier():
    text = frontend_ir(dot_a_from_registers, REG_A, {"BLOCK": 128})
    operand = re.search(
        r'= tt\.elementwise_inline_asm "tlx\.linked_operand" \{[^}]*tlx\.link = (\d+) : i32[^}]*\} (%\S+) : '
        r"tensor<64x128xf16, [^>]*> -> tensor<64x128xf16",
        text,
    )
    dot = re.search(
        r'= tt\.elementwise_inline_asm "tlx\.async_dot" \{[^}]*tlx\.linked_a = (\d+) : i32[^}]*\} %\S+, %\S+ : '
        r"tensor<64x128xi64, [^>]*>, tensor<64x128xf32",  # b and acc: `a` is not among the dot's operands
        text,
    )
    assert operand and dot, text
    assert operand.group(1) == dot.group(1)
    assert operand.start() < dot.start()
    line = line_of("reg_a_dot")
    assert re.search(rf'#loc\d+ = loc\("[^"]*test_warp_specialization\.py":{line}:', text)


SPEC_DOT_A_FROM_REGISTERS = {
    "kernel": dot_a_from_registers,
    "signature": REG_A,
    "constexprs": {"BLOCK": 128},
    "num_warps": 4,
}


@pytest.mark.needs_tlx_passes
def test_wgmma_reads_a_from_registers():
    compiled = compile_tutorial(SPEC_DOT_A_FROM_REGISTERS)
    assert re.search(
        r"ttng\.warp_group_dot %\S+, .*: tensor<64x128xf16, #ttg\.dot_op<\{opIdx = 0", compiled.asm["ttgir"]
    )
    wgmma = [line for line in compiled.asm["ptx"].splitlines() if "wgmma.mma_async" in line]
    assert wgmma
    # A from registers: the second operand group is a register list, not a 64-bit shared-memory descriptor.
    assert all(re.search(r"\}, \{%r\d+,%r\d+,%r\d+,%r\d+\}, %rd\d+,", line) for line in wgmma), wgmma[0]


@triton.jit
def dot_then_wait_in_a_task(a_desc, b_desc, out_ptr, TASK_WARPS: tl.constexpr):
    a_buf = tlx.local_alloc((128, 64), tl.float16, 1)
    b_buf = tlx.local_alloc((64, 64), tl.float16, 1)
    bars = tlx.alloc_barriers(2)
    with tlx.async_tasks():
        with tlx.async_task("default"):
            tlx.barrier_expect_bytes(bars[0], (128 * 64 + 64 * 64) * 2)
            tlx.async_descriptor_load(a_desc, a_buf[0], [0, 0], bars[0])
            tlx.async_descriptor_load(b_desc, b_buf[0], [0, 0], bars[0])
            tlx.barrier_expect_bytes(bars[1], 64 * 64 * 2)
            tlx.async_descriptor_load(b_desc, b_buf[0], [64, 0], bars[1])
        with tlx.async_task(num_warps=TASK_WARPS, replicate=8 // TASK_WARPS):
            tlx.barrier_wait(bars[0], 0)
            acc = tlx.async_dot(a_buf[0], b_buf[0])
            acc = tlx.async_dot_wait(0, acc)
            tlx.barrier_wait(bars[1], 0)  # the task's next shared-memory access
            rows = tl.arange(0, 128)
            cols = tl.arange(0, 64)
            tl.store(out_ptr + rows[:, None] * 64 + cols[None, :], acc)


SPEC_DOT_THEN_WAIT_IN_A_TASK = {
    "kernel": dot_then_wait_in_a_task,
    "signature": {"a_desc": "tensordesc<fp16[128, 64]>", "b_desc": "tensordesc<fp16[64, 64]>", "out_ptr": "*fp32"},
    "constexprs": {"TASK_WARPS": 8},
    "num_warps": 4,
}


@pytest.mark.needs_tlx_passes
@pytest.mark.parametrize("task_warps", [4, 8])
def test_a_task_of_two_warp_groups_meets_after_each_dot_wait(task_warps):
    """What ``tlx.async_dot_wait``'s docstring warns of, as Triton 3.6 compiles it: in a task of 8 warps (two warp
    groups) a whole-task ``bar.sync`` (256 threads) follows the ``wgmma.wait_group`` before the next
    shared-memory access (the mbarrier wait), because the wait covers only its own warp group; in two tasks of 4
    warps a barrier there spans one warp group at most. Two warp groups of one task that take turns on the
    tensor cores (ping-pong) would wait for each other at it: such a kernel ran (correct, and 2-3% slower than
    two tasks) only after those barriers were deleted from its PTX (2026-12-06 session 26 results)."""
    ptx = compile_tutorial({**SPEC_DOT_THEN_WAIT_IN_A_TASK, "constexprs": {"TASK_WARPS": task_warps}}).asm["ptx"]
    lines = [line.strip() for line in ptx.splitlines()]
    waits = [i for i, line in enumerate(lines) if line.startswith("wgmma.wait_group")]
    assert waits, ptx
    threads = []  # per wait: the thread counts of the bar.syncs between it and the next mbarrier wait
    for start in waits:
        end = next(i for i in range(start, len(lines)) if "mbarrier.try_wait" in lines[i])
        bars = (re.match(r"bar\.sync\s+\S+,\s*(\d+);", line) for line in lines[start:end])
        threads.append({bar.group(1) for bar in bars if bar})
    if task_warps == 8:
        assert all("256" in counts for counts in threads), threads
    else:  # at most its own warp group's
        assert all(counts <= {"128"} for counts in threads), threads


@pytest.mark.needs_tlx_passes
@pytest.mark.parametrize("spec_name", ["SPEC", "SPEC_CAUSAL_D64"])
def test_attention_takes_p_from_registers(spec_name):
    from tlx.tutorials import ws_attention

    compiled = compile_tutorial(getattr(ws_attention, spec_name))
    ttgir = compiled.asm["ttgir"]
    assert re.search(r"ttng\.warp_group_dot %\S+, %\S+, %\S+ \{[^}]*\} : tensor<64x128xf16, #ttg\.dot_op", ttgir)
    # The softmax stays in the wgmma layout: no tile is converted to a blocked layout and back.
    for convert in re.findall(r"ttg\.convert_layout .* -> (tensor<[^>]*>)", ttgir):
        assert "#blocked" not in convert, convert


def _ptxas_report(ptx: str, tmp_path: Path) -> str:
    """What ``ptxas -v`` says about ``ptx`` (sm_90a): register use, spills, performance warnings."""
    import subprocess

    from triton import knobs

    source = tmp_path / "kernel.ptx"
    source.write_text(ptx)
    return subprocess.run(
        [knobs.nvidia.ptxas.path, "-arch=sm_90a", "-v", str(source), "-o", str(tmp_path / "kernel.cubin")],
        capture_output=True,
        text=True,
        check=True,
    ).stderr


def _spill_bytes_in(report: str) -> list[int]:
    """Spill store and load bytes of every function in a ``ptxas -v`` report."""
    return [int(n) for n in re.findall(r"(\d+) bytes spill (?:stores|loads)", report)]


def _ptxas_spill_bytes(ptx: str, tmp_path: Path) -> list[int]:
    """Spill store and load bytes ptxas reports for every function of ``ptx`` (sm_90a)."""
    return _spill_bytes_in(_ptxas_report(ptx, tmp_path))


@pytest.mark.needs_tlx_passes
@pytest.mark.parametrize(
    "spec_name, q_from_registers",
    [
        ("SPEC_PERSISTENT", True),
        ("SPEC_PERSISTENT_CAUSAL_D64", True),
        ("SPEC_PERSISTENT_THREE_CONSUMERS_D64", False),
        ("SPEC_PERSISTENT_THREE_CONSUMERS_CAUSAL_D64", False),
        ("SPEC_PERSISTENT_TRIMMED_THREE_CONSUMERS_CAUSAL_D64", False),
        ("SPEC_PERSISTENT_CAUSAL", False),
        ("SPEC_PERSISTENT_CAUSAL_CLUSTER_PAIRS", False),
    ],
)
def test_persistent_attention_keeps_its_operands_in_registers_without_spilling(spec_name, q_from_registers, tmp_path):
    from tlx.tutorials import ws_attention

    spec = getattr(ws_attention, spec_name)
    compiled = compile_tutorial(spec)
    head_dim = spec["constexprs"]["HEAD_DIM"]
    dots = [line for line in compiled.asm["ttgir"].splitlines() if "ttng.warp_group_dot " in line]
    a_operands = [line.split("} : ", 1)[1] for line in dots]  # after the attributes: the types, A first
    register_dots = [a for a in a_operands if a.startswith("tensor<64x")]
    shared_dots = [a for a in a_operands if a not in register_dots]
    # P of 128 keys; of 64 in a trimmed diagonal block (``TRIM_DIAGONAL``); Q of HEAD_DIM columns.
    widths = (128, 64, head_dim)
    assert all(a.startswith(tuple(f"tensor<64x{w}xf16, #ttg.dot_op" for w in widths)) for a in register_dots), (
        register_dots
    )
    if q_from_registers:  # Q is a register operand like P: every wgmma reads A from registers
        assert len(register_dots) == len(a_operands) > 0, a_operands
    else:  # P from registers, Q from its shared-memory buffer
        assert register_dots and shared_dots, a_operands
        assert all(a.startswith(f"!ttg.memdesc<64x{head_dim}xf16") for a in shared_dots), shared_dots
    # The softmax runs once, in the accumulator's layout. Stock layout propagation can compute it a second
    # time in the operand layout (float32 scores as a dot operand): in a form of this kernel that carried P
    # across tiles and masked a tile's first block behind a branch, 128 more SASS instructions per key block
    # (2026-12-06 session 29 results).
    assert not re.search(r"xf32, #ttg\.dot_op", compiled.asm["ttgir"])
    # Each consumer holds a 64 x 128 block of scores, P in the input dtype and the accumulator: with three
    # consumers in 160 registers that fits only with P carried in 16 bits. Short of registers, ptxas may also
    # serialize every wgmma of the kernel instead of spilling (warning C7512): a trimmed diagonal block whose
    # narrow P @ V could end the tile did that to three consumers.
    report = _ptxas_report(compiled.asm["ptx"], tmp_path)
    spills = _spill_bytes_in(report)
    assert spills and not any(spills), spills
    assert "C7512" not in report, report


def _persistent_attention_bf16(head_dim: int, causal: bool, cfg: dict):
    """The persistent attention kernel of ``cfg``, compiled for bfloat16 inputs."""
    from tlx.tutorials import ws_attention

    spec = ws_attention._persistent_spec(head_dim, causal, cfg=cfg)
    spec["signature"] = {name: kind.replace("fp16", "bf16") for name, kind in spec["signature"].items()}
    return compile_tutorial(spec)


def _key_block_loops(sass: str):
    """The attention consumers' key-block loops in ``sass``: the innermost loops issuing wgmma, less the tile
    loops around them (which store the output)."""
    from tlx.testing.sass import innermost_loops

    return [loop for loop in innermost_loops(sass, "HGMMA") if not loop.opcodes["UTMASTG"]]


@pytest.mark.needs_tlx_passes
@pytest.mark.parametrize(
    "head_dim, config", [(128, "TWO_CONSUMERS_Q_IN_REGS"), (64, "TWO_CONSUMERS_Q_IN_REGS"), (64, "THREE_CONSUMERS")]
)
def test_peeled_causal_attention_runs_blocks_below_the_diagonal_without_the_mask(head_dim, config, tmp_path):
    """``PEEL_DIAGONAL``: the key-block loop that runs most blocks selects no score (the mask's ``FSEL``s are
    in a second loop), P reaches ``P @ V`` without half swaps (``PRMT``: 32 per block when LLVM moves
    block 0's ``p.to(dtype)`` behind the first loop's phi) and nothing spills. In one loop every block carries
    the mask's code behind its branch."""
    from tlx.testing.sass import innermost_loops, sass_of
    from tlx.tutorials import ws_attention

    cfg = getattr(ws_attention, config)
    kernels = {
        peel: _persistent_attention_bf16(head_dim, True, {**cfg, "PEEL_DIAGONAL": peel}) for peel in (False, True)
    }
    scores = 64 * 128 // 128  # per thread: a consumer's 64 x 128 block over its 128 threads
    one_loop = [loop.opcodes["FSEL"] for loop in innermost_loops(sass_of(kernels[False].asm["cubin"]), "HGMMA")]
    assert one_loop and all(one_loop), one_loop
    sass = sass_of(kernels[True].asm["cubin"])
    loops = innermost_loops(sass, "HGMMA")
    unmasked = [loop for loop in loops if loop.opcodes["FSEL"] == 0]
    masked = [loop for loop in loops if loop.opcodes["FSEL"] >= scores]
    assert unmasked and masked, [(loop.length, loop.opcodes["FSEL"]) for loop in loops]
    assert all(loop.length < min(m.length for m in masked) for loop in unmasked)
    assert "PRMT" not in sass
    spills = _ptxas_spill_bytes(kernels[True].asm["ptx"], tmp_path)
    assert spills and not any(spills), spills


@pytest.mark.needs_tlx_passes
@pytest.mark.parametrize(
    "head_dim, causal, config",
    [(128, True, "TWO_CONSUMERS_Q_IN_REGS"), (128, False, "TWO_CONSUMERS_Q_IN_REGS"), (64, True, "THREE_CONSUMERS")],
)
def test_wait_after_softmax_waits_for_pv_behind_the_exponentials(head_dim, causal, config, tmp_path):
    """``WAIT_AFTER_SOFTMAX``: in every key-block loop the first wait for a ``P @ V`` (``WARPGROUP.DEPBAR.LE
    gsb0, 0x0``) comes after the block's 64 exponentials (``MUFU``), with nothing spilled; without it ptxas
    puts that wait ahead of the first one, which is why the option exists."""
    from tlx.testing.sass import innermost_loops, instructions, opcode, sass_of
    from tlx.tutorials import ws_attention

    cfg = getattr(ws_attention, config)
    first_waits = {}  # per key-block loop: the MUFUs before its first wait for P @ V
    for late in (False, True):
        kernel = _persistent_attention_bf16(head_dim, causal, {**cfg, "WAIT_AFTER_SOFTMAX": late})
        sass = sass_of(kernel.asm["cubin"])
        listing = instructions(sass)
        first_waits[late] = []
        for loop in innermost_loops(sass, "HGMMA"):
            if loop.opcodes["MUFU"] < 64:  # the tile's last P @ V, not a key block
                continue
            mufu = 0
            for _, text in listing[loop.first : loop.last + 1]:
                if "DEPBAR.LE gsb0, 0x0" in text:
                    first_waits[late].append(mufu)
                    break
                mufu += opcode(text) == "MUFU"
        if late:
            spills = _ptxas_spill_bytes(kernel.asm["ptx"], tmp_path)
            assert spills and not any(spills), spills
    assert first_waits[True] and all(mufu >= 64 for mufu in first_waits[True]), first_waits
    assert first_waits[False] and all(mufu == 0 for mufu in first_waits[False]), first_waits


@pytest.mark.needs_tlx_passes
@pytest.mark.parametrize(
    "head_dim, config",
    [
        (64, "TWO_CONSUMERS_Q_IN_REGS"),
        (128, "TWO_CONSUMERS_Q_IN_REGS"),
        (128, "TWO_CONSUMERS_DIAGONAL_FIRST_Q_IN_SMEM"),
        (64, "THREE_CONSUMERS"),
    ],
)
def test_diagonal_first_leaves_the_mask_and_its_branch_out_of_the_key_block_loop(head_dim, config, tmp_path):
    """``DIAGONAL_FIRST``: a causal tile masks its first key block, the one its diagonal crosses, and its
    key-block loop holds no mask: no ``FSEL``, no forward branch, within 1% of the non-causal loop, nothing
    spilled; with Q in registers, and in shared memory with 240 registers (the D=128 causal default from
    N = 4096). Why it matters: after the mask's branch ptxas waits for the previous block's ``P @ V`` at the
    top of the block the branch joins, before the row maxima (at most one of the 68 ``FMNMX`` ahead of it); in
    one straight block 18 (D=64) or 31-32 (D=128) go first. A tile of 192 rows (three consumers) has its
    diagonal in its last two key blocks: the walk masks both, the second peeled out of the loop. Two loops
    (``PEEL_DIAGONAL``) with it: refused."""
    from triton.compiler.errors import CompilationError

    from tlx.testing.sass import forward_branches, instructions, opcode, sass_of
    from tlx.tutorials import ws_attention

    cfg = {**getattr(ws_attention, config), "DIAGONAL_FIRST": False}

    def key_block_loops(causal, diagonal_first):
        kernel = _persistent_attention_bf16(head_dim, causal, {**cfg, "DIAGONAL_FIRST": diagonal_first})
        sass = sass_of(kernel.asm["cubin"])
        listing = instructions(sass)
        loops = _key_block_loops(sass)
        assert len(loops) == cfg["CONSUMERS"], [loop.opcodes for loop in loops]
        found = []
        for loop in loops:
            body = listing[loop.first : loop.last + 1]
            ops = [opcode(text) for _, text in body]
            wait = next(i for i, (_, text) in enumerate(body) if "gsb0, 0x0" in text)
            branches = [b for b, t in forward_branches(sass) if loop.first <= b and t <= loop.last and t - b > 32]
            found.append((loop, ops[:wait].count("FMNMX"), branches))
        return kernel, found

    non_causal = max(loop.length for loop, _, _ in key_block_loops(False, False)[1])
    for loop, maxima_before_wait, branches in key_block_loops(True, False)[1]:
        assert loop.opcodes["FSEL"] >= 64 * 128 // 128 and branches and maxima_before_wait <= 1
    kernel, loops = key_block_loops(True, True)
    for loop, maxima_before_wait, branches in loops:
        assert not loop.opcodes["FSEL"] and not branches, (loop.opcodes.most_common(8), branches)
        assert maxima_before_wait >= 16, maxima_before_wait
        assert loop.length <= 1.01 * non_causal, (loop.length, non_causal)
    spills = _ptxas_spill_bytes(kernel.asm["ptx"], tmp_path)
    assert spills and not any(spills), spills
    with pytest.raises(CompilationError, match="DIAGONAL_FIRST needs the diagonal in one or two key blocks"):
        _persistent_attention_bf16(64, True, {**cfg, "DIAGONAL_FIRST": True, "PEEL_DIAGONAL": True})


@pytest.mark.needs_tlx_passes
@pytest.mark.parametrize(
    "head_dim, config", [(64, "TWO_CONSUMERS_DIAGONAL_FIRST"), (128, "TWO_CONSUMERS_DIAGONAL_FIRST_Q_IN_SMEM")]
)
def test_trimmed_diagonal_reads_the_first_consumers_keys_only(head_dim, config, tmp_path):
    """``TRIM_DIAGONAL``: with two consumers on 128 x 128 tiles walked from the diagonal, consumer 0's rows
    end half-way through the diagonal block, so its ``Q @ K^T`` there reads 64 keys (at D=128 the only
    ``HGMMA.64x64x16``: HEAD_DIM / 16 of them; at D=64, where ``P @ V`` has that shape too, 4 more
    than untrimmed) and its ``P @ V`` 64 values. The peeled next block leaves the key-block loops within
    1% of the untrimmed ones, and nothing spills."""
    from tlx.testing.sass import sass_of
    from tlx.tutorials import ws_attention

    cfg = getattr(ws_attention, config)

    def compiled(trim):
        kernel = _persistent_attention_bf16(head_dim, True, {**cfg, "TRIM_DIAGONAL": trim})
        sass = sass_of(kernel.asm["cubin"])
        return kernel, sass, _key_block_loops(sass)

    _, sass, loops = compiled(False)
    kernel, trimmed_sass, trimmed_loops = compiled(True)
    narrow = [sass.count("HGMMA.64x64x16."), trimmed_sass.count("HGMMA.64x64x16.")]
    if head_dim == 128:
        assert narrow == [0, head_dim // 16], narrow
    else:
        assert narrow[1] >= narrow[0] + head_dim // 16, narrow
    assert len(trimmed_loops) == len(loops) == 2, [loop.opcodes for loop in trimmed_loops]
    for loop, trimmed in zip(loops, trimmed_loops, strict=True):
        assert trimmed.length <= 1.01 * loop.length, (trimmed.length, loop.length)
    spills = _ptxas_spill_bytes(kernel.asm["ptx"], tmp_path)
    assert spills and not any(spills), spills


@pytest.mark.needs_tlx_passes
def test_every_attention_configuration_run_picks_fits_in_120_kib_of_code():
    """Each configuration ``persistent_config`` picks compiles to at most 120 KiB of SASS (16 bytes an
    instruction; the largest, three consumers causal, is 108). A form of the trimmed three-consumer kernel
    with 130 KiB, its key-block loops as long as the shipped ones and nothing spilled, ran at 0.59-0.74x on an
    H100 (2026-12-07 session 36 results), as if its hot code no longer fit an instruction cache."""
    from tlx.testing.sass import instructions, sass_of
    from tlx.tutorials import ws_attention

    first_picked = {}  # each distinct configuration, under the first (head_dim, causal, N) that picks it
    for head_dim in (64, 128):
        for causal in (False, True):
            for n in (1024, 2048, 4096, 8192, 16384):
                cfg = ws_attention.persistent_config(head_dim, causal, n)
                first_picked.setdefault((head_dim, causal, tuple(sorted(cfg.items()))), (n, cfg))
    sizes = {}
    for (head_dim, causal, _), (n, cfg) in first_picked.items():
        sass = sass_of(_persistent_attention_bf16(head_dim, causal, cfg).asm["cubin"])
        sizes[(head_dim, causal, n)] = len(instructions(sass)) * 16
    assert len(sizes) >= 6 and max(sizes.values()) <= 120 * 1024, sizes


@pytest.mark.needs_tlx_passes
def test_trimmed_three_consumers_keep_one_key_block_loop_each():
    """``TRIM_DIAGONAL`` with three consumers (192-row tiles): whether a consumer's rows end half-way into their
    diagonal block depends on the tile's parity, so the trimmed first block (``Q @ K^T`` on 64 keys, both
    operands in shared memory: ``HEAD_DIM / 16`` ``HGMMA.64x64x16`` each) and the full one are two branches
    that meet before a single key-block loop per consumer. A loop in each branch made the kernel 130 KiB of
    code instead of 108 and ran at 0.59-0.74x on an H100 (2026-12-07 session 36 results): the code stays
    within 2% of the untrimmed walk's, and its loops within 1% of the untrimmed ones."""
    from tlx.testing.sass import instructions, sass_of
    from tlx.tutorials import ws_attention

    def compiled(cfg):
        sass = sass_of(_persistent_attention_bf16(64, True, cfg).asm["cubin"])
        narrow_scores = len(re.findall(r"HGMMA\.64x64x16\.F32\.BF16 R\d+, gdesc", sass))
        return len(instructions(sass)), _key_block_loops(sass), narrow_scores

    size, loops, narrow = compiled(ws_attention.THREE_CONSUMERS_DIAGONAL_FIRST)
    trimmed_size, trimmed_loops, trimmed_narrow = compiled(ws_attention.THREE_CONSUMERS_TRIMMED)
    assert (narrow, trimmed_narrow) == (0, 3 * 64 // 16), (narrow, trimmed_narrow)
    assert len(trimmed_loops) == len(loops) == 3, [loop.opcodes for loop in trimmed_loops]
    for loop, trimmed in zip(loops, trimmed_loops, strict=True):
        assert trimmed.length <= 1.01 * loop.length, (trimmed.length, loop.length)
    assert trimmed_size <= 1.02 * size, (trimmed_size, size)


@pytest.mark.needs_tlx_passes
@pytest.mark.parametrize(
    "head_dim, config, budget",
    [(64, "THREE_CONSUMERS", 420), (128, "TWO_CONSUMERS_Q_IN_REGS", 462)],
)
def test_attention_key_block_loop_stays_within_its_instruction_budget(head_dim, config, budget):
    """Instructions added to the persistent attention's key-block loop cost time: at D=64 three warps share
    each SM sub-partition, and their key-block loops (413 warp instructions per 64x128 block with triton 3.6's
    ptxas) take 1,239 of the 1,536 cycles the block's tensor work lasts. On an H100, 57 more instructions per
    block (an eighth of the exponentials moved to the FMA units) cost 5% (2026-12-06 results). So a compiler
    change that adds instructions to this loop is a slowdown; this budget (measured + 1.5%) says which change
    did it. (Fewer is not faster by itself: the row sums moved to the tensor cores, eight small wgmma per
    block, took 58 off and timed 0.98-1.00x at D=64, session 30; FlashAttention-3's loops are 431 at D=64 and
    469 at D=128.) The softmax's own arithmetic is pinned too: one ``MUFU.EX2`` per score plus two for the
    rescale factor."""
    from tlx.testing.sass import sass_of
    from tlx.tutorials import ws_attention

    sass = sass_of(_persistent_attention_bf16(head_dim, False, getattr(ws_attention, config)).asm["cubin"])
    loops = _key_block_loops(sass)
    consumers = getattr(ws_attention, config)["CONSUMERS"]
    assert len(loops) == consumers, [loop.opcodes for loop in loops]
    for loop in loops:
        assert loop.length <= budget, (loop.length, loop.opcodes.most_common(12))
        assert loop.opcodes["MUFU"] == 64 + 2, loop.opcodes  # 64 x 128 scores over 128 threads
        assert not any(loop.opcodes[op] for op in ("STS", "LDS", "LDL", "STL")), loop.opcodes


@pytest.mark.needs_tlx_passes
@pytest.mark.parametrize(
    "head_dim, causal, config, budget",
    [
        (64, True, "THREE_CONSUMERS_DIAGONAL_FIRST", 400),
        (128, False, "CLUSTER_PAIRS", 417),
        (128, True, "CAUSAL_CLUSTER_PAIRS", 418),
    ],
)
def test_lazy_rescale_branches_around_the_accumulator_multiplies(head_dim, causal, config, budget):
    """``LAZY_RESCALE``: in each key-block loop one branch skips the accumulator's rescale (an ``FMUL`` per
    element a thread holds: 32 at D=64, 64 at D=128) and nothing else, so a block whose rows all kept their
    maxima issues the loop less those multiplies. Its static length less them stays within the budget
    (measured + 1.5%: 394 at D=64 causal, three consumers walking from the diagonal, against 426 without
    lazy rescaling; 411 at D=128 in cluster pairs, against 462; 412 in causal pairs, against 465)."""
    from tlx.testing.sass import forward_branches, instructions, opcode, sass_of
    from tlx.tutorials import ws_attention

    cfg = getattr(ws_attention, config)
    assert cfg["LAZY_RESCALE"] and ws_attention.persistent_config(head_dim, causal, 16384) is cfg
    sass = sass_of(_persistent_attention_bf16(head_dim, causal, cfg).asm["cubin"])
    listing = instructions(sass)
    loops = _key_block_loops(sass)
    assert len(loops) == cfg["CONSUMERS"], [loop.opcodes for loop in loops]
    rescale = head_dim * 64 // 128
    for loop in loops:
        skipped = [
            [opcode(text) for _, text in listing[branch + 1 : target]]
            for branch, target in forward_branches(sass)
            if loop.first <= branch and target <= loop.last
        ]
        rescales = [ops for ops in skipped if ops.count("FMUL") == rescale]
        assert len(rescales) == 1 and set(rescales[0]) == {"FMUL"}, skipped
        assert loop.length - rescale <= budget, (loop.length, loop.opcodes.most_common(12))


@pytest.mark.needs_tlx_passes
@pytest.mark.parametrize(
    "causal, n, config, window",
    [
        (False, 1024, "TWO_CONSUMERS_Q_IN_REGS", (0, 8)),
        (True, 4224, "TWO_CONSUMERS_DIAGONAL_FIRST_Q_IN_SMEM", (0, 8)),
        (False, 16384, "CLUSTER_PAIRS", (30, 80)),
        (True, 16384, "CAUSAL_CLUSTER_PAIRS", (30, 200)),
    ],
)
def test_d128_key_block_loop_hands_the_value_stage_back_where_it_measured_fastest(causal, n, config, window):
    """At D=128 the producer's next value load waits for the stage ``P @ V`` read. In each key-block loop of a
    single CTA the consumer's arrive on it follows the wait for ``P @ V`` within 8 instructions (4-5 measured):
    row reductions as trees moved ptxas's softmax instructions in between (34-73) and timed 1-4% slower on an
    H100 (2026-12-06 session 32 results). A cluster pair's arrives, its own and then the peer's, come later (51
    measured), where ptxas puts them while the remote arrive's count takes a register: with them right after
    the wait (the count left out, 3e2c785), the pairs ran 4% slower (H100, 2026-12-07 session 36 results).
    Causal pairs rescaling lazily release the peer's stage 43 and 189 instructions after the wait (without the
    lazy rescale 35 and 39, which ran 2.6-3.4% slower: H100, 2026-12-07 session 38 results)."""
    from tlx.testing.sass import instructions, mnemonic, opcode, sass_of
    from tlx.tutorials import ws_attention

    cfg = getattr(ws_attention, config)
    assert ws_attention.persistent_config(128, causal, n) is cfg
    sass = sass_of(_persistent_attention_bf16(128, causal, cfg).asm["cubin"])
    listing = instructions(sass)
    loops = _key_block_loops(sass)
    assert len(loops) == cfg["CONSUMERS"], [loop.opcodes for loop in loops]
    for loop in loops:
        body = [text for _, text in listing[loop.first : loop.last + 1]]
        waits = [i for i, text in enumerate(body) if mnemonic(text) == "WARPGROUP.DEPBAR.LE" and "gsb0, 0x0" in text]
        assert len(waits) == 1, body
        arrives = [i for i in range(waits[0], len(body)) if opcode(body[i]) == "SYNCS" and ".ARRIVE" in body[i]]
        last = arrives[cfg["CTAS"] - 1]  # this CTA's arrive, then the peer's
        assert window[0] <= last - waits[0] <= window[1], body[waits[0] : last + 1]


def test_sass_loops_are_branch_target_to_branch_back_ranges():
    from tlx.testing.sass import forward_branches, innermost_loops, sass_loops

    rows = [
        (0xFFE0, "MOV R0, RZ"),
        (0xFFF0, "HGMMA.64x128x16.F32 R24, gdesc[UR4], RZ"),
        (0x10000, "SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [UR8], R2"),  # five hex digits: past 64 KiB of code
        (0x10010, "@!P0 BRA 0x10000"),
        (0x10020, "@P1 FSEL R3, R4, -INF, P2"),
        (0x10030, "BRA.U !UP3, 0xfff0"),
        (0x10040, "@P4 BRA 0x10050"),
        (0x10050, "EXIT"),
    ]
    sass = "\n".join(["\t\tFunction : k"] + [f"        /*{a:04x}*/      {t} ;   /* 0x0 */" for a, t in rows])
    assert [(loop.first, loop.last) for loop in sass_loops(sass)] == [(2, 3), (1, 5)]
    (outer,) = innermost_loops(sass, "HGMMA")  # the wait's retry loop has no HGMMA
    assert outer.length == 5 and outer.opcodes == {"HGMMA": 1, "SYNCS": 1, "BRA": 2, "FSEL": 1}
    assert forward_branches(sass) == [(6, 7)]  # the branches back are loops; the last one skips nothing


# ------------------------------------------------------------------------------------------------ misuse


@triton.jit
def task_outside_tasks(n):
    with tlx.async_task(num_warps=4):  # misuse
        pass


@triton.jit
def nested_tasks(n):
    with tlx.async_tasks():
        with tlx.async_task("default"):
            with tlx.async_tasks():  # misuse
                pass


@triton.jit
def task_in_task(n):
    with tlx.async_tasks():
        with tlx.async_task("default"):
            with tlx.async_task(num_warps=4):  # misuse
                pass


@triton.jit
def two_defaults(n):
    with tlx.async_tasks():  # misuse
        with tlx.async_task("default"):
            pass
        with tlx.async_task("default"):
            pass


@triton.jit
def no_default(n):
    with tlx.async_tasks():  # misuse
        with tlx.async_task(num_warps=4):
            pass


@triton.jit
def missing_num_warps(n):
    with tlx.async_tasks():
        with tlx.async_task("default"):
            pass
        with tlx.async_task(registers=232):  # misuse
            pass


@triton.jit
def three_warps(n):
    with tlx.async_tasks():
        with tlx.async_task("default"):
            pass
        with tlx.async_task(num_warps=3):  # misuse
            pass


@triton.jit
def odd_registers(n):
    with tlx.async_tasks():
        with tlx.async_task("default"):
            pass
        with tlx.async_task(num_warps=4, registers=300):  # misuse
            pass


@triton.jit
def replicated_default(n):
    with tlx.async_tasks():
        with tlx.async_task("default", replicate=2):  # misuse
            pass


@triton.jit
def unknown_task_name(n):
    with tlx.async_tasks():
        with tlx.async_task("producer"):  # misuse
            pass


@triton.jit
def replica_id_outside(n):
    tlx.async_task_replica_id()  # misuse


@triton.jit
def fp32_register_operand(n):
    b = tlx.local_alloc((64, 64), tl.float16, 1)
    a = tl.zeros((64, 64), tl.float32)
    tlx.async_dot(a, b[0])  # misuse


N = {"n": "i32"}
PY_CASES = [
    (task_outside_tasks, "each async_task must sit directly in `with tlx.async_tasks():`, not outside"),
    (nested_tasks, "async_tasks cannot be nested inside another async_tasks or async_task"),
    (task_in_task, "each async_task must sit directly in `with tlx.async_tasks():`, not inside another async_task"),
    (unknown_task_name, "tlx.async_task: the only task name is"),
    (replica_id_outside, "async_task_replica_id() is only meaningful inside `with tlx.async_task(...)`"),
]


def misuse_line(kernel) -> int:
    start = kernel.starting_line_number
    return start + next(i for i, text in enumerate(kernel.raw_src) if text.rstrip().endswith("# misuse"))


@pytest.mark.parametrize("kernel, message", PY_CASES, ids=[c[0].__name__ for c in PY_CASES])
def test_task_misuse_is_reported_at_the_kernel_line(kernel, message):
    with pytest.raises(CompilationError) as info:
        frontend_ir(kernel, N, stage="ttir")
    text = str(info.value)
    assert message in text, text
    assert f"{HERE}:{misuse_line(kernel)}: tlx." in text, text


@triton.jit
def loaded_tensor_from_above(x_ptr, n):
    x = tl.load(x_ptr + tl.arange(0, 128))
    with tlx.async_tasks():
        with tlx.async_task("default"):
            pass
        with tlx.async_task(num_warps=4):
            tl.store(x_ptr + tl.arange(0, 128), x + 1)  # misuse


@triton.jit
def too_many_warps(x_ptr, n):
    with tlx.async_tasks():  # misuse
        with tlx.async_task("default"):
            pass
        with tlx.async_task(num_warps=8, replicate=4):
            pass


@triton.jit
def default_with_other_warps(x_ptr, n):
    with tlx.async_tasks():
        with tlx.async_task("default", num_warps=8):  # misuse
            pass
        with tlx.async_task(num_warps=4):
            pass


@triton.jit
def two_task_sets_of_other_budgets(x_ptr, n):
    with tlx.async_tasks():
        with tlx.async_task("default"):
            pass
        with tlx.async_task(num_warps=4, registers=200):
            pass
    with tlx.async_tasks():  # misuse
        with tlx.async_task("default"):
            pass
        with tlx.async_task(num_warps=4, registers=104):
            pass


CPP_CASES = [
    (loaded_tensor_from_above, "uses a tensor computed outside its async task"),
    (too_many_warps, "the tasks need 36 warps in all (4 for the default task, 32 for the others"),
    (default_with_other_warps, "the default task runs on the kernel's 4 warps, not num_warps=8"),
    (two_task_sets_of_other_budgets, "needs a launch cap of 176 registers per thread where an earlier"),
    # checked by the task ops' verifiers (each check in one place), as soon as the tasks are raised
    (two_defaults, "'tlx.async_tasks' op needs exactly one default task (the kernel's own warps run it), found 2"),
    (no_default, "'tlx.async_tasks' op needs exactly one default task (the kernel's own warps run it), found 0"),
    (missing_num_warps, "'tlx.async_task' op a non-default task needs num_warps"),
    (three_warps, "'tlx.async_task' op num_warps must be a power of 2, got 3"),
    (odd_registers, "'tlx.async_task' op registers must be a multiple of 8 in 24..256 (setmaxnreg), got 300"),
    (replicated_default, "'tlx.async_task' op the default task runs once, on the kernel's warps: it cannot be"),
    (fp32_register_operand, "'tlx.async_dot' op `a` from registers must be fp16, bf16 or fp8 (e4m3, e5m2), got 'f32'"),
]


@pytest.mark.needs_tlx_passes
@pytest.mark.parametrize("kernel, message", CPP_CASES, ids=[c[0].__name__ for c in CPP_CASES])
def test_task_lowering_errors_name_the_kernel_line(kernel, message):
    with pytest.raises(TLXCompilationError) as info:
        compile_kernel(kernel, {name: "*fp32" if name == "x_ptr" else "i32" for name in kernel.arg_names})
    text = str(info.value)
    assert message in text, text
    assert re.search(rf"{re.escape(str(HERE))}:{misuse_line(kernel)}:\d+: error:", text), text
    assert "see current operation" not in text  # the user's line, not a dump of the IR


@triton.jit
def tensors_in_tasks_of_fewer_warps(x_ptr, out_ptr):
    """An 8-warp kernel whose 1-warp and 4-warp tasks compute on tensors (public blackwell_scaled_mm_ws.py's
    one-warp loaders, the 4-warp tasks of the attention backward): each task's tensors are laid out over its own
    warps. `offs` is computed before the tasks and recomputed in each."""
    offs = tl.arange(0, 128)
    with tlx.async_tasks():
        with tlx.async_task("default"):
            tl.store(out_ptr + offs, tl.load(x_ptr + offs) + 1)
        with tlx.async_task(num_warps=1):
            tile = tl.load(x_ptr + 128 + offs[:, None] * 4 + tl.arange(0, 4)[None, :])
            tl.store(out_ptr + 128 + offs, tl.sum(tile, axis=1))
        with tlx.async_task(num_warps=4):
            tl.store(out_ptr + 256 + offs, tl.load(x_ptr + 640 + offs) * 2)


SPEC_TENSORS_IN_TASKS_OF_FEWER_WARPS = {
    "kernel": tensors_in_tasks_of_fewer_warps,
    "signature": {"x_ptr": "*fp32", "out_ptr": "*fp32"},
    "constexprs": {},
    "num_warps": 8,
}


@pytest.mark.needs_tlx_passes
def test_tasks_of_fewer_warps_lay_their_tensors_out_over_their_own_warps():
    compiled = compile_tutorial(SPEC_TENSORS_IN_TASKS_OF_FEWER_WARPS)
    ttgir = compiled.asm["ttgir"]
    partitions = re.findall(r"partition(\d+)\(.*?num_warps\((\d+)\)", ttgir)
    assert sorted(int(w) for _, w in partitions) == [1, 4], partitions
    # Every layout a partition's tensors use spreads over that partition's warps (stock's verifier checks it
    # too); the 1-warp task reduces rows of a 2-D tile, the 4-warp task loads 128 floats.
    layouts = dict(re.findall(r"^(#\w+) = #ttg\.blocked<\{.*?warpsPerCTA = \[([\d, ]+)\]", ttgir, re.M))
    warps = {name: math.prod(int(n) for n in w.split(",")) for name, w in layouts.items()}
    assert {1, 4, 8} <= set(warps.values()), layouts
    assert "ld.global" in compiled.asm["ptx"] and "shfl.sync.bfly" in compiled.asm["ptx"]


@pytest.mark.gpu
@gpus.cuda
def test_tasks_of_fewer_warps_on_gpu():
    import torch

    x = torch.randn(768, device="cuda")
    out = torch.full((384,), float("nan"), device="cuda")
    tensors_in_tasks_of_fewer_warps[(1,)](x, out, num_warps=8)
    expected = torch.cat([x[:128] + 1, x[128:640].double().view(128, 4).sum(1).float(), x[640:768] * 2])
    torch.testing.assert_close(out, expected)


@triton.jit
def mapped_elementwise_in_tasks(x_ptr, t_ptr, out_ptr):
    """tl.map_elementwise of a function with an `if` (its region is a control-flow graph, not one block) in
    the default task and, two elements per call, in a 1-warp task."""
    offs = tl.arange(0, 256)
    with tlx.async_tasks():
        with tlx.async_task("default"):
            x = tl.load(x_ptr + offs)
            tl.store(out_ptr + offs, tl.map_elementwise(soft_clip_pair, x, x, tl.load(t_ptr + offs), x)[0])
        with tlx.async_task(num_warps=1):
            x = tl.load(x_ptr + 256 + offs)
            (y,) = tl.map_elementwise(soft_clip_pair, x, tl.load(t_ptr + 256 + offs), pack=2)
            tl.store(out_ptr + 256 + offs, y)


def _soft_clip(x, t):
    """`soft_clip_pair`'s first result, in float64."""
    import torch

    x, t = x.double(), t.double()
    return torch.where(x > t, t + (x - t) * 0.125, x)


SPEC_MAPPED_ELEMENTWISE_IN_TASKS = {
    "kernel": mapped_elementwise_in_tasks,
    "signature": {"x_ptr": "*fp32", "t_ptr": "*fp32", "out_ptr": "*fp32"},
    "constexprs": {},
    "num_warps": 4,
}


@pytest.mark.needs_tlx_passes
def test_map_elementwise_with_control_flow_in_tasks():
    compiled = compile_tutorial(SPEC_MAPPED_ELEMENTWISE_IN_TASKS)
    ttgir = compiled.asm["ttgir"]
    assert ttgir.count('"tt.map_elementwise"') == 2 and "cf.cond_br" in ttgir
    assert re.search(r"partition\d+\(.*?num_warps\(1\)", ttgir)
    # each element's `if` is a branch in the PTX, not a select of both sides
    assert re.search(r"@%p\d+ bra", compiled.asm["ptx"])


@pytest.mark.gpu
@gpus.cuda
def test_map_elementwise_with_control_flow_in_tasks_on_gpu():
    import torch

    x = torch.randn(512, device="cuda")
    t = torch.rand(512, device="cuda")
    out = torch.full((512,), float("nan"), device="cuda")
    mapped_elementwise_in_tasks[(1,)](x, t, out)
    pairs = torch.stack([_soft_clip(x[256::2], t[256::2]), x[257::2].double() * t[257::2].double()], dim=1)
    expected = torch.cat([_soft_clip(x[:256], t[:256]), pairs.flatten()])
    torch.testing.assert_close(out.double(), expected, rtol=1e-6, atol=1e-6)


@triton.jit
def _store_block(x_ptr, value):
    tl.store(x_ptr + tl.arange(0, 128), tl.zeros((128,), tl.float32) + value)


@triton.jit
def tasks_in_a_loop_through_helpers(x_ptr, n):
    for i in range(n):
        with tlx.async_tasks():
            with tlx.async_task("default"):
                _store_block(x_ptr + i * 256, i)
            with tlx.async_task(num_warps=4):
                _store_block(x_ptr + i * 256 + 128, i + 1)


SPEC_TASKS_IN_A_LOOP_THROUGH_HELPERS = {
    "kernel": tasks_in_a_loop_through_helpers,
    "signature": {"x_ptr": "*fp32", "n": "i32"},
    "constexprs": {},
    "num_warps": 4,
}


@pytest.mark.needs_tlx_passes
def test_tasks_inside_a_loop_and_calling_jit_helpers():
    compiled = compile_tutorial(SPEC_TASKS_IN_A_LOOP_THROUGH_HELPERS)
    ttgir = compiled.asm["ttgir"]
    loop = ttgir.index("scf.for")
    ws = ttgir.index("ttg.warp_specialize")
    assert loop < ws, "the warp_specialize belongs inside the loop"
    # The loop index is a scalar from above: passed in, not recomputed.
    assert re.search(r"ttg\.warp_specialize\([^)]*%i[^)]*\)", ttgir) or re.search(
        r"ttg\.warp_specialize\([^)]*%arg\d+", ttgir
    )
    assert compiled.asm["cubin"][:4] == b"\x7fELF"


@triton.jit
def replica_branches(out_ptr, n, NUM_STAGES: tl.constexpr):
    # The public TLX API's idiom: the replica id is a constexpr, branches on it resolve while tracing.
    bufs = tlx.local_alloc((128,), tl.float32, 2 * NUM_STAGES)
    with tlx.async_tasks():
        with tlx.async_task("default"):
            pass
        with tlx.async_task(num_warps=4, replicate=2):
            cid: tl.constexpr = tlx.async_task_replica_id()
            mine = bufs[NUM_STAGES * cid]
            tlx.local_store(mine, tl.zeros((128,), tl.float32) + cid)
            if cid == 0:
                tl.store(out_ptr + tl.arange(0, 128), tlx.local_load(mine) + 1.0)
            else:
                tl.store(out_ptr + 128 + tl.arange(0, 128), tlx.local_load(mine) + 2.0)


SPEC_REPLICA_BRANCHES = {
    "kernel": replica_branches,
    "signature": {"out_ptr": "*fp32", "n": "i32", "NUM_STAGES": "constexpr"},
    "constexprs": {"NUM_STAGES": 3},
    "num_warps": 4,
}


@pytest.mark.needs_tlx_passes
def test_the_replica_id_is_a_constexpr_of_each_replica():
    compiled = compile_tutorial(SPEC_REPLICA_BRANCHES)
    ttgir = compiled.asm["ttgir"]
    partitions = re.split(r"partition\d\(", ttgir)[1:]
    assert len(partitions) == 2, ttgir
    # Each replica traced its own branch only: replica 0 adds 1.0, replica 1 adds 2.0; no branch on the id.
    assert "1.000000e+00" in partitions[0] and "2.000000e+00" not in partitions[0]
    assert "2.000000e+00" in partitions[1].split("partition")[0]
    # Replica 1 selects buffer NUM_STAGES * 1 = 3 with a constant index.
    assert re.search(r"arith\.constant 3 : i32", partitions[1]), partitions[1]
    assert "wgmma" not in compiled.asm["ptx"] and compiled.asm["cubin"][:4] == b"\x7fELF"
