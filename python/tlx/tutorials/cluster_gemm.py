"""Persistent warp-specialized GEMM on Hopper with 2-CTA clusters and TMA multicast of B.

A cooperative warp-specialized GEMM in ``ws_gemm``'s warp layout (a one-warp TMA producer, two wgmma
consumer warp groups each on half of a ``BLOCK_M x BLOCK_N`` tile, the first on the kernel's own
warps), launched in clusters of two CTAs
(``ctas_per_cga=(2, 1, 1)``). The two CTAs of a cluster compute vertically adjacent tiles, so they
need the same ``BLOCK_K x BLOCK_N`` tile of B at every k-step: each CTA loads one half of it and
multicasts it to both (``async_descriptor_load(..., multicast_targets=[rank, rank ^ 1])``), which
halves the B traffic from L2.

The protocol, per shared-memory stage ``s``:

* ``full[s]`` (this CTA's): the producer announces the whole stage (its A tile, both B halves); the
  TMA loads of both CTAs complete it. A multicast can land before the announcement; the phase still
  waits for the producer's arrival.
* ``empty[s]``: counts the four consumers of the cluster (two per CTA). A consumer that has read
  stage ``s`` arrives on its own CTA's ``empty[s]`` and on the peer's
  (``barrier_arrive(..., remote_cta_rank=peer)``), so a producer refills a stage, and multicasts
  into the peer's copy of it, only once both copies are free.
* At the start the mbarriers are made visible to the cluster (``fence_mbarrier_init_cluster``,
  then a ``cluster_barrier`` at the start of every task: a cluster barrier waits for every thread
  of the cluster, and only the default task's warps run the code before ``async_tasks``; the three
  warps that round the producer up to a warp group get a task of their own from the compiler that
  passes it too). At the
  end each CTA waits until the peer's consumers have made their last remote arrive (``done``), so
  no CTA exits while the other may still write its shared memory.

With ``MULTICAST=False`` the same kernel loads all of B itself and runs without a cluster: the
baseline that isolates what multicast buys.
"""

import triton
import triton.language as tl

import tlx
from tlx.tutorials.tiles import grouped_tile


@triton.jit
def _tile_offsets(tile, rank, num_pid_m, num_pid_n, CTAS: tl.constexpr, BLOCK_M: tl.constexpr,
                  BLOCK_N: tl.constexpr, GROUP_M: tl.constexpr):  # fmt: skip
    """Where this CTA's output tile of pair ``tile`` starts: row ``rank`` of the pair's ``CTAS`` tile rows."""
    pair_m, pid_n = grouped_tile(tile, num_pid_m, num_pid_n, GROUP_M)
    return (pair_m * CTAS + rank) * BLOCK_M, pid_n * BLOCK_N


@triton.jit
def _consume_tiles(consumer: tl.constexpr, a_tiles, b_tiles, c_tiles, full, empty, done, c_desc, rank, cluster,
                   num_clusters, num_tiles, num_pid_m, num_pid_n, k_steps, CTAS: tl.constexpr, BLOCK_M: tl.constexpr,
                   BLOCK_N: tl.constexpr, GROUP_M: tl.constexpr, NUM_STAGES: tl.constexpr, MULTICAST: tl.constexpr,
                   EPILOGUE_SPLIT: tl.constexpr):  # fmt: skip
    """Consumer ``consumer`` (0 or 1): the half of each of the CTA's tiles from row ``consumer * BLOCK_M // 2``,
    its stages released on both CTAs of the cluster, then the tile's TMA store."""
    dtype = tlx.dtype_of(c_desc)
    HALF_M: tl.constexpr = BLOCK_M // 2
    EPI_N: tl.constexpr = BLOCK_N // EPILOGUE_SPLIT
    peer = rank ^ 1
    if MULTICAST:
        tlx.cluster_barrier()
    step = 0
    for tile in range(cluster, num_tiles, num_clusters):
        off_m, off_n = _tile_offsets(tile, rank, num_pid_m, num_pid_n, CTAS, BLOCK_M, BLOCK_N, GROUP_M)
        s = step % NUM_STAGES
        tlx.barrier_wait(full[s], (step // NUM_STAGES) & 1)
        acc = tlx.async_dot(a_tiles[s * 2 + consumer], b_tiles[s], use_acc=False)
        step += 1
        for _k in range(1, k_steps):
            s = step % NUM_STAGES
            tlx.barrier_wait(full[s], (step // NUM_STAGES) & 1)
            acc = tlx.async_dot(a_tiles[s * 2 + consumer], b_tiles[s], acc)
            acc = tlx.async_dot_wait(1, acc)
            released = (step - 1) % NUM_STAGES
            tlx.barrier_arrive(empty[released])
            if MULTICAST:
                tlx.barrier_arrive(empty[released], remote_cta_rank=peer)
            step += 1
        acc = tlx.async_dot_wait(0, acc)
        released = (step - 1) % NUM_STAGES
        tlx.barrier_arrive(empty[released])
        if MULTICAST:
            tlx.barrier_arrive(empty[released], remote_cta_rank=peer)
        c_tile = c_tiles[consumer]
        if EPILOGUE_SPLIT == 1:
            tlx.async_descriptor_store_wait(0)
            tlx.local_store(c_tile, acc.to(dtype))
            tlx.fence_async_shared()
            tlx.async_descriptor_store(c_desc, c_tile, [off_m + consumer * HALF_M, off_n])
        else:
            left, right = tl.split(tl.permute(tl.reshape(acc, (HALF_M, 2, EPI_N)), (0, 2, 1)))
            tlx.async_descriptor_store_wait(0)
            tlx.local_store(c_tile, left.to(dtype))
            tlx.fence_async_shared()
            tlx.async_descriptor_store(c_desc, c_tile, [off_m + consumer * HALF_M, off_n])
            tlx.async_descriptor_store_wait(0)
            tlx.local_store(c_tile, right.to(dtype))
            tlx.fence_async_shared()
            tlx.async_descriptor_store(c_desc, c_tile, [off_m + consumer * HALF_M, off_n + EPI_N])
    tlx.async_descriptor_store_wait(0)
    if MULTICAST:
        tlx.barrier_arrive(done[0], remote_cta_rank=peer)


@triton.jit
def cluster_gemm_kernel(
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
    MULTICAST: tl.constexpr,
    EPILOGUE_SPLIT: tl.constexpr,
):
    tl.static_assert(EPILOGUE_SPLIT == 1 or EPILOGUE_SPLIT == 2, "EPILOGUE_SPLIT must be 1 or 2")
    dtype = tlx.dtype_of(a_desc)
    HALF_M: tl.constexpr = BLOCK_M // 2
    # Multicast: each CTA loads half of the B tile (its columns), for both CTAs.
    B_PARTS: tl.constexpr = 2 if MULTICAST else 1
    B_PART_N: tl.constexpr = BLOCK_N // B_PARTS
    STAGE_BYTES: tl.constexpr = (BLOCK_M * BLOCK_K + BLOCK_K * BLOCK_N) * 2
    CTAS: tl.constexpr = 2 if MULTICAST else 1

    a_tiles = tlx.local_alloc((HALF_M, BLOCK_K), dtype, NUM_STAGES * 2)
    b_tiles = tlx.local_alloc((BLOCK_K, BLOCK_N), dtype, NUM_STAGES)
    # The epilogue writes a consumer's tile in EPILOGUE_SPLIT column pieces through one buffer: less shared
    # memory than the whole tile, which buys a pipeline stage.
    EPI_N: tl.constexpr = BLOCK_N // EPILOGUE_SPLIT
    c_tiles = tlx.local_alloc((HALF_M, EPI_N), dtype, 2)
    full = tlx.alloc_barriers(NUM_STAGES)
    empty = tlx.alloc_barriers(NUM_STAGES, arrive_count=2 * CTAS)
    done = tlx.alloc_barriers(1, arrive_count=2)
    if MULTICAST:
        tlx.fence_mbarrier_init_cluster()

    # Tiles go to clusters in pairs of vertically adjacent tiles: CTA `rank` of a cluster takes the
    # pair's row `rank` of tiles.
    rank = tlx.cluster_cta_rank() if MULTICAST else 0
    cluster = tl.program_id(0) // CTAS
    num_clusters = NUM_SMS // CTAS
    num_pid_m = tl.cdiv(tl.cdiv(M, BLOCK_M), CTAS)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_tiles = num_pid_m * num_pid_n
    k_steps = tl.cdiv(K, BLOCK_K)

    with tlx.async_tasks():
        # FlashAttention-3's warp layout, as ws_gemm: consumer 0 on the kernel's own warps, consumer 1 a task
        # of four, the producer one warp. Every task passes the cluster barrier once, directly in its body, so
        # the three warps Triton adds to round the producer up to a warp group get a task passing it too.
        with tlx.async_task("default", registers=232):
            _consume_tiles(0, a_tiles, b_tiles, c_tiles, full, empty, done, c_desc, rank, cluster, num_clusters,
                           num_tiles, num_pid_m, num_pid_n, k_steps, CTAS, BLOCK_M, BLOCK_N, GROUP_M, NUM_STAGES,
                           MULTICAST, EPILOGUE_SPLIT)  # fmt: skip
        with tlx.async_task(num_warps=4, registers=232):
            _consume_tiles(1, a_tiles, b_tiles, c_tiles, full, empty, done, c_desc, rank, cluster, num_clusters,
                           num_tiles, num_pid_m, num_pid_n, k_steps, CTAS, BLOCK_M, BLOCK_N, GROUP_M, NUM_STAGES,
                           MULTICAST, EPILOGUE_SPLIT)  # fmt: skip
        with tlx.async_task(num_warps=1, registers=24):
            if MULTICAST:
                # Every thread of both CTAs passes a cluster barrier once: the peer's mbarriers are ready.
                tlx.cluster_barrier()
            step = 0
            for tile in range(cluster, num_tiles, num_clusters):
                off_m, off_n = _tile_offsets(tile, rank, num_pid_m, num_pid_n, CTAS, BLOCK_M, BLOCK_N, GROUP_M)
                for k in range(k_steps):
                    s = step % NUM_STAGES
                    tlx.barrier_wait(empty[s], ((step // NUM_STAGES) & 1) ^ 1)
                    tlx.barrier_expect_bytes(full[s], STAGE_BYTES)
                    for part in tl.static_range(2):
                        tlx.async_descriptor_load(
                            a_desc, a_tiles[s * 2 + part], [off_m + part * HALF_M, k * BLOCK_K], full[s]
                        )
                    if MULTICAST:
                        # CTA `rank` loads column half `rank` of the B tile into both CTAs.
                        if rank == 0:
                            tlx.async_descriptor_load(
                                b_desc,
                                tlx.local_slice(b_tiles[s], [0, 0], [BLOCK_K, B_PART_N]),
                                [k * BLOCK_K, off_n],
                                full[s],
                                multicast_targets=[0, 1],
                            )
                        else:
                            tlx.async_descriptor_load(
                                b_desc,
                                tlx.local_slice(b_tiles[s], [0, B_PART_N], [BLOCK_K, B_PART_N]),
                                [k * BLOCK_K, off_n + B_PART_N],
                                full[s],
                                multicast_targets=[0, 1],
                            )
                    else:
                        tlx.async_descriptor_load(b_desc, b_tiles[s], [k * BLOCK_K, off_n], full[s])
                    step += 1
            if MULTICAST:
                # Stay until the peer's consumers have made their last arrive on this CTA.
                tlx.barrier_wait(done[0], 0)


CONFIG = {"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 64, "NUM_STAGES": 3, "GROUP_M": 8, "EPILOGUE_SPLIT": 1}
NUM_WARPS = 4  # consumer 0; consumer 1 and the producer come from their async_tasks
CLUSTER = (2, 1, 1)


def _spec(multicast: bool) -> dict:
    bm, bn, bk = CONFIG["BLOCK_M"], CONFIG["BLOCK_N"], CONFIG["BLOCK_K"]
    return {
        "kernel": cluster_gemm_kernel,
        "signature": {
            "a_desc": f"tensordesc<fp16[{bm // 2}, {bk}]>",
            "b_desc": f"tensordesc<fp16[{bk}, {bn // (2 if multicast else 1)}]>",
            "c_desc": f"tensordesc<fp16[{bm // 2}, {bn // CONFIG['EPILOGUE_SPLIT']}]>",
            "M": "i32",
            "N": "i32",
            "K": "i32",
            "NUM_SMS": "constexpr",
            "BLOCK_M": "constexpr",
            "BLOCK_N": "constexpr",
            "BLOCK_K": "constexpr",
            "NUM_STAGES": "constexpr",
            "GROUP_M": "constexpr",
            "MULTICAST": "constexpr",
            "EPILOGUE_SPLIT": "constexpr",
        },
        "constexprs": {**CONFIG, "NUM_SMS": 132, "MULTICAST": multicast},
        "num_warps": NUM_WARPS,
        "options": {"ctas_per_cga": CLUSTER} if multicast else {},
        "ptx": (
            "cp.async.bulk.tensor.2d.shared::cluster.global",
            "wgmma.mma_async",
            "setmaxnreg.inc.sync.aligned.u32",
        )
        + (("multicast::cluster", "mapa.shared::cluster", "mbarrier.arrive.shared::cluster.b64") if multicast else ()),
        "registers": {"producer": 24, "consumer": 232},
    }


SPEC = _spec(True)
SPEC_NO_MULTICAST = _spec(False)


def run(a, b, multicast: bool = True, config: dict | None = None, out=None, num_sms: int | None = None):
    """c = a @ b for row-major fp16 or bf16 CUDA tensors (K and N multiples of 8).

    With ``multicast`` the kernel runs in 2-CTA clusters sharing B tiles; without, one CTA per tile
    row as ``ws_gemm``. The result goes to ``out`` when given, else to a new NaN-filled tensor.
    """
    import torch
    from triton.tools.tensor_descriptor import TensorDescriptor

    if a.dtype != b.dtype or a.dtype not in (torch.float16, torch.bfloat16):
        raise ValueError(f"a and b must both be float16 or bfloat16, got {a.dtype} and {b.dtype}")
    cfg = {**CONFIG, **(config or {})}
    m, k = a.shape
    _, n = b.shape
    c = torch.full((m, n), float("nan"), device=a.device, dtype=a.dtype) if out is None else out
    if c.shape != (m, n) or c.dtype != a.dtype or not c.is_contiguous():
        raise ValueError(f"out must be a contiguous {m}x{n} tensor of {a.dtype}")
    half_m = cfg["BLOCK_M"] // 2
    parts = 2 if multicast else 1
    a_desc = TensorDescriptor.from_tensor(a, [half_m, cfg["BLOCK_K"]])
    b_desc = TensorDescriptor.from_tensor(b, [cfg["BLOCK_K"], cfg["BLOCK_N"] // parts])
    c_desc = TensorDescriptor.from_tensor(c, [half_m, cfg["BLOCK_N"] // cfg["EPILOGUE_SPLIT"]])
    num_sms = num_sms or torch.cuda.get_device_properties(a.device).multi_processor_count
    pairs = triton.cdiv(triton.cdiv(m, cfg["BLOCK_M"]), parts) * triton.cdiv(n, cfg["BLOCK_N"])
    # Whole clusters, at most one CTA per SM.
    grid = (min(num_sms // parts, pairs) * parts,)
    options = {"ctas_per_cga": CLUSTER} if multicast else {}
    cluster_gemm_kernel[grid](
        a_desc, b_desc, c_desc, m, n, k, NUM_SMS=grid[0], MULTICAST=multicast, num_warps=NUM_WARPS, **cfg, **options
    )
    return c
