//===- TLXOps.td - TLX operations --------------------------*- tablegen -*-===//

#ifndef TLX_OPS_TD
#define TLX_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "tlx/Dialect/TLX/IR/TLXDialect.td"
include "tlx/Dialect/TLX/IR/TLXTypes.td"

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

def TLX_LocalAllocOp : TLX_Op<"local_alloc",
    [MemoryEffects<[MemAlloc<DefaultResource>]>]> {
  let summary = "allocate N buffers in shared or tensor memory";
  let description = [{
    `tlx.local_alloc(shape, dtype, num, storage)` in Python. The buffers live
    for the whole kernel; their memory layout is chosen when TLX lowers to
    TritonGPU unless the user gave one.

    ```mlir
    %a = tlx.local_alloc : !tlx.buffers<3, 128x64xf16, smem>
    ```
  }];
  let results = (outs TLX_BuffersType:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
}

def TLX_LocalViewOp : TLX_Op<"local_view",
    [Pure, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "select one buffer or mbarrier of a set";
  let description = [{
    `tlx.local_view(bufs, i)` or `bufs[i]` in Python. The index is an i32;
    when it is a constant, `tlx-check-static-bounds` proves it in range.

    ```mlir
    %b = tlx.local_view %a[%i] : !tlx.buffers<3, 128x64xf16, smem>
    %m = tlx.local_view %bars[%c0] : !tlx.mbarriers<2>
    ```
  }];
  let arguments = (ins TLX_BufferSet:$source, I32:$index);
  let results = (outs AnyTypeOf<[TLX_BufferType, TLX_MBarrierType]>:$result);
  let assemblyFormat = [{
    $source `[` $index `]` attr-dict `:` qualified(type($source))
  }];
}

//===----------------------------------------------------------------------===//
// MBarriers
//===----------------------------------------------------------------------===//

def TLX_AllocBarriersOp : TLX_Op<"alloc_barriers",
    [MemoryEffects<[MemAlloc<DefaultResource>]>]> {
  let summary = "allocate and initialize N mbarriers";
  let description = [{
    `tlx.alloc_barriers(num_barriers, arrive_count)` in Python. Each mbarrier
    is initialized (`mbarrier.init.shared::cta.b64`) to expect
    `arrive_count` arrivals per phase, and the initialization is fenced
    (`fence.mbarrier_init`) before any other use.

    ```mlir
    %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<2>
    ```
  }];
  let arguments = (ins ConfinedAttr<I32Attr, [IntPositive]>:$arrive_count);
  let results = (outs TLX_MBarriersType:$result);
  let assemblyFormat = [{
    `arrive_count` `=` $arrive_count attr-dict `:` qualified(type($result))
  }];
}

def TLX_BarrierExpectBytesOp : TLX_Op<"barrier_expect_bytes"> {
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

def TLX_BarrierWaitOp : TLX_Op<"barrier_wait"> {
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

def TLX_BarrierArriveOp : TLX_Op<"barrier_arrive"> {
  let summary = "arrive on an mbarrier";
  let description = [{
    `tlx.barrier_arrive(bar, arrive_count)` in Python:
    `mbarrier.arrive.shared::cta.b64` counting `count` arrivals.

    ```mlir
    tlx.barrier_arrive %m, 1 : !tlx.mbarrier
    ```
  }];
  let arguments = (ins TLX_MBarrierType:$barrier,
                       ConfinedAttr<I32Attr, [IntPositive]>:$count);
  let assemblyFormat = [{
    $barrier `,` $count attr-dict `:` qualified(type($barrier))
  }];
}

#endif // TLX_OPS_TD
