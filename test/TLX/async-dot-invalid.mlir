// RUN: tlx-opt %s -split-input-file -verify-diagnostics


tt.func @bad_shapes(%acc: tensor<128x128xf32>, %a: !tlx.buffer<128x64xf16, smem>, %b: !tlx.buffer<32x128xf16, smem>) {
  // expected-error @below {{'tlx.async_dot' op inner dimensions differ: a is 128x64, b is 32x128}}
  %d = tlx.async_dot %a, %b, %acc : !tlx.buffer<128x64xf16, smem> * !tlx.buffer<32x128xf16, smem> -> tensor<128x128xf32>
  tt.return
}

// -----

tt.func @tmem_operand(%acc: tensor<128x128xf32>, %a: !tlx.buffer<128x64xf16, tmem>, %b: !tlx.buffer<64x128xf16, smem>) {
  // expected-error @below {{'tlx.async_dot' op on Hopper `a` is read from a shared-memory buffer (storage smem) or from registers}}
  %d = tlx.async_dot %a, %b, %acc : !tlx.buffer<128x64xf16, tmem> * !tlx.buffer<64x128xf16, smem> -> tensor<128x128xf32>
  tt.return
}

// -----

tt.func @bad_m(%acc: tensor<32x128xf32>, %a: !tlx.buffer<32x64xf16, smem>, %b: !tlx.buffer<64x128xf16, smem>) {
  // expected-error @below {{'tlx.async_dot' op wgmma tiles need M a multiple of 64 and N a multiple of 8, got 32x128}}
  %d = tlx.async_dot %a, %b, %acc : !tlx.buffer<32x64xf16, smem> * !tlx.buffer<64x128xf16, smem> -> tensor<32x128xf32>
  tt.return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @fp32_register_operand(%a: tensor<64x32xf32, #blocked>, %acc: tensor<64x64xf32, #blocked>, %i: i32) {
    %b = tlx.local_alloc : !tlx.buffers<2, 32x64xf32, smem>
    %bv = tlx.local_view %b[%i] : !tlx.buffers<2, 32x64xf32, smem>
    // expected-error @below {{`a` from registers must be fp16, bf16 or fp8 (e4m3, e5m2), got 'f32'}}
    %d = tlx.async_dot %a, %bv, %acc : tensor<64x32xf32, #blocked> * !tlx.buffer<32x64xf32, smem> -> tensor<64x64xf32, #blocked>
    tt.return
  }
}
