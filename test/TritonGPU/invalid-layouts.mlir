// Layout encodings reject parameters stock Triton 3.6 rejects.
// RUN: tlx-opt %s -split-input-file -verify-diagnostics

// expected-error @below {{blocked layout sizes must be powers of 2, got 3}}
tt.func @blocked_not_pow2(%x: tensor<64xf32, #ttg.blocked<{sizePerThread = [3], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>) {
  tt.return
}

// -----

// expected-error @below {{order must be a permutation of 0..2, got [1, 1]}}
tt.func @blocked_order(%x: tensor<64x64xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 1]}>>) {
  tt.return
}

// -----

// expected-error @below {{sizePerThread, threadsPerWarp, warpsPerCTA and order must have the same rank}}
tt.func @blocked_rank(%x: tensor<64x64xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>) {
  tt.return
}

// -----

// expected-error @below {{unexpected key: CTAOrder}}
tt.func @old_cta_keys(%x: tensor<64xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0], CTAOrder = [0]}>>) {
  tt.return
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @below {{parent layout must have at least rank >= 2}}
tt.func @slice_of_1d(%x: tensor<64xf32, #ttg.slice<{dim = 0, parent = #b}>>) {
  tt.return
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// expected-error @below {{ttg.dot_op opIdx parameter can be 0 or 1, got: 2}}
tt.func @dot_op_index(%x: tensor<64x64xf16, #ttg.dot_op<{opIdx = 2, parent = #b}>>) {
  tt.return
}

// -----

// expected-error @below {{Expected basis of 'block' not found}}
tt.func @linear_missing(%x: tensor<64xf32, #ttg.linear<{register = [[1]], lane = [[2]], warp = [[4]]}>>) {
  tt.return
}

// -----

// expected-error @below {{alignment must be a positive power of two, got 12}}
tt.func @shared_linear_alignment(%m: !ttg.memdesc<4xf32, #ttg.shared_linear<{offset = [[1], [2]]}, alignment = 12>, #ttg.shared_memory>) {
  tt.return
}

// -----

// expected-error @below {{intervals and paddings must be powers of 2, got 3}}
tt.func @padded_interval(%m: !ttg.memdesc<64x64xf16, #ttg.padded_shared<[3:+4] {order = [1, 0], shape = [64, 64]}>, #ttg.shared_memory>) {
  tt.return
}

// -----

// expected-error @below {{memdesc dimensions after the first must be positive powers of 2, got 48}}
tt.func @memdesc_shape(%m: !ttg.memdesc<2x48xf16, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, #ttg.shared_memory>) {
  tt.return
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 8 : i32} {
  tt.func @warps_mismatch() {
    // expected-error @below {{Result has an invalid layout: #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>. Layout has 4 warps per CTA, but the context requires 8 warps per CTA.}}
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
    tt.return
  }
}
