"""Buffers and asynchronous copies: ``local_*``, TMA (``async_descriptor_*``, descriptors in slots of the
kernel's own), cp.async (``async_load*``)."""

from __future__ import annotations

import triton.language.core as tlc

from .builtin import builtin
from .semantic import TLXSemantic, _unwrap
from .types import async_token, buffered_tensor, mbarrier, storage_kind, tensor_descriptor_ptr

__all__ = [
    "async_descriptor_load",
    "async_descriptor_store",
    "async_descriptor_store_wait",
    "async_load",
    "async_load_commit_group",
    "async_load_wait_group",
    "fence_async_shared",
    "local_alloc",
    "local_load",
    "local_reinterpret",
    "local_slice",
    "local_store",
    "tmem_copy",
    "local_trans",
    "local_view",
    "subslice",
    "remote_view",
    "remote_shmem_store",
    "async_remote_shmem_copy",
    "async_remote_shmem_store",
    "fence",
    "local_gather",
    "local_reshape",
    "local_scatter",
    "async_descriptor_prefetch_tensor",
    "async_store",
    "storage_alias_spec",
    "allocate_tensor_descriptor",
    "make_tensor_descriptor",
    "reinterpret_tensor_descriptor",
]


@builtin
def local_alloc(
    shape,
    dtype,
    num,
    storage=storage_kind.smem,
    reuse=None,
    layout=None,
    _semantic=None,
    _generator=None,
) -> buffered_tensor:
    """Allocate ``num`` buffers of ``shape`` elements of ``dtype``.

    :param shape: tuple of compile-time ints, the shape of one buffer.
    :param dtype: element type (``tl.float16``, ``tl.bfloat16``, ``tl.float8e4nv``, ...).
    :param num: compile-time number of buffers (>= 1); index them with ``buf[i]``.
    :param storage: ``tlx.storage_kind.smem`` (shared memory), ``tmem`` (Blackwell
        tensor memory, 2-D) or ``smemCluster``.
    :param reuse: None, a ``tlx.storage_alias_spec`` (these buffers are a view of the spec's one
        allocation, placed by its ``set_buffer_overlap``), or another set of buffers from ``local_alloc``
        (a view of their allocation from its start, counted in these buffers, which must fit in it: bytes in
        shared memory, 32-bit columns in tensor memory).
    :param layout: None (TLX chooses the layout when lowering) or the text of a
        ``ttg`` shared-memory layout attribute.

    Hardware: no instruction; a static shared-memory (or tensor-memory)
    allocation of the kernel, lowered to ``ttg.local_alloc`` /
    ``ttng.tmem_alloc``.
    """
    return TLXSemantic(_semantic, _generator).local_alloc(shape, dtype, num, storage, reuse, layout)


@builtin
def storage_alias_spec(storage=storage_kind.smem, buffer_size_bytes=None, _semantic=None, _generator=None):
    """One allocation that several ``local_alloc(..., reuse=spec)`` buffer sets share, as equal peers.

    :param storage: ``tlx.storage_kind.smem`` or ``tmem`` (Blackwell tensor memory: buffer sets are measured
        in 32-bit columns of all 128 lanes, so P in fp16 takes half the columns of S in fp32).
    :param buffer_size_bytes: None (as large as its buffer sets need) or a compile-time size in bytes, which
        every placement must fit in; in tensor memory 4 bytes x 128 rows per column, x 64 rows when no buffer of
        the spec has more than 64 rows (the public API's count). Shared-memory buffers start at multiples of
        128 bytes.

    Place the buffer sets with ``spec.set_buffer_overlap(tlx.reuse_group(...))``; without it, they all start
    at the first byte (column). Hardware: no instruction; one ``ttg.local_alloc`` of bytes (``ttng.tmem_alloc``
    of columns), each buffer set a ``ttg.memdesc_reinterpret`` of it indexed at its computed offsets.
    """
    return TLXSemantic(_semantic, _generator).storage_alias_spec(storage, buffer_size_bytes)


@builtin
def local_view(local_allocated_buffers, buffer_idx, _semantic=None, _generator=None):
    """Select buffer (or mbarrier) ``buffer_idx`` of a set: the same as ``local_allocated_buffers[buffer_idx]``.

    A constant index is checked against the set's size here; a runtime index
    is an ``i32`` computed in the kernel. Hardware: address arithmetic only.
    """
    return TLXSemantic(_semantic, _generator).local_view(local_allocated_buffers, buffer_idx)


@builtin
def local_load(
    src,
    token=None,
    layout=None,
    relaxed=False,
    rematerialize_coordinates=False,
    rematerialize_coordinates_group=None,
    _semantic=None,
    _generator=None,
):
    """Load one buffer into a register tensor of the buffer's shape and type.

    ``token`` (from ``async_load``) is accepted and needs no IR: cp.async
    completion is tracked with ``async_load_wait_group``. ``layout``,
    ``relaxed`` and the rematerialization options are not supported yet.
    Hardware: ``ld.shared`` (or ``ldmatrix``) for shared memory,
    ``tcgen05.ld`` for tensor memory.
    """
    return TLXSemantic(_semantic, _generator).local_load(
        src, token, layout, relaxed, rematerialize_coordinates, rematerialize_coordinates_group
    )


@builtin
def local_store(dst, src, _semantic=None, _generator=None) -> None:
    """Store register tensor ``src`` into buffer ``dst``; shape and element type must match the buffer.

    Hardware: ``st.shared`` (or ``stmatrix``); ``tcgen05.st`` for tensor memory.
    """
    TLXSemantic(_semantic, _generator).local_store(dst, src)


@builtin
def tmem_copy(src, dst, _semantic=None, _generator=None) -> None:
    """Blackwell: start an asynchronous copy of shared-memory buffer ``src`` into tensor-memory buffer ``dst``.

    Hardware: ``tcgen05.cp`` (sm_100), no registers involved. The buffers have one shape and element type;
    Triton 3.6 copies 128-row buffers of 32-bit elements from a swizzled NVMMA layout (rows of at least 32
    bytes, not a transposed view). Like an MMA it completes asynchronously: a later ``tcgen05_commit`` (or the
    mbarriers of a later ``async_dot`` of this thread) arrives once it has.

    Block scales: into a ``tl.uint8`` tensor-memory buffer (rows x cols e8m0 scales, rows 128 or 256, one buffer
    per ``local_alloc``), ``src`` holds them in the cuBLAS block-scaling layout, e.g. ``[1, rows // 128,
    cols // 4, 2, 256]`` as a 5-D TMA box loads them (``tcgen05.cp ... .warpx4.32x128b``); the scales then feed
    ``async_dot_scaled``. The copy runs before a later MMA of this thread, but not necessarily after an earlier
    one: overwrite scales only once the MMA that read them has completed.
    """
    TLXSemantic(_semantic, _generator).tmem_copy(src, dst)


@builtin
def local_trans(input, dims=(1, 0), _semantic=None, _generator=None) -> buffered_tensor:
    """A view of one buffer with its dimensions permuted: dimension ``i`` of the view is ``dims[i]`` of ``input``.

    ``dims`` is a permutation of ``0..rank-1`` (compile-time ints); the default
    ``(1, 0)`` is the transpose of a 2-D buffer. No
    data moves: the view reads the same shared memory in another order (how
    wgmma consumes a K-major tile as an MN-major operand). Hardware: none;
    lowered to ``ttg.memdesc_trans``.
    """
    return TLXSemantic(_semantic, _generator).local_trans(input, dims)


@builtin
def local_slice(buffer, offset, shape, _semantic=None, _generator=None) -> buffered_tensor:
    """A view of the ``shape`` tile of one buffer that starts at ``offset`` (compile-time ints, one per dimension).

    The tile stays inside the buffer, and each offset is a multiple of the
    tile's size in its dimension (a tile never straddles two tiles of its own
    size; a dimension taken whole has offset 0). Split sizes are powers of
    two. Tensor memory is sliced along columns only. Hardware: address
    arithmetic; lowered to ``ttg.memdesc_subslice`` (``ttng.tmem_subslice``).
    """
    return TLXSemantic(_semantic, _generator).local_slice(buffer, offset, shape)


@builtin
def subslice(local_allocated_buffer, offset, size, _semantic=None, _generator=None) -> buffered_tensor:
    """The columns ``[offset, offset + size)`` of one buffer: slicing along the innermost dimension.

    As in Meta TLX (where it slices a 128xN tensor-memory accumulator):
    ``subslice(buf, offset, size)`` is ``local_slice(buf, [0, ..., 0, offset],
    [*buf.shape[:-1], size])``, with the same rules; it also takes shared-memory
    buffers here.
    """
    return TLXSemantic(_semantic, _generator).subslice(local_allocated_buffer, offset, size)


@builtin
def local_reinterpret(src, dtype, shape=None, layout=None, _semantic=None, _generator=None) -> buffered_tensor:
    """A view of the bytes of one buffer as ``shape`` elements of ``dtype`` (default shape: the buffer's).

    The byte size must stay the same (a 64x128 ``float16`` tile read as 64x64
    ``float32``). Hardware: none; lowered to ``ttg.memdesc_reinterpret``.
    ``layout`` (an explicit layout of the view) is not supported yet.
    """
    return TLXSemantic(_semantic, _generator).local_reinterpret(src, dtype, shape, layout)


@builtin
def async_descriptor_load(
    desc,
    result,
    offsets,
    barrier,
    pred=None,
    cache_modifier="",
    eviction_policy="",
    multicast_targets=(),
    two_ctas=False,
    _semantic=None,
    _generator=None,
) -> None:
    """TMA load of the block of ``desc`` at ``offsets`` into one shared-memory buffer.

    The bytes complete a phase of ``barrier`` (announce them first with
    ``barrier_expect_bytes``). The buffer must have the descriptor's block
    shape and element type; one ``i32`` offset per dimension. Hardware:
    ``cp.async.bulk.tensor.<n>d.shared::cluster.global.mbarrier::complete_tx::bytes``
    (sm_90+). With ``multicast_targets`` (ranks of CTAs of the cluster,
    this one included where it wants the block too), one CTA's load lands in
    the same buffer of every target and completes the same mbarrier in each
    (``.multicast::cluster``): each target announces the block's bytes on its
    own mbarrier. Needs a cluster launch (``ctas_per_cga``). With
    ``two_ctas=True`` (sm_100, a cluster of CTA pairs along x) the load
    completes on ``barrier`` of the pair's even CTA instead of this one's
    (``.cta_group::2``): both CTAs of a pair load their halves for a
    ``two_ctas`` ``async_dot``, and the even CTA announces the bytes of both.
    ``eviction_policy`` ``"evict_first"`` / ``"evict_last"`` adds an L2 cache
    hint (``.L2::cache_hint``); ``cache_modifier`` must stay ``""``.
    """
    TLXSemantic(_semantic, _generator).async_descriptor_load(
        desc, result, offsets, barrier, pred, cache_modifier, eviction_policy, multicast_targets, two_ctas
    )


@builtin
def async_descriptor_store(
    desc, source, offsets, eviction_policy="", store_reduce="", _semantic=None, _generator=None
) -> None:
    """TMA store of one shared-memory buffer to the block of ``desc`` at ``offsets``.

    Fence ordinary shared-memory writes of the buffer first
    (``fence_async_shared``). Hardware:
    ``cp.async.bulk.tensor.<n>d.global.shared::cta.bulk_group`` (sm_90+).
    ``store_reduce`` (``"add"``, ``"min"``, ``"max"``, ``"and"``, ``"or"``,
    ``"xor"``) combines each element atomically with the one in global memory
    instead (``cp.reduce.async.bulk.tensor``; add on int32/int64/uint64/
    float32/float16/bfloat16 blocks, min and max on integer and 16-bit float
    ones, the bitwise kinds on integer ones). ``eviction_policy``
    ``"evict_first"`` / ``"evict_last"`` adds an L2 cache hint
    (``.L2::cache_hint``).
    """
    TLXSemantic(_semantic, _generator).async_descriptor_store(desc, source, offsets, eviction_policy, store_reduce)


@builtin
def async_descriptor_store_wait(pendings, _semantic=None, _generator=None) -> None:
    """Wait until at most ``pendings`` TMA stores still read shared memory.

    Hardware: ``cp.async.bulk.wait_group.read <pendings>``.
    """
    TLXSemantic(_semantic, _generator).async_descriptor_store_wait(pendings)


@builtin
def fence_async_shared(_semantic=None, _generator=None) -> None:
    """Order this thread's shared-memory writes before later async-proxy (TMA, wgmma) reads.

    Hardware: ``fence.proxy.async.shared::cta``.
    """
    TLXSemantic(_semantic, _generator).fence_async_shared()


@builtin
def async_load(
    src,
    result,
    mask=None,
    other=None,
    cache_modifier="",
    eviction_policy="",
    is_volatile=False,
    bulk=False,
    bulk_size=None,
    barrier=None,
    _semantic=None,
    _generator=None,
) -> async_token:
    """Asynchronous copy of the elements ``src`` points to into one shared-memory buffer ``result``.

    ``src`` has the buffer's shape and points to its element type;
    ``mask``/``other`` work as in ``tl.load``. Close a group of copies with
    ``async_load_commit_group`` and wait with ``async_load_wait_group``.
    Returns an :class:`async_token`. Hardware: ``cp.async.ca/cg.shared.global``
    (sm_80+), ``cache_modifier`` ``".ca"`` or ``".cg"``.

    ``bulk=True`` (sm_90+): ``src`` is one pointer and ``bulk_size`` bytes
    (default: the whole buffer; a multiple of 16, both addresses 16-byte
    aligned) land in the 1-D buffer ``result`` by one
    ``cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes``,
    completing on ``barrier`` like a TMA load: announce the bytes with
    ``barrier_expect_bytes`` and wait with ``barrier_wait``. No ``mask`` or
    ``other``; the cache arguments are ignored, as the public TLX does.
    """
    return TLXSemantic(_semantic, _generator).async_load(
        src, result, mask, other, cache_modifier, eviction_policy, is_volatile, bulk, bulk_size, barrier
    )


@builtin
def async_load_commit_group(tokens=(), _semantic=None, _generator=None) -> None:
    """Close the current group of ``async_load`` copies. Hardware: ``cp.async.commit_group``."""
    TLXSemantic(_semantic, _generator).async_load_commit_group(tokens)


@builtin
def async_load_wait_group(pendings, tokens=(), _semantic=None, _generator=None) -> None:
    """Wait until at most ``pendings`` groups of copies are in flight. Hardware: ``cp.async.wait_group``."""
    TLXSemantic(_semantic, _generator).async_load_wait_group(pendings, tokens)


@builtin
def remote_view(local_allocated_buffer, remote_cta_rank, _semantic=None, _generator=None) -> mbarrier:
    """The mbarrier at the place of ``local_allocated_buffer`` in CTA ``remote_cta_rank`` of the cluster.

    Only ``barrier_arrive`` takes such a view (it then arrives remotely, as
    ``barrier_arrive(bar, remote_cta_rank=...)`` does). Hardware: none until
    used; then ``mapa.shared::cluster``.
    """
    return TLXSemantic(_semantic, _generator).remote_view(local_allocated_buffer, remote_cta_rank)


@builtin
def remote_shmem_store(dst, src, remote_cta_rank, _semantic=None, _generator=None) -> None:
    """Store tensor ``src`` into buffer ``dst`` of CTA ``remote_cta_rank`` of the cluster.

    ``dst`` is this CTA's buffer; the store goes to the same place in the
    other CTA. The buffer must be row-major and unswizzled (1-D buffers are).
    Nothing waits for the stores: a ``tlx.cluster_barrier()`` orders them
    before the other CTA reads. Hardware: ``mapa.shared::cluster`` and one
    ``st.shared::cluster`` per element (sm_90+, a cluster launch).
    """
    TLXSemantic(_semantic, _generator).remote_shmem_store(dst, src, remote_cta_rank)


@builtin
def async_remote_shmem_store(dst, src, remote_cta_rank, barrier, _semantic=None, _generator=None) -> None:
    """Store 1-D tensor ``src`` into buffer ``dst`` of CTA ``remote_cta_rank``, asynchronously.

    Each element is stored once and its bytes complete a phase of the
    mbarrier at the place of ``barrier`` in the receiving CTA (which announces
    ``src``'s bytes with ``barrier_expect_bytes``). 32- or 64-bit elements.
    Hardware: ``mapa.shared::cluster`` and one
    ``st.async.shared::cluster.mbarrier::complete_tx::bytes`` per element
    (sm_90+, a cluster launch).
    """
    TLXSemantic(_semantic, _generator).async_remote_shmem_store(dst, src, remote_cta_rank, barrier)


@builtin
def async_remote_shmem_copy(dst, src, remote_cta_rank, barrier, _semantic=None, _generator=None) -> None:
    """Copy this CTA's buffer ``src`` into buffer ``dst`` of CTA ``remote_cta_rank``, asynchronously.

    The bytes complete a phase of the mbarrier at the place of ``barrier`` in
    the receiving CTA (which announces them with ``barrier_expect_bytes``).
    Fence ordinary writes of ``src`` first (``fence_async_shared``); ``src``
    must stay unchanged until the receiver has seen the bytes. Hardware (one
    thread): ``cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes``
    with ``mapa``-mapped destination and mbarrier (sm_90+, a cluster launch).
    """
    TLXSemantic(_semantic, _generator).async_remote_shmem_copy(dst, src, remote_cta_rank, barrier)


@builtin
def fence(scope, _semantic=None, _generator=None) -> None:
    """Order this thread's memory accesses: ``scope`` is ``"gpu"``, ``"sys"`` or ``"async_shared"``.

    Hardware: ``fence.acq_rel.gpu`` (all threads of the GPU see them in
    order), ``fence.acq_rel.sys`` (the host too), ``fence.proxy.async.shared::cta``
    (as ``fence_async_shared``: shared-memory writes before TMA or wgmma reads).
    """
    TLXSemantic(_semantic, _generator).fence(scope)


@builtin
def async_descriptor_prefetch_tensor(desc, offsets, pred=None, eviction_policy="", _semantic=None, _generator=None):
    """Warm L2 with the block of ``desc`` at ``offsets``; nothing waits for it.

    Hardware (one thread): ``cp.async.bulk.prefetch.tensor.<n>d.L2.global``
    per TMA box of the block (sm_90+); ``eviction_policy`` ``"evict_first"`` /
    ``"evict_last"`` adds an L2 cache hint (``.L2::cache_hint``).
    """
    TLXSemantic(_semantic, _generator).async_descriptor_prefetch_tensor(desc, offsets, pred, eviction_policy)


@builtin
def async_store(dst_global_ptr, src_smem, size, _semantic=None, _generator=None) -> None:
    """Copy ``size`` bytes (a multiple of 16) of buffer ``src_smem`` to global ``dst_global_ptr``, asynchronously.

    ``async_descriptor_store_wait`` waits for it, as for TMA stores. Fence
    ordinary writes of the buffer first (``fence_async_shared``). Hardware
    (one thread): ``cp.async.bulk.global.shared::cta.bulk_group`` then
    ``cp.async.bulk.commit_group`` (sm_90+).
    """
    TLXSemantic(_semantic, _generator).async_store(dst_global_ptr, src_smem, size)


@builtin
def local_gather(src, indices, axis, token=None, _semantic=None, _generator=None):
    """Gather elements of buffer ``src`` along ``axis``: ``out[i, j] = src[indices[i, j], j]`` for ``axis=0``.

    As ``tl.gather`` on a shared buffer; the result has ``indices``' shape.
    The buffer is row-major and unswizzled (1-D buffers are). Hardware: a
    barrier of the task, then one ``ld.shared`` per element.
    """
    return TLXSemantic(_semantic, _generator).local_gather(src, indices, axis, token)


@builtin
def local_scatter(dst, src, indices, axis, token=None, _semantic=None, _generator=None) -> None:
    """Scatter tensor ``src`` into buffer ``dst`` along ``axis``: ``dst[indices[i, j], j] = src[i, j]`` for ``axis=0``.

    Where indices meet, one of the values lands. The buffer is row-major and
    unswizzled. Hardware: one ``st.shared`` per element, then a barrier of
    the task.
    """
    TLXSemantic(_semantic, _generator).local_scatter(dst, src, indices, axis, token)


@builtin
def local_reshape(src, shape, _semantic=None, _generator=None) -> buffered_tensor:
    """A view of one shared buffer with another ``shape`` (compile-time ints), the elements in place.

    The element count stays the same. An NVMMA buffer (TLX's default for 2-D
    and larger) keeps its innermost dimension and regroups the others; an
    unswizzled buffer takes any shape. Hardware: none; lowered to
    ``ttg.memdesc_reshape``.
    """
    return TLXSemantic(_semantic, _generator).local_reshape(src, shape)


@builtin
def allocate_tensor_descriptor(num, _semantic=None, _generator=None) -> tensor_descriptor_ptr:
    """Global scratch for ``num`` (a compile-time int) TMA descriptors of 128 bytes, 128-byte aligned: the
    program's own slots, ``ptrs[i]`` the ``i``-th.

    Hardware: none; the launcher allocates the scratch per program through ``triton.set_allocator``
    (``ttg.global_scratch_alloc``).
    """
    return TLXSemantic(_semantic, _generator).allocate_tensor_descriptor(num)


@builtin
def make_tensor_descriptor(
    desc_ptr, base, shape, strides, block_shape, padding_option="zero", _semantic=None, _generator=None
) -> tlc.tensor_descriptor:
    """A TMA descriptor made on the device for the ``shape`` tensor at ``base`` (``strides`` in elements, the
    last one 1), copied in blocks of ``block_shape``; ``padding_option`` ``"zero"`` or ``"nan"`` fills what
    lies outside the tensor.

    ``desc_ptr``: a slot of ``tlx.allocate_tensor_descriptor`` (``ptrs[i]``), which receives the descriptor
    (read it anywhere later with ``tlx.reinterpret_tensor_descriptor``); ``None``: Triton's
    ``tl.make_tensor_descriptor``, in a scratch slot of its own (set ``triton.set_allocator`` either way).
    The TLX compiler gives the descriptor the layout of the buffers its TMA copies fill.

    Hardware: ``tensormap.replace`` into shared memory, ``tensormap.cp_fenceproxy`` to the slot,
    ``fence.proxy.tensormap::generic.acquire``.
    """
    tlx_semantic = TLXSemantic(_semantic, _generator)
    if _unwrap(desc_ptr) is None:
        return tlx_semantic.stock_tensor_descriptor(base, shape, strides, block_shape, padding_option)
    return tlx_semantic.make_tensor_descriptor(desc_ptr, base, shape, strides, block_shape, padding_option)


@builtin
def reinterpret_tensor_descriptor(desc_ptr, block_shape, dtype, _semantic=None, _generator=None):
    """The TMA descriptor in slot ``desc_ptr`` (written by ``tlx.make_tensor_descriptor(desc_ptr=...)``), for
    copies of ``block_shape`` blocks of ``dtype``: usable with the TMA ops and ``desc.load`` / ``desc.store``.

    Hardware: none (the slot's address is the descriptor's).
    """
    return TLXSemantic(_semantic, _generator).reinterpret_tensor_descriptor(desc_ptr, block_shape, dtype)
