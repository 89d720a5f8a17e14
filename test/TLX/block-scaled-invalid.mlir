// RUN: tlx-opt %s -split-input-file -verify-diagnostics

// Block-scaled tcgen05 MMA: formats, operands, shapes and scales.

tt.func @unsupported_format(%a: !tlx.buffer<128x128xi8, smem>, %b: !tlx.buffer<128x128xi8, smem>, %acc: !tlx.buffer<128x128xf32, tmem>, %s: !tlx.buffer<128x4xi8, tmem>) {
  // expected-error @below {{'tlx.tcgen05_mma_scaled' op block-scaled tcgen05.mma takes e4m3, e5m2 or e2m1 operands, not e2m3}}
  tlx.tcgen05_mma_scaled %a, %b, %acc, %s, %s lhs = e2m3 rhs = e4m3 : !tlx.buffer<128x128xi8, smem>, !tlx.buffer<128x128xi8, smem>, !tlx.buffer<128x128xf32, tmem>, !tlx.buffer<128x4xi8, tmem>, !tlx.buffer<128x4xi8, tmem>
  tt.return
}

// -----

tt.func @fp4_with_fp8(%a: !tlx.buffer<128x128xf8E4M3FN, smem>, %b: !tlx.buffer<64x128xi8, smem>, %acc: !tlx.buffer<128x128xf32, tmem>, %s: !tlx.buffer<128x4xi8, tmem>) {
  // expected-error @below {{mixing e2m1 with fp8 (kind::mxf8f6f4) needs e2m1 padded to a byte per value in shared memory, which this TLX release does not lay out yet}}
  tlx.tcgen05_mma_scaled %a, %b, %acc, %s, %s lhs = e4m3 rhs = e2m1 : !tlx.buffer<128x128xf8E4M3FN, smem>, !tlx.buffer<64x128xi8, smem>, !tlx.buffer<128x128xf32, tmem>, !tlx.buffer<128x4xi8, tmem>, !tlx.buffer<128x4xi8, tmem>
  tt.return
}

// -----

tt.func @a_in_tensor_memory(%a: !tlx.buffer<128x128xf8E4M3FN, tmem>, %b: !tlx.buffer<128x128xf8E4M3FN, smem>, %acc: !tlx.buffer<128x128xf32, tmem>, %s: !tlx.buffer<128x4xi8, tmem>) {
  // expected-error @below {{'tlx.tcgen05_mma_scaled' op reads `A` from a shared-memory buffer (storage smem), got tmem}}
  tlx.tcgen05_mma_scaled %a, %b, %acc, %s, %s lhs = e4m3 rhs = e4m3 : !tlx.buffer<128x128xf8E4M3FN, tmem>, !tlx.buffer<128x128xf8E4M3FN, smem>, !tlx.buffer<128x128xf32, tmem>, !tlx.buffer<128x4xi8, tmem>, !tlx.buffer<128x4xi8, tmem>
  tt.return
}

// -----

tt.func @b_not_2d(%a: !tlx.buffer<128x128xf8E4M3FN, smem>, %b: !tlx.buffer<2x128x128xf8E4M3FN, smem>, %acc: !tlx.buffer<128x128xf32, tmem>, %s: !tlx.buffer<128x4xi8, tmem>) {
  // expected-error @below {{`B` must be 2-D}}
  tlx.tcgen05_mma_scaled %a, %b, %acc, %s, %s lhs = e4m3 rhs = e4m3 : !tlx.buffer<128x128xf8E4M3FN, smem>, !tlx.buffer<2x128x128xf8E4M3FN, smem>, !tlx.buffer<128x128xf32, tmem>, !tlx.buffer<128x4xi8, tmem>, !tlx.buffer<128x4xi8, tmem>
  tt.return
}

// -----

tt.func @format_of_another_fp8(%a: !tlx.buffer<128x128xf8E5M2, smem>, %b: !tlx.buffer<128x128xf8E4M3FN, smem>, %acc: !tlx.buffer<128x128xf32, tmem>, %s: !tlx.buffer<128x4xi8, tmem>) {
  // expected-error @below {{`A` in format e4m3 must hold that fp8 type or bytes (tl.uint8), got 'f8E5M2'}}
  tlx.tcgen05_mma_scaled %a, %b, %acc, %s, %s lhs = e4m3 rhs = e4m3 : !tlx.buffer<128x128xf8E5M2, smem>, !tlx.buffer<128x128xf8E4M3FN, smem>, !tlx.buffer<128x128xf32, tmem>, !tlx.buffer<128x4xi8, tmem>, !tlx.buffer<128x4xi8, tmem>
  tt.return
}

// -----

tt.func @fp4_of_fp8_type(%a: !tlx.buffer<128x64xi8, smem>, %b: !tlx.buffer<64x128xf8E4M3FN, smem>, %acc: !tlx.buffer<128x128xf32, tmem>, %s: !tlx.buffer<128x4xi8, tmem>) {
  // expected-error @below {{`B` in format e2m1 must hold bytes of two e2m1 values (tl.uint8), got 'f8E4M3FN'}}
  tlx.tcgen05_mma_scaled %a, %b, %acc, %s, %s lhs = e2m1 rhs = e2m1 : !tlx.buffer<128x64xi8, smem>, !tlx.buffer<64x128xf8E4M3FN, smem>, !tlx.buffer<128x128xf32, tmem>, !tlx.buffer<128x4xi8, tmem>, !tlx.buffer<128x4xi8, tmem>
  tt.return
}

// -----

tt.func @acc_in_shared_memory(%a: !tlx.buffer<128x128xf8E4M3FN, smem>, %b: !tlx.buffer<128x128xf8E4M3FN, smem>, %acc: !tlx.buffer<128x128xf32, smem>, %s: !tlx.buffer<128x4xi8, tmem>) {
  // expected-error @below {{accumulates into a 2-D float32 tensor-memory buffer (tlx.local_alloc(..., tl.float32, storage=tlx.storage_kind.tmem)), got '!tlx.buffer<128x128xf32, smem>'}}
  tlx.tcgen05_mma_scaled %a, %b, %acc, %s, %s lhs = e4m3 rhs = e4m3 : !tlx.buffer<128x128xf8E4M3FN, smem>, !tlx.buffer<128x128xf8E4M3FN, smem>, !tlx.buffer<128x128xf32, smem>, !tlx.buffer<128x4xi8, tmem>, !tlx.buffer<128x4xi8, tmem>
  tt.return
}

// -----

tt.func @inner_dimensions(%a: !tlx.buffer<128x64xi8, smem>, %b: !tlx.buffer<128x128xi8, smem>, %acc: !tlx.buffer<128x128xf32, tmem>, %s: !tlx.buffer<128x4xi8, tmem>) {
  // expected-error @below {{inner dimensions differ: A is 128 x 128 elements, B 256 x 128 (e2m1: two per byte along K)}}
  tlx.tcgen05_mma_scaled %a, %b, %acc, %s, %s lhs = e2m1 rhs = e2m1 : !tlx.buffer<128x64xi8, smem>, !tlx.buffer<128x128xi8, smem>, !tlx.buffer<128x128xf32, tmem>, !tlx.buffer<128x4xi8, tmem>, !tlx.buffer<128x4xi8, tmem>
  tt.return
}

// -----

tt.func @accumulator_shape(%a: !tlx.buffer<128x128xf8E4M3FN, smem>, %b: !tlx.buffer<128x128xf8E4M3FN, smem>, %acc: !tlx.buffer<128x64xf32, tmem>, %s: !tlx.buffer<128x4xi8, tmem>) {
  // expected-error @below {{accumulator must be 128x128, got 128x64}}
  tlx.tcgen05_mma_scaled %a, %b, %acc, %s, %s lhs = e4m3 rhs = e4m3 : !tlx.buffer<128x128xf8E4M3FN, smem>, !tlx.buffer<128x128xf8E4M3FN, smem>, !tlx.buffer<128x64xf32, tmem>, !tlx.buffer<128x4xi8, tmem>, !tlx.buffer<128x4xi8, tmem>
  tt.return
}

// -----

tt.func @sixty_four_rows(%a: !tlx.buffer<64x128xf8E4M3FN, smem>, %b: !tlx.buffer<128x128xf8E4M3FN, smem>, %acc: !tlx.buffer<64x128xf32, tmem>, %s: !tlx.buffer<128x4xi8, tmem>) {
  // expected-error @below {{block-scaled tcgen05.mma tiles are M = 128 rows by N a multiple of 8 up to 256, got 64x128}}
  tlx.tcgen05_mma_scaled %a, %b, %acc, %s, %s lhs = e4m3 rhs = e4m3 : !tlx.buffer<64x128xf8E4M3FN, smem>, !tlx.buffer<128x128xf8E4M3FN, smem>, !tlx.buffer<64x128xf32, tmem>, !tlx.buffer<128x4xi8, tmem>, !tlx.buffer<128x4xi8, tmem>
  tt.return
}

// -----

tt.func @fp4_k(%a: !tlx.buffer<128x16xi8, smem>, %b: !tlx.buffer<16x128xi8, smem>, %acc: !tlx.buffer<128x128xf32, tmem>, %s: !tlx.buffer<128x1xi8, tmem>) {
  // expected-error @below {{K = 32 is not a multiple of 64, the K of one block-scaled tcgen05.mma for e2m1 operands}}
  tlx.tcgen05_mma_scaled %a, %b, %acc, %s, %s lhs = e2m1 rhs = e2m1 : !tlx.buffer<128x16xi8, smem>, !tlx.buffer<16x128xi8, smem>, !tlx.buffer<128x128xf32, tmem>, !tlx.buffer<128x1xi8, tmem>, !tlx.buffer<128x1xi8, tmem>
  tt.return
}

// -----

tt.func @scales_not_bytes(%a: !tlx.buffer<128x128xf8E4M3FN, smem>, %b: !tlx.buffer<128x128xf8E4M3FN, smem>, %acc: !tlx.buffer<128x128xf32, tmem>, %s: !tlx.buffer<128x4xi8, tmem>, %f: !tlx.buffer<128x4xf32, tmem>) {
  // expected-error @below {{`A_scale` holds e8m0 scales, one byte each (tl.uint8), got 'f32'}}
  tlx.tcgen05_mma_scaled %a, %b, %acc, %f, %s lhs = e4m3 rhs = e4m3 : !tlx.buffer<128x128xf8E4M3FN, smem>, !tlx.buffer<128x128xf8E4M3FN, smem>, !tlx.buffer<128x128xf32, tmem>, !tlx.buffer<128x4xf32, tmem>, !tlx.buffer<128x4xi8, tmem>
  tt.return
}

// -----

tt.func @tensor_memory_scales_shape(%a: !tlx.buffer<128x256xf8E4M3FN, smem>, %b: !tlx.buffer<256x128xf8E4M3FN, smem>, %acc: !tlx.buffer<128x128xf32, tmem>, %s: !tlx.buffer<128x4xi8, tmem>, %s8: !tlx.buffer<128x8xi8, tmem>) {
  // expected-error @below {{`B_scale` in tensor memory must be [128, 8] (one scale per 32 elements along K), got [128, 4]}}
  tlx.tcgen05_mma_scaled %a, %b, %acc, %s8, %s lhs = e4m3 rhs = e4m3 : !tlx.buffer<128x256xf8E4M3FN, smem>, !tlx.buffer<256x128xf8E4M3FN, smem>, !tlx.buffer<128x128xf32, tmem>, !tlx.buffer<128x8xi8, tmem>, !tlx.buffer<128x4xi8, tmem>
  tt.return
}

// -----

tt.func @scales_in_cluster_memory(%a: !tlx.buffer<128x128xf8E4M3FN, smem>, %b: !tlx.buffer<128x128xf8E4M3FN, smem>, %acc: !tlx.buffer<128x128xf32, tmem>, %s: !tlx.buffer<128x4xi8, tmem>, %c: !tlx.buffer<1x1x1x2x256xi8, smemCluster>) {
  // expected-error @below {{`A_scale` must be in shared or tensor memory, got smemCluster}}
  tlx.tcgen05_mma_scaled %a, %b, %acc, %c, %s lhs = e4m3 rhs = e4m3 : !tlx.buffer<128x128xf8E4M3FN, smem>, !tlx.buffer<128x128xf8E4M3FN, smem>, !tlx.buffer<128x128xf32, tmem>, !tlx.buffer<1x1x1x2x256xi8, smemCluster>, !tlx.buffer<128x4xi8, tmem>
  tt.return
}

// -----

tt.func @shared_scales_not_whole_blocks(%a: !tlx.buffer<128x64xf8E4M3FN, smem>, %b: !tlx.buffer<64x128xf8E4M3FN, smem>, %acc: !tlx.buffer<128x128xf32, tmem>, %s: !tlx.buffer<128x2xi8, tmem>, %ss: !tlx.buffer<256xi8, smem>) {
  // expected-error @below {{`A_scale` in shared memory is copied to tensor memory in blocks of 128 rows x 4 scales: its 128 x 2 scales are not whole blocks}}
  tlx.tcgen05_mma_scaled %a, %b, %acc, %ss, %s lhs = e4m3 rhs = e4m3 : !tlx.buffer<128x64xf8E4M3FN, smem>, !tlx.buffer<64x128xf8E4M3FN, smem>, !tlx.buffer<128x128xf32, tmem>, !tlx.buffer<256xi8, smem>, !tlx.buffer<128x2xi8, tmem>
  tt.return
}

// -----

tt.func @shared_scales_shape(%a: !tlx.buffer<128x256xf8E4M3FN, smem>, %b: !tlx.buffer<256x128xf8E4M3FN, smem>, %acc: !tlx.buffer<128x128xf32, tmem>, %s: !tlx.buffer<128x8xi8, tmem>, %ss: !tlx.buffer<1x1x1x2x256xi8, smem>) {
  // expected-error @below {{`B_scale` in shared memory holds 128 x 8 scales in the cuBLAS block-scaling layout: shape [1, 1, 2, 2, 256], [1, 2, 32, 16], [1, 2, 32, 4, 4] or [1, 1024] or [64, 16], got [1, 1, 1, 2, 256]}}
  tlx.tcgen05_mma_scaled %a, %b, %acc, %s, %ss lhs = e4m3 rhs = e4m3 : !tlx.buffer<128x256xf8E4M3FN, smem>, !tlx.buffer<256x128xf8E4M3FN, smem>, !tlx.buffer<128x128xf32, tmem>, !tlx.buffer<128x8xi8, tmem>, !tlx.buffer<1x1x1x2x256xi8, smem>
  tt.return
}

// -----

// tmem_copy of block scales.

tt.func @scales_from_floats(%src: !tlx.buffer<128x4xf32, smem>, %dst: !tlx.buffer<128x4xi8, tmem>) {
  // expected-error @below {{'tlx.tmem_copy' op block scales are copied from bytes (tl.uint8), got 'f32'}}
  tlx.tmem_copy %src, %dst : !tlx.buffer<128x4xf32, smem>, !tlx.buffer<128x4xi8, tmem>
  tt.return
}

// -----

tt.func @scales_of_64_rows(%src: !tlx.buffer<256xi8, smem>, %dst: !tlx.buffer<64x4xi8, tmem>) {
  // expected-error @below {{block scales are copied in blocks of 128 rows x 4 scales: the destination must be 2-D, rows a multiple of 128 and columns of 4, got [64, 4]}}
  tlx.tmem_copy %src, %dst : !tlx.buffer<256xi8, smem>, !tlx.buffer<64x4xi8, tmem>
  tt.return
}

// -----

tt.func @scales_not_in_blocks(%src: !tlx.buffer<128x4xi8, smem>, %dst: !tlx.buffer<128x4xi8, tmem>) {
  // expected-error @below {{the source of 128 x 4 block scales is in the cuBLAS block-scaling layout: shape [1, 1, 1, 2, 256], [1, 1, 32, 16], [1, 1, 32, 4, 4] or [1, 512] or [32, 16], got [128, 4]}}
  tlx.tmem_copy %src, %dst : !tlx.buffer<128x4xi8, smem>, !tlx.buffer<128x4xi8, tmem>
  tt.return
}

// -----

// Stochastic rounding.

tt.func @round_shapes(%x: tensor<128xf32>, %bits: tensor<64xi32>) {
  // expected-error @below {{'tlx.stoch_round' op src, rand_bits and the result must have one shape, got 'tensor<128xf32>', 'tensor<64xi32>' and 'tensor<128xbf16>'}}
  %y = tlx.stoch_round %x, %bits : tensor<128xf32>, tensor<64xi32> -> tensor<128xbf16>
  tt.return
}

// -----

tt.func @round_to_f32(%x: tensor<128xf32>, %bits: tensor<128xi32>) {
  // expected-error @below {{'tlx.stoch_round' op rounds to fp8 (e4m3, e5m2), bf16 or fp16, not 'f32'}}
  %y = tlx.stoch_round %x, %bits : tensor<128xf32>, tensor<128xi32> -> tensor<128xf32>
  tt.return
}
