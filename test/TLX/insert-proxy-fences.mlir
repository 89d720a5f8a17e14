// RUN: tlx-opt %s -split-input-file --tlx-insert-proxy-fences | FileCheck %s

// A register write, then a TMA store of the same buffer: a fence goes in between.
// CHECK-LABEL: tt.func @write_then_store
// CHECK:         tlx.local_store
// CHECK-NEXT:    tlx.fence_async_shared
// CHECK-NEXT:    tlx.async_descriptor_store
tt.func @write_then_store(%o: !tt.tensordesc<tensor<64x64xf16>>, %i: i32, %v: tensor<64x64xf16>) {
  %c0 = arith.constant 0 : i32
  %bufs = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
  %x = tlx.local_view %bufs[%c0] : !tlx.buffers<1, 64x64xf16, smem>
  tlx.local_store %v, %x : tensor<64x64xf16> -> !tlx.buffer<64x64xf16, smem>
  tlx.async_descriptor_store %o[%i, %i], %x : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  tt.return
}

// -----

// The user's own fence stands between: nothing is added.
// CHECK-LABEL: tt.func @already_fenced
// CHECK:         tlx.local_store
// CHECK-NEXT:    tlx.fence_async_shared
// CHECK-NEXT:    tlx.barrier_arrive
// CHECK-NEXT:    tlx.async_descriptor_store
tt.func @already_fenced(%o: !tt.tensordesc<tensor<64x64xf16>>, %i: i32, %v: tensor<64x64xf16>) {
  %c0 = arith.constant 0 : i32
  %bufs = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %x = tlx.local_view %bufs[%c0] : !tlx.buffers<1, 64x64xf16, smem>
  %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  tlx.local_store %v, %x : tensor<64x64xf16> -> !tlx.buffer<64x64xf16, smem>
  tlx.fence_async_shared
  tlx.barrier_arrive %bar, 1 : !tlx.mbarrier
  tlx.async_descriptor_store %o[%i, %i], %x : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  tt.return
}

// -----

// The write comes after the store in the loop body: it reaches the next iteration's store.
// CHECK-LABEL: tt.func @write_in_the_previous_iteration
// CHECK:         scf.for
// CHECK-NEXT:      tlx.fence_async_shared
// CHECK-NEXT:      tlx.async_descriptor_store
// CHECK-NEXT:      tlx.local_store
tt.func @write_in_the_previous_iteration(%o: !tt.tensordesc<tensor<64x64xf16>>, %n: i32, %v: tensor<64x64xf16>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bufs = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
  %x = tlx.local_view %bufs[%c0] : !tlx.buffers<1, 64x64xf16, smem>
  scf.for %k = %c0 to %n step %c1 : i32 {
    tlx.async_descriptor_store %o[%k, %k], %x : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
    tlx.local_store %v, %x : tensor<64x64xf16> -> !tlx.buffer<64x64xf16, smem>
  }
  tt.return
}

// -----

// A write inside a branch before the store counts; a buffer no register writes gets no fence.
// CHECK-LABEL: tt.func @write_in_a_branch
// CHECK:         scf.if
// CHECK:         }
// CHECK-NEXT:    tlx.fence_async_shared
// CHECK-NEXT:    tlx.async_descriptor_store %{{.*}}, %[[X:.*]] :
// CHECK-NOT:     tlx.fence_async_shared
// CHECK:         tlx.async_descriptor_store
tt.func @write_in_a_branch(%o: !tt.tensordesc<tensor<64x64xf16>>, %i: i32, %v: tensor<64x64xf16>, %flag: i1) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bufs = tlx.local_alloc : !tlx.buffers<2, 64x64xf16, smem>
  %x = tlx.local_view %bufs[%c0] : !tlx.buffers<2, 64x64xf16, smem>
  %y = tlx.local_view %bufs[%c1] : !tlx.buffers<2, 64x64xf16, smem>
  scf.if %flag {
    tlx.local_store %v, %x : tensor<64x64xf16> -> !tlx.buffer<64x64xf16, smem>
  }
  tlx.async_descriptor_store %o[%i, %i], %x : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  tlx.async_descriptor_store %o[%i, %c0], %y : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  tt.return
}
