// RUN: tlx-opt %s -split-input-file --tlx-assign-layouts -verify-diagnostics

// Tensor memory and tcgen05 need sm_100.
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func @tmem_on_hopper() {
    // expected-error @below {{'tlx.local_alloc' op tensor memory (storage tmem) needs sm_100 (Blackwell) or newer; this kernel is compiled for sm_90}}
    %accs = tlx.local_alloc : !tlx.buffers<1, 128x128xf32, tmem>
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func @tcgen05_on_hopper(%a: !tlx.buffer<128x64xf16, smem>, %b: !tlx.buffer<64x128xf16, smem>, %acc: !tlx.buffer<128x128xf32, tmem>, %bar: !tlx.mbarrier) {
    // expected-error @below {{'tlx.tcgen05_mma' op tcgen05.mma needs sm_100 (Blackwell) or newer; this kernel is compiled for sm_90}}
    tlx.tcgen05_mma %a, %b, %acc : !tlx.buffer<128x64xf16, smem>, !tlx.buffer<64x128xf16, smem>, !tlx.buffer<128x128xf32, tmem>
    // expected-error @below {{'tlx.tcgen05_commit' op tcgen05.commit needs sm_100 (Blackwell) or newer}}
    tlx.tcgen05_commit %bar
    tt.return
  }
}

// -----

// So does cluster launch control.
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func @clc_on_hopper(%r: !tlx.clc_response, %bar: !tlx.mbarrier) {
    // expected-error @below {{'tlx.clc_try_cancel' op clusterlaunchcontrol.try_cancel needs sm_100 (Blackwell) or newer; this kernel is compiled for sm_90}}
    tlx.clc_try_cancel %r, %bar
    // expected-error @below {{'tlx.clc_query' op clusterlaunchcontrol.query_cancel needs sm_100 (Blackwell) or newer}}
    %x, %y, %z = tlx.clc_query %r
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  tt.func @over_512_columns() {
    // expected-error @below {{'tlx.local_alloc' op tensor memory has 512 columns of 32 bits per CTA; these 3 buffers of 128x256 'f32' need 768}}
    %accs = tlx.local_alloc : !tlx.buffers<3, 128x256xf32, tmem>
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  tt.func @unpacked_over_512_columns() {
    // Two f16 per column packed would fit (256 columns); unpacked they take 512 each.
    // expected-error @below {{tensor memory has 512 columns of 32 bits per CTA; these 2 buffers of 128x512 'f16' need 1024}}
    %bufs = tlx.local_alloc {layout = #ttng.tensor_memory_encoding<blockM = 128, blockN = 512, colStride = 2>} : !tlx.buffers<2, 128x512xf16, tmem>
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  tt.func @f64() {
    // expected-error @below {{tensor memory holds elements of at most 32 bits, got 'f64'}}
    %bufs = tlx.local_alloc : !tlx.buffers<1, 128x64xf64, tmem>
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  tt.func @shared_layout_for_tmem() {
    // expected-error @below {{is not a tensor memory layout: give tensor-memory buffers a tlx.tensor_memory_layout_encoding (#ttng.tensor_memory_encoding) or none}}
    %bufs = tlx.local_alloc {layout = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>} : !tlx.buffers<1, 128x64xf32, tmem>
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  tt.func @rows() {
    // expected-error @below {{tensor-memory buffers are 64 or 128 rows by a power-of-two number of columns up to 512, got 256x64}}
    %bufs = tlx.local_alloc : !tlx.buffers<1, 256x64xf32, tmem>
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  tt.func @layout_rows() {
    // expected-error @below {{blockM must be the rows, blockN at most the columns, colStride x element bits at most 32, one CTA}}
    %bufs = tlx.local_alloc {layout = #ttng.tensor_memory_encoding<blockM = 64, blockN = 64, colStride = 1>} : !tlx.buffers<1, 128x64xf32, tmem>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [2, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 2 : i32, ttg.target = "cuda:100"} {
  tt.func @two_warps(%i: i32) {
    %bufs = tlx.local_alloc : !tlx.buffers<1, 128x64xf32, tmem>
    %buf = tlx.local_view %bufs[%i] : !tlx.buffers<1, 128x64xf32, tmem>
    // expected-error @below {{'tlx.local_load' op tcgen05.ld/st move 64- or 128-row tensor-memory buffers with whole warp groups, each warp group an equal share of the columns: got [128, 64] with num_warps 2}}
    %v = tlx.local_load %buf : !tlx.buffer<128x64xf32, tmem> -> tensor<128x64xf32, #blocked>
    tt.return
  }
}

// -----

// Packed 16-bit tensor memory: a 32-bit column holds two elements. 16 warps
// split 8 columns of a 64-row buffer into one element per thread.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 16 : i32, ttg.target = "cuda:100"} {
  tt.func @packed_columns_split_in_half(%i: i32, %v: tensor<64x8xbf16, #blocked>) {
    %bufs = tlx.local_alloc : !tlx.buffers<1, 64x8xbf16, tmem>
    %buf = tlx.local_view %bufs[%i] : !tlx.buffers<1, 64x8xbf16, tmem>
    // expected-error @below {{'tlx.local_store' op tcgen05.ld/st move whole 32-bit columns, which hold 2 packed 'bf16' elements here, but 16 warps split the [64, 8] buffer's columns finer than that: use fewer warps for this access, more columns, or an unpacked tensor-memory layout}}
    tlx.local_store %v, %buf : tensor<64x8xbf16, #blocked> -> !tlx.buffer<64x8xbf16, tmem>
    tt.return
  }
}

// -----

// Unpacked (colStride = 2), each element has a column of its own: it fits.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 16 : i32, ttg.target = "cuda:100"} {
  tt.func @unpacked_columns(%i: i32, %v: tensor<64x8xbf16, #blocked>) {
    %bufs = tlx.local_alloc {layout = #ttng.tensor_memory_encoding<blockM = 64, blockN = 8, colStride = 2>} : !tlx.buffers<1, 64x8xbf16, tmem>
    %buf = tlx.local_view %bufs[%i] : !tlx.buffers<1, 64x8xbf16, tmem>
    tlx.local_store %v, %buf : tensor<64x8xbf16, #blocked> -> !tlx.buffer<64x8xbf16, tmem>
    tt.return
  }
}

// -----

// Block-scaled MMA and stochastic rounding need sm_100.
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func @block_scaled_on_hopper(%a: !tlx.buffer<128x128xf8E4M3FN, smem>, %acc: !tlx.buffer<128x128xf32, tmem>, %s: !tlx.buffer<1x1x1x2x256xi8, smem>, %x: tensor<128xf32>, %bits: tensor<128xi32>) {
    // expected-error @below {{'tlx.tcgen05_mma_scaled' op block-scaled tcgen05.mma needs sm_100 (Blackwell) or newer; this kernel is compiled for sm_90}}
    tlx.tcgen05_mma_scaled %a, %a, %acc, %s, %s lhs = e4m3 rhs = e4m3 : !tlx.buffer<128x128xf8E4M3FN, smem>, !tlx.buffer<128x128xf8E4M3FN, smem>, !tlx.buffer<128x128xf32, tmem>, !tlx.buffer<1x1x1x2x256xi8, smem>, !tlx.buffer<1x1x1x2x256xi8, smem>
    // expected-error @below {{'tlx.stoch_round' op stochastic rounding (cvt.rs) needs sm_100 (Blackwell) or newer; this kernel is compiled for sm_90}}
    %y = tlx.stoch_round %x, %bits : tensor<128xf32>, tensor<128xi32> -> tensor<128xbf16>
    tt.return
  }
}

// -----

// 8-bit tensor memory holds block scales: Triton 3.6's shapes, one buffer per allocation, no other layout,
// no tcgen05.ld/st.
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  tt.func @scales_of_64_rows() {
    // expected-error @below {{'tlx.local_alloc' op 8-bit tensor memory holds block scales of 128 or 256 rows (the MMA's M or N) by a power-of-two number of scales (K / 32) up to 256, got 64x4}}
    %s = tlx.local_alloc : !tlx.buffers<1, 64x4xi8, tmem>
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  tt.func @double_buffered_scales() {
    // expected-error @below {{'tlx.local_alloc' op Triton 3.6 keeps block scales in tensor memory one buffer per allocation: allocate them with num=1 (one tlx.local_alloc per buffer), got num=2}}
    %s = tlx.local_alloc : !tlx.buffers<2, 128x4xi8, tmem>
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  tt.func @scales_with_a_layout() {
    // expected-error @below {{does not fit 8-bit tensor memory, which holds block scales (#ttng.tensor_memory_scales_encoding): give none}}
    %s = tlx.local_alloc {layout = #ttng.tensor_memory_encoding<blockM = 128, blockN = 4, colStride = 1>} : !tlx.buffers<1, 128x4xi8, tmem>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  tt.func @load_scales(%i: i32) {
    %ss = tlx.local_alloc : !tlx.buffers<1, 128x4xi8, tmem>
    %s = tlx.local_view %ss[%i] : !tlx.buffers<1, 128x4xi8, tmem>
    // expected-error @below {{'tlx.local_load' op 8-bit tensor memory holds block scales, which tlx.tmem_copy fills and tlx.async_dot_scaled reads; tcgen05.ld/st of scales is not supported}}
    %v = tlx.local_load %s : !tlx.buffer<128x4xi8, tmem> -> tensor<128x4xi8, #blocked>
    tt.return
  }
}

// -----

// e2m1 operands are packed along K: Triton 3.6 reads them K-major only.
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  tt.func @fp4_b_mn_major(%i: i32) {
    %as = tlx.local_alloc : !tlx.buffers<1, 128x64xi8, smem>
    %bs = tlx.local_alloc : !tlx.buffers<1, 64x128xi8, smem>
    %accs = tlx.local_alloc : !tlx.buffers<1, 128x128xf32, tmem>
    %ss = tlx.local_alloc : !tlx.buffers<1, 1x1x1x2x256xi8, smem>
    %a = tlx.local_view %as[%i] : !tlx.buffers<1, 128x64xi8, smem>
    %b = tlx.local_view %bs[%i] : !tlx.buffers<1, 64x128xi8, smem>
    %acc = tlx.local_view %accs[%i] : !tlx.buffers<1, 128x128xf32, tmem>
    %s = tlx.local_view %ss[%i] : !tlx.buffers<1, 1x1x1x2x256xi8, smem>
    // expected-error @below {{'tlx.tcgen05_mma_scaled' op e2m1 `B` is read K-major only (two values per byte along K): allocate `B` as N x K/2 and pass tlx.local_trans(b)}}
    tlx.tcgen05_mma_scaled %a, %b, %acc, %s, %s lhs = e2m1 rhs = e2m1 : !tlx.buffer<128x64xi8, smem>, !tlx.buffer<64x128xi8, smem>, !tlx.buffer<128x128xf32, tmem>, !tlx.buffer<1x1x1x2x256xi8, smem>, !tlx.buffer<1x1x1x2x256xi8, smem>
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  tt.func @fp4_a_transposed(%i: i32) {
    %as = tlx.local_alloc : !tlx.buffers<1, 64x128xi8, smem>
    %bs = tlx.local_alloc : !tlx.buffers<1, 128x64xi8, smem>
    %accs = tlx.local_alloc : !tlx.buffers<1, 128x128xf32, tmem>
    %ss = tlx.local_alloc : !tlx.buffers<1, 1x1x1x2x256xi8, smem>
    %at = tlx.local_view %as[%i] : !tlx.buffers<1, 64x128xi8, smem>
    %a = tlx.local_trans %at, [1, 0] : !tlx.buffer<64x128xi8, smem> -> !tlx.buffer<128x64xi8, smem>
    %bn = tlx.local_view %bs[%i] : !tlx.buffers<1, 128x64xi8, smem>
    %b = tlx.local_trans %bn, [1, 0] : !tlx.buffer<128x64xi8, smem> -> !tlx.buffer<64x128xi8, smem>
    %acc = tlx.local_view %accs[%i] : !tlx.buffers<1, 128x128xf32, tmem>
    %s = tlx.local_view %ss[%i] : !tlx.buffers<1, 1x1x1x2x256xi8, smem>
    // expected-error @below {{'tlx.tcgen05_mma_scaled' op e2m1 `A` is read K-major only (two values per byte along K): pass the M x K/2 buffer as it is, in an NVMMA layout}}
    tlx.tcgen05_mma_scaled %a, %b, %acc, %s, %s lhs = e2m1 rhs = e2m1 : !tlx.buffer<128x64xi8, smem>, !tlx.buffer<64x128xi8, smem>, !tlx.buffer<128x128xf32, tmem>, !tlx.buffer<1x1x1x2x256xi8, smem>, !tlx.buffer<1x1x1x2x256xi8, smem>
    tt.return
  }
}

// -----

// Triton 3.6 lowers tf32 tcgen05.mma with K-major operands only: `b` as KxN is N-major.
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  tt.func @tf32_b_n_major(%i: i32) {
    %a = tlx.local_alloc : !tlx.buffers<1, 128x32xf32, smem>
    %b = tlx.local_alloc : !tlx.buffers<1, 32x128xf32, smem>
    %acc = tlx.local_alloc : !tlx.buffers<1, 128x128xf32, tmem>
    %av = tlx.local_view %a[%i] : !tlx.buffers<1, 128x32xf32, smem>
    %bv = tlx.local_view %b[%i] : !tlx.buffers<1, 32x128xf32, smem>
    %cv = tlx.local_view %acc[%i] : !tlx.buffers<1, 128x128xf32, tmem>
    // expected-error @below {{'tlx.tcgen05_mma' op tcgen05.mma reads 32-bit (tf32) `b` K-major only: allocate `b` as NxK and pass tlx.local_trans(b)}}
    tlx.tcgen05_mma %av, %bv, %cv : !tlx.buffer<128x32xf32, smem>, !tlx.buffer<32x128xf32, smem>, !tlx.buffer<128x128xf32, tmem>
    tt.return
  }
}

// -----

// An N-major `b` needs rows of 16 bytes: 8 fp8 values are 8.
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  tt.func @fp8_b_rows_of_8_bytes(%i: i32) {
    %a = tlx.local_alloc : !tlx.buffers<1, 64x64xf8E4M3FN, smem>
    %b = tlx.local_alloc : !tlx.buffers<1, 64x8xf8E4M3FN, smem>
    %acc = tlx.local_alloc : !tlx.buffers<1, 64x8xf32, tmem>
    %av = tlx.local_view %a[%i] : !tlx.buffers<1, 64x64xf8E4M3FN, smem>
    %bv = tlx.local_view %b[%i] : !tlx.buffers<1, 64x8xf8E4M3FN, smem>
    %cv = tlx.local_view %acc[%i] : !tlx.buffers<1, 64x8xf32, tmem>
    // expected-error @below {{'tlx.tcgen05_mma' op tcgen05.mma reads an N-major `b` in rows of 16 bytes or more, and these are 8: allocate `b` as NxK and pass tlx.local_trans(b)}}
    tlx.tcgen05_mma %av, %bv, %cv : !tlx.buffer<64x64xf8E4M3FN, smem>, !tlx.buffer<64x8xf8E4M3FN, smem>, !tlx.buffer<64x8xf32, tmem>
    tt.return
  }
}
