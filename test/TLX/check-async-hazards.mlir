// RUN: tlx-opt %s -split-input-file -verify-diagnostics --tlx-check-async-hazards

// Right: 2 x 64x64xf16 = 16384 bytes, waited before the loads.
tt.func @correct(%a: !tt.tensordesc<tensor<64x64xf16>>, %b: !tt.tensordesc<tensor<64x64xf16>>, %i: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bufs = tlx.local_alloc : !tlx.buffers<2, 64x64xf16, smem>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %x = tlx.local_view %bufs[%c0] : !tlx.buffers<2, 64x64xf16, smem>
  %y = tlx.local_view %bufs[%c1] : !tlx.buffers<2, 64x64xf16, smem>
  %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  tlx.barrier_expect_bytes %bar, 16384 : !tlx.mbarrier
  tlx.async_descriptor_load %a[%i, %i], %x, %bar : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  tlx.async_descriptor_load %b[%i, %i], %y, %bar : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  tlx.barrier_wait %bar, %c0 : !tlx.mbarrier
  %t = tlx.local_load %x : !tlx.buffer<64x64xf16, smem> -> tensor<64x64xf16>
  tt.return
}

// -----

tt.func @too_few_bytes(%a: !tt.tensordesc<tensor<64x64xf16>>, %i: i32) {
  %c0 = arith.constant 0 : i32
  %bufs = tlx.local_alloc : !tlx.buffers<2, 64x64xf16, smem>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %x = tlx.local_view %bufs[%c0] : !tlx.buffers<2, 64x64xf16, smem>
  %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  // expected-error @below {{'tlx.barrier_expect_bytes' op expects 16384 bytes but the TMA loads completing on this mbarrier deliver 8192; the phase would never complete (hang)}}
  tlx.barrier_expect_bytes %bar, 16384 : !tlx.mbarrier
  tlx.async_descriptor_load %a[%i, %i], %x, %bar : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  tlx.barrier_wait %bar, %c0 : !tlx.mbarrier
  tt.return
}

// -----

tt.func @too_many_bytes(%a: !tt.tensordesc<tensor<64x64xf16>>, %i: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bufs = tlx.local_alloc : !tlx.buffers<2, 64x64xf16, smem>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %x = tlx.local_view %bufs[%c0] : !tlx.buffers<2, 64x64xf16, smem>
  %y = tlx.local_view %bufs[%c1] : !tlx.buffers<2, 64x64xf16, smem>
  %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  // expected-error @below {{expects 8192 bytes but the TMA loads completing on this mbarrier deliver 16384; the phase would complete before all data lands}}
  tlx.barrier_expect_bytes %bar, 8192 : !tlx.mbarrier
  tlx.async_descriptor_load %a[%i, %i], %x, %bar : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  tlx.async_descriptor_load %a[%i, %i], %y, %bar : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  tt.return
}

// -----

tt.func @read_before_wait(%a: !tt.tensordesc<tensor<64x64xf16>>, %i: i32) {
  %c0 = arith.constant 0 : i32
  %bufs = tlx.local_alloc : !tlx.buffers<2, 64x64xf16, smem>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %x = tlx.local_view %bufs[%c0] : !tlx.buffers<2, 64x64xf16, smem>
  %x2 = tlx.local_view %bufs[%c0] : !tlx.buffers<2, 64x64xf16, smem>
  %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  tlx.barrier_expect_bytes %bar, 8192 : !tlx.mbarrier
  // expected-note @below {{the TMA load}}
  tlx.async_descriptor_load %a[%i, %i], %x, %bar : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  %v = arith.constant dense<0.0> : tensor<64x64xf16>
  // expected-error @below {{'tlx.local_store' op accesses a buffer that a TMA load may still be filling; wait on its mbarrier (tlx.barrier_wait) first}}
  tlx.local_store %v, %x2 : tensor<64x64xf16> -> !tlx.buffer<64x64xf16, smem>
  tlx.barrier_wait %bar, %c0 : !tlx.mbarrier
  tt.return
}

// -----

// A different buffer of the same allocation is fine.
tt.func @other_buffer(%a: !tt.tensordesc<tensor<64x64xf16>>, %i: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bufs = tlx.local_alloc : !tlx.buffers<2, 64x64xf16, smem>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %x = tlx.local_view %bufs[%c0] : !tlx.buffers<2, 64x64xf16, smem>
  %y = tlx.local_view %bufs[%c1] : !tlx.buffers<2, 64x64xf16, smem>
  %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  tlx.barrier_expect_bytes %bar, 8192 : !tlx.mbarrier
  tlx.async_descriptor_load %a[%i, %i], %x, %bar : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  %t = tlx.local_load %y : !tlx.buffer<64x64xf16, smem> -> tensor<64x64xf16>
  tlx.barrier_wait %bar, %c0 : !tlx.mbarrier
  tt.return
}

// -----

// The frontend makes a fresh view for every `bars[0]`: views of one allocation
// at one constant index are the same barrier and the same buffer.
tt.func @fresh_views(%a: !tt.tensordesc<tensor<64x64xf16>>, %i: i32) {
  %c0 = arith.constant 0 : i32
  %bufs = tlx.local_alloc : !tlx.buffers<2, 64x64xf16, smem>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %bar1 = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  tlx.barrier_expect_bytes %bar1, 8192 : !tlx.mbarrier
  %x1 = tlx.local_view %bufs[%c0] : !tlx.buffers<2, 64x64xf16, smem>
  %bar2 = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  tlx.async_descriptor_load %a[%i, %i], %x1, %bar2 : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  %bar3 = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  tlx.barrier_wait %bar3, %c0 : !tlx.mbarrier
  %x2 = tlx.local_view %bufs[%c0] : !tlx.buffers<2, 64x64xf16, smem>
  %t = tlx.local_load %x2 : !tlx.buffer<64x64xf16, smem> -> tensor<64x64xf16>
  tt.return
}

// -----

tt.func @fresh_views_wrong_bytes(%a: !tt.tensordesc<tensor<64x64xf16>>, %i: i32) {
  %c0 = arith.constant 0 : i32
  %bufs = tlx.local_alloc : !tlx.buffers<2, 64x64xf16, smem>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %bar1 = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  // expected-error @below {{expects 4096 bytes but the TMA loads completing on this mbarrier deliver 8192}}
  tlx.barrier_expect_bytes %bar1, 4096 : !tlx.mbarrier
  %x1 = tlx.local_view %bufs[%c0] : !tlx.buffers<2, 64x64xf16, smem>
  %bar2 = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  tlx.async_descriptor_load %a[%i, %i], %x1, %bar2 : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  %bar3 = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  tlx.barrier_wait %bar3, %c0 : !tlx.mbarrier
  tt.return
}

// -----

// Two views of one mbarrier set at one dynamic index name the same mbarrier.
func.func @expect_too_few_through_a_dynamic_index(%d: !tt.tensordesc<tensor<64x64xf16>>, %s: i32) {
  %bufs = tlx.local_alloc : !tlx.buffers<2, 64x64xf16, smem>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<2>
  %m1 = tlx.local_view %bars[%s] : !tlx.mbarriers<2>
  // expected-error @+1 {{'tlx.barrier_expect_bytes' op expects 4096 bytes but the TMA loads completing on this mbarrier deliver 8192}}
  tlx.barrier_expect_bytes %m1, 4096 : !tlx.mbarrier
  %b = tlx.local_view %bufs[%s] : !tlx.buffers<2, 64x64xf16, smem>
  %m2 = tlx.local_view %bars[%s] : !tlx.mbarriers<2>
  tlx.async_descriptor_load %d[%s, %s], %b, %m2 : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  return
}

// -----

// The issue's case: 8192 bytes announced outside an `if`, 16384 loaded inside it. No path delivers 8192.
tt.func @bytes_across_a_branch(%a: !tt.tensordesc<tensor<64x64xf16>>, %i: i32, %p: i1) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bufs = tlx.local_alloc : !tlx.buffers<2, 64x64xf16, smem>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %x = tlx.local_view %bufs[%c0] : !tlx.buffers<2, 64x64xf16, smem>
  %y = tlx.local_view %bufs[%c1] : !tlx.buffers<2, 64x64xf16, smem>
  %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  // expected-error @below {{expects 8192 bytes but the TMA loads completing on this mbarrier deliver 16384 or 0 depending on the branches taken, never 8192: the phase would hang or complete before all data lands}}
  tlx.barrier_expect_bytes %bar, 8192 : !tlx.mbarrier
  scf.if %p {
    tlx.async_descriptor_load %a[%i, %i], %x, %bar : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
    tlx.async_descriptor_load %a[%i, %i], %y, %bar : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  }
  tlx.barrier_wait %bar, %c0 : !tlx.mbarrier
  tt.return
}

// -----

// Both branches deliver the announced bytes: correct.
tt.func @same_bytes_on_both_branches(%a: !tt.tensordesc<tensor<64x64xf16>>, %i: i32, %j: i32, %p: i1) {
  %c0 = arith.constant 0 : i32
  %bufs = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %x = tlx.local_view %bufs[%c0] : !tlx.buffers<1, 64x64xf16, smem>
  %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  tlx.barrier_expect_bytes %bar, 8192 : !tlx.mbarrier
  scf.if %p {
    tlx.async_descriptor_load %a[%i, %i], %x, %bar : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  } else {
    tlx.async_descriptor_load %a[%j, %j], %x, %bar : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  }
  tlx.barrier_wait %bar, %c0 : !tlx.mbarrier
  tt.return
}

// -----

// Only one branch loads: right on one path, a hang on the other.
tt.func @bytes_on_one_path(%a: !tt.tensordesc<tensor<64x64xf16>>, %i: i32, %p: i1) {
  %c0 = arith.constant 0 : i32
  %bufs = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %x = tlx.local_view %bufs[%c0] : !tlx.buffers<1, 64x64xf16, smem>
  %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  // expected-warning @below {{expects 8192 bytes but on some paths the TMA loads completing on this mbarrier deliver 8192 or 0; announce the bytes in the branch that loads them}}
  tlx.barrier_expect_bytes %bar, 8192 : !tlx.mbarrier
  scf.if %p {
    tlx.async_descriptor_load %a[%i, %i], %x, %bar : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  }
  tlx.barrier_wait %bar, %c0 : !tlx.mbarrier
  tt.return
}

// -----

// Multicast: each CTA's barrier also receives the peer's load, so one CTA's code cannot count its bytes.
module attributes {"ttg.cluster-dim-x" = 2 : i32} {
tt.func @multicast_in_branches(%a: !tt.tensordesc<tensor<64x64xf16>>, %i: i32, %p: i1) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bufs = tlx.local_alloc : !tlx.buffers<2, 64x64xf16, smem>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %x = tlx.local_view %bufs[%c0] : !tlx.buffers<2, 64x64xf16, smem>
  %y = tlx.local_view %bufs[%c1] : !tlx.buffers<2, 64x64xf16, smem>
  %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  tlx.barrier_expect_bytes %bar, 16384 : !tlx.mbarrier
  scf.if %p {
    tlx.async_descriptor_load %a[%i, %i], %x, %bar multicast [%c0, %c1] : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  } else {
    tlx.async_descriptor_load %a[%i, %i], %y, %bar multicast [%c0, %c1] : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  }
  tlx.barrier_wait %bar, %c0 : !tlx.mbarrier
  tlx.async_descriptor_load %a[%i, %i], %x, %bar multicast [%c0, %c1] : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  tt.return
}
}

// -----

// A CLC request delivers its response's 16 bytes, as a TMA load its block's:
// an expectation of 16 is right, in the one-CTA and the multicast form alike
// (one request per cluster reaches every CTA's barrier).
tt.func @clc_request_delivers_16_bytes(%k: i32, %phase: i32) -> i32 {
  %responses = tlx.alloc_clc_responses : !tlx.clc_responses<2>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<2>
  %f = tlx.local_view %bars[%k] : !tlx.mbarriers<2>
  %r = tlx.local_view %responses[%k] : !tlx.clc_responses<2>
  tlx.barrier_expect_bytes %f, 16 : !tlx.mbarrier
  tlx.clc_try_cancel %r, %f multicast
  tlx.barrier_wait %f, %phase : !tlx.mbarrier
  %x, %y, %z = tlx.clc_query %r
  tt.return %x : i32
}

// -----

tt.func @clc_expectation_too_large(%phase: i32) {
  %c0 = arith.constant 0 : i32
  %responses = tlx.alloc_clc_responses : !tlx.clc_responses<1>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %f = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  %r = tlx.local_view %responses[%c0] : !tlx.clc_responses<1>
  // expected-error @below {{'tlx.barrier_expect_bytes' op expects 32 bytes but the TMA loads completing on this mbarrier deliver 16; the phase would never complete (hang)}}
  tlx.barrier_expect_bytes %f, 32 : !tlx.mbarrier
  tlx.clc_try_cancel %r, %f
  tlx.barrier_wait %f, %phase : !tlx.mbarrier
  tt.return
}

// -----

// The response is read before the wait that says it has been written.
tt.func @clc_response_read_early(%phase: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %responses = tlx.alloc_clc_responses : !tlx.clc_responses<1>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %f = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  %r = tlx.local_view %responses[%c0] : !tlx.clc_responses<1>
  tlx.barrier_expect_bytes %f, 16 : !tlx.mbarrier
  // expected-note @below {{the request}}
  tlx.clc_try_cancel %r, %f
  // expected-error @below {{'tlx.clc_query' op reads a CLC response that the request may still be writing; wait on the request's mbarrier (tlx.barrier_wait) first}}
  %x, %y, %z = tlx.clc_query %r
  tlx.barrier_wait %f, %phase : !tlx.mbarrier
  tt.return %x : i32
}

// -----

// A wait on a barrier chosen at run time may be the request's: quiet.
tt.func @clc_wait_on_a_dynamic_barrier(%k: i32, %phase: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %responses = tlx.alloc_clc_responses : !tlx.clc_responses<2>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<2>
  %f0 = tlx.local_view %bars[%c0] : !tlx.mbarriers<2>
  %fk = tlx.local_view %bars[%k] : !tlx.mbarriers<2>
  %r = tlx.local_view %responses[%c0] : !tlx.clc_responses<2>
  tlx.barrier_expect_bytes %f0, 16 : !tlx.mbarrier
  tlx.clc_try_cancel %r, %f0
  tlx.barrier_wait %fk, %phase : !tlx.mbarrier
  %x, %y, %z = tlx.clc_query %r
  tt.return %x : i32
}

// -----

// Bulk copies count their bytes as TMA loads do: 1024 + 8192 bytes, right.
tt.func @bulk_and_tma_bytes(%a: !tt.tensordesc<tensor<64x64xf16>>, %g: !tt.ptr<f32>, %i: i32) {
  %c0 = arith.constant 0 : i32
  %c1024 = arith.constant 1024 : i32
  %bufs = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
  %vecs = tlx.local_alloc : !tlx.buffers<1, 256xf32, smem>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %x = tlx.local_view %bufs[%c0] : !tlx.buffers<1, 64x64xf16, smem>
  %v = tlx.local_view %vecs[%c0] : !tlx.buffers<1, 256xf32, smem>
  %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  tlx.barrier_expect_bytes %bar, 9216 : !tlx.mbarrier
  tlx.async_descriptor_load %a[%i, %i], %x, %bar : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  tlx.async_bulk_load %g to %v, %c1024, %bar : !tt.ptr<f32> -> !tlx.buffer<256xf32, smem>
  tlx.barrier_wait %bar, %c0 : !tlx.mbarrier
  %t = tlx.local_load %v : !tlx.buffer<256xf32, smem> -> tensor<256xf32>
  tt.return
}

// -----

tt.func @bulk_bytes_unannounced(%g: !tt.ptr<f32>) {
  %c0 = arith.constant 0 : i32
  %c1024 = arith.constant 1024 : i32
  %vecs = tlx.local_alloc : !tlx.buffers<1, 256xf32, smem>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %v = tlx.local_view %vecs[%c0] : !tlx.buffers<1, 256xf32, smem>
  %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  // expected-error @below {{'tlx.barrier_expect_bytes' op expects 512 bytes but the TMA loads completing on this mbarrier deliver 1024; the phase would complete before all data lands}}
  tlx.barrier_expect_bytes %bar, 512 : !tlx.mbarrier
  tlx.async_bulk_load %g to %v, %c1024, %bar : !tt.ptr<f32> -> !tlx.buffer<256xf32, smem>
  tlx.barrier_wait %bar, %c0 : !tlx.mbarrier
  tt.return
}

// -----

// A size known only at run time, and the loads of a CTA pair (both CTAs'
// bytes complete the even CTA's barrier): not judged.
tt.func @bytes_not_shown(%a: !tt.tensordesc<tensor<64x64xf16>>, %g: !tt.ptr<f32>, %size: i32, %i: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bufs = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
  %vecs = tlx.local_alloc : !tlx.buffers<1, 256xf32, smem>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<2>
  %x = tlx.local_view %bufs[%c0] : !tlx.buffers<1, 64x64xf16, smem>
  %v = tlx.local_view %vecs[%c0] : !tlx.buffers<1, 256xf32, smem>
  %b0 = tlx.local_view %bars[%c0] : !tlx.mbarriers<2>
  %b1 = tlx.local_view %bars[%c1] : !tlx.mbarriers<2>
  tlx.barrier_expect_bytes %b0, 16 : !tlx.mbarrier
  tlx.async_bulk_load %g to %v, %size, %b0 : !tt.ptr<f32> -> !tlx.buffer<256xf32, smem>
  tlx.barrier_wait %b0, %c0 : !tlx.mbarrier
  tlx.barrier_expect_bytes %b1, 16384 : !tlx.mbarrier
  tlx.async_descriptor_load %a[%i, %i], %x, %b1 two_ctas : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  tlx.barrier_wait %b1, %c0 : !tlx.mbarrier
  tt.return
}

// -----

tt.func @read_during_bulk_copy(%g: !tt.ptr<f32>, %size: i32) {
  %c0 = arith.constant 0 : i32
  %vecs = tlx.local_alloc : !tlx.buffers<1, 256xf32, smem>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %v = tlx.local_view %vecs[%c0] : !tlx.buffers<1, 256xf32, smem>
  %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  tlx.barrier_expect_bytes %bar, 1024 : !tlx.mbarrier
  // expected-note @below {{the bulk copy}}
  tlx.async_bulk_load %g to %v, %size, %bar : !tt.ptr<f32> -> !tlx.buffer<256xf32, smem>
  // expected-error @below {{'tlx.local_load' op accesses a buffer that a bulk copy may still be filling; wait on its mbarrier (tlx.barrier_wait) first}}
  %t = tlx.local_load %v : !tlx.buffer<256xf32, smem> -> tensor<256xf32>
  tlx.barrier_wait %bar, %c0 : !tlx.mbarrier
  tt.return
}
