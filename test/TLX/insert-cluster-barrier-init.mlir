// RUN: tlx-opt %s -split-input-file --tlx-insert-cluster-barrier-init | FileCheck %s

// A remote arrival in a 2-CTA cluster kernel with no fence of its own: the init is released to the cluster
// and every CTA passes a cluster barrier before going on.
// CHECK-LABEL: tt.func @remote_arrive
// CHECK:         tlx.alloc_barriers
// CHECK-NEXT:    tlx.fence_mbarrier_init_cluster
// CHECK-NEXT:    tlx.cluster_barrier
// CHECK:         tlx.barrier_arrive
module attributes {"ttg.cluster-dim-x" = 2 : i32} {
  tt.func @remote_arrive() {
    %c0 = arith.constant 0 : i32
    %bars = tlx.alloc_barriers arrive_count = 2 : !tlx.mbarriers<1>
    %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
    tlx.barrier_arrive %bar, 1 remote %c0 : !tlx.mbarrier
    tt.return
  }
}

// -----

// A two-CTA TMA load completes the mbarrier of the pair's even CTA: the same
// fence and cluster barrier.
// CHECK-LABEL: tt.func @two_cta_load
// CHECK:         tlx.alloc_barriers
// CHECK-NEXT:    tlx.fence_mbarrier_init_cluster
// CHECK-NEXT:    tlx.cluster_barrier
// CHECK:         tlx.async_descriptor_load {{.*}} two_ctas
module attributes {"ttg.cluster-dim-x" = 2 : i32} {
  tt.func @two_cta_load(%d: !tt.tensordesc<tensor<64x64xf16>>, %b: !tlx.buffer<64x64xf16, smem>, %x: i32) {
    %c0 = arith.constant 0 : i32
    %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
    %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
    tlx.async_descriptor_load %d[%x, %x], %b, %bar two_ctas : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
    tt.return
  }
}

// -----

// Warp-specialized: the cluster barrier goes at the start of every task (outside them only the default
// task's warps would run it).
// CHECK-LABEL: tt.func @tasks
// CHECK:         tlx.fence_mbarrier_init_cluster
// CHECK-NOT:     tlx.cluster_barrier
// CHECK:         tlx.async_task default {
// CHECK-NEXT:      tlx.cluster_barrier
// CHECK:         tlx.async_task num_warps(4) {
// CHECK-NEXT:      tlx.cluster_barrier
module attributes {"ttg.cluster-dim-x" = 2 : i32} {
  tt.func @tasks() {
    %c0 = arith.constant 0 : i32
    %bars = tlx.alloc_barriers arrive_count = 2 : !tlx.mbarriers<1>
    tlx.async_tasks {
      tlx.async_task default {
        %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
        tlx.barrier_arrive %bar, 1 remote %c0 : !tlx.mbarrier
      }
      tlx.async_task num_warps(4) {
        %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
        tlx.barrier_wait %bar, %c0 : !tlx.mbarrier
      }
    }
    tt.return
  }
}

// -----

// One-warp tasks (1 + 1 + 1 warps): Triton would pad them with an idle warp, which never arrives on
// a cluster barrier; a one-warp task that passes it takes its place (registers: the smallest
// budget, as the tasks ask for budgets).
// CHECK-LABEL: tt.func @one_warp_tasks
// CHECK:         tlx.async_task default {
// CHECK-NEXT:      tlx.cluster_barrier
// CHECK:         tlx.async_task num_warps(1) registers(24) {
// CHECK-NEXT:      tlx.cluster_barrier
// CHECK:         tlx.async_task num_warps(2) {
// CHECK-NEXT:      tlx.cluster_barrier
// CHECK:         tlx.async_task num_warps(1) registers(24) {
// CHECK-NEXT:      tlx.cluster_barrier
// CHECK-NEXT:    }
// CHECK-NEXT:  }
module attributes {"ttg.cluster-dim-x" = 2 : i32} {
  tt.func @one_warp_tasks() {
    %c0 = arith.constant 0 : i32
    %bars = tlx.alloc_barriers arrive_count = 2 : !tlx.mbarriers<1>
    tlx.async_tasks {
      tlx.async_task default {
        %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
        tlx.barrier_arrive %bar, 1 remote %c0 : !tlx.mbarrier
      }
      tlx.async_task num_warps(1) registers(24) {
        %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
        tlx.barrier_wait %bar, %c0 : !tlx.mbarrier
      }
      tlx.async_task num_warps(2) {
      }
    }
    tt.return
  }
}

// -----

// Two-warp tasks without budgets: two idle warps, one two-warp task without registers.
// CHECK-LABEL: tt.func @two_warp_task
// CHECK:         tlx.async_task num_warps(2) {
// CHECK-NEXT:      tlx.cluster_barrier
// CHECK:         tlx.async_task num_warps(2) {
// CHECK-NEXT:      tlx.cluster_barrier
// CHECK-NEXT:    }
// CHECK-NEXT:  }
module attributes {"ttg.cluster-dim-x" = 2 : i32} {
  tt.func @two_warp_task() {
    %c0 = arith.constant 0 : i32
    %bars = tlx.alloc_barriers arrive_count = 2 : !tlx.mbarriers<1>
    tlx.async_tasks {
      tlx.async_task default {
        %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
        tlx.barrier_arrive %bar, 1 remote %c0 : !tlx.mbarrier
      }
      tlx.async_task num_warps(2) {
      }
    }
    tt.return
  }
}

// -----

// Cluster barriers of the kernel's own directly in the tasks: the idle warps' task passes as many as every
// task does (the kernel's one and the pass's).
// CHECK-LABEL: tt.func @own_barriers_in_tasks
// CHECK:         tlx.async_task num_warps(1) {
// CHECK-NEXT:      tlx.cluster_barrier
// CHECK-NEXT:      tlx.cluster_barrier
// CHECK-NEXT:    }
// CHECK-NEXT:    tlx.async_task num_warps(2) {
// CHECK-NEXT:      tlx.cluster_barrier
// CHECK-NEXT:      tlx.cluster_barrier
// CHECK-NEXT:    }
// CHECK-NEXT:    tlx.async_task num_warps(1) {
// CHECK-NEXT:      tlx.cluster_barrier
// CHECK-NEXT:      tlx.cluster_barrier
// CHECK-NEXT:    }
// CHECK-NEXT:  }
module attributes {"ttg.cluster-dim-x" = 2 : i32} {
  tt.func @own_barriers_in_tasks() {
    %c0 = arith.constant 0 : i32
    %bars = tlx.alloc_barriers arrive_count = 2 : !tlx.mbarriers<1>
    tlx.async_tasks {
      tlx.async_task default {
        tlx.cluster_barrier
        %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
        tlx.barrier_arrive %bar, 1 remote %c0 : !tlx.mbarrier
      }
      tlx.async_task num_warps(1) {
        tlx.cluster_barrier
      }
    }
    tt.return
  }
}

// -----

// Without remote arrivals the pass adds no barrier of its own, but the kernel's barriers still need the
// idle warps: they get a task passing as many. A barrier in a loop cannot be counted: nothing is added
// (tlx-check-clusters refuses such a kernel).
// CHECK-LABEL: tt.func @own_barriers_only
// CHECK:         tlx.async_task num_warps(2) {
// CHECK-NEXT:      tlx.cluster_barrier
// CHECK-NEXT:    }
// CHECK-NEXT:    tlx.async_task num_warps(2) {
// CHECK-NEXT:      tlx.cluster_barrier
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-LABEL: tt.func @barrier_in_a_loop
// CHECK:         tlx.async_task num_warps(2) {
// CHECK-NOT:     tlx.async_task
// CHECK:         tt.return
module attributes {"ttg.cluster-dim-x" = 2 : i32} {
  tt.func @own_barriers_only() {
    tlx.async_tasks {
      tlx.async_task default {
        tlx.cluster_barrier
      }
      tlx.async_task num_warps(2) {
        tlx.cluster_barrier
      }
    }
    tt.return
  }
  tt.func @barrier_in_a_loop(%n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    tlx.async_tasks {
      tlx.async_task default {
        scf.for %i = %c0 to %n step %c1 : i32 {
          tlx.cluster_barrier
        }
      }
      tlx.async_task num_warps(2) {
        scf.for %i = %c0 to %n step %c1 : i32 {
          tlx.cluster_barrier
        }
      }
    }
    tt.return
  }
}

// -----

// The kernel's own fence: nothing is added. No cluster, or no remote completion: nothing either.
// CHECK-LABEL: tt.func @own_fence
// CHECK-COUNT-1: tlx.fence_mbarrier_init_cluster
// CHECK-NOT:     tlx.fence_mbarrier_init_cluster
module attributes {"ttg.cluster-dim-x" = 2 : i32} {
  tt.func @own_fence() {
    %c0 = arith.constant 0 : i32
    %bars = tlx.alloc_barriers arrive_count = 2 : !tlx.mbarriers<1>
    tlx.fence_mbarrier_init_cluster
    tlx.cluster_barrier
    %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
    tlx.barrier_arrive %bar, 1 remote %c0 : !tlx.mbarrier
    tt.return
  }
}

// -----

// CHECK-LABEL: tt.func @local_only
// CHECK-NOT:     tlx.fence_mbarrier_init_cluster
// CHECK-NOT:     tlx.cluster_barrier
module attributes {"ttg.cluster-dim-x" = 2 : i32} {
  tt.func @local_only() {
    %c0 = arith.constant 0 : i32
    %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
    %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
    tlx.barrier_arrive %bar, 1 : !tlx.mbarrier
    tt.return
  }
}

// -----

// A multicast CLC request (clc_producer in a cluster, multi_ctas=False, so no remote arrive): CTA 0's
// request completes every CTA's full barrier, which each CTA must have initialized first.
// CHECK-LABEL: tt.func @clc_multicast
// CHECK:         tlx.alloc_barriers
// CHECK-NEXT:    tlx.fence_mbarrier_init_cluster
// CHECK-NEXT:    tlx.cluster_barrier
// CHECK:         tlx.clc_try_cancel
module attributes {"ttg.cluster-dim-x" = 2 : i32} {
  tt.func @clc_multicast() {
    %c0 = arith.constant 0 : i32
    %responses = tlx.alloc_clc_responses : !tlx.clc_responses<1>
    %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
    %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
    %r = tlx.local_view %responses[%c0] : !tlx.clc_responses<1>
    tlx.barrier_expect_bytes %bar, 16 : !tlx.mbarrier
    tlx.clc_try_cancel %r, %bar multicast
    tt.return
  }
}

// -----

// Without multicast the request completes this CTA's barrier only: nothing is added.
// CHECK-LABEL: tt.func @clc_one_cta
// CHECK-NOT:     tlx.fence_mbarrier_init_cluster
module attributes {"ttg.cluster-dim-x" = 2 : i32} {
  tt.func @clc_one_cta() {
    %c0 = arith.constant 0 : i32
    %responses = tlx.alloc_clc_responses : !tlx.clc_responses<1>
    %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
    %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
    %r = tlx.local_view %responses[%c0] : !tlx.clc_responses<1>
    tlx.barrier_expect_bytes %bar, 16 : !tlx.mbarrier
    tlx.clc_try_cancel %r, %bar
    tt.return
  }
}

// -----

// A cta_group::2 MMA: its commit arrives on the peer's mbarriers and it writes the peer's tensor memory, so
// the init is released and the pair meets at a cluster barrier before any MMA, even without remote arrivals.
// CHECK-LABEL: tt.func @two_cta_mma
// CHECK:         tlx.alloc_barriers
// CHECK-NEXT:    tlx.fence_mbarrier_init_cluster
// CHECK-NEXT:    tlx.cluster_barrier
// CHECK:         tlx.tcgen05_mma
module attributes {"ttg.cluster-dim-x" = 2 : i32} {
  tt.func @two_cta_mma(%a: !tlx.buffer<128x64xf16, smem>, %b: !tlx.buffer<64x64xf16, smem>, %acc: !tlx.buffer<128x128xf32, tmem>) {
    %c0 = arith.constant 0 : i32
    %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
    %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
    tlx.tcgen05_mma %a, %b, %acc barriers(%bar) two_ctas : !tlx.buffer<128x64xf16, smem>, !tlx.buffer<64x64xf16, smem>, !tlx.buffer<128x128xf32, tmem>
    tt.return
  }
}

// -----

// Without mbarriers (force_async) the pair still meets before the MMA (no fence: nothing to release).
// CHECK-LABEL: tt.func @two_cta_mma_without_barriers
// CHECK-NOT:     tlx.fence_mbarrier_init_cluster
// CHECK:         tlx.cluster_barrier
// CHECK-NEXT:    tlx.tcgen05_mma
module attributes {"ttg.cluster-dim-x" = 2 : i32} {
  tt.func @two_cta_mma_without_barriers(%a: !tlx.buffer<128x64xf16, smem>, %b: !tlx.buffer<64x64xf16, smem>, %acc: !tlx.buffer<128x128xf32, tmem>) {
    tlx.tcgen05_mma %a, %b, %acc is_async two_ctas : !tlx.buffer<128x64xf16, smem>, !tlx.buffer<64x64xf16, smem>, !tlx.buffer<128x128xf32, tmem>
    tt.return
  }
}

// -----

// One-CTA tcgen05 in a cluster reaches no peer: nothing is added.
// CHECK-LABEL: tt.func @one_cta_mma
// CHECK-NOT:     tlx.cluster_barrier
module attributes {"ttg.cluster-dim-x" = 2 : i32} {
  tt.func @one_cta_mma(%a: !tlx.buffer<128x64xf16, smem>, %b: !tlx.buffer<64x128xf16, smem>, %acc: !tlx.buffer<128x128xf32, tmem>) {
    %c0 = arith.constant 0 : i32
    %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
    %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
    tlx.tcgen05_mma %a, %b, %acc barriers(%bar) : !tlx.buffer<128x64xf16, smem>, !tlx.buffer<64x128xf16, smem>, !tlx.buffer<128x128xf32, tmem>
    tlx.tcgen05_commit %bar
    tt.return
  }
}
