"""Grouped GEMM for mixture-of-experts on Hopper: one persistent warp-specialized kernel for all experts.

An MoE layer multiplies each expert's tokens by that expert's weights. The router's result arrives as
tokens sorted by expert plus ``offs``, the cumulative row counts (``offs[g]`` is where group ``g`` ends,
the convention of ``torch._grouped_mm``). Two products are needed in training:

* **forward** (and the input gradient): ``out[offs[g-1]:offs[g]] = A[offs[g-1]:offs[g]] @ W[g]``, with
  A (T x K) the sorted tokens and W (G x K x N) one weight matrix per expert;
* **weight gradient**: ``dW[g] = A[offs[g-1]:offs[g]]^T @ dY[offs[g-1]:offs[g]]`` (G x K x N), a
  reduction over each group's tokens.

Both kernels are cooperative GEMMs in ``ws_gemm``'s warp layout (a one-warp TMA producer, two wgmma
consumer warp groups each on half of a ``BLOCK_M x BLOCK_N`` tile, the first on the kernel's own warps, a
ring of ``NUM_STAGES`` shared-memory stages with ``full``/``empty`` mbarriers) with a tile scheduler that
walks every group's tiles:

* The CTAs are persistent and take the tiles of all groups round-robin: tile ``t`` (counted over the
  groups in order) belongs to CTA ``t % NUM_SMS``, so the CTAs work on one group at a time and share
  its operands in L2 (a schedule giving each CTA a contiguous range of equal work changed group less
  often but measured 20-25% slower on the weight gradient: the CTAs' groups no longer fit in L2
  together). Every role of a CTA walks the groups in the same order, reading ``offs`` on the device,
  so no row count ever goes back to the host and the producer and the consumers agree on the sequence
  of stages without talking.
* Group boundaries are where TMA's bounds checks help. A tile's rows start inside its group but may
  run past its end. The forward's loads read the next group's tokens there (harmless: those output
  rows are never written); the tiles that hold a group's last rows are stored through a descriptor
  made on the device (``tlx.make_tensor_descriptor``) whose rows end with the group, so TMA drops the
  rest; all other tiles go through the host's descriptor of ``out``. The weight gradient loads dY
  through such a per-group descriptor: its rows past the group read as zeros, so the next group's
  tokens, which the A tile does read, add nothing to the sum. (A non-finite value there would: 0 x inf
  is NaN.) An empty group gets no forward tile; its weight gradient is zeros.
* A descriptor made on the device lives in the kernel's global scratch and is rewritten in place, so
  the TMA copies that read the old contents must be done first: a consumer waits for its store; the
  weight gradient's producer alternates between two descriptors and waits only for the loads issued
  through the one it rewrites (in practice, already landed).

Empty groups, groups of a few rows and groups that are not multiples of the tile are all correct; the
tiles of small groups are partly idle (as cuBLAS's are).
"""

import itertools

import triton
import triton.language as tl

import tlx
from tlx.tutorials.tiles import grouped_tile


@triton.jit
def _first_tile(tile_base, pid, NUM_SMS: tl.constexpr):
    """The first tile at or after ``tile_base`` that CTA ``pid`` takes (tiles go round-robin over CTAs)."""
    return tile_base + (pid - tile_base % NUM_SMS + NUM_SMS) % NUM_SMS


@triton.jit
def _group_end(offs_ptr, g, start, total_rows):
    """Where group ``g`` (starting at row ``start``) ends: ``offs[g]``, kept within [start, total_rows]."""
    return tl.minimum(tl.maximum(tl.load(offs_ptr + g), start), total_rows)


@triton.jit
def _mma_tile(a_tiles, b_tiles, full, empty, step, k_steps, consumer, A_PART_MAJOR_K: tl.constexpr,
              PART_M: tl.constexpr, BLOCK_N: tl.constexpr, NUM_STAGES: tl.constexpr):  # fmt: skip
    """One consumer's ``PART_M x BLOCK_N`` accumulator over ``k_steps`` stages starting at ``step``.

    Keeps one wgmma in flight and gives each stage back (``empty``) once the wgmma after it is issued and
    the one reading it has finished. ``A_PART_MAJOR_K``: the A tiles are (PART_M x BLOCK_K), else they are
    token-major (BLOCK_K x PART_M) and wgmma reads them transposed. Returns (accumulator, next step)."""
    acc = tl.zeros((PART_M, BLOCK_N), tl.float32)
    for kk in range(k_steps):
        s = step % NUM_STAGES
        tlx.barrier_wait(full[s], (step // NUM_STAGES) & 1)
        a = a_tiles[s * 2 + consumer]
        if not A_PART_MAJOR_K:
            a = tlx.local_trans(a)
        acc = tlx.async_dot(a, b_tiles[s], acc)
        acc = tlx.async_dot_wait(1, acc)
        if kk > 0:
            tlx.barrier_arrive(empty[(step - 1) % NUM_STAGES])
        step += 1
    acc = tlx.async_dot_wait(0, acc)
    if k_steps > 0:
        tlx.barrier_arrive(empty[(step - 1) % NUM_STAGES])
    return acc, step


@triton.jit
def _store_tile(out_desc, c_tiles, acc, consumer, row, col):
    """Registers -> this consumer's shared-memory tile -> TMA store (after its previous store has read it)."""
    c_tile = c_tiles[consumer]
    tlx.async_descriptor_store_wait(0)
    tlx.local_store(c_tile, acc.to(tlx.dtype_of(out_desc)))
    tlx.fence_async_shared()
    tlx.async_descriptor_store(out_desc, c_tile, [row, col])


@triton.jit
def _forward_consumer(consumer: tl.constexpr, a_tiles, w_tiles, c_tiles, full, empty, c_desc, out_ptr, offs_ptr, G,
                      T, N, k_steps, num_n, pid, NUM_SMS: tl.constexpr, BLOCK_M: tl.constexpr,
                      BLOCK_N: tl.constexpr, NUM_STAGES: tl.constexpr, GROUP_M: tl.constexpr):  # fmt: skip
    """Forward consumer ``consumer`` (0 or 1): the half of each of the CTA's tiles from row
    ``consumer * BLOCK_M // 2``."""
    PART_M: tl.constexpr = BLOCK_M // 2
    step = 0
    tile_base = 0
    start = 0
    for g in range(G):
        end = _group_end(offs_ptr, g, start, T)
        num_m = tl.cdiv(end - start, BLOCK_M)
        count = num_m * num_n
        for tile in range(_first_tile(tile_base, pid, NUM_SMS), tile_base + count, NUM_SMS):
            pid_m, pid_n = grouped_tile(tile - tile_base, num_m, num_n, GROUP_M)
            acc, step = _mma_tile(a_tiles, w_tiles, full, empty, step, k_steps, consumer, True,
                                  PART_M, BLOCK_N, NUM_STAGES)  # fmt: skip
            row = start + pid_m * BLOCK_M + consumer * PART_M
            if row + PART_M <= end:
                _store_tile(c_desc, c_tiles, acc, consumer, row, pid_n * BLOCK_N)
            elif row < end:
                # The group's last rows: through a descriptor that ends with the group, TMA drops
                # the rows past it. It is rewritten in place: the store through it must be done.
                tlx.async_descriptor_store_wait(0)
                tail = tlx.make_tensor_descriptor(None, out_ptr, [end, N], [N, 1], [PART_M, BLOCK_N])
                _store_tile(tail, c_tiles, acc, consumer, row, pid_n * BLOCK_N)
        tile_base += count
        start = end
    tlx.async_descriptor_store_wait(0)


@triton.jit
def grouped_gemm_kernel(
    a_desc,
    w_desc,
    c_desc,
    out_ptr,
    offs_ptr,
    G,
    T,
    N,
    K,
    NUM_SMS: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    NUM_STAGES: tl.constexpr,
    GROUP_M: tl.constexpr,
):
    """Forward: ``out[rows of g] = A[rows of g] @ W[g]``; ``w_desc`` views W as (G * K) x N, ``c_desc`` is
    ``out`` (the stores of tiles inside a group)."""
    dtype = tlx.dtype_of(a_desc)
    PART_M: tl.constexpr = BLOCK_M // 2
    STAGE_BYTES: tl.constexpr = (BLOCK_M * BLOCK_K + BLOCK_K * BLOCK_N) * 2
    a_tiles = tlx.local_alloc((PART_M, BLOCK_K), dtype, NUM_STAGES * 2)
    w_tiles = tlx.local_alloc((BLOCK_K, BLOCK_N), dtype, NUM_STAGES)
    c_tiles = tlx.local_alloc((PART_M, BLOCK_N), dtype, 2)
    full = tlx.alloc_barriers(NUM_STAGES)
    empty = tlx.alloc_barriers(NUM_STAGES, arrive_count=2)

    pid = tl.program_id(0)
    num_n = tl.cdiv(N, BLOCK_N)
    k_steps = tl.cdiv(K, BLOCK_K)

    with tlx.async_tasks():
        # ws_gemm's warp layout: consumer 0 on the kernel's own warps, consumer 1 a task of four, the producer
        # one warp.
        with tlx.async_task("default", registers=232):
            _forward_consumer(0, a_tiles, w_tiles, c_tiles, full, empty, c_desc, out_ptr, offs_ptr, G, T, N, k_steps,
                              num_n, pid, NUM_SMS, BLOCK_M, BLOCK_N, NUM_STAGES, GROUP_M)  # fmt: skip
        with tlx.async_task(num_warps=4, registers=232):
            _forward_consumer(1, a_tiles, w_tiles, c_tiles, full, empty, c_desc, out_ptr, offs_ptr, G, T, N, k_steps,
                              num_n, pid, NUM_SMS, BLOCK_M, BLOCK_N, NUM_STAGES, GROUP_M)  # fmt: skip
        with tlx.async_task(num_warps=1, registers=24):
            step = 0
            tile_base = 0
            start = 0
            for g in range(G):
                end = _group_end(offs_ptr, g, start, T)
                num_m = tl.cdiv(end - start, BLOCK_M)
                count = num_m * num_n
                for tile in range(_first_tile(tile_base, pid, NUM_SMS), tile_base + count, NUM_SMS):
                    pid_m, pid_n = grouped_tile(tile - tile_base, num_m, num_n, GROUP_M)
                    off_m = start + pid_m * BLOCK_M
                    for k in range(k_steps):
                        s = step % NUM_STAGES
                        tlx.barrier_wait(empty[s], ((step // NUM_STAGES) & 1) ^ 1)
                        tlx.barrier_expect_bytes(full[s], STAGE_BYTES)
                        for part in tl.static_range(2):
                            tlx.async_descriptor_load(
                                a_desc, a_tiles[s * 2 + part], [off_m + part * PART_M, k * BLOCK_K], full[s]
                            )
                        tlx.async_descriptor_load(w_desc, w_tiles[s], [g * K + k * BLOCK_K, pid_n * BLOCK_N], full[s])
                        step += 1
                tile_base += count
                start = end


@triton.jit
def _load_wgrad_group(a_desc, dy_desc, a_tiles, dy_tiles, full, empty, step, g, start, k_steps, per_group, num_m,
                      num_n, pid, NUM_SMS: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                      BLOCK_K: tl.constexpr, NUM_STAGES: tl.constexpr, GROUP_M: tl.constexpr):  # fmt: skip
    """The weight gradient's producer on group g: this CTA's tiles, each a pass over the group's rows."""
    PART_M: tl.constexpr = BLOCK_M // 2
    STAGE_BYTES: tl.constexpr = (BLOCK_M * BLOCK_K + BLOCK_K * BLOCK_N) * 2
    for tile in range(_first_tile(g * per_group, pid, NUM_SMS), (g + 1) * per_group, NUM_SMS):
        pid_m, pid_n = grouped_tile(tile - g * per_group, num_m, num_n, GROUP_M)
        for k in range(k_steps):
            s = step % NUM_STAGES
            tlx.barrier_wait(empty[s], ((step // NUM_STAGES) & 1) ^ 1)
            tlx.barrier_expect_bytes(full[s], STAGE_BYTES)
            for part in tl.static_range(2):
                tlx.async_descriptor_load(
                    a_desc, a_tiles[s * 2 + part], [start + k * BLOCK_K, pid_m * BLOCK_M + part * PART_M], full[s]
                )
            tlx.async_descriptor_load(dy_desc, dy_tiles[s], [start + k * BLOCK_K, pid_n * BLOCK_N], full[s])
            step += 1
    return step


@triton.jit
def _wgrad_consumer(consumer: tl.constexpr, a_tiles, dy_tiles, c_tiles, full, empty, dw_desc, dw_ptr, offs_ptr, G, T,
                    K, N, per_group, num_m, num_n, pid, NUM_SMS: tl.constexpr, BLOCK_M: tl.constexpr,
                    BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, NUM_STAGES: tl.constexpr, GROUP_M: tl.constexpr,
                    DW_PER_GROUP: tl.constexpr):  # fmt: skip
    """Weight-gradient consumer ``consumer`` (0 or 1): the half of each of the CTA's dW tiles from row
    ``consumer * BLOCK_M // 2``."""
    PART_M: tl.constexpr = BLOCK_M // 2
    step = 0
    start = 0
    for g in range(G):
        end = _group_end(offs_ptr, g, start, T)
        k_steps = tl.cdiv(end - start, BLOCK_K)
        first = _first_tile(g * per_group, pid, NUM_SMS)
        if first < (g + 1) * per_group:
            out_desc = dw_desc
            out_row = g * K
            if DW_PER_GROUP:
                tlx.async_descriptor_store_wait(0)  # the store through the old one
                out_desc = tlx.make_tensor_descriptor(
                    None, dw_ptr + g.to(tl.int64) * K * N, [K, N], [N, 1], [PART_M, BLOCK_N]
                )
                out_row = 0
            for tile in range(first, (g + 1) * per_group, NUM_SMS):
                pid_m, pid_n = grouped_tile(tile - g * per_group, num_m, num_n, GROUP_M)
                # An empty group runs no k-step: its gradient is the zero accumulator.
                acc, step = _mma_tile(a_tiles, dy_tiles, full, empty, step, k_steps, consumer, False,
                                      PART_M, BLOCK_N, NUM_STAGES)  # fmt: skip
                _store_tile(out_desc, c_tiles, acc, consumer, out_row + pid_m * BLOCK_M + consumer * PART_M,
                            pid_n * BLOCK_N)  # fmt: skip
        start = end
    tlx.async_descriptor_store_wait(0)


@triton.jit
def grouped_gemm_wgrad_kernel(
    a_desc,
    dy_ptr,
    dw_desc,
    dw_ptr,
    offs_ptr,
    G,
    T,
    K,
    N,
    NUM_SMS: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    NUM_STAGES: tl.constexpr,
    GROUP_M: tl.constexpr,
    DW_PER_GROUP: tl.constexpr,
):
    """Weight gradient: ``dW[g] = A[rows of g]^T @ dY[rows of g]``; every group has the same (K x N) tiles.

    ``a_desc`` is A (T x K) in token-major (BLOCK_K x BLOCK_M // 2) boxes. ``dw_desc`` views dW as
    (G * K) x N; with ``DW_PER_GROUP`` (K not a multiple of BLOCK_M: a tile would cross into the next
    group's rows) each group's tiles are stored through a descriptor of its own K x N matrix instead."""
    dtype = tlx.dtype_of(a_desc)
    PART_M: tl.constexpr = BLOCK_M // 2
    # Token-major tiles of A: wgmma reads them transposed (K-dimension of the product = tokens).
    a_tiles = tlx.local_alloc((BLOCK_K, PART_M), dtype, NUM_STAGES * 2)
    dy_tiles = tlx.local_alloc((BLOCK_K, BLOCK_N), dtype, NUM_STAGES)
    c_tiles = tlx.local_alloc((PART_M, BLOCK_N), dtype, 2)
    full = tlx.alloc_barriers(NUM_STAGES)
    empty = tlx.alloc_barriers(NUM_STAGES, arrive_count=2)

    pid = tl.program_id(0)
    num_m = tl.cdiv(K, BLOCK_M)
    num_n = tl.cdiv(N, BLOCK_N)
    per_group = num_m * num_n

    with tlx.async_tasks():
        with tlx.async_task("default", registers=232):
            _wgrad_consumer(0, a_tiles, dy_tiles, c_tiles, full, empty, dw_desc, dw_ptr, offs_ptr, G, T, K, N,
                            per_group, num_m, num_n, pid, NUM_SMS, BLOCK_M, BLOCK_N, BLOCK_K, NUM_STAGES, GROUP_M,
                            DW_PER_GROUP)  # fmt: skip
        with tlx.async_task(num_warps=4, registers=232):
            _wgrad_consumer(1, a_tiles, dy_tiles, c_tiles, full, empty, dw_desc, dw_ptr, offs_ptr, G, T, K, N,
                            per_group, num_m, num_n, pid, NUM_SMS, BLOCK_M, BLOCK_N, BLOCK_K, NUM_STAGES, GROUP_M,
                            DW_PER_GROUP)  # fmt: skip
        with tlx.async_task(num_warps=1, registers=24):
            step = 0
            start = 0
            # dY's rows past a group's end must read as zeros: a descriptor per group, rows [0, end). Two
            # of them take turns, so that writing one waits only for loads issued before the previous
            # switch (they have landed unless that group was shorter than the ring).
            parity = 0
            previous_switch = 0
            for g in range(G):
                end = _group_end(offs_ptr, g, start, T)
                k_steps = tl.cdiv(end - start, BLOCK_K)
                if (_first_tile(g * per_group, pid, NUM_SMS) < (g + 1) * per_group) & (k_steps > 0):
                    for landed in range(tl.maximum(step - NUM_STAGES, 0), previous_switch):
                        tlx.barrier_wait(full[landed % NUM_STAGES], (landed // NUM_STAGES) & 1)
                    previous_switch = step
                    if parity == 0:
                        dy_desc = tlx.make_tensor_descriptor(None, dy_ptr, [end, N], [N, 1], [BLOCK_K, BLOCK_N])
                        step = _load_wgrad_group(a_desc, dy_desc, a_tiles, dy_tiles, full, empty, step, g, start,
                                                 k_steps, per_group, num_m, num_n, pid, NUM_SMS, BLOCK_M, BLOCK_N,
                                                 BLOCK_K, NUM_STAGES, GROUP_M)  # fmt: skip
                    else:
                        dy_desc = tlx.make_tensor_descriptor(None, dy_ptr, [end, N], [N, 1], [BLOCK_K, BLOCK_N])
                        step = _load_wgrad_group(a_desc, dy_desc, a_tiles, dy_tiles, full, empty, step, g, start,
                                                 k_steps, per_group, num_m, num_n, pid, NUM_SMS, BLOCK_M, BLOCK_N,
                                                 BLOCK_K, NUM_STAGES, GROUP_M)  # fmt: skip
                    parity ^= 1
                start = end


#: Tile shapes, tuned on the H200 (see docs/results). BLOCK_K is the largest of 64, 32, 16 dividing K
#: (forward: a k-step must not run into the next expert's weights). Where N is not a multiple of 256
#: and 128-column tiles waste less of it (N = 1408: 11 tiles of 128, not 5.5 of 256), NARROW applies.
CONFIG = {"BLOCK_M": 128, "BLOCK_N": 256, "NUM_STAGES": 3, "GROUP_M": 8}
WGRAD_CONFIG = {**CONFIG, "BLOCK_K": 64}
NARROW = {"BLOCK_N": 128, "NUM_STAGES": 4}
NUM_WARPS = 4  # consumer 0; consumer 1 and the producer come from their async_tasks


def _signature(kernel_args: dict, *more_constexprs: str) -> dict:
    constexprs = ("NUM_SMS", "BLOCK_M", "BLOCK_N", "BLOCK_K", "NUM_STAGES", "GROUP_M") + more_constexprs
    return {**kernel_args, **dict.fromkeys(constexprs, "constexpr")}


_PTX = (
    "cp.async.bulk.tensor.2d.shared::cluster.global",
    "mbarrier.try_wait",
    "wgmma.mma_async",
    "wgmma.wait_group.sync.aligned 1",
    "setmaxnreg.inc.sync.aligned.u32",
    "setmaxnreg.dec.sync.aligned.u32",
    "tensormap.replace",
    "cp.async.bulk.tensor.2d.global.shared",
)

SPEC = {
    "kernel": grouped_gemm_kernel,
    "signature": _signature(
        {
            "a_desc": "tensordesc<bf16[64, 64]>",
            "w_desc": "tensordesc<bf16[64, 256]>",
            "c_desc": "tensordesc<bf16[64, 256]>",
            "out_ptr": "*bf16",
            "offs_ptr": "*i32",
            "G": "i32",
            "T": "i32",
            "N": "i32",
            "K": "i32",
        }
    ),
    "constexprs": {**CONFIG, "BLOCK_K": 64, "NUM_SMS": 132},
    "divisible_by_16": ("out_ptr", "offs_ptr", "N", "K"),
    "num_warps": NUM_WARPS,
    "ptx": _PTX,
    "registers": {"producer": 24, "consumer": 232},
}

SPEC_WGRAD = {
    "kernel": grouped_gemm_wgrad_kernel,
    "signature": _signature(
        {
            "a_desc": "tensordesc<bf16[64, 64]>",
            "dy_ptr": "*bf16",
            "dw_desc": "tensordesc<bf16[64, 256]>",
            "dw_ptr": "*bf16",
            "offs_ptr": "*i32",
            "G": "i32",
            "T": "i32",
            "K": "i32",
            "N": "i32",
        },
        "DW_PER_GROUP",
    ),
    "constexprs": {**WGRAD_CONFIG, "NUM_SMS": 132, "DW_PER_GROUP": False},
    "divisible_by_16": ("dy_ptr", "dw_ptr", "offs_ptr", "K", "N"),
    "num_warps": NUM_WARPS,
    "ptx": _PTX,
    "registers": {"producer": 24, "consumer": 232},
}


def _torch_allocator(size: int, alignment: int, stream):
    import torch

    return torch.empty(size, dtype=torch.int8, device="cuda")


def _ensure_allocator() -> None:
    """Descriptors made on the device need Triton's global scratch: give it PyTorch's allocator unless the
    caller has set one."""
    from triton.runtime import _allocation

    if _allocation._allocator.get() is _allocation._NULL_ALLOCATOR:
        triton.set_allocator(_torch_allocator)


def _check_inputs(what: str, a, b, offs, b_rank: int) -> None:
    """The host-side checks of both layouts (shapes, dtypes and placement only: ``offs`` stays on the device)."""
    if str(a.dtype) != str(b.dtype) or str(a.dtype) not in ("torch.float16", "torch.bfloat16"):
        raise ValueError(f"{what}: the inputs must both be float16 or bfloat16, got {a.dtype} and {b.dtype}")
    if a.dim() != 2 or b.dim() != b_rank:
        raise ValueError(f"{what}: expected a 2-D A and a {b_rank}-D second operand, got {a.dim()}-D and {b.dim()}-D")
    if not (a.is_contiguous() and b.is_contiguous()):
        raise ValueError(f"{what}: the inputs must be contiguous (row-major)")
    if str(offs.dtype) != "torch.int32" or offs.dim() != 1 or offs.device != a.device:
        raise ValueError(
            f"{what}: offs must be a 1-D int32 tensor on {a.device} (cumulative group ends), "
            f"got {offs.dtype} {tuple(offs.shape)} on {offs.device}"
        )


def _block_k(k: int, what: str) -> int:
    for block_k in (64, 32, 16):
        if k % block_k == 0:
            return block_k
    raise ValueError(f"{what}: K = {k} must be a multiple of 16 (the wgmma K step of 16-bit inputs)")


def _tiles(n: int, config: dict) -> dict:
    """``config`` with NARROW applied where 128-column tiles cover N with less waste than 256-column ones."""
    if -n % 128 < -n % 256:
        return {**config, **NARROW}
    return config


def _num_sms(device, num_sms: int | None) -> int:
    import torch

    return num_sms or torch.cuda.get_device_properties(device).multi_processor_count


def grouped_mm(a, w, offs, out=None, config: dict | None = None, num_sms: int | None = None):
    """``out[offs[g-1]:offs[g]] = a[offs[g-1]:offs[g]] @ w[g]`` for every group g (offs[-1] = 0).

    ``a``: (T x K) tokens sorted by group; ``w``: (G x K x N); ``offs``: G cumulative group ends (int32,
    on the device: never read on the host). Rows past ``offs[G-1]`` are left as they are. The result
    goes to ``out`` when given (contiguous T x N of a's dtype), else to a new NaN-filled tensor.
    """
    _check_inputs("grouped_mm", a, w, offs, 3)
    t, k = a.shape
    g, wk, n = w.shape
    if wk != k:
        raise ValueError(f"grouped_mm: a is {t}x{k} but each w[g] is {wk}x{n}: the K dimensions differ")
    if offs.numel() != g:
        raise ValueError(f"grouped_mm: offs has {offs.numel()} group ends but w has {g} groups")
    if n % 8:
        raise ValueError(f"grouped_mm: N = {n} must be a multiple of 8 (TMA rows are 16-byte aligned)")
    cfg = {**_tiles(n, CONFIG), "BLOCK_K": _block_k(k, "grouped_mm"), **(config or {})}
    import torch
    from triton.tools.tensor_descriptor import TensorDescriptor

    c = torch.full((t, n), float("nan"), device=a.device, dtype=a.dtype) if out is None else out
    if c.shape != (t, n) or c.dtype != a.dtype or not c.is_contiguous():
        raise ValueError(f"grouped_mm: out must be a contiguous {t}x{n} tensor of {a.dtype}")
    if t == 0 or g == 0:
        return c
    part_m = cfg["BLOCK_M"] // 2
    a_desc = TensorDescriptor.from_tensor(a, [part_m, cfg["BLOCK_K"]])
    w_desc = TensorDescriptor.from_tensor(w.view(g * k, n), [cfg["BLOCK_K"], cfg["BLOCK_N"]])
    _ensure_allocator()
    grid = (_num_sms(a.device, num_sms),)
    c_desc = TensorDescriptor.from_tensor(c, [part_m, cfg["BLOCK_N"]])
    grouped_gemm_kernel[grid](a_desc, w_desc, c_desc, c, offs, g, t, n, k, NUM_SMS=grid[0], num_warps=NUM_WARPS, **cfg)
    return c


def grouped_mm_wgrad(a, dy, offs, out=None, config: dict | None = None, num_sms: int | None = None):
    """``dw[g] = a[offs[g-1]:offs[g]]^T @ dy[offs[g-1]:offs[g]]`` for every group g: (G x K x N).

    ``a``: (T x K) and ``dy``: (T x N), both sorted by group; ``offs``: G cumulative group ends (int32, on
    the device). An empty group's gradient is zeros. The result goes to ``out`` when given, else to a new
    NaN-filled tensor.
    """
    _check_inputs("grouped_mm_wgrad", a, dy, offs, 2)
    t, k = a.shape
    if dy.shape[0] != t:
        raise ValueError(f"grouped_mm_wgrad: a has {t} rows but dy has {dy.shape[0]}")
    n = dy.shape[1]
    g = offs.numel()
    if k % 8 or n % 8:
        raise ValueError(f"grouped_mm_wgrad: K = {k} and N = {n} must be multiples of 8 (16-byte TMA rows)")
    cfg = {**_tiles(n, WGRAD_CONFIG), **(config or {})}
    import torch
    from triton.tools.tensor_descriptor import TensorDescriptor

    c = torch.full((g, k, n), float("nan"), device=a.device, dtype=a.dtype) if out is None else out
    if c.shape != (g, k, n) or c.dtype != a.dtype or not c.is_contiguous():
        raise ValueError(f"grouped_mm_wgrad: out must be a contiguous {g}x{k}x{n} tensor of {a.dtype}")
    if g == 0:
        return c
    _ensure_allocator()
    grid = (_num_sms(a.device, num_sms),)
    part_m = cfg["BLOCK_M"] // 2
    a_desc = TensorDescriptor.from_tensor(a, [cfg["BLOCK_K"], part_m])
    dw_desc = TensorDescriptor.from_tensor(c.view(g * k, n), [part_m, cfg["BLOCK_N"]])
    per_group = k % cfg["BLOCK_M"] != 0
    grouped_gemm_wgrad_kernel[grid](
        a_desc, dy, dw_desc, c, offs, g, t, k, n, NUM_SMS=grid[0], DW_PER_GROUP=per_group, num_warps=NUM_WARPS, **cfg
    )
    return c


run = grouped_mm


def routed_group_sizes(tokens: int, groups: int, skew: float = 0.0, seed: int = 0) -> list[int]:
    """Rows per group of ``tokens`` routed to ``groups`` experts: each token picks an expert at random,
    with probabilities equal (``skew=0``) or log-normal with sigma ``skew`` (1.0: the busiest expert
    gets a few times the mean, some get almost nothing), as a router's top-k picks are in practice."""
    import torch

    generator = torch.Generator().manual_seed(seed)
    weights = torch.exp(skew * torch.randn(groups, generator=generator, dtype=torch.float64))
    picks = torch.multinomial(weights / weights.sum(), tokens, replacement=True, generator=generator)
    return torch.bincount(picks, minlength=groups).tolist()


def group_starts(sizes: list[int]) -> list[int]:
    """Where each group starts, and (last) where the last one ends: 0 and the cumulative sizes, on the host."""
    return list(itertools.accumulate(sizes, initial=0))


def group_ends(sizes: list[int], device) -> "torch.Tensor":  # noqa: F821 - torch is imported lazily
    """``offs`` for group sizes: their cumulative sums as an int32 tensor on ``device``."""
    import torch

    return torch.tensor(sizes, dtype=torch.int64).cumsum(0).to(torch.int32).to(device)


def reference(a, b, sizes: list[int], wgrad: bool = False):
    """The grouped product in float64, one group at a time, on the inputs' device: the forward
    (``b`` is G x K x N) or, with ``wgrad``, the weight gradient (``b`` is dY, T x N)."""
    import torch

    starts = group_starts(sizes)
    bounds = list(zip(starts, starts[1:], strict=False))
    if not wgrad:
        out = torch.zeros(a.shape[0], b.shape[-1], dtype=torch.float64, device=a.device)
        for g, (lo, hi) in enumerate(bounds):
            out[lo:hi] = a[lo:hi].double() @ b[g].double()
        return out
    return torch.stack([a[lo:hi].double().T @ b[lo:hi].double() for lo, hi in bounds])
