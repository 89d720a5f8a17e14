// RUN: tlx-opt %s -split-input-file -verify-diagnostics


tt.func @bad_shapes(%acc: tensor<128x128xf32>, %a: !tlx.buffer<128x64xf16, smem>, %b: !tlx.buffer<32x128xf16, smem>) {
  // expected-error @below {{'tlx.async_dot' op inner dimensions differ: a is 128x64, b is 32x128}}
  %d = tlx.async_dot %a, %b, %acc : !tlx.buffer<128x64xf16, smem> * !tlx.buffer<32x128xf16, smem> -> tensor<128x128xf32>
  tt.return
}

// -----

tt.func @tmem_operand(%acc: tensor<128x128xf32>, %a: !tlx.buffer<128x64xf16, tmem>, %b: !tlx.buffer<64x128xf16, smem>) {
  // expected-error @below {{'tlx.async_dot' op on Hopper both operands are read from shared memory buffers (storage smem)}}
  %d = tlx.async_dot %a, %b, %acc : !tlx.buffer<128x64xf16, tmem> * !tlx.buffer<64x128xf16, smem> -> tensor<128x128xf32>
  tt.return
}

// -----

tt.func @bad_m(%acc: tensor<32x128xf32>, %a: !tlx.buffer<32x64xf16, smem>, %b: !tlx.buffer<64x128xf16, smem>) {
  // expected-error @below {{'tlx.async_dot' op wgmma tiles need M a multiple of 64 and N a multiple of 8, got 32x128}}
  %d = tlx.async_dot %a, %b, %acc : !tlx.buffer<32x64xf16, smem> * !tlx.buffer<64x128xf16, smem> -> tensor<32x128xf32>
  tt.return
}
