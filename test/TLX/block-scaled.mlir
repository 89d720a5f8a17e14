// RUN: tlx-opt %s -split-input-file --tlx-assign-layouts --tlx-lower-to-ttg | FileCheck %s

// Block scales in tensor memory: 8-bit tensor memory takes the scales encoding, one buffer per allocation
// (local_view of it is the allocation); the shared-memory source of a scale tmem_copy is unswizzled (TMA
// loads it so: its descriptor takes the layout) and seen as the rows x cols matrix tcgen05.cp copies (a
// shared_linear view of the cuBLAS block-scaling bytes); the MMA is ttng.tc_gen5_mma_scaled.
// CHECK-DAG: #[[UNSW:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 8, rank = 5}>
// CHECK-DAG: #[[FP8:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
// CHECK-DAG: #[[VIEW:.*]] = #ttg.shared_linear<{offset = {{\[\[}}0, 1], [0, 2], [32, 0], [64, 0], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0]]}, alignment = 128>
// CHECK-DAG: #[[SCALES:.*]] = #ttng.tensor_memory_scales_encoding<>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  // CHECK-LABEL: tt.func @tmem_scales
  // CHECK-SAME: !tt.tensordesc<tensor<1x1x1x2x256xui8, #[[UNSW]]>>
  tt.func @tmem_scales(%i: i32, %desc: !tt.tensordesc<tensor<1x1x1x2x256xui8>>) {
    %as = tlx.local_alloc : !tlx.buffers<2, 128x128xf8E4M3FN, smem>
    %bs = tlx.local_alloc : !tlx.buffers<2, 128x128xf8E5M2, smem>
    %accs = tlx.local_alloc : !tlx.buffers<1, 128x128xf32, tmem>
    // CHECK: %[[SSET:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x1x1x1x2x256xi8, #[[UNSW]], #smem, mutable>
    %sss = tlx.local_alloc : !tlx.buffers<2, 1x1x1x2x256xi8, smem>
    // CHECK: %[[TS:.*]] = ttng.tmem_alloc : () -> !ttg.memdesc<128x4xi8, #[[SCALES]], #ttng.tensor_memory, mutable>
    %sts = tlx.local_alloc : !tlx.buffers<1, 128x4xi8, tmem>
    %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<2>
    %a = tlx.local_view %as[%i] : !tlx.buffers<2, 128x128xf8E4M3FN, smem>
    %b = tlx.local_view %bs[%i] : !tlx.buffers<2, 128x128xf8E5M2, smem>
    %acc = tlx.local_view %accs[%i] : !tlx.buffers<1, 128x128xf32, tmem>
    // CHECK: %[[SS:.*]] = ttg.memdesc_index %[[SSET]][%{{.*}}] : !ttg.memdesc<2x1x1x1x2x256xi8, #[[UNSW]], #smem, mutable> -> !ttg.memdesc<1x1x1x2x256xi8, #[[UNSW]], #smem, mutable>
    %ss = tlx.local_view %sss[%i] : !tlx.buffers<2, 1x1x1x2x256xi8, smem>
    // CHECK-NOT: ttg.memdesc_index %[[TS]]
    %sa = tlx.local_view %sts[%i] : !tlx.buffers<1, 128x4xi8, tmem>
    %bar = tlx.local_view %bars[%i] : !tlx.mbarriers<2>
    // CHECK: ttng.async_tma_copy_global_to_local %{{.*}} %[[SS]]
    tlx.async_descriptor_load %desc[%i, %i, %i, %i, %i], %ss, %bar : !tt.tensordesc<tensor<1x1x1x2x256xui8>>, !tlx.buffer<1x1x1x2x256xi8, smem>
    // CHECK: %[[V:.*]] = ttg.memdesc_reinterpret %[[SS]] : !ttg.memdesc<1x1x1x2x256xi8, #[[UNSW]], #smem, mutable> -> !ttg.memdesc<128x4xi8, #[[VIEW]], #smem, mutable>
    // CHECK-NEXT: ttng.tmem_copy %[[V]], %[[TS]] : !ttg.memdesc<128x4xi8, #[[VIEW]], #smem, mutable>, !ttg.memdesc<128x4xi8, #[[SCALES]], #ttng.tensor_memory, mutable>
    tlx.tmem_copy %ss, %sa : !tlx.buffer<1x1x1x2x256xi8, smem>, !tlx.buffer<128x4xi8, tmem>
    // CHECK: ttng.tc_gen5_mma_scaled %{{.*}}, %{{.*}}, %{{.*}}, %[[TS]], %[[TS]], %{{.*}}, %{{.*}} lhs = e4m3 rhs = e5m2, %{{.*}}[%{{.*}}] {is_async} : !ttg.memdesc<128x128xf8E4M3FN, #[[FP8]], #smem, mutable>, !ttg.memdesc<128x128xf8E5M2, #[[FP8]], #smem, mutable>, !ttg.memdesc<128x128xf32, #{{.*}}, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x4xi8, #[[SCALES]], #ttng.tensor_memory, mutable>, !ttg.memdesc<128x4xi8, #[[SCALES]], #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64
    tlx.tcgen05_mma_scaled %a, %b, %acc, %sa, %sa lhs = e4m3 rhs = e5m2 barriers(%bar) : !tlx.buffer<128x128xf8E4M3FN, smem>, !tlx.buffer<128x128xf8E5M2, smem>, !tlx.buffer<128x128xf32, tmem>, !tlx.buffer<128x4xi8, tmem>, !tlx.buffer<128x4xi8, tmem>
    tt.return
  }
}

// -----

// Block scales in shared memory, e2m1 operands (B K-major: a transposed view), 256 rows of B scales and K = 256 (8 scales: two blocks per
// 128 rows, the second block's column bit, then the second 128 rows): each is copied into a tensor-memory
// allocation of its own right before the synchronous MMA.
// CHECK-DAG: #[[A8:.*]] = #ttg.shared_linear<{offset = {{\[\[}}0, 1], [0, 2], [32, 0], [64, 0], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 4]]}, alignment = 128>
// CHECK-DAG: #[[B8:.*]] = #ttg.shared_linear<{offset = {{\[\[}}0, 1], [0, 2], [32, 0], [64, 0], [1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [0, 4], [128, 0]]}, alignment = 128>
// CHECK-DAG: #[[SCALES2:.*]] = #ttng.tensor_memory_scales_encoding<>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  // CHECK-LABEL: tt.func @shared_scales
  tt.func @shared_scales(%i: i32) {
    %as = tlx.local_alloc : !tlx.buffers<1, 128x128xi8, smem>
    %bs = tlx.local_alloc : !tlx.buffers<1, 256x128xi8, smem>
    %accs = tlx.local_alloc : !tlx.buffers<1, 128x256xf32, tmem>
    %sas = tlx.local_alloc : !tlx.buffers<1, 1x2x32x16xi8, smem>
    %sbs = tlx.local_alloc : !tlx.buffers<1, 1x2x2x2x256xi8, smem>
    %a = tlx.local_view %as[%i] : !tlx.buffers<1, 128x128xi8, smem>
    %bn = tlx.local_view %bs[%i] : !tlx.buffers<1, 256x128xi8, smem>
    %b = tlx.local_trans %bn, [1, 0] : !tlx.buffer<256x128xi8, smem> -> !tlx.buffer<128x256xi8, smem>
    %acc = tlx.local_view %accs[%i] : !tlx.buffers<1, 128x256xf32, tmem>
    %sa = tlx.local_view %sas[%i] : !tlx.buffers<1, 1x2x32x16xi8, smem>
    %sb = tlx.local_view %sbs[%i] : !tlx.buffers<1, 1x2x2x2x256xi8, smem>
    // CHECK: %[[VA:.*]] = ttg.memdesc_reinterpret %{{.*}} : !ttg.memdesc<1x2x32x16xi8, #{{.*}}, #smem, mutable> -> !ttg.memdesc<128x8xi8, #[[A8]], #smem, mutable>
    // CHECK-NEXT: %[[TA:.*]] = ttng.tmem_alloc : () -> !ttg.memdesc<128x8xi8, #[[SCALES2]], #ttng.tensor_memory, mutable>
    // CHECK-NEXT: ttng.tmem_copy %[[VA]], %[[TA]]
    // CHECK-NEXT: %[[VB:.*]] = ttg.memdesc_reinterpret %{{.*}} : !ttg.memdesc<1x2x2x2x256xi8, #{{.*}}, #smem, mutable> -> !ttg.memdesc<256x8xi8, #[[B8]], #smem, mutable>
    // CHECK-NEXT: %[[TB:.*]] = ttng.tmem_alloc : () -> !ttg.memdesc<256x8xi8, #[[SCALES2]], #ttng.tensor_memory, mutable>
    // CHECK-NEXT: ttng.tmem_copy %[[VB]], %[[TB]]
    // CHECK: ttng.tc_gen5_mma_scaled %{{.*}}, %{{.*}}, %{{.*}}, %[[TA]], %[[TB]], %{{.*}}, %{{.*}} lhs = e2m1 rhs = e2m1 :
    tlx.tcgen05_mma_scaled %a, %b, %acc, %sa, %sb lhs = e2m1 rhs = e2m1 : !tlx.buffer<128x128xi8, smem>, !tlx.buffer<128x256xi8, smem>, !tlx.buffer<128x256xf32, tmem>, !tlx.buffer<1x2x32x16xi8, smem>, !tlx.buffer<1x2x2x2x256xi8, smem>
    tt.return
  }
}
