// RUN: tlx-opt %s -split-input-file -verify-diagnostics --tlx-check-protocol

// A correct single-stage pipeline: every rule is quiet.
tt.func @correct(%a: !tt.tensordesc<tensor<64x64xf16>>, %o: !tt.tensordesc<tensor<64x64xf16>>, %i: i32, %acc: tensor<64x64xf32>) {
  %c0 = arith.constant 0 : i32
  %bufs = tlx.local_alloc : !tlx.buffers<2, 64x64xf16, smem>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %x = tlx.local_view %bufs[%c0] : !tlx.buffers<2, 64x64xf16, smem>
  %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  tlx.barrier_expect_bytes %bar, 8192 : !tlx.mbarrier
  tlx.async_descriptor_load %a[%i, %i], %x, %bar : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  tlx.barrier_wait %bar, %c0 : !tlx.mbarrier
  %d = tlx.async_dot %x, %x, %acc : !tlx.buffer<64x64xf16, smem> * !tlx.buffer<64x64xf16, smem> -> tensor<64x64xf32>
  %w = tlx.async_dot_wait %d, 0 : tensor<64x64xf32>
  %h = arith.truncf %w : tensor<64x64xf32> to tensor<64x64xf16>
  tlx.local_store %h, %x : tensor<64x64xf16> -> !tlx.buffer<64x64xf16, smem>
  tlx.fence_async_shared
  tlx.async_descriptor_store %o[%i, %i], %x : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  tt.return
}

// -----

// A bulk copy completes on its mbarrier as a TMA load does: with the bytes
// announced and waited for, every rule is quiet (the wait is completed by the
// expectation and the copy; the phase replay models the barrier).
tt.func @correct_bulk_load(%g: !tt.ptr<f32>, %size: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bufs = tlx.local_alloc : !tlx.buffers<1, 256xf32, smem>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %x = tlx.local_view %bufs[%c0] : !tlx.buffers<1, 256xf32, smem>
  %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  tlx.barrier_expect_bytes %bar, 1024 : !tlx.mbarrier
  tlx.async_bulk_load %g to %x, %size, %bar : !tt.ptr<f32> -> !tlx.buffer<256xf32, smem>
  tlx.barrier_wait %bar, %c0 : !tlx.mbarrier
  %v = tlx.local_load %x : !tlx.buffer<256xf32, smem> -> tensor<256xf32>
  tlx.barrier_expect_bytes %bar, 1024 : !tlx.mbarrier
  tlx.async_bulk_load %g to %x, %size, %bar : !tt.ptr<f32> -> !tlx.buffer<256xf32, smem>
  tlx.barrier_wait %bar, %c1 : !tlx.mbarrier
  tt.return
}

// -----

tt.func @bulk_load_without_expectation(%g: !tt.ptr<f32>, %size: i32) {
  %c0 = arith.constant 0 : i32
  %bufs = tlx.local_alloc : !tlx.buffers<1, 256xf32, smem>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %x = tlx.local_view %bufs[%c0] : !tlx.buffers<1, 256xf32, smem>
  %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  // expected-error @below {{'tlx.async_bulk_load' op completes on an mbarrier that no tlx.barrier_expect_bytes arms: its bytes are counted against no expectation, so the phase completes without waiting for them; announce them with tlx.barrier_expect_bytes(bar, bytes) before the load}}
  tlx.async_bulk_load %g to %x, %size, %bar : !tt.ptr<f32> -> !tlx.buffer<256xf32, smem>
  // A bulk copy is no arrival: the wait stays uncompletable.
  // expected-error @below {{waits on an mbarrier that nothing in the kernel arrives on}}
  tlx.barrier_wait %bar, %c0 : !tlx.mbarrier
  tt.return
}

// -----

// A bulk copy overwriting a buffer an unfinished wgmma still reads.
tt.func @bulk_load_over_dot_operand(%g: !tt.ptr<f16>, %size: i32, %acc: tensor<64x64xf32>) {
  %c0 = arith.constant 0 : i32
  %bufs = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %x = tlx.local_view %bufs[%c0] : !tlx.buffers<1, 64x64xf16, smem>
  %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  // expected-note @below {{the async dot}}
  %d = tlx.async_dot %x, %x, %acc : !tlx.buffer<64x64xf16, smem> * !tlx.buffer<64x64xf16, smem> -> tensor<64x64xf32>
  %r = tlx.local_reinterpret %x : !tlx.buffer<64x64xf16, smem> -> !tlx.buffer<4096xf16, smem>
  tlx.barrier_expect_bytes %bar, 8192 : !tlx.mbarrier
  // expected-error @below {{'tlx.async_bulk_load' op overwrites a buffer that an unfinished tlx.async_dot still reads}}
  tlx.async_bulk_load %g to %r, %size, %bar : !tt.ptr<f16> -> !tlx.buffer<4096xf16, smem>
  %w = tlx.async_dot_wait %d, 0 : tensor<64x64xf32>
  tlx.barrier_wait %bar, %c0 : !tlx.mbarrier
  tt.return
}

// -----

tt.func @wait_without_arrival(%phase: i32) {
  %c0 = arith.constant 0 : i32
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  // expected-error @below {{'tlx.barrier_wait' op waits on an mbarrier that nothing in the kernel arrives on (no tlx.barrier_arrive or tlx.barrier_expect_bytes on it): the wait never completes}}
  tlx.barrier_wait %bar, %phase : !tlx.mbarrier
  tt.return
}

// -----

// Parity 1 on an mbarrier no phase of which completes returns at once (the
// phase before the first counts as complete): the producer's first wait for a
// slot that starts free, which generated kernels emit whether or not anything
// arrives later. Parity 0 on it never returns.
tt.func @wait_for_the_phase_before_the_first() {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  tlx.barrier_wait %bar, %c1 : !tlx.mbarrier
  // expected-error @below {{waits on an mbarrier that nothing in the kernel arrives on}}
  tlx.barrier_wait %bar, %c0 : !tlx.mbarrier
  tt.return
}

// -----

// Arrivals on barrier 1 do not complete barrier 0.
tt.func @arrival_on_another_barrier(%phase: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<2>
  %b0 = tlx.local_view %bars[%c0] : !tlx.mbarriers<2>
  %b1 = tlx.local_view %bars[%c1] : !tlx.mbarriers<2>
  tlx.barrier_arrive %b1, 1 : !tlx.mbarrier
  // expected-error @below {{waits on an mbarrier that nothing in the kernel arrives on}}
  tlx.barrier_wait %b0, %phase : !tlx.mbarrier
  tt.return
}

// -----

// An arrival on a barrier chosen at run time may be the one waited on.
tt.func @dynamic_arrival(%phase: i32, %i: i32) {
  %c0 = arith.constant 0 : i32
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<2>
  %b0 = tlx.local_view %bars[%c0] : !tlx.mbarriers<2>
  %bi = tlx.local_view %bars[%i] : !tlx.mbarriers<2>
  tlx.barrier_arrive %bi, 1 : !tlx.mbarrier
  tlx.barrier_wait %b0, %phase : !tlx.mbarrier
  tt.return
}

// -----

// A barrier that flows where the analysis cannot follow it is not judged.
tt.func @escaping_barrier(%phase: i32, %p: i1) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<2>
  %b0 = tlx.local_view %bars[%c0] : !tlx.mbarriers<2>
  %b1 = tlx.local_view %bars[%c1] : !tlx.mbarriers<2>
  %b = arith.select %p, %b0, %b1 : !tlx.mbarrier
  tlx.barrier_arrive %b, 1 : !tlx.mbarrier
  tlx.barrier_wait %b0, %phase : !tlx.mbarrier
  tt.return
}

// -----

tt.func @too_many_arrivals(%phase: i32) {
  %c0 = arith.constant 0 : i32
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  // expected-error @below {{'tlx.barrier_arrive' op arrives 5 times on an mbarrier initialized for 1 arrival per phase: the phase completes early and the extra arrivals count toward the next one}}
  tlx.barrier_arrive %bar, 5 : !tlx.mbarrier
  tlx.barrier_wait %bar, %phase : !tlx.mbarrier
  tt.return
}

// -----

tt.func @load_without_expectation(%a: !tt.tensordesc<tensor<64x64xf16>>, %i: i32) {
  %c0 = arith.constant 0 : i32
  %bufs = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %x = tlx.local_view %bufs[%c0] : !tlx.buffers<1, 64x64xf16, smem>
  %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  // expected-error @below {{'tlx.async_descriptor_load' op completes on an mbarrier that no tlx.barrier_expect_bytes arms}}
  tlx.async_descriptor_load %a[%i, %i], %x, %bar : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  // expected-error @below {{waits on an mbarrier that nothing in the kernel arrives on}}
  tlx.barrier_wait %bar, %c0 : !tlx.mbarrier
  tt.return
}

// -----

tt.func @dot_read_before_wait(%acc: tensor<64x64xf32>) {
  %c0 = arith.constant 0 : i32
  %bufs = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
  %x = tlx.local_view %bufs[%c0] : !tlx.buffers<1, 64x64xf16, smem>
  // expected-note @below {{the async dot}}
  %d = tlx.async_dot %x, %x, %acc : !tlx.buffer<64x64xf16, smem> * !tlx.buffer<64x64xf16, smem> -> tensor<64x64xf32>
  // expected-error @below {{'arith.truncf' op reads the result of a tlx.async_dot before tlx.async_dot_wait retires it: wgmma may still be writing those registers}}
  %h = arith.truncf %d : tensor<64x64xf32> to tensor<64x64xf16>
  tt.return
}

// -----

// Carried through a loop into the next dot, then waited after it: correct.
tt.func @dot_chain_in_loop(%acc: tensor<64x64xf32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bufs = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
  %x = tlx.local_view %bufs[%c0] : !tlx.buffers<1, 64x64xf16, smem>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%a = %acc) -> (tensor<64x64xf32>) : i32 {
    %d = tlx.async_dot %x, %x, %a : !tlx.buffer<64x64xf16, smem> * !tlx.buffer<64x64xf16, smem> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %w = tlx.async_dot_wait %r, 0 : tensor<64x64xf32>
  %h = arith.truncf %w : tensor<64x64xf32> to tensor<64x64xf16>
  tt.return
}

// -----

// The loop's result is read with no wait after the loop.
tt.func @dot_loop_result_unwaited(%acc: tensor<64x64xf32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bufs = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
  %x = tlx.local_view %bufs[%c0] : !tlx.buffers<1, 64x64xf16, smem>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%a = %acc) -> (tensor<64x64xf32>) : i32 {
    // expected-note @below {{the async dot}}
    %d = tlx.async_dot %x, %x, %a : !tlx.buffer<64x64xf16, smem> * !tlx.buffer<64x64xf16, smem> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  // expected-error @below {{reads the result of a tlx.async_dot before tlx.async_dot_wait retires it}}
  %h = arith.truncf %r : tensor<64x64xf32> to tensor<64x64xf16>
  tt.return
}

// -----

tt.func @refill_under_a_running_dot(%a: !tt.tensordesc<tensor<64x64xf16>>, %i: i32, %acc: tensor<64x64xf32>) {
  %c0 = arith.constant 0 : i32
  %bufs = tlx.local_alloc : !tlx.buffers<2, 64x64xf16, smem>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %x = tlx.local_view %bufs[%c0] : !tlx.buffers<2, 64x64xf16, smem>
  %xt = tlx.local_trans %x, [1, 0] : !tlx.buffer<64x64xf16, smem> -> !tlx.buffer<64x64xf16, smem>
  %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  // expected-note @below {{the async dot}}
  %d = tlx.async_dot %xt, %x, %acc : !tlx.buffer<64x64xf16, smem> * !tlx.buffer<64x64xf16, smem> -> tensor<64x64xf32>
  tlx.barrier_expect_bytes %bar, 8192 : !tlx.mbarrier
  // expected-error @below {{'tlx.async_descriptor_load' op overwrites a buffer that an unfinished tlx.async_dot still reads; retire the dot with tlx.async_dot_wait first}}
  tlx.async_descriptor_load %a[%i, %i], %x, %bar : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  %w = tlx.async_dot_wait %d, 0 : tensor<64x64xf32>
  tlx.barrier_wait %bar, %c0 : !tlx.mbarrier
  tt.return
}

// -----

// wait(1) retires all but the newest dot: refilling the older one's buffer is fine.
tt.func @refill_after_partial_wait(%v: tensor<64x64xf16>, %acc: tensor<64x64xf32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bufs = tlx.local_alloc : !tlx.buffers<2, 64x64xf16, smem>
  %x = tlx.local_view %bufs[%c0] : !tlx.buffers<2, 64x64xf16, smem>
  %y = tlx.local_view %bufs[%c1] : !tlx.buffers<2, 64x64xf16, smem>
  %d1 = tlx.async_dot %x, %x, %acc : !tlx.buffer<64x64xf16, smem> * !tlx.buffer<64x64xf16, smem> -> tensor<64x64xf32>
  %d2 = tlx.async_dot %y, %y, %d1 : !tlx.buffer<64x64xf16, smem> * !tlx.buffer<64x64xf16, smem> -> tensor<64x64xf32>
  %w = tlx.async_dot_wait %d2, 1 : tensor<64x64xf32>
  tlx.local_store %v, %x : tensor<64x64xf16> -> !tlx.buffer<64x64xf16, smem>
  %w0 = tlx.async_dot_wait %w, 0 : tensor<64x64xf32>
  tt.return
}

// -----

tt.func @cp_async_read_before_wait(%p: tensor<64x!tt.ptr<f32>>) {
  %c0 = arith.constant 0 : i32
  %bufs = tlx.local_alloc : !tlx.buffers<2, 64xf32, smem>
  %x = tlx.local_view %bufs[%c0] : !tlx.buffers<2, 64xf32, smem>
  // expected-note @below {{the cp.async copy}}
  tlx.async_load %p, %x : tensor<64x!tt.ptr<f32>> -> !tlx.buffer<64xf32, smem>
  tlx.async_load_commit_group
  tlx.async_load_wait_group 1
  // expected-error @below {{'tlx.local_load' op reads a buffer that cp.async may still be filling; commit the copies and wait for them (tlx.async_load_wait_group) first}}
  %v = tlx.local_load %x : !tlx.buffer<64xf32, smem> -> tensor<64xf32>
  tt.return
}

// -----

tt.func @cp_async_read_after_wait(%p: tensor<64x!tt.ptr<f32>>) {
  %c0 = arith.constant 0 : i32
  %bufs = tlx.local_alloc : !tlx.buffers<2, 64xf32, smem>
  %x = tlx.local_view %bufs[%c0] : !tlx.buffers<2, 64xf32, smem>
  tlx.async_load %p, %x : tensor<64x!tt.ptr<f32>> -> !tlx.buffer<64xf32, smem>
  tlx.async_load_commit_group
  tlx.async_load_wait_group 0
  %v = tlx.local_load %x : !tlx.buffer<64xf32, smem> -> tensor<64xf32>
  tt.return
}

// -----

tt.func @named_barrier_zero_in_tasks() {
  %c0 = arith.constant 0 : i32
  %c256 = arith.constant 256 : i32
  tlx.async_tasks {
    tlx.async_task default {
    }
    tlx.async_task num_warps(4) replicate(2) {
      // expected-error @below {{'tlx.named_barrier_wait' op uses named barrier 0 inside warp-specialized tasks, where the compiler takes 0 (the default task), 1 (the tasks' start and end) and 2-3 (the own barrier of each of the 2 other task replicas); take ids 4-15}}
      tlx.named_barrier_wait %c0, %c256
    }
  }
  tt.return
}

// -----

// Two replicas of one task and a one-replica task: Triton's WS lowering
// takes barriers 2-4 for their own bar.sync; 5 is the first the kernel may use.
tt.func @named_barrier_ids_the_tasks_take() {
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %c5 = arith.constant 5 : i32
  %c256 = arith.constant 256 : i32
  tlx.async_tasks {
    tlx.async_task default {
      // expected-error @below {{uses named barrier 1 inside warp-specialized tasks, where the compiler takes 0 (the default task), 1 (the tasks' start and end) and 2-4 (the own barrier of each of the 3 other task replicas); take ids 5-15}}
      tlx.named_barrier_arrive %c1, %c256
    }
    tlx.async_task num_warps(4) replicate(2) {
      // expected-error @below {{uses named barrier 4 inside}}
      tlx.named_barrier_wait %c4, %c256
      tlx.named_barrier_wait %c5, %c256
    }
    tlx.async_task num_warps(1) {
      tlx.named_barrier_arrive %c5, %c256
    }
  }
  tt.return
}

// -----

// Only the default task: 0 and 1 are the compiler's.
tt.func @named_barrier_ids_with_only_the_default_task() {
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c64 = arith.constant 64 : i32
  tlx.async_tasks {
    tlx.async_task default {
      // expected-error @below {{uses named barrier 1 inside warp-specialized tasks, where the compiler takes 0 (the default task), 1 (the tasks' start and end); take ids 2-15}}
      tlx.named_barrier_wait %c1, %c64
      tlx.named_barrier_wait %c2, %c64
    }
  }
  tt.return
}

// -----

// wait(1) right after a dot leaves that dot in flight: its result is still unsafe after the loop.
tt.func @partial_wait_then_read(%acc: tensor<64x64xf32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bufs = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
  %x = tlx.local_view %bufs[%c0] : !tlx.buffers<1, 64x64xf16, smem>
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%a = %acc) -> (tensor<64x64xf32>) : i32 {
    // expected-note @below {{the async dot}}
    %d = tlx.async_dot %x, %x, %a : !tlx.buffer<64x64xf16, smem> * !tlx.buffer<64x64xf16, smem> -> tensor<64x64xf32>
    %w = tlx.async_dot_wait %d, 1 : tensor<64x64xf32>
    scf.yield %w : tensor<64x64xf32>
  }
  // expected-error @below {{reads the result of a tlx.async_dot before tlx.async_dot_wait retires it}}
  %h = arith.truncf %r : tensor<64x64xf32> to tensor<64x64xf16>
  tt.return
}

// -----

// Two accumulators: the second dot is the newest, so wait(1) retires the first one.
tt.func @partial_wait_retires_the_older_dot(%acc: tensor<64x64xf32>, %acc2: tensor<64x64xf32>) {
  %c0 = arith.constant 0 : i32
  %bufs = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
  %x = tlx.local_view %bufs[%c0] : !tlx.buffers<1, 64x64xf16, smem>
  %d1 = tlx.async_dot %x, %x, %acc : !tlx.buffer<64x64xf16, smem> * !tlx.buffer<64x64xf16, smem> -> tensor<64x64xf32>
  %d2 = tlx.async_dot %x, %x, %acc2 : !tlx.buffer<64x64xf16, smem> * !tlx.buffer<64x64xf16, smem> -> tensor<64x64xf32>
  %w1 = tlx.async_dot_wait %d1, 1 : tensor<64x64xf32>
  %h = arith.truncf %w1 : tensor<64x64xf32> to tensor<64x64xf16>
  %w2 = tlx.async_dot_wait %d2, 0 : tensor<64x64xf32>
  tt.return
}

// -----

// Cluster launch control (clc_producer / clc_consumer): the request only
// completes the response's 16 bytes on the full barrier, which the
// producer's expectation arms; the consumers release the empty barrier.
tt.func @clc_pipeline(%k: i32, %phase: i32, %has_tile: i1) -> i32 {
  %responses = tlx.alloc_clc_responses : !tlx.clc_responses<2>
  %empty = tlx.alloc_barriers arrive_count = 2 : !tlx.mbarriers<2>
  %full = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<2>
  %e = tlx.local_view %empty[%k] : !tlx.mbarriers<2>
  %f = tlx.local_view %full[%k] : !tlx.mbarriers<2>
  %r = tlx.local_view %responses[%k] : !tlx.clc_responses<2>
  tlx.barrier_wait %e, %phase : !tlx.mbarrier
  tlx.barrier_expect_bytes %f, 16 : !tlx.mbarrier
  tlx.clc_try_cancel %r, %f
  tlx.barrier_wait %f, %phase : !tlx.mbarrier
  %x, %y, %z = tlx.clc_query %r
  tlx.fence_async_shared
  tlx.barrier_arrive %e, 1, %has_tile : !tlx.mbarrier
  tt.return %x : i32
}

// -----

// Without the expectation the wait may return before the response is
// written: the request is no arrival.
tt.func @clc_request_without_expectation(%phase: i32) {
  %c0 = arith.constant 0 : i32
  %responses = tlx.alloc_clc_responses : !tlx.clc_responses<1>
  %full = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %f = tlx.local_view %full[%c0] : !tlx.mbarriers<1>
  %r = tlx.local_view %responses[%c0] : !tlx.clc_responses<1>
  // expected-error @below {{'tlx.clc_try_cancel' op completes on an mbarrier that no tlx.barrier_expect_bytes arms: the response's 16 bytes are counted against no expectation}}
  tlx.clc_try_cancel %r, %f
  // expected-error @below {{waits on an mbarrier that nothing in the kernel arrives on}}
  tlx.barrier_wait %f, %phase : !tlx.mbarrier
  tt.return
}
