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
