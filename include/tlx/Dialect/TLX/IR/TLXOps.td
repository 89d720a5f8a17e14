//===- TLXOps.td - TLX operations --------------------------*- tablegen -*-===//

#ifndef TLX_OPS_TD
#define TLX_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "tlx/Dialect/Triton/IR/TritonEnums.td"
include "tlx/Dialect/Triton/IR/TritonTypes.td"
include "tlx/Dialect/TLX/IR/TLXDialect.td"
include "tlx/Dialect/TLX/IR/TLXTypes.td"

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

def TLX_LocalAllocOp : TLX_Op<"local_alloc",
    [TLX_TaskSynchronized, MemoryEffects<[MemAlloc<DefaultResource>]>]> {
  let summary = "allocate N buffers in shared or tensor memory";
  let description = [{
    `tlx.local_alloc(shape, dtype, num, storage)` in Python. The buffers live
    for the whole kernel; their memory layout is chosen when TLX lowers to
    TritonGPU unless the user gave one. Tensor memory (`tmem`, sm_100) holds
    2-D buffers of 64 or 128 rows (lanes) in at most 512 32-bit columns
    (`tcgen05.alloc`); its layout is a `#ttng.tensor_memory_encoding`.

    With `reuse` (`local_alloc(..., reuse=spec)`), the buffers are a view of
    a `tlx.storage_alias_spec`'s allocation, placed by its
    `tlx.set_buffer_overlap`; `reuse=<buffers>` makes them a view of that
    other allocation, which they must fit in (bytes in shared memory, 32-bit
    columns in tensor memory).

    ```mlir
    %a = tlx.local_alloc : !tlx.buffers<3, 128x64xf16, smem>
    %b = tlx.local_alloc reuse(%s : !tlx.storage_alias_spec<smem>) : !tlx.buffers<2, 64x64xf16, smem>
    ```
  }];
  let arguments = (ins Optional<AnyTypeOf<[TLX_StorageAliasSpecType,
                                           TLX_BuffersType]>>:$reuse,
                       OptionalAttr<AnyAttr>:$layout);
  let results = (outs TLX_BuffersType:$result);
  let assemblyFormat = [{
    (`reuse` `(` $reuse^ `:` qualified(type($reuse)) `)`)? attr-dict `:`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TLX_StorageAliasSpecOp : TLX_Op<"storage_alias_spec",
    [MemoryEffects<[MemAlloc<DefaultResource>]>]> {
  let summary = "one allocation for buffer sets that share storage";
  let description = [{
    `tlx.storage_alias_spec(storage, buffer_size_bytes)` in Python. Every
    `tlx.local_alloc` whose `reuse` is this spec is a view of one allocation
    (shared memory: one `ttg.local_alloc` of bytes; tensor memory: one
    `ttng.tmem_alloc` of 32-bit columns; each buffer set a
    `ttg.memdesc_reinterpret` of it). Without `tlx.set_buffer_overlap` all
    of them start at its first byte (column); with it, its reuse-group tree
    places them. Unsized, the allocation is as large as its users need; with
    `buffer_size_bytes` (in tensor memory 512 bytes per column of 128 lanes)
    it has that size, and users that need more are an error.

    ```mlir
    %s = tlx.storage_alias_spec {buffer_size_bytes = 32768 : i32} : !tlx.storage_alias_spec<smem>
    ```
  }];
  let arguments = (ins
      OptionalAttr<ConfinedAttr<I32Attr, [IntPositive]>>:$buffer_size_bytes);
  let results = (outs TLX_StorageAliasSpecType:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def TLX_ReuseGroupOp : TLX_Op<"reuse_group", [Pure]> {
  let summary = "a node of a storage alias spec's overlap tree";
  let description = [{
    `tlx.reuse_group(*elements, group_type, group_size)` in Python: buffer
    sets of one `tlx.storage_alias_spec` and nested groups. `shared`: the
    elements overlap, at the same buffer index; `distinct`: side by side,
    never overlapping. `group_size` K: K consecutive buffers of an element
    make one buffer index of the group (subtiling).

    ```mlir
    %g = tlx.reuse_group(%a, %b) distinct group_size = 1 : !tlx.buffers<2, 64x64xf16, smem>, !tlx.buffers<2, 64xf32, smem>
    ```
  }];
  let arguments = (ins Variadic<AnyTypeOf<[TLX_BuffersType,
                                           TLX_ReuseGroupType]>>:$elements,
                       TLX_ReuseGroupKind:$group_kind,
                       ConfinedAttr<I32Attr, [IntPositive]>:$group_size);
  let results = (outs TLX_ReuseGroupType:$result);
  let assemblyFormat = [{
    `(` $elements `)` $group_kind `group_size` `=` $group_size attr-dict `:`
    qualified(type($elements))
  }];
  let hasVerifier = 1;
}

def TLX_SetBufferOverlapOp : TLX_Op<"set_buffer_overlap"> {
  let summary = "place the buffer sets of a storage alias spec";
  let description = [{
    `spec.set_buffer_overlap(reuse_group(...))` in Python: the group tree
    that says which buffer sets of `spec` overlap and which lie side by
    side. Every buffer set of the spec appears in it once, and all have the
    same number of buffer indices (their count divided by the group sizes
    above them). Once per spec.

    ```mlir
    tlx.set_buffer_overlap %s, %g : !tlx.storage_alias_spec<smem>
    ```
  }];
  let arguments = (ins TLX_StorageAliasSpecType:$spec,
                       TLX_ReuseGroupType:$group);
  let assemblyFormat = [{
    $spec `,` $group attr-dict `:` qualified(type($spec))
  }];
  let hasVerifier = 1;
}

def TLX_LocalViewOp : TLX_Op<"local_view",
    [Pure, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "select one buffer or mbarrier of a set";
  let description = [{
    `tlx.local_view(bufs, i)` or `bufs[i]` in Python (also stage `i` of a
    set of CLC responses). The index is an i32; when it is a constant,
    `tlx-check-static-bounds` proves it in range.

    ```mlir
    %b = tlx.local_view %a[%i] : !tlx.buffers<3, 128x64xf16, smem>
    %m = tlx.local_view %bars[%c0] : !tlx.mbarriers<2>
    ```
  }];
  let arguments = (ins TLX_BufferSet:$source, I32:$index);
  let results = (outs AnyTypeOf<[TLX_BufferType, TLX_MBarrierType,
                                 TLX_CLCResponseType]>:$result);
  let assemblyFormat = [{
    $source `[` $index `]` attr-dict `:` qualified(type($source))
  }];
}

def TLX_LocalTransOp : TLX_Op<"local_trans", [Pure]> {
  let summary = "a view of a buffer with its dimensions permuted";
  let description = [{
    `tlx.local_trans(buf, dims)` in Python. No data moves: the view reads
    the same bytes in another order (how wgmma/tcgen05 consume a K-major
    operand as MN-major).
  }];
  let arguments = (ins TLX_BufferType:$source, DenseI32ArrayAttr:$order);
  let results = (outs TLX_BufferType:$result);
  let assemblyFormat = [{
    $source `,` $order attr-dict `:` qualified(type($source)) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TLX_LocalSliceOp : TLX_Op<"local_slice", [Pure]> {
  let summary = "a view of a tile of a buffer at static offsets";
  let description = [{
    `tlx.local_slice(buf, offsets, shape)` / `tlx.subslice` in Python. Each
    offset is a multiple of the tile's size in its dimension, so the view
    never straddles the swizzle pattern of the buffer.
  }];
  let arguments = (ins TLX_BufferType:$source, DenseI32ArrayAttr:$offsets);
  let results = (outs TLX_BufferType:$result);
  let assemblyFormat = [{
    $source `,` $offsets attr-dict `:` qualified(type($source)) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TLX_LocalReinterpretOp : TLX_Op<"local_reinterpret", [Pure]> {
  let summary = "a view of a buffer's bytes with another element type or shape";
  let description = [{
    `tlx.local_reinterpret(buf, dtype, shape)` in Python: the same bytes,
    typed anew (for example two f16 tiles read as one f32 tile).
  }];
  let arguments = (ins TLX_BufferType:$source);
  let results = (outs TLX_BufferType:$result);
  let assemblyFormat = [{
    $source attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TLX_LocalReshapeOp : TLX_Op<"local_reshape", [Pure]> {
  let summary = "a view of a buffer with another shape, the elements in place";
  let description = [{
    `tlx.local_reshape(src, shape)` in Python: the same elements in the same
    row-major order, seen with another shape (`ttg.memdesc_reshape`). An
    NVMMA buffer keeps its innermost dimension (its rows); an unswizzled one
    takes any shape.
  }];
  let arguments = (ins TLX_BufferType:$source);
  let results = (outs TLX_BufferType:$result);
  let assemblyFormat = [{
    $source attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// MBarriers
//===----------------------------------------------------------------------===//

def TLX_AllocBarriersOp : TLX_Op<"alloc_barriers",
    [TLX_TaskSynchronized, MemoryEffects<[MemAlloc<DefaultResource>]>]> {
  let summary = "allocate and initialize N mbarriers";
  let description = [{
    `tlx.alloc_barriers(num_barriers, arrive_count)` in Python. Each mbarrier
    is initialized (`mbarrier.init.shared::cta.b64`) to expect
    `arrive_count` arrivals per phase (at most 2^20 - 1, the mbarrier's
    count), and the initialization is fenced (`fence.mbarrier_init`) before
    any other use.

    ```mlir
    %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<2>
    ```
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntPositive,
                                              IntMaxValue<1048575>]>:$arrive_count);
  let results = (outs TLX_MBarriersType:$result);
  let assemblyFormat = [{
    `arrive_count` `=` $arrive_count attr-dict `:` qualified(type($result))
  }];
}

def TLX_BarrierExpectBytesOp : TLX_Op<"barrier_expect_bytes", [TLX_TaskSynchronized]> {
  let summary = "announce the bytes asynchronous copies will deliver";
  let description = [{
    `tlx.barrier_expect_bytes(bar, size, pred)` in Python: one thread
    performs `mbarrier.arrive.expect_tx.shared::cta.b64` with `bytes`
    transaction bytes. An mbarrier phase counts at most 2^20 - 1 bytes.

    ```mlir
    tlx.barrier_expect_bytes %m, 16384 : !tlx.mbarrier
    ```
  }];
  let arguments = (ins TLX_MBarrierType:$barrier,
                       ConfinedAttr<I32Attr, [IntPositive,
                                              IntMaxValue<1048575>]>:$bytes,
                       Optional<I1>:$pred);
  let assemblyFormat = [{
    $barrier `,` $bytes (`,` $pred^)? attr-dict `:` qualified(type($barrier))
  }];
}

def TLX_BarrierWaitOp : TLX_Op<"barrier_wait", [TLX_TaskSynchronized]> {
  let summary = "wait until an mbarrier completes the given phase";
  let description = [{
    `tlx.barrier_wait(bar, phase, pred)` in Python: a loop on
    `mbarrier.try_wait.parity.shared::cta.b64` with parity `phase` (0 or 1).

    ```mlir
    tlx.barrier_wait %m, %phase : !tlx.mbarrier
    ```
  }];
  let arguments = (ins TLX_MBarrierType:$barrier, I32:$phase,
                       Optional<I1>:$pred);
  let assemblyFormat = [{
    $barrier `,` $phase (`,` $pred^)? attr-dict `:` qualified(type($barrier))
  }];
}

def TLX_BarrierArriveOp : TLX_Op<"barrier_arrive", [TLX_TaskSynchronized, AttrSizedOperandSegments]> {
  let summary = "arrive on an mbarrier, this CTA's or another's of the cluster";
  let description = [{
    `tlx.barrier_arrive(bar, arrive_count, remote_cta_rank, pred)` in Python:
    one thread of the task arrives, counting `count` arrivals (at most
    2^20 - 1), with
    `mbarrier.arrive.shared::cta.b64`; with `remoteCTARank`, on the mbarrier
    at the same place in that CTA of the cluster (`mapa` then
    `mbarrier.arrive.shared::cluster.b64`, release at CTA scope). With
    `perThread` (an mbarrier of `tlx.alloc_warp_barrier`) every thread
    arrives, with no leader and no synchronization before, on this CTA's
    mbarrier or, with `remoteCTARank`, on the peer's.

    ```mlir
    tlx.barrier_arrive %m, 1 : !tlx.mbarrier
    tlx.barrier_arrive %m, 1 remote %rank, %p : !tlx.mbarrier
    tlx.barrier_arrive %m, 1 per_thread : !tlx.mbarrier
    tlx.barrier_arrive %m, 1 remote %rank per_thread : !tlx.mbarrier
    ```
  }];
  let arguments = (ins TLX_MBarrierType:$barrier,
                       ConfinedAttr<I32Attr, [IntPositive,
                                              IntMaxValue<1048575>]>:$count,
                       Optional<I32>:$remoteCTARank, Optional<I1>:$pred,
                       UnitAttr:$perThread);
  let assemblyFormat = [{
    $barrier `,` $count (`remote` $remoteCTARank^)? (`,` $pred^)?
    (`per_thread` $perThread^)? attr-dict `:` qualified(type($barrier))
  }];
}

//===----------------------------------------------------------------------===//
// Registers <-> buffers
//===----------------------------------------------------------------------===//

def TLX_LocalLoadOp : TLX_Op<"local_load", [TLX_TaskSynchronized]> {
  let summary = "load a shared- or tensor-memory buffer into registers";
  let description = [{
    `tlx.local_load(buf)` in Python: `ld.shared` (or `ldmatrix`) in the
    layout of the result tensor; from tensor memory (sm_100) `tcgen05.ld`
    in the register layout tcgen05.ld needs, then converted to the result's.
  }];
  let arguments = (ins TLX_BufferType:$buffer);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $buffer attr-dict `:` qualified(type($buffer)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TLX_LocalStoreOp : TLX_Op<"local_store", [TLX_TaskSynchronized]> {
  let summary = "store registers into a shared- or tensor-memory buffer";
  let description = [{
    `tlx.local_store(buf, value)` in Python: `st.shared` (or `stmatrix`);
    into tensor memory (sm_100) `tcgen05.st`.
  }];
  let arguments = (ins TT_Tensor:$value, TLX_BufferType:$buffer);
  let assemblyFormat = [{
    $value `,` $buffer attr-dict `:` type($value) `->` qualified(type($buffer))
  }];
  let hasVerifier = 1;
}

def TLX_LocalGatherOp : TLX_Op<"local_gather", [TLX_TaskSynchronized]> {
  let summary = "gather elements of a shared buffer along an axis";
  let description = [{
    `tlx.local_gather(src, indices, axis)` in Python: `result[i, j, ...]` is
    the buffer's element at the same position except `indices[i, j, ...]`
    along `axis` (as `tl.gather`). One `ld.shared` per element from a
    row-major, unswizzled buffer, after a barrier of the task (so earlier
    stores to the buffer are seen).
  }];
  let arguments = (ins TLX_BufferType:$buffer, RankedTensorOf<[I32]>:$indices,
                       I32Attr:$axis);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = [{
    $buffer `[` $indices `]` `axis` `=` $axis attr-dict `:`
    qualified(type($buffer)) `,` type($indices) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TLX_LocalScatterOp : TLX_Op<"local_scatter", [TLX_TaskSynchronized]> {
  let summary = "scatter a tensor into a shared buffer along an axis";
  let description = [{
    `tlx.local_scatter(dst, src, indices, axis)` in Python: the inverse of
    `local_gather`, `buffer[..., indices[i, j, ...], ...] = value[i, j, ...]`
    (elements that meet at one place: any one wins). One `st.shared` per
    element, then a barrier of the task.
  }];
  let arguments = (ins TLX_BufferType:$buffer, TT_Tensor:$value,
                       RankedTensorOf<[I32]>:$indices, I32Attr:$axis);
  let assemblyFormat = [{
    $value `,` $buffer `[` $indices `]` `axis` `=` $axis attr-dict `:`
    type($value) `,` qualified(type($buffer)) `,` type($indices)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Named barriers
//===----------------------------------------------------------------------===//

def TLX_NamedBarrierWaitOp : TLX_Op<"named_barrier_wait"> {
  let summary = "wait at hardware barrier `id` for `num_threads` threads";
  let description = [{
    `tlx.named_barrier_wait(bar_id, num_threads)` in Python:
    `bar.sync id, num_threads`. Ids 0..15; thread counts a multiple of 32
    (`tlx-check-static-bounds` checks constant ones).
  }];
  let arguments = (ins I32:$id, I32:$numThreads);
  let assemblyFormat = "$id `,` $numThreads attr-dict";
}

def TLX_NamedBarrierArriveOp : TLX_Op<"named_barrier_arrive"> {
  let summary = "arrive at hardware barrier `id` without waiting";
  let description = [{
    `tlx.named_barrier_arrive(bar_id, num_threads)` in Python:
    `bar.arrive id, num_threads`.
  }];
  let arguments = (ins I32:$id, I32:$numThreads);
  let assemblyFormat = "$id `,` $numThreads attr-dict";
}

//===----------------------------------------------------------------------===//
// TMA
//===----------------------------------------------------------------------===//

def TLX_AsyncDescriptorLoadOp : TLX_Op<"async_descriptor_load",
    [TLX_TaskSynchronized, AttrSizedOperandSegments]> {
  let summary = "TMA load of one block into a buffer, completing on an mbarrier";
  let description = [{
    `tlx.async_descriptor_load(desc, buf, offsets, barrier, pred,
    eviction_policy=, multicast_targets=, two_ctas=)` in Python:
    `cp.async.bulk.tensor.Nd.shared::cluster.global.mbarrier::complete_tx::bytes`.
    The barrier's phase completes once the block's bytes have landed (the
    kernel announces them with `tlx.barrier_expect_bytes`). With
    `multicastTargets` (CTA ranks of the cluster), one load writes the block
    into the same buffer of each of those CTAs and completes the same
    mbarrier in each (`.multicast::cluster`). With `twoCTAs` (Blackwell, a
    cluster of CTA pairs), the load completes on the mbarrier of the pair's
    even CTA instead of its own (`.cta_group::2`): both CTAs of a pair feed
    the one barrier a `cta_group::2` MMA waits on, and the even CTA expects
    the bytes of both. `evict` `evict_first` / `evict_last` gives the load an
    L2 cache hint (`.L2::cache_hint` with a `createpolicy.fractional` policy).
  }];
  let arguments = (ins
    TT_TensorDesc:$desc, Variadic<I32>:$offsets, TLX_BufferType:$buffer,
    TLX_MBarrierType:$barrier, Optional<I1>:$pred,
    Variadic<I32>:$multicastTargets,
    DefaultValuedAttr<TT_CacheModifierAttr, "::mlir::triton::CacheModifier::NONE">:$cache,
    DefaultValuedAttr<TT_EvictionPolicyAttr, "::mlir::triton::EvictionPolicy::NORMAL">:$evict,
    UnitAttr:$twoCTAs);
  let assemblyFormat = [{
    $desc `[` $offsets `]` `,` $buffer `,` $barrier (`,` $pred^)?
    (`multicast` `[` $multicastTargets^ `]`)? (`two_ctas` $twoCTAs^)? attr-dict
    `:` qualified(type($desc)) `,` qualified(type($buffer))
  }];
  let hasVerifier = 1;
}

def TLX_AsyncDescriptorStoreOp : TLX_Op<"async_descriptor_store", [TLX_TaskSynchronized]> {
  let summary = "TMA store (or reduction) of a buffer to one block";
  let description = [{
    `tlx.async_descriptor_store(desc, buf, offsets, eviction_policy=,
    store_reduce=)` in Python:
    `cp.async.bulk.tensor.Nd.global.shared::cta.bulk_group`. Writes to the
    buffer by ordinary stores must be fenced first (`tlx.fence_async_shared`).
    With `reduce`, each element is combined atomically with the one in
    global memory instead of replacing it
    (`cp.reduce.async.bulk.tensor.Nd.global.shared::cta.<kind>.bulk_group`).
    `evict` `evict_first` / `evict_last` gives the writes an L2 cache hint
    (`.L2::cache_hint` with a `createpolicy.fractional` policy).

    ```mlir
    tlx.async_descriptor_store %desc[%x, %y], %buf reduce add {evict = 2 : i32}
        : !tt.tensordesc<tensor<64x64xf32>>, !tlx.buffer<64x64xf32, smem>
    ```
  }];
  let arguments = (ins TT_TensorDesc:$desc, Variadic<I32>:$offsets,
                       TLX_BufferType:$buffer,
                       OptionalAttr<TT_DescriptorReduceKindAttr>:$reduce,
                       DefaultValuedAttr<TT_EvictionPolicyAttr, "::mlir::triton::EvictionPolicy::NORMAL">:$evict);
  let assemblyFormat = [{
    $desc `[` $offsets `]` `,` $buffer (`reduce` $reduce^)? attr-dict `:`
    qualified(type($desc)) `,` qualified(type($buffer))
  }];
  let hasVerifier = 1;
}

def TLX_AsyncDescriptorStoreWaitOp : TLX_Op<"async_descriptor_store_wait"> {
  let summary = "wait until at most `pendings` TMA stores still read shared memory";
  let description = [{
    `tlx.async_descriptor_store_wait(pendings)`: `cp.async.bulk.wait_group.read`.
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntNonNegative]>:$pendings);
  let assemblyFormat = "$pendings attr-dict";
}

def TLX_FenceAsyncSharedOp : TLX_Op<"fence_async_shared"> {
  let summary = "order shared-memory writes before async-proxy reads";
  let description = [{
    `tlx.fence_async_shared()`: `fence.proxy.async.shared::cta`.
  }];
  let assemblyFormat = "attr-dict";
}

def TLX_FenceOp : TLX_Op<"fence"> {
  let summary = "order this thread's memory accesses at GPU or system scope";
  let description = [{
    `tlx.fence("gpu")` / `tlx.fence("sys")` in Python: `fence.acq_rel.gpu` /
    `fence.acq_rel.sys`. (`tlx.fence("async_shared")` is
    `tlx.fence_async_shared`.)

    ```mlir
    tlx.fence gpu
    ```
  }];
  let arguments = (ins TLX_FenceScopeAttr:$scope);
  let assemblyFormat = "$scope attr-dict";
}

def TLX_AsyncDescriptorPrefetchTensorOp
    : TLX_Op<"async_descriptor_prefetch_tensor", [AttrSizedOperandSegments]> {
  let summary = "prefetch one block of a tensor descriptor into L2";
  let description = [{
    `tlx.async_descriptor_prefetch_tensor(desc, offsets, pred,
    eviction_policy=)` in Python: one thread issues
    `cp.async.bulk.prefetch.tensor.Nd.L2.global` for each TMA box of the
    block, with an L2 cache hint (`.L2::cache_hint`) when `evict` is
    `evict_first` or `evict_last`. Nothing waits for it; it only warms L2.
  }];
  let arguments = (ins TT_TensorDesc:$desc, Variadic<I32>:$offsets,
                       Optional<I1>:$pred,
                       DefaultValuedAttr<TT_EvictionPolicyAttr, "::mlir::triton::EvictionPolicy::NORMAL">:$evict);
  let assemblyFormat = [{
    $desc `[` $offsets `]` (`,` $pred^)? attr-dict `:` qualified(type($desc))
  }];
  let hasVerifier = 1;
}

def TLX_AsyncStoreOp : TLX_Op<"async_store", [TLX_TaskSynchronized]> {
  let summary = "bulk copy of shared memory to global memory";
  let description = [{
    `tlx.async_store(dst_global_ptr, src_smem, size)` in Python: one thread
    issues `cp.async.bulk.global.shared::cta.bulk_group` of `size` bytes (a
    multiple of 16) from the buffer to the pointer, then
    `cp.async.bulk.commit_group`; `tlx.async_descriptor_store_wait` waits
    for it. Fence ordinary writes of the buffer first
    (`tlx.fence_async_shared`).
  }];
  let arguments = (ins TT_Ptr:$destination, TLX_BufferType:$source,
                       I32:$size);
  let assemblyFormat = [{
    $source `to` $destination `,` $size attr-dict `:`
    qualified(type($source)) `->` qualified(type($destination))
  }];
  let hasVerifier = 1;
}

def TLX_AsyncBulkLoadOp : TLX_Op<"async_bulk_load", [TLX_TaskSynchronized]> {
  let summary = "bulk copy of global memory into a buffer, completing on an mbarrier";
  let description = [{
    `tlx.async_load(src_ptr, buf, bulk=True, bulk_size=, barrier=)` in
    Python: one thread issues
    `cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes` of
    `size` bytes (a multiple of 16, at most the buffer's; both addresses
    16-byte aligned) from the pointer into the 1-D buffer. Like a TMA load,
    it completes transaction bytes on the mbarrier: the kernel announces them
    with `tlx.barrier_expect_bytes` and waits with `tlx.barrier_wait`.

    ```mlir
    tlx.async_bulk_load %ptr to %buf, %size, %bar
        : !tt.ptr<f32> -> !tlx.buffer<256xf32, smem>
    ```
  }];
  let arguments = (ins TT_Ptr:$source, TLX_BufferType:$buffer, I32:$size,
                       TLX_MBarrierType:$barrier);
  let assemblyFormat = [{
    $source `to` $buffer `,` $size `,` $barrier attr-dict `:`
    qualified(type($source)) `->` qualified(type($buffer))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// TMA descriptors in slots of the kernel's own
//===----------------------------------------------------------------------===//

def TLX_AllocateTensorDescriptorOp : TLX_Op<"allocate_tensor_descriptor",
    [MemoryEffects<[MemAlloc<TT_GlobalMemory>]>]> {
  let summary = "global scratch for `num` 128-byte TMA descriptors";
  let description = [{
    `tlx.allocate_tensor_descriptor(num)` in Python: `num` slots of 128 bytes,
    128-byte aligned, in the program's own global scratch
    (`ttg.global_scratch_alloc`; the launcher allocates it per program
    through `triton.set_allocator`). Slot `i` is the pointer plus `128 * i`
    (`desc_ptrs[i]`, a `tt.addptr`); `tlx.make_tensor_descriptor` fills a
    slot and `tlx.reinterpret_tensor_descriptor` reads one as a descriptor.

    ```mlir
    %slots = tlx.allocate_tensor_descriptor {num = 2 : i32} : !tt.ptr<i8>
    ```
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntPositive]>:$num);
  let results = (outs TT_Ptr:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def TLX_MakeTensorDescriptorOp : TLX_Op<"make_tensor_descriptor", [
    AttrSizedOperandSegments,
    MemoryEffects<[MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>]> {
  let summary = "fill a descriptor slot with the TMA descriptor of a tensor";
  let description = [{
    `tlx.make_tensor_descriptor(desc_ptr=slot, base, shape, strides,
    block_shape, padding_option)` in Python: the TMA descriptor of the
    row-major `shape` tensor at `base` (`strides` in elements, the last 1),
    copied in blocks of `blockShape`, is written into the 128-byte slot
    `descPtr` (`tensormap.replace` in shared memory, then
    `tensormap.cp_fenceproxy` to the slot) and acquired for TMA
    (`fence.proxy.tensormap::generic.acquire`). `layout` is the shared
    layout of the buffers the descriptor fills (its swizzle), chosen by
    `tlx-assign-layouts` from the descriptors read from the same slots.

    ```mlir
    tlx.make_tensor_descriptor %slot, %a, [%m, %k], [%sk, %c1] {blockShape = array<i32: 64, 64>, padding = 1 : i32} : !tt.ptr<i8>, !tt.ptr<f16>
    ```
  }];
  let arguments = (ins
    TT_Ptr:$descPtr, TT_Ptr:$base, Variadic<I32>:$shape, Variadic<I64>:$strides,
    DenseI32ArrayAttr:$blockShape,
    DefaultValuedAttr<TT_PaddingOptionAttr, "::mlir::triton::PaddingOption::PAD_ZERO">:$padding,
    OptionalAttr<AnyAttr>:$layout);
  let assemblyFormat = [{
    $descPtr `,` $base `,` `[` $shape `]` `,` `[` $strides `]` attr-dict `:`
    qualified(type($descPtr)) `,` qualified(type($base))
  }];
  let hasVerifier = 1;
}

def TLX_ReinterpretTensorDescriptorOp
    : TLX_Op<"reinterpret_tensor_descriptor", [Pure]> {
  let summary = "the TMA descriptor held by a descriptor slot";
  let description = [{
    `tlx.reinterpret_tensor_descriptor(desc_ptr=slot, block_shape, dtype)` in
    Python: the descriptor a `tlx.make_tensor_descriptor` wrote into the
    slot, for TMA copies of `block_shape` blocks of `dtype`
    (`ttng.reinterpret_tensor_descriptor`). Its block takes the layout of the
    buffers it copies, like any descriptor.

    ```mlir
    %d = tlx.reinterpret_tensor_descriptor %slot : !tt.ptr<i8> to !tt.tensordesc<tensor<64x64xf16>>
    ```
  }];
  let arguments = (ins TT_Ptr:$descPtr);
  let results = (outs TT_TensorDesc:$result);
  let assemblyFormat = [{
    $descPtr attr-dict `:` qualified(type($descPtr)) `to` qualified(type($result))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// cp.async
//===----------------------------------------------------------------------===//

def TLX_AsyncLoadOp : TLX_Op<"async_load", [TLX_TaskSynchronized, AttrSizedOperandSegments,
    TypesMatchWith<"mask is i1 of the shape of src", "src", "mask",
                   "::mlir::triton::getI1SameShape($_self)",
                   "($_op.getOperands().size() <= 2) || std::equal_to<>()">,
    TypesMatchWith<"other matches the pointee of src", "src", "other",
                   "::mlir::triton::getPointeeType($_self)",
                   "($_op.getOperands().size() <= 3) || std::equal_to<>()">]> {
  let summary = "cp.async copies of pointed-to elements into a buffer";
  let description = [{
    `tlx.async_load(src_ptrs, buf, mask, other)` in Python: `cp.async.ca/cg`
    per thread; commit with `tlx.async_load_commit_group()` and wait with
    `tlx.async_load_wait_group(n)`.
  }];
  let arguments = (ins
    TT_PtrTensor:$src, TLX_BufferType:$buffer,
    Optional<RankedTensorOf<[I1]>>:$mask, Optional<TT_Type>:$other,
    DefaultValuedAttr<TT_CacheModifierAttr, "::mlir::triton::CacheModifier::NONE">:$cache,
    DefaultValuedAttr<TT_EvictionPolicyAttr, "::mlir::triton::EvictionPolicy::NORMAL">:$evict,
    DefaultValuedAttr<BoolAttr, "false">:$isVolatile);
  let assemblyFormat = [{
    $src `,` $buffer (`mask` $mask^)? (`other` $other^)? attr-dict
    `:` type($src) `->` qualified(type($buffer))
  }];
  let hasVerifier = 1;
}

def TLX_AsyncLoadCommitGroupOp : TLX_Op<"async_load_commit_group"> {
  let summary = "close the current group of cp.async copies";
  let description = [{`cp.async.commit_group`.}];
  let assemblyFormat = "attr-dict";
}

def TLX_AsyncLoadWaitGroupOp : TLX_Op<"async_load_wait_group"> {
  let summary = "wait until at most `pendings` cp.async groups are in flight";
  let description = [{`cp.async.wait_group pendings`.}];
  let arguments = (ins ConfinedAttr<I32Attr, [IntNonNegative]>:$pendings);
  let assemblyFormat = "$pendings attr-dict";
}

//===----------------------------------------------------------------------===//
// Asynchronous MMA
//===----------------------------------------------------------------------===//

def TLX_AsyncDotOp : TLX_Op<"async_dot", [TLX_WarpGroupAligned,
    TypesMatchWith<"result type matches the accumulator", "result", "acc",
                   "$_self">]> {
  let summary = "d = a * b + acc on the tensor cores, asynchronously";
  let description = [{
    `tlx.async_dot(a, b, acc)` in Python. On Hopper: `wgmma.mma_async` with
    `a` read from a shared-memory buffer or from registers (a tensor), `b`
    from shared memory and the accumulator in registers;
    the result must be waited for with `tlx.async_dot_wait` before it is
    read. `use_acc` false starts from zero instead of `acc`.
  }];
  let arguments = (ins AnyTypeOf<[TLX_BufferType, TT_FloatTensor]>:$a,
                       TLX_BufferType:$b, TT_FloatTensor:$acc,
                       Optional<I1>:$useAcc,
                       DefaultValuedAttr<TT_InputPrecisionAttr,
                         "::mlir::triton::InputPrecision::TF32">:$inputPrecision,
                       DefaultValuedAttr<I32Attr, "0">:$maxNumImpreciseAcc);
  let results = (outs TT_FloatTensor:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $acc (`,` $useAcc^)? attr-dict `:` qualified(type($a)) `*`
    qualified(type($b)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TLX_AsyncDotWaitOp : TLX_Op<"async_dot_wait", [TLX_WarpGroupAligned, AllTypesMatch<["acc", "result"]>]> {
  let summary = "wait until at most `pendings` async dots are in flight";
  let description = [{
    `tlx.async_dot_wait(pendings, acc)` in Python: `wgmma.wait_group
    pendings`; the result is `acc` once the dots that produce it are done.
  }];
  let arguments = (ins TT_FloatTensor:$acc,
                       ConfinedAttr<I32Attr, [IntNonNegative]>:$pendings);
  let results = (outs TT_FloatTensor:$result);
  let assemblyFormat = "$acc `,` $pendings attr-dict `:` type($acc)";
}

def TLX_TCGen05MMAOp : TLX_Op<"tcgen05_mma", [TLX_WarpGroupAligned, AttrSizedOperandSegments]> {
  let summary = "acc (+)= a * b on Blackwell's tensor cores, in tensor memory";
  let description = [{
    `tlx.async_dot(a, b, acc, use_acc=, pred=, mBarriers=[...])` in Python
    when `acc` is a tensor-memory buffer (sm_100): `tcgen05.mma` with `a`
    read from a shared-memory or tensor-memory buffer, `b` from shared
    memory and the float32 accumulator in tensor memory. `useAcc` false (or
    an i1 false) starts from zero; it defaults to true. With `barriers` (or
    `isAsync`) the MMA runs asynchronously and each barrier receives one
    arrival when it completes (`tcgen05.commit ... mbarrier::arrive::one`);
    without, it completes before the next instruction.

    `twoCTAs` (`two_ctas=True`, a kernel launched with `ctas_per_cga=(2, 1,
    1)`): `tcgen05.mma.cta_group::2`, one MMA of 2M x N over the CTA pair.
    Each CTA passes its own M x K rows of `a`, its half (K x N/2) of `b` and
    its M x N rows of the accumulator; the even CTA of the pair issues it
    and the barriers of both CTAs receive the arrival.

    ```mlir
    tlx.tcgen05_mma %a, %b, %acc, %use barriers(%bar) is_async
        : !tlx.buffer<128x64xf16, smem>, !tlx.buffer<64x128xf16, smem>,
          !tlx.buffer<128x128xf32, tmem>
    ```
  }];
  let arguments = (ins TLX_BufferType:$a, TLX_BufferType:$b,
                       TLX_BufferType:$acc, Optional<I1>:$useAcc,
                       Optional<I1>:$pred,
                       Variadic<TLX_MBarrierType>:$barriers,
                       UnitAttr:$isAsync, UnitAttr:$twoCTAs);
  let assemblyFormat = [{
    $a `,` $b `,` $acc (`,` $useAcc^)? (`pred` $pred^)?
    (`barriers` `(` $barriers^ `)`)? (`is_async` $isAsync^)?
    (`two_ctas` $twoCTAs^)? attr-dict `:`
    qualified(type($a)) `,` qualified(type($b)) `,` qualified(type($acc))
  }];
  let hasVerifier = 1;
}

def TLX_TCGen05MMAScaledOp : TLX_Op<"tcgen05_mma_scaled",
    [TLX_WarpGroupAligned, AttrSizedOperandSegments]> {
  let summary = "acc (+)= (a * aScale) * (b * bScale), block-scaled, in tensor memory";
  let description = [{
    `tlx.async_dot_scaled(A, B, acc, A_scale, A_format, B_scale, B_format,
    use_acc=, pred=, mBarriers=[...])` in Python (sm_100): `tcgen05.mma
    .kind::mxf8f6f4.block_scale` (fp8 `e4m3` / `e5m2` operands) or
    `.kind::mxf4.block_scale` (`e2m1` operands, two per byte). `a` (M x K)
    and `b` (K x N) are shared-memory buffers; a packed `e2m1` operand holds
    K / 2 bytes along K. Every 32 consecutive elements along K share one
    e8m0 scale (a byte, `2^(s - 127)`): `aScale` holds M x K / 32 of them,
    `bScale` N x K / 32, each either a tensor-memory buffer of that shape
    (filled with `tlx.tmem_copy`) or a shared-memory buffer in the cuBLAS
    block-scaling layout (`[1, rows / 128, K / 128, 2, 256]` and the other
    `tmem_copy` source shapes), copied to tensor memory before the MMA. The
    float32 accumulator lives in tensor memory; `useAcc`, `pred`,
    `barriers` and `isAsync` as for `tlx.tcgen05_mma`.

    ```mlir
    tlx.tcgen05_mma_scaled %a, %b, %acc, %sa, %sb lhs = e4m3 rhs = e4m3
        barriers(%bar) : !tlx.buffer<128x128xf8E4M3FN, smem>,
          !tlx.buffer<128x128xf8E4M3FN, smem>, !tlx.buffer<128x128xf32, tmem>,
          !tlx.buffer<128x4xi8, tmem>, !tlx.buffer<128x4xi8, tmem>
    ```
  }];
  let arguments = (ins TLX_BufferType:$a, TLX_BufferType:$b,
                       TLX_BufferType:$acc, TLX_BufferType:$aScale,
                       TLX_BufferType:$bScale, Optional<I1>:$useAcc,
                       Optional<I1>:$pred,
                       Variadic<TLX_MBarrierType>:$barriers,
                       TT_ScaleDotElemTypeAttr:$aType,
                       TT_ScaleDotElemTypeAttr:$bType, UnitAttr:$isAsync);
  let assemblyFormat = [{
    $a `,` $b `,` $acc `,` $aScale `,` $bScale (`,` $useAcc^)?
    (`pred` $pred^)? `lhs` `=` $aType `rhs` `=` $bType
    (`barriers` `(` $barriers^ `)`)? (`is_async` $isAsync^)? attr-dict `:`
    qualified(type($a)) `,` qualified(type($b)) `,` qualified(type($acc)) `,`
    qualified(type($aScale)) `,` qualified(type($bScale))
  }];
  let hasVerifier = 1;
}

def TLX_TCGen05CommitOp : TLX_Op<"tcgen05_commit", [TLX_WarpGroupAligned]> {
  let summary = "an mbarrier arrival once every earlier tcgen05 op completes";
  let description = [{
    `tlx.tcgen05_commit(bar)` in Python (sm_100):
    `tcgen05.commit.cta_group::1.mbarrier::arrive::one.b64`: the barrier
    receives one arrival when all tcgen05 MMAs (and copies) this thread
    issued before have completed. `twoCTAs` (`two_ctas=True`):
    `cta_group::2`, issued by the even CTA of the pair, the barrier of both
    CTAs receiving the arrival.

    ```mlir
    tlx.tcgen05_commit %bar
    ```
  }];
  let arguments = (ins TLX_MBarrierType:$barrier, Optional<I1>:$pred,
                       UnitAttr:$twoCTAs);
  let assemblyFormat = "$barrier (`,` $pred^)? (`two_ctas` $twoCTAs^)? attr-dict";
}

def TLX_TMEMCopyOp : TLX_Op<"tmem_copy", [TLX_WarpGroupAligned]> {
  let summary = "asynchronous copy from shared memory to tensor memory";
  let description = [{
    `tlx.tmem_copy(src, dst)` in Python (sm_100): `tcgen05.cp` of a
    shared-memory buffer into a tensor-memory buffer of the same shape,
    without registers. Triton 3.6 copies 128-row buffers of 32-bit elements
    from a swizzled NVMMA layout. Asynchronous: like an MMA it completes
    with a later `tcgen05_commit` (or the mbarriers of a later tcgen05 MMA
    of this thread).

    Block scales: an 8-bit `dst` (rows x cols, rows a multiple of 128, cols
    of 4) receives e8m0 scales from `src` in the cuBLAS block-scaling layout,
    512-byte blocks of 128 rows x 4 columns, any of the shapes
    `[1, rows / 128, cols / 4, 2, 256]` (TMA's), `[rows / 128, cols / 4, 32,
    16]`, `[rows / 128, cols / 4, 32, 4, 4]`, `[rows / 128, cols / 4 * 512]`
    or, for 128 rows, `[32 * cols / 4, 16]` (`tcgen05.cp .32x128b.warpx4`).

    ```mlir
    tlx.tmem_copy %src, %dst : !tlx.buffer<128x64xf32, smem>, !tlx.buffer<128x64xf32, tmem>
    tlx.tmem_copy %s, %d : !tlx.buffer<1x1x1x2x256xi8, smem>, !tlx.buffer<128x4xi8, tmem>
    ```
  }];
  let arguments = (ins TLX_BufferType:$src, TLX_BufferType:$dst);
  let assemblyFormat = [{
    $src `,` $dst attr-dict `:` qualified(type($src)) `,` qualified(type($dst))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

def TLX_StochRoundOp : TLX_Op<"stoch_round", [Pure]> {
  let summary = "float32 -> fp8 / bf16 / fp16 with stochastic rounding";
  let description = [{
    `tlx.stoch_round(src, dst_ty, rand_bits)` in Python (sm_100a): each
    element of `src` rounded to the result's element type, up or down with
    a probability given by its distance to the two neighbours, the random
    bits deciding; saturating to the largest finite value (`cvt.rs
    .satfinite.{e4m3x4,e5m2x4}.f32` for fp8, `cvt.rs.satfinite.{bf16x2,
    f16x2}.f32`). The instruction converts 4 (fp8) or 2 (16-bit) elements of
    a thread with one 32-bit random word: the XOR of their `randBits`, each
    shifted left by its place in the group, so every element's bits count
    and the word is uniform when any one of them is.

    ```mlir
    %y = tlx.stoch_round %x, %bits : tensor<128xf32>, tensor<128xi32> -> tensor<128xf8E4M3FN>
    ```
  }];
  let arguments = (ins RankedTensorOf<[F32]>:$src,
                       RankedTensorOf<[I32]>:$randBits);
  let results = (outs TT_FloatTensor:$result);
  let assemblyFormat = [{
    $src `,` $randBits attr-dict `:` type($src) `,` type($randBits) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Special registers
//===----------------------------------------------------------------------===//

def TLX_ThreadIdOp : TLX_Op<"thread_id", [Pure]> {
  let summary = "the thread's index in the CTA along an axis";
  let description = [{`tlx.thread_id(axis)`: `%tid.x`, `%tid.y` or `%tid.z`.}];
  let arguments = (ins ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<2>]>:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict `:` type($result)";
}

def TLX_Clock64Op : TLX_Op<"clock64"> {
  let summary = "the SM's 64-bit cycle counter";
  let description = [{`tlx.clock64()`: `%clock64`.}];
  let results = (outs I64:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Warp votes
//===----------------------------------------------------------------------===//

def TLX_VoteBallotSyncOp : TLX_Op<"vote_ballot_sync"> {
  let summary = "the lanes of the warp whose predicate is true";
  let description = [{
    `tlx.vote_ballot_sync(mask, pred)` in Python: `vote.sync.ballot.b32`, a
    32-bit word with bit `i` set where lane `i` is in `mask` and its
    predicate is true; every lane of `mask` must execute it with the same
    `mask` (not pure: no pass may move it across the control flow that
    decides which lanes arrive). For a scalar `pred` the predicate is the
    thread's value. For a tensor (the public API's form) it is the OR of
    the elements the thread holds in the tensor's register layout, and each
    element of the result is the warp's ballot: which elements a thread
    holds is the layout's, so the op is lowered once Triton's layout
    optimizations have run (`tlx-lower-warp-ballots`); every lane votes, so
    the mask must be the whole warp.

    ```mlir
    %b = tlx.vote_ballot_sync %p {mask = -1 : i32} : i1 -> i32
    %t = tlx.vote_ballot_sync %q {mask = -1 : i32} : tensor<128xi1> -> tensor<128xi32>
    ```
  }];
  let arguments = (ins AnyTypeOf<[I1, RankedTensorOf<[I1]>]>:$pred,
                       I32Attr:$mask);
  let results = (outs AnyTypeOf<[I32, RankedTensorOf<[I32]>]>:$result);
  let assemblyFormat = "$pred attr-dict `:` type($pred) `->` type($result)";
  let hasVerifier = 1;
}

def TLX_ScaleRowsOp : TLX_Op<"scale_rows", [AllTypesMatch<["src", "result"]>]> {
  let summary = "rows scaled by a factor each, skipped by a warp whose factors are all 1";
  let description = [{
    `tlx.scale_rows(x, scale)` in Python: `x * scale[:, None]` for a
    float32 `x` of shape MxN and `scale` of shape M (an online softmax's
    rescale of its accumulator). Each warp votes (`vote.sync.ballot.b32`)
    on whether any factor it holds differs from 1.0 and branches
    (`bra.uni`) around its `mul.f32`s if none does: the result is the same
    either way (x * 1.0 is x), and a kernel that leaves its factors at
    exactly 1 unless a row must change (FlashAttention-4's lazy rescaling)
    issues one vote instead of a multiply per element. Which elements a
    thread holds is the final register layout's, so the op is lowered once
    Triton's layout optimizations have run (`tlx-lower-warp-ballots`);
    every lane of the warp must reach it, as for a tensor ballot.

    ```mlir
    %y = tlx.scale_rows %acc, %alpha : tensor<64x128xf32>, tensor<64xf32>
    ```
  }];
  let arguments = (ins RankedTensorOf<[F32]>:$src, RankedTensorOf<[F32]>:$scale);
  let results = (outs RankedTensorOf<[F32]>:$result);
  let assemblyFormat = "$src `,` $scale attr-dict `:` type($src) `,` type($scale)";
  let hasVerifier = 1;
}

def TLX_DumpLayoutOp : TLX_Op<"dump_layout"> {
  let summary = "report, at compile time, the layout a value resolved to";
  let description = [{
    `tlx.dump_layout(x)` in Python, for a register tensor or a buffer: once
    `tlx-assign-layouts` has chosen layouts, lowering reports the value's type
    with its encoding as a remark at this line (the compiler log) and emits
    no code. A buffer's shared layout is final there; Triton's later passes
    may still convert a register tensor's layout.

    ```mlir
    tlx.dump_layout %acc : tensor<64x64xf32>
    ```
  }];
  let arguments = (ins AnyTypeOf<[TT_Tensor, TLX_BufferType]>:$value);
  let assemblyFormat = "$value attr-dict `:` qualified(type($value))";
}

//===----------------------------------------------------------------------===//
// Register layouts
//===----------------------------------------------------------------------===//

def TLX_RequireLayoutOp : TLX_Op<"require_layout",
    [Pure, SameOperandsAndResultType]> {
  let summary = "give a register tensor a register layout";
  let description = [{
    `tlx.require_layout(x, layout, pin, late_address_compute)` in Python: the
    value of `x` in the register layout `layout` (`ttg.convert_layout`), which
    the tensors computed elementwise from it (and the values a loop carries
    for them) take too. With `pin`, the layout
    holds through Triton's layout optimizations: TLX applies it again once
    they have run (`tlx-apply-layout-pins`); without, they may change it.
    `late_address_compute` is accepted and has no effect here (Triton 3.6
    derives the addresses of a conversion through shared memory where it
    lowers it).

    ```mlir
    %y = tlx.require_layout %x {layout = #ttg.linear<{register = [[0, 1]], lane = [[0, 2], [0, 4], [0, 8], [1, 0], [2, 0]], warp = [[4, 0], [8, 0]], block = []}>, pin} : tensor<16x16xf32>
    ```
  }];
  let arguments = (ins TT_Tensor:$src, AnyAttr:$layout, UnitAttr:$pin,
                       UnitAttr:$late_address_compute);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src)";
}

def TLX_ReleaseLayoutOp : TLX_Op<"release_layout",
    [Pure, SameOperandsAndResultType]> {
  let summary = "end a pinned layout: what follows may take any layout";
  let description = [{
    `tlx.release_layout(x)` in Python: the value of `x`, whose layout a pin
    (`tlx.require_layout`) no longer extends to: Triton's layout
    optimizations choose it, and TLX converts at this point when the two
    differ.

    ```mlir
    %y = tlx.release_layout %x : tensor<64x64xf32>
    ```
  }];
  let arguments = (ins TT_Tensor:$src);
  let results = (outs TT_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src)";
}

def TLX_AssertSameLayoutOp : TLX_Op<"assert_same_layout"> {
  let summary = "compile-time check that two values end up in one layout";
  let description = [{
    `tlx.assert_same_layout(lhs, rhs)` in Python: two register tensors (once
    Triton's layout optimizations and TLX's pins have run, compared as
    linear layouts: a conversion between them must move no data) or two
    buffers (their shared layouts), or one of them and `expected`, a layout
    (`rhs` a `tlx.layout` or other TLX layout object). An error at this line
    when they differ; no code.

    ```mlir
    tlx.assert_same_layout %a, %b : tensor<64x64xf32>, tensor<64x64xf32>
    tlx.assert_same_layout %a {expected = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>} : tensor<64x64xf32>
    ```
  }];
  let arguments = (ins AnyTypeOf<[TT_Tensor, TLX_BufferType]>:$lhs,
                       Optional<AnyTypeOf<[TT_Tensor, TLX_BufferType]>>:$rhs,
                       OptionalAttr<AnyAttr>:$expected);
  let assemblyFormat = [{
    $lhs (`,` $rhs^)? attr-dict `:` qualified(type($lhs))
    (`,` qualified(type($rhs))^)?
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Clusters
//===----------------------------------------------------------------------===//

def TLX_ClusterCTARankOp : TLX_Op<"cluster_cta_rank", [Pure]> {
  let summary = "the CTA's rank in its cluster";
  let description = [{
    `tlx.cluster_cta_rank()` in Python: `%cluster_ctarank`, 0 .. cluster size
    - 1 over all cluster dimensions (0 without a cluster launch).
  }];
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def TLX_ClusterSize1DOp : TLX_Op<"cluster_size_1d", [Pure]> {
  let summary = "the number of CTAs in the cluster";
  let description = [{
    `tlx.cluster_size_1d()` in Python: `%cluster_nctarank`, the product of
    the cluster's dimensions (1 without a cluster launch).
  }];
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def TLX_ClusterBarrierOp : TLX_Op<"cluster_barrier", [TLX_WarpGroupAligned]> {
  let summary = "synchronize every thread of every CTA of the cluster";
  let description = [{
    `tlx.cluster_barrier()` in Python: `barrier.cluster.arrive` then
    `barrier.cluster.wait` (release / acquire at cluster scope).
  }];
  let assemblyFormat = "attr-dict";
}

def TLX_FenceMBarrierInitClusterOp : TLX_Op<"fence_mbarrier_init_cluster"> {
  let summary = "make mbarrier initialization visible to the cluster";
  let description = [{
    `tlx.fence_mbarrier_init_cluster()` in Python:
    `fence.mbarrier_init.release.cluster`, so that other CTAs may arrive on
    this CTA's mbarriers (`barrier_arrive(..., remote_cta_rank=)`) once a
    cluster barrier follows.
  }];
  let assemblyFormat = "attr-dict";
}

def TLX_RemoteShmemStoreOp : TLX_Op<"remote_shmem_store", [TLX_TaskSynchronized]> {
  let summary = "store a tensor into a buffer of another CTA of the cluster";
  let description = [{
    `tlx.remote_shmem_store(dst, src, remote_cta_rank)` in Python: every
    element goes to the buffer at the place of `buffer` in CTA
    `remoteCTARank` (`mapa`, then `st.shared::cluster`). The buffer is
    row-major and unswizzled. Nothing waits for the stores: order them with
    `tlx.cluster_barrier()` before the other CTA reads.
  }];
  let arguments = (ins TLX_BufferType:$buffer, TT_Tensor:$value,
                       I32:$remoteCTARank);
  let assemblyFormat = [{
    $value `,` $buffer `remote` $remoteCTARank attr-dict `:` type($value)
    `,` qualified(type($buffer))
  }];
  let hasVerifier = 1;
}

def TLX_AsyncRemoteShmemStoreOp : TLX_Op<"async_remote_shmem_store", [TLX_TaskSynchronized]> {
  let summary = "store a tensor into another CTA's buffer, completing on "
                "its mbarrier";
  let description = [{
    `tlx.async_remote_shmem_store(dst, src, remote_cta_rank, barrier)` in
    Python: the tensor is staged in this CTA's shared memory in the buffer's
    layout, then its 32-bit words go, each once, with
    `st.async.shared::cluster.mbarrier::complete_tx::bytes` to the buffer at
    the place of `buffer` in CTA `remoteCTARank`, counting their bytes on
    that CTA's mbarrier at the place of `barrier` (`mapa` maps both).
  }];
  let arguments = (ins TLX_BufferType:$buffer, TT_Tensor:$value,
                       I32:$remoteCTARank, TLX_MBarrierType:$barrier);
  let assemblyFormat = [{
    $value `,` $buffer `remote` $remoteCTARank `,` $barrier attr-dict `:`
    type($value) `,` qualified(type($buffer))
  }];
  let hasVerifier = 1;
}

def TLX_AsyncRemoteShmemCopyOp : TLX_Op<"async_remote_shmem_copy", [TLX_TaskSynchronized]> {
  let summary = "copy a buffer into another CTA's buffer, completing on its "
                "mbarrier";
  let description = [{
    `tlx.async_remote_shmem_copy(dst, src, remote_cta_rank, barrier)` in
    Python: one thread issues
    `cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes`
    from `source` (this CTA) to the place of `destination` in CTA
    `remoteCTARank`, whose mbarrier at the place of `barrier` receives the
    bytes (`mapa` maps both). Fence ordinary writes of `source` first
    (`tlx.fence_async_shared`).
  }];
  let arguments = (ins TLX_BufferType:$destination, TLX_BufferType:$source,
                       I32:$remoteCTARank, TLX_MBarrierType:$barrier);
  let assemblyFormat = [{
    $source `to` $destination `remote` $remoteCTARank `,` $barrier attr-dict
    `:` qualified(type($source)) `->` qualified(type($destination))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Cluster launch control (sm_100)
//===----------------------------------------------------------------------===//

def TLX_AllocCLCResponsesOp : TLX_Op<"alloc_clc_responses",
    [MemoryEffects<[MemAlloc<DefaultResource>]>]> {
  let summary = "allocate N cluster-launch-control responses";
  let description = [{
    Part of `tlx.clc_create_context(num_consumers, num_stages)` in Python
    (sm_100): one 16-byte, 16-byte aligned response per stage in shared
    memory, where `tlx.clc_try_cancel` has the hardware write its answer.

    ```mlir
    %r = tlx.alloc_clc_responses : !tlx.clc_responses<2>
    ```
  }];
  let results = (outs TLX_CLCResponsesType:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
}

def TLX_CLCTryCancelOp : TLX_Op<"clc_try_cancel"> {
  let summary = "ask the hardware to cancel a cluster not launched yet";
  let description = [{
    Part of `tlx.clc_producer(...)` in Python (sm_100): one thread of the
    task issues `clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::
    complete_tx::bytes.b128`. Asynchronously, the hardware cancels the
    launch of a cluster that has not started, if one is left, writes a
    16-byte response to `response` (`tlx.clc_query` decodes it) and
    completes 16 transaction bytes on `barrier`, which a
    `tlx.barrier_expect_bytes` of 16 must arm. With `multicast`
    (`.multicast::cluster::all`, for a cluster launch) only the cluster's
    CTA of rank 0 issues, and the response and the completion reach
    `response` and `barrier` at the same places in every CTA of the
    cluster. After a failed request a CTA must not issue another.

    ```mlir
    tlx.clc_try_cancel %response, %bar
    tlx.clc_try_cancel %response, %bar multicast
    ```
  }];
  let arguments = (ins TLX_CLCResponseType:$response,
                       TLX_MBarrierType:$barrier, UnitAttr:$multicast);
  let assemblyFormat = "$response `,` $barrier (`multicast` $multicast^)? attr-dict";
}

def TLX_CLCQueryOp : TLX_Op<"clc_query"> {
  let summary = "decode a cluster-launch-control response";
  let description = [{
    Part of `tlx.clc_consumer(...)` in Python (sm_100): every thread reads
    the response (`ld.shared.b128`) and decodes it with
    `clusterlaunchcontrol.query_cancel.is_canceled.pred.b128` and, for a
    canceled cluster,
    `clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128`: the id
    (x, y, z) of the canceled cluster's first CTA, or (-1, -1, -1) when the
    request failed (no cluster was left). Read it once `tlx.barrier_wait`
    has seen the response's mbarrier complete.

    ```mlir
    %x, %y, %z = tlx.clc_query %response
    ```
  }];
  let arguments = (ins TLX_CLCResponseType:$response);
  let results = (outs I32:$x, I32:$y, I32:$z);
  let assemblyFormat = "$response attr-dict";
}

//===----------------------------------------------------------------------===//
// Warp specialization
//===----------------------------------------------------------------------===//

def TLX_AsyncTasksOp : TLX_Op<"async_tasks", [TLX_WarpGroupAligned,
    SingleBlock, NoTerminator, RecursiveMemoryEffects]> {
  let summary = "tasks that run at once on disjoint warp groups";
  let description = [{
    `with tlx.async_tasks():` in Python. The body holds only `tlx.async_task`
    ops: exactly one default task, run by the kernel's own warps, and any
    number of others, each on warps of its own. Lowers to
    `ttg.warp_specialize`.

    `tlx.async_tasks(exclusive=True)`: these are the kernel's only tasks
    (the public TLX compiler then dispatches the warps by warp id; stock
    Triton 3.6's warp-specialize lowering has one dispatch for all, so the
    promise is checked and the tasks lower as any others).
    `mbarrier_try_wait_suspend_ns=N`: on sm_100 and newer, every
    `tlx.barrier_wait` of the kernel polls `mbarrier.try_wait` with a
    suspend-time hint of N ns (the smallest of the kernel's task sets; 0
    gives none); older targets ignore it, as the public TLX does.

    ```mlir
    tlx.async_tasks {
      tlx.async_task default {
        ...
      }
      tlx.async_task num_warps(4) registers(232) replicate(2) {
        %r = tlx.async_task_replica_id : i32
        ...
      }
    }
    ```
  }];
  let arguments = (ins UnitAttr:$exclusive,
                       OptionalAttr<ConfinedAttr<I32Attr, [IntNonNegative]>>:$mbarrierTryWaitSuspendNs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    (`exclusive` $exclusive^)?
    (`mbarrier_try_wait_suspend_ns` `(` $mbarrierTryWaitSuspendNs^ `)`)?
    attr-dict-with-keyword $body
  }];
  let extraClassDeclaration = [{
    /// The warps of the tasks beside the default one, all replicas; Triton
    /// adds them to the kernel's in whole warp groups.
    int64_t getTaskWarps();
    /// The warps Triton pads the tasks with to whole warp groups: they run
    /// no task and wait for the tasks' end.
    int64_t getIdleWarps();
  }];
  let hasVerifier = 1;
}

def TLX_AsyncTaskOp : TLX_Op<"async_task", [
    SingleBlock, NoTerminator, RecursiveMemoryEffects,
    HasParent<"AsyncTasksOp">]> {
  let summary = "one task of a tlx.async_tasks";
  let description = [{
    `with tlx.async_task("default"):` or `with tlx.async_task(num_warps=,
    registers=, replicate=):` in Python. The default task runs on the
    kernel's warps; every other task runs `replicate` times, each replica on
    `num_warps` warps of its own, with at most `registers` registers per
    thread (`setmaxnreg`). Values from above are captured: scalars, pointers,
    descriptors and buffers are passed in, tensors are recomputed inside.
  }];
  let arguments = (ins UnitAttr:$isDefault,
                       OptionalAttr<ConfinedAttr<I32Attr, [IntPositive]>>:$numWarps,
                       OptionalAttr<ConfinedAttr<I32Attr, [IntPositive]>>:$registers,
                       DefaultValuedAttr<ConfinedAttr<I32Attr, [IntPositive]>, "1">:$replicate);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    (`default` $isDefault^)? (`num_warps` `(` $numWarps^ `)`)?
    (`registers` `(` $registers^ `)`)? (`replicate` `(` $replicate^ `)`)?
    attr-dict-with-keyword $body
  }];
  let extraClassDeclaration = [{
    /// How many cluster barriers each thread of the task passes, where that
    /// is known: all of them stand directly in its body (none in a loop or a
    /// branch).
    std::optional<int64_t> getClusterBarrierCount();
  }];
  let hasVerifier = 1;
}

def TLX_AsyncTaskReplicaIdOp : TLX_Op<"async_task_replica_id", [Pure]> {
  let summary = "which replica of its task runs this code";
  let description = [{
    `tlx.async_task_replica_id()` in Python: 0 .. replicate - 1, a constant
    in each replica once tasks are lowered (0 in the default task).
  }];
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

#endif // TLX_OPS_TD
