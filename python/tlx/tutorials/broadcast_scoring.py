"""Broadcast scoring: a recommendation layer that scores every user against its candidate items,
with the user row broadcast inside the kernel instead of in memory.

The layer: B users, n candidate items each. User features U [B, Du], item features X [B*n, Di] (rows
b*n .. b*n+n-1 belong to user b), weights W [Du+Di, H] = [W_u; W_i]. The output is

    Y = concat(repeat_interleave(U, n), X) @ W,    i.e.    Y[b*n+j] = U[b] @ W_u + X[b*n+j] @ W_i.

The textbook way (`materialized_torch`, `materialized_triton`) builds the [B*n, Du+Di] concat in memory
and runs one big matmul over it: the user row is copied n times, read n times and multiplied by W_u n
times although the product U[b] @ W_u is the same for every item of user b.

`broadcast_scoring_kernel` never materializes the broadcast. One program owns one user, one BLOCK_N-wide
slice of H and a contiguous chunk of that user's items. It computes the user projection row once,

    u_proj = U[b] @ W_u[:, slice]        (fp32, CUDA cores, Du * BLOCK_N FMAs),

then streams its items through the tensor cores with the wgmma accumulator *initialized* to that row
broadcast to [BLOCK_M, BLOCK_N]: the per-item add is free (wgmma computes acc + X @ W_i), and only the
item part X @ W_i (K = Di instead of Du + Di) goes through the tensor cores.

Flop accounting (2 flops per multiply-add). "Effective" flops, what `flops()` returns and what TFLOP/s
figures are quoted in, are those of the materialized matmul, 2*B*n*(Du+Di)*H. The in-kernel work is
2*B*n*Di*H on the tensor cores plus 2*B*chunks*Du*H for the user rows (`chunks`: programs per user and
N-slice, `_plan`), so the ratio is about (Du+Di)/Di. Memory: the materialized paths also write and read
the B*n*(Du+Di) concat (torch writes the repeated U, then the concat: three passes over it), the
in-kernel path reads only X, U, W and writes Y.

CPU-side estimate for SHAPES on 132 SMs (`estimate`). The predicted speedups come from a roofline, not a
measurement: 4.0 TB/s HBM, cuBLAS 650 and stock Triton 550 TFLOP/s on the materialized matmul, this
kernel 400 TFLOP/s on its tensor-core part plus the W_u slices each program reads from L2 at 6 TB/s.

    (B, n, Du, Di, H)            chunks  materialized GFLOP  in-kernel GFLOP  ratio  concat MB  vs torch  vs triton
    (32, 2048, 1024, 256, 256)      2          42.9                8.6          5.0      168       6.8x      4.7x
    (64, 1024, 512, 128, 256)       1          21.5                4.3          5.0       84       6.0x      4.2x
    (8, 8192, 2048, 512, 512)       4         171.8               34.4          5.0      336       5.1x      4.3x
    (16, 4096, 1536, 256, 512)      2         120.3               17.2          7.0      235       6.9x      5.6x

Requirements (`check_shape`, called by `run`: ValueError otherwise): fp16 or bf16 contiguous CUDA
tensors of one dtype; n a multiple of BLOCK_M = 128 (an item tile never straddles two users); Di and H
multiples of 8 (16-byte TMA row strides); Di <= 512 (the W_i slice stays resident in shared memory).
Du is free.
"""

import triton
import triton.language as tl

import tlx


@triton.jit
def broadcast_scoring_kernel(
    user_ptr,  # U [B, Du], row-major
    weight_ptr,  # W [Du + Di, H], row-major (W_u rows read with plain loads)
    x_desc,  # X [B*n, Di], blocks [BLOCK_M, BLOCK_K]
    w_desc,  # W [Du + Di, H], blocks [BLOCK_K, BLOCK_N] (W_i rows read by TMA)
    y_desc,  # Y [B*n, H], blocks [BLOCK_M, BLOCK_N]
    items_per_user,
    user_dim,
    hidden,
    tiles_per_chunk,  # item tiles (BLOCK_M rows) per program, except maybe the user's last chunk
    num_chunks,  # programs per (user, N-slice)
    ITEM_DIM: tl.constexpr,  # Di: how many W_i tiles stay resident in shared memory
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    BLOCK_U: tl.constexpr,  # rows of W_u per step of the user projection
    NUM_STAGES: tl.constexpr,
):
    dtype = tlx.dtype_of(x_desc)  # one kernel for fp16 and bf16: the descriptors say which
    elem: tl.constexpr = tlx.size_of(dtype)
    K_TILES: tl.constexpr = (ITEM_DIM + BLOCK_K - 1) // BLOCK_K

    # N-slice fastest: the programs that read the same item rows run side by side, so X comes from HBM
    # once and from L2 for the other slices of H.
    pid = tl.program_id(0)
    num_n = tl.cdiv(hidden, BLOCK_N)
    pid_n = pid % num_n
    chunk = (pid // num_n) % num_chunks
    user = pid // (num_n * num_chunks)
    off_n = pid_n * BLOCK_N
    tiles_of_user = items_per_user // BLOCK_M
    first_tile = chunk * tiles_per_chunk
    my_tiles = tl.minimum(tiles_per_chunk, tiles_of_user - first_tile)
    row0 = user * items_per_user + first_tile * BLOCK_M
    steps = my_tiles * K_TILES  # one step = one [BLOCK_M, BLOCK_K] X tile times one W_i tile

    # W_i[:, slice] is the same for every item: load it once and keep it (Di x BLOCK_N elements).
    # Rows past Du + Di (Di not a multiple of BLOCK_K) come back zero from TMA, as do the matching X
    # columns, so a partial last K tile adds nothing.
    w_tiles = tlx.local_alloc((BLOCK_K, BLOCK_N), dtype, K_TILES)
    w_ready = tlx.alloc_barriers(1)
    tlx.barrier_expect_bytes(w_ready[0], K_TILES * BLOCK_K * BLOCK_N * elem)
    for k in tl.static_range(K_TILES):
        tlx.async_descriptor_load(w_desc, w_tiles[k], [user_dim + k * BLOCK_K, off_n], w_ready[0])

    # X streams through a ring of NUM_STAGES stages, one mbarrier each. The ring runs over the flattened
    # (item tile, k) steps, so it does not drain between item tiles (Di is only a few BLOCK_Ks).
    x_tiles = tlx.local_alloc((BLOCK_M, BLOCK_K), dtype, NUM_STAGES)
    x_ready = tlx.alloc_barriers(NUM_STAGES)
    for i in tl.static_range(NUM_STAGES):
        if i < steps:
            tlx.barrier_expect_bytes(x_ready[i], BLOCK_M * BLOCK_K * elem)
            tlx.async_descriptor_load(
                x_desc, x_tiles[i], [row0 + (i // K_TILES) * BLOCK_M, (i % K_TILES) * BLOCK_K], x_ready[i]
            )

    # The user projection, once per program, while the TMA loads above are in flight. It is a
    # [1, Du] x [Du, BLOCK_N] product: a wgmma would need 64 rows (64x the flops) for one useful row,
    # so it runs on the CUDA cores in fp32. Its Du * BLOCK_N FMAs are well under 1% of the program's
    # flops at SHAPES; what it does cost is reading the Du x BLOCK_N slice of W_u (from L2), which is
    # why `_plan` does not cut a user's items into more chunks than it needs to fill the SMs.
    cols = off_n + tl.arange(0, BLOCK_N)
    u_proj = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for k0 in range(0, user_dim, BLOCK_U):
        ks = k0 + tl.arange(0, BLOCK_U)
        u = tl.load(user_ptr + user * user_dim + ks, mask=ks < user_dim, other=0.0)
        w = tl.load(
            weight_ptr + ks[:, None] * hidden + cols[None, :],
            mask=(ks[:, None] < user_dim) & (cols[None, :] < hidden),
            other=0.0,
        )
        u_proj += tl.sum(u.to(tl.float32)[:, None] * w.to(tl.float32), axis=0)
    # The broadcast: every item row of a tile starts from the user's row. Nothing is replicated in
    # memory; wgmma adds X @ W_i onto it.
    acc_init = tl.broadcast_to(u_proj[None, :], (BLOCK_M, BLOCK_N))

    y_tile = tlx.local_alloc((BLOCK_M, BLOCK_N), dtype, 1)
    tlx.barrier_wait(w_ready[0], 0)
    for t in range(my_tiles):
        acc = acc_init
        for k in tl.static_range(K_TILES):
            step = t * K_TILES + k
            s = step % NUM_STAGES
            tlx.barrier_wait(x_ready[s], (step // NUM_STAGES) & 1)
            acc = tlx.async_dot(x_tiles[s], w_tiles[k], acc)
            # The dot of the previous step is done (or was waited for at the end of the last tile):
            # its stage takes the step NUM_STAGES - 1 ahead while this dot runs.
            acc = tlx.async_dot_wait(1, acc)
            refill = step - 1 + NUM_STAGES
            if (step > 0) & (refill < steps):
                ps = (step - 1) % NUM_STAGES
                tlx.barrier_expect_bytes(x_ready[ps], BLOCK_M * BLOCK_K * elem)
                tlx.async_descriptor_load(
                    x_desc,
                    x_tiles[ps],
                    [row0 + (refill // K_TILES) * BLOCK_M, (refill % K_TILES) * BLOCK_K],
                    x_ready[ps],
                )
        acc = tlx.async_dot_wait(0, acc)
        # The previous tile's TMA store has to be done reading y_tile before it is overwritten; it ran
        # behind this tile's dots.
        tlx.async_descriptor_store_wait(0)
        tlx.local_store(y_tile[0], acc.to(dtype))
        tlx.fence_async_shared()
        tlx.async_descriptor_store(y_desc, y_tile[0], [row0 + t * BLOCK_M, off_n])
    tlx.async_descriptor_store_wait(0)


CONFIG = {"ITEM_DIM": 256, "BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 64, "BLOCK_U": 128, "NUM_STAGES": 4}
NUM_WARPS = 8
#: Largest Di whose W_i slice (Di x BLOCK_N) stays resident beside the X ring and the output tile.
MAX_ITEM_DIM = 512

SPEC = {
    "kernel": broadcast_scoring_kernel,
    "signature": {
        "user_ptr": "*fp16",
        "weight_ptr": "*fp16",
        "x_desc": "tensordesc<fp16[128, 64]>",
        "w_desc": "tensordesc<fp16[64, 128]>",
        "y_desc": "tensordesc<fp16[128, 128]>",
        "items_per_user": "i32",
        "user_dim": "i32",
        "hidden": "i32",
        "tiles_per_chunk": "i32",
        "num_chunks": "i32",
        "ITEM_DIM": "constexpr",
        "BLOCK_M": "constexpr",
        "BLOCK_N": "constexpr",
        "BLOCK_K": "constexpr",
        "BLOCK_U": "constexpr",
        "NUM_STAGES": "constexpr",
    },
    "constexprs": CONFIG,
    "num_warps": NUM_WARPS,
    "ptx": (
        "cp.async.bulk.tensor.2d.shared::cluster.global",
        "mbarrier.arrive.expect_tx",
        "mbarrier.try_wait",
        "wgmma.mma_async",
        "wgmma.wait_group.sync.aligned 1",
        "cp.async.bulk.tensor.2d.global.shared",
        "cp.async.bulk.wait_group",
    ),
}

# (B, n, Du, Di, H): realistic sizes where the user part is most of the materialized work.
SHAPES = [
    (32, 2048, 1024, 256, 256),
    (64, 1024, 512, 128, 256),
    (8, 8192, 2048, 512, 512),
    (16, 4096, 1536, 256, 512),
]


# ----------------------------------------------------------------------------- the materialized baseline


@triton.jit
def concat_kernel(
    user_ptr, items_ptr, out_ptr, rows, items_per_user, user_dim, item_dim, BR: tl.constexpr, BC: tl.constexpr
):
    """out[r] = concat(U[r // n], X[r]): the broadcast written out to memory (stock Triton)."""
    width = user_dim + item_dim
    r = tl.program_id(0) * BR + tl.arange(0, BR)
    c = tl.program_id(1) * BC + tl.arange(0, BC)
    in_rows = (r < rows)[:, None]
    is_user = (c < user_dim)[None, :]
    is_item = ((c >= user_dim) & (c < width))[None, :]
    r64 = r.to(tl.int64)[:, None]
    u = tl.load(user_ptr + (r64 // items_per_user) * user_dim + c[None, :], mask=in_rows & is_user, other=0.0)
    x = tl.load(items_ptr + r64 * item_dim + (c[None, :] - user_dim), mask=in_rows & is_item, other=0.0)
    tl.store(out_ptr + r64 * width + c[None, :], tl.where(is_user, u, x), mask=in_rows & (c < width)[None, :])


@triton.jit
def matmul_kernel(
    a_desc, b_desc, c_desc, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr
):
    """c = a @ b, stock Triton: TMA descriptors, tl.dot, the automatic pipeliner (num_stages)."""
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    group = pid // (GROUP_M * num_pid_n)
    first_m = group * GROUP_M
    group_size = tl.minimum(num_pid_m - first_m, GROUP_M)
    pid_m = first_m + (pid % group_size)
    pid_n = (pid % (GROUP_M * num_pid_n)) // group_size
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(a_desc.load([pid_m * BM, k]), b_desc.load([k, pid_n * BN]), acc)
    c_desc.store([pid_m * BM, pid_n * BN], acc.to(c_desc.dtype))


CONCAT_CONFIG = {"BR": 32, "BC": 128}
CONCAT_NUM_WARPS = 4
MATMUL_CONFIG = {"BM": 128, "BN": 256, "BK": 64, "GROUP_M": 8}
MATMUL_NUM_WARPS = 8
MATMUL_NUM_STAGES = 3

#: What the baseline kernels compile as (for the CPU compile test): (kernel, signature, constexprs, options).
BASELINE_SPECS = [
    (
        concat_kernel,
        {
            "user_ptr": "*fp16",
            "items_ptr": "*fp16",
            "out_ptr": "*fp16",
            "rows": "i32",
            "items_per_user": "i32",
            "user_dim": "i32",
            "item_dim": "i32",
            "BR": "constexpr",
            "BC": "constexpr",
        },
        CONCAT_CONFIG,
        {"num_warps": CONCAT_NUM_WARPS},
    ),
    (
        matmul_kernel,
        {
            "a_desc": "tensordesc<fp16[128, 64]>",
            "b_desc": "tensordesc<fp16[64, 256]>",
            "c_desc": "tensordesc<fp16[128, 256]>",
            "M": "i32",
            "N": "i32",
            "K": "i32",
            "BM": "constexpr",
            "BN": "constexpr",
            "BK": "constexpr",
            "GROUP_M": "constexpr",
        },
        MATMUL_CONFIG,
        {"num_warps": MATMUL_NUM_WARPS, "num_stages": MATMUL_NUM_STAGES},
    ),
]


# ----------------------------------------------------------------------------- host side


def _shape(user, items, weight):
    num_users, user_dim = user.shape
    rows, item_dim = items.shape
    hidden = weight.shape[1]
    if num_users == 0 or rows % num_users:
        raise ValueError(f"items has {rows} rows, not a multiple of the {num_users} users")
    if weight.shape[0] != user_dim + item_dim:
        raise ValueError(f"weight has {weight.shape[0]} rows, expected Du + Di = {user_dim} + {item_dim}")
    return num_users, rows // num_users, user_dim, item_dim, hidden


def make_inputs(num_users, items_per_user, user_dim, item_dim, hidden, dtype=None, device="cuda"):
    """Random normal U, X, W; W scaled by 1/sqrt(Du + Di) so that Y is O(1)."""
    import torch

    dtype = dtype or torch.float16
    user = torch.randn(num_users, user_dim, device=device, dtype=torch.float32)
    items = torch.randn(num_users * items_per_user, item_dim, device=device, dtype=torch.float32)
    weight = torch.randn(user_dim + item_dim, hidden, device=device, dtype=torch.float32) / (user_dim + item_dim) ** 0.5
    return {"user": user.to(dtype), "items": items.to(dtype), "weight": weight.to(dtype)}


def reference(user, items, weight):
    """Y in float64, with the broadcast done the obvious way."""
    _, n, du, _, _ = _shape(user, items, weight)
    w = weight.double()
    return user.double().repeat_interleave(n, 0) @ w[:du] + items.double() @ w[du:]


def flops(user, items, weight):
    """Effective flops: those of the materialized matmul, 2 * B*n * (Du+Di) * H."""
    b, n, du, di, h = _shape(user, items, weight)
    return 2 * b * n * (du + di) * h


def check_shape(num_users, items_per_user, user_dim, item_dim, hidden):
    """Raise ValueError unless `run` supports (B, n, Du, Di, H)."""
    bm = CONFIG["BLOCK_M"]
    if min(num_users, items_per_user, user_dim, item_dim, hidden) <= 0:
        shape = (num_users, items_per_user, user_dim, item_dim, hidden)
        raise ValueError(f"every dimension must be positive, got {shape}")
    if items_per_user % bm:
        raise ValueError(f"items per user ({items_per_user}) must be a multiple of BLOCK_M = {bm}")
    if item_dim % 8 or hidden % 8:
        raise ValueError(f"Di ({item_dim}) and H ({hidden}) must be multiples of 8 (16-byte TMA row strides)")
    if item_dim > MAX_ITEM_DIM:
        raise ValueError(f"Di ({item_dim}) must be at most {MAX_ITEM_DIM}: the W_i slice stays in shared memory")


def estimate(shape, num_sms=132):
    """CPU-side flop accounting for (B, n, Du, Di, H): (chunks, materialized flops, in-kernel flops, ratio).

    In-kernel: the tensor-core item part plus one user projection per (user, N-slice, chunk)."""
    b, n, du, di, h = shape
    _, chunks = _plan(b, n, du, di, h, num_sms)
    materialized = 2 * b * n * (du + di) * h
    in_kernel = 2 * b * n * di * h + 2 * b * chunks * du * triton.cdiv(h, CONFIG["BLOCK_N"]) * CONFIG["BLOCK_N"]
    return chunks, materialized, in_kernel, materialized / in_kernel


def _num_sms(device) -> int:
    import torch

    return torch.cuda.get_device_properties(device).multi_processor_count


def _plan(num_users, items_per_user, user_dim, item_dim, hidden, num_sms):
    """Items per program: split each user's item tiles into chunks so that the grid fills the SMs.

    One program per SM (its shared memory: resident W_i, X ring, output tile). Cost model in units of
    one item tile: waves * (tiles per program + user projection). The projection reads Du x BLOCK_N
    weights from L2, a tile BLOCK_M x Di items from HBM; with BLOCK_M = BLOCK_N and L2 about twice as
    fast, the projection costs about Du / (2 Di) tiles. Returns (tiles per program, programs per
    user and N-slice), every program with at least one tile.
    """
    bm, bn = CONFIG["BLOCK_M"], CONFIG["BLOCK_N"]
    tiles = items_per_user // bm
    slices = num_users * triton.cdiv(hidden, bn)
    user_cost = user_dim / (2 * item_dim)
    best = None
    for wanted in range(1, tiles + 1):
        per_chunk = triton.cdiv(tiles, wanted)
        chunks = triton.cdiv(tiles, per_chunk)  # no empty chunk
        cost = triton.cdiv(slices * chunks, num_sms) * (per_chunk + user_cost)
        if best is None or cost < best[0]:
            best = (cost, per_chunk, chunks)
    return best[1], best[2]


def run(user, items, weight):
    """Y = concat(repeat_interleave(U, n), X) @ W with the broadcast done in the kernel."""
    import torch
    from triton.tools.tensor_descriptor import TensorDescriptor

    num_users, n, du, di, h = _shape(user, items, weight)
    check_shape(num_users, n, du, di, h)
    if user.dtype not in (torch.float16, torch.bfloat16) or not user.dtype == items.dtype == weight.dtype:
        raise ValueError(f"U, X, W must share one dtype, fp16 or bf16; got {user.dtype}, {items.dtype}, {weight.dtype}")
    if not (user.is_contiguous() and items.is_contiguous() and weight.is_contiguous()):
        raise ValueError("U, X, W must be contiguous (row-major)")
    cfg = {**CONFIG, "ITEM_DIM": di}
    bm, bn, bk = cfg["BLOCK_M"], cfg["BLOCK_N"], cfg["BLOCK_K"]

    y = torch.full((num_users * n, h), float("nan"), device=items.device, dtype=items.dtype)
    x_desc = TensorDescriptor.from_tensor(items, [bm, bk])
    w_desc = TensorDescriptor.from_tensor(weight, [bk, bn])
    y_desc = TensorDescriptor.from_tensor(y, [bm, bn])
    per_chunk, chunks = _plan(num_users, n, du, di, h, _num_sms(items.device))
    grid = (num_users * chunks * triton.cdiv(h, bn),)
    broadcast_scoring_kernel[grid](
        user, weight, x_desc, w_desc, y_desc, n, du, h, per_chunk, chunks, num_warps=NUM_WARPS, **cfg
    )
    return y


def materialized_torch(user, items, weight):
    """The textbook layer: build the concat in memory, one cuBLAS matmul."""
    import torch

    _, n, _, _, _ = _shape(user, items, weight)
    return torch.cat([user.repeat_interleave(n, 0), items], 1) @ weight


def materialized_triton(user, items, weight):
    """The same in stock Triton: one kernel writes the concat, one tl.dot matmul reads it."""
    import torch
    from triton.tools.tensor_descriptor import TensorDescriptor

    num_users, n, du, di, h = _shape(user, items, weight)
    rows, width = num_users * n, du + di
    cat = torch.empty((rows, width), device=items.device, dtype=items.dtype)
    ccfg = CONCAT_CONFIG
    concat_kernel[(triton.cdiv(rows, ccfg["BR"]), triton.cdiv(width, ccfg["BC"]))](
        user, items, cat, rows, n, du, di, num_warps=CONCAT_NUM_WARPS, **ccfg
    )
    y = torch.full((rows, h), float("nan"), device=items.device, dtype=items.dtype)
    mcfg = MATMUL_CONFIG
    a_desc = TensorDescriptor.from_tensor(cat, [mcfg["BM"], mcfg["BK"]])
    b_desc = TensorDescriptor.from_tensor(weight, [mcfg["BK"], mcfg["BN"]])
    c_desc = TensorDescriptor.from_tensor(y, [mcfg["BM"], mcfg["BN"]])
    grid = (triton.cdiv(rows, mcfg["BM"]) * triton.cdiv(h, mcfg["BN"]),)
    matmul_kernel[grid](
        a_desc, b_desc, c_desc, rows, h, width, num_warps=MATMUL_NUM_WARPS, num_stages=MATMUL_NUM_STAGES, **mcfg
    )
    return y
