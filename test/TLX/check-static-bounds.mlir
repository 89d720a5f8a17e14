// RUN: tlx-opt %s -split-input-file -verify-diagnostics --tlx-check-static-bounds
// RUN: not tlx-opt %s -split-input-file --tlx-check-static-bounds 2>&1 | FileCheck %s --check-prefix=LOC

// In-range constants and dynamic values pass untouched.
func.func @in_range(%i: i32, %phase: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %a = tlx.local_alloc : !tlx.buffers<3, 128x64xf16, smem>
  %v0 = tlx.local_view %a[%c0] : !tlx.buffers<3, 128x64xf16, smem>
  %v2 = tlx.local_view %a[%c2] : !tlx.buffers<3, 128x64xf16, smem>
  %vi = tlx.local_view %a[%i] : !tlx.buffers<3, 128x64xf16, smem>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<2>
  %m = tlx.local_view %bars[%c1] : !tlx.mbarriers<2>
  tlx.barrier_wait %m, %c0 : !tlx.mbarrier
  tlx.barrier_wait %m, %c1 : !tlx.mbarrier
  tlx.barrier_wait %m, %phase : !tlx.mbarrier
  return
}

// -----

func.func @buffer_past_end() {
  %c3 = arith.constant 3 : i32
  %a = tlx.local_alloc : !tlx.buffers<3, 128x64xf16, smem>
  // expected-error @+1 {{'tlx.local_view' op selects buffer 3 of 3; valid indices are 0..2}}
  %v = tlx.local_view %a[%c3] : !tlx.buffers<3, 128x64xf16, smem>
  return
}
// LOC: check-static-bounds.mlir:[[# @LINE - 3]]:8: error: 'tlx.local_view' op selects buffer 3 of 3

// -----

func.func @negative_barrier() {
  %cm1 = arith.constant -1 : i32
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<2>
  // expected-error @+1 {{'tlx.local_view' op selects mbarrier -1 of 2; valid indices are 0..1}}
  %m = tlx.local_view %bars[%cm1] : !tlx.mbarriers<2>
  return
}

// -----

func.func @phase_two(%m: !tlx.mbarrier) {
  %c2 = arith.constant 2 : i32
  // expected-error @+1 {{'tlx.barrier_wait' op waits on phase 2; an mbarrier phase parity is 0 or 1}}
  tlx.barrier_wait %m, %c2 : !tlx.mbarrier
  return
}

// -----

// Every violation in a function is reported, not only the first.
func.func @two_errors(%m: !tlx.mbarrier) {
  %c7 = arith.constant 7 : i32
  %a = tlx.local_alloc : !tlx.buffers<1, 16xf32, smem>
  // expected-error @+1 {{selects buffer 7 of 1; valid indices are 0..0}}
  %v = tlx.local_view %a[%c7] : !tlx.buffers<1, 16xf32, smem>
  // expected-error @+1 {{waits on phase 7}}
  tlx.barrier_wait %m, %c7 : !tlx.mbarrier
  return
}

// -----

func.func @named_barrier_id() {
  %c16 = arith.constant 16 : i32
  %c128 = arith.constant 128 : i32
  // expected-error @+1 {{'tlx.named_barrier_wait' op uses barrier 16; named barriers are 0..15}}
  tlx.named_barrier_wait %c16, %c128
  return
}

// -----

func.func @named_barrier_threads() {
  %c1 = arith.constant 1 : i32
  %c100 = arith.constant 100 : i32
  // expected-error @+1 {{'tlx.named_barrier_arrive' op counts 100 threads; a named barrier counts whole warps (a positive multiple of 32)}}
  tlx.named_barrier_arrive %c1, %c100
  return
}

// -----

func.func @clc_response_past_end() {
  %c2 = arith.constant 2 : i32
  %r = tlx.alloc_clc_responses : !tlx.clc_responses<2>
  // expected-error @+1 {{'tlx.local_view' op selects CLC response 2 of 2; valid indices are 0..1}}
  %v = tlx.local_view %r[%c2] : !tlx.clc_responses<2>
  return
}
