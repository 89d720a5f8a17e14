//===- TritonNvidiaGPUOps.td - ttng operations as Triton 3.6 prints them -===//

#ifndef TLX_TRITONNVIDIAGPU_OPS_TD
#define TLX_TRITONNVIDIAGPU_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "tlx/Dialect/Triton/IR/TritonEnums.td"
include "tlx/Dialect/Triton/IR/TritonTypes.td"
include "tlx/Dialect/TritonGPU/IR/TritonGPUTypes.td"
include "tlx/Dialect/TritonNvidiaGPU/IR/TritonNvidiaGPUAttrDefs.td"
include "tlx/Dialect/TritonNvidiaGPU/IR/TritonNvidiaGPUDialect.td"

def TTNG_SharedMemory : Resource<"::mlir::triton::gpu::SharedMemory">;
def TTNG_TensorMemory : Resource<"::mlir::triton::nvidia_gpu::TensorMemory">;

//===----------------------------------------------------------------------===//
// Fences and clusters
//===----------------------------------------------------------------------===//

def TTNG_FenceAsyncSharedOp : TTNG_Op<"fence_async_shared"> {
  let summary = "fence.proxy.async: order generic-proxy smem writes before "
                "async-proxy reads";
  let arguments = (ins BoolAttr:$bCluster);
  let assemblyFormat = "attr-dict";
}

def TTNG_ClusterArriveOp : TTNG_Op<"cluster_arrive"> {
  let summary = "barrier.cluster.arrive";
  let arguments = (ins I1Attr:$relaxed);
  let assemblyFormat = "attr-dict";
}

def TTNG_ClusterWaitOp : TTNG_Op<"cluster_wait"> {
  let summary = "barrier.cluster.wait";
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// mbarriers
//===----------------------------------------------------------------------===//

def TTNG_InitBarrierOp : TTNG_Op<"init_barrier", [
    MemoryEffects<[MemWrite<TTNG_SharedMemory>]>]> {
  let summary = "mbarrier.init with an expected arrival count";
  let arguments = (ins TTG_MemDesc:$alloc, I32Attr:$count);
  let assemblyFormat = "$alloc `,` $count attr-dict `:` qualified(type($alloc))";
  let hasVerifier = 1;
}

def TTNG_InvalBarrierOp : TTNG_Op<"inval_barrier", [
    MemoryEffects<[MemWrite<TTNG_SharedMemory>]>]> {
  let summary = "mbarrier.inval";
  let arguments = (ins TTG_MemDesc:$alloc);
  let assemblyFormat = "$alloc attr-dict `:` qualified(type($alloc))";
  let hasVerifier = 1;
}

def TTNG_BarrierExpectOp : TTNG_Op<"barrier_expect", [
    MemoryEffects<[MemWrite<TTNG_SharedMemory>]>]> {
  let summary = "mbarrier.arrive.expect_tx of `size` bytes";
  let arguments = (ins TTG_MemDesc:$alloc, I32Attr:$size, I1:$pred);
  let assemblyFormat = [{
    $alloc `,` $size attr-dict `,` $pred `:` qualified(type($alloc))
  }];
  let hasVerifier = 1;
}

def TTNG_WaitBarrierOp : TTNG_Op<"wait_barrier", [AttrSizedOperandSegments,
    MemoryEffects<[MemRead<TTNG_SharedMemory>, MemWrite<TTNG_SharedMemory>]>]> {
  let summary = "wait for an mbarrier phase (parity)";
  let arguments = (ins TTG_MemDesc:$alloc, I32:$phase, Optional<I1>:$pred,
                       Variadic<TTG_MemDesc>:$deps);
  let assemblyFormat = [{
    $alloc `,` $phase (`,` $pred^)? (`deps` $deps^)? attr-dict
    `:` qualified(type($alloc)) (`,` type($deps)^)?
  }];
  let hasVerifier = 1;
}

def TTNG_ArriveBarrierOp : TTNG_Op<"arrive_barrier", [
    MemoryEffects<[MemWrite<TTNG_SharedMemory>]>]> {
  let summary = "mbarrier.arrive with `count` arrivals";
  let arguments = (ins TTG_MemDesc:$alloc, I32Attr:$count, Optional<I1>:$pred);
  let assemblyFormat = [{
    $alloc `,` $count (`,` $pred^)? attr-dict `:` qualified(type($alloc))
  }];
  let hasVerifier = 1;
}

def TTNG_AsyncCopyMbarrierArriveOp : TTNG_Op<"async_copy_mbarrier_arrive", [
    MemoryEffects<[MemWrite<TTNG_SharedMemory>]>]> {
  let summary = "cp.async.mbarrier.arrive: arrive when prior cp.async land";
  let arguments = (ins TTG_MemDesc:$barrier, UnitAttr:$noIncrement);
  let assemblyFormat = "$barrier attr-dict `:` qualified(type($barrier))";
}

//===----------------------------------------------------------------------===//
// TMA
//===----------------------------------------------------------------------===//

def TTNG_AsyncTMACopyGlobalToLocalOp : TTNG_Op<"async_tma_copy_global_to_local", [
    MemoryEffects<[MemRead<TT_GlobalMemory>, MemWrite<TTNG_SharedMemory>]>]> {
  let summary = "cp.async.bulk.tensor global -> shared, completing on an mbarrier";
  let arguments = (ins
    TT_TensorDesc:$desc, Variadic<I32>:$coord, TTG_MemDesc:$barrier,
    TTG_MemDesc:$result, I1:$pred,
    DefaultValuedAttr<TT_CacheModifierAttr, "::mlir::triton::CacheModifier::NONE">:$cache,
    DefaultValuedAttr<TT_EvictionPolicyAttr, "::mlir::triton::EvictionPolicy::NORMAL">:$evict,
    DefaultValuedAttr<BoolAttr, "false">:$isVolatile);
  let assemblyFormat = [{
    $desc `[` $coord `]` $result `,` $barrier `,` $pred
    oilist(`cacheModifier` `=` $cache | `evictionPolicy` `=` $evict)
    attr-dict `:` qualified(type($desc)) `,` qualified(type($barrier))
    `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TTNG_AsyncTMACopyLocalToGlobalOp : TTNG_Op<"async_tma_copy_local_to_global", [
    MemoryEffects<[MemRead<TTNG_SharedMemory>, MemWrite<TT_GlobalMemory>]>]> {
  let summary = "cp.async.bulk.tensor shared -> global";
  let arguments = (ins TT_TensorDesc:$desc, Variadic<I32>:$coord,
                       TTG_MemDesc:$src);
  let assemblyFormat = [{
    $desc `[` $coord `]` $src attr-dict `:` qualified(type($desc)) `,`
    qualified(type($src))
  }];
}

def TTNG_AsyncTMAReduceOp : TTNG_Op<"async_tma_reduce", [
    MemoryEffects<[MemRead<TTNG_SharedMemory>, MemRead<TT_GlobalMemory>,
                   MemWrite<TT_GlobalMemory>]>]> {
  let summary = "cp.reduce.async.bulk.tensor shared -> global";
  let arguments = (ins TT_DescriptorReduceKindAttr:$kind, TT_TensorDesc:$desc,
                       Variadic<I32>:$coord, TTG_MemDesc:$src);
  let assemblyFormat = [{
    $kind `,` $desc `[` $coord `]` $src attr-dict `:` qualified(type($desc))
    `,` qualified(type($src))
  }];
}

def TTNG_AsyncTMAGatherOp : TTNG_Op<"async_tma_gather", [
    MemoryEffects<[MemRead<TT_GlobalMemory>, MemWrite<TTNG_SharedMemory>]>]> {
  let summary = "TMA gather4 of rows into shared memory";
  let arguments = (ins TT_TensorDesc:$desc, RankedTensorOf<[I32]>:$x_offsets,
                       I32:$y_offset, TTG_MemDesc:$barrier,
                       TTG_MemDesc:$result, I1:$pred);
  let assemblyFormat = [{
    $desc `[` $x_offsets `,` $y_offset `]` $result `,` $barrier `,` $pred
    attr-dict `:` type(operands)
  }];
}

def TTNG_AsyncTMAScatterOp : TTNG_Op<"async_tma_scatter", [
    MemoryEffects<[MemRead<TTNG_SharedMemory>, MemWrite<TT_GlobalMemory>]>]> {
  let summary = "TMA scatter4 of rows from shared memory";
  let arguments = (ins TT_TensorDesc:$desc, RankedTensorOf<[I32]>:$x_offsets,
                       I32:$y_offset, TTG_MemDesc:$src);
  let assemblyFormat = [{
    $desc `[` $x_offsets `,` $y_offset `]` $src attr-dict `:` type(operands)
  }];
}

def TTNG_TMAStoreWaitOp : TTNG_Op<"async_tma_store_wait"> {
  let summary = "cp.async.bulk.wait_group.read: at most `pendings` stores "
                "still reading shared memory";
  let arguments = (ins I32Attr:$pendings);
  let assemblyFormat = "attr-dict";
}

def TTNG_ReinterpretTensorDescOp : TTNG_Op<"reinterpret_tensor_descriptor", [Pure]> {
  let summary = "view a raw descriptor pointer as a tensor descriptor";
  let arguments = (ins TT_Ptr:$rawDesc);
  let results = (outs TT_TensorDesc:$result);
  let assemblyFormat = [{
    $rawDesc attr-dict `:` qualified(type($rawDesc)) `to` qualified(type($result))
  }];
}

def TTNG_TensormapCreateOp : TTNG_Op<"tensormap_create", [AttrSizedOperandSegments,
    MemoryEffects<[MemRead<TT_GlobalMemory>, MemWrite<TT_GlobalMemory>]>]> {
  let summary = "tensormap.replace: fill a TMA descriptor in global memory";
  let arguments = (ins
    TT_Ptr:$desc_ptr, TT_Ptr:$global_address,
    Variadic<I32>:$box_dim, Variadic<I32>:$global_dim,
    Variadic<I64>:$global_stride, Variadic<I32>:$element_stride,
    ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<15>]>:$elem_type,
    ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<2>]>:$interleave_layout,
    ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<3>]>:$swizzle_mode,
    ConfinedAttr<I32Attr, [IntNonNegative, IntMaxValue<1>]>:$fill_mode);
  let assemblyFormat = [{
    $desc_ptr `,` $global_address `,`
    `[` $box_dim `]` `,` `[` $global_dim `]` `,` `[` $global_stride `]` `,`
    `[` $element_stride `]` attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def TTNG_TensormapFenceproxyAcquireOp : TTNG_Op<"tensormap_fenceproxy_acquire", [
    MemoryEffects<[MemWrite<TT_GlobalMemory>]>]> {
  let summary = "fence.proxy.tensormap::generic.acquire on a descriptor";
  let arguments = (ins TT_Ptr:$desc_ptr);
  let assemblyFormat = "$desc_ptr attr-dict `:` qualified(type($desc_ptr))";
}

//===----------------------------------------------------------------------===//
// wgmma (Hopper)
//===----------------------------------------------------------------------===//

def TTNG_WarpGroupDotOp : TTNG_Op<"warp_group_dot", [
    TypesMatchWith<"result type matches accumulator", "d", "c", "$_self">,
    MemoryEffects<[MemRead<TTNG_SharedMemory>]>]> {
  let summary = "wgmma.mma_async: d = a * b + c, a in smem or registers";
  let arguments = (ins
    TT_TensorOrMemDesc:$a, TTG_MemDesc:$b, TT_Tensor:$c, Optional<I1>:$useC,
    DefaultValuedAttr<TT_InputPrecisionAttr, "::mlir::triton::InputPrecision::IEEE">:$inputPrecision,
    DefaultValuedAttr<I32Attr, "0">:$maxNumImpreciseAcc,
    DefaultValuedAttr<BoolAttr, "false">:$isAsync);
  let results = (outs TT_Tensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c (`,` $useC^)? attr-dict `:`
    type($a) `*` qualified(type($b)) `->` type($d)
  }];
  let hasVerifier = 1;
}

def TTNG_WarpGroupDotWaitOp : TTNG_Op<"warp_group_dot_wait", [
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "wgmma.wait_group: at most `pendings` wgmma groups in flight";
  let arguments = (ins Variadic<TT_TensorOrMemDesc>:$inputs, I32Attr:$pendings);
  let results = (outs Variadic<TT_TensorOrMemDesc>:$outputs);
  let assemblyFormat = "$inputs attr-dict `:` type($inputs)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tensor memory and tcgen05 (Blackwell)
//===----------------------------------------------------------------------===//

def TTNG_TCGen5MMAOp : TTNG_Op<"tc_gen5_mma", [AttrSizedOperandSegments,
    MemoryEffects<[MemRead<TTNG_SharedMemory>, MemRead<TTNG_TensorMemory>,
                   MemWrite<TTNG_TensorMemory>]>]> {
  let summary = "tcgen05.mma: d (+)= a * b in tensor memory";
  let arguments = (ins
    TTG_MemDesc:$a, TTG_MemDesc:$b, TTG_MemDesc:$d,
    Optional<TTG_AsyncTokenT>:$acc_dep, I1:$useD, I1:$pred,
    Variadic<TTG_MemDesc>:$barriers, Variadic<I1>:$barrier_preds,
    UnitAttr:$is_async, UnitAttr:$two_ctas);
  let results = (outs Optional<TTG_AsyncTokenT>:$token);
  let assemblyFormat = [{
    $a `,` $b `,` $d `` custom<Token>($acc_dep, type($token)) `,` $useD `,`
    $pred `` custom<BarriersAndPreds>($barriers, $barrier_preds) attr-dict
    `:` qualified(type($a)) `,` qualified(type($b)) `,` qualified(type($d))
    (`,` qualified(type($barriers))^)?
  }];
  let hasVerifier = 1;
}

def TTNG_TCGen5MMAScaledOp : TTNG_Op<"tc_gen5_mma_scaled", [AttrSizedOperandSegments,
    MemoryEffects<[MemRead<TTNG_SharedMemory>, MemRead<TTNG_TensorMemory>,
                   MemWrite<TTNG_TensorMemory>]>]> {
  let summary = "tcgen05.mma block-scaled";
  let arguments = (ins
    TTG_MemDesc:$a, TTG_MemDesc:$b, TTG_MemDesc:$d,
    Optional<TTG_AsyncTokenT>:$acc_dep, TTG_MemDesc:$a_scale,
    TTG_MemDesc:$b_scale, TT_ScaleDotElemTypeAttr:$a_type,
    TT_ScaleDotElemTypeAttr:$b_type, I1:$useD, I1:$pred,
    Variadic<TTG_MemDesc>:$barriers, Variadic<I1>:$barrier_preds,
    UnitAttr:$is_async);
  let results = (outs Optional<TTG_AsyncTokenT>:$token);
  let assemblyFormat = [{
    $a `,` $b `,` $d `` custom<Token>($acc_dep, type($token)) `,` $a_scale `,`
    $b_scale `,` $useD `,` $pred `lhs` `=` $a_type `rhs` `=` $b_type ``
    custom<BarriersAndPreds>($barriers, $barrier_preds) attr-dict
    `:` qualified(type($a)) `,` qualified(type($b)) `,` qualified(type($d))
    `,` qualified(type($a_scale)) `,` qualified(type($b_scale))
    (`,` qualified(type($barriers))^)?
  }];
  let hasVerifier = 1;
}

def TTNG_TCGen5CommitOp : TTNG_Op<"tc_gen5_commit", [
    MemoryEffects<[MemWrite<TTNG_SharedMemory>]>]> {
  let summary = "tcgen05.commit: arrive on a barrier when prior MMAs finish";
  let arguments = (ins TTG_MemDesc:$barrier, Optional<I1>:$pred,
                       UnitAttr:$two_ctas);
  let assemblyFormat = [{
    $barrier (`,` $pred^)? attr-dict `:` qualified(type($barrier))
  }];
}

def TTNG_TMEMLoadOp : TTNG_Op<"tmem_load", [
    MemoryEffects<[MemRead<TTNG_TensorMemory>]>]> {
  let summary = "tcgen05.ld: tensor memory -> registers";
  let arguments = (ins TTG_MemDesc:$src, Optional<TTG_AsyncTokenT>:$dep);
  let results = (outs TT_Tensor:$result, Optional<TTG_AsyncTokenT>:$token);
  let assemblyFormat = [{
    $src `` custom<Token>($dep, type($token)) attr-dict `:`
    qualified(type($src)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TTNG_TMEMStoreOp : TTNG_Op<"tmem_store", [
    MemoryEffects<[MemWrite<TTNG_TensorMemory>]>]> {
  let summary = "tcgen05.st: registers -> tensor memory";
  let arguments = (ins TTG_MemDesc:$dst, Optional<TTG_AsyncTokenT>:$dep,
                       TT_Tensor:$src, I1:$pred);
  let results = (outs Optional<TTG_AsyncTokenT>:$token);
  let assemblyFormat = [{
    $src `,` $dst `` custom<Token>($dep, type($token)) `,` $pred attr-dict
    `:` type($src) `->` qualified(type($dst))
  }];
  let hasVerifier = 1;
}

def TTNG_TMEMAllocOp : TTNG_Op<"tmem_alloc", [
    MemoryEffects<[MemAlloc<TTNG_TensorMemory>]>]> {
  let summary = "allocate tensor memory, optionally initialized";
  let arguments = (ins Optional<TT_Tensor>:$src);
  let results = (outs TTG_MemDesc:$result, Optional<TTG_AsyncTokenT>:$token);
  let assemblyFormat = "($src^)? attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def TTNG_TMEMSubSliceOp : TTNG_Op<"tmem_subslice", [Pure]> {
  let summary = "columns [N, N + width) of a tensor memory buffer";
  let arguments = (ins TTG_MemDesc:$src, I32Attr:$N);
  let results = (outs TTG_MemDesc:$result);
  let assemblyFormat = [{
    $src attr-dict `:` qualified(type($src)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TTNG_TMEMCopyOp : TTNG_Op<"tmem_copy", [
    MemoryEffects<[MemRead<TTNG_SharedMemory>, MemWrite<TTNG_TensorMemory>]>]> {
  let summary = "tcgen05.cp: shared memory -> tensor memory";
  let arguments = (ins TTG_MemDesc:$src, TTG_MemDesc:$dst,
                       Optional<TTG_MemDesc>:$barrier);
  let assemblyFormat = [{
    $src `,` $dst (`,` $barrier^)? attr-dict `:` qualified(type(operands))
  }];
}

#endif // TLX_TRITONNVIDIAGPU_OPS_TD
