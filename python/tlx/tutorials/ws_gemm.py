"""Persistent warp-specialized GEMM on Hopper: a one-warp producer, two consumer warp groups.

The kernel is persistent (one CTA per SM walks the output tiles) and splits its warps by role with
``tlx.async_tasks``:

* the **producer** (a task of one warp, 24 registers per thread) only issues TMA copies into a
  ring of ``NUM_STAGES`` shared-memory stages. ``full[s]`` (transaction count) says stage ``s`` has
  landed; ``empty[s]`` (one arrival per consumer) says it may be refilled.
* two **consumers** (4 warps each, 232 registers per thread or more, ``setmaxnreg``): consumer 0 is
  the default task (the kernel's own 4 warps), consumer 1 a task of its own; both run
  ``_consume_tiles``. They wait on ``full``, issue ``wgmma.mma_async`` straight from shared memory
  (``tlx.async_dot``), keep one wgmma in flight (``tlx.async_dot_wait(1)``), release the stage the
  finished one read, and write their tile through shared memory with a TMA store.

The layout is FlashAttention-3's: on the H200 it measured 0.3-1.0% faster (4096^3 and 8192^3, bf16
and fp16) than a four-warp producer in the default task beside two replicated consumers (9 working
warps of 12 instead of 12; docs/results/2026-12-04-h200-warp-layout.md).

Two schedules of the consumers:

* ``cooperative``: both consumers work on the same ``BLOCK_M x BLOCK_N`` tile, each on its half of
  the rows (``BLOCK_M // 2`` each). The A stage holds the two halves as two buffers, so a consumer
  picks its half with its number.
* ``pingpong``: each consumer owns whole tiles (the CTA's tiles alternate between them), and named
  barriers make their main loops take turns: while one multiplies, the other runs its epilogue, so
  the tensor cores never wait for a store.
"""

import triton
import triton.language as tl

import tlx
from tlx.tutorials.tiles import grouped_tile

#: Named barrier ids of the ping-pong turn-taking (0 is the CTA barrier ``bar.sync 0``).
_TURN_BARRIER = tl.constexpr(8)


@triton.jit
def _tile_offsets(tile, num_pid_m, num_pid_n, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, GROUP_M: tl.constexpr):
    """Where output tile ``tile`` starts, in grouped order (the tiles running at once share L2)."""
    pid_m, pid_n = grouped_tile(tile, num_pid_m, num_pid_n, GROUP_M)
    return pid_m * BLOCK_M, pid_n * BLOCK_N


@triton.jit
def _consume_tiles(
    consumer: tl.constexpr,
    a_tiles,
    b_tiles,
    c_tiles,
    full,
    empty,
    c_desc,
    pid,
    num_tiles,
    num_pid_m,
    num_pid_n,
    k_steps,
    NUM_SMS: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    GROUP_M: tl.constexpr,
    NUM_STAGES: tl.constexpr,
    A_PARTS: tl.constexpr,
    EPI_M: tl.constexpr,
    PINGPONG: tl.constexpr,
):
    """Consumer ``consumer`` (0 or 1): its wgmmas over the CTA's tiles, then each tile's TMA store."""
    dtype = tlx.dtype_of(c_desc)
    turn = 0  # ping-pong: this CTA's tile sequence number
    step = 0
    for tile in range(pid, num_tiles, NUM_SMS):
        mine = True
        if PINGPONG:
            mine = turn % 2 == consumer
            if not mine:
                step += k_steps  # the other consumer's stages
        if mine:
            off_m, off_n = _tile_offsets(tile, num_pid_m, num_pid_n, BLOCK_M, BLOCK_N, GROUP_M)
            if PINGPONG:
                # Take the tensor cores after the other consumer's main loop of the previous tile.
                if turn > 0:
                    tlx.named_barrier_wait(_TURN_BARRIER + consumer, 256)
            a_part = 0 if PINGPONG else consumer
            # The first k-step starts the accumulator; it has no finished predecessor to release.
            s = step % NUM_STAGES
            tlx.barrier_wait(full[s], (step // NUM_STAGES) & 1)
            acc = tlx.async_dot(a_tiles[s * A_PARTS + a_part], b_tiles[s], use_acc=False)
            step += 1
            # Every later k-step releases the stage its predecessor read.
            for _k in range(1, k_steps):
                s = step % NUM_STAGES
                tlx.barrier_wait(full[s], (step // NUM_STAGES) & 1)
                acc = tlx.async_dot(a_tiles[s * A_PARTS + a_part], b_tiles[s], acc)
                # The previous wgmma is done: its stage goes back to the producer.
                acc = tlx.async_dot_wait(1, acc)
                tlx.barrier_arrive(empty[(step - 1) % NUM_STAGES])
                step += 1
            acc = tlx.async_dot_wait(0, acc)
            tlx.barrier_arrive(empty[(step - 1) % NUM_STAGES])
            if PINGPONG:
                # Hand the tensor cores over if the other consumer has a next tile.
                if tile + NUM_SMS < num_tiles:
                    tlx.named_barrier_arrive(_TURN_BARRIER + 1 - consumer, 256)
            # Epilogue: registers -> shared -> TMA store. The store of this consumer's previous
            # tile must have finished reading its buffer first.
            c_tile = c_tiles[consumer]
            tlx.async_descriptor_store_wait(0)
            tlx.local_store(c_tile, acc.to(dtype))
            tlx.fence_async_shared()
            tlx.async_descriptor_store(c_desc, c_tile, [off_m + (1 - PINGPONG) * consumer * EPI_M, off_n])
        turn += 1
    tlx.async_descriptor_store_wait(0)


@triton.jit
def ws_gemm_kernel(
    a_desc,
    b_desc,
    c_desc,
    M,
    N,
    K,
    NUM_SMS: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    NUM_STAGES: tl.constexpr,
    GROUP_M: tl.constexpr,
    PINGPONG: tl.constexpr,
):
    dtype = tlx.dtype_of(a_desc)
    # Cooperative: the A stage is two (BLOCK_M // 2)-row halves, one per consumer.
    # Ping-pong: one consumer takes the whole BLOCK_M rows.
    A_PARTS: tl.constexpr = 1 if PINGPONG else 2
    PART_M: tl.constexpr = BLOCK_M // A_PARTS
    STAGE_BYTES: tl.constexpr = (BLOCK_M * BLOCK_K + BLOCK_K * BLOCK_N) * 2
    # The epilogue tile of one consumer.
    EPI_M: tl.constexpr = BLOCK_M if PINGPONG else BLOCK_M // 2

    a_tiles = tlx.local_alloc((PART_M, BLOCK_K), dtype, NUM_STAGES * A_PARTS)
    b_tiles = tlx.local_alloc((BLOCK_K, BLOCK_N), dtype, NUM_STAGES)
    c_tiles = tlx.local_alloc((EPI_M, BLOCK_N), dtype, 2)
    full = tlx.alloc_barriers(NUM_STAGES)
    # Cooperative: both consumers release a stage; ping-pong: its one reader.
    empty = tlx.alloc_barriers(NUM_STAGES, arrive_count=A_PARTS)

    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_tiles = num_pid_m * num_pid_n
    k_steps = tl.cdiv(K, BLOCK_K)

    with tlx.async_tasks():
        # Consumer 0 runs on the kernel's own warps, as FlashAttention-3 places its first consumer: the
        # producer then needs one warp, not a warp group of four polling the same mbarriers.
        with tlx.async_task("default", registers=232):
            _consume_tiles(0, a_tiles, b_tiles, c_tiles, full, empty, c_desc, pid, num_tiles, num_pid_m,
                           num_pid_n, k_steps, NUM_SMS, BLOCK_M, BLOCK_N, GROUP_M, NUM_STAGES, A_PARTS,
                           EPI_M, PINGPONG)  # fmt: skip
        with tlx.async_task(num_warps=4, registers=232):
            _consume_tiles(1, a_tiles, b_tiles, c_tiles, full, empty, c_desc, pid, num_tiles, num_pid_m,
                           num_pid_n, k_steps, NUM_SMS, BLOCK_M, BLOCK_N, GROUP_M, NUM_STAGES, A_PARTS,
                           EPI_M, PINGPONG)  # fmt: skip
        with tlx.async_task(num_warps=1, registers=24):
            # Producer: walk the CTA's tiles and k-steps in the consumers' order, one stage each.
            step = 0
            for tile in range(pid, num_tiles, NUM_SMS):
                off_m, off_n = _tile_offsets(tile, num_pid_m, num_pid_n, BLOCK_M, BLOCK_N, GROUP_M)
                for k in range(k_steps):
                    s = step % NUM_STAGES
                    # Phase of the stage's previous use, flipped: the first pass finds every stage free.
                    tlx.barrier_wait(empty[s], ((step // NUM_STAGES) & 1) ^ 1)
                    tlx.barrier_expect_bytes(full[s], STAGE_BYTES)
                    for part in tl.static_range(A_PARTS):
                        tlx.async_descriptor_load(
                            a_desc, a_tiles[s * A_PARTS + part], [off_m + part * PART_M, k * BLOCK_K], full[s]
                        )
                    tlx.async_descriptor_load(b_desc, b_tiles[s], [k * BLOCK_K, off_n], full[s])
                    step += 1


#: Tile shapes per schedule, tuned on the H200 (see docs/results).
CONFIGS = {
    "cooperative": {"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 64, "NUM_STAGES": 3, "GROUP_M": 8},
    "pingpong": {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "NUM_STAGES": 4, "GROUP_M": 8},
}
NUM_WARPS = 4  # consumer 0; consumer 1 and the producer come from their async_tasks


def _spec(schedule: str) -> dict:
    cfg = CONFIGS[schedule]
    bm, bn, bk = cfg["BLOCK_M"], cfg["BLOCK_N"], cfg["BLOCK_K"]
    pingpong = schedule == "pingpong"
    part_m = bm if pingpong else bm // 2
    return {
        "kernel": ws_gemm_kernel,
        "signature": {
            "a_desc": f"tensordesc<fp16[{part_m}, {bk}]>",
            "b_desc": f"tensordesc<fp16[{bk}, {bn}]>",
            "c_desc": f"tensordesc<fp16[{part_m}, {bn}]>",
            "M": "i32",
            "N": "i32",
            "K": "i32",
            "NUM_SMS": "constexpr",
            "BLOCK_M": "constexpr",
            "BLOCK_N": "constexpr",
            "BLOCK_K": "constexpr",
            "NUM_STAGES": "constexpr",
            "GROUP_M": "constexpr",
            "PINGPONG": "constexpr",
        },
        "constexprs": {**cfg, "NUM_SMS": 132, "PINGPONG": pingpong},
        "num_warps": NUM_WARPS,
        "ptx": (
            "cp.async.bulk.tensor.2d.shared::cluster.global",
            "mbarrier.try_wait",
            "wgmma.mma_async",
            "wgmma.wait_group.sync.aligned 1",
            "setmaxnreg.inc.sync.aligned.u32",
            "setmaxnreg.dec.sync.aligned.u32",
            "cp.async.bulk.tensor.2d.global.shared",
        )
        + (("bar.sync", "bar.arrive") if pingpong else ()),
        # setmaxnreg per role: the producer gives registers back, the consumers take them.
        "registers": {"producer": 24, "consumer": 232},
    }


SPEC = _spec("cooperative")
SPEC_PINGPONG = _spec("pingpong")


def run(a, b, schedule: str = "cooperative", config: dict | None = None, out=None, num_sms: int | None = None):
    """c = a @ b for row-major fp16 or bf16 CUDA tensors (K and N multiples of 8).

    The result goes to ``out`` when given (contiguous MxN of a's dtype), else to a new NaN-filled tensor.
    ``num_sms`` caps the persistent grid (default: every SM).
    """
    import torch
    from triton.tools.tensor_descriptor import TensorDescriptor

    if schedule not in CONFIGS:
        raise ValueError(f"schedule must be one of {sorted(CONFIGS)}, got {schedule!r}")
    if a.dtype != b.dtype or a.dtype not in (torch.float16, torch.bfloat16):
        raise ValueError(f"a and b must both be float16 or bfloat16, got {a.dtype} and {b.dtype}")
    cfg = {**CONFIGS[schedule], **(config or {})}
    pingpong = schedule == "pingpong"
    m, k = a.shape
    _, n = b.shape
    part_m = cfg["BLOCK_M"] if pingpong else cfg["BLOCK_M"] // 2
    c = torch.full((m, n), float("nan"), device=a.device, dtype=a.dtype) if out is None else out
    if c.shape != (m, n) or c.dtype != a.dtype or not c.is_contiguous():
        raise ValueError(f"out must be a contiguous {m}x{n} tensor of {a.dtype}")
    a_desc = TensorDescriptor.from_tensor(a, [part_m, cfg["BLOCK_K"]])
    b_desc = TensorDescriptor.from_tensor(b, [cfg["BLOCK_K"], cfg["BLOCK_N"]])
    c_desc = TensorDescriptor.from_tensor(c, [part_m, cfg["BLOCK_N"]])
    num_sms = num_sms or torch.cuda.get_device_properties(a.device).multi_processor_count
    tiles = triton.cdiv(m, cfg["BLOCK_M"]) * triton.cdiv(n, cfg["BLOCK_N"])
    grid = (min(num_sms, tiles),)
    ws_gemm_kernel[grid](
        a_desc, b_desc, c_desc, m, n, k, NUM_SMS=grid[0], PINGPONG=pingpong, num_warps=NUM_WARPS, **cfg
    )
    return c
