// RUN: tlx-opt %s -split-input-file -verify-diagnostics

// Every check of tlx.tcgen05_mma (tlx.async_dot with a tensor-memory accumulator).

tt.func @acc_in_shared_memory(%a: !tlx.buffer<128x64xf16, smem>, %b: !tlx.buffer<64x128xf16, smem>, %acc: !tlx.buffer<128x128xf32, smem>) {
  // expected-error @below {{'tlx.tcgen05_mma' op tcgen05 accumulates in tensor memory: `acc` must be a buffer of tlx.local_alloc(..., storage=tlx.storage_kind.tmem), got storage smem}}
  tlx.tcgen05_mma %a, %b, %acc : !tlx.buffer<128x64xf16, smem>, !tlx.buffer<64x128xf16, smem>, !tlx.buffer<128x128xf32, smem>
  tt.return
}

// -----

tt.func @a_in_cluster_memory(%a: !tlx.buffer<128x64xf16, smemCluster>, %b: !tlx.buffer<64x128xf16, smem>, %acc: !tlx.buffer<128x128xf32, tmem>) {
  // expected-error @below {{tcgen05 reads `a` from shared or tensor memory, not smemCluster}}
  tlx.tcgen05_mma %a, %b, %acc : !tlx.buffer<128x64xf16, smemCluster>, !tlx.buffer<64x128xf16, smem>, !tlx.buffer<128x128xf32, tmem>
  tt.return
}

// -----

tt.func @b_in_tensor_memory(%a: !tlx.buffer<128x64xf16, smem>, %b: !tlx.buffer<64x128xf16, tmem>, %acc: !tlx.buffer<128x128xf32, tmem>) {
  // expected-error @below {{tcgen05 reads `b` from a shared-memory buffer (storage smem), got tmem}}
  tlx.tcgen05_mma %a, %b, %acc : !tlx.buffer<128x64xf16, smem>, !tlx.buffer<64x128xf16, tmem>, !tlx.buffer<128x128xf32, tmem>
  tt.return
}

// -----

tt.func @one_d(%a: !tlx.buffer<64xf16, smem>, %b: !tlx.buffer<64x128xf16, smem>, %acc: !tlx.buffer<128x128xf32, tmem>) {
  // expected-error @below {{operands and accumulator must be 2-D}}
  tlx.tcgen05_mma %a, %b, %acc : !tlx.buffer<64xf16, smem>, !tlx.buffer<64x128xf16, smem>, !tlx.buffer<128x128xf32, tmem>
  tt.return
}

// -----

tt.func @inner(%a: !tlx.buffer<128x64xf16, smem>, %b: !tlx.buffer<32x128xf16, smem>, %acc: !tlx.buffer<128x128xf32, tmem>) {
  // expected-error @below {{inner dimensions differ: a is 128x64, b is 32x128}}
  tlx.tcgen05_mma %a, %b, %acc : !tlx.buffer<128x64xf16, smem>, !tlx.buffer<32x128xf16, smem>, !tlx.buffer<128x128xf32, tmem>
  tt.return
}

// -----

tt.func @acc_shape(%a: !tlx.buffer<128x64xf16, smem>, %b: !tlx.buffer<64x128xf16, smem>, %acc: !tlx.buffer<128x64xf32, tmem>) {
  // expected-error @below {{accumulator must be 128x128, got 128x64}}
  tlx.tcgen05_mma %a, %b, %acc : !tlx.buffer<128x64xf16, smem>, !tlx.buffer<64x128xf16, smem>, !tlx.buffer<128x64xf32, tmem>
  tt.return
}

// -----

tt.func @mixed(%a: !tlx.buffer<128x64xf16, smem>, %b: !tlx.buffer<64x128xbf16, smem>, %acc: !tlx.buffer<128x128xf32, tmem>) {
  // expected-error @below {{a and b must have one element type, got 'f16' and 'bf16'}}
  tlx.tcgen05_mma %a, %b, %acc : !tlx.buffer<128x64xf16, smem>, !tlx.buffer<64x128xbf16, smem>, !tlx.buffer<128x128xf32, tmem>
  tt.return
}

// -----

tt.func @int8(%a: !tlx.buffer<128x64xi8, smem>, %b: !tlx.buffer<64x128xi8, smem>, %acc: !tlx.buffer<128x128xf32, tmem>) {
  // expected-error @below {{tcgen05 multiplies f16, bf16, f32 (as tf32) or fp8 (e4m3, e5m2) operands, not 'i8'}}
  tlx.tcgen05_mma %a, %b, %acc : !tlx.buffer<128x64xi8, smem>, !tlx.buffer<64x128xi8, smem>, !tlx.buffer<128x128xf32, tmem>
  tt.return
}

// -----

tt.func @f16_acc(%a: !tlx.buffer<128x64xf16, smem>, %b: !tlx.buffer<64x128xf16, smem>, %acc: !tlx.buffer<128x128xf16, tmem>) {
  // expected-error @below {{the tcgen05 accumulator must be float32, got 'f16'}}
  tlx.tcgen05_mma %a, %b, %acc : !tlx.buffer<128x64xf16, smem>, !tlx.buffer<64x128xf16, smem>, !tlx.buffer<128x128xf16, tmem>
  tt.return
}

// -----

tt.func @k8(%a: !tlx.buffer<128x8xf16, smem>, %b: !tlx.buffer<8x128xf16, smem>, %acc: !tlx.buffer<128x128xf32, tmem>) {
  // expected-error @below {{K = 8 is not a multiple of 16, the K of one tcgen05.mma for 'f16' operands}}
  tlx.tcgen05_mma %a, %b, %acc : !tlx.buffer<128x8xf16, smem>, !tlx.buffer<8x128xf16, smem>, !tlx.buffer<128x128xf32, tmem>
  tt.return
}

// -----

tt.func @m32(%a: !tlx.buffer<32x64xf16, smem>, %b: !tlx.buffer<64x128xf16, smem>, %acc: !tlx.buffer<32x128xf32, tmem>) {
  // expected-error @below {{tcgen05.mma tiles are M = 64 or 128 rows by N a multiple of 8 (M = 64) or 16 (M = 128) up to 256, got 32x128}}
  tlx.tcgen05_mma %a, %b, %acc : !tlx.buffer<32x64xf16, smem>, !tlx.buffer<64x128xf16, smem>, !tlx.buffer<32x128xf32, tmem>
  tt.return
}

// -----

tt.func @n8_with_m128(%a: !tlx.buffer<128x64xf16, smem>, %b: !tlx.buffer<64x8xf16, smem>, %acc: !tlx.buffer<128x8xf32, tmem>) {
  // expected-error @below {{got 128x8}}
  tlx.tcgen05_mma %a, %b, %acc : !tlx.buffer<128x64xf16, smem>, !tlx.buffer<64x8xf16, smem>, !tlx.buffer<128x8xf32, tmem>
  tt.return
}

// -----

tt.func @two_ctas_acc_not_twice_b(%a: !tlx.buffer<128x64xf16, smem>, %b: !tlx.buffer<64x128xf16, smem>, %acc: !tlx.buffer<128x128xf32, tmem>) {
  // expected-error @below {{accumulator must be 128x256, got 128x128 (two_ctas: b is each CTA's half of the N columns)}}
  tlx.tcgen05_mma %a, %b, %acc two_ctas : !tlx.buffer<128x64xf16, smem>, !tlx.buffer<64x128xf16, smem>, !tlx.buffer<128x128xf32, tmem>
  tt.return
}

// -----

tt.func @two_ctas_64_rows(%a: !tlx.buffer<64x64xf16, smem>, %b: !tlx.buffer<64x64xf16, smem>, %acc: !tlx.buffer<64x128xf32, tmem>) {
  // expected-error @below {{two_ctas (tcgen05 cta_group::2) takes 128 rows of `a` per CTA, got 64}}
  tlx.tcgen05_mma %a, %b, %acc two_ctas : !tlx.buffer<64x64xf16, smem>, !tlx.buffer<64x64xf16, smem>, !tlx.buffer<64x128xf32, tmem>
  tt.return
}

// -----

tt.func @copy_from_tensor_memory(%src: !tlx.buffer<128x64xf32, tmem>, %dst: !tlx.buffer<128x64xf32, tmem>) {
  // expected-error @below {{'tlx.tmem_copy' op tcgen05.cp copies from a shared-memory buffer (storage smem), got tmem}}
  tlx.tmem_copy %src, %dst : !tlx.buffer<128x64xf32, tmem>, !tlx.buffer<128x64xf32, tmem>
  tt.return
}

// -----

tt.func @copy_into_shared_memory(%src: !tlx.buffer<128x64xf32, smem>, %dst: !tlx.buffer<128x64xf32, smem>) {
  // expected-error @below {{tcgen05.cp copies into a tensor-memory buffer (storage tmem), got smem}}
  tlx.tmem_copy %src, %dst : !tlx.buffer<128x64xf32, smem>, !tlx.buffer<128x64xf32, smem>
  tt.return
}

// -----

tt.func @copy_of_another_shape(%src: !tlx.buffer<128x32xf32, smem>, %dst: !tlx.buffer<128x64xf32, tmem>) {
  // expected-error @below {{source and destination must have one shape and element type, got [128, 32] 'f32' and [128, 64] 'f32'}}
  tlx.tmem_copy %src, %dst : !tlx.buffer<128x32xf32, smem>, !tlx.buffer<128x64xf32, tmem>
  tt.return
}

// -----

tt.func @copy_of_16_bit(%src: !tlx.buffer<128x64xf16, smem>, %dst: !tlx.buffer<128x64xf16, tmem>) {
  // expected-error @below {{Triton 3.6 copies 128-row buffers of 32-bit elements into tensor memory, got [128, 64] 'f16'}}
  tlx.tmem_copy %src, %dst : !tlx.buffer<128x64xf16, smem>, !tlx.buffer<128x64xf16, tmem>
  tt.return
}

// -----

tt.func @two_ctas_without_barriers(%a: !tlx.buffer<128x64xf16, smem>, %b: !tlx.buffer<64x64xf16, smem>, %acc: !tlx.buffer<128x128xf32, tmem>) {
  // expected-error @below {{two_ctas (tcgen05 cta_group::2) without mBarriers must be asynchronous (force_async=True, its completion tracked by a later tcgen05_commit): Triton 3.6 would wait for it behind a cluster barrier}}
  tlx.tcgen05_mma %a, %b, %acc two_ctas : !tlx.buffer<128x64xf16, smem>, !tlx.buffer<64x64xf16, smem>, !tlx.buffer<128x128xf32, tmem>
  tt.return
}
