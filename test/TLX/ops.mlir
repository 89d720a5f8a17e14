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
  %bars = tlx.alloc_barriers arrive_count = 128 : !tlx.mbarriers<4>
  %m = tlx.local_view %bars[%i] : !tlx.mbarriers<4>
  tlx.barrier_expect_bytes %m, 32768 : !tlx.mbarrier
  tlx.barrier_expect_bytes %m, 1048575, %pred : !tlx.mbarrier
  tlx.barrier_wait %m, %phase : !tlx.mbarrier
  tlx.barrier_wait %m, %phase, %pred : !tlx.mbarrier
  tlx.barrier_arrive %m, 1 : !tlx.mbarrier
  tlx.barrier_arrive %m, 128 : !tlx.mbarrier
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
