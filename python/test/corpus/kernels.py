"""Plain Triton (``@triton.jit``) kernels of the round-trip corpus.

Small but realistic kernels, each meant to put a family of constructs into the TTIR/TTGIR that stock
Triton 3.6 produces. Their compile specs (signatures, constexprs, warps, stages, archs) live in
``specs.py``; nothing here is launched, the kernels are only compiled for sm_90 and sm_100.
"""

import triton
import triton.language as tl
from triton.language.extra.cuda import libdevice

# ---------------------------------------------------------------------------------------------------------------------
# Elementwise
# ---------------------------------------------------------------------------------------------------------------------


@triton.jit
def vector_add(x_ptr, y_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    """Masked vector add with cache/eviction modifiers and contiguity hints."""
    pid = tl.program_id(axis=0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    offs = tl.max_contiguous(tl.multiple_of(offs, BLOCK), BLOCK)
    mask = offs < n_elements
    # ptxas rejects .cg/.ca combined with an eviction hint (stock 3.6 emits it anyway), so keep them apart.
    x = tl.load(x_ptr + offs, mask=mask, other=0.0, cache_modifier=".cg")
    y = tl.load(y_ptr + offs, mask=mask, other=0.0, eviction_policy="evict_last")
    tl.store(out_ptr + offs, x + y, mask=mask, cache_modifier=".cs")


@triton.jit
def saxpy_pdl(x_ptr, y_ptr, out_ptr, alpha, n_elements, BLOCK: tl.constexpr):
    """y = alpha * x + y with programmatic dependent launch (griddepcontrol) and volatile loads."""
    tl.extra.cuda.gdc_wait()
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0, volatile=True)
    y = tl.load(y_ptr + offs, mask=mask, other=0.0)
    tl.extra.cuda.gdc_launch_dependents()
    tl.store(out_ptr + offs, tl.fma(x, alpha, y), mask=mask, eviction_policy="evict_last")


@triton.jit
def swiglu_fwd(a_ptr, b_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    """SwiGLU activation in bf16 storage with fp32 math: out = silu(a) * b."""
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    silu = a * tl.sigmoid(a)
    tl.store(out_ptr + offs, (silu * b).to(tl.bfloat16), mask=mask)


@triton.jit
def math_ops(x_ptr, y_ptr, u_ptr, out_ptr, out_u_ptr, out_d_ptr, n_elements, BLOCK: tl.constexpr):
    """A tour of math functions: tl.math, libdevice, fma, clamp, where, rounding casts, bitcasts, fp64."""
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=1.0)
    y = tl.load(y_ptr + offs, mask=mask, other=1.0)
    u = tl.load(u_ptr + offs, mask=mask, other=0)
    ax = tl.abs(x) + 1.0
    a = tl.exp(x) + tl.log(ax) + tl.sqrt(ax) + tl.rsqrt(ax) + tl.sin(x) * tl.cos(y)
    a += tl.exp2(y) + tl.log2(ax) + tl.erf(x) + tl.floor(x) - tl.ceil(y)
    a += libdevice.tanh(x) + libdevice.pow(ax, y) + libdevice.erfinv(tl.clamp(x, -0.5, 0.5))
    a += tl.math.div_rn(x, ax) + tl.math.sqrt_rn(ax) + tl.fdiv(y, ax, ieee_rounding=True)
    b = tl.fma(x, y, a)
    c = tl.clamp(b, -4.0, 4.0)
    d = tl.where(x > y, c, tl.maximum(x, y, propagate_nan=tl.PropagateNan.ALL))
    d = tl.minimum(d, 1.0e4)
    bits = d.to(tl.uint32, bitcast=True)
    hi = tl.umulhi(bits, u)
    mixed = (hi >> 3) ^ (u << 2) | (bits & 0xFF)
    half = d.to(tl.float16, fp_downcast_rounding="rtz")
    bf = d.to(tl.bfloat16, fp_downcast_rounding="rtne")
    e = half.to(tl.float32) + bf.to(tl.float32) + tl.cdiv(u, 3).to(tl.float32)
    dd = x.to(tl.float64) * y.to(tl.float64) + tl.sqrt(ax.to(tl.float64))
    tl.store(out_ptr + offs, e, mask=mask)
    tl.store(out_u_ptr + offs, mixed, mask=mask)
    tl.store(out_d_ptr + offs, dd, mask=mask)


@triton.jit
def fp8_quantize_rows(x_ptr, q4_ptr, q5_ptr, scale_ptr, n_cols, stride_row, BLOCK: tl.constexpr):
    """Per-row absmax fp8 quantization to e4m3 and e5m2."""
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride_row + cols, mask=mask, other=0.0).to(tl.float32)
    amax = tl.max(tl.abs(x), axis=0)
    scale = tl.maximum(amax, 1e-12) / 448.0
    q = tl.clamp(x / scale, -448.0, 448.0)
    tl.store(q4_ptr + row * stride_row + cols, q.to(tl.float8e4nv), mask=mask)
    tl.store(q5_ptr + row * stride_row + cols, q.to(tl.float8e5, fp_downcast_rounding="rtne"), mask=mask)
    tl.store(scale_ptr + row, scale)


@triton.jit
def dropout_rand(x_ptr, out_ptr, noise_ptr, idx_ptr, n_elements, p, seed, BLOCK: tl.constexpr):
    """Philox-based dropout plus normal noise and random integers (tl.rand, tl.randn, tl.randint4x)."""
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    r = tl.rand(seed, offs)
    keep = r > p
    tl.store(out_ptr + offs, tl.where(keep, x / (1 - p), 0.0), mask=mask)
    tl.store(noise_ptr + offs, tl.randn(seed, offs), mask=mask)
    r0, r1, r2, r3 = tl.randint4x(seed, offs)
    tl.store(idx_ptr + offs, r0 ^ r1 ^ r2 ^ r3, mask=mask)


@triton.jit
def inline_asm_ops(x_ptr, y_ptr, out_ptr, out2_ptr, clock_ptr, n_elements, BLOCK: tl.constexpr):
    """tl.inline_asm_elementwise (single and multiple results, packed) and extra.cuda helpers."""
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    y = tl.load(y_ptr + offs, mask=mask, other=0)
    rot = tl.inline_asm_elementwise(
        "shf.l.wrap.b32 $0, $1, $2, $3;", "=r,r,r,r", [x, x, y], dtype=tl.uint32, is_pure=True, pack=1
    )
    lo, hi = tl.inline_asm_elementwise(
        "mov.b32 $0, $2;\n\tmov.b32 $1, $3;", "=r,=r,r,r", [y, x], dtype=(tl.uint32, tl.uint32), is_pure=True, pack=1
    )
    b = x.to(tl.uint8)
    doubled = tl.inline_asm_elementwise(
        "{\n\t.reg .b32 t;\n\tadd.u32 t, $1, $1;\n\tmov.b32 $0, t;\n\t}",
        "=r,r",
        [b],
        dtype=tl.uint8,
        is_pure=False,
        pack=4,
    )
    tl.store(out_ptr + offs, rot + lo + hi + doubled.to(tl.uint32), mask=mask)
    tl.store(out2_ptr + offs, tl.extra.cuda.smid() + tl.extra.cuda.num_threads(), mask=mask)
    if pid == 0:
        tl.store(clock_ptr, tl.extra.cuda.globaltimer())


@triton.jit
def soft_clip_pair(x0, x1, t0, t1):
    """Mapped two elements of each operand at a time; also used by test_warp_specialization."""
    if x0 > t0:  # returns in both branches: the frontend makes cf branches, a region of several blocks
        return t0 + (x0 - t0) * 0.125, x1 * t1
    else:
        return x0, x1 * t1


@triton.jit
def mapped_elementwise(x_ptr, t_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    """tl.map_elementwise two elements at a time (pack=2) of a function with control flow."""
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    t = tl.load(t_ptr + offs, mask=mask, other=1.0)
    (y,) = tl.map_elementwise(soft_clip_pair, x, t, pack=2)
    tl.store(out_ptr + offs, y, mask=mask)


# ---------------------------------------------------------------------------------------------------------------------
# Normalisation and reductions
# ---------------------------------------------------------------------------------------------------------------------


@triton.jit
def fused_softmax(
    out_ptr, in_ptr, in_row_stride, out_row_stride, n_rows, n_cols, BLOCK: tl.constexpr, NUM_STAGES: tl.constexpr
):
    """Row softmax, persistent over rows with a software-pipelined tl.range."""
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=NUM_STAGES):
        row_ptr = in_ptr + row_idx * in_row_stride
        cols = tl.arange(0, BLOCK)
        mask = cols < n_cols
        row = tl.load(row_ptr + cols, mask=mask, other=-float("inf"))
        row_minus_max = row - tl.max(row, axis=0)
        num = tl.exp(row_minus_max)
        den = tl.sum(num, axis=0)
        tl.store(out_ptr + row_idx * out_row_stride + cols, num / den, mask=mask)


@triton.jit
def layer_norm_fwd(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    """LayerNorm forward (fp16 in/out, fp32 statistics), looping over the row in blocks."""
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
        _mean += a
    mean = tl.sum(_mean, axis=0) / N
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.0)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.0).to(tl.float32)
        x_hat = (x - mean) * rstd
        y = x_hat * w + b
        tl.store(Y + cols, y.to(tl.float16), mask=mask)


@triton.jit
def layer_norm_bwd_dx_fused(
    DX, DY, DW, DB, X, W, Mean, Rstd, Lock, stride, N, GROUP_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr
):
    """LayerNorm backward for dx plus partial dw/db accumulated under a spin lock (atomic_cas/atomic_xchg)."""
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE_N)
    mask = cols < N
    X += row * stride
    DY += row * stride
    DX += row * stride
    lock_id = row % GROUP_SIZE_M
    Lock += lock_id
    Count = Lock + GROUP_SIZE_M
    DW = DW + lock_id * N + cols
    DB = DB + lock_id * N + cols
    x = tl.load(X + cols, mask=mask, other=0).to(tl.float32)
    dy = tl.load(DY + cols, mask=mask, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)
    xhat = (x - mean) * rstd
    wdy = w * dy
    xhat = tl.where(mask, xhat, 0.0)
    wdy = tl.where(mask, wdy, 0.0)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    dx = (wdy - (xhat * c1 + c2)) * rstd
    tl.store(DX + cols, dx.to(tl.float16), mask=mask)
    partial_dw = (dy * xhat).to(w.dtype)
    partial_db = dy.to(w.dtype)
    while tl.atomic_cas(Lock, 0, 1) == 1:
        pass
    count = tl.load(Count)
    if count == 0:
        tl.atomic_xchg(Count, 1)
    else:
        partial_dw += tl.load(DW, mask=mask)
        partial_db += tl.load(DB, mask=mask)
    tl.store(DW, partial_dw, mask=mask)
    tl.store(DB, partial_db, mask=mask)
    tl.debug_barrier()
    tl.atomic_xchg(Lock, 0)


@triton.jit
def layer_norm_bwd_dwdb(DW, DB, FINAL_DW, FINAL_DB, M, N, BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    """LayerNorm backward: reduce the partial dw/db buffers over groups (2D tiles, axis-0 sums)."""
    pid = tl.program_id(0)
    cols = pid * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    dw = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    db = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for i in range(0, M, BLOCK_SIZE_M):
        rows = i + tl.arange(0, BLOCK_SIZE_M)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        offs = rows[:, None] * N + cols[None, :]
        dw += tl.load(DW + offs, mask=mask, other=0.0)
        db += tl.load(DB + offs, mask=mask, other=0.0)
    sum_dw = tl.sum(dw, axis=0)
    sum_db = tl.sum(db, axis=0)
    tl.store(FINAL_DW + cols, sum_dw, mask=cols < N)
    tl.store(FINAL_DB + cols, sum_db, mask=cols < N)


@triton.jit
def _argmax_combine(v1, i1, v2, i2):
    gt = (v1 > v2) | ((v1 == v2) & (i1 < i2))
    return tl.where(gt, v1, v2), tl.where(gt, i1, i2)


@triton.jit
def _welford_combine(mean1, m2_1, n1, mean2, m2_2, n2):
    n = n1 + n2
    w2 = tl.where(n == 0, 0.0, n2 / n)
    delta = mean2 - mean1
    return mean1 + delta * w2, m2_1 + m2_2 + delta * delta * n1 * w2, n


@triton.jit
def row_reductions(
    x_ptr,
    i_ptr,
    sum_ptr,
    max_ptr,
    argmax_ptr,
    min_ptr,
    argmin_ptr,
    cargmax_ptr,
    var_ptr,
    bits_ptr,
    M,
    N,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
):
    """sum/max/argmax/min-with-indices, a custom argmax combine fn, Welford variance, xor_sum and reduce_or."""
    pid = tl.program_id(0)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    offs = rows[:, None] * N + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=float("-inf"))
    ints = tl.load(i_ptr + offs, mask=mask, other=0)
    xz = tl.where(mask, x, 0.0)
    rmask = rows < M
    tl.store(sum_ptr + rows, tl.sum(xz, axis=1), mask=rmask)
    tl.store(max_ptr + rows, tl.max(x, axis=1), mask=rmask)
    tl.store(argmax_ptr + rows, tl.argmax(x, axis=1, tie_break_left=True), mask=rmask)
    mn, amn = tl.min(tl.where(mask, x, float("inf")), axis=1, return_indices=True)
    tl.store(min_ptr + rows, mn, mask=rmask)
    tl.store(argmin_ptr + rows, amn, mask=rmask)
    idx = tl.broadcast_to(cols[None, :], (BLOCK_M, BLOCK_N))
    _, cam = tl.reduce((x, idx), 1, _argmax_combine)
    tl.store(cargmax_ptr + rows, cam, mask=rmask)
    cnt = tl.where(mask, 1.0, 0.0)
    _, m2, n = tl.reduce((xz, tl.zeros_like(xz), cnt), 1, _welford_combine)
    tl.store(var_ptr + rows, m2 / tl.maximum(n, 1.0), mask=rmask)
    anyneg = tl.reduce_or(ints < 0, axis=1)
    tl.store(bits_ptr + rows, tl.xor_sum(ints, axis=1) + anyneg.to(tl.int32), mask=rmask)


@triton.jit
def cross_entropy_fwd(logits_ptr, labels_ptr, loss_ptr, lse_ptr, stride, n_cols, ignore_index, BLOCK: tl.constexpr):
    """Cross entropy with an online log-sum-exp over column blocks and early exit on ignored rows."""
    row = tl.program_id(0).to(tl.int64)
    label = tl.load(labels_ptr + row)
    if label == ignore_index:
        tl.store(loss_ptr + row, 0.0)
        return
    m = float("-inf")
    s = 0.0
    for off in tl.range(0, n_cols, BLOCK, loop_unroll_factor=2):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(logits_ptr + row * stride + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        s = s * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    lse = m + tl.log(s)
    target = tl.load(logits_ptr + row * stride + label).to(tl.float32)
    tl.store(loss_ptr + row, lse - target)
    tl.store(lse_ptr + row, lse)


@triton.jit
def sort_topk(x_ptr, sorted_ptr, top_ptr, flipped_ptr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, K: tl.constexpr):
    """Bitonic tl.sort, tl.topk and tl.flip on a 2D tile."""
    rows = tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    x = tl.load(x_ptr + rows[:, None] * BLOCK_N + cols[None, :])
    s = tl.sort(x, dim=1, descending=True)
    tl.store(sorted_ptr + rows[:, None] * BLOCK_N + cols[None, :], s)
    t = tl.topk(x, K, dim=1)
    kc = tl.arange(0, K)
    tl.store(top_ptr + rows[:, None] * K + kc[None, :], t)
    tl.store(flipped_ptr + rows[:, None] * BLOCK_N + cols[None, :], tl.flip(x, dim=1))


# ---------------------------------------------------------------------------------------------------------------------
# Scans
# ---------------------------------------------------------------------------------------------------------------------


@triton.jit
def cumsum_cumprod(x_ptr, sum_ptr, prod_ptr, n_cols, BLOCK: tl.constexpr):
    """tl.cumsum (forward) and tl.cumprod (reverse) along a row."""
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0)
    tl.store(sum_ptr + row * n_cols + cols, tl.cumsum(x, axis=0), mask=mask)
    p = tl.where(mask, x, 1.0)
    tl.store(prod_ptr + row * n_cols + cols, tl.cumprod(p, axis=0, reverse=True), mask=mask)


@triton.jit
def _linear_recurrence_combine(a1, b1, a2, b2):
    return a1 * a2, b1 * a2 + b2


@triton.jit
def linear_recurrence_scan(a_ptr, b_ptr, h_ptr, T, D, BLOCK_T: tl.constexpr, BLOCK_D: tl.constexpr):
    """h_t = a_t * h_{t-1} + b_t with tl.associative_scan over a tuple and a custom combine fn (2D, axis 0)."""
    pid = tl.program_id(0)
    t = tl.arange(0, BLOCK_T)
    d = pid * BLOCK_D + tl.arange(0, BLOCK_D)
    mask = (t[:, None] < T) & (d[None, :] < D)
    offs = t[:, None] * D + d[None, :]
    a = tl.load(a_ptr + offs, mask=mask, other=1.0)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0)
    _, h = tl.associative_scan((a, b), axis=0, combine_fn=_linear_recurrence_combine)
    tl.store(h_ptr + offs, h, mask=mask)


# ---------------------------------------------------------------------------------------------------------------------
# Atomics, histograms, control flow
# ---------------------------------------------------------------------------------------------------------------------


@triton.jit
def atomic_ops(
    x_ptr, i_ptr, sum_ptr, hsum_ptr, max_ptr, min_ptr, bits_ptr, flag_ptr, old_ptr, n_elements, BLOCK: tl.constexpr
):
    """atomic_add (scalar, vector, fp16), atomic_max/min, and/or/xor, atomic_cas/xchg with sem and scope."""
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    v = tl.load(i_ptr + offs, mask=mask, other=0)
    tl.atomic_add(sum_ptr, tl.sum(x, axis=0))
    tl.atomic_add(hsum_ptr + (offs % 16), x.to(tl.float16), mask=mask, sem="relaxed", scope="gpu")
    tl.atomic_max(max_ptr + (offs % 8), v, mask=mask, sem="release")
    tl.atomic_min(min_ptr + (offs % 8), v, mask=mask, sem="acquire", scope="cta")
    tl.atomic_and(bits_ptr, 0xFFFF)
    # A scalar pointer with a tensor value fails to verify in stock 3.6: use tensors of pointers.
    tl.atomic_or(bits_ptr + 1 + (offs % 2), v, mask=mask)
    tl.atomic_xor(bits_ptr + 3 + (offs % 2), v, mask=mask, scope="sys")
    old = tl.atomic_cas(flag_ptr + pid, 0, 1, sem="acq_rel", scope="gpu")
    prev = tl.atomic_xchg(flag_ptr + pid + 1024, old)
    tl.store(old_ptr + pid, prev)


@triton.jit
def histogram_kernel(x_ptr, hist_ptr, hist2_ptr, n_elements, BLOCK: tl.constexpr, NUM_BINS: tl.constexpr):
    """tl.histogram with a mask, and the atomic_add formulation of the same histogram."""
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    bins = tl.minimum(tl.maximum(x, 0), NUM_BINS - 1)
    h = tl.histogram(bins, NUM_BINS, mask=mask)
    tl.atomic_add(hist_ptr + tl.arange(0, NUM_BINS), h)
    tl.atomic_add(hist2_ptr + bins, 1, mask=mask)


@triton.jit
def collatz_while(x_ptr, steps_ptr, max_steps):
    """A data-dependent scalar while loop with an if/else in its body (scf.while + scf.if)."""
    pid = tl.program_id(0)
    v = tl.load(x_ptr + pid)
    steps = 0
    while (v != 1) & (steps < max_steps):
        if v % 2 == 0:  # noqa: SIM108 - an scf.if with a result, on purpose
            v = v // 2
        else:
            v = 3 * v + 1
        steps += 1
    tl.store(steps_ptr + pid, steps)


@triton.jit
def binary_search(sorted_ptr, queries_ptr, out_ptr, n_sorted, BLOCK: tl.constexpr):
    """Vectorized lower_bound: a while loop on a scalar condition driving tensor state."""
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    q = tl.load(queries_ptr + offs)
    lo = tl.zeros([BLOCK], dtype=tl.int32)
    hi = tl.full([BLOCK], n_sorted, tl.int32)
    while tl.max(hi - lo, axis=0) > 0:
        mid = (lo + hi) // 2
        active = lo < hi
        val = tl.load(sorted_ptr + mid, mask=active & (mid < n_sorted), other=float("inf"))
        go_right = active & (val < q)
        lo = tl.where(go_right, mid + 1, lo)
        hi = tl.where(active & ~go_right, mid, hi)
    tl.store(out_ptr + offs, lo)


@triton.jit(noinline=True)
def _noinline_scale(scale, n):
    # noinline callees only take scalars in 3.6
    if n > 1024:
        return scale * 0.5
    return scale * 2.0


@triton.jit
def _gelu(x):
    return 0.5 * x * (1.0 + tl.erf(x * 0.7071067811865476))


@triton.jit
def _inlined_scale(x, s):
    return x * s


@triton.jit
def gelu_call(x_ptr, out_ptr, scale, n_elements, BLOCK: tl.constexpr):
    """A noinline callee with an early return (tt.call / private tt.func) next to inlined helpers."""
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = _gelu(_inlined_scale(x, _noinline_scale(scale, n_elements)))
    tl.store(out_ptr + offs, y, mask=mask)


@triton.jit
def debug_ops(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    """tl.device_assert / tl.device_print (compiled with debug=True so the asserts survive)."""
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    tl.static_assert(BLOCK % 32 == 0, "BLOCK must be a multiple of 32")
    tl.device_assert(x >= 0, "x must be non-negative", mask=mask)
    tl.device_print("x = ", x)
    tl.device_print("pid ", pid, hex=True)
    tl.store(out_ptr + offs, x * 2, mask=mask)


@triton.jit
def grid_3d(out_ptr, nx_ptr, BLOCK: tl.constexpr):
    """program_id / num_programs on all three axes."""
    pid_x = tl.program_id(0)
    pid_y = tl.program_id(1)
    pid_z = tl.program_id(2)
    nx = tl.num_programs(0)
    ny = tl.num_programs(1)
    nz = tl.num_programs(2)
    lin = (pid_z * ny + pid_y) * nx + pid_x
    offs = lin * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.full([BLOCK], 0, tl.int32) + pid_x + 1000 * pid_y + 1000000 * pid_z)
    if lin == 0:
        tl.store(nx_ptr, nx * ny * nz)


@triton.jit
def loop_hints(x_ptr, out_ptr, n_rows, n_cols, BLOCK: tl.constexpr):
    """tl.range hints (loop_unroll_factor, disable_licm, num_stages), tl.static_range and tl.assume."""
    pid = tl.program_id(0)
    tl.assume(n_rows > 0)
    tl.assume(n_cols % 16 == 0)
    cols = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for r in tl.range(0, n_rows, loop_unroll_factor=4):
        x = tl.load(x_ptr + r * n_cols + pid * BLOCK + cols)
        acc += x
    for c in tl.static_range(4):
        acc = acc * 0.5 + c
    for r in tl.range(0, n_rows, num_stages=2, disable_licm=True):
        y = tl.load(x_ptr + r * n_cols + pid * BLOCK + cols, eviction_policy="evict_first")
        acc = tl.maximum(acc, y * tl.cast(n_rows, tl.float32))
    tl.store(out_ptr + pid * BLOCK + cols, acc)


# ---------------------------------------------------------------------------------------------------------------------
# Gather / scatter / shape manipulation
# ---------------------------------------------------------------------------------------------------------------------


@triton.jit
def gather_scatter(src_ptr, idx_ptr, out_ptr, scat_ptr, n_rows, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """tl.gather within a tile, indirect loads and an indirect (scatter) store."""
    pid = tl.program_id(0)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    offs = rows[:, None] * BLOCK_N + cols[None, :]
    mask = rows[:, None] < n_rows
    src = tl.load(src_ptr + offs, mask=mask, other=0.0)
    idx = tl.load(idx_ptr + offs, mask=mask, other=0) % BLOCK_N
    g = tl.gather(src, idx, axis=1)
    tl.store(out_ptr + offs, g, mask=mask)
    indirect = tl.load(src_ptr + rows[:, None] * BLOCK_N + idx, mask=mask, other=0.0)
    tl.store(scat_ptr + rows[:, None] * BLOCK_N + idx, indirect * 2.0, mask=mask)


@triton.jit
def shape_ops(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    """cat, join, split, interleave, reshape, trans, permute, broadcast_to, expand_dims, ravel."""
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    c = tl.cat(x, y, can_reorder=True)
    j = tl.join(x, y)
    a, b = tl.split(j)
    inter = tl.interleave(a, b)
    r = tl.reshape(inter, [2, BLOCK])
    t = tl.trans(r)
    p = tl.permute(tl.reshape(t, [BLOCK // 4, 4, 2]), (2, 0, 1))
    bc = tl.broadcast_to(tl.expand_dims(x, 0), [4, BLOCK])
    flat = tl.ravel(p) + tl.reshape(bc, [4 * BLOCK], can_reorder=True).to(tl.float32).sum() * 0.0
    tl.store(out_ptr + tl.arange(0, 2 * BLOCK), flat + tl.sum(c, axis=0))
    tl.store(out_ptr + 2 * BLOCK + offs, tl.sum(t, axis=1))
    tl.store(out_ptr + 3 * BLOCK + offs, b - a + tl.sum(bc, axis=0))


@triton.jit
def transpose_2d(x_ptr, y_ptr, M, N, stride_xm, stride_yn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """Tiled transpose through tl.trans with 2D masks (exercises convert_layout / shared memory)."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * stride_xm + rn[None, :], mask=mask)
    tl.store(y_ptr + rn[:, None] * stride_yn + rm[None, :], tl.trans(x), mask=tl.trans(mask))


# ---------------------------------------------------------------------------------------------------------------------
# Matmul family
# ---------------------------------------------------------------------------------------------------------------------


@triton.jit
def matmul_kernel(
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
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    GROUP_M: tl.constexpr,
    INPUT_PRECISION: tl.constexpr,
    ACTIVATION: tl.constexpr,
):
    """The tutorial matmul: grouped tile order, masked K loop, tl.dot with an explicit accumulator."""
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    tl.assume(pid_m >= 0)
    tl.assume(pid_n >= 0)
    offs_am = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        acc = tl.dot(a, b, acc, input_precision=INPUT_PRECISION)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    if ACTIVATION == "leaky_relu":
        acc = tl.where(acc >= 0, acc, 0.01 * acc)
    c = acc.to(c_ptr.dtype.element_ty)
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


@triton.jit
def matmul_int8(
    a_ptr,
    b_ptr,
    c_ptr,
    M,
    N,
    K,
    stride_am,
    stride_bk,
    stride_cm,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
):
    """int8 x int8 -> int32 tl.dot (out_dtype=int32)."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * stride_am + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * stride_bk + rn[None, :])
        acc += tl.dot(a, b, out_dtype=tl.int32)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc, mask=mask)


@triton.jit
def matmul_block_ptr(
    a_ptr,
    b_ptr,
    c_ptr,
    M,
    N,
    K,
    stride_am,
    stride_bk,
    stride_cm,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
):
    """Matmul through tl.make_block_ptr / tl.advance with boundary checks and zero padding."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_bp = tl.make_block_ptr(
        a_ptr,
        shape=(M, K),
        strides=(stride_am, 1),
        offsets=(pid_m * BLOCK_M, 0),
        block_shape=(BLOCK_M, BLOCK_K),
        order=(1, 0),
    )
    b_bp = tl.make_block_ptr(
        b_ptr,
        shape=(K, N),
        strides=(stride_bk, 1),
        offsets=(0, pid_n * BLOCK_N),
        block_shape=(BLOCK_K, BLOCK_N),
        order=(1, 0),
    )
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, K, BLOCK_K):
        a = tl.load(a_bp, boundary_check=(0, 1), padding_option="zero")
        b = tl.load(b_bp, boundary_check=(0, 1), padding_option="zero")
        acc = tl.dot(a, b, acc)
        a_bp = tl.advance(a_bp, (0, BLOCK_K))
        b_bp = tl.advance(b_bp, (BLOCK_K, 0))
    c_bp = tl.make_block_ptr(
        c_ptr,
        shape=(M, N),
        strides=(stride_cm, 1),
        offsets=(pid_m * BLOCK_M, pid_n * BLOCK_N),
        block_shape=(BLOCK_M, BLOCK_N),
        order=(1, 0),
    )
    tl.store(c_bp, acc.to(tl.float16), boundary_check=(0, 1))


@triton.jit
def matmul_split_k(
    a_ptr,
    b_ptr,
    c_ptr,
    M,
    N,
    K,
    stride_am,
    stride_bk,
    stride_cm,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    SPLIT_K: tl.constexpr,
):
    """Split-K matmul reducing partial tiles with a vector tl.atomic_add into fp32."""
    pid = tl.program_id(0)
    pid_k = tl.program_id(1)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * stride_bk + rn[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K * SPLIT_K)):
        k_remaining = K - k * (BLOCK_K * SPLIT_K)
        a = tl.load(a_ptrs, mask=rk[None, :] < k_remaining, other=0.0)
        b = tl.load(b_ptrs, mask=rk[:, None] < k_remaining, other=0.0)
        acc = tl.dot(a, b, acc, out_dtype=tl.float32)
        a_ptrs += BLOCK_K * SPLIT_K
        b_ptrs += BLOCK_K * SPLIT_K * stride_bk
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.atomic_add(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc, mask=mask, sem="relaxed")


@triton.jit
def batched_dot_3d(a_ptr, b_ptr, c_ptr, B: tl.constexpr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    """A rank-3 (batched) tl.dot on a single tile."""
    rb = tl.arange(0, B)
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rb[:, None, None] * M * K + rm[None, :, None] * K + rk[None, None, :])
    b = tl.load(b_ptr + rb[:, None, None] * K * N + rk[None, :, None] * N + rn[None, None, :])
    c = tl.dot(a, b)
    tl.store(c_ptr + rb[:, None, None] * M * N + rm[None, :, None] * N + rn[None, None, :], c)


@triton.jit
def _compute_pid(tile_id, num_pid_in_group, num_pid_m, GROUP_M: tl.constexpr):
    group_id = tile_id // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + (tile_id % group_size_m)
    pid_n = (tile_id % num_pid_in_group) // group_size_m
    return pid_m, pid_n


@triton.jit
def matmul_tma_persistent_device(
    a_ptr,
    b_ptr,
    c_ptr,
    M,
    N,
    K,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    GROUP_M: tl.constexpr,
    NUM_SMS: tl.constexpr,
):
    """Persistent matmul over tiles with device-side tl.make_tensor_descriptor (TMA), B given as N x K."""
    dtype = c_ptr.dtype.element_ty
    start_pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    k_tiles = tl.cdiv(K, BLOCK_K)
    num_tiles = num_pid_m * num_pid_n
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[K, 1], block_shape=[BLOCK_N, BLOCK_K])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    num_pid_in_group = GROUP_M * num_pid_n
    for tile_id in tl.range(start_pid, num_tiles, NUM_SMS, flatten=True):
        pid_m, pid_n = _compute_pid(tile_id, num_pid_in_group, num_pid_m, GROUP_M)
        offs_am = pid_m * BLOCK_M
        offs_bn = pid_n * BLOCK_N
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for ki in range(k_tiles):
            offs_k = ki * BLOCK_K
            a = a_desc.load([offs_am, offs_k])
            b = b_desc.load([offs_bn, offs_k])
            acc = tl.dot(a, b.T, acc)
        c_desc.store([offs_am, offs_bn], acc.to(dtype))


@triton.jit
def matmul_tma_host_desc(
    a_desc,
    b_desc,
    c_desc,
    M,
    N,
    K,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    GROUP_M: tl.constexpr,
    NUM_SMS: tl.constexpr,
    WARP_SPECIALIZE: tl.constexpr,
):
    """Persistent matmul on host-built tensor descriptors (signature "tensordesc<...>"), optionally
    with automatic warp specialization of the K loop."""
    start_pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    k_tiles = tl.cdiv(K, BLOCK_K)
    num_tiles = num_pid_m * num_pid_n
    num_pid_in_group = GROUP_M * num_pid_n
    for tile_id in tl.range(start_pid, num_tiles, NUM_SMS, flatten=True, warp_specialize=WARP_SPECIALIZE):
        pid_m, pid_n = _compute_pid(tile_id, num_pid_in_group, num_pid_m, GROUP_M)
        offs_am = pid_m * BLOCK_M
        offs_bn = pid_n * BLOCK_N
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for ki in range(k_tiles):
            offs_k = ki * BLOCK_K
            a = a_desc.load([offs_am, offs_k])
            b = b_desc.load([offs_bn, offs_k])
            acc = tl.dot(a, b.T, acc)
        c_desc.store([offs_am, offs_bn], acc.to(tl.float16))


@triton.jit
def tma_gather_scatter(in_ptr, out_ptr, idx_ptr, acc_ptr, M, N, y_offset, BLOCK_Y: tl.constexpr, BLOCK_X: tl.constexpr):
    """Tensor-descriptor row gather / scatter and a descriptor atomic_add (TMA reduce)."""
    in_desc = tl.make_tensor_descriptor(in_ptr, shape=[M, N], strides=[N, 1], block_shape=[1, BLOCK_X])
    out_desc = tl.make_tensor_descriptor(out_ptr, shape=[M, N], strides=[N, 1], block_shape=[1, BLOCK_X])
    acc_desc = tl.make_tensor_descriptor(acc_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_Y, BLOCK_X])
    idx = tl.load(idx_ptr + tl.arange(0, BLOCK_Y))
    x = in_desc.gather(idx, y_offset)
    out_desc.scatter(x * 2.0, idx, y_offset)
    acc_desc.atomic_add([0, y_offset], x)


@triton.jit
def matmul_dot_scaled(
    a_ptr,
    a_scale_ptr,
    b_ptr,
    b_scale_ptr,
    c_ptr,
    M,
    N,
    K,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    VEC: tl.constexpr,
):
    """Microscaled mxfp8 (e4m3 x e5m2) matmul with e8m0 scales through tl.dot_scaled."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    rs = tl.arange(0, BLOCK_K // VEC)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        a_scale = tl.load(a_scale_ptr + rm[:, None] * (K // VEC) + (k // VEC + rs)[None, :])
        b_scale = tl.load(b_scale_ptr + rn[:, None] * (K // VEC) + (k // VEC + rs)[None, :])
        acc = tl.dot_scaled(a, a_scale, "e4m3", b, b_scale, "e5m2", acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc.to(tl.bfloat16))


@triton.jit
def attention_fwd(
    Q,
    K,
    V,
    Out,
    Lse,
    sm_scale,
    stride_qz,
    stride_qh,
    stride_qm,
    stride_kz,
    stride_kh,
    stride_kn,
    stride_vz,
    stride_vh,
    stride_vn,
    stride_oz,
    stride_oh,
    stride_om,
    H,
    N_CTX,
    HEAD_DIM: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    CAUSAL: tl.constexpr,
):
    """Flash attention forward: two tl.dot per KV block with an online (exp2) softmax, optional causal mask."""
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    off_z = off_hz // H
    off_h = off_hz % H
    q_offset = off_z.to(tl.int64) * stride_qz + off_h.to(tl.int64) * stride_qh
    k_offset = off_z.to(tl.int64) * stride_kz + off_h.to(tl.int64) * stride_kh
    v_offset = off_z.to(tl.int64) * stride_vz + off_h.to(tl.int64) * stride_vh
    o_offset = off_z.to(tl.int64) * stride_oz + off_h.to(tl.int64) * stride_oh
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(Q + q_offset + offs_m[:, None] * stride_qm + offs_d[None, :])
    m_i = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    hi = (start_m + 1) * BLOCK_M if CAUSAL else N_CTX
    for start_n in tl.range(0, hi, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        k = tl.load(K + k_offset + (start_n + offs_n)[None, :] * stride_kn + offs_d[:, None])
        qk = tl.dot(q, k)
        if CAUSAL:
            causal = offs_m[:, None] >= (start_n + offs_n[None, :])
            qk = qk * qk_scale + tl.where(causal, 0, -1.0e6)
            m_ij = tl.maximum(m_i, tl.max(qk, 1))
            qk -= m_ij[:, None]
        else:
            m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
            qk = qk * qk_scale - m_ij[:, None]
        p = tl.math.exp2(qk)
        l_ij = tl.sum(p, 1)
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + l_ij
        acc = acc * alpha[:, None]
        v = tl.load(V + v_offset + (start_n + offs_n)[:, None] * stride_vn + offs_d[None, :])
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(Lse + off_hz * N_CTX + offs_m, m_i + tl.math.log2(l_i))
    tl.store(Out + o_offset + offs_m[:, None] * stride_om + offs_d[None, :], acc.to(Out.dtype.element_ty))
