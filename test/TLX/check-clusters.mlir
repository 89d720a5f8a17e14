// RUN: tlx-opt %s -split-input-file --tlx-check-clusters -verify-diagnostics

// Without a cluster, no op may reach another CTA.
tt.func @no_cluster(%r: i32) {
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %c0 = arith.constant 0 : i32
  %m = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  // expected-error @below {{'tlx.barrier_arrive' op reaches another CTA's shared memory, but the kernel is compiled without a cluster: launch it with ctas_per_cga=(2, 1, 1) or larger}}
  tlx.barrier_arrive %m, 1 remote %r : !tlx.mbarrier
  // A local arrive and the rank are fine.
  tlx.barrier_arrive %m, 1 : !tlx.mbarrier
  %rank = tlx.cluster_cta_rank : i32
  tt.return
}

// -----

module attributes {"ttg.cluster-dim-x" = 2 : i32, "ttg.cluster-dim-y" = 1 : i32, "ttg.cluster-dim-z" = 1 : i32} {
  tt.func @ranks(%d: !tt.tensordesc<tensor<64x64xf16>>, %v: tensor<64xf32>, %r: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
    %m = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
    %t = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
    %tv = tlx.local_view %t[%c0] : !tlx.buffers<1, 64x64xf16, smem>
    %b = tlx.local_alloc : !tlx.buffers<1, 64xf32, smem>
    %bv = tlx.local_view %b[%c0] : !tlx.buffers<1, 64xf32, smem>
    // In the cluster, or not known until run time: fine.
    tlx.barrier_arrive %m, 1 remote %c1 : !tlx.mbarrier
    tlx.async_descriptor_load %d[%c0, %c0], %tv, %m multicast[%c0, %r] : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
    // expected-error @below {{'tlx.barrier_arrive' op remote CTA rank 2 is outside the cluster of 2 CTAs (ranks 0..1)}}
    tlx.barrier_arrive %m, 1 remote %c2 : !tlx.mbarrier
    // expected-error @below {{'tlx.async_descriptor_load' op multicast target 2 is outside the cluster of 2 CTAs (ranks 0..1)}}
    tlx.async_descriptor_load %d[%c0, %c0], %tv, %m multicast[%c0, %c2] : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
    // expected-error @below {{'tlx.remote_shmem_store' op remote CTA rank 2 is outside the cluster of 2 CTAs (ranks 0..1)}}
    tlx.remote_shmem_store %v, %bv remote %c2 : tensor<64xf32>, !tlx.buffer<64xf32, smem>
    // expected-error @below {{'tlx.async_remote_shmem_copy' op remote CTA rank 2 is outside the cluster of 2 CTAs (ranks 0..1)}}
    tlx.async_remote_shmem_copy %bv to %bv remote %c2, %m : !tlx.buffer<64xf32, smem> -> !tlx.buffer<64xf32, smem>
    tt.return
  }
}

// -----

module attributes {"ttg.cluster-dim-x" = 2 : i32} {
  tt.func @barrier_outside_tasks() {
    // expected-error @below {{'tlx.cluster_barrier' op outside the async tasks never completes: only the default task's warps run here, and a cluster barrier waits for every thread of the cluster; call tlx.cluster_barrier() at the start of every task instead}}
    tlx.cluster_barrier
    // expected-note @below {{the tasks are here}}
    tlx.async_tasks {
      tlx.async_task default {
        tlx.cluster_barrier
      }
      tlx.async_task num_warps(4) {
        tlx.cluster_barrier
      }
    }
    tt.return
  }
}

// -----

// Inside tasks every task arrives: a task without the barrier hangs the cluster.
module attributes {"ttg.cluster-dim-x" = 2 : i32} {
  tt.func @barrier_missing_in_a_task() {
    tlx.async_tasks {
      tlx.async_task default {
        // expected-error @below {{'tlx.cluster_barrier' op waits for every thread of the cluster, but a task never calls tlx.cluster_barrier(): its warps would never arrive and every CTA would hang here; call it in every task, the same number of times}}
        tlx.cluster_barrier
      }
      // expected-note @below {{this task never calls it}}
      tlx.async_task num_warps(4) {
      }
    }
    tt.return
  }
}

// -----

// Tasks of 4 + 1 warps are padded to 8 with 3 idle warps, which cannot pass a barrier in a loop.
module attributes {"ttg.cluster-dim-x" = 2 : i32} {
  tt.func @barrier_in_a_loop_beside_idle_warps(%n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    tlx.async_tasks {
      tlx.async_task default {
        scf.for %i = %c0 to %n step %c1 : i32 {
          // expected-error @below {{'tlx.cluster_barrier' op waits for every thread of the cluster, but the tasks beside the default one have 5 warps, which Triton rounds up to whole warp groups of 4: the 3 idle warps cannot pass barriers in a loop or branch and every CTA would hang here; call tlx.cluster_barrier() only directly in the tasks' bodies (TLX then gives the idle warps a task that passes as many), or give the tasks warps adding up to a multiple of 4}}
          tlx.cluster_barrier
        }
      }
      tlx.async_task num_warps(4) {
        scf.for %i = %c0 to %n step %c1 : i32 {
          tlx.cluster_barrier
        }
      }
      tlx.async_task num_warps(1) {
        scf.for %i = %c0 to %n step %c1 : i32 {
          tlx.cluster_barrier
        }
      }
    }
    tt.return
  }
}

// -----

// Directly in the tasks' bodies, the same number of times: the idle warps can pass as many.
module attributes {"ttg.cluster-dim-x" = 2 : i32} {
  tt.func @counted_barriers_beside_idle_warps() {
    tlx.async_tasks {
      tlx.async_task default {
        tlx.cluster_barrier
        tlx.cluster_barrier
      }
      tlx.async_task num_warps(1) {
        tlx.cluster_barrier
        tlx.cluster_barrier
      }
    }
    tt.return
  }
}

// -----

// Counted, but not the same number of times: the task passing more waits forever.
module attributes {"ttg.cluster-dim-x" = 2 : i32} {
  tt.func @different_counts() {
    tlx.async_tasks {
      // expected-note @below {{this task passes 2}}
      tlx.async_task default {
        // expected-error @below {{'tlx.cluster_barrier' op waits for every thread of the cluster, but one task passes 2 cluster barriers and another 1: the threads of the first would wait forever; call tlx.cluster_barrier() the same number of times in every task}}
        tlx.cluster_barrier
        tlx.cluster_barrier
      }
      // expected-note @below {{this task passes 1}}
      tlx.async_task num_warps(4) {
        tlx.cluster_barrier
      }
    }
    tt.return
  }
}

// -----

// Whole warp groups (replicas count): every warp arrives, no error.
module attributes {"ttg.cluster-dim-x" = 2 : i32} {
  tt.func @barrier_in_every_task() {
    tlx.async_tasks {
      tlx.async_task default {
        tlx.cluster_barrier
      }
      tlx.async_task num_warps(2) replicate(2) {
        tlx.cluster_barrier
      }
    }
    tt.return
  }
}

// -----

// two_ctas runs on CTA pairs: it needs a cluster of an even size along x.
tt.func @two_ctas_without_cluster(%a: !tlx.buffer<128x64xf16, smem>, %b: !tlx.buffer<64x64xf16, smem>, %acc: !tlx.buffer<128x128xf32, tmem>, %bar: !tlx.mbarrier) {
  // expected-error @below {{two_ctas (cta_group::2) runs on pairs of CTAs: launch the kernel with ctas_per_cga=(2, 1, 1) (an even cluster size along x), got no cluster}}
  tlx.tcgen05_mma %a, %b, %acc barriers(%bar) two_ctas : !tlx.buffer<128x64xf16, smem>, !tlx.buffer<64x64xf16, smem>, !tlx.buffer<128x128xf32, tmem>
  tt.return
}

// -----

// A two-CTA TMA load completes on the even CTA's mbarrier of its pair.
tt.func @two_cta_load_without_cluster(%d: !tt.tensordesc<tensor<64x64xf16>>, %b: !tlx.buffer<64x64xf16, smem>, %bar: !tlx.mbarrier, %x: i32) {
  // expected-error @below {{'tlx.async_descriptor_load' op two_ctas (cta_group::2) runs on pairs of CTAs: launch the kernel with ctas_per_cga=(2, 1, 1) (an even cluster size along x), got no cluster}}
  tlx.async_descriptor_load %d[%x, %x], %b, %bar two_ctas : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  tt.return
}

// -----

module attributes {"ttg.cluster-dim-x" = 2 : i32} {
  // One CTA group per kernel; commits follow their MMAs' group.
  tt.func @mixed_groups(%a: !tlx.buffer<128x64xf16, smem>, %b: !tlx.buffer<64x64xf16, smem>, %b2: !tlx.buffer<64x128xf16, smem>, %acc: !tlx.buffer<128x128xf32, tmem>, %bar: !tlx.mbarrier) {
    // expected-note @below {{the earlier async_dot}}
    tlx.tcgen05_mma %a, %b, %acc barriers(%bar) two_ctas : !tlx.buffer<128x64xf16, smem>, !tlx.buffer<64x64xf16, smem>, !tlx.buffer<128x128xf32, tmem>
    tlx.tcgen05_commit %bar two_ctas
    // expected-error @below {{two_ctas=False, but an earlier async_dot has two_ctas=True: the tcgen05 MMAs of a kernel use one CTA group (cta_group::1 or ::2)}}
    tlx.tcgen05_mma %a, %b2, %acc : !tlx.buffer<128x64xf16, smem>, !tlx.buffer<64x128xf16, smem>, !tlx.buffer<128x128xf32, tmem>
    tt.return
  }
}

// -----

module attributes {"ttg.cluster-dim-x" = 3 : i32} {
  tt.func @odd_cluster(%bar: !tlx.mbarrier) {
    // expected-error @below {{runs on pairs of CTAs: launch the kernel with ctas_per_cga=(2, 1, 1) (an even cluster size along x), got a cluster of other shape}}
    tlx.tcgen05_commit %bar two_ctas
    tt.return
  }
}

// -----

// A cluster barrier outside any function has no tasks beside it to check.
module attributes {"ttg.cluster-dim-x" = 2 : i32} {
  tlx.cluster_barrier
}
