// RUN: tlx-opt %s -split-input-file --tlx-assign-layouts --tlx-lower-to-nvvm --tlx-lower-to-ttg | FileCheck %s
// RUN: tlx-opt %s -split-input-file --tlx-assign-layouts --tlx-lower-to-nvvm --tlx-lower-to-ttg | FileCheck %s --check-prefix=NOCAST
// The conversion leaves no cast between TLX and TritonGPU types behind.
// NOCAST-NOT: unrealized_conversion_cast
// NOCAST-NOT: !tlx.

// CHECK-DAG: #[[NVMMA:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[BARL:.*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  // The descriptor argument takes the layout of the buffer it fills.
  // CHECK-LABEL: tt.func public @tma(
  // CHECK-SAME:    %[[DESC:.*]]: !tt.tensordesc<tensor<64x64xf16, #[[NVMMA]]>>, %[[I:.*]]: i32, %[[P:.*]]: i1)
  tt.func public @tma(%desc: !tt.tensordesc<tensor<64x64xf16>>, %i: i32, %p: i1) {
    // CHECK: %[[BUFS:.*]] = ttg.local_alloc : () -> !ttg.memdesc<3x64x64xf16, #[[NVMMA]], #smem, mutable>
    %bufs = tlx.local_alloc : !tlx.buffers<3, 64x64xf16, smem>
    // CHECK: %[[BARS:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64, #[[BARL]], #smem, mutable>
    // CHECK: %[[B0:.*]] = ttg.memdesc_index %[[BARS]][%{{.*}}] : {{.*}} -> !ttg.memdesc<1xi64, #[[BARL]], #smem, mutable>
    // CHECK-NEXT: ttng.init_barrier %[[B0]], 2
    // CHECK: ttng.init_barrier %{{.*}}, 2
    // CHECK-NEXT: ttg.local_barrier
    %bars = tlx.alloc_barriers arrive_count = 2 : !tlx.mbarriers<2>
    // CHECK-NEXT: %[[BUF:.*]] = ttg.memdesc_index %[[BUFS]][%[[I]]] : !ttg.memdesc<3x64x64xf16, #[[NVMMA]], #smem, mutable> -> !ttg.memdesc<64x64xf16, #[[NVMMA]], #smem, mutable>
    %buf = tlx.local_view %bufs[%i] : !tlx.buffers<3, 64x64xf16, smem>
    // CHECK-NEXT: %[[BAR:.*]] = ttg.memdesc_index %[[BARS]][%[[I]]]
    %bar = tlx.local_view %bars[%i] : !tlx.mbarriers<2>
    // CHECK-NEXT: %[[TRUE:.*]] = arith.constant true
    // CHECK-NEXT: ttng.barrier_expect %[[BAR]], 8192, %[[TRUE]]
    tlx.barrier_expect_bytes %bar, 8192 : !tlx.mbarrier
    // CHECK-NEXT: ttng.barrier_expect %[[BAR]], 8192, %[[P]]
    tlx.barrier_expect_bytes %bar, 8192, %p : !tlx.mbarrier
    // CHECK-NEXT: ttng.async_tma_copy_global_to_local %[[DESC]][%[[I]], %[[I]]] %[[BUF]], %[[BAR]], %[[P]] :
    tlx.async_descriptor_load %desc[%i, %i], %buf, %bar, %p : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
    // CHECK-NEXT: ttng.wait_barrier %[[BAR]], %[[I]] :
    tlx.barrier_wait %bar, %i : !tlx.mbarrier
    // CHECK-NEXT: ttng.wait_barrier %[[BAR]], %[[I]], %[[P]] :
    tlx.barrier_wait %bar, %i, %p : !tlx.mbarrier
    // CHECK-NEXT: ttng.arrive_barrier %[[BAR]], 2 :
    tlx.barrier_arrive %bar, 2 : !tlx.mbarrier
    // CHECK-NEXT: %[[V:.*]] = ttg.local_load %[[BUF]] : !ttg.memdesc<64x64xf16, #[[NVMMA]], #smem, mutable> -> tensor<64x64xf16, #blocked>
    %v = tlx.local_load %buf : !tlx.buffer<64x64xf16, smem> -> tensor<64x64xf16, #blocked>
    // CHECK-NEXT: ttg.local_store %[[V]], %[[BUF]]
    tlx.local_store %v, %buf : tensor<64x64xf16, #blocked> -> !tlx.buffer<64x64xf16, smem>
    // CHECK-NEXT: ttng.fence_async_shared {bCluster = false}
    tlx.fence_async_shared
    // CHECK-NEXT: ttng.async_tma_copy_local_to_global %[[DESC]][%[[I]], %[[I]]] %[[BUF]]
    tlx.async_descriptor_store %desc[%i, %i], %buf : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
    // A reduction without a cache hint is Triton's own TMA reduction.
    // CHECK-NEXT: ttng.async_tma_reduce add, %[[DESC]][%[[I]], %[[I]]] %[[BUF]]
    tlx.async_descriptor_store %desc[%i, %i], %buf reduce add : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
    // CHECK-NEXT: ttng.async_tma_store_wait {pendings = 1 : i32}
    tlx.async_descriptor_store_wait 1
    // CHECK-NEXT: nvvm.read.ptx.sreg.tid.y : i32
    %tid = tlx.thread_id 1 : i32
    // CHECK-NEXT: nvvm.read.ptx.sreg.clock64 : i64
    %clock = tlx.clock64 : i64
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sw = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  // cp.async into an explicit layout; a device-side descriptor takes its layout.
  // CHECK-LABEL: tt.func public @cp_async
  tt.func public @cp_async(%ptrs: tensor<64x64x!tt.ptr<f16>, #blocked>, %mask: tensor<64x64xi1, #blocked>, %i: i32, %base: !tt.ptr<f16>, %n: i32, %s: i64) {
    // CHECK: %[[BUFS:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #[[SW:.*]], #smem, mutable>
    %bufs = tlx.local_alloc {layout = #sw} : !tlx.buffers<2, 64x64xf16, smem>
    %buf = tlx.local_view %bufs[%i] : !tlx.buffers<2, 64x64xf16, smem>
    // CHECK: ttg.async_copy_global_to_local %{{.*}}, %{{.*}} mask %{{.*}} cacheModifier = cg : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #[[SW]], #smem, mutable>
    tlx.async_load %ptrs, %buf mask %mask {cache = 3 : i32} : tensor<64x64x!tt.ptr<f16>, #blocked> -> !tlx.buffer<64x64xf16, smem>
    // CHECK-NEXT: ttg.async_commit_group
    tlx.async_load_commit_group
    // CHECK-NEXT: ttg.async_wait {num = 0 : i32}
    tlx.async_load_wait_group 0
    // CHECK: tt.make_tensor_descriptor {{.*}} : <f16>, <tensor<64x64xf16, #[[NV:.*]]>>
    %desc = tt.make_tensor_descriptor %base, [%n, %n], [%s, %s] : <f16>, <tensor<64x64xf16>>
    %tma = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
    %one = tlx.local_view %tma[%i] : !tlx.buffers<1, 64x64xf16, smem>
    tlx.async_descriptor_store %desc[%i, %i], %one : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
    tt.return
  }
}

// -----

// Rank-1 buffers default to an unswizzled layout.
// CHECK-LABEL: tt.func @vector
// CHECK: ttg.local_alloc : () -> !ttg.memdesc<4x128xf32, #{{.*}}, #smem, mutable>
tt.func @vector() {
  %v = tlx.local_alloc : !tlx.buffers<4, 128xf32, smem>
  tt.return
}

// -----

// A transposed view of a slice keeps its allocation, transposed.
// CHECK-LABEL: tt.func @trans_of_slice
tt.func @trans_of_slice(%i: i32) {
  %a = tlx.local_alloc : !tlx.buffers<1, 64x128xf16, smem>
  %v = tlx.local_view %a[%i] : !tlx.buffers<1, 64x128xf16, smem>
  // CHECK: %[[S:.*]] = ttg.memdesc_subslice %{{.*}}[0, 64] : {{.*}} -> !ttg.memdesc<64x64xf16, #[[L:.*]], #smem, mutable, 64x128>
  %s = tlx.local_slice %v, [0, 64] : !tlx.buffer<64x128xf16, smem> -> !tlx.buffer<64x64xf16, smem>
  // CHECK: ttg.memdesc_trans %[[S]] {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #[[L]], #smem, mutable, 64x128> -> !ttg.memdesc<64x64xf16, #{{.*}}, #smem, mutable, 128x64>
  %t = tlx.local_trans %s, [1, 0] : !tlx.buffer<64x64xf16, smem> -> !tlx.buffer<64x64xf16, smem>
  tt.return
}

// -----

// A cluster barrier is Triton's own pair: arrive (release), then wait (acquire).
// CHECK-LABEL: tt.func @cluster_barrier
// CHECK-NEXT:    ttng.cluster_arrive {relaxed = false}
// CHECK-NEXT:    ttng.cluster_wait
// CHECK-NEXT:    tt.return
tt.func @cluster_barrier() {
  tlx.cluster_barrier
  tt.return
}

// -----

// Thousands of mbarriers are initialized in a loop (compile time linear in their number); up to 64, one
// init each.
// CHECK-LABEL: tt.func @many_barriers
// CHECK:         %[[ALL:.*]] = ttg.local_alloc : () -> !ttg.memdesc<4096x1xi64
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}}  : i32 {
// CHECK-NEXT:      %[[ONE:.*]] = ttg.memdesc_index %[[ALL]][%[[I]]]
// CHECK-NEXT:      ttng.init_barrier %[[ONE]], 2
// CHECK-NEXT:    }
// CHECK-NEXT:    ttg.local_barrier
// CHECK-NOT:     ttng.init_barrier
tt.func @many_barriers() {
  %m = tlx.alloc_barriers arrive_count = 2 : !tlx.mbarriers<4096>
  tt.return
}

// -----

// A ballot of a scalar is vote.sync.ballot on its flag; of a tensor, the flags under a ballot marker, for
// tlx-lower-warp-ballots once the layout is final.
// CHECK-LABEL: tt.func @ballots
// CHECK-SAME:    (%[[P:.*]]: i1, %[[Q:.*]]: tensor<256xi1, #[[B:[a-z0-9]+]]>)
// CHECK-NEXT:    %[[F:.*]] = arith.extui %[[P]] : i1 to i32
// CHECK-NEXT:    %{{.*}} = tt.elementwise_inline_asm "{ .reg .pred p; .reg .b32 any; mov.b32 any, $1; setp.ne.b32 p, any, 0; vote.sync.ballot.b32 $0, p, 0xffffffff; }" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %[[F]] : i32 -> i32
// CHECK-NEXT:    %[[FS:.*]] = arith.extui %[[Q]] : tensor<256xi1, #[[B]]> to tensor<256xi32, #[[B]]>
// CHECK-NEXT:    %{{.*}} = tt.elementwise_inline_asm "" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tlx.layout_marker = "ballot"} %[[FS]] : tensor<256xi32, #[[B]]> -> tensor<256xi32, #[[B]]>
#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @ballots(%p: i1, %q: tensor<256xi1, #b>) -> (i32, tensor<256xi32, #b>) {
    %s = tlx.vote_ballot_sync %p {mask = -1 : i32} : i1 -> i32
    %t = tlx.vote_ballot_sync %q {mask = -1 : i32} : tensor<256xi1, #b> -> tensor<256xi32, #b>
    tt.return %s, %t : i32, tensor<256xi32, #b>
  }
}

// -----

// Rows scaled by their factors: the factors in the slice of the rows' layout, a ballot marker on those that
// differ from 1, both broadcast along the rows, and a scale marker over the rows, the factors and the ballot.
// CHECK-LABEL: tt.func @scaled_rows
// CHECK-SAME:    (%[[X:.*]]: tensor<64x128xf32, #[[B:[a-z0-9]+]]>, %[[S:.*]]: tensor<64xf32, #{{[a-z0-9]+}}>)
// CHECK-NEXT:    %[[SL:.*]] = ttg.convert_layout %[[S]] : tensor<64xf32, #{{[a-z0-9]+}}> -> tensor<64xf32, #ttg.slice<{dim = 1, parent = #[[B]]}>>
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<64xf32, #ttg.slice<{dim = 1, parent = #[[B]]}>>
// CHECK-NEXT:    %[[NE:.*]] = arith.cmpf une, %[[SL]], %[[ONE]]
// CHECK-NEXT:    %[[F:.*]] = arith.extui %[[NE]] : tensor<64xi1, #ttg.slice<{dim = 1, parent = #[[B]]}>> to tensor<64xi32, #ttg.slice<{dim = 1, parent = #[[B]]}>>
// CHECK-NEXT:    %[[BAL:.*]] = tt.elementwise_inline_asm "" {{.*}}tlx.layout_marker = "ballot"} %[[F]]
// CHECK-NEXT:    %[[SE:.*]] = tt.expand_dims %[[SL]] {axis = 1 : i32} : tensor<64xf32, #ttg.slice<{dim = 1, parent = #[[B]]}>> -> tensor<64x1xf32, #[[B]]>
// CHECK-NEXT:    %[[SB:.*]] = tt.broadcast %[[SE]] : tensor<64x1xf32, #[[B]]> -> tensor<64x128xf32, #[[B]]>
// CHECK-NEXT:    %[[BE:.*]] = tt.expand_dims %[[BAL]] {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, parent = #[[B]]}>> -> tensor<64x1xi32, #[[B]]>
// CHECK-NEXT:    %[[BB:.*]] = tt.broadcast %[[BE]] : tensor<64x1xi32, #[[B]]> -> tensor<64x128xi32, #[[B]]>
// CHECK-NEXT:    %[[Y:.*]] = tt.elementwise_inline_asm "" {constraints = "=r,r,r,r", packed_element = 1 : i32, pure = false, tlx.layout_marker = "scale_rows"} %[[X]], %[[SB]], %[[BB]]
// CHECK-NEXT:    tt.return %[[Y]]
#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#v = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @scaled_rows(%x: tensor<64x128xf32, #b>, %s: tensor<64xf32, #v>) -> tensor<64x128xf32, #b> {
    %y = tlx.scale_rows %x, %s : tensor<64x128xf32, #b>, tensor<64xf32, #v>
    tt.return %y : tensor<64x128xf32, #b>
  }
}
