// Custom syntax of every TLX type and op round-trips, directly and through
// the generic form.
// RUN: tlx-opt %s | tlx-opt | FileCheck %s
// RUN: tlx-opt %s --mlir-print-op-generic | tlx-opt | FileCheck %s

// CHECK-LABEL: func.func @buffers
// CHECK-SAME:    (%[[I:.*]]: i32)
func.func @buffers(%i: i32) -> (!tlx.buffer<128x64xf16, smem>,
                                !tlx.buffer<128x256xf32, tmem>,
                                !tlx.buffer<64xi8, smemCluster>) {
  // CHECK:      %[[A:.*]] = tlx.local_alloc : !tlx.buffers<3, 128x64xf16, smem>
  // CHECK-NEXT: %[[V:.*]] = tlx.local_view %[[A]][%[[I]]] : !tlx.buffers<3, 128x64xf16, smem>
  // CHECK-NEXT: %[[T:.*]] = tlx.local_alloc : !tlx.buffers<1, 128x256xf32, tmem>
  // CHECK-NEXT: %[[TV:.*]] = tlx.local_view %[[T]][%[[I]]] : !tlx.buffers<1, 128x256xf32, tmem>
  // CHECK-NEXT: %[[C:.*]] = tlx.local_alloc : !tlx.buffers<2, 64xi8, smemCluster>
  // CHECK-NEXT: %[[CV:.*]] = tlx.local_view %[[C]][%[[I]]] : !tlx.buffers<2, 64xi8, smemCluster>
  // CHECK-NEXT: return %[[V]], %[[TV]], %[[CV]] : !tlx.buffer<128x64xf16, smem>, !tlx.buffer<128x256xf32, tmem>, !tlx.buffer<64xi8, smemCluster>
  %a = tlx.local_alloc : !tlx.buffers<3, 128x64xf16, smem>
  %v = tlx.local_view %a[%i] : !tlx.buffers<3, 128x64xf16, smem>
  %t = tlx.local_alloc : !tlx.buffers<1, 128x256xf32, tmem>
  %tv = tlx.local_view %t[%i] : !tlx.buffers<1, 128x256xf32, tmem>
  %c = tlx.local_alloc : !tlx.buffers<2, 64xi8, smemCluster>
  %cv = tlx.local_view %c[%i] : !tlx.buffers<2, 64xi8, smemCluster>
  return %v, %tv, %cv : !tlx.buffer<128x64xf16, smem>,
                        !tlx.buffer<128x256xf32, tmem>,
                        !tlx.buffer<64xi8, smemCluster>
}

// CHECK-LABEL: func.func @barriers
// CHECK-SAME:    (%[[I:.*]]: i32, %[[PHASE:.*]]: i32, %[[PRED:.*]]: i1)
func.func @barriers(%i: i32, %phase: i32, %pred: i1) {
  // CHECK:      %[[BARS:.*]] = tlx.alloc_barriers arrive_count = 128 : !tlx.mbarriers<4>
  // CHECK-NEXT: %[[M:.*]] = tlx.local_view %[[BARS]][%[[I]]] : !tlx.mbarriers<4>
  // CHECK-NEXT: tlx.barrier_expect_bytes %[[M]], 32768 : !tlx.mbarrier
  // CHECK-NEXT: tlx.barrier_expect_bytes %[[M]], 1048575, %[[PRED]] : !tlx.mbarrier
  // CHECK-NEXT: tlx.barrier_wait %[[M]], %[[PHASE]] : !tlx.mbarrier
  // CHECK-NEXT: tlx.barrier_wait %[[M]], %[[PHASE]], %[[PRED]] : !tlx.mbarrier
  // CHECK-NEXT: tlx.barrier_arrive %[[M]], 1 : !tlx.mbarrier
  // CHECK-NEXT: tlx.barrier_arrive %[[M]], 128 : !tlx.mbarrier
  // CHECK-NEXT: tlx.barrier_arrive %[[M]], 1, %[[PRED]] : !tlx.mbarrier
  // CHECK-NEXT: tlx.barrier_arrive %[[M]], 2 remote %[[I]] : !tlx.mbarrier
  // CHECK-NEXT: tlx.barrier_arrive %[[M]], 1 remote %[[I]], %[[PRED]] : !tlx.mbarrier
  // CHECK-NEXT: tlx.barrier_arrive %[[M]], 1, %[[PRED]] per_thread : !tlx.mbarrier
  // CHECK-NEXT: tlx.barrier_arrive %[[M]], 1 remote %[[I]] per_thread : !tlx.mbarrier
  %bars = tlx.alloc_barriers arrive_count = 128 : !tlx.mbarriers<4>
  %m = tlx.local_view %bars[%i] : !tlx.mbarriers<4>
  tlx.barrier_expect_bytes %m, 32768 : !tlx.mbarrier
  tlx.barrier_expect_bytes %m, 1048575, %pred : !tlx.mbarrier
  tlx.barrier_wait %m, %phase : !tlx.mbarrier
  tlx.barrier_wait %m, %phase, %pred : !tlx.mbarrier
  tlx.barrier_arrive %m, 1 : !tlx.mbarrier
  tlx.barrier_arrive %m, 128 : !tlx.mbarrier
  tlx.barrier_arrive %m, 1, %pred : !tlx.mbarrier
  tlx.barrier_arrive %m, 2 remote %i : !tlx.mbarrier
  tlx.barrier_arrive %m, 1 remote %i, %pred : !tlx.mbarrier
  tlx.barrier_arrive %m, 1, %pred per_thread : !tlx.mbarrier
  tlx.barrier_arrive %m, 1 remote %i per_thread : !tlx.mbarrier
  return
}

// Distributed shared memory: the same buffer or mbarrier in another CTA of the cluster.
// CHECK-LABEL: func.func @cluster_memory
// CHECK-SAME:    (%[[V:.*]]: tensor<64xf32>, %[[R:.*]]: i32, %[[D:.*]]: !tt.tensordesc<tensor<64x64xf16>>, %[[X:.*]]: i32)
func.func @cluster_memory(%v: tensor<64xf32>, %r: i32, %d: !tt.tensordesc<tensor<64x64xf16>>, %x: i32) {
  // CHECK:      tlx.remote_shmem_store %[[V]], %[[B:.*]] remote %[[R]] : tensor<64xf32>, !tlx.buffer<64xf32, smem>
  // CHECK-NEXT: tlx.async_remote_shmem_copy %[[B]] to %[[B]] remote %[[R]], %[[M:.*]] : !tlx.buffer<64xf32, smem> -> !tlx.buffer<64xf32, smem>
  // CHECK-NEXT: tlx.async_remote_shmem_store %[[V]], %[[B]] remote %[[R]], %[[M]] : tensor<64xf32>, !tlx.buffer<64xf32, smem>
  // CHECK:      tlx.async_descriptor_load %[[D]][%[[X]], %[[X]]], %{{.*}}, %[[M]] multicast[%[[R]], %[[X]]] : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  %a = tlx.local_alloc : !tlx.buffers<1, 64xf32, smem>
  %b = tlx.local_view %a[%r] : !tlx.buffers<1, 64xf32, smem>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %m = tlx.local_view %bars[%r] : !tlx.mbarriers<1>
  tlx.remote_shmem_store %v, %b remote %r : tensor<64xf32>, !tlx.buffer<64xf32, smem>
  tlx.async_remote_shmem_copy %b to %b remote %r, %m : !tlx.buffer<64xf32, smem> -> !tlx.buffer<64xf32, smem>
  tlx.async_remote_shmem_store %v, %b remote %r, %m : tensor<64xf32>, !tlx.buffer<64xf32, smem>
  %t = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
  %tv = tlx.local_view %t[%r] : !tlx.buffers<1, 64x64xf16, smem>
  tlx.async_descriptor_load %d[%x, %x], %tv, %m multicast[%r, %x] : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  return
}

// Cluster launch control: responses, a request (one CTA or multicast to the cluster), its decoding.
// CHECK-LABEL: func.func @cluster_launch_control
// CHECK-SAME:    (%[[K:.*]]: i32, %[[M:.*]]: !tlx.mbarrier) -> (!tlx.clc_response, i32, i32, i32)
func.func @cluster_launch_control(%k: i32, %m: !tlx.mbarrier) -> (!tlx.clc_response, i32, i32, i32) {
  // CHECK:      %[[R:.*]] = tlx.alloc_clc_responses : !tlx.clc_responses<2>
  // CHECK-NEXT: %[[V:.*]] = tlx.local_view %[[R]][%[[K]]] : !tlx.clc_responses<2>
  // CHECK-NEXT: tlx.clc_try_cancel %[[V]], %[[M]]{{$}}
  // CHECK-NEXT: tlx.clc_try_cancel %[[V]], %[[M]] multicast{{$}}
  // CHECK-NEXT: %[[X:.*]], %[[Y:.*]], %[[Z:.*]] = tlx.clc_query %[[V]]{{$}}
  // CHECK-NEXT: return %[[V]], %[[X]], %[[Y]], %[[Z]] : !tlx.clc_response, i32, i32, i32
  %r = tlx.alloc_clc_responses : !tlx.clc_responses<2>
  %v = tlx.local_view %r[%k] : !tlx.clc_responses<2>
  tlx.clc_try_cancel %v, %m
  tlx.clc_try_cancel %v, %m multicast
  %x, %y, %z = tlx.clc_query %v
  return %v, %x, %y, %z : !tlx.clc_response, i32, i32, i32
}

// CHECK-LABEL: func.func @gather_scatter
func.func @gather_scatter(%b: !tlx.buffer<64x32xf32, smem>, %i: tensor<16x32xi32>, %v: tensor<16x32xf32>) -> tensor<16x32xf32> {
  // CHECK:      %[[G:.*]] = tlx.local_gather %{{.*}}[%{{.*}}] axis = 0 : !tlx.buffer<64x32xf32, smem>, tensor<16x32xi32> -> tensor<16x32xf32>
  // CHECK-NEXT: tlx.local_scatter %{{.*}}, %{{.*}}[%{{.*}}] axis = 0 : tensor<16x32xf32>, !tlx.buffer<64x32xf32, smem>, tensor<16x32xi32>
  %g = tlx.local_gather %b[%i] axis = 0 : !tlx.buffer<64x32xf32, smem>, tensor<16x32xi32> -> tensor<16x32xf32>
  tlx.local_scatter %v, %b[%i] axis = 0 : tensor<16x32xf32>, !tlx.buffer<64x32xf32, smem>, tensor<16x32xi32>
  return %g : tensor<16x32xf32>
}

// CHECK-LABEL: func.func @fences_prefetch_bulk_store
func.func @fences_prefetch_bulk_store(%d: !tt.tensordesc<tensor<64x64xf16>>, %x: i32, %p: i1, %g: !tt.ptr<f16>) {
  // CHECK:      tlx.fence gpu
  // CHECK-NEXT: tlx.fence sys
  // CHECK-NEXT: tlx.async_descriptor_prefetch_tensor %{{.*}}[%{{.*}}, %{{.*}}] : !tt.tensordesc<tensor<64x64xf16>>
  // CHECK-NEXT: tlx.async_descriptor_prefetch_tensor %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tt.tensordesc<tensor<64x64xf16>>
  // CHECK:      tlx.async_store %{{.*}} to %{{.*}}, %{{.*}} : !tlx.buffer<64x64xf16, smem> -> !tt.ptr<f16>
  tlx.fence gpu
  tlx.fence sys
  tlx.async_descriptor_prefetch_tensor %d[%x, %x] : !tt.tensordesc<tensor<64x64xf16>>
  tlx.async_descriptor_prefetch_tensor %d[%x, %x], %p : !tt.tensordesc<tensor<64x64xf16>>
  %a = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
  %b = tlx.local_view %a[%x] : !tlx.buffers<1, 64x64xf16, smem>
  tlx.async_store %b to %g, %x : !tlx.buffer<64x64xf16, smem> -> !tt.ptr<f16>
  return
}

// The view result type is inferred from the set in the generic form too.
// CHECK-LABEL: func.func @generic_view
// CHECK:         tlx.local_view %{{.*}}[%{{.*}}] : !tlx.buffers<2, 16x16xbf16, smem>
func.func @generic_view(%i: i32) {
  %a = "tlx.local_alloc"() : () -> !tlx.buffers<2, 16x16xbf16, smem>
  %v = "tlx.local_view"(%a, %i) : (!tlx.buffers<2, 16x16xbf16, smem>, i32) -> !tlx.buffer<16x16xbf16, smem>
  return
}

// Warp specialization: regions print back as written, attributes only where they differ from the default.
// CHECK-LABEL: func.func @tasks
// CHECK-NEXT:    tlx.async_tasks {
// CHECK-NEXT:      tlx.async_task default registers(40) {
// CHECK-NEXT:      }
// CHECK-NEXT:      tlx.async_task num_warps(4) registers(232) replicate(2) {
// CHECK-NEXT:        %{{.*}} = tlx.async_task_replica_id : i32
// CHECK-NEXT:      }
// CHECK-NEXT:      tlx.async_task num_warps(1) {
// CHECK-NEXT:      }
// CHECK-NEXT:    }
func.func @tasks() {
  tlx.async_tasks {
    tlx.async_task default registers(40) {
    }
    tlx.async_task num_warps(4) registers(232) replicate(2) {
      %r = tlx.async_task_replica_id : i32
    }
    tlx.async_task num_warps(1) replicate(1) {
    }
  }
  return
}

// The public API's task options: exclusive, and the mbarrier.try_wait suspend-time hint.
// CHECK-LABEL: func.func @task_options
// CHECK-NEXT:    tlx.async_tasks exclusive mbarrier_try_wait_suspend_ns(50000) {
// CHECK-NEXT:      tlx.async_task default {
func.func @task_options() {
  tlx.async_tasks exclusive mbarrier_try_wait_suspend_ns(50000) {
    tlx.async_task default {
    }
  }
  return
}

// The options of the public API's copies: TMA reductions and L2 cache hints, two-CTA TMA loads, bulk loads.
// CHECK-LABEL: func.func @copy_options
// CHECK-SAME:    (%[[D:.*]]: !tt.tensordesc<tensor<64x64xf32>>, %[[X:.*]]: i32, %[[G:.*]]: !tt.ptr<f32>)
func.func @copy_options(%d: !tt.tensordesc<tensor<64x64xf32>>, %x: i32, %g: !tt.ptr<f32>) {
  // CHECK:      tlx.async_descriptor_load %[[D]][%[[X]], %[[X]]], %[[B:.*]], %[[M:.*]] two_ctas {evict = 3 : i32} : !tt.tensordesc<tensor<64x64xf32>>, !tlx.buffer<64x64xf32, smem>
  // CHECK-NEXT: tlx.async_descriptor_store %[[D]][%[[X]], %[[X]]], %[[B]] reduce add : !tt.tensordesc<tensor<64x64xf32>>, !tlx.buffer<64x64xf32, smem>
  // CHECK-NEXT: tlx.async_descriptor_store %[[D]][%[[X]], %[[X]]], %[[B]] reduce add {evict = 2 : i32} : !tt.tensordesc<tensor<64x64xf32>>, !tlx.buffer<64x64xf32, smem>
  // CHECK-NEXT: tlx.async_descriptor_store %[[D]][%[[X]], %[[X]]], %[[B]] {evict = 3 : i32} : !tt.tensordesc<tensor<64x64xf32>>, !tlx.buffer<64x64xf32, smem>
  // CHECK-NEXT: tlx.async_descriptor_prefetch_tensor %[[D]][%[[X]], %[[X]]] {evict = 2 : i32} : !tt.tensordesc<tensor<64x64xf32>>
  // CHECK-NEXT: tlx.async_bulk_load %[[G]] to %[[V:.*]], %[[X]], %[[M]] : !tt.ptr<f32> -> !tlx.buffer<256xf32, smem>
  %c0 = arith.constant 0 : i32
  %a = tlx.local_alloc : !tlx.buffers<1, 64x64xf32, smem>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %vs = tlx.local_alloc : !tlx.buffers<1, 256xf32, smem>
  %b = tlx.local_view %a[%c0] : !tlx.buffers<1, 64x64xf32, smem>
  %m = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  %v = tlx.local_view %vs[%c0] : !tlx.buffers<1, 256xf32, smem>
  tlx.async_descriptor_load %d[%x, %x], %b, %m two_ctas {evict = 3 : i32} : !tt.tensordesc<tensor<64x64xf32>>, !tlx.buffer<64x64xf32, smem>
  tlx.async_descriptor_store %d[%x, %x], %b reduce add : !tt.tensordesc<tensor<64x64xf32>>, !tlx.buffer<64x64xf32, smem>
  tlx.async_descriptor_store %d[%x, %x], %b reduce add {evict = 2 : i32} : !tt.tensordesc<tensor<64x64xf32>>, !tlx.buffer<64x64xf32, smem>
  tlx.async_descriptor_store %d[%x, %x], %b {evict = 3 : i32} : !tt.tensordesc<tensor<64x64xf32>>, !tlx.buffer<64x64xf32, smem>
  tlx.async_descriptor_prefetch_tensor %d[%x, %x] {evict = 2 : i32} : !tt.tensordesc<tensor<64x64xf32>>
  tlx.async_bulk_load %g to %v, %x, %m : !tt.ptr<f32> -> !tlx.buffer<256xf32, smem>
  return
}

// Buffer views and register <-> buffer copies.
// CHECK-LABEL: func.func @views_and_copies
// CHECK-SAME:    (%[[I:.*]]: i32, %[[X:.*]]: tensor<64x128xf16>)
func.func @views_and_copies(%i: i32, %x: tensor<64x128xf16>) -> tensor<64x128xf16> {
  // CHECK:      %[[V:.*]] = tlx.local_view
  // CHECK-NEXT: %{{.*}} = tlx.local_trans %[[V]], [1, 0] : !tlx.buffer<64x128xf16, smem> -> !tlx.buffer<128x64xf16, smem>
  // CHECK-NEXT: %{{.*}} = tlx.local_slice %[[V]], [0, 64] : !tlx.buffer<64x128xf16, smem> -> !tlx.buffer<64x64xf16, smem>
  // CHECK-NEXT: %{{.*}} = tlx.local_reinterpret %[[V]] : !tlx.buffer<64x128xf16, smem> -> !tlx.buffer<64x64xf32, smem>
  // CHECK-NEXT: %{{.*}} = tlx.local_reshape %[[V]] : !tlx.buffer<64x128xf16, smem> -> !tlx.buffer<2x32x128xf16, smem>
  // CHECK-NEXT: tlx.local_store %[[X]], %[[V]] : tensor<64x128xf16> -> !tlx.buffer<64x128xf16, smem>
  // CHECK-NEXT: %[[L:.*]] = tlx.local_load %[[V]] : !tlx.buffer<64x128xf16, smem> -> tensor<64x128xf16>
  // CHECK-NEXT: return %[[L]]
  %a = tlx.local_alloc : !tlx.buffers<2, 64x128xf16, smem>
  %v = tlx.local_view %a[%i] : !tlx.buffers<2, 64x128xf16, smem>
  %t = tlx.local_trans %v, [1, 0] : !tlx.buffer<64x128xf16, smem> -> !tlx.buffer<128x64xf16, smem>
  %s = tlx.local_slice %v, [0, 64] : !tlx.buffer<64x128xf16, smem> -> !tlx.buffer<64x64xf16, smem>
  %r = tlx.local_reinterpret %v : !tlx.buffer<64x128xf16, smem> -> !tlx.buffer<64x64xf32, smem>
  %rs = tlx.local_reshape %v : !tlx.buffer<64x128xf16, smem> -> !tlx.buffer<2x32x128xf16, smem>
  tlx.local_store %x, %v : tensor<64x128xf16> -> !tlx.buffer<64x128xf16, smem>
  %l = tlx.local_load %v : !tlx.buffer<64x128xf16, smem> -> tensor<64x128xf16>
  return %l : tensor<64x128xf16>
}

// TMA, cp.async and fences, optional operands present and absent, attributes at and off their defaults.
// CHECK-LABEL: func.func @copies
// CHECK-SAME:    (%[[D:.*]]: !tt.tensordesc<tensor<64x64xf16>>, %[[P:.*]]: tensor<64x!tt.ptr<f32>>, %[[MASK:.*]]: tensor<64xi1>, %[[OTHER:.*]]: tensor<64xf32>, %[[X:.*]]: i32, %[[PRED:.*]]: i1)
func.func @copies(%d: !tt.tensordesc<tensor<64x64xf16>>, %p: tensor<64x!tt.ptr<f32>>, %mask: tensor<64xi1>,
                  %other: tensor<64xf32>, %x: i32, %pred: i1) {
  // CHECK:      tlx.async_descriptor_load %[[D]][%[[X]], %[[X]]], %[[B:.*]], %[[M:.*]] : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  // CHECK-NEXT: tlx.async_descriptor_load %[[D]][%[[X]], %[[X]]], %[[B]], %[[M]], %[[PRED]] : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  // CHECK-NEXT: tlx.fence_async_shared
  // CHECK-NEXT: tlx.async_descriptor_store %[[D]][%[[X]], %[[X]]], %[[B]] : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  // CHECK-NEXT: tlx.async_descriptor_store_wait 0
  // CHECK-NEXT: tlx.async_load %[[P]], %[[C:.*]] : tensor<64x!tt.ptr<f32>> -> !tlx.buffer<64xf32, smem>
  // CHECK-NEXT: tlx.async_load %[[P]], %[[C]] mask %[[MASK]] other %[[OTHER]] {cache = 3 : i32, evict = 2 : i32, isVolatile = true} : tensor<64x!tt.ptr<f32>> -> !tlx.buffer<64xf32, smem>
  // CHECK-NEXT: tlx.async_load_commit_group
  // CHECK-NEXT: tlx.async_load_wait_group 1
  %c0 = arith.constant 0 : i32
  %a = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %cs = tlx.local_alloc : !tlx.buffers<1, 64xf32, smem>
  %b = tlx.local_view %a[%c0] : !tlx.buffers<1, 64x64xf16, smem>
  %m = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  %c = tlx.local_view %cs[%c0] : !tlx.buffers<1, 64xf32, smem>
  tlx.async_descriptor_load %d[%x, %x], %b, %m : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  tlx.async_descriptor_load %d[%x, %x], %b, %m, %pred : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  tlx.fence_async_shared
  tlx.async_descriptor_store %d[%x, %x], %b : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  tlx.async_descriptor_store_wait 0
  tlx.async_load %p, %c : tensor<64x!tt.ptr<f32>> -> !tlx.buffer<64xf32, smem>
  tlx.async_load %p, %c mask %mask other %other {cache = 3 : i32, evict = 2 : i32, isVolatile = true} : tensor<64x!tt.ptr<f32>> -> !tlx.buffer<64xf32, smem>
  tlx.async_load_commit_group
  tlx.async_load_wait_group 1
  return
}

// Blackwell: tcgen05 MMA into tensor memory, with and without mbarriers and predicates, and tcgen05.commit.
// CHECK-LABEL: func.func @tcgen05
// CHECK-SAME:    (%[[USE:.*]]: i1, %[[P:.*]]: i1)
func.func @tcgen05(%use: i1, %p: i1) {
  // CHECK:      tlx.tcgen05_mma %[[A:.*]], %[[B:.*]], %[[ACC:.*]] : !tlx.buffer<128x64xf16, smem>, !tlx.buffer<64x128xf16, smem>, !tlx.buffer<128x128xf32, tmem>
  // CHECK-NEXT: tlx.tcgen05_mma %[[A]], %[[B]], %[[ACC]], %[[USE]] pred %[[P]] barriers(%[[BAR:.*]], %[[BAR]]) is_async : !tlx.buffer<128x64xf16, smem>, !tlx.buffer<64x128xf16, smem>, !tlx.buffer<128x128xf32, tmem>
  // CHECK-NEXT: tlx.tcgen05_commit %[[BAR]]
  // CHECK-NEXT: tlx.tcgen05_commit %[[BAR]], %[[P]]
  // CHECK:      tlx.tcgen05_mma %[[A]], %[[B2:.*]], %[[ACC]] barriers(%[[BAR]]) two_ctas : !tlx.buffer<128x64xf16, smem>, !tlx.buffer<64x64xf16, smem>, !tlx.buffer<128x128xf32, tmem>
  // CHECK-NEXT: tlx.tcgen05_commit %[[BAR]] two_ctas
  // CHECK-NEXT: tlx.tmem_copy %[[SRC:.*]], %[[ACC]] : !tlx.buffer<128x128xf32, smem>, !tlx.buffer<128x128xf32, tmem>
  %c0 = arith.constant 0 : i32
  %as = tlx.local_alloc : !tlx.buffers<1, 128x64xf16, smem>
  %bs = tlx.local_alloc : !tlx.buffers<1, 64x128xf16, smem>
  %accs = tlx.local_alloc : !tlx.buffers<1, 128x128xf32, tmem>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %a = tlx.local_view %as[%c0] : !tlx.buffers<1, 128x64xf16, smem>
  %b = tlx.local_view %bs[%c0] : !tlx.buffers<1, 64x128xf16, smem>
  %acc = tlx.local_view %accs[%c0] : !tlx.buffers<1, 128x128xf32, tmem>
  %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  tlx.tcgen05_mma %a, %b, %acc : !tlx.buffer<128x64xf16, smem>, !tlx.buffer<64x128xf16, smem>, !tlx.buffer<128x128xf32, tmem>
  tlx.tcgen05_mma %a, %b, %acc, %use pred %p barriers(%bar, %bar) is_async : !tlx.buffer<128x64xf16, smem>, !tlx.buffer<64x128xf16, smem>, !tlx.buffer<128x128xf32, tmem>
  tlx.tcgen05_commit %bar
  tlx.tcgen05_commit %bar, %p
  %b2s = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
  %b2 = tlx.local_view %b2s[%c0] : !tlx.buffers<1, 64x64xf16, smem>
  %srcs = tlx.local_alloc : !tlx.buffers<1, 128x128xf32, smem>
  %src = tlx.local_view %srcs[%c0] : !tlx.buffers<1, 128x128xf32, smem>
  tlx.tcgen05_mma %a, %b2, %acc barriers(%bar) two_ctas : !tlx.buffer<128x64xf16, smem>, !tlx.buffer<64x64xf16, smem>, !tlx.buffer<128x128xf32, tmem>
  tlx.tcgen05_commit %bar two_ctas
  tlx.tmem_copy %src, %acc : !tlx.buffer<128x128xf32, smem>, !tlx.buffer<128x128xf32, tmem>
  return
}

// Blackwell: block-scaled tcgen05 MMA (scales in tensor memory or in shared memory in the cuBLAS layout),
// a block-scale tcgen05.cp and stochastic rounding.
// CHECK-LABEL: func.func @block_scaled
// CHECK-SAME:    (%[[USE:.*]]: i1, %[[P:.*]]: i1, %[[X:.*]]: tensor<256xf32>, %[[BITS:.*]]: tensor<256xi32>)
func.func @block_scaled(%use: i1, %p: i1, %x: tensor<256xf32>, %bits: tensor<256xi32>) -> (tensor<256xf8E4M3FN>, tensor<256xbf16>) {
  // CHECK:      tlx.tcgen05_mma_scaled %[[A:.*]], %[[B:.*]], %[[ACC:.*]], %[[SA:.*]], %[[SB:.*]] lhs = e4m3 rhs = e5m2 : !tlx.buffer<128x128xf8E4M3FN, smem>, !tlx.buffer<128x128xf8E5M2, smem>, !tlx.buffer<128x128xf32, tmem>, !tlx.buffer<128x4xi8, tmem>, !tlx.buffer<128x4xi8, tmem>
  // CHECK-NEXT: tlx.tcgen05_mma_scaled %[[A4:.*]], %[[B4:.*]], %[[ACC]], %[[SS:.*]], %[[SS]], %[[USE]] pred %[[P]] lhs = e2m1 rhs = e2m1 barriers(%[[BAR:.*]]) is_async : !tlx.buffer<128x64xi8, smem>, !tlx.buffer<64x128xi8, smem>, !tlx.buffer<128x128xf32, tmem>, !tlx.buffer<1x1x1x2x256xi8, smem>, !tlx.buffer<1x1x1x2x256xi8, smem>
  // CHECK-NEXT: tlx.tmem_copy %[[SS]], %[[SA]] : !tlx.buffer<1x1x1x2x256xi8, smem>, !tlx.buffer<128x4xi8, tmem>
  // CHECK-NEXT: %[[Y:.*]] = tlx.stoch_round %[[X]], %[[BITS]] : tensor<256xf32>, tensor<256xi32> -> tensor<256xf8E4M3FN>
  // CHECK-NEXT: %[[Z:.*]] = tlx.stoch_round %[[X]], %[[BITS]] : tensor<256xf32>, tensor<256xi32> -> tensor<256xbf16>
  // CHECK-NEXT: return %[[Y]], %[[Z]]
  %c0 = arith.constant 0 : i32
  %as = tlx.local_alloc : !tlx.buffers<1, 128x128xf8E4M3FN, smem>
  %bs = tlx.local_alloc : !tlx.buffers<1, 128x128xf8E5M2, smem>
  %a4s = tlx.local_alloc : !tlx.buffers<1, 128x64xi8, smem>
  %b4s = tlx.local_alloc : !tlx.buffers<1, 64x128xi8, smem>
  %accs = tlx.local_alloc : !tlx.buffers<1, 128x128xf32, tmem>
  %sts = tlx.local_alloc : !tlx.buffers<2, 128x4xi8, tmem>
  %sss = tlx.local_alloc : !tlx.buffers<1, 1x1x1x2x256xi8, smem>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %a = tlx.local_view %as[%c0] : !tlx.buffers<1, 128x128xf8E4M3FN, smem>
  %b = tlx.local_view %bs[%c0] : !tlx.buffers<1, 128x128xf8E5M2, smem>
  %a4 = tlx.local_view %a4s[%c0] : !tlx.buffers<1, 128x64xi8, smem>
  %b4 = tlx.local_view %b4s[%c0] : !tlx.buffers<1, 64x128xi8, smem>
  %acc = tlx.local_view %accs[%c0] : !tlx.buffers<1, 128x128xf32, tmem>
  %sa = tlx.local_view %sts[%c0] : !tlx.buffers<2, 128x4xi8, tmem>
  %sb = tlx.local_view %sts[%c0] : !tlx.buffers<2, 128x4xi8, tmem>
  %ss = tlx.local_view %sss[%c0] : !tlx.buffers<1, 1x1x1x2x256xi8, smem>
  %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  tlx.tcgen05_mma_scaled %a, %b, %acc, %sa, %sb lhs = e4m3 rhs = e5m2 : !tlx.buffer<128x128xf8E4M3FN, smem>, !tlx.buffer<128x128xf8E5M2, smem>, !tlx.buffer<128x128xf32, tmem>, !tlx.buffer<128x4xi8, tmem>, !tlx.buffer<128x4xi8, tmem>
  tlx.tcgen05_mma_scaled %a4, %b4, %acc, %ss, %ss, %use pred %p lhs = e2m1 rhs = e2m1 barriers(%bar) is_async : !tlx.buffer<128x64xi8, smem>, !tlx.buffer<64x128xi8, smem>, !tlx.buffer<128x128xf32, tmem>, !tlx.buffer<1x1x1x2x256xi8, smem>, !tlx.buffer<1x1x1x2x256xi8, smem>
  tlx.tmem_copy %ss, %sa : !tlx.buffer<1x1x1x2x256xi8, smem>, !tlx.buffer<128x4xi8, tmem>
  %y = tlx.stoch_round %x, %bits : tensor<256xf32>, tensor<256xi32> -> tensor<256xf8E4M3FN>
  %z = tlx.stoch_round %x, %bits : tensor<256xf32>, tensor<256xi32> -> tensor<256xbf16>
  return %y, %z : tensor<256xf8E4M3FN>, tensor<256xbf16>
}

// Asynchronous MMA (a from shared memory and from registers), named barriers, special registers.
// CHECK-LABEL: func.func @mma_and_registers
// CHECK-SAME:    (%[[ACC:.*]]: tensor<64x64xf32>, %[[AR:.*]]: tensor<64x64xf16>, %[[USE:.*]]: i1, %[[ID:.*]]: i32)
func.func @mma_and_registers(%acc: tensor<64x64xf32>, %ar: tensor<64x64xf16>, %use: i1, %id: i32) -> (i32, i64) {
  // CHECK:      %[[D1:.*]] = tlx.async_dot %[[A:.*]], %[[A]], %[[ACC]] : !tlx.buffer<64x64xf16, smem> * !tlx.buffer<64x64xf16, smem> -> tensor<64x64xf32>
  // CHECK-NEXT: %[[D2:.*]] = tlx.async_dot %[[AR]], %[[A]], %[[D1]], %[[USE]] {inputPrecision = 2 : i32, maxNumImpreciseAcc = 32 : i32} : tensor<64x64xf16> * !tlx.buffer<64x64xf16, smem> -> tensor<64x64xf32>
  // CHECK-NEXT: %{{.*}} = tlx.async_dot_wait %[[D2]], 0 : tensor<64x64xf32>
  // CHECK-NEXT: tlx.named_barrier_wait %[[ID]], %{{.*}}
  // CHECK-NEXT: tlx.named_barrier_arrive %[[ID]], %{{.*}}
  // CHECK-NEXT: %[[TID:.*]] = tlx.thread_id 1 : i32
  // CHECK-NEXT: %[[CLOCK:.*]] = tlx.clock64 : i64
  // CHECK-NEXT: return %[[TID]], %[[CLOCK]]
  %c0 = arith.constant 0 : i32
  %c256 = arith.constant 256 : i32
  %bufs = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
  %a = tlx.local_view %bufs[%c0] : !tlx.buffers<1, 64x64xf16, smem>
  %d1 = tlx.async_dot %a, %a, %acc : !tlx.buffer<64x64xf16, smem> * !tlx.buffer<64x64xf16, smem> -> tensor<64x64xf32>
  %d2 = tlx.async_dot %ar, %a, %d1, %use {inputPrecision = 2 : i32, maxNumImpreciseAcc = 32 : i32} : tensor<64x64xf16> * !tlx.buffer<64x64xf16, smem> -> tensor<64x64xf32>
  %w = tlx.async_dot_wait %d2, 0 : tensor<64x64xf32>
  tlx.named_barrier_wait %id, %c256
  tlx.named_barrier_arrive %id, %c256
  %tid = tlx.thread_id 1 : i32
  %clock = tlx.clock64 : i64
  return %tid, %clock : i32, i64
}

// Warp votes: of a scalar, of a tensor.
// CHECK-LABEL: func.func @votes
// CHECK-SAME:    (%[[P:.*]]: i1, %[[Q:.*]]: tensor<128xi1>)
// CHECK-NEXT:    %[[B:.*]] = tlx.vote_ballot_sync %[[P]] {mask = -1 : i32} : i1 -> i32
// CHECK-NEXT:    %[[T:.*]] = tlx.vote_ballot_sync %[[Q]] {mask = -1 : i32} : tensor<128xi1> -> tensor<128xi32>
// CHECK-NEXT:    return %[[B]], %[[T]]
func.func @votes(%p: i1, %q: tensor<128xi1>) -> (i32, tensor<128xi32>) {
  %b = tlx.vote_ballot_sync %p {mask = -1 : i32} : i1 -> i32
  %t = tlx.vote_ballot_sync %q {mask = -1 : i32} : tensor<128xi1> -> tensor<128xi32>
  return %b, %t : i32, tensor<128xi32>
}

// Rows scaled by one factor each.
// CHECK-LABEL: func.func @scaled_rows
// CHECK-SAME:    (%[[X:.*]]: tensor<64x128xf32>, %[[S:.*]]: tensor<64xf32>)
// CHECK-NEXT:    %[[Y:.*]] = tlx.scale_rows %[[X]], %[[S]] : tensor<64x128xf32>, tensor<64xf32>
// CHECK-NEXT:    return %[[Y]]
func.func @scaled_rows(%x: tensor<64x128xf32>, %s: tensor<64xf32>) -> tensor<64x128xf32> {
  %y = tlx.scale_rows %x, %s : tensor<64x128xf32>, tensor<64xf32>
  return %y : tensor<64x128xf32>
}

// Clusters.
// CHECK-LABEL: func.func @clusters
// CHECK-NEXT:    %[[RANK:.*]] = tlx.cluster_cta_rank : i32
// CHECK-NEXT:    %[[SIZE:.*]] = tlx.cluster_size_1d : i32
// CHECK-NEXT:    tlx.fence_mbarrier_init_cluster
// CHECK-NEXT:    tlx.cluster_barrier
// CHECK-NEXT:    return %[[RANK]], %[[SIZE]]
func.func @clusters() -> (i32, i32) {
  %rank = tlx.cluster_cta_rank : i32
  %size = tlx.cluster_size_1d : i32
  tlx.fence_mbarrier_init_cluster
  tlx.cluster_barrier
  return %rank, %size : i32, i32
}

// A compile-time layout report.
// CHECK-LABEL: func.func @dump_layout
func.func @dump_layout(%t: tensor<64x64xf32>) {
  // CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : i32
  // CHECK-NEXT: %[[BUFS:.*]] = tlx.local_alloc
  // CHECK-NEXT: %[[B:.*]] = tlx.local_view %[[BUFS]][%[[C0]]]
  // CHECK-NEXT: tlx.dump_layout %arg0 : tensor<64x64xf32>
  // CHECK-NEXT: tlx.dump_layout %[[B]] : !tlx.buffer<64x64xf16, smem>
  %c0 = arith.constant 0 : i32
  %bufs = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
  %b = tlx.local_view %bufs[%c0] : !tlx.buffers<1, 64x64xf16, smem>
  tlx.dump_layout %t : tensor<64x64xf32>
  tlx.dump_layout %b : !tlx.buffer<64x64xf16, smem>
  return
}

// Storage aliasing: a spec, buffer sets that are views of it, their placement.
// CHECK-LABEL: func.func @storage_alias
func.func @storage_alias() {
  // CHECK:      %[[S:.*]] = tlx.storage_alias_spec {buffer_size_bytes = 65536 : i32} : !tlx.storage_alias_spec<smem>
  // CHECK-NEXT: %[[A:.*]] = tlx.local_alloc reuse(%[[S]] : !tlx.storage_alias_spec<smem>) : !tlx.buffers<2, 64x64xf32, smem>
  // CHECK-NEXT: %[[B:.*]] = tlx.local_alloc reuse(%[[S]] : !tlx.storage_alias_spec<smem>) : !tlx.buffers<4, 64x32xf16, smem>
  // CHECK-NEXT: %[[G:.*]] = tlx.reuse_group(%[[B]]) shared group_size = 2 : !tlx.buffers<4, 64x32xf16, smem>
  // CHECK-NEXT: %[[R:.*]] = tlx.reuse_group(%[[A]], %[[G]]) shared group_size = 1 : !tlx.buffers<2, 64x64xf32, smem>, !tlx.reuse_group
  // CHECK-NEXT: tlx.set_buffer_overlap %[[S]], %[[R]] : !tlx.storage_alias_spec<smem>
  // CHECK-NEXT: %[[C:.*]] = tlx.local_alloc : !tlx.buffers<1, 64x64xf32, smem>
  // CHECK-NEXT: tlx.local_alloc reuse(%[[C]] : !tlx.buffers<1, 64x64xf32, smem>) : !tlx.buffers<2, 64x64xf16, smem>
  %s = tlx.storage_alias_spec {buffer_size_bytes = 65536 : i32} : !tlx.storage_alias_spec<smem>
  %a = tlx.local_alloc reuse(%s : !tlx.storage_alias_spec<smem>) : !tlx.buffers<2, 64x64xf32, smem>
  %b = tlx.local_alloc reuse(%s : !tlx.storage_alias_spec<smem>) : !tlx.buffers<4, 64x32xf16, smem>
  %g = tlx.reuse_group(%b) shared group_size = 2 : !tlx.buffers<4, 64x32xf16, smem>
  %r = tlx.reuse_group(%a, %g) shared group_size = 1 : !tlx.buffers<2, 64x64xf32, smem>, !tlx.reuse_group
  tlx.set_buffer_overlap %s, %r : !tlx.storage_alias_spec<smem>
  %c = tlx.local_alloc : !tlx.buffers<1, 64x64xf32, smem>
  %d = tlx.local_alloc reuse(%c : !tlx.buffers<1, 64x64xf32, smem>) : !tlx.buffers<2, 64x64xf16, smem>
  return
}

// Descriptor slots: an allocation, a slot filled with a descriptor, a
// descriptor read back from a slot.
// CHECK-LABEL: func.func @descriptor_slots
// CHECK-SAME:    (%[[A:.*]]: !tt.ptr<f16>, %[[M:.*]]: i32, %[[S:.*]]: i64)
func.func @descriptor_slots(%a: !tt.ptr<f16>, %m: i32, %s: i64) -> !tt.tensordesc<tensor<64x64xf16>> {
  // CHECK:      %[[P:.*]] = tlx.allocate_tensor_descriptor {num = 2 : i32} : !tt.ptr<i8>
  // CHECK-NEXT: tlx.make_tensor_descriptor %[[P]], %[[A]], [%[[M]], %[[M]]], [%[[S]], %[[S]]] {blockShape = array<i32: 64, 64>} : !tt.ptr<i8>, !tt.ptr<f16>
  // CHECK-NEXT: tlx.make_tensor_descriptor %[[P]], %[[A]], [%[[M]], %[[M]]], [%[[S]], %[[S]]] {blockShape = array<i32: 64, 64>, layout = #{{.*}}, padding = 2 : i32} : !tt.ptr<i8>, !tt.ptr<f16>
  // CHECK-NEXT: %[[D:.*]] = tlx.reinterpret_tensor_descriptor %[[P]] : !tt.ptr<i8> to !tt.tensordesc<tensor<64x64xf16>>
  %p = tlx.allocate_tensor_descriptor {num = 2 : i32} : !tt.ptr<i8>
  tlx.make_tensor_descriptor %p, %a, [%m, %m], [%s, %s] {blockShape = array<i32: 64, 64>} : !tt.ptr<i8>, !tt.ptr<f16>
  tlx.make_tensor_descriptor %p, %a, [%m, %m], [%s, %s] {blockShape = array<i32: 64, 64>, layout = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, padding = 2 : i32} : !tt.ptr<i8>, !tt.ptr<f16>
  %d = tlx.reinterpret_tensor_descriptor %p : !tt.ptr<i8> to !tt.tensordesc<tensor<64x64xf16>>
  return %d : !tt.tensordesc<tensor<64x64xf16>>
}

// Register layouts: a requirement (pinned or not), its release, layout checks.
// CHECK-LABEL: func.func @register_layouts
func.func @register_layouts(%x: tensor<64x64xf32>, %b: !tlx.buffer<64x64xf16, smem>) -> tensor<64x64xf32> {
  // CHECK:      %[[Y:.*]] = tlx.require_layout %{{.*}} {layout = #{{.*}}, pin} : tensor<64x64xf32>
  // CHECK-NEXT: %[[Z:.*]] = tlx.require_layout %[[Y]] {late_address_compute, layout = #{{.*}}} : tensor<64x64xf32>
  // CHECK-NEXT: %[[R:.*]] = tlx.release_layout %[[Z]] : tensor<64x64xf32>
  // CHECK-NEXT: tlx.assert_same_layout %[[Y]], %[[Z]] : tensor<64x64xf32>, tensor<64x64xf32>
  // CHECK-NEXT: tlx.assert_same_layout %[[R]] {expected = #{{.*}}} : tensor<64x64xf32>
  // CHECK-NEXT: tlx.assert_same_layout %{{.*}}, %{{.*}} : !tlx.buffer<64x64xf16, smem>, !tlx.buffer<64x64xf16, smem>
  %y = tlx.require_layout %x {layout = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>, pin} : tensor<64x64xf32>
  %z = tlx.require_layout %y {layout = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>, late_address_compute} : tensor<64x64xf32>
  %r = tlx.release_layout %z : tensor<64x64xf32>
  tlx.assert_same_layout %y, %z : tensor<64x64xf32>, tensor<64x64xf32>
  tlx.assert_same_layout %r {expected = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>} : tensor<64x64xf32>
  tlx.assert_same_layout %b, %b : !tlx.buffer<64x64xf16, smem>, !tlx.buffer<64x64xf16, smem>
  return %r : tensor<64x64xf32>
}

// Triton types integer descriptor blocks with their signedness; the buffer's
// integers are signless.
// CHECK-LABEL: func.func @signed_descriptor_blocks
// CHECK:      tlx.async_descriptor_load %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}, %{{.*}} : !tt.tensordesc<tensor<64x64xsi32>>, !tlx.buffer<64x64xi32, smem>
// CHECK:      tlx.async_descriptor_store %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : !tt.tensordesc<tensor<64x64xui8>>, !tlx.buffer<64x64xi8, smem>
func.func @signed_descriptor_blocks(%d: !tt.tensordesc<tensor<64x64xsi32>>, %u: !tt.tensordesc<tensor<64x64xui8>>, %b: !tlx.buffer<64x64xi32, smem>, %c: !tlx.buffer<64x64xi8, smem>, %m: !tlx.mbarrier, %x: i32) {
  tlx.async_descriptor_load %d[%x, %x], %b, %m : !tt.tensordesc<tensor<64x64xsi32>>, !tlx.buffer<64x64xi32, smem>
  tlx.async_descriptor_store %u[%x, %x], %c : !tt.tensordesc<tensor<64x64xui8>>, !tlx.buffer<64x64xi8, smem>
  return
}
