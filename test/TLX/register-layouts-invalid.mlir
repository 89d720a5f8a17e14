// RUN: tlx-opt %s -split-input-file --tlx-assign-layouts --tlx-lower-to-ttg -verify-diagnostics

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @shared_layout(%x: tensor<16x32xf32, #b>) {
    // expected-error @below {{'tlx.require_layout' op layout #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}> is not a register layout (#ttg.blocked, #ttg.linear, #ttg.slice, #ttg.nvidia_mma or #ttg.dot_op)}}
    %r = tlx.require_layout %x {layout = #s} : tensor<16x32xf32, #b>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @rank(%x: tensor<16x32xf32, #b>) {
    // expected-error @below {{'tlx.require_layout' op layout #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}> has rank 1 but the tensor has rank 2}}
    %r = tlx.require_layout %x {layout = #b1} : tensor<16x32xf32, #b>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#b8 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @warps(%x: tensor<16x32xf32, #b>) {
    // expected-error @below {{'tlx.require_layout' op layout #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}> spreads a tensor over 8 warps of 32 threads; this code runs on 4 warps of 32 threads}}
    %r = tlx.require_layout %x {layout = #b8} : tensor<16x32xf32, #b>
    tt.return
  }
}

// -----

// The bases of a 4x8 tensor for a 16x32 one.
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [1, 0]}>
#small = #ttg.linear<{register = [], lane = [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0]], warp = [], block = []}>
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @linear_shape(%x: tensor<16x32xf32, #b>) {
    // expected-error @below {{'tlx.require_layout' op layout #ttg.linear<{register = [], lane = [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0]], warp = [], block = []}> does not lay out a tensor of shape [16, 32]: its bases must reach each element}}
    %r = tlx.require_layout %x {layout = #small} : tensor<16x32xf32, #b>
    tt.return
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @expected_shared(%x: tensor<16x32xf32, #b>) {
    // expected-error @below {{'tlx.assert_same_layout' op layout #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}> is not a register layout}}
    tlx.assert_same_layout %x {expected = #s} : tensor<16x32xf32, #b>
    tt.return
  }
}

// -----

#sw = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @buffers_differ(%i: i32) {
    %a = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
    %b = tlx.local_alloc {layout = #sw} : !tlx.buffers<1, 64x64xf16, smem>
    %va = tlx.local_view %a[%i] : !tlx.buffers<1, 64x64xf16, smem>
    %vb = tlx.local_view %b[%i] : !tlx.buffers<1, 64x64xf16, smem>
    // expected-error @below {{'tlx.assert_same_layout' op layout assertion failed: the buffer's layout is #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, not #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>}}
    tlx.assert_same_layout %va, %vb : !tlx.buffer<64x64xf16, smem>, !tlx.buffer<64x64xf16, smem>
    tt.return
  }
}
