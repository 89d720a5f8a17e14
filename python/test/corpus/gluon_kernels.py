"""Gluon (``triton.experimental.gluon``) kernels of the round-trip corpus.

Gluon kernels name their layouts and memory explicitly, so their TTGIR carries what the plain Triton
pipeline rarely shows on its own: mbarriers, TMA copies, warpgroup MMA, tensor memory and tcgen05,
``ttg.warp_specialize``, linear / padded / swizzled shared layouts, cp.async ... Compile specs are in
``specs.py``; the kernels are only compiled (sm_90 and/or sm_100), never launched.
"""

from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia import blackwell as bw
from triton.experimental.gluon.language.nvidia import hopper
from triton.experimental.gluon.language.nvidia.ampere import async_copy, mma_v2
from triton.experimental.gluon.language.nvidia.blackwell import (
    TensorMemoryLayout,
    allocate_tensor_memory,
    get_tmem_reg_layout,
    tcgen05_commit,
    tcgen05_mma,
)
from triton.experimental.gluon.language.nvidia.hopper import fence_async_shared, mbarrier, tma

# ---------------------------------------------------------------------------------------------------------------------
# Registers, layouts and shared memory (sm_90 and sm_100)
# ---------------------------------------------------------------------------------------------------------------------


@gluon.jit
def gl_blocked_copy(in_ptr, out_ptr, M, N, BLOCK_M: gl.constexpr, BLOCK_N: gl.constexpr):
    """BlockedLayout / SliceLayout tiles, masked load/store and an explicit convert_layout between two blockings."""
    row_major: gl.constexpr = gl.BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0])
    col_major: gl.constexpr = gl.BlockedLayout([4, 1], [8, 4], [1, 4], [0, 1])
    pid = gl.program_id(0)
    offs_m = pid * BLOCK_M + gl.arange(0, BLOCK_M, layout=gl.SliceLayout(1, row_major))
    offs_n = gl.arange(0, BLOCK_N, layout=gl.SliceLayout(0, row_major))
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    offs = offs_m[:, None] * N + offs_n[None, :]
    x = gl.load(in_ptr + offs, mask=mask, other=0.0)
    y = gl.convert_layout(x, col_major)
    y = gl.exp(y) * 0.5 + gl.sqrt(gl.abs(y))
    offs_c = gl.convert_layout(offs, col_major)
    mask_c = gl.convert_layout(mask, col_major)
    gl.store(out_ptr + offs_c, y, mask=mask_c)


@gluon.jit
def gl_shared_memory_ops(in_ptr, out_ptr, BLOCK_M: gl.constexpr, BLOCK_N: gl.constexpr):
    """Swizzled and padded shared memory: alloc (empty and initialised), index, slice, permute, load/store."""
    blocked: gl.constexpr = gl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])
    blocked_t: gl.constexpr = gl.BlockedLayout([8, 1], [8, 4], [1, 4], [0, 1])
    swizzled: gl.constexpr = gl.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=[1, 0])
    padded: gl.constexpr = gl.PaddedSharedLayout.with_identity_for([[32, 4]], [BLOCK_M, BLOCK_N], [1, 0])
    offs_m = gl.arange(0, BLOCK_M, layout=gl.SliceLayout(1, blocked))
    offs_n = gl.arange(0, BLOCK_N, layout=gl.SliceLayout(0, blocked))
    offs = offs_m[:, None] * BLOCK_N + offs_n[None, :]
    x = gl.load(in_ptr + offs)
    bufs = gl.allocate_shared_memory(gl.float16, [2, BLOCK_M, BLOCK_N], swizzled)
    bufs.index(0).store(x)
    bufs.index(1).store(x * 2.0)
    gl.thread_barrier()
    xt = bufs.index(0).permute((1, 0)).load(blocked_t)
    top = bufs.index(1).slice(0, BLOCK_M // 2, dim=0).load(blocked)
    psmem = gl.allocate_shared_memory(gl.float16, [BLOCK_M, BLOCK_N], padded, x)
    p = psmem.load(blocked)
    gl.store(out_ptr + offs, p + gl.convert_layout(gl.permute(xt, (1, 0)), blocked))
    offs_top = gl.arange(0, BLOCK_M // 2, layout=gl.SliceLayout(1, blocked))[:, None] * BLOCK_N + offs_n[None, :]
    gl.store(out_ptr + BLOCK_M * BLOCK_N + offs_top, top)


@gluon.jit
def _gl_add_combine(a, b):
    return a + b


@gluon.jit
def _gl_max_with_index(v1, i1, v2, i2):
    gt = v1 > v2
    return gl.where(gt, v1, v2), gl.where(gt, i1, i2)


@gluon.jit
def gl_reduce_scan_histogram(
    x_ptr, idx_ptr, out_ptr, hist_ptr, BLOCK_M: gl.constexpr, BLOCK_N: gl.constexpr, NUM_BINS: gl.constexpr
):
    """Reductions (builtin and custom combine), associative_scan, gather, histogram and atomics on layouts."""
    layout: gl.constexpr = gl.BlockedLayout([1, 4], [2, 16], [4, 1], [1, 0])
    rows: gl.constexpr = gl.SliceLayout(1, layout)
    cols: gl.constexpr = gl.SliceLayout(0, layout)
    hist_layout: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
    offs_m = gl.arange(0, BLOCK_M, layout=rows)
    offs_n = gl.arange(0, BLOCK_N, layout=cols)
    offs = offs_m[:, None] * BLOCK_N + offs_n[None, :]
    x = gl.load(x_ptr + offs)
    idx = gl.load(idx_ptr + offs) % BLOCK_N
    row_sum = gl.sum(x, axis=1)
    row_max = gl.max(x, axis=1)
    col_cnt = gl.reduce(x, 0, _gl_add_combine)
    ci = gl.full([BLOCK_M, BLOCK_N], 0, gl.int32, layout) + offs_n[None, :]
    _, arg = gl.reduce((x, ci), 1, _gl_max_with_index)
    scan = gl.associative_scan(x, 1, _gl_add_combine)
    g = gl.gather(scan, idx, 1)
    gl.store(out_ptr + offs, g - row_max[:, None])
    gl.store(out_ptr + BLOCK_M * BLOCK_N + offs_m, row_sum + arg.to(gl.float32))
    gl.store(out_ptr + BLOCK_M * BLOCK_N + BLOCK_M + offs_n, col_cnt)
    flat = gl.convert_layout(gl.reshape(idx, [BLOCK_M * BLOCK_N]), hist_layout)
    h = gl.histogram(flat, NUM_BINS, layout=hist_layout)
    gl.atomic_add(hist_ptr + gl.arange(0, NUM_BINS, layout=hist_layout), h)


@gluon.jit
def _gl_square_plus(x, y):
    return x * x + y


@gluon.jit
def gl_elementwise_misc(x_ptr, y_ptr, out_ptr, flag_ptr, n, BLOCK: gl.constexpr):
    """map_elementwise, inline asm, math, join/split, where, casts, scalar control flow and device_print."""
    layout: gl.constexpr = gl.BlockedLayout([4], [32], [4], [0])
    pid = gl.program_id(0)
    offs = pid * BLOCK + gl.arange(0, BLOCK, layout=layout)
    mask = offs < n
    x = gl.load(x_ptr + offs, mask=mask, other=0.0)
    y = gl.load(y_ptr + offs, mask=mask, other=1.0)
    z = gl.map_elementwise(_gl_square_plus, x, y)
    r = gl.inline_asm_elementwise("ex2.approx.f32 $0, $1;", "=r,r", [x], dtype=gl.float32, is_pure=True, pack=1)
    m = gl.fma(x, y, z) + gl.erf(x) + gl.log(gl.abs(y) + 1.0) + gl.rsqrt(gl.abs(y) + 1.0) + r
    pair = gl.join(x, y)
    a, b = gl.split(pair)
    m = gl.where(x > 0, m, gl.convert_layout(a * b, layout))
    m = gl.minimum(gl.maximum(m, -10.0), 10.0)
    h = m.to(gl.bfloat16)
    gl.store(out_ptr + offs, h.to(gl.float32), mask=mask)
    if pid == 0:
        gl.device_print("n", n)
        gl.atomic_xchg(flag_ptr, gl.num_programs(0))


# ---------------------------------------------------------------------------------------------------------------------
# Asynchronous copies, barriers and TMA (sm_90 and sm_100)
# ---------------------------------------------------------------------------------------------------------------------


@gluon.jit
def gl_tma_copy(in_desc, out_desc):
    """Host-side tensor descriptors: mbarrier init/expect/wait/invalidate, TMA load and store, store_wait."""
    BLOCK_M: gl.constexpr = in_desc.block_type.shape[0]
    BLOCK_N: gl.constexpr = in_desc.block_type.shape[1]
    off_m = gl.program_id(0) * BLOCK_M
    off_n = gl.program_id(1) * BLOCK_N
    smem = gl.allocate_shared_memory(in_desc.dtype, [BLOCK_M, BLOCK_N], in_desc.layout)
    bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(bar, count=1)
    mbarrier.expect(bar, in_desc.block_type.nbytes)
    tma.async_copy_global_to_shared(in_desc, [off_m, off_n], bar, smem)
    mbarrier.wait(bar, phase=0)
    mbarrier.invalidate(bar)
    fence_async_shared()
    tma.async_copy_shared_to_global(out_desc, [off_m, off_n], smem)
    tma.store_wait(pendings=0)


@gluon.jit
def gl_device_tma_descriptor(in_ptr, out_ptr, M, N, BLOCK_M: gl.constexpr, BLOCK_N: gl.constexpr):
    """Device-side tma.make_tensor_descriptor, double-buffered TMA loads with per-buffer barriers and arrive."""
    layout: gl.constexpr = gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=32, rank=2)
    reg: gl.constexpr = gl.BlockedLayout([1, 4], [4, 8], [4, 1], [1, 0])
    in_desc = tma.make_tensor_descriptor(
        in_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N], layout=layout
    )
    out_desc = tma.make_tensor_descriptor(
        out_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N], layout=layout
    )
    bufs = gl.allocate_shared_memory(gl.float32, [2, BLOCK_M, BLOCK_N], layout)
    bars = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(bars.index(i), count=1)
    pid = gl.program_id(0)
    for i in gl.static_range(2):
        mbarrier.expect(bars.index(i), BLOCK_M * BLOCK_N * 4)
        tma.async_copy_global_to_shared(in_desc, [(2 * pid + i) * BLOCK_M, 0], bars.index(i), bufs.index(i))
    acc = gl.zeros([BLOCK_M, BLOCK_N], gl.float32, reg)
    for i in gl.static_range(2):
        mbarrier.wait(bars.index(i), phase=0)
        acc += bufs.index(i).load(reg)
        mbarrier.arrive(bars.index(i))
    bufs.index(0).store(acc)
    fence_async_shared()
    tma.async_copy_shared_to_global(out_desc, [pid * BLOCK_M, 0], bufs.index(0))
    tma.store_wait(0)
    for i in gl.static_range(2):
        mbarrier.invalidate(bars.index(i))


@gluon.jit
def gl_cp_async_pipeline(in_ptr, out_ptr, n_rows, BLOCK: gl.constexpr, NUM_STAGES: gl.constexpr):
    """Ampere-style cp.async into a ring of shared buffers: commit_group / wait_group and mbarrier arrive."""
    layout: gl.constexpr = gl.BlockedLayout([4], [32], [4], [0])
    smem_layout: gl.constexpr = gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[0])
    bufs = gl.allocate_shared_memory(gl.float32, [NUM_STAGES, BLOCK], smem_layout)
    bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(bar, count=128)
    offs = gl.arange(0, BLOCK, layout=layout)
    for s in gl.static_range(NUM_STAGES - 1):
        async_copy.async_copy_global_to_shared(bufs.index(s), in_ptr + s * BLOCK + offs, mask=s < n_rows)
        async_copy.commit_group()
    acc = gl.zeros([BLOCK], gl.float32, layout)
    for r in range(n_rows):
        nxt = r + NUM_STAGES - 1
        async_copy.async_copy_global_to_shared(
            bufs.index(nxt % NUM_STAGES),
            in_ptr + nxt * BLOCK + offs,
            mask=(offs >= 0) & (nxt < n_rows),
            cache_modifier=".cg",
        )
        async_copy.commit_group()
        async_copy.wait_group(NUM_STAGES - 1)
        acc += bufs.index(r % NUM_STAGES).load(layout)
    async_copy.wait_group(0)
    async_copy.mbarrier_arrive(bar)
    mbarrier.wait(bar, phase=0)
    gl.store(out_ptr + offs, acc)


# ---------------------------------------------------------------------------------------------------------------------
# Tensor cores before tcgen05: mma_v2, dot_fma (sm_90 and sm_100) and warpgroup MMA (sm_90)
# ---------------------------------------------------------------------------------------------------------------------


@gluon.jit
def gl_mma_v2_dot_operands(
    a_ptr, b_ptr, c_ptr, d_ptr, BLOCK_M: gl.constexpr, BLOCK_N: gl.constexpr, BLOCK_K: gl.constexpr
):
    """NVMMADistributedLayout v2 with DotOperandLayout operands (mma_v2), and dot_fma on a blocked parent."""
    mma: gl.constexpr = gl.NVMMADistributedLayout(version=[2, 0], warps_per_cta=[2, 2], instr_shape=[16, 8])
    a_layout: gl.constexpr = gl.DotOperandLayout(operand_index=0, parent=mma, k_width=2)
    b_layout: gl.constexpr = gl.DotOperandLayout(operand_index=1, parent=mma, k_width=2)
    blocked: gl.constexpr = gl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])
    fma_parent: gl.constexpr = gl.BlockedLayout([2, 2], [4, 8], [2, 2], [1, 0])
    rm = gl.arange(0, BLOCK_M, layout=gl.SliceLayout(1, blocked))
    rn = gl.arange(0, BLOCK_N, layout=gl.SliceLayout(0, blocked))
    rk_col = gl.arange(0, BLOCK_K, layout=gl.SliceLayout(0, blocked))
    rk_row = gl.arange(0, BLOCK_K, layout=gl.SliceLayout(1, blocked))
    a = gl.load(a_ptr + rm[:, None] * BLOCK_K + rk_col[None, :])
    b = gl.load(b_ptr + rk_row[:, None] * BLOCK_N + rn[None, :])
    acc = gl.zeros([BLOCK_M, BLOCK_N], gl.float32, mma)
    acc = mma_v2(gl.convert_layout(a, a_layout), gl.convert_layout(b, b_layout), acc)
    gl.store(c_ptr + rm[:, None] * BLOCK_N + rn[None, :], gl.convert_layout(acc, blocked))
    fa = gl.convert_layout(a.to(gl.float32), gl.DotOperandLayout(operand_index=0, parent=fma_parent, k_width=0))
    fb = gl.convert_layout(b.to(gl.float32), gl.DotOperandLayout(operand_index=1, parent=fma_parent, k_width=0))
    facc = gl.dot_fma(fa, fb, gl.zeros([BLOCK_M, BLOCK_N], gl.float32, fma_parent))
    gl.store(d_ptr + rm[:, None] * BLOCK_N + rn[None, :], gl.convert_layout(facc, blocked))


@gluon.jit
def gl_wgmma_matmul(a_desc, b_desc, c_desc, K, NUM_BUFFERS: gl.constexpr):
    """Hopper: multi-buffered TMA loads feeding async warpgroup_mma / warpgroup_mma_wait, TMA store epilogue."""
    BLOCK_M: gl.constexpr = c_desc.block_type.shape[0]
    BLOCK_N: gl.constexpr = c_desc.block_type.shape[1]
    BLOCK_K: gl.constexpr = a_desc.block_type.shape[1]
    dtype: gl.constexpr = a_desc.dtype
    mma_layout: gl.constexpr = gl.NVMMADistributedLayout(
        version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, BLOCK_N, 16]
    )
    a_bufs = gl.allocate_shared_memory(dtype, [NUM_BUFFERS] + a_desc.block_type.shape, a_desc.layout)
    b_bufs = gl.allocate_shared_memory(dtype, [NUM_BUFFERS] + b_desc.block_type.shape, b_desc.layout)
    bars = gl.allocate_shared_memory(gl.int64, [NUM_BUFFERS, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(NUM_BUFFERS):
        mbarrier.init(bars.index(i), count=1)
    off_m = gl.program_id(0) * BLOCK_M
    off_n = gl.program_id(1) * BLOCK_N
    acc = gl.zeros((BLOCK_M, BLOCK_N), gl.float32, mma_layout)
    k_tiles = gl.cdiv(K, BLOCK_K)
    for k in range(k_tiles):
        idx = k % NUM_BUFFERS
        phase = (k // NUM_BUFFERS) & 1
        bar = bars.index(idx)
        mbarrier.expect(bar, a_desc.block_type.nbytes + b_desc.block_type.nbytes)
        tma.async_copy_global_to_shared(a_desc, [off_m, k * BLOCK_K], bar, a_bufs.index(idx))
        tma.async_copy_global_to_shared(b_desc, [k * BLOCK_K, off_n], bar, b_bufs.index(idx))
        mbarrier.wait(bar, phase)
        acc = hopper.warpgroup_mma(a_bufs.index(idx), b_bufs.index(idx), acc, is_async=True)
        acc, _, _ = hopper.warpgroup_mma_wait(num_outstanding=1, deps=(acc, a_bufs.index(idx), b_bufs.index(idx)))
    acc = hopper.warpgroup_mma_wait(num_outstanding=0, deps=(acc,))
    for i in gl.static_range(NUM_BUFFERS):
        mbarrier.invalidate(bars.index(i))
    c_smem = gl.allocate_shared_memory(c_desc.dtype, c_desc.block_type.shape, c_desc.layout)
    c_smem.store(acc.to(c_desc.dtype))
    fence_async_shared()
    tma.async_copy_shared_to_global(c_desc, [off_m, off_n], c_smem)
    tma.store_wait(pendings=0)


# The 128-byte swizzle of 16-bit operands spelled as a SharedLinearLayout: 64 columns per atom, rows 1, 2, 4
# XOR-ing 8-column groups; B's second atom of 64 columns comes last.
_SWIZZLED_A: gl.constexpr = gl.SharedLinearLayout(
    [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 8], [2, 16], [4, 32], [8, 0], [16, 0], [32, 0], [64, 0]],
    alignment=1024,
)
_SWIZZLED_B: gl.constexpr = gl.SharedLinearLayout(
    [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 8], [2, 16], [4, 32], [8, 0], [16, 0], [32, 0], [0, 64]],
    alignment=1024,
)


@gluon.jit
def gl_shared_linear_mma(a_ptr, b_ptr, c_ptr, TCGEN05: gl.constexpr):
    """MMA operands in SharedLinearLayout buffers: warpgroup_mma on sm_90, tcgen05_mma on sm_100."""
    blocked: gl.constexpr = gl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])
    a_rows = gl.arange(0, 128, layout=gl.SliceLayout(1, blocked))
    a_cols = gl.arange(0, 64, layout=gl.SliceLayout(0, blocked))
    b_rows = gl.arange(0, 64, layout=gl.SliceLayout(1, blocked))
    b_cols = gl.arange(0, 128, layout=gl.SliceLayout(0, blocked))
    a = gl.load(a_ptr + a_rows[:, None] * 64 + a_cols[None, :])
    b = gl.load(b_ptr + b_rows[:, None] * 128 + b_cols[None, :])
    a_smem = gl.allocate_shared_memory(gl.float16, [128, 64], _SWIZZLED_A, a)
    b_smem = gl.allocate_shared_memory(gl.float16, [64, 128], _SWIZZLED_B, b)
    fence_async_shared()
    if TCGEN05:
        tmem_layout: gl.constexpr = TensorMemoryLayout(block=(128, 128), col_stride=1)
        acc_tmem = allocate_tensor_memory(gl.float32, [128, 128], tmem_layout)
        done = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
        mbarrier.init(done, count=1)
        tcgen05_mma(a_smem, b_smem, acc_tmem, use_acc=False)
        tcgen05_commit(done)
        mbarrier.wait(done, phase=0)
        out_layout: gl.constexpr = get_tmem_reg_layout(gl.float32, (128, 128), tmem_layout, gl.num_warps())
        acc = acc_tmem.load(out_layout)
    else:
        out_layout: gl.constexpr = gl.NVMMADistributedLayout(
            version=[3, 0], warps_per_cta=[4, 1], instr_shape=[16, 128, 16]
        )
        acc = hopper.warpgroup_mma(a_smem, b_smem, gl.zeros((128, 128), gl.float32, out_layout))
    rows = gl.arange(0, 128, layout=gl.SliceLayout(1, out_layout))
    cols = gl.arange(0, 128, layout=gl.SliceLayout(0, out_layout))
    gl.store(c_ptr + rows[:, None] * 128 + cols[None, :], acc)


@gluon.jit
def _ws_producer(in_ptr, smem, ready, empty, n_tiles, BLOCK: gl.constexpr):
    layout: gl.constexpr = gl.BlockedLayout([1], [32], [1], [0])
    offs = gl.arange(0, BLOCK, layout=layout)
    for t in range(n_tiles):
        slot = t % 2
        mbarrier.wait(empty.index(slot), ((t // 2) & 1) ^ 1)
        smem.index(slot).store(gl.load(in_ptr + t * BLOCK + offs))
        mbarrier.arrive(ready.index(slot), count=1)


@gluon.jit
def _ws_consumer(smem, ready, empty, n_tiles, BLOCK: gl.constexpr):
    layout: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
    acc = gl.zeros([BLOCK], gl.float32, layout)
    for t in range(n_tiles):
        slot = t % 2
        mbarrier.wait(ready.index(slot), (t // 2) & 1)
        acc += smem.index(slot).load(layout)
        mbarrier.arrive(empty.index(slot), count=1)
    return (acc,)  # the default partition's results must be a tuple


@gluon.jit
def gl_warp_specialize_pipeline(in_ptr, out_ptr, n_tiles, BLOCK: gl.constexpr):
    """ttg.warp_specialize: a 1-warp producer partition feeding the default consumer through mbarriers."""
    smem_layout: gl.constexpr = gl.SwizzledSharedLayout(vec=1, per_phase=1, max_phase=1, order=[0])
    smem = gl.allocate_shared_memory(gl.float32, [2, BLOCK], smem_layout)
    ready = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    empty = gl.allocate_shared_memory(gl.int64, [2, 1], mbarrier.MBarrierLayout())
    for i in gl.static_range(2):
        mbarrier.init(ready.index(i), count=1)
        mbarrier.init(empty.index(i), count=1)
    (acc,) = gl.warp_specialize(
        [
            (_ws_consumer, (smem, ready, empty, n_tiles, BLOCK)),
            (_ws_producer, (in_ptr, smem, ready, empty, n_tiles, BLOCK)),
        ],
        [1],
        [48],
    )
    layout: gl.constexpr = gl.BlockedLayout([1], [32], [4], [0])
    gl.store(out_ptr + gl.arange(0, BLOCK, layout=layout), acc)


# ---------------------------------------------------------------------------------------------------------------------
# Blackwell: tensor memory, tcgen05 (sm_100)
# ---------------------------------------------------------------------------------------------------------------------


@gluon.jit
def gl_tcgen05_matmul(a_desc, b_desc, c_desc, K):
    """TMA loads, tcgen05_mma into tensor memory, tcgen05_commit on an mbarrier, TMEM load with its reg layout."""
    BLOCK_M: gl.constexpr = c_desc.block_type.shape[0]
    BLOCK_N: gl.constexpr = c_desc.block_type.shape[1]
    BLOCK_K: gl.constexpr = a_desc.block_type.shape[1]
    a_smem = gl.allocate_shared_memory(a_desc.dtype, a_desc.block_type.shape, a_desc.layout)
    b_smem = gl.allocate_shared_memory(b_desc.dtype, b_desc.block_type.shape, b_desc.layout)
    tma_bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mma_bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(tma_bar, count=1)
    mbarrier.init(mma_bar, count=1)
    tmem_layout: gl.constexpr = TensorMemoryLayout(block=(BLOCK_M, BLOCK_N), col_stride=1)
    acc_tmem = allocate_tensor_memory(gl.float32, [BLOCK_M, BLOCK_N], tmem_layout)
    off_m = gl.program_id(0) * BLOCK_M
    off_n = gl.program_id(1) * BLOCK_N
    phase = 0
    use_acc = False
    for k in range(0, K, BLOCK_K):
        mbarrier.expect(tma_bar, a_desc.block_type.nbytes + b_desc.block_type.nbytes)
        tma.async_copy_global_to_shared(a_desc, [off_m, k], tma_bar, a_smem)
        tma.async_copy_global_to_shared(b_desc, [off_n, k], tma_bar, b_smem)
        mbarrier.wait(tma_bar, phase=phase)
        tcgen05_mma(a_smem, b_smem.permute((1, 0)), acc_tmem, use_acc=use_acc)
        tcgen05_commit(mma_bar)
        mbarrier.wait(mma_bar, phase=phase)
        use_acc = True
        phase ^= 1
    mbarrier.invalidate(tma_bar)
    mbarrier.invalidate(mma_bar)
    reg_layout: gl.constexpr = get_tmem_reg_layout(gl.float32, (BLOCK_M, BLOCK_N), tmem_layout, gl.num_warps())
    acc = acc_tmem.load(reg_layout)
    c_smem = gl.allocate_shared_memory(c_desc.dtype, c_desc.block_type.shape, c_desc.layout)
    c_smem.store(acc.to(c_desc.dtype))
    fence_async_shared()
    bw.tma.async_copy_shared_to_global(c_desc, [off_m, off_n], c_smem)
    bw.tma.store_wait(pendings=0)


@gluon.jit
def _bw_load_partition(a_desc, b_desc, a_bufs, b_bufs, ready, empty, off_m, off_n, k_tiles, NUM_BUFFERS: gl.constexpr):
    BLOCK_K: gl.constexpr = a_desc.block_type.shape[1]
    for i in range(k_tiles):
        idx = i % NUM_BUFFERS
        phase = (i // NUM_BUFFERS) & 1
        mbarrier.wait(empty.index(idx), phase ^ 1)
        mbarrier.expect(ready.index(idx), a_desc.block_type.nbytes + b_desc.block_type.nbytes)
        tma.async_copy_global_to_shared(a_desc, [off_m, i * BLOCK_K], ready.index(idx), a_bufs.index(idx))
        tma.async_copy_global_to_shared(b_desc, [off_n, i * BLOCK_K], ready.index(idx), b_bufs.index(idx))


@gluon.jit
def _bw_mma_partition(a_bufs, b_bufs, ready, empty, acc_tmem, acc_bar, k_tiles, NUM_BUFFERS: gl.constexpr):
    use_acc = False
    for i in range(k_tiles):
        idx = i % NUM_BUFFERS
        phase = (i // NUM_BUFFERS) & 1
        mbarrier.wait(ready.index(idx), phase)
        tcgen05_mma(
            a_bufs.index(idx),
            b_bufs.index(idx).permute((1, 0)),
            acc_tmem,
            use_acc=use_acc,
            mbarriers=[empty.index(idx)],
        )
        use_acc = True
    tcgen05_commit(acc_bar)


@gluon.jit
def _bw_epilogue_partition(c_desc, acc_tmem, acc_bar, c_smem, off_m, off_n):
    BLOCK_M: gl.constexpr = c_desc.block_type.shape[0]
    SPLIT_N: gl.constexpr = c_desc.block_type.shape[1]  # the accumulator is two C tiles wide
    sub_layout: gl.constexpr = TensorMemoryLayout(block=(BLOCK_M, SPLIT_N), col_stride=1)
    reg_layout: gl.constexpr = get_tmem_reg_layout(gl.float32, (BLOCK_M, SPLIT_N), sub_layout, gl.num_warps())
    mbarrier.wait(acc_bar, phase=0)
    for j in gl.static_range(2):
        part = acc_tmem.slice(j * SPLIT_N, SPLIT_N).load(reg_layout)
        c_smem.index(j).store(part.to(c_desc.dtype))
    fence_async_shared()
    for j in gl.static_range(2):
        tma.async_copy_shared_to_global(c_desc, [off_m, off_n + j * SPLIT_N], c_smem.index(j))
    tma.store_wait(pendings=0)


@gluon.jit
def gl_ws_tcgen05_matmul(a_desc, b_desc, c_desc, K, NUM_BUFFERS: gl.constexpr):
    """Warp-specialized Blackwell matmul: TMA-load and MMA worker partitions, TMEM-slicing epilogue partition."""
    BLOCK_M: gl.constexpr = c_desc.block_type.shape[0]
    BLOCK_N: gl.constexpr = c_desc.block_type.shape[1] * 2
    BLOCK_K: gl.constexpr = a_desc.block_type.shape[1]
    dtype: gl.constexpr = a_desc.dtype
    a_bufs = gl.allocate_shared_memory(dtype, [NUM_BUFFERS] + a_desc.block_type.shape, a_desc.layout)
    b_bufs = gl.allocate_shared_memory(dtype, [NUM_BUFFERS] + b_desc.block_type.shape, b_desc.layout)
    c_smem = gl.allocate_shared_memory(c_desc.dtype, [2] + c_desc.block_type.shape, c_desc.layout)
    ready = gl.allocate_shared_memory(gl.int64, [NUM_BUFFERS, 1], mbarrier.MBarrierLayout())
    empty = gl.allocate_shared_memory(gl.int64, [NUM_BUFFERS, 1], mbarrier.MBarrierLayout())
    acc_bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    for i in gl.static_range(NUM_BUFFERS):
        mbarrier.init(ready.index(i), count=1)
        mbarrier.init(empty.index(i), count=1)
    mbarrier.init(acc_bar, count=1)
    tmem_layout: gl.constexpr = TensorMemoryLayout(block=(BLOCK_M, BLOCK_N), col_stride=1)
    acc_tmem = allocate_tensor_memory(gl.float32, [BLOCK_M, BLOCK_N], tmem_layout)
    off_m = gl.program_id(0) * BLOCK_M
    off_n = gl.program_id(1) * BLOCK_N
    k_tiles = gl.cdiv(K, BLOCK_K)
    gl.warp_specialize(
        [
            (_bw_epilogue_partition, (c_desc, acc_tmem, acc_bar, c_smem, off_m, off_n)),
            (_bw_load_partition, (a_desc, b_desc, a_bufs, b_bufs, ready, empty, off_m, off_n, k_tiles, NUM_BUFFERS)),
            (_bw_mma_partition, (a_bufs, b_bufs, ready, empty, acc_tmem, acc_bar, k_tiles, NUM_BUFFERS)),
        ],
        [1, 1],
        [24, 24],
    )


@gluon.jit
def gl_tmem_ops(in_ptr, out_ptr, BLOCK_M: gl.constexpr, BLOCK_N: gl.constexpr):
    """Tensor memory on its own: initialised alloc, multi-buffer index, store/load, slice, and a packed fp16 TMEM."""
    blocked: gl.constexpr = gl.BlockedLayout([1, 4], [1, 32], [4, 1], [1, 0])
    offs_m = gl.arange(0, BLOCK_M, layout=gl.SliceLayout(1, blocked))
    offs_n = gl.arange(0, BLOCK_N, layout=gl.SliceLayout(0, blocked))
    offs = offs_m[:, None] * BLOCK_N + offs_n[None, :]
    x = gl.load(in_ptr + offs)
    layout: gl.constexpr = TensorMemoryLayout(block=(BLOCK_M, BLOCK_N), col_stride=1)
    reg: gl.constexpr = get_tmem_reg_layout(gl.float32, (BLOCK_M, BLOCK_N), layout, gl.num_warps())
    xr = gl.convert_layout(x, reg)
    init = allocate_tensor_memory(gl.float32, [BLOCK_M, BLOCK_N], layout, xr)
    bufs = allocate_tensor_memory(gl.float32, [2, BLOCK_M, BLOCK_N], layout)
    bufs.index(0).store(init.load(reg) * 2.0)
    bufs.index(1).store(xr + 1.0)
    half_layout: gl.constexpr = TensorMemoryLayout(block=(BLOCK_M, BLOCK_N // 2), col_stride=1)
    half_reg: gl.constexpr = get_tmem_reg_layout(gl.float32, (BLOCK_M, BLOCK_N // 2), half_layout, gl.num_warps())
    right = bufs.index(1).slice(BLOCK_N // 2, BLOCK_N // 2).load(half_reg)
    packed_layout: gl.constexpr = TensorMemoryLayout(block=(BLOCK_M, BLOCK_N), col_stride=2)
    packed_reg: gl.constexpr = get_tmem_reg_layout(gl.float16, (BLOCK_M, BLOCK_N), packed_layout, gl.num_warps())
    h = allocate_tensor_memory(gl.float16, [BLOCK_M, BLOCK_N], packed_layout)
    h.store(gl.convert_layout(x.to(gl.float16), packed_reg))
    y = gl.convert_layout(bufs.index(0).load(reg), blocked) + gl.convert_layout(h.load(packed_reg), blocked).to(
        gl.float32
    )
    gl.store(out_ptr + offs, y)
    offs_r = (
        gl.arange(0, BLOCK_M, layout=gl.SliceLayout(1, half_reg))[:, None] * BLOCK_N
        + gl.arange(0, BLOCK_N // 2, layout=gl.SliceLayout(0, half_reg))[None, :]
    )
    gl.store(out_ptr + BLOCK_M * BLOCK_N + offs_r, right)


@gluon.jit
def gl_tma_gather_scatter(in_desc, out_desc, idx_ptr, y_offset, BLOCK_Y: gl.constexpr):
    """Blackwell TMA gather4 / scatter4 between global rows and an NVMMA-shared tile."""
    BLOCK_X: gl.constexpr = in_desc.block_type.shape[1]
    idx_layout: gl.constexpr = gl.SliceLayout(0, gl.BlockedLayout([1, 4], [32, 1], [1, 4], [1, 0]))
    idx = gl.load(idx_ptr + gl.arange(0, BLOCK_Y, layout=idx_layout))
    smem = gl.allocate_shared_memory(in_desc.dtype, [BLOCK_Y, BLOCK_X], in_desc.layout)
    bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(bar, count=1)
    mbarrier.expect(bar, BLOCK_Y * in_desc.block_type.nbytes)
    bw.tma.async_gather(in_desc, idx, y_offset, bar, smem)
    mbarrier.wait(bar, phase=0)
    mbarrier.invalidate(bar)
    fence_async_shared()
    bw.tma.async_scatter(out_desc, idx, y_offset, smem)
    bw.tma.store_wait(0)


@gluon.jit
def gl_linear_layouts(in_ptr, out_ptr):
    """DistributedLinearLayout and SharedLinearLayout written out by hand, plus AutoLayout resolution."""
    lin: gl.constexpr = gl.DistributedLinearLayout(
        reg_bases=[[0, 1], [0, 2]],
        lane_bases=[[0, 4], [0, 8], [0, 16], [1, 0], [2, 0]],
        warp_bases=[[4, 0], [8, 0]],
        block_bases=[],
        shape=[16, 32],
    )
    shared_lin: gl.constexpr = gl.SharedLinearLayout(
        offset_bases=[[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [1, 0], [2, 0], [4, 0], [8, 0]]
    )
    offs_m = gl.arange(0, 16, layout=gl.SliceLayout(1, lin))
    offs_n = gl.arange(0, 32, layout=gl.SliceLayout(0, lin))
    offs = offs_m[:, None] * 32 + offs_n[None, :]
    x = gl.load(in_ptr + offs)
    smem = gl.allocate_shared_memory(gl.float32, [16, 32], shared_lin, x)
    blocked: gl.constexpr = gl.BlockedLayout([1, 1], [4, 8], [4, 1], [1, 0])
    y = smem.load(blocked)
    auto_offs = gl.arange(0, 512)
    z = gl.load(in_ptr + auto_offs) * 2.0
    flat: gl.constexpr = gl.BlockedLayout([4], [32], [4], [0])
    gl.store(out_ptr + gl.convert_layout(offs, blocked), y + 1.0)
    gl.store(out_ptr + 512 + gl.set_auto_layout(auto_offs, flat), gl.set_auto_layout(z, flat))


@gluon.jit
def gl_tcgen05_mma_scaled(a_desc, b_desc, a_scale_ptr, b_scale_ptr, c_ptr):
    """Blackwell block-scaled MMA (mxfp8): e8m0 scales in tensor memory (TensorMemoryScalesLayout)."""
    BLOCK_M: gl.constexpr = a_desc.block_type.shape[0]
    BLOCK_N: gl.constexpr = b_desc.block_type.shape[0]
    BLOCK_K: gl.constexpr = a_desc.block_type.shape[1]
    SCALE_K: gl.constexpr = BLOCK_K // 32
    a_smem = gl.allocate_shared_memory(a_desc.dtype, a_desc.block_type.shape, a_desc.layout)
    b_smem = gl.allocate_shared_memory(b_desc.dtype, b_desc.block_type.shape, b_desc.layout)
    bar = gl.allocate_shared_memory(gl.int64, [1], mbarrier.MBarrierLayout())
    mbarrier.init(bar, count=1)
    mbarrier.expect(bar, a_desc.block_type.nbytes + b_desc.block_type.nbytes)
    tma.async_copy_global_to_shared(a_desc, [0, 0], bar, a_smem)
    tma.async_copy_global_to_shared(b_desc, [0, 0], bar, b_smem)
    mbarrier.wait(bar, phase=0)
    scale_layout: gl.constexpr = bw.TensorMemoryScalesLayout()
    a_scale_reg: gl.constexpr = get_tmem_reg_layout(gl.uint8, (BLOCK_M, SCALE_K), scale_layout, gl.num_warps())
    b_scale_reg: gl.constexpr = get_tmem_reg_layout(gl.uint8, (BLOCK_N, SCALE_K), scale_layout, gl.num_warps())
    am = gl.arange(0, BLOCK_M, layout=gl.SliceLayout(1, a_scale_reg))
    ak = gl.arange(0, SCALE_K, layout=gl.SliceLayout(0, a_scale_reg))
    bn = gl.arange(0, BLOCK_N, layout=gl.SliceLayout(1, b_scale_reg))
    bk = gl.arange(0, SCALE_K, layout=gl.SliceLayout(0, b_scale_reg))
    a_scale = gl.load(a_scale_ptr + am[:, None] * SCALE_K + ak[None, :])
    b_scale = gl.load(b_scale_ptr + bn[:, None] * SCALE_K + bk[None, :])
    a_scale_tmem = allocate_tensor_memory(gl.uint8, [BLOCK_M, SCALE_K], scale_layout, a_scale)
    b_scale_tmem = allocate_tensor_memory(gl.uint8, [BLOCK_N, SCALE_K], scale_layout, b_scale)
    acc_layout: gl.constexpr = TensorMemoryLayout(block=(BLOCK_M, BLOCK_N), col_stride=1)
    acc_tmem = allocate_tensor_memory(gl.float32, [BLOCK_M, BLOCK_N], acc_layout)
    mbarrier.invalidate(bar)
    mbarrier.init(bar, count=1)
    bw.tcgen05_mma_scaled(
        a_smem,
        b_smem.permute((1, 0)),
        acc_tmem,
        a_scale_tmem,
        b_scale_tmem,
        "e4m3",
        "e4m3",
        use_acc=False,
        mbarriers=[bar],
    )
    mbarrier.wait(bar, phase=0)
    mbarrier.invalidate(bar)
    acc_reg: gl.constexpr = get_tmem_reg_layout(gl.float32, (BLOCK_M, BLOCK_N), acc_layout, gl.num_warps())
    acc = acc_tmem.load(acc_reg)
    cm = gl.arange(0, BLOCK_M, layout=gl.SliceLayout(1, acc_reg))
    cn = gl.arange(0, BLOCK_N, layout=gl.SliceLayout(0, acc_reg))
    gl.store(c_ptr + cm[:, None] * BLOCK_N + cn[None, :], acc.to(gl.bfloat16))


@gluon.jit
def gl_memdesc_views(in_ptr, out_ptr, BLOCK_M: gl.constexpr, BLOCK_N: gl.constexpr):
    """Views of one shared allocation: index, reinterpret (fp16 bits as int16), and an fp4 -> bf16 upcast.

    (``reshape`` of this rank-3 NVMMA allocation aborts stock 3.6 on an assertion in
    ``combineCtaCgaWithShape``, so it is left out.)"""
    blocked: gl.constexpr = gl.BlockedLayout([1, 8], [4, 8], [4, 1], [1, 0])
    nvmma2: gl.constexpr = gl.NVMMASharedLayout(swizzle_byte_width=128, element_bitwidth=16, rank=2)
    offs_m = gl.arange(0, BLOCK_M, layout=gl.SliceLayout(1, blocked))
    offs_n = gl.arange(0, BLOCK_N, layout=gl.SliceLayout(0, blocked))
    offs = offs_m[:, None] * BLOCK_N + offs_n[None, :]
    x = gl.load(in_ptr + offs)
    bufs = gl.allocate_shared_memory(gl.float16, [2, BLOCK_M, BLOCK_N], nvmma2)
    bufs.index(0).store(x)
    bufs.index(1).store(-x)
    both = bufs.index(0).load(blocked) + bufs.index(1).load(blocked)
    bits = bufs.index(1)._reinterpret(gl.int16, [BLOCK_M, BLOCK_N], nvmma2).load(blocked)
    packed = (bits & 0xFF).to(gl.uint8)
    up = gl.fp4_to_fp(packed, gl.bfloat16, axis=1)
    gl.store(out_ptr + offs, both)
    up_n = gl.arange(0, 2 * BLOCK_N, layout=gl.SliceLayout(0, up.type.layout))
    up_m = gl.arange(0, BLOCK_M, layout=gl.SliceLayout(1, up.type.layout))
    gl.store(out_ptr + 2 * BLOCK_M * BLOCK_N + up_m[:, None] * 2 * BLOCK_N + up_n[None, :], up.to(gl.float16))
