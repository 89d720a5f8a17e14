"""Misuse fails at the user's kernel line: what tracing needs while the kernel is traced, every other check in
the TLX compiler (op verifiers, tlx-check-static-bounds, tlx-check-async-hazards), once.

Triton 3.6 wraps an exception raised inside a builtin into a CompilationError whose text starts with
`at <line>:<col>:` - the line counted from the kernel's `def` - and a source excerpt ending at the call.
TLX's own message adds `<file>:<absolute line>: tlx.<op>:`.
"""

from pathlib import Path

import pytest
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler.errors import CompilationError

import tlx
from tlx.compiler import TLXCompilationError, TLXWarning, frontend_ir, pipeline

HERE = Path(__file__).resolve()
SOURCE = HERE.read_text().splitlines()


@triton.jit
def alloc_zero_buffers(n):
    tlx.local_alloc((64,), tl.float16, 0)  # misuse


@triton.jit
def alloc_over_shared_memory(n):
    a = tlx.local_alloc((128, 256), tl.float16, 3)
    b = tlx.local_alloc((64, 256), tl.float16, 2)  # misuse
    tlx.local_store(a[0], tl.zeros((128, 256), tl.float16))
    tlx.local_store(b[0], tl.zeros((64, 256), tl.float16))


@triton.jit
def alloc_2_to_the_24_buffers(n):
    tlx.local_alloc((128, 128), tl.float32, 2**24)  # misuse


@triton.jit
def thousands_of_barriers_fit(n):
    bars = tlx.alloc_barriers(16384)
    tlx.barrier_arrive(bars[n % 16384])


@triton.jit
def dot_k8(n):
    a = tlx.local_alloc((64, 8), tl.float16, 1)
    b = tlx.local_alloc((8, 64), tl.float16, 1)
    tlx.async_dot_wait(0, tlx.async_dot(a[0], b[0]))  # misuse


@triton.jit
def dot_k24(n):
    a = tlx.local_alloc((64, 24), tl.float16, 1)  # misuse
    b = tlx.local_alloc((24, 64), tl.float16, 1)
    tlx.async_dot_wait(0, tlx.async_dot(a[0], b[0]))


@triton.jit
def dot_int8_into_float32(n):
    a = tlx.local_alloc((64, 32), tl.int8, 1)
    b = tlx.local_alloc((32, 64), tl.int8, 1)
    tlx.async_dot_wait(0, tlx.async_dot(a[0], b[0]))  # misuse


@triton.jit
def dot_f64(n):
    a = tlx.local_alloc((64, 16), tl.float64, 1)
    b = tlx.local_alloc((16, 64), tl.float64, 1)
    tlx.async_dot_wait(0, tlx.async_dot(a[0], b[0]))  # misuse


@triton.jit
def dot_fp8_b_stored_k_by_n(n):
    a = tlx.local_alloc((64, 32), tl.float8e4nv, 1)
    b = tlx.local_alloc((32, 64), tl.float8e4nv, 1)
    tlx.async_dot_wait(0, tlx.async_dot(a[0], b[0]))  # misuse


@triton.jit
def dot_tf32_b_stored_k_by_n(n):
    a = tlx.local_alloc((64, 16), tl.float32, 1)
    b = tlx.local_alloc((16, 64), tl.float32, 1)
    tlx.async_dot_wait(0, tlx.async_dot(a[0], b[0]))  # misuse


@triton.jit
def bool_buffer(n):
    flags = tlx.local_alloc((64,), tl.int1, 1)  # misuse
    tlx.local_store(flags[0], tl.arange(0, 64) > n)


@triton.jit
def dot_in_a_two_warp_kernel(n):
    a = tlx.local_alloc((64, 16), tl.float16, 1)
    b = tlx.local_alloc((16, 64), tl.float16, 1)
    tlx.async_dot_wait(0, tlx.async_dot(a[0], b[0]))  # misuse


@triton.jit
def tlx_with_two_ctas(n):
    bufs = tlx.local_alloc((64,), tl.float32, 1)  # misuse
    tlx.local_store(bufs[0], tl.zeros((64,), tl.float32))


@triton.jit
def alloc_extra_positional(n):
    tlx.local_alloc((64,), tl.float16, 1, tlx.storage_kind.smem, None, None, 7)  # misuse


@triton.jit
def cluster_rank_on_ampere(n):
    tlx.cluster_cta_rank()  # misuse


@triton.jit
def cluster_barrier_on_ampere(n):
    tlx.cluster_barrier()  # misuse


@triton.jit
def mbarrier_init_fence_on_ampere(n):
    tlx.fence_mbarrier_init_cluster()  # misuse


@triton.jit
def replicate_zero(n):
    with tlx.async_tasks():
        with tlx.async_task("default"):
            pass
        with tlx.async_task(num_warps=4, replicate=0):  # misuse
            pass


@triton.jit
def replicate_sixty_four(n):
    with tlx.async_tasks():
        with tlx.async_task("default"):
            pass
        with tlx.async_task(num_warps=1, replicate=64):  # misuse
            pass


@triton.jit
def dot_into_float16(n):
    a = tlx.local_alloc((64, 16), tl.float16, 1)
    b = tlx.local_alloc((16, 64), tl.float16, 1)
    tlx.async_dot(a[0], b[0], out_dtype=tl.float16)  # misuse


@triton.jit
def dot_use_acc_tensor(n):
    a = tlx.local_alloc((64, 16), tl.float16, 1)
    b = tlx.local_alloc((16, 64), tl.float16, 1)
    tlx.async_dot(a[0], b[0], use_acc=tl.arange(0, 64) > 3)  # misuse


@triton.jit
def dot_use_acc_list(n):
    a = tlx.local_alloc((64, 16), tl.float16, 1)
    b = tlx.local_alloc((16, 64), tl.float16, 1)
    tlx.async_dot(a[0], b[0], use_acc=[])  # misuse


@triton.jit
def dot_scalar_a(n):
    b = tlx.local_alloc((16, 64), tl.float16, 1)
    tlx.async_dot(n, b[0])  # misuse


@triton.jit
def view_with_slices(n):
    bufs = tlx.local_alloc((64, 1), tl.float32, 2)
    tlx.local_store(bufs[0], bufs[:, None])  # misuse


@triton.jit
def descriptor_of_an_int(n):
    tlx.make_tensor_descriptor(None, n, [n, 64], [64, 1], [64, 64])  # misuse


@triton.jit
def stock_descriptor_of_a_pointer_shape(X, n):
    tlx.make_tensor_descriptor(None, X, [n, X], [64, 1], [64, 64])  # misuse


@triton.jit
def store_wait_beyond_i32(n):
    tlx.async_descriptor_store_wait(2**31)  # misuse


@triton.jit
def dot_int_accumulator(n):
    a = tlx.local_alloc((64, 16), tl.float16, 1)
    b = tlx.local_alloc((16, 64), tl.float16, 1)
    tlx.async_dot(a[0], b[0], tl.zeros((64, 64), tl.int32))  # misuse


@triton.jit
def dot_unknown_precision(n):
    a = tlx.local_alloc((64, 16), tl.float16, 1)
    b = tlx.local_alloc((16, 64), tl.float16, 1)
    tlx.async_dot(a[0], b[0], input_precision="fp64")  # misuse


@triton.jit
def dot_with_mbarriers_on_hopper(n):
    a = tlx.local_alloc((64, 16), tl.float16, 1)
    b = tlx.local_alloc((16, 64), tl.float16, 1)
    bars = tlx.alloc_barriers(1)
    tlx.async_dot(a[0], b[0], mBarriers=[bars[0]])  # misuse


@triton.jit
def dot_two_ctas_on_hopper(n):
    a = tlx.local_alloc((64, 16), tl.float16, 1)
    b = tlx.local_alloc((16, 64), tl.float16, 1)
    tlx.async_dot(a[0], b[0], two_ctas=True)  # misuse


@triton.jit
def tma_store_eviction(desc, n):
    bufs = tlx.local_alloc((64, 64), tl.float16, 1)
    tlx.async_descriptor_store(desc, bufs[0], [0, 0], eviction_policy="evict_sometimes")  # misuse


@triton.jit
def tma_store_reduce(desc, n):
    bufs = tlx.local_alloc((64, 64), tl.float16, 1)
    tlx.async_descriptor_store(desc, bufs[0], [0, 0], store_reduce="mul")  # misuse


@triton.jit
def tma_store_reduce_xor_of_halves(desc, n):
    bufs = tlx.local_alloc((64, 64), tl.float16, 1)
    tlx.async_descriptor_store(desc, bufs[0], [0, 0], store_reduce="xor")  # misuse


@triton.jit
def tma_two_ctas_on_hopper(desc, n):
    bufs = tlx.local_alloc((64, 64), tl.float16, 1)
    bars = tlx.alloc_barriers(1)
    tlx.async_descriptor_load(desc, bufs[0], [0, 0], bars[0], two_ctas=True)  # misuse


@triton.jit
def bulk_load_without_barrier(X, n):
    bufs = tlx.local_alloc((256,), tl.float32, 1)
    tlx.async_load(X, bufs[0], bulk=True)  # misuse


@triton.jit
def bulk_load_with_mask(X, n):
    bufs = tlx.local_alloc((256,), tl.float32, 1)
    bars = tlx.alloc_barriers(1)
    tlx.async_load(X, bufs[0], mask=n > 0, bulk=True, barrier=bars[0])  # misuse


@triton.jit
def bulk_load_from_pointers(X, n):
    bufs = tlx.local_alloc((256,), tl.float32, 1)
    bars = tlx.alloc_barriers(1)
    tlx.async_load(X + tl.arange(0, 256), bufs[0], bulk=True, barrier=bars[0])  # misuse


@triton.jit
def bulk_size_without_bulk(X, n):
    bufs = tlx.local_alloc((256,), tl.float32, 1)
    tlx.async_load(X + tl.arange(0, 256), bufs[0], bulk_size=1024)  # misuse


@triton.jit
def bulk_load_past_the_buffer(X, n):
    bufs = tlx.local_alloc((256,), tl.float32, 1)
    bars = tlx.alloc_barriers(1)
    tlx.barrier_expect_bytes(bars[0], 2048)
    tlx.async_load(X, bufs[0], bulk=True, bulk_size=2048, barrier=bars[0])  # misuse
    tlx.barrier_wait(bars[0], 0)


@triton.jit
def bulk_load_on_ampere(X, n):
    bufs = tlx.local_alloc((256,), tl.float32, 1)
    bars = tlx.alloc_barriers(1)
    tlx.async_load(X, bufs[0], bulk=True, barrier=bars[0])  # misuse


@triton.jit
def dot_pred_on_hopper(n):
    a = tlx.local_alloc((64, 16), tl.float16, 1)
    b = tlx.local_alloc((16, 64), tl.float16, 1)
    tlx.async_dot(a[0], b[0], pred=n > 0)  # misuse


@triton.jit
def suspend_hint_negative(n):
    with tlx.async_tasks(mbarrier_try_wait_suspend_ns=-5):  # misuse
        tlx.thread_id(0)


@triton.jit
def exclusive_tasks_twice(n):
    with tlx.async_tasks(exclusive=True):  # misuse
        with tlx.async_task("default"):
            tlx.thread_id(0)
        with tlx.async_task(num_warps=4):
            tlx.thread_id(0)
    with tlx.async_tasks():
        with tlx.async_task("default"):
            tlx.thread_id(0)
        with tlx.async_task(num_warps=4):
            tlx.thread_id(0)


@triton.jit
def local_load_with_layout(n):
    bufs = tlx.local_alloc((64,), tl.float16, 1)
    tlx.local_load(bufs[0], layout=5)  # misuse


UNSWIZZLED = tl.constexpr(tlx.swizzled_shared_layout_encoding.make_default(2))
UNSWIZZLED_1D = tl.constexpr(tlx.swizzled_shared_layout_encoding.make_default(1))


@triton.jit
def slot_past_the_allocation(X, n):
    slots = tlx.allocate_tensor_descriptor(num=2)
    tlx.reinterpret_tensor_descriptor(slots[1][1], [64, 64], tl.float16)  # misuse


@triton.jit
def allocate_runtime_num(X, n):
    tlx.allocate_tensor_descriptor(n)  # misuse


@triton.jit
def reinterpret_a_pointer(X, n):
    tlx.reinterpret_tensor_descriptor(X, [64, 64], tl.float32)  # misuse


@triton.jit
def slot_rows_not_contiguous(X, n):
    slots = tlx.allocate_tensor_descriptor(num=1)
    tlx.make_tensor_descriptor(slots[0], X, [n, n], [n, n], [64, 64])  # misuse


@triton.jit
def slot_of_two_ranks(X, n):
    slots = tlx.allocate_tensor_descriptor(num=1)
    tlx.make_tensor_descriptor(slots[0], X, [n, n], [n, 1], [64])  # misuse


@triton.jit
def slot_block_too_narrow(X, n):
    slots = tlx.allocate_tensor_descriptor(num=1)
    tlx.make_tensor_descriptor(slots[0], X, [n, n], [n, 1], [64, 2])  # misuse


@triton.jit
def slot_reads_of_two_layouts(X, n):
    slots = tlx.allocate_tensor_descriptor(num=2)
    a = tlx.reinterpret_tensor_descriptor(slots[0], [64, 64], tl.float16)
    b = tlx.reinterpret_tensor_descriptor(slots[1], [64, 64], tl.float16)  # misuse
    bufs = tlx.local_alloc((64, 64), tl.float16, 1)
    swizzled = tlx.local_alloc((64, 64), tl.float16, 1, layout=UNSWIZZLED)
    tlx.async_descriptor_store(a, bufs[0], [0, 0])
    tlx.async_descriptor_store(b, swizzled[0], [0, 0])


@triton.jit
def require_layout_of_a_scalar(X, n):
    tlx.require_layout(n, "#ttg.blocked<{}>")  # misuse


@triton.jit
def require_layout_of_a_number(X, n):
    tlx.require_layout(tl.zeros([64], tl.float32), 3)  # misuse


@triton.jit
def require_layout_runtime_pin(X, n):
    tlx.require_layout(tl.zeros([64], tl.float32), "#ttg.blocked<{}>", pin=n > 0)  # misuse


@triton.jit
def require_layout_on_8_warps(X, n):
    x = tl.load(X + tl.arange(0, 128))
    L: tl.constexpr = "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>"
    tl.store(X + tl.arange(0, 128), tlx.require_layout(x, L))  # misuse


@triton.jit
def require_a_shared_layout(X, n):
    x = tl.load(X + tl.arange(0, 128))
    tl.store(X + tl.arange(0, 128), tlx.require_layout(x, UNSWIZZLED_1D))  # misuse


@triton.jit
def assert_layouts_of_two_shapes(X, n):
    tlx.assert_same_layout(tl.zeros([64], tl.float32), tl.zeros([32], tl.float32))  # misuse


@triton.jit
def assert_buffers_of_two_layouts(X, n):
    a = tlx.local_alloc((64, 64), tl.float16, 1)
    b = tlx.local_alloc((64, 64), tl.float16, 1, layout=UNSWIZZLED)
    tlx.assert_same_layout(a[0], b[0])  # misuse


@triton.jit
def alloc_layout_not_text(n):
    tlx.local_alloc((64, 64), tl.float16, 1, layout=5)  # misuse


@triton.jit
def commit_group_of_an_int(n):
    tlx.async_load_commit_group(5)  # misuse


@triton.jit
def view_of_a_tensor(n):
    tlx.local_view(tl.arange(0, 64), 0)  # misuse


@triton.jit
def wait_on_a_buffer(n):
    bufs = tlx.local_alloc((64,), tl.float16, 1)
    tlx.barrier_wait(bufs[0], 0)  # misuse


@triton.jit
def thread_id_runtime_axis(n):
    tlx.thread_id(n)  # misuse


@triton.jit
def named_barrier_float_id(n):
    tlx.named_barrier_wait(1.5, 128)  # misuse


@triton.jit
def alloc_layout_that_does_not_parse(n):
    tlx.local_alloc((64, 64), tl.float16, 1, layout="#ttg.nonsense<{}>")  # misuse


BLOCKED: tl.constexpr = tl.constexpr(
    "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>"
)


@triton.jit
def alloc_layout_not_shared(n):
    tlx.local_alloc((64, 64), tl.float16, 1, layout=BLOCKED)  # misuse


@triton.jit
def named_barrier_odd_threads(n):
    tlx.named_barrier_arrive(3, 33)  # misuse


@triton.jit
def dot_under_thread_branch(n):
    a = tlx.local_alloc((64, 16), tl.float16, 1)
    b = tlx.local_alloc((16, 64), tl.float16, 1)
    if tlx.thread_id(0) < 64:
        tlx.async_dot_wait(0, tlx.async_dot(a[0], b[0]))  # misuse


@triton.jit
def arrive_under_lane_branch(n):
    bars = tlx.alloc_barriers(1, arrive_count=1)
    if tlx.thread_id(0) % 32 == 0:
        tlx.barrier_arrive(bars[0])  # warned
    tlx.barrier_wait(bars[0], 0)


@triton.jit
def store_while_tma_fills(desc, n):
    bufs = tlx.local_alloc((64, 64), tl.float16, 1)
    bars = tlx.alloc_barriers(1)
    tlx.barrier_expect_bytes(bars[0], 64 * 64 * 2)
    tlx.async_descriptor_load(desc, bufs[0], [0, 0], bars[0])
    tlx.local_store(bufs[0], tl.zeros((64, 64), tl.float16))  # misuse
    tlx.barrier_wait(bars[0], 0)


@triton.jit
def alloc_runtime_shape(n):
    tlx.local_alloc((n, 64), tl.float16, 2)  # misuse


@triton.jit
def alloc_pointer_dtype(n):
    tlx.local_alloc((64,), tl.pointer_type(tl.float16), 2)  # misuse


@triton.jit
def alloc_storage_string(n):
    tlx.local_alloc((64,), tl.float16, 2, storage="smem")  # misuse


@triton.jit
def alloc_tmem_on_hopper(n):
    tlx.local_alloc((128, 128), tl.float32, 1, storage=tlx.storage_kind.tmem)  # misuse


@triton.jit
def alloc_tmem_1d(n):
    tlx.local_alloc((128,), tl.float32, 1, storage=tlx.storage_kind.tmem)  # misuse


@triton.jit
def alloc_reuse(n):
    tlx.local_alloc((64,), tl.float16, 2, reuse=n)  # misuse


@triton.jit
def alloc_missing_num(n):
    tlx.local_alloc((64,), tl.float16)  # misuse


@triton.jit
def alloc_unknown_keyword(n):
    tlx.local_alloc((64,), tl.float16, 2, swizzle=True)  # misuse


@triton.jit
def index_out_of_range(n):
    bufs = tlx.local_alloc((64,), tl.float16, 2)
    tlx.local_load(bufs[2])  # misuse


@triton.jit
def view_out_of_range(n):
    bars = tlx.alloc_barriers(3)
    tlx.barrier_arrive(tlx.local_view(bars, -1))  # misuse


@triton.jit
def view_of_one_buffer(n):
    bufs = tlx.local_alloc((64,), tl.float16, 2)
    one = bufs[0]
    one[0]  # misuse


@triton.jit
def view_block_index(n):
    bufs = tlx.local_alloc((64,), tl.float16, 2)
    bufs[tl.arange(0, 2)]  # misuse


@triton.jit
def load_buffer_set(n):
    bufs = tlx.local_alloc((64,), tl.float16, 2)
    tlx.local_load(bufs)  # misuse


@triton.jit
def store_wrong_shape(n):
    bufs = tlx.local_alloc((64,), tl.float16, 2)
    tlx.local_store(bufs[0], tl.zeros((32,), tl.float16))  # misuse


@triton.jit
def store_wrong_dtype(n):
    bufs = tlx.local_alloc((64,), tl.float16, 2)
    tlx.local_store(bufs[0], tl.zeros((64,), tl.float32))  # misuse


@triton.jit
def store_scalar(n):
    bufs = tlx.local_alloc((64,), tl.float16, 2)
    tlx.local_store(bufs[0], n)  # misuse


@triton.jit
def barriers_zero_arrivals(n):
    tlx.alloc_barriers(2, arrive_count=0)  # misuse


@triton.jit
def wait_phase_two(n):
    bars = tlx.alloc_barriers(2)
    tlx.barrier_wait(bars[0], 2)  # misuse


@triton.jit
def wait_on_barrier_set(n):
    bars = tlx.alloc_barriers(2)
    tlx.barrier_wait(bars, 0)  # misuse


@triton.jit
def wait_block_pred(n):
    bars = tlx.alloc_barriers(2)
    tlx.barrier_wait(bars[0], 0, pred=tl.arange(0, 4) < n)  # misuse


@triton.jit
def expect_runtime_bytes(n):
    bars = tlx.alloc_barriers(1)
    tlx.barrier_expect_bytes(bars[0], n)  # misuse


@triton.jit
def expect_too_many_bytes(n):
    bars = tlx.alloc_barriers(1)
    tlx.barrier_expect_bytes(bars[0], 1 << 20)  # misuse


@triton.jit
def barriers_too_many_arrivals(n):
    tlx.alloc_barriers(1, arrive_count=1 << 20)  # misuse


@triton.jit
def warp_barrier_too_many_arrivals(n):
    tlx.alloc_warp_barrier(1, num_warps=4, num_arrivals=8192)  # misuse


@triton.jit
def warp_barrier_arrivals_beyond_i32(n):
    tlx.alloc_warp_barrier(1, num_warps=4, num_arrivals=2**31 - 1)  # misuse


@triton.jit
def expect_on_buffer(n):
    bufs = tlx.local_alloc((64,), tl.float16, 1)
    tlx.barrier_expect_bytes(bufs[0], 128)  # misuse


@triton.jit
def wait_on_remote_view(n):
    bars = tlx.alloc_barriers(1)
    tlx.barrier_wait(tlx.remote_view(bars[0], 1), 0)  # misuse


@triton.jit
def tma_block_mismatch(desc, n):
    bufs = tlx.local_alloc((64, 32), tl.float16, 1)
    bars = tlx.alloc_barriers(1)
    tlx.async_descriptor_load(desc, bufs[0], [0, 0], bars[0])  # misuse


@triton.jit
def tma_dtype_mismatch(desc, n):
    bufs = tlx.local_alloc((64, 64), tl.bfloat16, 1)
    bars = tlx.alloc_barriers(1)
    tlx.async_descriptor_load(desc, bufs[0], [0, 0], bars[0])  # misuse


@triton.jit
def tma_offset_count(desc, n):
    bufs = tlx.local_alloc((64, 64), tl.float16, 1)
    bars = tlx.alloc_barriers(1)
    tlx.async_descriptor_load(desc, bufs[0], [0], bars[0])  # misuse


@triton.jit
def tma_not_a_descriptor(desc, n):
    bufs = tlx.local_alloc((64, 64), tl.float16, 1)
    bars = tlx.alloc_barriers(1)
    tlx.async_descriptor_load(n, bufs[0], [0, 0], bars[0])  # misuse


@triton.jit
def tma_cache_modifier(desc, n):
    bufs = tlx.local_alloc((64, 64), tl.float16, 1)
    bars = tlx.alloc_barriers(1)
    tlx.async_descriptor_load(desc, bufs[0], [0, 0], bars[0], cache_modifier=".wb")  # misuse


@triton.jit
def tma_cache_cg(desc, n):
    bufs = tlx.local_alloc((64, 64), tl.float16, 1)
    bars = tlx.alloc_barriers(1)
    tlx.async_descriptor_load(desc, bufs[0], [0, 0], bars[0], cache_modifier=".cg")  # misuse


@triton.jit
def tma_store_wait_negative(desc, n):
    tlx.async_descriptor_store_wait(-1)  # misuse


@triton.jit
def expect_forgets_element_size(desc, n):
    bufs = tlx.local_alloc((64, 64), tl.float16, 2)
    bars = tlx.alloc_barriers(2)
    s = n % 2
    tlx.barrier_expect_bytes(bars[s], 64 * 64)  # misuse
    tlx.async_descriptor_load(desc, bufs[s], [0, 0], bars[s])


@triton.jit
def expect_one_tile_load_two(desc, n):
    bufs = tlx.local_alloc((64, 64), tl.float16, 2)
    bars = tlx.alloc_barriers(1)
    tlx.barrier_expect_bytes(bars[0], 64 * 64 * 2)  # misuse
    tlx.async_descriptor_load(desc, bufs[0], [0, 0], bars[0])
    tlx.async_descriptor_load(desc, bufs[1], [64, 0], bars[0])


@triton.jit
def tma_on_ampere(desc, n):
    bufs = tlx.local_alloc((64, 64), tl.float16, 1)
    bars = tlx.alloc_barriers(1)
    tlx.async_descriptor_load(desc, bufs[0], [0, 0], bars[0])  # misuse


@triton.jit
def fence_on_ampere(desc, n):
    tlx.fence_async_shared()  # misuse


@triton.jit
def cp_async_not_pointers(X, n):
    bufs = tlx.local_alloc((64,), tl.float32, 1)
    tlx.async_load(tl.arange(0, 64), bufs[0])  # misuse


@triton.jit
def cp_async_pointee_mismatch(X, n):
    bufs = tlx.local_alloc((64,), tl.float16, 1)
    tlx.async_load(X + tl.arange(0, 64), bufs[0])  # misuse


@triton.jit
def cp_async_other_without_mask(X, n):
    bufs = tlx.local_alloc((64,), tl.float32, 1)
    tlx.async_load(X + tl.arange(0, 64), bufs[0], other=0.0)  # misuse


@triton.jit
def cp_async_int_mask(X, n):
    bufs = tlx.local_alloc((64,), tl.float32, 1)
    tlx.async_load(X + tl.arange(0, 64), bufs[0], mask=tl.arange(0, 64))  # misuse


@triton.jit
def cp_async_cache_cv(X, n):
    bufs = tlx.local_alloc((64,), tl.float32, 1)
    tlx.async_load(X + tl.arange(0, 64), bufs[0], cache_modifier=".cv")  # misuse


@triton.jit
def cp_async_tmem_buffer(X, n):
    bufs = tlx.local_alloc((64, 64), tl.float32, 1, storage=tlx.storage_kind.tmem)
    tlx.async_load(X + tl.arange(0, 64)[:, None] + tl.arange(0, 64)[None, :], bufs[0])  # misuse


@triton.jit
def wait_group_runtime(X, n):
    tlx.async_load_wait_group(n)  # misuse


@triton.jit
def thread_id_axis_three(X, n):
    tlx.thread_id(3)  # misuse


@triton.jit
def size_of_a_tensor(X, n):
    tlx.size_of(n)  # misuse


@triton.jit
def dtype_of_a_constant(X, n):
    tlx.dtype_of(3)  # misuse


@triton.jit
def trans_not_a_permutation(n):
    bufs = tlx.local_alloc((64, 128), tl.float16, 1)
    tlx.local_trans(bufs[0], (0, 0))  # misuse


@triton.jit
def trans_dims_of_another_rank(n):
    bufs = tlx.local_alloc((64, 128), tl.float16, 1)
    tlx.local_trans(bufs[0], (2, 1, 0))  # misuse


@triton.jit
def trans_runtime_dims(n):
    bufs = tlx.local_alloc((64, 128), tl.float16, 1)
    tlx.local_trans(bufs[0], (n, 0))  # misuse


@triton.jit
def trans_buffer_set(n):
    bufs = tlx.local_alloc((64, 128), tl.float16, 2)
    tlx.local_trans(bufs)  # misuse


@triton.jit
def trans_then_store_untransposed(n):
    bufs = tlx.local_alloc((64, 128), tl.float16, 1)
    tlx.local_store(tlx.local_trans(bufs[0]), tl.zeros((64, 128), tl.float16))  # misuse


@triton.jit
def slice_rank_mismatch(n):
    bufs = tlx.local_alloc((64, 128), tl.float16, 1)
    tlx.local_slice(bufs[0], [64], [64])  # misuse


@triton.jit
def slice_out_of_bounds(n):
    bufs = tlx.local_alloc((64, 128), tl.float16, 1)
    tlx.local_slice(bufs[0], [0, 128], [64, 64])  # misuse


@triton.jit
def slice_straddles_tiles(n):
    bufs = tlx.local_alloc((64, 128), tl.float16, 1)
    tlx.local_slice(bufs[0], [0, 32], [64, 64])  # misuse


@triton.jit
def slice_not_a_power_of_two(n):
    bufs = tlx.local_alloc((64, 128), tl.float16, 1)
    tlx.local_slice(bufs[0], [0, 0], [64, 48])  # misuse


@triton.jit
def slice_runtime_offset(n):
    bufs = tlx.local_alloc((64, 128), tl.float16, 1)
    tlx.local_slice(bufs[0], [0, n], [64, 64])  # misuse


@triton.jit
def slice_tmem_rows(n):
    acc = tlx.local_alloc((128, 128), tl.float32, 1, storage=tlx.storage_kind.tmem)
    tlx.local_slice(acc[0], [64, 0], [64, 128])  # misuse


@triton.jit
def slice_of_a_view_of_a_view(n):
    bufs = tlx.local_alloc((64, 128), tl.float16, 1)
    t = tlx.local_trans(bufs[0])
    tlx.local_slice(t, [0, 0], [64, 128])  # misuse


@triton.jit
def slice_then_local_view(n):
    bufs = tlx.local_alloc((64, 128), tl.float16, 1)
    tlx.local_slice(bufs[0], [0, 0], [64, 64])[0]  # misuse


@triton.jit
def subslice_straddles_tiles(n):
    bufs = tlx.local_alloc((64, 128), tl.float16, 1)
    tlx.subslice(bufs[0], 16, 32)  # misuse


@triton.jit
def subslice_past_the_end(n):
    bufs = tlx.local_alloc((64, 128), tl.float16, 1)
    tlx.subslice(bufs[0], 128, 64)  # misuse


@triton.jit
def tma_into_a_slice_of_another_shape(desc, n):
    bufs = tlx.local_alloc((64, 128), tl.float16, 1)
    bars = tlx.alloc_barriers(1)
    tlx.async_descriptor_load(desc, tlx.local_slice(bufs[0], [0, 0], [64, 32]), [0, 0], bars[0])  # misuse


@triton.jit
def reinterpret_more_bytes(n):
    bufs = tlx.local_alloc((64, 128), tl.float16, 1)
    tlx.local_reinterpret(bufs[0], tl.float32, [64, 128])  # misuse


@triton.jit
def reinterpret_wider_type_same_shape(n):
    bufs = tlx.local_alloc((64, 128), tl.float16, 1)
    tlx.local_reinterpret(bufs[0], tl.float32)  # misuse


@triton.jit
def reinterpret_pointer_dtype(n):
    bufs = tlx.local_alloc((64, 128), tl.float16, 1)
    tlx.local_reinterpret(bufs[0], tl.pointer_type(tl.float16), [64, 32])  # misuse


@triton.jit
def reinterpret_mbarrier(n):
    bars = tlx.alloc_barriers(2)
    tlx.local_reinterpret(bars[0], tl.int64, [1])  # misuse


@triton.jit
def reinterpret_layout(n):
    bufs = tlx.local_alloc((64, 128), tl.float16, 1)
    tlx.local_reinterpret(bufs[0], tl.float32, [64, 64], layout="#ttg.swizzled_shared<{vec = 1}>")  # misuse


@triton.jit
def amd_buffer_load(X, n):
    tlx.buffer_load(X, tl.arange(0, 16))  # misuse


@triton.jit
def amd_buffer_load_without_offsets(X, n):
    tlx.buffer_load(X)  # misuse


@triton.jit
def amd_warp_pipeline_stage(X, n):
    with tlx.warp_pipeline_stage("load", priority=1):  # misuse
        tl.store(X, 1.0)


@triton.jit
def amd_layout_in_a_kernel(n):
    tlx.amd_mfma_layout(4, [32, 32, 8], True, [4, 1])  # misuse


@triton.jit
def tcgen05_commit_on_hopper(n):
    bars = tlx.alloc_barriers(1)
    tlx.tcgen05_commit(bars[0])  # misuse


@triton.jit
def tcgen05_register_acc_on_blackwell(n):
    a = tlx.local_alloc((128, 64), tl.float16, 1)
    b = tlx.local_alloc((64, 128), tl.float16, 1)
    bars = tlx.alloc_barriers(1)
    acc = tl.zeros((128, 128), tl.float32)
    tlx.async_dot(a[0], b[0], acc, mBarriers=[bars[0]])  # misuse


@triton.jit
def tcgen05_acc_in_shared_memory(n):
    a = tlx.local_alloc((128, 64), tl.float16, 1)
    b = tlx.local_alloc((64, 128), tl.float16, 1)
    acc = tlx.local_alloc((128, 128), tl.float32, 1)
    bars = tlx.alloc_barriers(1)
    tlx.async_dot(a[0], b[0], acc[0], mBarriers=[bars[0]])  # misuse


@triton.jit
def tmem_over_512_columns(n):
    tlx.local_alloc((128, 256), tl.float32, 3, storage=tlx.storage_kind.tmem)  # misuse


@triton.jit
def clc_context_on_hopper(n):
    tlx.clc_create_context(1)  # misuse


@triton.jit
def clc_producer_without_phase(n):
    clc = tlx.clc_create_context(1)
    tlx.clc_producer(clc)  # misuse


@triton.jit
def clc_consumer_of_barriers(n):
    bars = tlx.alloc_barriers(2)
    tlx.clc_consumer(bars, 0)  # misuse


@triton.jit
def clc_without_consumers(n):
    tlx.clc_create_context(num_consumers=0)  # misuse


@triton.jit
def clc_stage_out_of_range(n):
    clc = tlx.clc_create_context(1, num_stages=2)
    tlx.clc_producer(clc, 1, k=2)  # misuse


@triton.jit
def tmem_copy_on_hopper(n):
    bufs = tlx.local_alloc((128, 64), tl.float32, 2)
    tlx.tmem_copy(bufs[0], bufs[1])  # misuse


@triton.jit
def tmem_copy_16_bit(n):
    src = tlx.local_alloc((128, 64), tl.float16, 1)
    dst = tlx.local_alloc((128, 64), tl.float16, 1, tlx.storage_kind.tmem)
    tlx.tmem_copy(src[0], dst[0])  # misuse


@triton.jit
def tmem_copy_unswizzled(n):
    src = tlx.local_alloc((128, 4), tl.float32, 1)
    dst = tlx.local_alloc((128, 4), tl.float32, 1, tlx.storage_kind.tmem)
    tlx.tmem_copy(src[0], dst[0])  # misuse


@triton.jit
def stoch_round_on_hopper(n):
    tlx.stoch_round(tl.zeros((128,), tl.float32), tl.bfloat16, tl.zeros((128,), tl.uint32))  # misuse


@triton.jit
def stoch_round_of_other_shapes(n):
    tlx.stoch_round(tl.zeros((128,), tl.float32), tl.bfloat16, tl.zeros((64,), tl.uint32))  # misuse


@triton.jit
def stoch_round_of_a_scalar(n):
    tlx.stoch_round(n.to(tl.float32), tl.float16, n.to(tl.uint32))  # misuse


@triton.jit
def stoch_round_to_float64(n):
    tlx.stoch_round(tl.zeros((128,), tl.float32), tl.float64, tl.zeros((128,), tl.uint32))  # misuse


@triton.jit
def _scaled_operands(K: tl.constexpr, SCALE_K: tl.constexpr):
    a = tlx.local_alloc((128, K), tl.float8e4nv, 1)
    b = tlx.local_alloc((K, 128), tl.float8e4nv, 1)
    acc = tlx.local_alloc((128, 128), tl.float32, 1, tlx.storage_kind.tmem)
    scales = tlx.local_alloc((128, SCALE_K), tl.uint8, 1, tlx.storage_kind.tmem)
    return a[0], b[0], acc[0], scales[0]


@triton.jit
def scatter_of_fewer_values_than_indices(X, n):
    buf = tlx.local_alloc((32,), tl.float32, 1)
    indices = tl.arange(0, 32)
    tlx.local_scatter(buf[0], tl.load(X + tl.arange(31, 32)), indices, 0)  # misuse


@triton.jit
def zeros_of_a_number(X, n):
    tl.store(X + tl.arange(0, 64), tlx.zeros([64], 1.5))  # misuse


@triton.jit
def stock_dot_scaled_scale_pointer(X, n):
    a = tl.load(X + tl.arange(0, 64)[:, None] * 64 + tl.arange(0, 64)[None, :]).to(tl.float8e4nv)
    tlx.dot_scaled(a, X, "e4m3", a, None, "e4m3")  # misuse


@triton.jit
def stock_dot_scaled_no_format(X, n):
    a = tl.load(X + tl.arange(0, 64)[:, None] * 64 + tl.arange(0, 64)[None, :]).to(tl.float8e4nv)
    tlx.dot_scaled(a, None, "e4m3", a, None, None)  # misuse


@triton.jit
def stock_dot_scaled_other_k(X, n):
    a = tl.load(X + tl.arange(0, 64)[:, None] * 64 + tl.arange(0, 64)[None, :]).to(tl.float8e4nv)
    b = tl.load(X + tl.arange(0, 32)[:, None] * 64 + tl.arange(0, 64)[None, :]).to(tl.float8e4nv)
    tlx.dot_scaled(a, None, "e4m3", b, None, "e4m3")  # misuse


@triton.jit
def stock_dot_scaled_acc_shape(X, n):
    a = tl.load(X + tl.arange(0, 64)[:, None] * 64 + tl.arange(0, 64)[None, :]).to(tl.float8e4nv)
    tlx.dot_scaled(a, None, "e4m3", a, None, "e4m3", acc=tl.zeros((32, 64), tl.float32))  # misuse


@triton.jit
def dot_scaled_on_hopper(n):
    a = tlx.local_alloc((128, 128), tl.float8e4nv, 1)
    s = tlx.local_alloc((1, 1, 1, 2, 256), tl.uint8, 1)
    tlx.async_dot_scaled(a[0], a[0], a[0], s[0], "e4m3", s[0], "e4m3")  # misuse


@triton.jit
def dot_scaled_unknown_format(n):
    a, b, acc, s = _scaled_operands(128, 4)
    tlx.async_dot_scaled(a, b, acc, s, "e4m3", s, "fp8")  # misuse


@triton.jit
def dot_scaled_two_ctas(n):
    a, b, acc, s = _scaled_operands(128, 4)
    tlx.async_dot_scaled(a, b, acc, s, "e4m3", s, "e4m3", two_ctas=True)  # misuse


@triton.jit
def dot_scaled_scales_for_another_k(n):
    a, b, acc, s = _scaled_operands(256, 4)
    tlx.async_dot_scaled(a, b, acc, s, "e4m3", s, "e4m3")  # misuse


@triton.jit
def dot_scaled_fp8_with_fp4(n):
    a, b, acc, s = _scaled_operands(128, 4)
    b4 = tlx.local_alloc((64, 128), tl.uint8, 1)
    tlx.async_dot_scaled(a, b4[0], acc, s, "e4m3", s, "e2m1")  # misuse


@triton.jit
def scale_copy_from_rows(n):
    src = tlx.local_alloc((128, 4), tl.uint8, 1)
    dst = tlx.local_alloc((128, 4), tl.uint8, 1, tlx.storage_kind.tmem)
    tlx.tmem_copy(src[0], dst[0])  # misuse


@triton.jit
def ballot_of_a_tensor_in_half_a_warp(X, n):
    offs = tl.arange(0, 128)
    tl.store(X + offs, tlx.vote_ballot_sync(0x0000FFFF, offs < n).to(tl.float32))  # misuse


@triton.jit
def ballot_of_pointers(X, n):
    tlx.vote_ballot_sync(0xFFFFFFFF, X + tl.arange(0, 128))  # misuse


@triton.jit
def dot_of_a_buffer_carried_through_a_loop(X, n):
    a = tlx.local_alloc((64, 64), tl.float16, 2)
    b = tlx.local_alloc((64, 64), tl.float16, 2)
    operand = a[0]
    acc = tl.zeros((64, 64), tl.float32)
    for _ in range(n):
        acc = tlx.async_dot_wait(0, tlx.async_dot(operand, b[0], acc))  # misuse
        operand = b[1]
    tl.store(X + tl.arange(0, 64)[:, None] * 64 + tl.arange(0, 64)[None, :], acc)


@triton.jit
def scale_rows_of_halves(X, n):
    x = tl.load(X + tl.arange(0, 64)[:, None] * 32 + tl.arange(0, 32)[None, :]).to(tl.float16)
    tlx.scale_rows(x, tl.full([64], 2.0, tl.float16))  # misuse


@triton.jit
def scale_rows_of_a_scalar(X, n):
    x = tl.load(X + tl.arange(0, 64)[:, None] * 32 + tl.arange(0, 32)[None, :])
    tlx.scale_rows(x, 2.0)  # misuse


@triton.jit
def scale_rows_by_columns(X, n):
    x = tl.load(X + tl.arange(0, 64)[:, None] * 32 + tl.arange(0, 32)[None, :])
    tlx.scale_rows(x, tl.full([32], 2.0, tl.float32))  # misuse


@triton.jit
def warp_sum(X, n):
    tl.store(X, tlx.warp_redux(tl.load(X), "sum"))  # misuse


@triton.jit
def fp8_name_of_fp16(n):
    tlx.get_fp8_format_name(tl.float16)  # misuse


@triton.jit
def prefetch_tensormap(X, n):
    tlx.prefetch(X, tensormap=True)  # misuse


SM90, SM80, SM100 = (GPUTarget("cuda", arch, 32) for arch in (90, 80, 100))


@triton.jit
def descriptor_into_a_slot(X, n):
    tlx.make_tensor_descriptor(X, X, [n, n], [n, 1], [64, 64])  # misuse


N = {"n": "i32"}
DESC = {"desc": "tensordesc<fp16[64, 64]>", "n": "i32"}
PTR = {"X": "*fp32", "n": "i32"}

# kernel, signature, target, what the message says
CASES = [
    (zeros_of_a_number, PTR, SM90, "tlx.zeros: `dtype` must be an integer or floating-point dtype such as tl.float16"),
    (
        scatter_of_fewer_values_than_indices,
        PTR,
        SM90,
        "tlx.local_scatter: `src` must be a tensor of the indices' shape [32], got one of shape [1]",
    ),
    (stock_dot_scaled_scale_pointer, PTR, SM90, "tlx.dot_scaled: `lhs_scale` must be a register tensor, got a runtime"),
    (stock_dot_scaled_no_format, PTR, SM90, "tlx.dot_scaled: `rhs_format` must name the operand's format, e.g. 'e4m3'"),
    (
        stock_dot_scaled_other_k,
        PTR,
        SM90,
        "tlx.dot_scaled: stock Triton refuses these operands: Reduction dimension should pack the same number",
    ),
    (
        stock_dot_scaled_acc_shape,
        PTR,
        SM90,
        "tlx.dot_scaled: stock Triton refuses these operands: the accumulator's shape or dtype is not the product's",
    ),
    (
        descriptor_into_a_slot,
        PTR,
        SM90,
        "tlx.make_tensor_descriptor: `desc_ptr` must be a slot of tlx.allocate_tensor_descriptor (ptrs[i]), got",
    ),
    (slot_past_the_allocation, PTR, SM90, "tlx.tensor_descriptor_ptr: slot 2 is out of range: tlx.allocate_tensor"),
    (allocate_runtime_num, PTR, SM90, "tlx.allocate_tensor_descriptor: `num` must be a compile-time constant"),
    (reinterpret_a_pointer, PTR, SM90, "tlx.reinterpret_tensor_descriptor: `desc_ptr` must be a slot of tlx.alloc"),
    (slot_rows_not_contiguous, PTR, SM90, "tlx.make_tensor_descriptor: the last stride must be the constant 1"),
    (slot_of_two_ranks, PTR, SM90, "`shape`, `strides` and `block_shape` need one entry per dimension: got 2, 2"),
    (require_layout_of_a_scalar, PTR, SM90, "tlx.require_layout: `x` must be a register tensor, got a runtime"),
    (require_layout_of_a_number, PTR, SM90, "tlx.require_layout: `layout` must be a TLX layout (tlx.layout(...), ...)"),
    (require_layout_runtime_pin, PTR, SM90, "tlx.require_layout: `pin` must be a compile-time bool"),
    (assert_layouts_of_two_shapes, PTR, SM90, "tlx.assert_same_layout: compares layouts of two shapes, [64] and [32]"),
    (alloc_zero_buffers, N, SM90, "tlx.local_alloc: `num` must be >= 1, got 0"),
    (alloc_runtime_shape, N, SM90, "tlx.local_alloc: `shape[0]` must be a compile-time constant"),
    (alloc_pointer_dtype, N, SM90, "tlx.local_alloc: `dtype` must be an integer or floating-point dtype"),
    (alloc_storage_string, N, SM90, "tlx.local_alloc: `storage` must be a tlx.storage_kind"),
    (alloc_tmem_on_hopper, N, SM90, "tensor memory (storage tmem) needs sm_100 (Blackwell) or newer; this kernel is"),
    (alloc_tmem_1d, N, SM100, "tensor memory buffers are 2-D (rows x columns), got shape [128]"),
    (alloc_reuse, N, SM90, "tlx.local_alloc: `reuse` must be a tlx.storage_alias_spec or a set of buffers from"),
    (alloc_missing_num, N, SM90, "tlx.local_alloc: missing a required argument: 'num'"),
    (alloc_unknown_keyword, N, SM90, "tlx.local_alloc: got an unexpected keyword argument 'swizzle'"),
    (view_of_one_buffer, N, SM90, "selects from a set of buffers, but this is already a single one"),
    (view_block_index, N, SM90, "tlx.local_view: `index` must be a scalar integer"),
    (load_buffer_set, N, SM90, "tlx.local_load: `src` is a set of 2 buffers"),
    (store_scalar, N, SM90, "tlx.local_store: `src` must be a tensor of shape [64] and type fp16"),
    (wait_on_barrier_set, N, SM90, "tlx.barrier_wait: `bar` is a set of 2 mbarriers; select one"),
    (wait_block_pred, N, SM90, "tlx.barrier_wait: `pred` must be a scalar bool"),
    (expect_runtime_bytes, N, SM90, "tlx.barrier_expect_bytes: `size` must be a compile-time constant"),
    (expect_on_buffer, N, SM90, "tlx.barrier_expect_bytes: `bar` must be an mbarrier from tlx.alloc_barriers"),
    (wait_on_remote_view, N, SM90, "tlx.barrier_wait: `bar` is a remote view (tlx.remote_view) of another CTA"),
    (tma_not_a_descriptor, DESC, SM90, "tlx.async_descriptor_load: `desc` must be a tensor descriptor"),
    (tma_cache_modifier, DESC, SM90, "`cache_modifier` must be one of '', '.ca', '.cg', '.cv', got '.wb'"),
    (
        tma_store_reduce,
        DESC,
        SM90,
        "`store_reduce` must be one of '', 'add', 'min', 'max', 'and', 'or', 'xor', got 'mul'",
    ),
    (tma_two_ctas_on_hopper, DESC, SM90, "tlx.async_descriptor_load: two_ctas (a TMA load completing on the CTA pair"),
    (
        bulk_load_without_barrier,
        PTR,
        SM90,
        "tlx.async_load: bulk=True needs `barrier`, the mbarrier the copy completes",
    ),
    (bulk_load_with_mask, PTR, SM90, "tlx.async_load: `mask` is not supported with bulk=True (one contiguous copy)"),
    (bulk_load_from_pointers, PTR, SM90, "tlx.async_load: with bulk=True `src` must be one pointer (a scalar), got"),
    (bulk_size_without_bulk, PTR, SM90, "tlx.async_load: `bulk_size` belongs to the bulk form: pass bulk=True"),
    (bulk_load_on_ampere, PTR, SM80, "tlx.async_load: a bulk copy (cp.async.bulk, bulk=True) needs sm_90 or newer"),
    (dot_pred_on_hopper, N, SM90, "tlx.async_dot: `pred` is the predicate of tcgen05.mma (sm_100); wgmma has none"),
    (
        suspend_hint_negative,
        N,
        SM90,
        "tlx.async_tasks: `mbarrier_try_wait_suspend_ns` must be in 0..2147483647, got -5",
    ),
    (tma_store_wait_negative, DESC, SM90, "tlx.async_descriptor_store_wait: `pendings` must be >= 0, got -1"),
    (tma_on_ampere, {"desc": "*fp16", "n": "i32"}, SM80, "tlx.async_descriptor_load: TMA needs sm_90 or newer"),
    (fence_on_ampere, N | {"desc": "i32"}, SM80, "tlx.fence_async_shared: the async proxy fence needs sm_90"),
    (cp_async_not_pointers, PTR, SM90, "tlx.async_load: `src` must be a tensor of pointers"),
    (cp_async_other_without_mask, PTR, SM90, "tlx.async_load: `other` needs a `mask`"),
    (cp_async_int_mask, PTR, SM90, "tlx.async_load: `mask` must be a bool tensor"),
    (cp_async_cache_cv, PTR, SM90, "tlx.async_load: `cache_modifier` must be one of '', '.ca', '.cg', got '.cv'"),
    (cp_async_tmem_buffer, PTR, SM100, "tlx.async_load: `result` must be in shared memory (storage smem), got tmem"),
    (wait_group_runtime, PTR, SM90, "tlx.async_load_wait_group: `pendings` must be a compile-time constant"),
    (thread_id_axis_three, PTR, SM90, "tlx.thread_id: `axis` must be in 0..2, got 3"),
    (size_of_a_tensor, PTR, SM90, "tlx.size_of: expects a dtype such as tl.float16"),
    (dtype_of_a_constant, PTR, SM90, "tlx.dtype_of: expects a tensor, a tensor descriptor or a TLX buffer"),
    (trans_not_a_permutation, N, SM90, "tlx.local_trans: `dims` must be a permutation of 0..1 for the 2-D buffer"),
    (trans_dims_of_another_rank, N, SM90, "`dims` must be a permutation of 0..1 for the 2-D buffer ([64, 128] fp16"),
    (trans_runtime_dims, N, SM90, "tlx.local_trans: `dims[0]` must be a compile-time constant"),
    (trans_buffer_set, N, SM90, "tlx.local_trans: `input` is a set of 2 buffers"),
    (slice_runtime_offset, N, SM90, "tlx.local_slice: `offset[1]` must be a compile-time constant"),
    (slice_then_local_view, N, SM90, "tlx.local_view: selects from a set of buffers, but this is already a single"),
    (reinterpret_pointer_dtype, N, SM90, "tlx.local_reinterpret: `dtype` must be an integer or floating-point"),
    (reinterpret_mbarrier, N, SM90, "tlx.local_reinterpret: `src` must be a buffer from tlx.local_alloc"),
    (reinterpret_layout, N, SM90, "tlx.local_reinterpret: `layout` is not supported by this TLX release yet"),
    (alloc_extra_positional, N, SM90, "tlx.local_alloc: too many positional arguments"),
    (cluster_rank_on_ampere, N, SM80, "tlx.cluster_cta_rank: thread block clusters needs sm_90 or newer"),
    (cluster_barrier_on_ampere, N, SM80, "tlx.cluster_barrier: thread block clusters needs sm_90 or newer"),
    (mbarrier_init_fence_on_ampere, N, SM80, "tlx.fence_mbarrier_init_cluster: thread block clusters needs sm_90"),
    (replicate_zero, N, SM90, "tlx.async_task: `replicate` must be in 1..32 (copies of the task, each on warps"),
    (replicate_sixty_four, N, SM90, "tlx.async_task: `replicate` must be in 1..32 (copies of the task, each on"),
    (dot_into_float16, N, SM90, "tlx.async_dot: only float32 accumulators are supported, got fp16"),
    (dot_use_acc_tensor, N, SM90, "tlx.async_dot: `use_acc` must be a scalar boolean, got a runtime tensor"),
    (dot_int_accumulator, N, SM90, "tlx.async_dot: `acc` must be a float32 tensor, got a runtime tensor"),
    # found by tlx.testing.kernel_fuzz: each was an internal Python error or a message from inside stock Triton
    (dot_use_acc_list, N, SM90, "tlx.async_dot: `use_acc` must be a scalar boolean, got ()"),
    (dot_scalar_a, N, SM90, "tlx.async_dot: `a` must be a buffer or a 2-D tensor in registers, got a runtime"),
    (view_with_slices, N, SM90, "tlx.local_view: `index` must be a scalar integer, got (a slice, None)"),
    (descriptor_of_an_int, N, SM90, "tlx.make_tensor_descriptor: `base` must be a pointer to the tensor's first"),
    (stock_descriptor_of_a_pointer_shape, PTR, SM90, "tlx.make_tensor_descriptor: `shape[1]` must be a scalar integer"),
    (store_wait_beyond_i32, N, SM90, "tlx.async_descriptor_store_wait: `pendings` = 2147483648 does not fit in 32"),
    (
        warp_barrier_arrivals_beyond_i32,
        N,
        SM90,
        "tlx.alloc_warp_barrier: `num_warps * 32 * num_arrivals` = 274877906816 does not fit in 32 bits",
    ),
    (dot_unknown_precision, N, SM90, "tlx.async_dot: `input_precision` must be one of ['ieee', 'tf32', 'tf32x3']"),
    (dot_with_mbarriers_on_hopper, N, SM90, "tlx.async_dot: tcgen05.mma (async_dot with mBarriers= or a tensor-memory"),
    (dot_two_ctas_on_hopper, N, SM90, "tlx.async_dot: `two_ctas` is the Blackwell cta_group::2 form"),
    (
        tma_store_eviction,
        DESC,
        SM90,
        "`eviction_policy` must be '', 'evict_first' or 'evict_last', got 'evict_sometimes'",
    ),
    (local_load_with_layout, N, SM90, "tlx.local_load: `layout` must be a TLX layout (tlx.layout(...), ...)"),
    (alloc_layout_not_text, N, SM90, "tlx.local_alloc: `layout` must be a TLX layout (tlx.layout(...), ...) or the"),
    (commit_group_of_an_int, N, SM90, "tlx.async_load_commit_group: `tokens` must be async tokens from"),
    (view_of_a_tensor, N, SM90, "tlx.local_view: expects buffers from tlx.local_alloc or mbarriers from"),
    (wait_on_a_buffer, N, SM90, "tlx.barrier_wait: `bar` must be an mbarrier from tlx.alloc_barriers, got a"),
    (thread_id_runtime_axis, N, SM90, "tlx.thread_id: `axis` must be a compile-time constant"),
    (named_barrier_float_id, N, SM90, "tlx.named_barrier_wait: `bar` must be a scalar integer, got 1.5"),
    # names of the public API for other hardware: what they are for and why they cannot be used here
    (amd_buffer_load, PTR, SM90, "tlx.buffer_load: for AMD GPUs only (a load through an AMD buffer resource"),
    (amd_buffer_load_without_offsets, PTR, SM90, "tlx.buffer_load: missing a required argument: 'offsets'"),
    (amd_warp_pipeline_stage, PTR, SM90, "tlx.warp_pipeline_stage: for AMD GPUs only (a stage of an AMD warp"),
    (amd_layout_in_a_kernel, N, SM90, "tlx.amd_mfma_layout: for AMD GPUs only (a CDNA MFMA register layout); this"),
    (tcgen05_commit_on_hopper, N, SM90, "tlx.tcgen05_commit: tcgen05.commit needs sm_100 (Blackwell) or newer; this"),
    (tcgen05_register_acc_on_blackwell, N, SM100, "on sm_100 async_dot is tcgen05.mma, which accumulates in"),
    (clc_context_on_hopper, N, SM90, "tlx.clc_create_context: cluster launch control (clusterlaunchcontrol.try_c"),
    (clc_producer_without_phase, N, SM100, "tlx.clc_producer: `p_producer`, the phase parity (0 or 1) to wait for"),
    (
        clc_consumer_of_barriers,
        N,
        SM100,
        "tlx.clc_consumer: `context` must be what tlx.clc_create_context returns, got",
    ),
    (clc_without_consumers, N, SM100, "tlx.clc_create_context: `num_consumers` must be >= 1, got 0"),
    (tmem_copy_on_hopper, N, SM90, "tlx.tmem_copy: a shared-to-tensor-memory copy (tcgen05.cp) needs sm_100 (Bl"),
    (stoch_round_on_hopper, N, SM90, "tlx.stoch_round: stochastic rounding (cvt.rs.satfinite) needs sm_100 (Bla"),
    (stoch_round_of_other_shapes, N, SM100, "tlx.stoch_round: `rand_bits` (shape [64]) must have the shape of `src`"),
    (stoch_round_of_a_scalar, N, SM100, "tlx.stoch_round: `src` must be a tensor (this TLX rounds tensors, not sca"),
    (dot_scaled_on_hopper, N, SM90, "tlx.async_dot_scaled: block-scaled MMA (tcgen05.mma with scales) needs sm_100"),
    (dot_scaled_unknown_format, N, SM100, "tlx.async_dot_scaled: `B_format` must be one of 'e4m3', 'e5m2', 'e2m1'"),
    (dot_scaled_two_ctas, N, SM100, "tlx.async_dot_scaled: `two_ctas` (tcgen05.mma cta_group::2) is not supported"),
    (ballot_of_pointers, PTR, SM90, "tlx.vote_ballot_sync: `pred` must be a bool or integer scalar or tensor, go"),
    (scale_rows_of_a_scalar, PTR, SM90, "tlx.scale_rows: `scale` must be a tensor, got "),
    (warp_sum, PTR, SM90, "tlx.warp_redux: `op` must be one of 'max', 'min', 'abs_max', 'abs_min', got 'sum'"),
    (fp8_name_of_fp16, N, SM90, "tlx.get_fp8_format_name: supports only tl.float8e5 (e5m2) and tl.float8e4nv"),
    (prefetch_tensormap, PTR, SM90, "tlx.prefetch: `tensormap=True` (prefetch.tensormap of a TMA descriptor) is"),
]


# Misuse the TLX compiler's verifiers and checks report (each check in one place), at the kernel line:
# kernel, signature, target, what the message says.
COMPILER_CASES = [
    (
        ballot_of_a_tensor_in_half_a_warp,
        PTR,
        SM90,
        "'tlx.vote_ballot_sync' op a tensor `pred` is voted on by every lane",
    ),
    (dot_of_a_buffer_carried_through_a_loop, PTR, SM90, "tlx.async_dot uses a buffer or barrier handle (operand `a`)"),
    (scale_rows_of_halves, PTR, SM90, "'tlx.scale_rows' op operand #0 must be ranked tensor of 32-bit float values"),
    (scale_rows_by_columns, PTR, SM90, "'tlx.scale_rows' op scales the rows of a 2-D `src` by a 1-D `scale` of one"),
    (tma_store_reduce_xor_of_halves, DESC, SM90, "'tlx.async_descriptor_store' op store_reduce='xor' cannot combine"),
    (bulk_load_past_the_buffer, PTR, SM90, "'tlx.async_bulk_load' op copies 2048 bytes; a bulk copy moves a positive"),
    (exclusive_tasks_twice, N, SM90, "exclusive=True promises the kernel's only tasks, but the kernel has 2"),
    (tcgen05_acc_in_shared_memory, N, SM100, "'tlx.tcgen05_mma' op tcgen05 accumulates in tensor memory: `acc`"),
    (tmem_over_512_columns, N, SM100, "tensor memory has 512 columns of 32 bits per CTA; these 3 buffers of 128"),
    (tmem_copy_16_bit, N, SM100, "Triton 3.6 copies 128-row buffers of 32-bit elements into tensor memory, got"),
    (tmem_copy_unswizzled, N, SM100, "'tlx.tmem_copy' op tcgen05.cp reads a swizzled, untransposed NVMMA shared"),
    (stoch_round_to_float64, N, SM100, "'tlx.stoch_round' op rounds to fp8 (e4m3, e5m2), bf16 or fp16, not 'f64'"),
    (dot_scaled_scales_for_another_k, N, SM100, "`A_scale` in tensor memory must be [128, 8] (one scale per 32"),
    (dot_scaled_fp8_with_fp4, N, SM100, "'tlx.tcgen05_mma_scaled' op mixing e2m1 with fp8 (kind::mxf8f6f4) needs"),
    (scale_copy_from_rows, N, SM100, "the source of 128 x 4 block scales is in the cuBLAS block-scaling layout"),
    (dot_k8, N, SM90, "'tlx.async_dot' op K = 8 is not a multiple of 16, the K of one wgmma for 'f16' operands"),
    (dot_k24, N, SM90, "shared-memory buffer dimensions must be powers of two, got 24"),
    (dot_int8_into_float32, N, SM90, "or fp8 (e4m3, e5m2) operands into a float32 accumulator, not 'i8'"),
    (dot_f64, N, SM90, "or fp8 (e4m3, e5m2) operands into a float32 accumulator, not 'f64'"),
    (dot_fp8_b_stored_k_by_n, N, SM90, "wgmma reads 8-bit `b` K-major only: allocate `b` as NxK and pass"),
    (dot_tf32_b_stored_k_by_n, N, SM90, "wgmma reads 32-bit (tf32) `b` K-major only: allocate `b` as NxK and"),
    (bool_buffer, N, SM90, "TLX buffers do not hold i1: store booleans as i8 (tl.int8)"),
    (
        alloc_over_shared_memory,
        N,
        SM90,
        "the TLX buffers and mbarriers of this kernel need 262144 bytes of shared memory; a CTA on cuda:90 has at "
        "most 232448",
    ),
    (
        alloc_2_to_the_24_buffers,
        N,
        SM90,
        "tlx.local_alloc: invalid result type '!tlx.buffers<16777216, 128x128xf32, smem>': a TLX allocation of "
        "16777216 buffers of 2-D 'f32' needs 1099511627776 bytes, more than any memory a kernel can allocate",
    ),
    (index_out_of_range, N, SM90, "'tlx.local_view' op selects buffer 2 of 2; valid indices are 0..1"),
    (clc_stage_out_of_range, N, SM100, "'tlx.local_view' op selects mbarrier 2 of 2; valid indices are 0..1"),
    (view_out_of_range, N, SM90, "'tlx.local_view' op selects mbarrier -1 of 3; valid indices are 0..2"),
    (store_wrong_shape, N, SM90, "'tlx.local_store' op stored tensor shape [32] does not match the buffer shape [64]"),
    (store_wrong_dtype, N, SM90, "stored tensor element type 'f32' does not match the buffer element type 'f16'"),
    (
        barriers_zero_arrivals,
        N,
        SM90,
        "'tlx.alloc_barriers' op attribute 'arrive_count' failed to satisfy constraint: 32-bit signless integer "
        "attribute whose value is positive",
    ),
    (
        barriers_too_many_arrivals,
        N,
        SM90,
        "'tlx.alloc_barriers' op attribute 'arrive_count' failed to satisfy constraint: 32-bit signless integer "
        "attribute whose value is positive whose maximum value is 1048575",
    ),
    (
        warp_barrier_too_many_arrivals,  # 4 warps x 32 threads x 8192 = 2^20
        N,
        SM90,
        "'tlx.alloc_barriers' op attribute 'arrive_count' failed to satisfy constraint: 32-bit signless integer "
        "attribute whose value is positive whose maximum value is 1048575",
    ),
    (wait_phase_two, N, SM90, "'tlx.barrier_wait' op waits on phase 2; an mbarrier phase parity is 0 or 1"),
    (
        expect_too_many_bytes,
        N,
        SM90,
        "'tlx.barrier_expect_bytes' op attribute 'bytes' failed to satisfy constraint: 32-bit signless integer "
        "attribute whose value is positive whose maximum value is 1048575",
    ),
    (
        tma_block_mismatch,
        DESC,
        SM90,
        "'tlx.async_descriptor_load' op descriptor block shape [64, 64] does not match the buffer shape [64, 32]",
    ),
    (
        tma_dtype_mismatch,
        DESC,
        SM90,
        "descriptor block element type 'f16' does not match the buffer element type 'bf16'",
    ),
    (
        tma_offset_count,
        DESC,
        SM90,
        "'tlx.async_descriptor_load' op needs one offset per descriptor dimension: 2 expected, 1 given",
    ),
    (
        expect_forgets_element_size,
        DESC,
        SM90,
        "'tlx.barrier_expect_bytes' op expects 4096 bytes but the TMA loads completing on this mbarrier deliver 8192",
    ),
    (
        expect_one_tile_load_two,
        DESC,
        SM90,
        "expects 8192 bytes but the TMA loads completing on this mbarrier deliver 16384",
    ),
    (
        cp_async_pointee_mismatch,
        PTR,
        SM90,
        "'tlx.async_load' op pointed-to element type 'f32' does not match the buffer element type 'f16'",
    ),
    (
        trans_then_store_untransposed,
        N,
        SM90,
        "'tlx.local_store' op stored tensor shape [64, 128] does not match the buffer shape [128, 64]",
    ),
    (slice_rank_mismatch, N, SM90, "'tlx.local_slice' op needs one offset per dimension of the 2-D buffer"),
    (
        slice_out_of_bounds,
        N,
        SM90,
        "'tlx.local_slice' op slice [128, 192) of dimension 1 leaves the buffer of size 128",
    ),
    (
        slice_straddles_tiles,
        N,
        SM90,
        "'tlx.local_slice' op offset 32 of dimension 1 must be a multiple of the slice size 64",
    ),
    (
        slice_not_a_power_of_two,
        N,
        SM90,
        "tlx.local_slice: invalid result type '!tlx.buffer<64x48xf16, smem>': shared-memory buffer dimensions "
        "must be powers of two, got 48",
    ),
    (slice_tmem_rows, N, SM100, "'tlx.local_slice' op tensor memory is sliced along columns only: keep all 128 rows"),
    (
        slice_of_a_view_of_a_view,
        N,
        SM90,
        "'tlx.local_slice' op slice [0, 128) of dimension 1 leaves the buffer of size 64",
    ),
    (subslice_straddles_tiles, N, SM90, "offset 16 of dimension 1 must be a multiple of the slice size 32"),
    (subslice_past_the_end, N, SM90, "slice [128, 192) of dimension 1 leaves the buffer of size 128"),
    (
        tma_into_a_slice_of_another_shape,
        DESC,
        SM90,
        "descriptor block shape [64, 64] does not match the buffer shape [64, 32]",
    ),
    (
        reinterpret_more_bytes,
        N,
        SM90,
        "'tlx.local_reinterpret' op reinterpreting 16384 bytes as 32768; the byte size must stay the same",
    ),
    (reinterpret_wider_type_same_shape, N, SM90, "'tlx.local_reinterpret' op reinterpreting 16384 bytes as 32768"),
    (
        tma_cache_cg,
        DESC,
        SM90,
        "'tlx.async_descriptor_load' op cache modifiers are not supported on TMA loads",
    ),
    (
        alloc_layout_that_does_not_parse,
        N,
        SM90,
        'invalid layout for tlx.local_alloc: "#ttg.nonsense<{}>" (unknown attribute `nonsense` in dialect `ttg`)',
    ),
    (alloc_layout_not_shared, N, SM90, "'tlx.local_alloc' op layout #ttg.blocked<{sizePerThread = [1, 1]"),
    (named_barrier_odd_threads, N, SM90, "'tlx.named_barrier_arrive' op counts 33 threads; a named barrier counts"),
    (store_while_tma_fills, DESC, SM90, "'tlx.local_store' op accesses a buffer that a TMA load may still be"),
    (dot_under_thread_branch, N, SM90, "'tlx.async_dot' op must be reached by every thread of its warp group"),
    (slot_block_too_narrow, PTR, SM90, "'tlx.make_tensor_descriptor' op the block's last dimension must span at"),
    (slot_reads_of_two_layouts, PTR, SM90, "the descriptors of one tlx.allocate_tensor_descriptor with the same block"),
    (require_layout_on_8_warps, PTR, SM90, "'tlx.require_layout' op layout #ttg.blocked<{sizePerThread = [1], threa"),
    (require_a_shared_layout, PTR, SM90, "'tlx.require_layout' op layout #ttg.swizzled_shared<{vec = 1, perPhase"),
    (assert_buffers_of_two_layouts, PTR, SM90, "'tlx.assert_same_layout' op layout assertion failed: the buffer's"),
]


def misuse_line(kernel, marker: str = "# misuse") -> int:
    """The file line of `kernel` marked `marker`."""
    start = kernel.starting_line_number
    for offset, text in enumerate(kernel.raw_src):
        if text.rstrip().endswith(marker):
            return start + offset
    raise AssertionError(f"{kernel.__name__} has no `{marker}` line")


@pytest.mark.parametrize("kernel, signature, target, message", CASES, ids=[c[0].__name__ for c in CASES])
def test_misuse_is_reported_at_the_kernel_line(kernel, signature, target, message):
    with pytest.raises(CompilationError) as info:
        frontend_ir(kernel, signature, stage="ttir", target=target)
    text = str(info.value)
    line = misuse_line(kernel)
    assert message in text, text
    # TLX names the absolute file:line ...
    assert f"{HERE}:{line}: tlx." in text, text
    # ... and Triton's excerpt ends at that line, counted from the kernel's `def` (line 1)
    def_line = kernel.starting_line_number + next(i for i, s in enumerate(kernel.raw_src) if s.startswith("def "))
    assert text.startswith(f"at {line - def_line + 1}:"), text
    excerpt = text.split("\n")
    caret = next(i for i, row in enumerate(excerpt) if row.strip() == "^")
    assert excerpt[caret - 1] == SOURCE[line - 1], text


@pytest.mark.parametrize(
    "kernel, signature, target, message", COMPILER_CASES, ids=[c[0].__name__ for c in COMPILER_CASES]
)
def test_misuse_the_compiler_checks_is_reported_at_the_kernel_line(kernel, signature, target, message):
    text = frontend_ir(kernel, signature, stage="converted", target=target)
    with pytest.raises(TLXCompilationError) as info:
        pipeline.run(text, kernel=kernel.__name__, source_name=f"{kernel.__name__}.ttgir-converted.mlir")
    error = str(info.value)
    assert message in error, error
    assert f"{HERE}:{misuse_line(kernel)}:" in error, error
    assert "internal compiler error" not in error, error


def test_an_mbarrier_arrive_under_a_lane_branch_is_warned_at_its_line():
    """Triton may put a task-wide bar.sync before that arrive, which the other lanes never reach: a warning at
    the arrive's line that names `pred=`, and the kernel still compiles."""
    kernel = arrive_under_lane_branch
    text = frontend_ir(kernel, N, stage="converted", target=SM90)
    with pytest.warns(TLXWarning) as caught:
        pipeline.run(text, kernel=kernel.__name__, source_name=f"{kernel.__name__}.ttgir-converted.mlir")
    line = misuse_line(kernel, "# warned")
    messages = [str(w.message) for w in caught]
    assert any(
        f"{HERE}:{line}:" in m and "runs under a branch on tlx.thread_id" in m and "pred=" in m for m in messages
    ), messages


def test_every_case_is_a_distinct_kernel():
    cases = CASES + COMPILER_CASES
    assert len({c[0] for c in cases}) == len(cases)


@triton.jit
def helper_misuse(bufs):
    tlx.local_load(bufs)  # misuse


@triton.jit
def calls_a_helper(n):
    helper_misuse(tlx.local_alloc((64,), tl.float16, 2))


def test_misuse_inside_a_jit_helper_names_the_helper_line():
    with pytest.raises(CompilationError) as info:
        frontend_ir(calls_a_helper, N, stage="ttir")
    inner = info.value.__cause__
    assert isinstance(inner, CompilationError)
    assert f"{HERE}:{misuse_line(helper_misuse)}: tlx.local_load: `src` is a set of 2 buffers" in str(inner)


def test_thousands_of_mbarriers_compile():
    """16384 mbarriers (128 KB) fit sm_90's shared memory; their initialization is a loop, not 16384 ops."""
    text = frontend_ir(thousands_of_barriers_fit, N, stage="converted")
    lowered = pipeline.run(text, kernel="thousands_of_barriers_fit", source_name="barriers.mlir")
    assert lowered.count("ttng.init_barrier") == 1 and "scf.for" in lowered


@triton.jit
def buffer_carried_across_iterations(n):
    # (a buffer chosen in an if works: test_compat's CHOOSE_HALF; so does a view of one allocation carried by the
    # loop: test_compat's view_carried_by_a_loop; views of two allocations carried by the loop do not)
    first = tlx.local_alloc((64,), tl.float32, 1)
    second = tlx.local_alloc((64,), tl.float32, 1)
    chosen = first[0]
    for _ in range(n):
        tlx.local_store(chosen, tl.zeros((64,), tl.float32))  # misuse
        chosen = second[0]


@triton.jit
def remote_arrive_without_cluster(n):
    bars = tlx.alloc_barriers(1)
    tlx.barrier_arrive(bars[0], remote_cta_rank=1)  # misuse


@triton.jit
def multicast_outside_cluster(desc, n):
    buf = tlx.local_alloc((64, 64), tl.float16, 1)
    bars = tlx.alloc_barriers(1)
    tlx.barrier_expect_bytes(bars[0], 64 * 64 * 2)
    tlx.async_descriptor_load(desc, buf[0], [0, 0], bars[0], multicast_targets=[0, 2])  # misuse


@triton.jit
def remote_store_outside_cluster(n):
    buf = tlx.local_alloc((64,), tl.float32, 1)
    tlx.remote_shmem_store(buf[0], tl.zeros((64,), tl.float32), 4)  # misuse


@triton.jit
def cluster_barrier_before_tasks(n):
    tlx.cluster_barrier()  # misuse
    with tlx.async_tasks():
        with tlx.async_task("default"):
            tlx.cluster_barrier()
        with tlx.async_task(num_warps=4):
            tlx.cluster_barrier()


@triton.jit
def cluster_barrier_in_a_loop_beside_a_one_warp_task(n):
    with tlx.async_tasks():
        with tlx.async_task("default"):
            for _ in range(n):
                tlx.cluster_barrier()  # misuse
        with tlx.async_task(num_warps=4):
            for _ in range(n):
                tlx.cluster_barrier()
        with tlx.async_task(num_warps=1):
            for _ in range(n):
                tlx.cluster_barrier()


@triton.jit
def cluster_barrier_in_one_task_only(n):
    with tlx.async_tasks():
        with tlx.async_task("default"):
            tlx.cluster_barrier()  # misuse
        with tlx.async_task(num_warps=4):
            tlx.thread_id(0)


@pytest.mark.parametrize(
    "kernel, signature, options, message",
    [
        (remote_arrive_without_cluster, N, {}, "reaches another CTA's shared memory, but the kernel is compiled"),
        (
            multicast_outside_cluster,
            {"desc": "tensordesc<fp16[64, 64]>", "n": "i32"},
            {"ctas_per_cga": (2, 1, 1)},
            "multicast target 2 is outside the cluster of 2 CTAs (ranks 0..1)",
        ),
        (remote_store_outside_cluster, N, {"ctas_per_cga": (4, 1, 1)}, "remote CTA rank 4 is outside the cluster of 4"),
        (cluster_barrier_before_tasks, N, {"ctas_per_cga": (2, 1, 1)}, "outside the async tasks never completes"),
        (
            cluster_barrier_in_a_loop_beside_a_one_warp_task,
            N,
            {"ctas_per_cga": (2, 1, 1)},
            "rounds up to whole warp groups of 4: the 3 idle warps cannot pass barriers in a loop or branch",
        ),
        (
            cluster_barrier_in_one_task_only,
            N,
            {"ctas_per_cga": (2, 1, 1)},
            "but a task never calls tlx.cluster_barrier()",
        ),
        (buffer_carried_across_iterations, N, {}, "select the buffer where it is used (inside the loop body"),
    ],
    ids=lambda c: c.__name__ if hasattr(c, "__name__") else None,
)
def test_cluster_misuse_is_reported_at_the_kernel_line(kernel, signature, options, message):
    text = frontend_ir(kernel, signature, stage="converted", **options)
    with pytest.raises(TLXCompilationError) as info:
        pipeline.run(text, kernel=kernel.__name__, source_name=f"{kernel.__name__}.ttgir-converted.mlir")
    error = str(info.value)
    assert message in error and f"{HERE}:{misuse_line(kernel)}:" in error, error


@pytest.mark.parametrize(
    "kernel, options, message",
    [
        (dot_in_a_two_warp_kernel, {"num_warps": 2}, "wgmma runs on whole warp groups: the kernel (or task) needs"),
        (tlx_with_two_ctas, {"num_ctas": 2}, "TLX kernels run with num_ctas=1 (one CTA per program); this one is"),
    ],
    ids=["two_warps", "two_ctas"],
)
def test_launch_options_the_compiler_rejects_at_the_kernel_line(kernel, options, message):
    text = frontend_ir(kernel, N, stage="converted", **options)
    with pytest.raises(TLXCompilationError) as info:
        pipeline.run(text, kernel=kernel.__name__, source_name=f"{kernel.__name__}.ttgir-converted.mlir")
    error = str(info.value)
    assert message in error and f"{HERE}:{misuse_line(kernel)}:" in error, error


@triton.jit
def constructs_a_descriptor_pointer(n):
    slots = tlx.tensor_descriptor_ptr((64, 64), tl.float16, 2)  # misuse
    tlx.reinterpret_tensor_descriptor(slots[0], [64, 64], tl.float16)


def test_a_kernel_constructing_a_tlx_value_class_fails_at_the_line():
    """Found by tlx.testing.kernel_fuzz: the object reached an IR builder, which refused it (pybind11)."""
    with pytest.raises(CompilationError) as info:
        frontend_ir(constructs_a_descriptor_pointer, N, stage="ttir", target=SM90)
    text = str(info.value)
    line = misuse_line(constructs_a_descriptor_pointer)
    assert SOURCE[line - 1] in text
    assert "tlx.tensor_descriptor_ptr is what tlx ops return, not something a kernel constructs" in text, text
