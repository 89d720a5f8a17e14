// RUN: tlx-opt %s -split-input-file --tlx-assign-layouts --tlx-lower-to-nvvm --tlx-lower-to-ttg | FileCheck %s
// The ops lowered to inline PTX on buffer addresses (another CTA's shared
// memory, per-thread arrives, TMA prefetch and bulk stores, gather and
// scatter): the buffer's address is the base pointer of the struct Triton
// lowers its memory descriptor to (mapped into a peer with nvvm.mapa); one
// thread of the task (nvg.warp_id 0, lane 0) issues what acts once for the
// CTA.

module attributes {"ttg.num-warps" = 4 : i32, "ttg.cluster-dim-x" = 2 : i32} {
  // CHECK-LABEL: tt.func @remote_arrive
  // CHECK-SAME:    (%[[RANK:.*]]: i32, %[[P:.*]]: i1)
  tt.func @remote_arrive(%rank: i32, %p: i1) {
    %c0 = arith.constant 0 : i32
    %bars = tlx.alloc_barriers arrive_count = 2 : !tlx.mbarriers<1>
    // CHECK: ttg.local_barrier
    // CHECK-NEXT: %[[BAR:.*]] = ttg.memdesc_index
    %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
    // A local arrive keeps its predicate.
    // CHECK: ttng.arrive_barrier %[[BAR]], 1, %[[P]]
    tlx.barrier_arrive %bar, 1, %p : !tlx.mbarrier
    // CHECK:      %[[S:.*]] = builtin.unrealized_conversion_cast %[[BAR]] : !ttg.memdesc<1xi64, {{.*}}> to !llvm.struct<(ptr<3>, i32)>
    // CHECK-NEXT: %[[LOCAL:.*]] = llvm.extractvalue %[[S]][0]
    // CHECK-NEXT: %[[REMOTE:.*]] = nvvm.mapa %[[LOCAL]], %[[RANK]] : !llvm.ptr<3> -> !llvm.ptr<7>
    // CHECK:      %[[WARP:.*]] = nvg.warp_id
    // CHECK-NEXT: %[[LANE:.*]] = nvvm.read.ptx.sreg.laneid
    // CHECK:      %[[ONE:.*]] = arith.andi
    // CHECK-NEXT: %[[ISSUE:.*]] = arith.andi %[[ONE]], %[[P]]
    // CHECK-NEXT: %[[COUNT:.*]] = arith.constant 2 : i32
    // CHECK-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "@$0 mbarrier.arrive.shared::cluster.b64 _, [$1], $2;", "b,r,r" %[[ISSUE]], %[[REMOTE]], %[[COUNT]]
    tlx.barrier_arrive %bar, 2 remote %rank, %p : !tlx.mbarrier
    // A warp barrier's arrive: every thread, no leader predicate. A count of 1
    // is the instruction's own: no operand, so no register for it.
    // CHECK:      %[[S2:.*]] = builtin.unrealized_conversion_cast %[[BAR]]
    // CHECK-NEXT: %[[OWN:.*]] = llvm.extractvalue %[[S2]][0]
    // CHECK-NEXT: %[[TRUE:.*]] = arith.constant true
    // CHECK-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "@$0 mbarrier.arrive.shared::cta.b64 _, [$1];", "b,r" %[[TRUE]], %[[OWN]]
    tlx.barrier_arrive %bar, 1 per_thread : !tlx.mbarrier
    // A warp barrier's arrive on the peer's mbarrier: every thread, mapped. A
    // remote arrive keeps its count of 1 as an operand (where ptxas then places
    // it measured faster in the attention's cluster pairs).
    // CHECK:      %[[S3:.*]] = builtin.unrealized_conversion_cast %[[BAR]]
    // CHECK-NEXT: %[[MINE:.*]] = llvm.extractvalue %[[S3]][0]
    // CHECK-NEXT: %[[PEER:.*]] = nvvm.mapa %[[MINE]], %[[RANK]] : !llvm.ptr<3> -> !llvm.ptr<7>
    // CHECK-NOT:  nvg.warp_id
    // CHECK:      %[[ONE_ARRIVE:.*]] = arith.constant 1 : i32
    // CHECK-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "@$0 mbarrier.arrive.shared::cluster.b64 _, [$1], $2;", "b,r,r" %[[P]], %[[PEER]], %[[ONE_ARRIVE]]
    tlx.barrier_arrive %bar, 1 remote %rank, %p per_thread : !tlx.mbarrier
    tt.return
  }
}

// -----

// A multicast load of a 64x128 slice of a 64x256 buffer: two 64-column boxes
// (the 128-byte swizzle width), each written to both CTAs; the slice starts
// two swizzle columns (2 x 64 rows x 128 bytes) into the buffer.
module attributes {"ttg.num-warps" = 4 : i32, "ttg.cluster-dim-x" = 2 : i32} {
  // CHECK-LABEL: tt.func public @multicast
  tt.func public @multicast(%desc: !tt.tensordesc<tensor<64x128xf16>>, %x: i32, %peer: i32) {
    %c0 = arith.constant 0 : i32
    %bufs = tlx.local_alloc : !tlx.buffers<1, 64x256xf16, smem>
    %buf = tlx.local_view %bufs[%c0] : !tlx.buffers<1, 64x256xf16, smem>
    %half = tlx.local_slice %buf, [0, 128] : !tlx.buffer<64x256xf16, smem> -> !tlx.buffer<64x128xf16, smem>
    %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
    %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
    // CHECK:      %[[BUF:.*]] = ttg.memdesc_index
    // CHECK:      %[[S:.*]] = builtin.unrealized_conversion_cast %[[BUF]] : !ttg.memdesc<64x256xf16, {{.*}}> to !llvm.struct<(ptr<3>, i32, i32)>
    // CHECK-NEXT: %[[BASE:.*]] = llvm.extractvalue %[[S]][0]
    // CHECK-NEXT: %[[OFF:.*]] = llvm.mlir.constant(16384 : i32)
    // CHECK-NEXT: %[[DST:.*]] = llvm.getelementptr %[[BASE]][%[[OFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
    // CHECK:      %[[MASK:.*]] = arith.trunci %{{.*}} : i32 to i16
    // CHECK:      %[[DPTR:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !tt.tensordesc<{{.*}}> to !llvm.ptr
    // CHECK:      llvm.inline_asm has_side_effects asm_dialect = att "@$0 cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [$1], [$2, {$3, $4}], [$5], $6;", "b,r,l,r,r,r,h" %{{.*}}, %[[DST]], %[[DPTR]], %{{.*}}, %{{.*}}, %{{.*}}, %[[MASK]]
    // The second box: 8 KB further, 64 columns on.
    // CHECK:      llvm.mlir.constant(8192 : i32)
    // CHECK:      arith.constant 64 : i32
    // CHECK:      llvm.inline_asm {{.*}}multicast::cluster
    // CHECK-NOT:  multicast::cluster
    // CHECK:      tt.return
    tlx.async_descriptor_load %desc[%x, %x], %half, %bar multicast[%c0, %peer] : !tt.tensordesc<tensor<64x128xf16>>, !tlx.buffer<64x128xf16, smem>
    tt.return
  }
}

// -----

// The lower half of a 128x128 tile (rows 64..127): each of its two 64-column
// boxes is a contiguous piece of one swizzle column of the tile, and the
// second lies a whole swizzle column of the tile (128 rows x 128 bytes) after
// the first, not one of the slice's 64 rows: how a cluster pair multicasts
// the halves of one key tile into both CTAs. A store from such a slice steps
// the same way.
module attributes {"ttg.num-warps" = 4 : i32, "ttg.cluster-dim-x" = 2 : i32} {
  // CHECK-LABEL: tt.func public @multicast_row_half
  tt.func public @multicast_row_half(%desc: !tt.tensordesc<tensor<64x128xbf16>>, %x: i32, %peer: i32) {
    %c0 = arith.constant 0 : i32
    %bufs = tlx.local_alloc : !tlx.buffers<2, 128x128xbf16, smem>
    %buf = tlx.local_view %bufs[%x] : !tlx.buffers<2, 128x128xbf16, smem>
    %lower = tlx.local_slice %buf, [64, 0] : !tlx.buffer<128x128xbf16, smem> -> !tlx.buffer<64x128xbf16, smem>
    %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
    %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
    // CHECK:      %[[BASE:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.struct<(ptr<3>, i32, i32)>
    // CHECK-NEXT: %[[OFF:.*]] = llvm.mlir.constant(8192 : i32)
    // CHECK-NEXT: %[[DST:.*]] = llvm.getelementptr %[[BASE]][%[[OFF]]]
    // CHECK:      llvm.inline_asm {{.*}}multicast::cluster {{.*}} %{{.*}}, %[[DST]],
    // CHECK:      %[[STEP:.*]] = llvm.mlir.constant(16384 : i32)
    // CHECK-NEXT: %[[DST2:.*]] = llvm.getelementptr %[[DST]][%[[STEP]]]
    // CHECK:      llvm.inline_asm {{.*}}multicast::cluster {{.*}} %{{.*}}, %[[DST2]],
    tlx.async_descriptor_load %desc[%x, %x], %lower, %bar multicast[%c0, %peer] : !tt.tensordesc<tensor<64x128xbf16>>, !tlx.buffer<64x128xbf16, smem>
    // CHECK:      %[[SRC:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
    // CHECK:      cp.async.bulk.tensor.2d.global.shared::cta.bulk_group.L2::cache_hint {{.*}} %[[SRC]],
    // CHECK:      %[[STEP2:.*]] = llvm.mlir.constant(16384 : i32)
    // CHECK-NEXT: %[[SRC2:.*]] = llvm.getelementptr %[[SRC]][%[[STEP2]]]
    // CHECK:      cp.async.bulk.tensor.2d.global.shared::cta.bulk_group.L2::cache_hint {{.*}} %[[SRC2]],
    tlx.async_descriptor_store %desc[%x, %x], %lower {evict = 2 : i32} : !tt.tensordesc<tensor<64x128xbf16>>, !tlx.buffer<64x128xbf16, smem>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.cluster-dim-x" = 2 : i32} {
  // A store into the peer: each element at mapped base + index x 4 bytes.
  // CHECK-LABEL: tt.func @remote_store
  tt.func @remote_store(%v: tensor<128xf32, #blocked>, %rank: i32) {
    %c0 = arith.constant 0 : i32
    %bufs = tlx.local_alloc : !tlx.buffers<2, 128xf32, smem>
    %buf = tlx.local_view %bufs[%c0] : !tlx.buffers<2, 128xf32, smem>
    // CHECK:      %[[REMOTE:.*]] = nvvm.mapa %{{.*}}, %{{.*}} : !llvm.ptr<3> -> !llvm.ptr<7>
    // CHECK-NEXT: %[[BASE:.*]] = llvm.ptrtoint %[[REMOTE]] : !llvm.ptr<7> to i32
    // CHECK-NEXT: %[[BASES:.*]] = tt.splat %[[BASE]] : i32 -> tensor<128xi32, #blocked>
    // CHECK:      %[[INDEX:.*]] = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    // CHECK:      %[[ADDR:.*]] = arith.addi %[[BASES]], %{{.*}} : tensor<128xi32, #blocked>
    // CHECK-NEXT: %[[BITS:.*]] = tt.bitcast %{{.*}} : tensor<128xf32, #blocked> -> tensor<128xi32, #blocked>
    // CHECK-NEXT: tt.elementwise_inline_asm "st.shared::cluster.b32 [$1], $2; mov.u32 $0, 0;" {constraints = "=r,r,r", packed_element = 1 : i32, pure = false} %[[ADDR]], %[[BITS]]
    tlx.remote_shmem_store %v, %buf remote %rank : tensor<128xf32, #blocked>, !tlx.buffer<128xf32, smem>
    // A bulk copy of the buffer the threads just stored: a barrier of the task first.
    // CHECK:      ttng.init_barrier
    // CHECK:      nvvm.mapa
    // CHECK:      nvvm.mapa
    // CHECK-NEXT: ttg.local_barrier
    // CHECK-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "@$0 cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [$1], [$2], $3, [$4];"
    %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
    %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
    %other = tlx.local_view %bufs[%rank] : !tlx.buffers<2, 128xf32, smem>
    tlx.async_remote_shmem_copy %buf to %other remote %rank, %bar : !tlx.buffer<128xf32, smem> -> !tlx.buffer<128xf32, smem>
    // An asynchronous store: staged in the buffer's layout, then 128 words, word w from thread w (of 128).
    // CHECK:      %[[STAGE:.*]] = ttg.local_alloc %{{.*}} : (tensor<128xf32, #blocked>) -> !ttg.memdesc<128xf32, {{.*}}>
    // CHECK-NEXT: ttg.local_barrier
    // CHECK:      scf.for %{{.*}} = %{{.*}} to %c128_i32{{.*}} step %c128_i32{{.*}} : i32
    // CHECK:        llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .b32 w; ld.shared.b32 w, [$0]; st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [$1], w, [$2]; }", "r,r,r"
    // CHECK:      ttg.local_barrier
    tlx.async_remote_shmem_store %v, %other remote %rank, %bar : tensor<128xf32, #blocked>, !tlx.buffer<128xf32, smem>
    tt.return
  }
}


// -----

// Fences, a TMA prefetch of a 64x128 block (two 64-column boxes) and a bulk
// store: inline PTX, one thread for the copies.
module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: tt.func public @fence_prefetch_store
  tt.func public @fence_prefetch_store(%desc: !tt.tensordesc<tensor<64x128xf16>>, %x: i32, %g: !tt.ptr<f16>) {
    // CHECK: llvm.inline_asm has_side_effects asm_dialect = att "fence.acq_rel.gpu;", ""  : () -> ()
    tlx.fence gpu
    // CHECK: llvm.inline_asm has_side_effects asm_dialect = att "fence.acq_rel.sys;", ""  : () -> ()
    tlx.fence sys
    %c0 = arith.constant 0 : i32
    %bufs = tlx.local_alloc : !tlx.buffers<1, 64x128xf16, smem>
    %buf = tlx.local_view %bufs[%c0] : !tlx.buffers<1, 64x128xf16, smem>
    %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
    %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
    tlx.async_descriptor_load %desc[%x, %x], %buf, %bar : !tt.tensordesc<tensor<64x128xf16>>, !tlx.buffer<64x128xf16, smem>
    // CHECK: %[[D:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !tt.tensordesc<{{.*}}> to !llvm.ptr
    // CHECK: llvm.inline_asm has_side_effects asm_dialect = att "@$0 cp.async.bulk.prefetch.tensor.2d.L2.global [$1, {$2, $3}];", "b,l,r,r" %{{.*}}, %[[D]]
    // CHECK: arith.constant 64 : i32
    // CHECK: cp.async.bulk.prefetch.tensor.2d.L2.global
    tlx.async_descriptor_prefetch_tensor %desc[%x, %x] : !tt.tensordesc<tensor<64x128xf16>>
    // CHECK: %[[G:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !tt.ptr<f16> to !llvm.ptr<1>
    // CHECK-NEXT: ttg.local_barrier
    // CHECK: llvm.inline_asm has_side_effects asm_dialect = att "@$0 cp.async.bulk.global.shared::cta.bulk_group [$1], [$2], $3;\0A\09@$0 cp.async.bulk.commit_group;", "b,l,r,r" %{{.*}}, %[[G]]
    %bytes = arith.constant 16384 : i32
    tlx.async_store %buf to %g, %bytes : !tlx.buffer<64x128xf16, smem> -> !tt.ptr<f16>
    tt.return
  }
}

// -----

// Gather and scatter: one ld.shared / st.shared per element of a row-major
// buffer, the index along the axis taken from the indices tensor; a barrier
// before the loads and after the stores (Triton cannot see these accesses).
#blk = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: tt.func @gather_scatter
  tt.func @gather_scatter(%i: tensor<128xi32, #blk>, %v: tensor<128xf32, #blk>) -> tensor<128xf32, #blk> {
    %c0 = arith.constant 0 : i32
    %a = tlx.local_alloc : !tlx.buffers<1, 256xf32, smem>
    %b = tlx.local_view %a[%c0] : !tlx.buffers<1, 256xf32, smem>
    // CHECK:      ttg.local_barrier
    // CHECK:      %[[BASES:.*]] = tt.splat %{{.*}} : i32 -> tensor<128xi32, #blocked>
    // CHECK:      %[[OFF:.*]] = arith.muli %arg0, %{{.*}} : tensor<128xi32, #blocked>
    // CHECK-NEXT: %[[ADDR:.*]] = arith.addi %[[BASES]], %[[OFF]]
    // CHECK-NEXT: %[[W:.*]] = tt.elementwise_inline_asm "ld.shared.b32 $0, [$1];" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %[[ADDR]] : tensor<128xi32, #blocked> -> tensor<128xi32, #blocked>
    // CHECK-NEXT: tt.bitcast %[[W]] : tensor<128xi32, #blocked> -> tensor<128xf32, #blocked>
    %g = tlx.local_gather %b[%i] axis = 0 : !tlx.buffer<256xf32, smem>, tensor<128xi32, #blk> -> tensor<128xf32, #blk>
    // CHECK:      tt.elementwise_inline_asm "st.shared.b32 [$1], $2; mov.u32 $0, 0;" {constraints = "=r,r,r", packed_element = 1 : i32, pure = false}
    // CHECK-NEXT: ttg.local_barrier
    tlx.local_scatter %v, %b[%i] axis = 0 : tensor<128xf32, #blk>, !tlx.buffer<256xf32, smem>, tensor<128xi32, #blk>
    tt.return %g : tensor<128xf32, #blk>
  }
}

// -----

// The TMA loads Triton's ttng op cannot express. A two-CTA load completes on
// the mbarrier of the pair's even CTA (%cluster_ctarank & ~1, mapped with
// mapa) with .cta_group::2; an eviction policy becomes an L2 cache policy.
module attributes {"ttg.num-warps" = 4 : i32, "ttg.cluster-dim-x" = 2 : i32} {
  // CHECK-LABEL: tt.func public @two_cta_load
  tt.func public @two_cta_load(%desc: !tt.tensordesc<tensor<64x64xf16>>, %x: i32) {
    %c0 = arith.constant 0 : i32
    %bufs = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
    %buf = tlx.local_view %bufs[%c0] : !tlx.buffers<1, 64x64xf16, smem>
    %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
    %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
    // CHECK:      %[[S:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !ttg.memdesc<1xi64, {{.*}}> to !llvm.struct<(ptr<3>, i32)>
    // CHECK-NEXT: %[[BAR:.*]] = llvm.extractvalue %[[S]][0]
    // CHECK:      %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
    // CHECK-NEXT: %[[NOTONE:.*]] = arith.constant -2 : i32
    // CHECK-NEXT: %[[EVEN:.*]] = arith.andi %[[RANK]], %[[NOTONE]] : i32
    // CHECK-NEXT: %[[LEADER:.*]] = nvvm.mapa %[[BAR]], %[[EVEN]] : !llvm.ptr<3> -> !llvm.ptr<7>
    // CHECK-NEXT: %[[POLICY:.*]] = llvm.inline_asm asm_dialect = att "createpolicy.fractional.L2::evict_last.b64 $0, 1.0;", "=l"  : () -> i64
    // CHECK:      ttg.local_barrier
    // CHECK-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "@$0 cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.cta_group::2.L2::cache_hint [$1], [$2, {$3, $4}], [$5], $6;", "b,r,l,r,r,r,l" %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[LEADER]], %[[POLICY]]
    // CHECK-NOT:  cp.async.bulk.tensor
    // CHECK:      tt.return
    tlx.async_descriptor_load %desc[%x, %x], %buf, %bar two_ctas {evict = 3 : i32} : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
    tt.return
  }
}

// -----

// A TMA store and a reduction with an L2 cache hint: inline PTX per box (two
// 64-column boxes of a 64x128 block), then one bulk commit by the issuer; a
// prefetch with a hint.
module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: tt.func public @cache_hinted_stores
  tt.func public @cache_hinted_stores(%desc: !tt.tensordesc<tensor<64x128xf16>>, %x: i32) {
    %c0 = arith.constant 0 : i32
    %bufs = tlx.local_alloc : !tlx.buffers<1, 64x128xf16, smem>
    %buf = tlx.local_view %bufs[%c0] : !tlx.buffers<1, 64x128xf16, smem>
    // CHECK:      %[[P1:.*]] = llvm.inline_asm asm_dialect = att "createpolicy.fractional.L2::evict_first.b64 $0, 1.0;", "=l"
    // Other threads' writes of the buffer land before the issuing thread's copy reads it.
    // CHECK-NEXT: ttg.local_barrier
    // CHECK-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "@$0 cp.async.bulk.tensor.2d.global.shared::cta.bulk_group.L2::cache_hint [$1, {$2, $3}], [$4], $5;", "b,l,r,r,r,l" %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[P1]]
    // CHECK:      llvm.mlir.constant(8192 : i32)
    // CHECK:      arith.constant 64 : i32
    // CHECK:      "@$0 cp.async.bulk.tensor.2d.global.shared::cta.bulk_group.L2::cache_hint
    // CHECK-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "@$0 cp.async.bulk.commit_group;", "b"
    tlx.async_descriptor_store %desc[%x, %x], %buf {evict = 2 : i32} : !tt.tensordesc<tensor<64x128xf16>>, !tlx.buffer<64x128xf16, smem>
    // CHECK:      "createpolicy.fractional.L2::evict_last.b64 $0, 1.0;"
    // CHECK:      "@$0 cp.reduce.async.bulk.tensor.2d.global.shared::cta.min.bulk_group.L2::cache_hint [$1, {$2, $3}], [$4], $5;", "b,l,r,r,r,l"
    // CHECK:      cp.reduce.async.bulk.tensor.2d.global.shared::cta.min.bulk_group.L2::cache_hint
    // CHECK-NEXT: "@$0 cp.async.bulk.commit_group;"
    tlx.async_descriptor_store %desc[%x, %x], %buf reduce min {evict = 3 : i32} : !tt.tensordesc<tensor<64x128xf16>>, !tlx.buffer<64x128xf16, smem>
    // CHECK:      %[[P3:.*]] = llvm.inline_asm asm_dialect = att "createpolicy.fractional.L2::evict_first.b64 $0, 1.0;"
    // CHECK:      "@$0 cp.async.bulk.prefetch.tensor.2d.L2.global.L2::cache_hint [$1, {$2, $3}], $4;", "b,l,r,r,l" %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[P3]]
    // CHECK:      cp.async.bulk.prefetch.tensor.2d.L2.global.L2::cache_hint
    tlx.async_descriptor_prefetch_tensor %desc[%x, %x] {evict = 2 : i32} : !tt.tensordesc<tensor<64x128xf16>>
    tt.return
  }
}

// -----

// A bulk load: one thread copies `size` bytes from the pointer into the 1-D
// buffer, completing transaction bytes on the mbarrier.
module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: tt.func public @bulk_load
  // CHECK-SAME:    (%[[G:.*]]: !tt.ptr<f32>, %[[SIZE:.*]]: i32)
  tt.func public @bulk_load(%g: !tt.ptr<f32>, %size: i32) {
    %c0 = arith.constant 0 : i32
    %bufs = tlx.local_alloc : !tlx.buffers<1, 256xf32, smem>
    %buf = tlx.local_view %bufs[%c0] : !tlx.buffers<1, 256xf32, smem>
    %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
    %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
    // CHECK:      %[[SB:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !ttg.memdesc<256xf32, {{.*}}> to !llvm.struct<(ptr<3>, i32)>
    // CHECK-NEXT: %[[DST:.*]] = llvm.extractvalue %[[SB]][0]
    // CHECK-NEXT: %[[SM:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !ttg.memdesc<1xi64, {{.*}}> to !llvm.struct<(ptr<3>, i32)>
    // CHECK-NEXT: %[[BAR:.*]] = llvm.extractvalue %[[SM]][0]
    // CHECK-NEXT: %[[SRC:.*]] = builtin.unrealized_conversion_cast %[[G]] : !tt.ptr<f32> to !llvm.ptr<1>
    // CHECK-NEXT: ttg.local_barrier
    // CHECK:      llvm.inline_asm has_side_effects asm_dialect = att "@$0 cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [$1], [$2], $3, [$4];", "b,r,l,r,r" %{{.*}}, %[[DST]], %[[SRC]], %[[SIZE]], %[[BAR]]
    tlx.async_bulk_load %g to %buf, %size, %bar : !tt.ptr<f32> -> !tlx.buffer<256xf32, smem>
    tt.return
  }
}

// -----

// async_tasks(mbarrier_try_wait_suspend_ns=): on sm_100 every wait of the
// kernel, in the tasks or not, polls try_wait with the smallest hint.
module attributes {"ttg.num-warps" = 4 : i32, "ttg.target" = "cuda:100"} {
  // CHECK-LABEL: tt.func public @suspending_waits
  tt.func public @suspending_waits(%phase: i32, %p: i1) {
    %c0 = arith.constant 0 : i32
    %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
    %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
    // CHECK:      %[[HINT:.*]] = arith.constant 500 : i32
    // CHECK-NEXT: %[[TRUE:.*]] = arith.constant true
    // CHECK-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred complete; @!$3 bra.uni SKIP; WAIT: mbarrier.try_wait.parity.shared::cta.b64 complete, [$0], $1, $2; @!complete bra.uni WAIT; SKIP: }", "r,r,r,b" %{{.*}}, %{{.*}}, %[[HINT]], %[[TRUE]]
    tlx.barrier_wait %bar, %phase : !tlx.mbarrier
    // CHECK:      ttg.warp_specialize
    // CHECK:      arith.constant 500 : i32
    // CHECK:      mbarrier.try_wait.parity.shared::cta.b64 complete, [$0], $1, $2;
    // CHECK-NOT:  ttng.wait_barrier
    // CHECK:      ttg.warp_return
    tlx.async_tasks mbarrier_try_wait_suspend_ns(2000) {
      tlx.async_task default {
      }
      tlx.async_task num_warps(1) {
        tlx.barrier_wait %bar, %phase, %p : !tlx.mbarrier
      }
    }
    tlx.async_tasks mbarrier_try_wait_suspend_ns(500) {
      tlx.async_task default {
      }
    }
    tt.return
  }
}

// -----

// Hopper ignores the hint, as the public TLX compiler does.
module attributes {"ttg.num-warps" = 4 : i32, "ttg.target" = "cuda:90"} {
  // CHECK-LABEL: tt.func public @hopper_waits
  // CHECK:         ttng.wait_barrier
  // CHECK-NOT:     mbarrier.try_wait
  tt.func public @hopper_waits(%phase: i32) {
    %c0 = arith.constant 0 : i32
    %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
    %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
    tlx.async_tasks mbarrier_try_wait_suspend_ns(500) {
      tlx.async_task default {
        tlx.barrier_wait %bar, %phase : !tlx.mbarrier
      }
    }
    tt.return
  }
}
