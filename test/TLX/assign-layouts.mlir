// RUN: tlx-opt %s -split-input-file --tlx-assign-layouts | FileCheck %s

// CHECK-DAG: #[[NV:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[SW1:.*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// CHECK-DAG: #[[TM:.*]] = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
// Defaults: NVMMA shared with the widest swizzle for rank >= 2, unswizzled for 1-D; tensor memory: blocks of
// the whole buffer, packed.
// CHECK-LABEL: tt.func @defaults
tt.func @defaults() {
  // CHECK-NEXT: tlx.local_alloc {layout = #[[NV]]} : !tlx.buffers<2, 128x64xf16, smem>
  %a = tlx.local_alloc : !tlx.buffers<2, 128x64xf16, smem>
  // CHECK-NEXT: tlx.local_alloc {layout = #[[SW1]]} : !tlx.buffers<4, 128xf32, smem>
  %v = tlx.local_alloc : !tlx.buffers<4, 128xf32, smem>
  // CHECK-NEXT: tlx.local_alloc {layout = #[[TM]]} : !tlx.buffers<1, 128x128xf32, tmem>
  %t = tlx.local_alloc : !tlx.buffers<1, 128x128xf32, tmem>
  tt.return
}

// -----

// The user's layout is kept, and the descriptor that fills the buffer takes it.
// CHECK: #[[SW:.*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#sw = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-LABEL: tt.func public @explicit(
// CHECK-SAME:    %{{.*}}: !tt.tensordesc<tensor<64x64xf16, #[[SW]]>>
tt.func public @explicit(%desc: !tt.tensordesc<tensor<64x64xf16>>, %i: i32) {
  // CHECK: tlx.local_alloc {layout = #[[SW]]} : !tlx.buffers<2, 64x64xf16, smem>
  %bufs = tlx.local_alloc {layout = #sw} : !tlx.buffers<2, 64x64xf16, smem>
  %buf = tlx.local_view %bufs[%i] : !tlx.buffers<2, 64x64xf16, smem>
  // CHECK: tlx.async_descriptor_store %{{.*}}, %{{.*}} : !tt.tensordesc<tensor<64x64xf16, #[[SW]]>>
  tlx.async_descriptor_store %desc[%i, %i], %buf : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  tt.return
}

// -----

// A block with leading dimensions of 1 takes the buffer's NVMMA layout at its own rank.
// CHECK:       #[[NV4:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 4}>
// CHECK-LABEL: tt.func public @leading_ones(
// CHECK-SAME:    %{{.*}}: !tt.tensordesc<tensor<1x1x64x64xf16, #[[NV4]]>>
tt.func public @leading_ones(%desc: !tt.tensordesc<tensor<1x1x64x64xf16>>, %i: i32) {
  %bufs = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
  %buf = tlx.local_view %bufs[%i] : !tlx.buffers<1, 64x64xf16, smem>
  tlx.async_descriptor_store %desc[%i, %i, %i, %i], %buf : !tt.tensordesc<tensor<1x1x64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  tt.return
}

// -----

// A descriptor sees its buffer through the views: a transposed view flips the
// NVMMA layout to MN-major, a slice keeps it, a reinterpreted view takes the
// new element width. Kernel arguments and tt.make_tensor_descriptor results
// are retyped; the function type follows its arguments.
// CHECK-DAG: #[[NV:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[NVT:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
// CHECK-DAG: #[[NV32:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
// CHECK-LABEL: tt.func public @through_views(
// CHECK-SAME:    %{{.*}}: !tt.tensordesc<tensor<128x64xf16, #[[NVT]]>>,
// CHECK-SAME:    %{{.*}}: !tt.tensordesc<tensor<64x64xf16, #[[NV]]>>,
tt.func public @through_views(%transposed: !tt.tensordesc<tensor<128x64xf16>>, %sliced: !tt.tensordesc<tensor<64x64xf16>>, %i: i32, %base: !tt.ptr<f32>, %n: i32, %s: i64) {
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %bar = tlx.local_view %bars[%i] : !tlx.mbarriers<1>
  %bufs = tlx.local_alloc : !tlx.buffers<1, 64x128xf16, smem>
  %buf = tlx.local_view %bufs[%i] : !tlx.buffers<1, 64x128xf16, smem>
  %t = tlx.local_trans %buf, [1, 0] : !tlx.buffer<64x128xf16, smem> -> !tlx.buffer<128x64xf16, smem>
  tlx.async_descriptor_load %transposed[%i, %i], %t, %bar : !tt.tensordesc<tensor<128x64xf16>>, !tlx.buffer<128x64xf16, smem>
  %s0 = tlx.local_slice %buf, [0, 64] : !tlx.buffer<64x128xf16, smem> -> !tlx.buffer<64x64xf16, smem>
  tlx.async_descriptor_store %sliced[%i, %i], %s0 : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  // CHECK: tt.make_tensor_descriptor {{.*}} : <f32>, <tensor<64x64xf32, #[[NV32]]>>
  %desc = tt.make_tensor_descriptor %base, [%n, %n], [%s, %s] : <f32>, <tensor<64x64xf32>>
  %r = tlx.local_reinterpret %buf : !tlx.buffer<64x128xf16, smem> -> !tlx.buffer<64x64xf32, smem>
  tlx.async_descriptor_store %desc[%i, %i], %r : !tt.tensordesc<tensor<64x64xf32>>, !tlx.buffer<64x64xf32, smem>
  tt.return
}

// -----

// A descriptor used twice with buffers of one layout is retyped once.
// CHECK: #[[NV:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: tt.func public @two_uses(
// CHECK-SAME:    %{{.*}}: !tt.tensordesc<tensor<64x64xf16, #[[NV]]>>
tt.func public @two_uses(%desc: !tt.tensordesc<tensor<64x64xf16>>, %i: i32) {
  %a = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
  %b = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
  %va = tlx.local_view %a[%i] : !tlx.buffers<1, 64x64xf16, smem>
  %vb = tlx.local_view %b[%i] : !tlx.buffers<1, 64x64xf16, smem>
  tlx.async_descriptor_store %desc[%i, %i], %va : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  tlx.async_descriptor_store %desc[%i, %i], %vb : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  tt.return
}

// -----

// A transposed view of a swizzled buffer permutes the layout's order.
// CHECK-DAG: #[[ROW:.*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-DAG: #[[COL:.*]] = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>
#sw = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-LABEL: tt.func public @swizzled_transposed(
// CHECK-SAME:    %{{.*}}: !tt.tensordesc<tensor<32x64xf16, #[[COL]]>>
tt.func public @swizzled_transposed(%desc: !tt.tensordesc<tensor<32x64xf16>>, %i: i32) {
  // CHECK: tlx.local_alloc {layout = #[[ROW]]}
  %bufs = tlx.local_alloc {layout = #sw} : !tlx.buffers<1, 64x32xf16, smem>
  %buf = tlx.local_view %bufs[%i] : !tlx.buffers<1, 64x32xf16, smem>
  %t = tlx.local_trans %buf, [1, 0] : !tlx.buffer<64x32xf16, smem> -> !tlx.buffer<32x64xf16, smem>
  tlx.async_descriptor_store %desc[%i, %i], %t : !tt.tensordesc<tensor<32x64xf16>>, !tlx.buffer<32x64xf16, smem>
  tt.return
}

// -----

// Triton's memdesc_subslice cannot cut a swizzle, which repeats every 8 rows: a buffer sliced into fewer rows
// gets the unswizzled NVMMA layout (through a transpose too: there the rows are the last dimension); one
// sliced into 8 rows or more, or into columns only, keeps the widest swizzle.
// CHECK-DAG: #[[NV0:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16}>
// CHECK-DAG: #[[NV128:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: tt.func @slices_and_swizzle
tt.func @slices_and_swizzle(%i: i32) {
  // CHECK: tlx.local_alloc {layout = #[[NV0]]} : !tlx.buffers<2, 64x64xf16, smem>
  %few = tlx.local_alloc : !tlx.buffers<2, 64x64xf16, smem>
  %fv = tlx.local_view %few[%i] : !tlx.buffers<2, 64x64xf16, smem>
  %f2 = tlx.local_slice %fv, [8, 0] : !tlx.buffer<64x64xf16, smem> -> !tlx.buffer<2x64xf16, smem>
  // CHECK: tlx.local_alloc {layout = #[[NV128]]} : !tlx.buffers<2, 64x64xf16, smem>
  %eight = tlx.local_alloc : !tlx.buffers<2, 64x64xf16, smem>
  %ev = tlx.local_view %eight[%i] : !tlx.buffers<2, 64x64xf16, smem>
  %e8 = tlx.local_slice %ev, [8, 0] : !tlx.buffer<64x64xf16, smem> -> !tlx.buffer<8x64xf16, smem>
  %e1 = tlx.local_slice %ev, [0, 8] : !tlx.buffer<64x64xf16, smem> -> !tlx.buffer<64x8xf16, smem>
  // CHECK: tlx.local_alloc {layout = #[[NV0]]} : !tlx.buffers<1, 64x64xf16, smem>
  %tr = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
  %tv = tlx.local_view %tr[%i] : !tlx.buffers<1, 64x64xf16, smem>
  %tt = tlx.local_trans %tv, [1, 0] : !tlx.buffer<64x64xf16, smem> -> !tlx.buffer<64x64xf16, smem>
  %t4 = tlx.local_slice %tt, [0, 4] : !tlx.buffer<64x64xf16, smem> -> !tlx.buffer<64x4xf16, smem>
  tt.return
}

// -----

// TMA copies NVMMA layouts only: a 1-D buffer it fills takes the unswizzled
// NVMMA layout of rank 1 (stock Triton's for a 1-D descriptor block), and
// the descriptor with it; a 1-D buffer no TMA copy uses stays unswizzled.
// CHECK-DAG: #[[NV1:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 32, rank = 1}>
// CHECK-DAG: #[[SW1:.*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// CHECK-LABEL: tt.func public @one_dimensional_tma(
// CHECK-SAME:    %{{.*}}: !tt.tensordesc<tensor<16xf32, #[[NV1]]>>
tt.func public @one_dimensional_tma(%desc: !tt.tensordesc<tensor<16xf32>>, %i: i32) {
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %bar = tlx.local_view %bars[%i] : !tlx.mbarriers<1>
  // CHECK: tlx.local_alloc {layout = #[[NV1]]} : !tlx.buffers<2, 16xf32, smem>
  %bufs = tlx.local_alloc : !tlx.buffers<2, 16xf32, smem>
  // CHECK: tlx.local_alloc {layout = #[[SW1]]} : !tlx.buffers<2, 16xf32, smem>
  %other = tlx.local_alloc : !tlx.buffers<2, 16xf32, smem>
  %buf = tlx.local_view %bufs[%i] : !tlx.buffers<2, 16xf32, smem>
  tlx.async_descriptor_load %desc[%i], %buf, %bar : !tt.tensordesc<tensor<16xf32>>, !tlx.buffer<16xf32, smem>
  tt.return
}
