// RUN: tlx-opt %s -split-input-file -verify-diagnostics --tlx-check-divergent-sync
// RUN: not tlx-opt %s -split-input-file --tlx-check-divergent-sync 2>&1 | FileCheck %s --check-prefix=LOC

// Branches on uniform values, thread-dependent values that steer no branch, per-thread work under a thread
// branch, and a warp barrier every thread arrives on for itself: all pass.
tt.func @uniform(%flag: i1, %n: i32, %out: !tt.ptr<i32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  scf.if %flag {
    tlx.barrier_wait %bar, %c0 : !tlx.mbarrier
  }
  scf.for %i = %c0 to %n step %c1 : i32 {
    tlx.barrier_arrive %bar, 1 : !tlx.mbarrier
  }
  %tid = tlx.thread_id 0 : i32
  %lane = arith.remsi %tid, %c32 : i32
  %first = arith.cmpi eq, %lane, %c0 : i32
  tlx.barrier_arrive %bar, 32, %first : !tlx.mbarrier
  scf.if %first {
    tt.store %out, %tid : !tt.ptr<i32>
    tlx.barrier_arrive %bar, 32 per_thread : !tlx.mbarrier
  }
  tt.return
}

// -----

// An mbarrier arrive under a branch on the lane: Triton may sync the task before it; pred= skips it without a branch.
tt.func @arrive_under_lane_branch() {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  %tid = tlx.thread_id 0 : i32
  %lane = arith.remsi %tid, %c32 : i32
  %first = arith.cmpi eq, %lane, %c0 : i32
  // expected-note @below {{the branch on tlx.thread_id}}
  scf.if %first {
    // expected-warning @below {{'tlx.barrier_arrive' runs under a branch on tlx.thread_id; Triton synchronizes the task's warps (bar.sync) around shared-memory, mbarrier and TMA operations, and threads that skip the branch never arrive there: the kernel may hang. Keep every thread of the task on it and pass the branch's condition as pred=, or give this work a task of its own (tlx.async_task(num_warps=1) runs on one warp)}}
    tlx.barrier_arrive %bar, 1 : !tlx.mbarrier
  }
  tt.return
}

// -----

// A warp-0 producer: its wait, expect and TMA load are each reported (all three take pred=).
tt.func @warp_zero_producer(%desc: !tt.tensordesc<tensor<64x64xf16>>, %i: i32) {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %bufs = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
  %buf = tlx.local_view %bufs[%c0] : !tlx.buffers<1, 64x64xf16, smem>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  %tid = tlx.thread_id 0 : i32
  %warp0 = arith.cmpi slt, %tid, %c32 : i32
  // One note per warning, all at the branch (the verifier matches them to this one line).
  // expected-note @below {{the branch on tlx.thread_id}}
  scf.if %warp0 {
    // expected-warning @below {{'tlx.barrier_wait' runs under a branch on tlx.thread_id; Triton synchronizes the task's warps (bar.sync) around shared-memory, mbarrier and TMA operations, and threads that skip the branch never arrive there: the kernel may hang. Keep every thread of the task on it and pass the branch's condition as pred=, or give this work a task of its own (tlx.async_task(num_warps=1) runs on one warp)}}
    tlx.barrier_wait %bar, %c0 : !tlx.mbarrier
    // expected-warning @below {{'tlx.barrier_expect_bytes' runs under a branch on tlx.thread_id}}
    tlx.barrier_expect_bytes %bar, 8192 : !tlx.mbarrier
    // expected-warning @below {{'tlx.async_descriptor_load' runs under a branch on tlx.thread_id}}
    tlx.async_descriptor_load %desc[%i, %i], %buf, %bar : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  }
  tt.return
}
// LOC: check-divergent-sync.mlir:[[# @LINE - 6]]:5: warning: 'tlx.barrier_expect_bytes' runs under{{.*}}and pass the branch's condition as pred=, or give this work a task of its own (tlx.async_task(num_warps=1) runs on one warp){{$}}

// -----

// A loop whose trip count depends on the thread: shared-memory stores in it are reported.
tt.func @thread_dependent_loop(%value: tensor<64x64xf16>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bufs = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
  %buf = tlx.local_view %bufs[%c0] : !tlx.buffers<1, 64x64xf16, smem>
  %tid = tlx.thread_id 0 : i32
  // expected-note @below {{the branch on tlx.thread_id}}
  scf.for %i = %c0 to %tid step %c1 : i32 {
    // expected-warning @below {{'tlx.local_store' runs under a branch on tlx.thread_id}}
    tlx.local_store %value, %buf : tensor<64x64xf16> -> !tlx.buffer<64x64xf16, smem>
  }
  tt.return
}
// LOC: check-divergent-sync.mlir:[[# @LINE - 4]]:5: warning: 'tlx.local_store' runs under a branch on tlx.thread_id;{{.*}}Keep every thread of the task on it, or give{{.*}}{{$}}

// -----

// wgmma is .sync.aligned: under a thread branch it is an error, reported once though two branches hold it.
tt.func @wgmma_under_thread_branch(%acc: tensor<64x64xf32>) {
  %c0 = arith.constant 0 : i32
  %c128 = arith.constant 128 : i32
  %a = tlx.local_alloc : !tlx.buffers<1, 64x16xf16, smem>
  %b = tlx.local_alloc : !tlx.buffers<1, 16x64xf16, smem>
  %av = tlx.local_view %a[%c0] : !tlx.buffers<1, 64x16xf16, smem>
  %bv = tlx.local_view %b[%c0] : !tlx.buffers<1, 16x64xf16, smem>
  %tid = tlx.thread_id 0 : i32
  %low = arith.cmpi slt, %tid, %c128 : i32
  // expected-note @below {{the branch on tlx.thread_id}}
  scf.if %low {
    scf.if %low {
      // expected-error @below {{'tlx.async_dot' op must be reached by every thread of its warp group (its instruction is .sync.aligned), but it runs under a branch on tlx.thread_id: move it out of the branch}}
      %d = tlx.async_dot %av, %bv, %acc : !tlx.buffer<64x16xf16, smem> * !tlx.buffer<16x64xf16, smem> -> tensor<64x64xf32>
    }
  }
  tt.return
}
// LOC: check-divergent-sync.mlir:[[# @LINE - 5]]:12: error: 'tlx.async_dot' op must be reached by every thread
// LOC: check-divergent-sync.mlir:[[# @LINE - 9]]:3: note: the branch on tlx.thread_id
