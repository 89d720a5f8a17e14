// RUN: tlx-opt %s -split-input-file -verify-diagnostics --tlx-assign-layouts --tlx-lower-to-ttg

tt.func @trans_shape(%b: !tlx.buffer<64x128xf16, smem>) {
  // expected-error @below {{'tlx.local_trans' op result must be the source buffer with its dimensions permuted: expected shape [128, 64] of 'f16'}}
  %t = tlx.local_trans %b, [1, 0] : !tlx.buffer<64x128xf16, smem> -> !tlx.buffer<64x128xf16, smem>
  tt.return
}

// -----

tt.func @trans_dims(%b: !tlx.buffer<64x128xf16, smem>) {
  // expected-error @below {{'tlx.local_trans' op dims must be a permutation of 0..1, got [1, 1]}}
  %t = tlx.local_trans %b, [1, 1] : !tlx.buffer<64x128xf16, smem> -> !tlx.buffer<128x128xf16, smem>
  tt.return
}

// -----

tt.func @slice_outside(%b: !tlx.buffer<64x128xf16, smem>) {
  // expected-error @below {{'tlx.local_slice' op slice [96, 160) of dimension 1 leaves the buffer of size 128}}
  %s = tlx.local_slice %b, [0, 96] : !tlx.buffer<64x128xf16, smem> -> !tlx.buffer<64x64xf16, smem>
  tt.return
}

// -----

tt.func @slice_straddles(%b: !tlx.buffer<64x128xf16, smem>) {
  // expected-error @below {{'tlx.local_slice' op offset 32 of dimension 1 must be a multiple of the slice size 64}}
  %s = tlx.local_slice %b, [0, 32] : !tlx.buffer<64x128xf16, smem> -> !tlx.buffer<64x64xf16, smem>
  tt.return
}

// -----

tt.func @reinterpret_bytes(%b: !tlx.buffer<64x128xf16, smem>) {
  // expected-error @below {{'tlx.local_reinterpret' op reinterpreting 16384 bytes as 32768; the byte size must stay the same}}
  %r = tlx.local_reinterpret %b : !tlx.buffer<64x128xf16, smem> -> !tlx.buffer<64x128xf32, smem>
  tt.return
}

// -----

tt.func @reinterpret_layout() {
  %c0 = arith.constant 0 : i32
  %a = tlx.local_alloc : !tlx.buffers<1, 64x128xf16, smem>
  %b = tlx.local_view %a[%c0] : !tlx.buffers<1, 64x128xf16, smem>
  // expected-error @below {{'tlx.local_reinterpret' op cannot reinterpret a buffer with layout}}
  %r = tlx.local_reinterpret %b : !tlx.buffer<64x128xf16, smem> -> !tlx.buffer<128x64xf16, smem>
  tt.return
}
