"""The asynchronous-protocol checker on seeded bugs: each kernel below holds one mistake that would hang or
race on the GPU (single-task and warp-specialized, several inside loops). Each must be rejected at compile
time, on the CPU, by an error that names the mistake at the kernel line marked ``# BUG``. The tutorials
must compile with no protocol error and no warning (no false positives)."""

import inspect
import re
import warnings

import pytest
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget

import tlx
from tlx.compiler import TLXCompilationError, TLXWarning
from tlx.tutorials import compile_kernel

DESC = "tensordesc<fp16[64, 64]>"


@triton.jit
def wait_never_arrived(x):
    bars = tlx.alloc_barriers(1)
    tlx.barrier_wait(bars[0], 0)  # BUG


@triton.jit
def wait_on_the_other_barrier(x):
    bars = tlx.alloc_barriers(2)
    tlx.barrier_arrive(bars[1])
    tlx.barrier_wait(bars[0], 0)  # BUG


@triton.jit
def ws_consumer_waits_on_nothing(x, n):
    ready = tlx.alloc_barriers(2)
    done = tlx.alloc_barriers(2)
    with tlx.async_tasks():
        with tlx.async_task("default"):
            for i in range(n):
                tlx.barrier_arrive(done[i % 2])
        with tlx.async_task(num_warps=4):
            for i in range(n):
                tlx.barrier_wait(ready[i % 2], (i // 2) & 1)  # BUG


@triton.jit
def arrive_five_on_one(x):
    bars = tlx.alloc_barriers(1, arrive_count=1)
    tlx.barrier_arrive(bars[0], 5)  # BUG
    tlx.barrier_wait(bars[0], 0)


@triton.jit
def ws_arrive_three_on_two(x, n):
    bars = tlx.alloc_barriers(2, arrive_count=2)
    with tlx.async_tasks():
        with tlx.async_task("default"):
            for i in range(n):
                tlx.barrier_wait(bars[i % 2], 0)
        with tlx.async_task(num_warps=4, replicate=2):
            for i in range(n):
                tlx.barrier_arrive(bars[i % 2], 3)  # BUG


@triton.jit
def tma_without_expect(desc):
    buf = tlx.local_alloc((64, 64), tl.float16, 1)
    bars = tlx.alloc_barriers(1)
    tlx.async_descriptor_load(desc, buf[0], [0, 0], bars[0])  # BUG
    tlx.barrier_arrive(bars[0])
    tlx.barrier_wait(bars[0], 0)


@triton.jit
def ws_producer_without_expect(desc, n):
    bufs = tlx.local_alloc((64, 64), tl.float16, 2)
    full = tlx.alloc_barriers(2)
    empty = tlx.alloc_barriers(2)
    with tlx.async_tasks():
        with tlx.async_task("default"):
            for i in range(n):
                tlx.barrier_wait(empty[i % 2], ((i // 2) & 1) ^ 1)
                tlx.async_descriptor_load(desc, bufs[i % 2], [i * 64, 0], full[i % 2])  # BUG
                tlx.barrier_arrive(full[i % 2])
        with tlx.async_task(num_warps=4):
            for i in range(n):
                tlx.barrier_wait(full[i % 2], (i // 2) & 1)
                tlx.barrier_arrive(empty[i % 2])


@triton.jit
def expect_outside_load_inside_if(desc, flag):
    bufs = tlx.local_alloc((64, 64), tl.float16, 2)
    bars = tlx.alloc_barriers(1)
    tlx.barrier_expect_bytes(bars[0], 8192)  # BUG
    if flag > 0:
        tlx.async_descriptor_load(desc, bufs[0], [0, 0], bars[0])
        tlx.async_descriptor_load(desc, bufs[1], [64, 0], bars[0])
    tlx.barrier_wait(bars[0], 0)


@triton.jit
def expect_too_few_bytes(desc):
    bufs = tlx.local_alloc((64, 64), tl.float16, 2)
    bars = tlx.alloc_barriers(1)
    tlx.barrier_expect_bytes(bars[0], 8192)  # BUG
    tlx.async_descriptor_load(desc, bufs[0], [0, 0], bars[0])
    tlx.async_descriptor_load(desc, bufs[1], [64, 0], bars[0])
    tlx.barrier_wait(bars[0], 0)


@triton.jit
def expect_too_many_bytes_in_loop(desc, n):
    bufs = tlx.local_alloc((64, 64), tl.float16, 2)
    bars = tlx.alloc_barriers(2)
    for i in range(n):
        tlx.barrier_expect_bytes(bars[i % 2], 16384)  # BUG
        tlx.async_descriptor_load(desc, bufs[i % 2], [i * 64, 0], bars[i % 2])
        tlx.barrier_wait(bars[i % 2], (i // 2) & 1)


@triton.jit
def load_while_tma_fills(desc, out):
    buf = tlx.local_alloc((64, 64), tl.float16, 1)
    bars = tlx.alloc_barriers(1)
    tlx.barrier_expect_bytes(bars[0], 8192)
    tlx.async_descriptor_load(desc, buf[0], [0, 0], bars[0])
    x = tlx.local_load(buf[0])  # BUG
    tlx.barrier_wait(bars[0], 0)
    tl.store(out + tl.arange(0, 64)[:, None] * 64 + tl.arange(0, 64)[None, :], x)


@triton.jit
def dot_result_stored_unwaited(out):
    a = tlx.local_alloc((64, 64), tl.float16, 1)
    acc = tlx.async_dot(a[0], a[0])
    offs = tl.arange(0, 64)[:, None] * 64 + tl.arange(0, 64)[None, :]
    tl.store(out + offs, acc)  # BUG


@triton.jit
def dot_loop_result_unwaited(out, n):
    a = tlx.local_alloc((64, 64), tl.float16, 2)
    acc = tl.zeros((64, 64), tl.float32)
    for i in range(n):
        acc = tlx.async_dot(a[i % 2], a[i % 2], acc)
    offs = tl.arange(0, 64)[:, None] * 64 + tl.arange(0, 64)[None, :]
    tl.store(out + offs, acc)  # BUG


@triton.jit
def ws_dot_cast_before_wait(out, n):
    a = tlx.local_alloc((64, 64), tl.float16, 2)
    c = tlx.local_alloc((64, 64), tl.float16, 1)
    with tlx.async_tasks():
        with tlx.async_task("default"):
            pass
        with tlx.async_task(num_warps=4):
            acc = tl.zeros((64, 64), tl.float32)
            for i in range(n):
                acc = tlx.async_dot(a[i % 2], a[i % 2], acc)
                acc = tlx.async_dot_wait(1, acc)
            tlx.local_store(c[0], acc.to(tl.float16))  # BUG


@triton.jit
def tma_store_of_register_writes(desc):
    c = tlx.local_alloc((64, 64), tl.float16, 1)
    tlx.local_store(c[0], tl.zeros((64, 64), tl.float16))
    tlx.async_descriptor_store(desc, c[0], [0, 0])
    tlx.async_descriptor_store_wait(0)


@triton.jit
def tma_store_of_register_writes_in_loop(desc, n):
    c = tlx.local_alloc((64, 64), tl.float16, 2)
    for i in range(n):
        tlx.async_descriptor_store_wait(1)
        tlx.local_store(c[i % 2], tl.zeros((64, 64), tl.float16) + i)
        tlx.async_descriptor_store(desc, c[i % 2], [i * 64, 0])
    tlx.async_descriptor_store_wait(0)


@triton.jit
def local_store_under_running_dot(out):
    a = tlx.local_alloc((64, 64), tl.float16, 1)
    acc = tlx.async_dot(a[0], a[0])
    tlx.local_store(a[0], tl.zeros((64, 64), tl.float16))  # BUG
    acc = tlx.async_dot_wait(0, acc)
    offs = tl.arange(0, 64)[:, None] * 64 + tl.arange(0, 64)[None, :]
    tl.store(out + offs, acc)


@triton.jit
def tma_refill_under_running_dot_in_loop(desc, out, n):
    a = tlx.local_alloc((64, 64), tl.float16, 2)
    bars = tlx.alloc_barriers(2)
    acc = tl.zeros((64, 64), tl.float32)
    for i in range(n):
        acc = tlx.async_dot(a[i % 2], a[i % 2], acc)
        tlx.barrier_expect_bytes(bars[i % 2], 8192)
        tlx.async_descriptor_load(desc, a[i % 2], [i * 64, 0], bars[i % 2])  # BUG
        tlx.barrier_wait(bars[i % 2], (i // 2) & 1)
        acc = tlx.async_dot_wait(0, acc)
    offs = tl.arange(0, 64)[:, None] * 64 + tl.arange(0, 64)[None, :]
    tl.store(out + offs, acc)


@triton.jit
def cp_async_read_unwaited(x, out):
    buf = tlx.local_alloc((64,), tl.float32, 1)
    tlx.async_load(x + tl.arange(0, 64), buf[0])
    tlx.async_load_commit_group()
    v = tlx.local_load(buf[0])  # BUG
    tl.store(out + tl.arange(0, 64), v)


@triton.jit
def cp_async_wait_leaves_it_pending(x, out, n):
    bufs = tlx.local_alloc((64,), tl.float32, 2)
    for i in range(n):
        tlx.async_load(x + i * 64 + tl.arange(0, 64), bufs[i % 2])
        tlx.async_load_commit_group()
        tlx.async_load_wait_group(1)
        v = tlx.local_load(bufs[i % 2])  # BUG
        tl.store(out + i * 64 + tl.arange(0, 64), v)


@triton.jit
def named_barrier_zero_wait_in_tasks(x):
    with tlx.async_tasks():
        with tlx.async_task("default"):
            tlx.named_barrier_arrive(9, 256)
        with tlx.async_task(num_warps=4):
            tlx.named_barrier_wait(0, 256)  # BUG


@triton.jit
def named_barrier_zero_arrive_in_tasks(x, n):
    with tlx.async_tasks():
        with tlx.async_task("default"):
            for _i in range(n):
                tlx.named_barrier_arrive(0, 256)  # BUG
        with tlx.async_task(num_warps=4):
            for _i in range(n):
                tlx.named_barrier_wait(9, 256)


@triton.jit
def named_barrier_of_a_task_replica(x, n):
    with tlx.async_tasks():
        with tlx.async_task("default"):
            for _i in range(n):
                tlx.named_barrier_arrive(9, 256)
        with tlx.async_task(num_warps=4, replicate=2):
            for _i in range(n):
                tlx.named_barrier_wait(3, 256)  # BUG


@triton.jit
def pipeline_phase_never_flips(desc, out, K: tl.constexpr):
    bufs = tlx.local_alloc((64, 64), tl.float16, 2)
    full = tlx.alloc_barriers(2)
    acc = tl.zeros((64, 64), tl.float32)
    for i in tl.static_range(2):
        tlx.barrier_expect_bytes(full[i], 8192)
        tlx.async_descriptor_load(desc, bufs[i], [0, i * 64], full[i])
    for k in range(K):
        s = k % 2
        tlx.barrier_wait(full[s], 0)  # BUG
        acc += tlx.local_load(bufs[s]).to(tl.float32)
        if k + 2 < K:
            tlx.barrier_expect_bytes(full[s], 8192)
            tlx.async_descriptor_load(desc, bufs[s], [0, (k + 2) * 64], full[s])
    offs = tl.arange(0, 64)
    tl.store(out + offs[:, None] * 64 + offs[None, :], acc)


@triton.jit
def ws_phase_flips_every_iteration(x, N: tl.constexpr):
    full = tlx.alloc_barriers(2)
    empty = tlx.alloc_barriers(2)
    with tlx.async_tasks():
        with tlx.async_task("default"):
            for i in range(N):
                tlx.barrier_wait(empty[i % 2], ((i // 2) & 1) ^ 1)
                tlx.barrier_arrive(full[i % 2])
        with tlx.async_task(num_warps=4):
            phase = 0
            for i in range(N):
                tlx.barrier_wait(full[i % 2], phase)  # BUG
                phase ^= 1
                tlx.barrier_arrive(empty[i % 2])


@triton.jit
def ws_producer_reuses_the_free_phase(x, N: tl.constexpr):
    full = tlx.alloc_barriers(3)
    empty = tlx.alloc_barriers(3)
    with tlx.async_tasks():
        with tlx.async_task("default"):
            for i in range(N):
                tlx.barrier_wait(empty[i % 3], 1)  # BUG
                tlx.barrier_arrive(full[i % 3])
        with tlx.async_task(num_warps=4):
            for i in range(N):
                tlx.barrier_wait(full[i % 3], (i // 3) & 1)
                tlx.barrier_arrive(empty[i % 3])


#: (kernel, signature (an int: a constexpr's value), what the error says).
SEEDED = [
    (wait_never_arrived, {"x": "i32"}, "nothing in the kernel arrives on"),
    (wait_on_the_other_barrier, {"x": "i32"}, "nothing in the kernel arrives on"),
    (ws_consumer_waits_on_nothing, {"x": "i32", "n": "i32"}, "nothing in the kernel arrives on"),
    (arrive_five_on_one, {"x": "i32"}, "arrives 5 times on an mbarrier initialized for 1 arrival"),
    (ws_arrive_three_on_two, {"x": "i32", "n": "i32"}, "arrives 3 times on an mbarrier initialized for 2"),
    (tma_without_expect, {"desc": DESC}, "no tlx.barrier_expect_bytes arms"),
    (ws_producer_without_expect, {"desc": DESC, "n": "i32"}, "no tlx.barrier_expect_bytes arms"),
    (expect_outside_load_inside_if, {"desc": DESC, "flag": "i32"}, "deliver 16384 or 0 depending on the branches"),
    (expect_too_few_bytes, {"desc": DESC}, "expects 8192 bytes but the TMA loads completing"),
    (expect_too_many_bytes_in_loop, {"desc": DESC, "n": "i32"}, "expects 16384 bytes but the TMA loads"),
    (load_while_tma_fills, {"desc": DESC, "out": "*fp16"}, "a TMA load may still be filling"),
    (dot_result_stored_unwaited, {"out": "*fp32"}, "before tlx.async_dot_wait retires it"),
    (dot_loop_result_unwaited, {"out": "*fp32", "n": "i32"}, "before tlx.async_dot_wait retires it"),
    (ws_dot_cast_before_wait, {"out": "*fp32", "n": "i32"}, "before tlx.async_dot_wait retires it"),
    (local_store_under_running_dot, {"out": "*fp32"}, "an unfinished tlx.async_dot still reads"),
    (tma_refill_under_running_dot_in_loop, {"desc": DESC, "out": "*fp32", "n": "i32"}, "unfinished tlx.async_dot"),
    (cp_async_read_unwaited, {"x": "*fp32", "out": "*fp32"}, "cp.async may still be filling"),
    (cp_async_wait_leaves_it_pending, {"x": "*fp32", "out": "*fp32", "n": "i32"}, "cp.async may still be filling"),
    (named_barrier_zero_wait_in_tasks, {"x": "i32"}, "named barrier 0 inside warp-specialized tasks"),
    (named_barrier_zero_arrive_in_tasks, {"x": "i32", "n": "i32"}, "named barrier 0 inside warp-specialized tasks"),
    (named_barrier_of_a_task_replica, {"x": "i32", "n": "i32"}, "2-3 (the own barrier of each of the 2 other task"),
    (pipeline_phase_never_flips, {"desc": DESC, "out": "*fp32", "K": 8}, "with phase parity 0 again"),
    (ws_phase_flips_every_iteration, {"x": "i32", "N": 8}, "with phase parity 0 again"),
    (ws_producer_reuses_the_free_phase, {"x": "i32", "N": 9}, "with phase parity 1 again"),
]


def _bug_line(kernel) -> int:
    lines, first = inspect.getsourcelines(kernel.fn)
    marked = [first + i for i, line in enumerate(lines) if line.rstrip().endswith("# BUG")]
    assert len(marked) == 1, f"{kernel.fn.__name__} marks {len(marked)} lines"
    return marked[0]


def _compile(kernel, signature):
    """Compile for sm_90; an int in `signature` is the value of a constexpr argument."""
    types = {k: v for k, v in signature.items() if not isinstance(v, int)}
    return compile_kernel(kernel, types, {k: v for k, v in signature.items() if isinstance(v, int)})


@pytest.mark.parametrize(
    "kernel, signature",
    [
        (tma_store_of_register_writes, {"desc": DESC}),
        (tma_store_of_register_writes_in_loop, {"desc": DESC, "n": "i32"}),
    ],
    ids=["straight", "loop"],
)
def test_the_compiler_fences_register_writes_before_a_tma_store(kernel, signature):
    # Kernels written for the public TLX API leave this fence to the compiler (its FenceInsertion pass
    # does it); tlx-insert-proxy-fences does the same.
    ptx = _compile(kernel, signature).asm["ptx"]
    store = ptx.index("cp.async.bulk.tensor.2d.global.shared")
    assert "fence.proxy.async.shared::cta" in ptx[:store]


def test_the_suite_is_large_enough():
    assert len(SEEDED) >= 20


@pytest.mark.parametrize("kernel, signature, message", SEEDED, ids=[k.fn.__name__ for k, _, _ in SEEDED])
def test_seeded_bug_is_reported_at_its_line(kernel, signature, message):
    with pytest.raises(TLXCompilationError) as caught:
        _compile(kernel, signature)
    text = str(caught.value)
    assert message in text, text
    line = _bug_line(kernel)
    assert re.search(rf"test_protocol_checker\.py:{line}:\d+: error:", text), f"not at line {line}:\n{text}"


@triton.jit
def branch_loads_its_own_bytes(desc, flag):
    bufs = tlx.local_alloc((64, 64), tl.float16, 1)
    bars = tlx.alloc_barriers(1)
    tlx.barrier_expect_bytes(bars[0], 8192)
    if flag > 0:
        tlx.async_descriptor_load(desc, bufs[0], [0, 0], bars[0])  # WARN
    tlx.barrier_wait(bars[0], 0)


def test_bytes_on_some_paths_only_is_a_warning_at_the_line(monkeypatch):
    monkeypatch.setenv("TRITON_ALWAYS_COMPILE", "1")  # a kernel served from the cache warns nothing
    with pytest.warns(TLXWarning, match="on some paths the TMA loads completing on this mbarrier deliver 8192 or 0"):
        _compile(branch_loads_its_own_bytes, {"desc": DESC, "flag": "i32"})


@triton.jit
def ws_phase_never_flips_for_n_steps(x, n):
    full = tlx.alloc_barriers(2)
    empty = tlx.alloc_barriers(2)
    with tlx.async_tasks():
        with tlx.async_task("default"):
            for i in range(n):
                tlx.barrier_wait(empty[i % 2], ((i // 2) & 1) ^ 1)
                tlx.barrier_arrive(full[i % 2])
        with tlx.async_task(num_warps=4):
            for i in range(n):
                tlx.barrier_wait(full[i % 2], 0)  # WARN
                tlx.barrier_arrive(empty[i % 2])


def test_a_phase_that_never_flips_in_a_loop_of_unknown_length_is_a_warning_at_the_line(monkeypatch):
    monkeypatch.setenv("TRITON_ALWAYS_COMPILE", "1")
    with pytest.warns(TLXWarning, match="with phase parity 0 again.*assumed trip counts") as caught:
        _compile(ws_phase_never_flips_for_n_steps, {"x": "i32", "n": "i32"})
    lines, first = inspect.getsourcelines(ws_phase_never_flips_for_n_steps.fn)
    line = first + next(i for i, text in enumerate(lines) if text.rstrip().endswith("# WARN"))
    assert any(f"test_protocol_checker.py:{line}:" in str(w.message) for w in caught)


@triton.jit
def ws_ring_with_the_usual_phases(x, n, N: tl.constexpr):
    full = tlx.alloc_barriers(3)
    empty = tlx.alloc_barriers(3, arrive_count=2)
    done = tlx.alloc_barriers(1)
    with tlx.async_tasks():
        with tlx.async_task("default"):
            for t in range(n):  # persistent tiles: the step counter runs across them
                for k in range(N):
                    step = t * N + k
                    tlx.barrier_wait(empty[step % 3], ((step // 3) & 1) ^ 1)
                    tlx.barrier_arrive(full[step % 3])
            tlx.barrier_wait(done[0], 0)
        with tlx.async_task(num_warps=4, replicate=2):
            phase = 0
            s = 0
            for _t in range(n):
                for _k in range(N):
                    tlx.barrier_wait(full[s], phase)
                    tlx.barrier_arrive(empty[s])
                    s += 1
                    if s == 3:
                        s = 0
                        phase ^= 1
            tlx.barrier_arrive(done[0], 1)


@triton.jit
def pipeline_with_the_usual_phases(desc, out, K: tl.constexpr):
    bufs = tlx.local_alloc((64, 64), tl.float16, 2)
    full = tlx.alloc_barriers(2)
    acc = tl.zeros((64, 64), tl.float32)
    for i in tl.static_range(2):
        tlx.barrier_expect_bytes(full[i], 8192)
        tlx.async_descriptor_load(desc, bufs[i], [0, i * 64], full[i])
    for k in range(K):
        s = k % 2
        tlx.barrier_wait(full[s], (k // 2) & 1)
        acc += tlx.local_load(bufs[s]).to(tl.float32)
        if k + 2 < K:
            tlx.barrier_expect_bytes(full[s], 8192)
            tlx.async_descriptor_load(desc, bufs[s], [0, (k + 2) * 64], full[s])
    offs = tl.arange(0, 64)
    tl.store(out + offs[:, None] * 64 + offs[None, :], acc)


@triton.jit
def slot_that_starts_free_and_is_never_released(x):
    """A generated kernel's first-lap wait for a slot that starts free (parity 1) on a ring no task releases:
    it returns at once (the public sched2tlx FA backward's `acc_tmem_empty` wait)."""
    empty = tlx.alloc_barriers(1)
    done = tlx.alloc_barriers(1)
    with tlx.async_tasks():
        with tlx.async_task("default"):
            tlx.barrier_wait(done[0], 0)
        with tlx.async_task(num_warps=1):
            tlx.barrier_wait(empty[0], 1)
            tlx.barrier_arrive(done[0])


@pytest.mark.parametrize(
    "kernel, signature",
    [
        (ws_ring_with_the_usual_phases, {"x": "i32", "n": "i32", "N": 5}),
        (ws_ring_with_the_usual_phases, {"x": "i32", "n": "i32", "N": 1}),
        (pipeline_with_the_usual_phases, {"desc": DESC, "out": "*fp32", "K": 8}),
        (pipeline_with_the_usual_phases, {"desc": DESC, "out": "*fp32", "K": 1}),
        (slot_that_starts_free_and_is_never_released, {"x": "i32"}),
    ],
    ids=["ws-ring-5", "ws-ring-1", "pipeline-8", "pipeline-1", "free-slot-never-released"],
)
def test_the_usual_phase_idioms_compile_clean(monkeypatch, kernel, signature):
    monkeypatch.setenv("TRITON_ALWAYS_COMPILE", "1")
    with warnings.catch_warnings():
        warnings.simplefilter("error", TLXWarning)
        _compile(kernel, signature)


def test_tutorials_compile_with_no_protocol_warning():
    from test_tutorials import SPECS

    from tlx.tutorials import compile_tutorial

    with warnings.catch_warnings():
        warnings.simplefilter("error", TLXWarning)
        for module, name in SPECS:
            compile_tutorial(getattr(module, name))
    assert tlx.compiler.pass_registered("tlx-check-protocol")


@triton.jit
def waits_for_a_second_phase(out):
    bars = tlx.alloc_barriers(1)
    tlx.barrier_arrive(bars[0])
    tlx.barrier_wait(bars[0], 1)  # WAIT
    tl.store(out, 1)


def test_bounded_waits_poll_a_timer_and_fail_a_device_assertion(monkeypatch):
    monkeypatch.setenv("TRITON_ALWAYS_COMPILE", "1")
    monkeypatch.setenv("TLX_WAIT_TIMEOUT_MS", "250")
    compiled = _compile(waits_for_a_second_phase, {"out": "*i32"})
    ptx, llir = compiled.asm["ptx"], compiled.asm["llir"]
    assert "%globaltimer" in ptx and "mbarrier.try_wait.parity" in ptx
    assert "setp.lt.u64 p_late, t_now, 250000000;" in ptx, "250 ms in nanoseconds"
    assert "__assertfail" in ptx and "trap;" in ptx and "vprintf" not in ptx
    lines, first = inspect.getsourcelines(waits_for_a_second_phase.fn)
    line = first + next(i for i, text in enumerate(lines) if "# WAIT" in text)
    report = re.search(
        r"TLX: mbarrier wait timed out after 250 ms in kernel `waits_for_a_second_phase` at ([^:]+):(\d+): "
        r"mbarrier 0 of the tlx.alloc_barriers at [^ ]+ never completed phase parity (\d)",
        llir,
    )
    assert report and report.group(1).endswith("test_protocol_checker.py") and int(report.group(2)) == line
    assert report.group(3) == "1", "the kernel waits for phase 1 (a run-time phase selects between two messages)"


def test_waits_are_unbounded_by_default(monkeypatch):
    monkeypatch.setenv("TRITON_ALWAYS_COMPILE", "1")
    monkeypatch.delenv("TLX_WAIT_TIMEOUT_MS", raising=False)
    ptx = _compile(waits_for_a_second_phase, {"out": "*i32"}).asm["ptx"]
    assert "%globaltimer" not in ptx and "trap;" not in ptx


def test_protocol_check_opt_out(monkeypatch):
    monkeypatch.setenv("TRITON_ALWAYS_COMPILE", "1")
    monkeypatch.setenv("TLX_PROTOCOL_CHECK", "0")
    _compile(wait_never_arrived, {"x": "i32"})  # compiles: the user took the check off


@pytest.mark.parametrize("value, message", [("soon", "must be a number of milliseconds"), ("-5", r"must be in \(0")])
def test_bad_wait_timeout_is_a_clear_error(monkeypatch, value, message):
    from tlx.compiler import knobs

    monkeypatch.setenv("TLX_WAIT_TIMEOUT_MS", value)
    with pytest.raises(ValueError, match=message):
        knobs.wait_timeout_us()


def test_knobs_are_compile_options(monkeypatch):
    """The knobs ride in the compile options, whose hash keys Triton's cache: switching one recompiles."""
    from triton.backends.nvidia.compiler import CUDABackend

    from tlx.compiler import knobs

    backend = CUDABackend(GPUTarget("cuda", 90, 32))
    monkeypatch.delenv("TLX_WAIT_TIMEOUT_MS", raising=False)
    monkeypatch.delenv("TLX_PROTOCOL_CHECK", raising=False)
    default = backend.parse_options({})
    monkeypatch.setenv("TLX_WAIT_TIMEOUT_MS", "100")
    bounded = backend.parse_options({})
    assert bounded.tlx_wait_timeout_us == 100_000
    monkeypatch.setenv("TLX_PROTOCOL_CHECK", "off")
    unchecked = backend.parse_options({})
    assert unchecked.tlx_protocol_check is False
    assert len({default.hash(), bounded.hash(), unchecked.hash()}) == 3
    assert "tlx-check-protocol" not in knobs.effective_pipeline(tlx.compiler.PIPELINE, unchecked)
    assert knobs.effective_pipeline(tlx.compiler.PIPELINE, default) == tlx.compiler.PIPELINE
