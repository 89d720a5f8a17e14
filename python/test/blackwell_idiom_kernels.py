"""Blackwell kernels written exactly in the public TLX API's idiom, to prove such kernels compile unmodified.

Each kernel is ours (not a copy), but spelled the way kernels written for the public TLX API
(facebookexperimental/triton, ``third_party/tlx/tutorials/blackwell_*``) are spelled: imported as
``triton.language.extra.tlx``, raw pointers with strides and device-side ``tl.make_tensor_descriptor`` or
host descriptors, ``tlx.local_view``, ``tlx.storage_kind.tmem`` passed positionally, ``tlx.dtype_of`` of
pointers and descriptors, ``tlx.async_dot(..., mBarriers=[...], out_dtype=...)``, the ``get_bufidx_phase``
ring-buffer helper, ``tlx.async_task(num_warps=1, num_regs=24)`` loaders and MMA issuers, replicas, and the
public API's argument names (``arrive_count=``, ``remote_cta_rank=``, ``phase=``, ``pred=``). No fences or
cluster syncs beyond the ones the public tutorials write themselves.

``python/test/test_blackwell_idiom.py`` compiles each ``SPEC_*`` (a tutorial's SPEC form) to an sm_100a cubin
and checks its PTX; the specs are also seeds of ``tlx.testing.kernel_fuzz --seed-module``.
"""

import triton
import triton.language as tl

import tlx  # noqa: F401  (installs the TLX compiler and the triton.language.extra.tlx alias)

# isort: split
import triton.language.extra.tlx as tlx  # noqa: F811  (the public API's spelling)
from triton.language.extra.tlx.warp_spec import get_bufidx_phase

# --------------------------------------------------------------------------------------------------------
# 1. Tensor-memory GEMM: TMA ring, tcgen05 MMA into tensor memory, one partition.
# --------------------------------------------------------------------------------------------------------


@triton.jit
def idiom_tmem_gemm(
    a_ptr,
    b_ptr,
    c_ptr,
    M,
    N,
    K,
    stride_am,
    stride_ak,
    stride_bk,
    stride_bn,
    stride_cm,
    stride_cn,
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
    NUM_STAGES: tl.constexpr,
):
    pid = tl.program_id(axis=0)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n

    desc_a = tl.make_tensor_descriptor(
        a_ptr, shape=[M, K], strides=[stride_am, stride_ak], block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_K]
    )
    desc_b = tl.make_tensor_descriptor(
        b_ptr, shape=[K, N], strides=[stride_bk, stride_bn], block_shape=[BLOCK_SIZE_K, BLOCK_SIZE_N]
    )
    desc_c = tl.make_tensor_descriptor(
        c_ptr, shape=[M, N], strides=[stride_cm, stride_cn], block_shape=[BLOCK_SIZE_M, BLOCK_SIZE_N]
    )

    buffers_A = tlx.local_alloc((BLOCK_SIZE_M, BLOCK_SIZE_K), tlx.dtype_of(a_ptr), NUM_STAGES)
    buffers_B = tlx.local_alloc((BLOCK_SIZE_K, BLOCK_SIZE_N), tlx.dtype_of(b_ptr), NUM_STAGES)
    load_bars = tlx.alloc_barriers(num_barriers=NUM_STAGES, arrive_count=1)
    mma_bars = tlx.alloc_barriers(num_barriers=NUM_STAGES, arrive_count=1)
    acc_buffers = tlx.local_alloc((BLOCK_SIZE_M, BLOCK_SIZE_N), tl.float32, tl.constexpr(1), tlx.storage_kind.tmem)
    acc_tmem = tlx.local_view(acc_buffers, 0)
    # The accumulator starts at zero in tensor memory, so every MMA accumulates.
    tlx.local_store(acc_tmem, tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32))

    stage_bytes: tl.constexpr = 2 * (BLOCK_SIZE_M + BLOCK_SIZE_N) * BLOCK_SIZE_K
    num_iter = tl.cdiv(K, BLOCK_SIZE_K)
    for i in tl.range(0, NUM_STAGES - 1, loop_unroll_factor=NUM_STAGES - 1):
        load_bar = tlx.local_view(load_bars, i)
        tlx.barrier_expect_bytes(load_bar, stage_bytes)
        tlx.async_descriptor_load(
            desc_a, tlx.local_view(buffers_A, i), [pid_m * BLOCK_SIZE_M, i * BLOCK_SIZE_K], load_bar
        )
        tlx.async_descriptor_load(
            desc_b, tlx.local_view(buffers_B, i), [i * BLOCK_SIZE_K, pid_n * BLOCK_SIZE_N], load_bar
        )

    for k in range(0, num_iter):
        buf, phase = get_bufidx_phase(k, NUM_STAGES)
        tlx.barrier_wait(tlx.local_view(load_bars, buf), phase)
        tlx.async_dot(
            tlx.local_view(buffers_A, buf),
            tlx.local_view(buffers_B, buf),
            acc_tmem,
            mBarriers=[tlx.local_view(mma_bars, buf)],
            out_dtype=tl.float32,
        )
        # The stage NUM_STAGES - 1 ahead was last read by the MMA of k - 1: refill it once that one is done.
        nxt = k + NUM_STAGES - 1
        if k > 0:
            prev_buf, prev_phase = get_bufidx_phase(k - 1, NUM_STAGES)
            tlx.barrier_wait(tlx.local_view(mma_bars, prev_buf), prev_phase)
        if nxt < num_iter:
            nxt_buf = nxt % NUM_STAGES
            load_bar = tlx.local_view(load_bars, nxt_buf)
            tlx.barrier_expect_bytes(load_bar, stage_bytes)
            tlx.async_descriptor_load(
                desc_a, tlx.local_view(buffers_A, nxt_buf), [pid_m * BLOCK_SIZE_M, nxt * BLOCK_SIZE_K], load_bar
            )
            tlx.async_descriptor_load(
                desc_b, tlx.local_view(buffers_B, nxt_buf), [nxt * BLOCK_SIZE_K, pid_n * BLOCK_SIZE_N], load_bar
            )

    last_buf, last_phase = get_bufidx_phase(num_iter - 1, NUM_STAGES)
    tlx.barrier_wait(tlx.local_view(mma_bars, last_buf), last_phase)

    result = tlx.local_load(acc_tmem)
    c = result.to(tlx.dtype_of(c_ptr))
    c_buffers = tlx.local_alloc((BLOCK_SIZE_M, BLOCK_SIZE_N), tlx.dtype_of(c_ptr), tl.constexpr(1))
    c_smem = tlx.local_view(c_buffers, 0)
    tlx.local_store(c_smem, c)
    tlx.fence_async_shared()
    tlx.async_descriptor_store(desc_c, c_smem, [pid_m * BLOCK_SIZE_M, pid_n * BLOCK_SIZE_N])
    tlx.async_descriptor_store_wait(0)


SPEC_TMEM_GEMM = {
    "kernel": idiom_tmem_gemm,
    "signature": {
        "a_ptr": "*fp16",
        "b_ptr": "*fp16",
        "c_ptr": "*fp16",
        "M": "i32",
        "N": "i32",
        "K": "i32",
        "stride_am": "i32",
        "stride_bk": "i32",
        "stride_cm": "i32",
    },
    "constexprs": {
        "stride_ak": 1,
        "stride_bn": 1,
        "stride_cn": 1,
        "BLOCK_SIZE_M": 128,
        "BLOCK_SIZE_N": 128,
        "BLOCK_SIZE_K": 64,
        "NUM_STAGES": 3,
    },
    "num_warps": 4,
}


# --------------------------------------------------------------------------------------------------------
# 2. Warp-specialized persistent GEMM: 1-warp producer, 1-warp MMA issuer, the default task as epilogue,
#    a double-buffered tensor-memory accumulator and a subtiled epilogue.
# --------------------------------------------------------------------------------------------------------


@triton.jit
def _tile_coords(tile_id, num_pid_m, num_pid_n, GROUP_SIZE_M: tl.constexpr):
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = tile_id // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + (tile_id % group_size_m)
    pid_n = (tile_id % num_pid_in_group) // group_size_m
    return pid_m, pid_n


@triton.jit
def idiom_ws_gemm(
    a_desc,
    b_desc,
    c_desc,
    M,
    N,
    K,
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
    GROUP_SIZE_M: tl.constexpr,
    NUM_SMEM_BUFFERS: tl.constexpr,
    NUM_TMEM_BUFFERS: tl.constexpr,
    EPILOGUE_SUBTILE: tl.constexpr,
    NUM_SMS: tl.constexpr,
):
    buffers_A = tlx.local_alloc((BLOCK_SIZE_M, BLOCK_SIZE_K), tlx.dtype_of(a_desc), NUM_SMEM_BUFFERS)
    buffers_B = tlx.local_alloc((BLOCK_SIZE_K, BLOCK_SIZE_N), tlx.dtype_of(b_desc), NUM_SMEM_BUFFERS)
    tmem_buffers = tlx.local_alloc((BLOCK_SIZE_M, BLOCK_SIZE_N), tl.float32, NUM_TMEM_BUFFERS, tlx.storage_kind.tmem)
    slice_size: tl.constexpr = BLOCK_SIZE_N // EPILOGUE_SUBTILE
    c_smem_buffers = tlx.local_alloc((BLOCK_SIZE_M, slice_size), tlx.dtype_of(c_desc), 2)

    smem_full_bars = tlx.alloc_barriers(num_barriers=NUM_SMEM_BUFFERS, arrive_count=1)
    smem_empty_bars = tlx.alloc_barriers(num_barriers=NUM_SMEM_BUFFERS, arrive_count=1)
    tmem_full_bars = tlx.alloc_barriers(num_barriers=NUM_TMEM_BUFFERS, arrive_count=1)
    # The epilogue releases a tensor-memory buffer once per slice it has read.
    tmem_empty_bars = tlx.alloc_barriers(num_barriers=NUM_TMEM_BUFFERS, arrive_count=EPILOGUE_SUBTILE)

    with tlx.async_tasks():
        with tlx.async_task("default"):  # epilogue
            start_pid = tl.program_id(axis=0)
            num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
            num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
            num_tiles = num_pid_m * num_pid_n
            tmem_accum_cnt = 0
            for tile_id in range(start_pid, num_tiles, NUM_SMS):
                pid_m, pid_n = _tile_coords(tile_id, num_pid_m, num_pid_n, GROUP_SIZE_M)
                cur_tmem_buf, tmem_read_phase = get_bufidx_phase(tmem_accum_cnt, NUM_TMEM_BUFFERS)
                tlx.barrier_wait(tmem_full_bars[cur_tmem_buf], tmem_read_phase)
                acc_tmem = tmem_buffers[cur_tmem_buf]
                for slice_id in tl.static_range(EPILOGUE_SUBTILE):
                    acc_sub = tlx.local_slice(acc_tmem, [0, slice_id * slice_size], [BLOCK_SIZE_M, slice_size])
                    result = tlx.local_load(acc_sub)
                    tlx.barrier_arrive(tmem_empty_bars[cur_tmem_buf], 1)
                    c = result.to(tlx.dtype_of(c_desc))
                    c_smem = c_smem_buffers[slice_id % 2]
                    tlx.async_descriptor_store_wait(1)
                    tlx.local_store(c_smem, c)
                    tlx.fence_async_shared()
                    tlx.async_descriptor_store(
                        c_desc, c_smem, [pid_m * BLOCK_SIZE_M, pid_n * BLOCK_SIZE_N + slice_id * slice_size]
                    )
                tmem_accum_cnt += 1  # noqa: SIM113  (no enumerate in a Triton kernel)
            tlx.async_descriptor_store_wait(0)

        with tlx.async_task(num_warps=1, num_regs=24):  # MMA issuer
            start_pid = tl.program_id(axis=0)
            num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
            num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
            num_tiles = num_pid_m * num_pid_n
            k_tiles = tl.cdiv(K, BLOCK_SIZE_K)
            tmem_accum_cnt = 0
            smem_accum_cnt = 0
            for _tile_id in range(start_pid, num_tiles, NUM_SMS):
                cur_tmem_buf, tmem_write_phase = get_bufidx_phase(tmem_accum_cnt, NUM_TMEM_BUFFERS)
                # The epilogue must have drained this accumulator (the first round starts free).
                tlx.barrier_wait(tmem_empty_bars[cur_tmem_buf], tmem_write_phase ^ 1)
                for k in range(0, k_tiles):
                    buf, phase = get_bufidx_phase(smem_accum_cnt, NUM_SMEM_BUFFERS)
                    tlx.barrier_wait(smem_full_bars[buf], phase)
                    tlx.async_dot(
                        buffers_A[buf],
                        buffers_B[buf],
                        tmem_buffers[cur_tmem_buf],
                        use_acc=k > 0,
                        mBarriers=[smem_empty_bars[buf]],
                        out_dtype=tl.float32,
                    )
                    smem_accum_cnt += 1
                tlx.tcgen05_commit(tmem_full_bars[cur_tmem_buf])
                tmem_accum_cnt += 1  # noqa: SIM113

        with tlx.async_task(num_warps=1, num_regs=24):  # TMA producer
            start_pid = tl.program_id(axis=0)
            num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
            num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
            num_tiles = num_pid_m * num_pid_n
            k_tiles = tl.cdiv(K, BLOCK_SIZE_K)
            dsize: tl.constexpr = tlx.size_of(tlx.dtype_of(a_desc))
            expected_bytes: tl.constexpr = dsize * (BLOCK_SIZE_M + BLOCK_SIZE_N) * BLOCK_SIZE_K
            smem_accum_cnt = 0
            for tile_id in range(start_pid, num_tiles, NUM_SMS):
                pid_m, pid_n = _tile_coords(tile_id, num_pid_m, num_pid_n, GROUP_SIZE_M)
                for k in range(0, k_tiles):
                    buf, phase = get_bufidx_phase(smem_accum_cnt, NUM_SMEM_BUFFERS)
                    tlx.barrier_wait(smem_empty_bars[buf], phase ^ 1)
                    tlx.barrier_expect_bytes(smem_full_bars[buf], expected_bytes)
                    tlx.async_descriptor_load(
                        a_desc, buffers_A[buf], [pid_m * BLOCK_SIZE_M, k * BLOCK_SIZE_K], smem_full_bars[buf]
                    )
                    tlx.async_descriptor_load(
                        b_desc, buffers_B[buf], [k * BLOCK_SIZE_K, pid_n * BLOCK_SIZE_N], smem_full_bars[buf]
                    )
                    smem_accum_cnt += 1


SPEC_WS_GEMM = {
    "kernel": idiom_ws_gemm,
    "signature": {
        "a_desc": "tensordesc<fp16[128, 64]>",
        "b_desc": "tensordesc<fp16[64, 256]>",
        "c_desc": "tensordesc<fp16[128, 64]>",
        "M": "i32",
        "N": "i32",
        "K": "i32",
    },
    "constexprs": {
        "BLOCK_SIZE_M": 128,
        "BLOCK_SIZE_N": 256,
        "BLOCK_SIZE_K": 64,
        "GROUP_SIZE_M": 8,
        "NUM_SMEM_BUFFERS": 3,
        "NUM_TMEM_BUFFERS": 2,
        "EPILOGUE_SUBTILE": 4,
        "NUM_SMS": 148,
    },
    "num_warps": 4,
}


# --------------------------------------------------------------------------------------------------------
# 3. 2-CTA GEMM: a CTA pair along M, each CTA with its A rows and half of B, the even CTA issuing the
#    cta_group::2 MMA once both CTAs' operands are in (a barrier of arrive_count=2 on the even CTA).
# --------------------------------------------------------------------------------------------------------


@triton.jit
def idiom_2cta_gemm(
    a_ptr,
    stride_am,
    stride_ak,
    b_ptr,
    stride_bk,
    stride_bn,
    c_ptr,
    stride_cm,
    stride_cn,
    M,
    N,
    K,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    OUT_DTYPE: tl.constexpr,
):
    cluster_cta_rank = tlx.cluster_cta_rank()
    pred_cta0 = cluster_cta_rank == 0
    pid_m = tl.program_id(axis=0)
    pid_n = tl.program_id(axis=1)
    offs_am = pid_m * BLOCK_M
    offs_bn = pid_n * BLOCK_N + cluster_cta_rank * (BLOCK_N // 2)

    desc_a = tl.make_tensor_descriptor(
        a_ptr, shape=[M, K], strides=[stride_am, stride_ak], block_shape=[BLOCK_M, BLOCK_K]
    )
    desc_b = tl.make_tensor_descriptor(
        b_ptr, shape=[K, N], strides=[stride_bk, stride_bn], block_shape=[BLOCK_K, BLOCK_N // 2]
    )

    a_smem = tlx.local_view(tlx.local_alloc((BLOCK_M, BLOCK_K), tlx.dtype_of(a_ptr), tl.constexpr(1)), 0)
    b_smem = tlx.local_view(tlx.local_alloc((BLOCK_K, BLOCK_N // 2), tlx.dtype_of(b_ptr), tl.constexpr(1)), 0)
    load_bars = tlx.alloc_barriers(num_barriers=tl.constexpr(1))
    cta_bars = tlx.alloc_barriers(num_barriers=1, arrive_count=2)  # CTA 0 hears from both CTAs
    mma_bars = tlx.alloc_barriers(num_barriers=1, arrive_count=1)
    acc_tmem = tlx.local_view(
        tlx.local_alloc((BLOCK_M, BLOCK_N), tl.float32, tl.constexpr(1), tlx.storage_kind.tmem), 0
    )

    phase = 0
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        tlx.barrier_expect_bytes(load_bars[0], (BLOCK_M + BLOCK_N // 2) * BLOCK_K * 2)
        tlx.async_descriptor_load(desc_a, a_smem, [offs_am, k * BLOCK_K], load_bars[0])
        tlx.async_descriptor_load(desc_b, b_smem, [k * BLOCK_K, offs_bn], load_bars[0])
        tlx.barrier_wait(load_bars[0], phase)
        tlx.barrier_arrive(cta_bars[0], 1, remote_cta_rank=0)
        tlx.barrier_wait(cta_bars[0], phase=phase, pred=pred_cta0)
        tlx.async_dot(a_smem, b_smem, acc_tmem, use_acc=k > 0, mBarriers=[mma_bars[0]], two_ctas=True,
                      out_dtype=OUT_DTYPE)  # fmt: skip
        tlx.barrier_wait(mma_bars[0], phase)
        phase = phase ^ 1

    result = tlx.local_load(acc_tmem)
    offs_cm = offs_am + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    tl.store(c_ptrs, result.to(tlx.dtype_of(c_ptr)))


SPEC_2CTA_GEMM = {
    "kernel": idiom_2cta_gemm,
    "signature": {
        "a_ptr": "*fp16",
        "stride_am": "i32",
        "b_ptr": "*fp16",
        "stride_bk": "i32",
        "c_ptr": "*fp16",
        "stride_cm": "i32",
        "M": "i32",
        "N": "i32",
        "K": "i32",
    },
    "constexprs": {
        "stride_ak": 1,
        "stride_bn": 1,
        "stride_cn": 1,
        "BLOCK_M": 128,
        "BLOCK_N": 256,
        "BLOCK_K": 64,
        "OUT_DTYPE": tl.float32,
    },
    "num_warps": 4,
    "options": {"ctas_per_cga": (2, 1, 1)},
}


@triton.jit
def idiom_2cta_ws_gemm(
    a_desc,
    b_desc,
    c_ptr,
    stride_cm,
    stride_cn,
    K,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    NUM_SMEM_BUFFERS: tl.constexpr,
):
    """The 2-CTA GEMM warp-specialized: the even CTA's 1-warp MMA task waits for both CTAs' producers."""
    cluster_cta_rank = tlx.cluster_cta_rank()
    pred_cta0 = cluster_cta_rank == 0
    buffers_A = tlx.local_alloc((BLOCK_M, BLOCK_K), tlx.dtype_of(a_desc), NUM_SMEM_BUFFERS)
    buffers_B = tlx.local_alloc((BLOCK_K, BLOCK_N // 2), tlx.dtype_of(b_desc), NUM_SMEM_BUFFERS)
    smem_full_bars = tlx.alloc_barriers(num_barriers=NUM_SMEM_BUFFERS)
    cta_bars = tlx.alloc_barriers(num_barriers=NUM_SMEM_BUFFERS, arrive_count=2)
    smem_empty_bars = tlx.alloc_barriers(num_barriers=NUM_SMEM_BUFFERS)
    tmem_full_bars = tlx.alloc_barriers(num_barriers=1)
    acc_tmem = tlx.local_alloc((BLOCK_M, BLOCK_N), tl.float32, tl.constexpr(1), tlx.storage_kind.tmem)[0]
    k_tiles = tl.cdiv(K, BLOCK_K)

    with tlx.async_tasks():
        with tlx.async_task("default"):  # epilogue
            tlx.barrier_wait(tmem_full_bars[0], phase=0)
            result = tlx.local_load(acc_tmem)
            offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
            offs_n = tl.arange(0, BLOCK_N)
            tl.store(c_ptr + stride_cm * offs_m[:, None] + stride_cn * offs_n[None, :], result.to(tl.float16))
        with tlx.async_task(num_warps=1, num_regs=24):  # MMA issuer (CTA 0 issues for the pair)
            for k in range(0, k_tiles):
                buf, phase = get_bufidx_phase(k, NUM_SMEM_BUFFERS)
                tlx.barrier_wait(smem_full_bars[buf], phase)
                tlx.barrier_arrive(cta_bars[buf], 1, remote_cta_rank=0)
                tlx.barrier_wait(cta_bars[buf], phase=phase, pred=pred_cta0)
                tlx.async_dot(buffers_A[buf], buffers_B[buf], acc_tmem, use_acc=k > 0,
                              mBarriers=[smem_empty_bars[buf]], two_ctas=True, out_dtype=tl.float32)  # fmt: skip
            tlx.tcgen05_commit(tmem_full_bars[0], two_ctas=True)
        with tlx.async_task(num_warps=1, num_regs=24):  # TMA producer
            for k in range(0, k_tiles):
                buf, phase = get_bufidx_phase(k, NUM_SMEM_BUFFERS)
                tlx.barrier_wait(smem_empty_bars[buf], phase ^ 1)
                tlx.barrier_expect_bytes(smem_full_bars[buf], (BLOCK_M + BLOCK_N // 2) * BLOCK_K * 2)
                tlx.async_descriptor_load(
                    a_desc, buffers_A[buf], [tl.program_id(0) * BLOCK_M, k * BLOCK_K], smem_full_bars[buf]
                )
                tlx.async_descriptor_load(
                    b_desc, buffers_B[buf], [k * BLOCK_K, cluster_cta_rank * (BLOCK_N // 2)], smem_full_bars[buf]
                )


SPEC_2CTA_WS_GEMM = {
    "kernel": idiom_2cta_ws_gemm,
    "signature": {
        "a_desc": "tensordesc<fp16[128, 64]>",
        "b_desc": "tensordesc<fp16[64, 128]>",
        "c_ptr": "*fp16",
        "stride_cm": "i32",
        "K": "i32",
    },
    "constexprs": {"stride_cn": 1, "BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 64, "NUM_SMEM_BUFFERS": 3},
    "num_warps": 4,
    "options": {"ctas_per_cga": (2, 1, 1)},
}


# --------------------------------------------------------------------------------------------------------
# 4. Attention forward: a 1-warp loader, a 1-warp MMA issuer, a softmax task, the default task as the
#    correction and epilogue; S, P, O and the row statistics in tensor memory.
# --------------------------------------------------------------------------------------------------------


@triton.jit
def idiom_attention_fwd(
    sm_scale,
    M,
    Z,
    H,
    desc_q,
    desc_k,
    desc_v,
    desc_o,
    N_CTX,
    HEAD_DIM: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    NUM_BUFFERS_KV: tl.constexpr,
):
    q_tiles = tlx.local_alloc((BLOCK_M, HEAD_DIM), tlx.dtype_of(desc_q), 1)
    kv_tiles = tlx.local_alloc((BLOCK_N, HEAD_DIM), tlx.dtype_of(desc_k), NUM_BUFFERS_KV)
    q_fulls = tlx.alloc_barriers(num_barriers=1)
    kv_fulls = tlx.alloc_barriers(num_barriers=NUM_BUFFERS_KV)
    kv_empties = tlx.alloc_barriers(num_barriers=NUM_BUFFERS_KV)

    qk_tiles = tlx.local_alloc((BLOCK_M, BLOCK_N), tl.float32, 1, tlx.storage_kind.tmem)
    p_tiles = tlx.local_alloc((BLOCK_M, BLOCK_N), tlx.dtype_of(desc_v), 1, tlx.storage_kind.tmem)
    acc_tiles = tlx.local_alloc((BLOCK_M, HEAD_DIM), tl.float32, 1, tlx.storage_kind.tmem)
    alpha_tiles = tlx.local_alloc((BLOCK_M, 1), tl.float32, 1, tlx.storage_kind.tmem)
    l_tiles = tlx.local_alloc((BLOCK_M, 1), tl.float32, 1, tlx.storage_kind.tmem)
    m_tiles = tlx.local_alloc((BLOCK_M, 1), tl.float32, 1, tlx.storage_kind.tmem)

    qk_fulls = tlx.alloc_barriers(num_barriers=1)  # MMA -> softmax: S is in tensor memory
    qk_empties = tlx.alloc_barriers(num_barriers=1)  # softmax -> MMA: S was read, P written
    p_fulls = tlx.alloc_barriers(num_barriers=1)  # softmax -> MMA: P is in tensor memory
    acc_fulls = tlx.alloc_barriers(num_barriers=1)  # correction -> MMA: O was rescaled
    acc_empties = tlx.alloc_barriers(num_barriers=1)  # MMA -> correction: P @ V is done
    alpha_fulls = tlx.alloc_barriers(num_barriers=1)  # softmax -> correction: alpha written
    alpha_empties = tlx.alloc_barriers(num_barriers=1)  # correction -> softmax: alpha read
    l_fulls = tlx.alloc_barriers(num_barriers=1)  # softmax -> epilogue: l and m written

    with tlx.async_tasks():
        with tlx.async_task("default"):  # correction and epilogue
            start_m = tl.program_id(0)
            off_hz = tl.program_id(1)
            qo_offset_y = off_hz * N_CTX + start_m * BLOCK_M
            phase = 0
            for _ in tl.range(0, N_CTX, BLOCK_N):
                tlx.barrier_wait(alpha_fulls[0], phase)
                alpha = tlx.local_load(alpha_tiles[0])
                tlx.barrier_arrive(alpha_empties[0])
                # O of the previous block is final once its P @ V completed (the first round has none).
                tlx.barrier_wait(acc_empties[0], phase ^ 1)
                acc = tlx.local_load(acc_tiles[0])
                tlx.local_store(acc_tiles[0], acc * alpha)
                tlx.barrier_arrive(acc_fulls[0])
                phase ^= 1
            tlx.barrier_wait(l_fulls[0], 0)
            l_row = tlx.local_load(l_tiles[0])
            m = tlx.local_load(m_tiles[0])
            m += tl.math.log2(l_row)
            offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
            tl.store(M + off_hz * N_CTX + offs_m, tl.reshape(m, [BLOCK_M]))
            tlx.barrier_wait(acc_empties[0], phase ^ 1)
            acc = tlx.local_load(acc_tiles[0])
            desc_o.store([qo_offset_y, 0], (acc / l_row).to(tlx.dtype_of(desc_o)))

        with tlx.async_task(num_warps=4, registers=152, replicate=1):  # softmax
            m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
            l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
            qk_scale = sm_scale * 1.44269504  # 1/log(2)
            phase = 0
            for _ in tl.range(0, N_CTX, BLOCK_N):
                tlx.barrier_wait(qk_fulls[0], phase)
                qk = tlx.local_load(qk_tiles[0])
                m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
                alpha = tl.math.exp2(m_i - m_ij)
                tlx.barrier_wait(alpha_empties[0], phase ^ 1)
                tlx.local_store(alpha_tiles[0], alpha[:, None])
                tlx.barrier_arrive(alpha_fulls[0])
                p = tl.math.exp2(qk * qk_scale - m_ij[:, None])
                l_i = l_i * alpha + tl.sum(p, 1)
                m_i = m_ij
                # P overwrites the previous block's P: the P @ V that read it was issued before this S, and
                # tcgen05 MMAs of one thread complete in order, so qk_fulls above already covered it.
                tlx.local_store(p_tiles[0], p.to(tlx.dtype_of(desc_v)))
                tlx.barrier_arrive(p_fulls[0])
                tlx.barrier_arrive(qk_empties[0])
                phase ^= 1
            tlx.local_store(l_tiles[0], l_i[:, None])
            tlx.local_store(m_tiles[0], m_i[:, None])
            tlx.barrier_arrive(l_fulls[0])

        with tlx.async_task(num_warps=1, registers=24):  # MMA issuer
            tlx.barrier_wait(q_fulls[0], 0)
            accum_cnt_kv = 0
            phase = 0
            for i in tl.range(0, N_CTX, BLOCK_N):
                k_bufIdx, k_phase = get_bufidx_phase(accum_cnt_kv, NUM_BUFFERS_KV)
                v_bufIdx, v_phase = get_bufidx_phase(accum_cnt_kv + 1, NUM_BUFFERS_KV)
                # S = Q @ K^T once the softmax has read the previous S.
                tlx.barrier_wait(kv_fulls[k_bufIdx], k_phase)
                tlx.barrier_wait(qk_empties[0], phase ^ 1)
                tlx.async_dot(q_tiles[0], tlx.local_trans(kv_tiles[k_bufIdx]), qk_tiles[0], use_acc=False,
                              mBarriers=[qk_fulls[0], kv_empties[k_bufIdx]])  # fmt: skip
                # O += P @ V once P is written and O rescaled.
                tlx.barrier_wait(kv_fulls[v_bufIdx], v_phase)
                tlx.barrier_wait(p_fulls[0], phase)
                tlx.barrier_wait(acc_fulls[0], phase)
                tlx.async_dot(p_tiles[0], kv_tiles[v_bufIdx], acc_tiles[0], use_acc=i > 0,
                              mBarriers=[acc_empties[0], kv_empties[v_bufIdx]])  # fmt: skip
                accum_cnt_kv += 2
                phase ^= 1

        with tlx.async_task(num_warps=1, registers=24):  # TMA loader
            start_m = tl.program_id(0)
            off_hz = tl.program_id(1)
            qo_offset_y = off_hz * N_CTX + start_m * BLOCK_M
            kv_offset_y = off_hz * N_CTX
            tlx.barrier_expect_bytes(q_fulls[0], 2 * BLOCK_M * HEAD_DIM)  # float16
            tlx.async_descriptor_load(desc_q, q_tiles[0], [qo_offset_y, 0], q_fulls[0])
            accum_cnt_kv = 0
            for _ in tl.range(0, N_CTX, BLOCK_N):
                k_bufIdx, k_phase = get_bufidx_phase(accum_cnt_kv, NUM_BUFFERS_KV)
                tlx.barrier_wait(kv_empties[k_bufIdx], k_phase ^ 1)
                tlx.barrier_expect_bytes(kv_fulls[k_bufIdx], 2 * BLOCK_N * HEAD_DIM)
                tlx.async_descriptor_load(desc_k, kv_tiles[k_bufIdx], [kv_offset_y, 0], kv_fulls[k_bufIdx])
                v_bufIdx, v_phase = get_bufidx_phase(accum_cnt_kv + 1, NUM_BUFFERS_KV)
                tlx.barrier_wait(kv_empties[v_bufIdx], v_phase ^ 1)
                tlx.barrier_expect_bytes(kv_fulls[v_bufIdx], 2 * BLOCK_N * HEAD_DIM)
                tlx.async_descriptor_load(desc_v, kv_tiles[v_bufIdx], [kv_offset_y, 0], kv_fulls[v_bufIdx])
                kv_offset_y += BLOCK_N
                accum_cnt_kv += 2


SPEC_ATTENTION_FWD = {
    "kernel": idiom_attention_fwd,
    "signature": {
        "sm_scale": "fp32",
        "M": "*fp32",
        "Z": "i32",
        "H": "i32",
        "desc_q": "tensordesc<fp16[128, 128]>",
        "desc_k": "tensordesc<fp16[128, 128]>",
        "desc_v": "tensordesc<fp16[128, 128]>",
        "desc_o": "tensordesc<fp16[128, 128]>",
        "N_CTX": "i32",
    },
    "constexprs": {"HEAD_DIM": 128, "BLOCK_M": 128, "BLOCK_N": 128, "NUM_BUFFERS_KV": 3},
    "num_warps": 4,
}


# --------------------------------------------------------------------------------------------------------
# 5. Cluster launch control: a grid of one CTA per tile, each running CTA claiming the next tile from the
#    hardware (clc_create_context / clc_producer / clc_consumer), as the public CLC tutorials do.
# --------------------------------------------------------------------------------------------------------


@triton.jit
def idiom_clc_loop(out_ptr):
    """The smallest CLC loop: one task produces and consumes, one stage, no cluster synchronization."""
    clc_context = tlx.clc_create_context(num_consumers=1, num_stages=1)
    tile_id = tl.program_id(0)
    phase = 0
    while tile_id != -1:
        tlx.clc_producer(clc_context, phase ^ 1, multi_ctas=False)
        tl.store(out_ptr + tile_id, tile_id)
        tile_id = tlx.clc_consumer(clc_context, phase, multi_ctas=False)
        phase ^= 1


SPEC_CLC_LOOP = {
    "kernel": idiom_clc_loop,
    "signature": {"out_ptr": "*i32"},
    "constexprs": {},
    "num_warps": 4,
}


@triton.jit
def idiom_clc_cluster_loop(out_ptr, CLUSTER_SIZE: tl.constexpr):
    """In a cluster: CTA 0 asks for the cluster, every CTA's consumer releases CTA 0's stage (the default
    multi_ctas=True), the 3-D answer."""
    clc_phase_producer = 1
    clc_phase_consumer = 0
    clc_context = tlx.clc_create_context(CLUSTER_SIZE)
    tile_id = tl.program_id(axis=0)
    while tile_id != -1:
        tlx.clc_producer(clc_context, clc_phase_producer)
        clc_phase_producer ^= 1
        tl.store(out_ptr + tile_id, tile_id)
        tile_id, _tile_y, _tile_z = tlx.clc_consumer(clc_context, clc_phase_consumer, return_3d=True)
        clc_phase_consumer ^= 1


SPEC_CLC_CLUSTER_LOOP = {
    "kernel": idiom_clc_cluster_loop,
    "signature": {"out_ptr": "*i32"},
    "constexprs": {"CLUSTER_SIZE": 2},
    "num_warps": 4,
    "options": {"ctas_per_cga": (2, 1, 1)},
}


@triton.jit
def idiom_clc_gemm(
    a_desc,
    b_desc,
    c_desc,
    M,
    N,
    K,
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
    GROUP_SIZE_M: tl.constexpr,
    NUM_SMEM_BUFFERS: tl.constexpr,
    NUM_TMEM_BUFFERS: tl.constexpr,
):
    """The public CLC GEMM's shape: the epilogue (default task) also produces, three consumers, raw phase
    variables flipped at the end of a round, descriptor stores from registers."""
    buffers_A = tlx.local_alloc((BLOCK_SIZE_M, BLOCK_SIZE_K), tlx.dtype_of(a_desc), NUM_SMEM_BUFFERS)
    buffers_B = tlx.local_alloc((BLOCK_SIZE_K, BLOCK_SIZE_N), tlx.dtype_of(b_desc), NUM_SMEM_BUFFERS)
    tmem_buffers = tlx.local_alloc((BLOCK_SIZE_M, BLOCK_SIZE_N), tl.float32, NUM_TMEM_BUFFERS, tlx.storage_kind.tmem)
    smem_empty_bars = tlx.alloc_barriers(num_barriers=NUM_SMEM_BUFFERS, arrive_count=1)
    smem_full_bars = tlx.alloc_barriers(num_barriers=NUM_SMEM_BUFFERS, arrive_count=1)
    tmem_full_bars = tlx.alloc_barriers(num_barriers=NUM_TMEM_BUFFERS, arrive_count=1)
    tmem_empty_bars = tlx.alloc_barriers(num_barriers=NUM_TMEM_BUFFERS, arrive_count=1)
    clc_context = tlx.clc_create_context(num_consumers=3)

    with tlx.async_tasks():
        with tlx.async_task("default"):  # epilogue consumer, and the CLC producer
            num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
            num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
            tmem_read_phase = 0
            cur_tmem_buf = 0
            tile_id = tl.program_id(axis=0)
            clc_phase_producer = 1
            clc_phase_consumer = 0
            while tile_id != -1:
                tlx.clc_producer(clc_context, clc_phase_producer)
                clc_phase_producer ^= 1
                pid_m, pid_n = _tile_coords(tile_id, num_pid_m, num_pid_n, GROUP_SIZE_M)
                tlx.barrier_wait(tmem_full_bars[cur_tmem_buf], tmem_read_phase)
                tmem_read_phase = tmem_read_phase ^ (cur_tmem_buf == NUM_TMEM_BUFFERS - 1)
                result = tlx.local_load(tmem_buffers[cur_tmem_buf])
                tlx.barrier_arrive(tmem_empty_bars[cur_tmem_buf], 1)
                c_desc.store([pid_m * BLOCK_SIZE_M, pid_n * BLOCK_SIZE_N], result.to(tlx.dtype_of(c_desc)))
                cur_tmem_buf = (cur_tmem_buf + 1) % NUM_TMEM_BUFFERS
                tile_id = tlx.clc_consumer(clc_context, clc_phase_consumer)
                clc_phase_consumer ^= 1

        with tlx.async_task(num_warps=1, num_regs=232):  # MMA consumer
            k_tiles = tl.cdiv(K, BLOCK_SIZE_K)
            dot_phase = 0
            tmem_write_phase = 1
            cur_tmem_buf = 0
            processed_k_iters = 0
            tile_id = tl.program_id(axis=0)
            clc_phase_consumer = 0
            while tile_id != -1:
                tlx.barrier_wait(tmem_empty_bars[cur_tmem_buf], tmem_write_phase)
                tmem_write_phase = tmem_write_phase ^ (cur_tmem_buf == NUM_TMEM_BUFFERS - 1)
                for k in range(0, k_tiles):
                    buf = (processed_k_iters + k) % NUM_SMEM_BUFFERS
                    tlx.barrier_wait(smem_full_bars[buf], dot_phase)
                    tlx.async_dot(
                        buffers_A[buf],
                        buffers_B[buf],
                        tmem_buffers[cur_tmem_buf],
                        use_acc=k > 0,
                        mBarriers=[smem_empty_bars[buf]],
                        out_dtype=tl.float32,
                    )
                    dot_phase = dot_phase ^ (buf == NUM_SMEM_BUFFERS - 1)
                tlx.tcgen05_commit(tmem_full_bars[cur_tmem_buf])
                cur_tmem_buf = (cur_tmem_buf + 1) % NUM_TMEM_BUFFERS
                processed_k_iters += k_tiles
                tile_id = tlx.clc_consumer(clc_context, clc_phase_consumer)
                clc_phase_consumer ^= 1

        with tlx.async_task(num_warps=1, num_regs=232):  # producer, TMA load
            num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
            num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
            k_tiles = tl.cdiv(K, BLOCK_SIZE_K)
            load_phase = 0
            processed_k_iters = 0
            tile_id = tl.program_id(axis=0)
            clc_phase_consumer = 0
            while tile_id != -1:
                pid_m, pid_n = _tile_coords(tile_id, num_pid_m, num_pid_n, GROUP_SIZE_M)
                for k in range(0, k_tiles):
                    buf = (processed_k_iters + k) % NUM_SMEM_BUFFERS
                    tlx.barrier_wait(smem_empty_bars[buf], load_phase ^ 1)
                    tlx.barrier_expect_bytes(
                        smem_full_bars[buf], 2 * (BLOCK_SIZE_M + BLOCK_SIZE_N) * BLOCK_SIZE_K
                    )  # float16
                    tlx.async_descriptor_load(
                        a_desc, buffers_A[buf], [pid_m * BLOCK_SIZE_M, k * BLOCK_SIZE_K], smem_full_bars[buf]
                    )
                    tlx.async_descriptor_load(
                        b_desc, buffers_B[buf], [k * BLOCK_SIZE_K, pid_n * BLOCK_SIZE_N], smem_full_bars[buf]
                    )
                    load_phase = load_phase ^ (buf == NUM_SMEM_BUFFERS - 1)
                processed_k_iters += k_tiles
                tile_id = tlx.clc_consumer(clc_context, clc_phase_consumer)
                clc_phase_consumer ^= 1


SPEC_CLC_GEMM = {
    "kernel": idiom_clc_gemm,
    "signature": {
        "a_desc": "tensordesc<fp16[128, 64]>",
        "b_desc": "tensordesc<fp16[64, 128]>",
        "c_desc": "tensordesc<fp16[128, 128]>",
        "M": "i32",
        "N": "i32",
        "K": "i32",
    },
    "constexprs": {
        "BLOCK_SIZE_M": 128,
        "BLOCK_SIZE_N": 128,
        "BLOCK_SIZE_K": 64,
        "GROUP_SIZE_M": 8,
        "NUM_SMEM_BUFFERS": 3,
        "NUM_TMEM_BUFFERS": 2,
    },
    "num_warps": 4,
}


# --------------------------------------------------------------------------------------------------------
# 6. MXFP8 GEMM: e4m3 A and B (stored N x K), e8m0 scales loaded by 5-D TMA in the cuBLAS block-scaling
#    layout into shared memory and handed to async_dot_scaled as they are (the compiler copies them to
#    tensor memory), a 1-warp producer, a 1-warp MMA issuer and the default task as epilogue.
# --------------------------------------------------------------------------------------------------------


@triton.jit
def idiom_mxfp8_ws_gemm(
    a_desc,
    a_scale_desc,
    b_desc,
    b_scale_desc,
    c_desc,
    M,
    N,
    K,
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
    NUM_SMEM_BUFFERS: tl.constexpr,
    NUM_SMS: tl.constexpr,
):
    REP_M: tl.constexpr = BLOCK_SIZE_M // 128
    REP_N: tl.constexpr = BLOCK_SIZE_N // 128
    REP_K: tl.constexpr = BLOCK_SIZE_K // 32 // 4
    a_tiles = tlx.local_alloc((BLOCK_SIZE_M, BLOCK_SIZE_K), tlx.dtype_of(a_desc), NUM_SMEM_BUFFERS)
    b_tiles = tlx.local_alloc((BLOCK_SIZE_N, BLOCK_SIZE_K), tlx.dtype_of(b_desc), NUM_SMEM_BUFFERS)
    a_scale_tiles = tlx.local_alloc((1, REP_M, REP_K, 2, 256), tl.uint8, NUM_SMEM_BUFFERS)
    b_scale_tiles = tlx.local_alloc((1, REP_N, REP_K, 2, 256), tl.uint8, NUM_SMEM_BUFFERS)
    accumulators = tlx.local_alloc((BLOCK_SIZE_M, BLOCK_SIZE_N), tl.float32, tl.constexpr(1), tlx.storage_kind.tmem)
    c_smem = tlx.local_alloc((BLOCK_SIZE_M, BLOCK_SIZE_N), tlx.dtype_of(c_desc), tl.constexpr(1))

    smem_full = tlx.alloc_barriers(num_barriers=NUM_SMEM_BUFFERS, arrive_count=1)
    smem_empty = tlx.alloc_barriers(num_barriers=NUM_SMEM_BUFFERS, arrive_count=1)
    tmem_full = tlx.alloc_barriers(num_barriers=1, arrive_count=1)
    tmem_empty = tlx.alloc_barriers(num_barriers=1, arrive_count=1)

    with tlx.async_tasks():
        with tlx.async_task("default"):  # epilogue
            num_tiles = tl.cdiv(M, BLOCK_SIZE_M) * tl.cdiv(N, BLOCK_SIZE_N)
            num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
            tmem_count = 0
            for tile_id in range(tl.program_id(axis=0), num_tiles, NUM_SMS):
                _, tmem_phase = get_bufidx_phase(tmem_count, 1)
                tlx.barrier_wait(tmem_full[0], tmem_phase)
                result = tlx.local_load(accumulators[0])
                tlx.barrier_arrive(tmem_empty[0], arrive_count=1)
                tlx.async_descriptor_store_wait(0)
                tlx.local_store(c_smem[0], result.to(tlx.dtype_of(c_desc)))
                tlx.fence_async_shared()
                tlx.async_descriptor_store(
                    c_desc, c_smem[0], [(tile_id // num_pid_n) * BLOCK_SIZE_M, (tile_id % num_pid_n) * BLOCK_SIZE_N]
                )
                tmem_count += 1  # noqa: SIM113
            tlx.async_descriptor_store_wait(0)

        with tlx.async_task(num_warps=1, num_regs=24):  # MMA issuer
            num_tiles = tl.cdiv(M, BLOCK_SIZE_M) * tl.cdiv(N, BLOCK_SIZE_N)
            k_tiles = tl.cdiv(K, BLOCK_SIZE_K)
            smem_count = 0
            tmem_count = 0
            for _tile_id in range(tl.program_id(axis=0), num_tiles, NUM_SMS):
                _, tmem_phase = get_bufidx_phase(tmem_count, 1)
                tlx.barrier_wait(tmem_empty[0], tmem_phase ^ 1)
                for k_idx in range(0, k_tiles):
                    smem_buf, smem_phase = get_bufidx_phase(smem_count, NUM_SMEM_BUFFERS)
                    tlx.barrier_wait(smem_full[smem_buf], smem_phase)
                    tlx.async_dot_scaled(
                        a_tiles[smem_buf],
                        tlx.local_trans(b_tiles[smem_buf]),
                        accumulators[0],
                        a_scale_tiles[smem_buf],
                        "e4m3",
                        b_scale_tiles[smem_buf],
                        "e4m3",
                        use_acc=k_idx != 0,
                        out_dtype=tl.float32,
                        mBarriers=[smem_empty[smem_buf]],
                    )
                    smem_count += 1
                tlx.tcgen05_commit(tmem_full[0])
                tmem_count += 1  # noqa: SIM113

        with tlx.async_task(num_warps=1, num_regs=24):  # TMA producer
            num_tiles = tl.cdiv(M, BLOCK_SIZE_M) * tl.cdiv(N, BLOCK_SIZE_N)
            num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
            k_tiles = tl.cdiv(K, BLOCK_SIZE_K)
            TOTAL_BYTES: tl.constexpr = (BLOCK_SIZE_M + BLOCK_SIZE_N) * BLOCK_SIZE_K + (REP_M + REP_N) * REP_K * 512
            smem_count = 0
            for tile_id in range(tl.program_id(axis=0), num_tiles, NUM_SMS):
                pid_m = tile_id // num_pid_n
                pid_n = tile_id % num_pid_n
                for k in range(0, k_tiles):
                    smem_buf, smem_phase = get_bufidx_phase(smem_count, NUM_SMEM_BUFFERS)
                    tlx.barrier_wait(smem_empty[smem_buf], smem_phase ^ 1)
                    tlx.barrier_expect_bytes(smem_full[smem_buf], TOTAL_BYTES)
                    tlx.async_descriptor_load(
                        a_desc, a_tiles[smem_buf], [pid_m * BLOCK_SIZE_M, k * BLOCK_SIZE_K], smem_full[smem_buf]
                    )
                    tlx.async_descriptor_load(
                        b_desc, b_tiles[smem_buf], [pid_n * BLOCK_SIZE_N, k * BLOCK_SIZE_K], smem_full[smem_buf]
                    )
                    tlx.async_descriptor_load(
                        a_scale_desc, a_scale_tiles[smem_buf], [0, pid_m * REP_M, k * REP_K, 0, 0], smem_full[smem_buf]
                    )
                    tlx.async_descriptor_load(
                        b_scale_desc, b_scale_tiles[smem_buf], [0, pid_n * REP_N, k * REP_K, 0, 0], smem_full[smem_buf]
                    )
                    smem_count += 1


SPEC_MXFP8_WS_GEMM = {
    "kernel": idiom_mxfp8_ws_gemm,
    "signature": {
        "a_desc": "tensordesc<fp8e4nv[128, 128]>",
        "a_scale_desc": "tensordesc<u8[1, 1, 1, 2, 256]>",
        "b_desc": "tensordesc<fp8e4nv[128, 128]>",
        "b_scale_desc": "tensordesc<u8[1, 1, 1, 2, 256]>",
        "c_desc": "tensordesc<bf16[128, 128]>",
        "M": "i32",
        "N": "i32",
        "K": "i32",
    },
    "constexprs": {
        "BLOCK_SIZE_M": 128,
        "BLOCK_SIZE_N": 128,
        "BLOCK_SIZE_K": 128,
        "NUM_SMEM_BUFFERS": 3,
        "NUM_SMS": 148,
    },
    "num_warps": 4,
}


# --------------------------------------------------------------------------------------------------------
# 7. Options of the public API's copies and tasks the tutorials use: a cache-hinted TMA store, a CTA pair's
#    TMA loads completing on the even CTA's mbarrier, the exclusive tasks with a try_wait suspend hint.
# --------------------------------------------------------------------------------------------------------


@triton.jit
def idiom_store_eviction_policy(c_desc, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """``async_descriptor_store(..., eviction_policy="evict_first")``, as the public WS GEMM's epilogue."""
    c_smem = tlx.local_alloc((BLOCK_M, BLOCK_N), tlx.dtype_of(c_desc), tl.constexpr(1))[0]
    tlx.local_store(c_smem, tl.zeros((BLOCK_M, BLOCK_N), dtype=tlx.dtype_of(c_desc)))
    tlx.fence_async_shared()
    tlx.async_descriptor_store(c_desc, c_smem, [0, 0], eviction_policy="evict_first")
    tlx.async_descriptor_store_wait(0)


SPEC_STORE_EVICTION_POLICY = {
    "kernel": idiom_store_eviction_policy,
    "signature": {"c_desc": "tensordesc<fp16[128, 128]>"},
    "constexprs": {"BLOCK_M": 128, "BLOCK_N": 128},
    "num_warps": 4,
}


@triton.jit
def idiom_two_ctas_tma_load(a_desc, b_desc, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    """Both CTAs' TMA completing on the even CTA's barrier (``two_ctas=True`` loads, ``pred=`` expect)."""
    cluster_cta_rank = tlx.cluster_cta_rank()
    is_leader = cluster_cta_rank == 0
    a_smem = tlx.local_alloc((BLOCK_M, BLOCK_K), tlx.dtype_of(a_desc), 1)[0]
    b_smem = tlx.local_alloc((BLOCK_K, BLOCK_N // 2), tlx.dtype_of(b_desc), 1)[0]
    full = tlx.alloc_barriers(num_barriers=1)
    done = tlx.alloc_barriers(num_barriers=1)
    acc = tlx.local_alloc((BLOCK_M, BLOCK_N), tl.float32, 1, tlx.storage_kind.tmem)[0]
    tlx.barrier_expect_bytes(full[0], 2 * (BLOCK_M + BLOCK_N // 2) * BLOCK_K * 2, pred=is_leader)
    tlx.async_descriptor_load(a_desc, a_smem, [cluster_cta_rank * BLOCK_M, 0], full[0], two_ctas=True)
    tlx.async_descriptor_load(b_desc, b_smem, [0, cluster_cta_rank * (BLOCK_N // 2)], full[0], two_ctas=True)
    tlx.barrier_wait(full[0], 0, pred=is_leader)
    tlx.async_dot(a_smem, b_smem, acc, use_acc=False, mBarriers=[done[0]], two_ctas=True)
    tlx.barrier_wait(done[0], 0)


SPEC_TWO_CTAS_TMA_LOAD = {
    "kernel": idiom_two_ctas_tma_load,
    "signature": {"a_desc": "tensordesc<fp16[128, 64]>", "b_desc": "tensordesc<fp16[64, 128]>"},
    "constexprs": {"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 64},
    "num_warps": 4,
    "options": {"ctas_per_cga": (2, 1, 1)},
}


@triton.jit
def idiom_async_tasks_options(out_ptr):
    """``async_tasks(exclusive=..., mbarrier_try_wait_suspend_ns=...)``, as the public persistent GEMM."""
    bars = tlx.alloc_barriers(num_barriers=1)
    with tlx.async_tasks(exclusive=True, mbarrier_try_wait_suspend_ns=50000):
        with tlx.async_task("default"):
            tlx.barrier_wait(bars[0], 0)
            tl.store(out_ptr + tl.arange(0, 128), tl.zeros([128], dtype=tl.float32))
        with tlx.async_task(num_warps=1, num_regs=24):
            tlx.barrier_arrive(bars[0])


SPEC_ASYNC_TASKS_OPTIONS = {
    "kernel": idiom_async_tasks_options,
    "signature": {"out_ptr": "*fp32"},
    "constexprs": {},
    "num_warps": 4,
}


# --------------------------------------------------------------------------------------------------------
# 8. Storage aliasing in tensor memory: P (two fp16 subtiles) and alpha inside S's columns, as the public
#    FA kernels place them (``storage_alias_spec``, ``reuse=``, ``reuse_group``, ``set_buffer_overlap``).
# --------------------------------------------------------------------------------------------------------


@triton.jit
def idiom_tmem_storage_alias(out_ptr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    qk_storage_alias = tlx.storage_alias_spec(storage=tlx.storage_kind.tmem)
    qk_tiles = tlx.local_alloc((BLOCK_M, BLOCK_N), tl.float32, 1, tlx.storage_kind.tmem, reuse=qk_storage_alias)
    p_tiles = tlx.local_alloc((BLOCK_M, BLOCK_N // 2), tl.float16, 2, tlx.storage_kind.tmem, reuse=qk_storage_alias)
    alpha_tiles = tlx.local_alloc((BLOCK_M, 1), tl.float32, 1, tlx.storage_kind.tmem, reuse=qk_storage_alias)
    qk_storage_alias.set_buffer_overlap(
        tlx.reuse_group(
            qk_tiles,
            tlx.reuse_group(
                tlx.reuse_group(p_tiles, group_size=2), alpha_tiles, group_type=tlx.reuse_group_type.distinct
            ),
            group_type=tlx.reuse_group_type.shared,
        )
    )
    rows = tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    tlx.local_store(qk_tiles[0], (rows[:, None] + cols[None, :]).to(tl.float32))
    # S is read in halves; P overwrites S's columns only after both halves are in registers.
    s0 = tlx.local_load(tlx.subslice(qk_tiles[0], 0, BLOCK_N // 2))
    s1 = tlx.local_load(tlx.subslice(qk_tiles[0], BLOCK_N // 2, BLOCK_N // 2))
    tlx.local_store(p_tiles[0], s0.to(tl.float16))
    tlx.local_store(p_tiles[1], s1.to(tl.float16))
    tlx.local_store(alpha_tiles[0], tl.max(s1, 1)[:, None])
    p1 = tlx.local_load(p_tiles[1]).to(tl.float32)
    alpha = tlx.local_load(alpha_tiles[0])
    tl.store(out_ptr + rows, tl.reshape(alpha, [BLOCK_M]) + tl.sum(p1, 1))


SPEC_TMEM_STORAGE_ALIAS = {
    "kernel": idiom_tmem_storage_alias,
    "signature": {"out_ptr": "*fp32"},
    "constexprs": {"BLOCK_M": 128, "BLOCK_N": 128},
    "num_warps": 4,
}


# --------------------------------------------------------------------------------------------------------
# 9. Device-side descriptors in slots of the kernel's own (the public grouped GEMM's idiom).
# --------------------------------------------------------------------------------------------------------


@triton.jit
def idiom_descriptor_slots(a_ptr, M, K, BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr):
    """Device descriptors in global scratch slots, reinterpreted later (the public grouped GEMM's idiom)."""
    desc_ptrs = tlx.allocate_tensor_descriptor(num=2)
    tlx.make_tensor_descriptor(
        desc_ptr=desc_ptrs[0], base=a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BLOCK_M, BLOCK_K]
    )
    a_desc = tlx.reinterpret_tensor_descriptor(
        desc_ptr=desc_ptrs[0], block_shape=[BLOCK_M, BLOCK_K], dtype=tlx.dtype_of(a_ptr)
    )
    a_smem = tlx.local_alloc((BLOCK_M, BLOCK_K), tlx.dtype_of(a_ptr), 1)[0]
    bar = tlx.alloc_barriers(num_barriers=1)
    tlx.barrier_expect_bytes(bar[0], BLOCK_M * BLOCK_K * 2)
    tlx.async_descriptor_load(a_desc, a_smem, [0, 0], bar[0])
    tlx.barrier_wait(bar[0], 0)


SPEC_DESCRIPTOR_SLOTS = {
    "kernel": idiom_descriptor_slots,
    "signature": {"a_ptr": "*fp16", "M": "i32", "K": "i32"},
    "constexprs": {"BLOCK_M": 128, "BLOCK_K": 64},
    "num_warps": 4,
}


# --------------------------------------------------------------------------------------------------------
# 10. The public tutorials' epilogue without a proxy fence: the compiler inserts it.
# --------------------------------------------------------------------------------------------------------


@triton.jit
def idiom_store_without_fence(c_desc, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """The public tutorials' epilogue: registers -> shared -> TMA store, the proxy fence left to the compiler."""
    acc = tlx.local_alloc((BLOCK_M, BLOCK_N), tl.float32, tl.constexpr(1), tlx.storage_kind.tmem)
    tlx.local_store(acc[0], tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32))
    c_smem = tlx.local_alloc((BLOCK_M, BLOCK_N), tlx.dtype_of(c_desc), tl.constexpr(1))[0]
    tlx.local_store(c_smem, tlx.local_load(acc[0]).to(tlx.dtype_of(c_desc)))
    tlx.async_descriptor_store(c_desc, c_smem, [0, 0])


SPEC_STORE_WITHOUT_FENCE = {
    "kernel": idiom_store_without_fence,
    "signature": {"c_desc": "tensordesc<fp16[128, 128]>"},
    "constexprs": {"BLOCK_M": 128, "BLOCK_N": 128},
    "num_warps": 4,
}
