"""Warp-specialized GEMM on Blackwell (sm_100) whose tiles are scheduled dynamically by cluster launch control.

**Compile-verified only**: there is no Blackwell GPU here. ``compile_tutorial(SPEC, arch=100)`` builds an
sm_100a cubin on the CPU (``python/test/test_blackwell_kernels.py``) and checks that its PTX holds
``clusterlaunchcontrol.try_cancel`` and ``clusterlaunchcontrol.query_cancel``, ``tcgen05.mma``,
``tcgen05.commit``, ``tcgen05.ld`` and TMA loads and stores. The kernel has never run; ``run`` is its host
code for a Blackwell GPU.

``blackwell_ws_gemm`` is persistent with a static schedule: a grid of one CTA per SM, CTA ``pid`` taking
tiles ``pid, pid + NUM_SMS, ...``. Here the grid has **one CTA per output tile**, as a plain kernel's
would, and the schedule is dynamic: each running CTA starts with its own tile (its program id), then
claims the next one from the hardware. ``clusterlaunchcontrol.try_cancel`` cancels a CTA that has not
been launched yet and answers with its id; the running CTA computes that CTA's tile instead, and stops
when the answer is that none is left. CTAs that start late (the SM is busy, or taken by another kernel)
simply never run: their tiles went to CTAs already resident, which keep their tensor memory, barriers and
pipelines across tiles as a persistent kernel does, without assuming how many SMs it gets.

The tasks are those of ``blackwell_ws_gemm`` (loader, MMA issuer, epilogue, talking through mbarriers; a
double-buffered accumulator in tensor memory; a subtiled epilogue), each walking the same sequence of
tiles: ``while tile != -1``. The CLC pipeline (``tlx.clc_create_context``) has ``NUM_CLC_STAGES`` stages,
each a 16-byte response and two mbarriers:

* the **epilogue** is also the **producer**: at the start of each tile it asks for the next one
  (``tlx.clc_producer``: wait until the stage is free, arm its full mbarrier for the response's 16 bytes,
  issue the request), so the answer arrives while the tile is computed;
* **every task consumes** each answer at the end of its tile (``tlx.clc_consumer``: wait for the response,
  decode the tile id, release the stage). The stage is free again once all three have read it
  (``num_consumers=3``).

With ``ctas_per_cga=(2, 1, 1)`` (``SPEC_CLUSTER``) the unit of the schedule is a cluster: CTA 0 of a
cluster issues the request for the whole cluster, the response reaches both CTAs
(``.multicast::cluster::all``), and CTA ``r`` takes the tile of the canceled cluster's CTA ``r``. Both
CTAs' consumers release the stage on CTA 0's mbarrier (``multi_ctas=True``: "arrive remote, wait local"),
so the pipeline counts ``3 * CLUSTER`` consumers. The grid is rounded up to whole clusters; a CTA whose
tile lies past the last one takes part in the schedule and computes nothing.
"""

from __future__ import annotations

from typing import Any

import triton
import triton.language as tl

import tlx
from tlx.tutorials.blackwell_ws_gemm import _tile_offsets, gemm_operands
from tlx.warp_spec import get_bufidx_phase


@triton.jit
def blackwell_clc_gemm_kernel(
    a_desc,
    b_desc,
    c_desc,
    M,
    N,
    K,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    NUM_STAGES: tl.constexpr,
    NUM_ACC: tl.constexpr,
    EPILOGUE_SUBTILE: tl.constexpr,
    GROUP_M: tl.constexpr,
    NUM_CLC_STAGES: tl.constexpr,
    CLUSTER: tl.constexpr,
):
    """C = A @ B, A (M x K) and B (K x N) row-major fp16/bf16, C of the same dtype; fp32 accumulation.

    Launch one CTA per output tile (rounded up to a multiple of CLUSTER, the CTAs per cluster). The
    descriptors' boxes: A BLOCK_M x BLOCK_K, B BLOCK_K x BLOCK_N, C BLOCK_M x (BLOCK_N / EPILOGUE_SUBTILE).
    """
    dtype = tlx.dtype_of(a_desc)
    SLICE_N: tl.constexpr = BLOCK_N // EPILOGUE_SUBTILE
    STAGE_BYTES: tl.constexpr = (BLOCK_M * BLOCK_K + BLOCK_K * BLOCK_N) * 2

    a_tiles = tlx.local_alloc((BLOCK_M, BLOCK_K), dtype, NUM_STAGES)
    b_tiles = tlx.local_alloc((BLOCK_K, BLOCK_N), dtype, NUM_STAGES)
    c_tiles = tlx.local_alloc((BLOCK_M, SLICE_N), dtype, 2)
    accs = tlx.local_alloc((BLOCK_M, BLOCK_N), tl.float32, NUM_ACC, storage=tlx.storage_kind.tmem)
    smem_full = tlx.alloc_barriers(NUM_STAGES)
    smem_empty = tlx.alloc_barriers(NUM_STAGES)
    acc_full = tlx.alloc_barriers(NUM_ACC)
    acc_empty = tlx.alloc_barriers(NUM_ACC)
    # Three tasks read every answer (in every CTA of the cluster) before its stage is reused.
    clc = tlx.clc_create_context(num_consumers=3 * CLUSTER, num_stages=NUM_CLC_STAGES)

    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_tiles = num_pid_m * num_pid_n
    k_steps = tl.cdiv(K, BLOCK_K)

    with tlx.async_tasks():
        with tlx.async_task("default"):  # epilogue, and the CLC producer
            tile = tl.program_id(0)
            i = 0  # this CTA's answers so far: which CLC stage, which phase
            t = 0  # this CTA's tiles computed so far: which accumulator, which phase
            while tile != -1:
                stage, clc_phase = get_bufidx_phase(i, NUM_CLC_STAGES)
                # Ask for the next tile now: the answer arrives while this one is computed. The stage's
                # previous answer has been read by every task (the first round finds the stages free).
                tlx.clc_producer(clc, clc_phase ^ 1, k=stage)
                if tile < num_tiles:  # else a CTA of a padded cluster, past the last tile
                    off_m, off_n = _tile_offsets(tile, num_pid_m, num_pid_n, BLOCK_M, BLOCK_N, GROUP_M)
                    b, acc_phase = get_bufidx_phase(t, NUM_ACC)
                    tlx.barrier_wait(acc_full[b], acc_phase)
                    for sl in tl.static_range(EPILOGUE_SUBTILE):
                        part = tlx.local_load(tlx.subslice(accs[b], sl * SLICE_N, SLICE_N))
                        if sl == EPILOGUE_SUBTILE - 1:
                            tlx.barrier_arrive(acc_empty[b])  # every column is in registers
                        c_tile = c_tiles[sl % 2]
                        tlx.async_descriptor_store_wait(1)
                        tlx.local_store(c_tile, part.to(dtype))
                        tlx.fence_async_shared()
                        tlx.async_descriptor_store(c_desc, c_tile, [off_m, off_n + sl * SLICE_N])
                    t += 1
                tile = tlx.clc_consumer(clc, clc_phase, k=stage)
                i += 1
            tlx.async_descriptor_store_wait(0)

        with tlx.async_task(num_warps=1):  # loader
            tile = tl.program_id(0)
            i = 0
            step = 0  # k-steps over all of this CTA's tiles: the ring runs across tile boundaries
            while tile != -1:
                if tile < num_tiles:
                    off_m, off_n = _tile_offsets(tile, num_pid_m, num_pid_n, BLOCK_M, BLOCK_N, GROUP_M)
                    for k in range(k_steps):
                        s, phase = get_bufidx_phase(step, NUM_STAGES)
                        tlx.barrier_wait(smem_empty[s], phase ^ 1)
                        tlx.barrier_expect_bytes(smem_full[s], STAGE_BYTES)
                        tlx.async_descriptor_load(a_desc, a_tiles[s], [off_m, k * BLOCK_K], smem_full[s])
                        tlx.async_descriptor_load(b_desc, b_tiles[s], [k * BLOCK_K, off_n], smem_full[s])
                        step += 1
                stage, clc_phase = get_bufidx_phase(i, NUM_CLC_STAGES)
                tile = tlx.clc_consumer(clc, clc_phase, k=stage)
                i += 1

        with tlx.async_task(num_warps=1):  # MMA issuer
            tile = tl.program_id(0)
            i = 0
            t = 0
            step = 0
            while tile != -1:
                if tile < num_tiles:
                    b, acc_phase = get_bufidx_phase(t, NUM_ACC)
                    tlx.barrier_wait(acc_empty[b], acc_phase ^ 1)  # the epilogue has read it (first two: free)
                    for k in range(k_steps):
                        s, phase = get_bufidx_phase(step, NUM_STAGES)
                        tlx.barrier_wait(smem_full[s], phase)
                        tlx.async_dot(a_tiles[s], b_tiles[s], accs[b], use_acc=k > 0, mBarriers=[smem_empty[s]])
                        step += 1
                    tlx.tcgen05_commit(acc_full[b])
                    t += 1
                stage, clc_phase = get_bufidx_phase(i, NUM_CLC_STAGES)
                tile = tlx.clc_consumer(clc, clc_phase, k=stage)
                i += 1


#: 128 x 256 x 64 tiles, 3 operand stages (3 x 48 KiB) and two 16 KiB epilogue slices: 176 KiB of shared
#: memory; tensor memory: 2 x 256 columns, all 512. Two CLC stages: the producer need not wait for the
#: loader and the MMA issuer to read the previous answer before asking for the next tile.
CONFIG = {
    "BLOCK_M": 128,
    "BLOCK_N": 256,
    "BLOCK_K": 64,
    "NUM_STAGES": 3,
    "NUM_ACC": 2,
    "EPILOGUE_SUBTILE": 4,
    "GROUP_M": 8,
    "NUM_CLC_STAGES": 2,
}
NUM_WARPS = 4  # the epilogue; the loader and the MMA issuer bring one warp each


def _spec(config: dict, cluster: int = 1, dtype: str = "fp16") -> dict:
    bm, bn, bk = config["BLOCK_M"], config["BLOCK_N"], config["BLOCK_K"]
    slice_n = bn // config["EPILOGUE_SUBTILE"]
    spec = {
        "kernel": blackwell_clc_gemm_kernel,
        "signature": {
            "a_desc": f"tensordesc<{dtype}[{bm}, {bk}]>",
            "b_desc": f"tensordesc<{dtype}[{bk}, {bn}]>",
            "c_desc": f"tensordesc<{dtype}[{bm}, {slice_n}]>",
            "M": "i32",
            "N": "i32",
            "K": "i32",
            **dict.fromkeys(config, "constexpr"),
            "CLUSTER": "constexpr",
        },
        "constexprs": {**config, "CLUSTER": cluster},
        "num_warps": NUM_WARPS,
        "ptx": (
            "clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes",
            "clusterlaunchcontrol.query_cancel.is_canceled.pred.b128",
            "clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128",
            "mbarrier.arrive.expect_tx",
            "cp.async.bulk.tensor.2d.shared::cluster.global",
            "tcgen05.mma.cta_group::1.kind::f16",
            "tcgen05.commit.cta_group::1.mbarrier::arrive::one",
            "tcgen05.ld.sync.aligned.32x32b",
            "cp.async.bulk.tensor.2d.global.shared",
        ),
    }
    if cluster > 1:
        spec["options"] = {"ctas_per_cga": (cluster, 1, 1)}
        spec["ptx"] += (".multicast::cluster::all.b128", "mbarrier.arrive.shared::cluster.b64")
    return spec


SPEC = _spec(CONFIG)
#: Clusters of two CTAs: one request per cluster, multicast to both, released on CTA 0's mbarrier.
SPEC_CLUSTER = _spec(CONFIG, cluster=2)


def run(a: Any, b: Any, config: dict | None = None, out: Any = None, cluster: int = 1) -> Any:
    """c = a @ b for row-major fp16 or bf16 CUDA tensors (K and N multiples of 8) on a Blackwell GPU.

    The same conventions as ``blackwell_ws_gemm.run``; ``cluster`` CTAs per cluster (1 or 2). The grid is
    one CTA per output tile: no SM count is needed. Compile-verified only: never run here."""
    cfg, m, n, k, c, a_desc, b_desc, c_desc = gemm_operands(a, b, CONFIG, config, out)
    tiles = triton.cdiv(m, cfg["BLOCK_M"]) * triton.cdiv(n, cfg["BLOCK_N"])
    grid = (triton.cdiv(tiles, cluster) * cluster,)
    options = {"ctas_per_cga": (cluster, 1, 1)} if cluster > 1 else {}
    blackwell_clc_gemm_kernel[grid](
        a_desc, b_desc, c_desc, m, n, k, CLUSTER=cluster, num_warps=NUM_WARPS, **options, **cfg
    )
    return c
