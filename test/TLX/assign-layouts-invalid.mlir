// RUN: tlx-opt %s -split-input-file --tlx-assign-layouts -verify-diagnostics

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
tt.func @register_layout() {
  // expected-error @below {{'tlx.local_alloc' op layout #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}> is not a shared-memory layout}}
  %b = tlx.local_alloc {layout = #blocked} : !tlx.buffers<1, 64x64xf16, smem>
  tt.return
}

// -----

#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
tt.func @layout_rank() {
  // expected-error @below {{'tlx.local_alloc' op layout #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}> has rank 2 but the buffers have rank 3}}
  %b = tlx.local_alloc {layout = #nv} : !tlx.buffers<1, 2x64x64xf16, smem>
  tt.return
}

// -----

// Every error of the module is reported, not only the first.
tt.func @two_errors() {
  // expected-error @below {{is not a shared-memory layout}}
  %a = tlx.local_alloc {layout = 1 : i32} : !tlx.buffers<1, 64x64xf16, smem>
  // expected-error @below {{is not a shared-memory layout}}
  %b = tlx.local_alloc {layout = 2 : i32} : !tlx.buffers<1, 64x64xf16, smem>
  tt.return
}

// -----

#sw = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
tt.func @two_layouts(%desc: !tt.tensordesc<tensor<64x64xf16>>, %i: i32) {
  %a = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
  %b = tlx.local_alloc {layout = #sw} : !tlx.buffers<1, 64x64xf16, smem>
  %va = tlx.local_view %a[%i] : !tlx.buffers<1, 64x64xf16, smem>
  %vb = tlx.local_view %b[%i] : !tlx.buffers<1, 64x64xf16, smem>
  tlx.async_descriptor_store %desc[%i, %i], %va : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  // expected-error @below {{'tlx.async_descriptor_store' op this descriptor is also used with a buffer of another layout (#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>); use one buffer layout per descriptor}}
  tlx.async_descriptor_store %desc[%i, %i], %vb : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  tt.return
}

// -----

// A descriptor carried by a loop has no single definition to retype.
tt.func @descriptor_from_a_loop(%desc: !tt.tensordesc<tensor<64x64xf16>>, %i: i32) {
  %a = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
  %va = tlx.local_view %a[%i] : !tlx.buffers<1, 64x64xf16, smem>
  %r = scf.for %k = %i to %i step %i iter_args(%d = %desc) -> (!tt.tensordesc<tensor<64x64xf16>>) : i32 {
    // expected-error @below {{'tlx.async_descriptor_store' op TMA descriptors must come from a kernel argument, tl.make_tensor_descriptor or tlx.reinterpret_tensor_descriptor}}
    tlx.async_descriptor_store %d[%i, %i], %va : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
    scf.yield %d : !tt.tensordesc<tensor<64x64xf16>>
  }
  tt.return
}

// -----

tt.func @transpose_nvmma_3d(%i: i32) {
  %a = tlx.local_alloc : !tlx.buffers<1, 2x64x64xf16, smem>
  %v = tlx.local_view %a[%i] : !tlx.buffers<1, 2x64x64xf16, smem>
  // expected-error @below {{'tlx.local_trans' op cannot transpose a buffer with layout #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3}> by [0, 2, 1]}}
  %t = tlx.local_trans %v, [0, 2, 1] : !tlx.buffer<2x64x64xf16, smem> -> !tlx.buffer<2x64x64xf16, smem>
  tt.return
}

// -----

tt.func @reinterpret_transposed(%i: i32) {
  %a = tlx.local_alloc : !tlx.buffers<1, 64x128xf16, smem>
  %v = tlx.local_view %a[%i] : !tlx.buffers<1, 64x128xf16, smem>
  %t = tlx.local_trans %v, [1, 0] : !tlx.buffer<64x128xf16, smem> -> !tlx.buffer<128x64xf16, smem>
  // expected-error @below {{'tlx.local_reinterpret' op cannot reinterpret a buffer with layout #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}> as '!tlx.buffer<128x32xf32, smem>': the rows must keep their byte length (and an unswizzled buffer must become 1-D)}}
  %r = tlx.local_reinterpret %t : !tlx.buffer<128x64xf16, smem> -> !tlx.buffer<128x32xf32, smem>
  tt.return
}

// -----

// fp8 wgmma reads `b` K-major: a KxN buffer as it is is MN-major.
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @fp8_b_mn_major(%acc: tensor<64x64xf32>, %i: i32) {
    %a = tlx.local_alloc : !tlx.buffers<1, 64x32xf8E4M3FN, smem>
    %b = tlx.local_alloc : !tlx.buffers<1, 32x64xf8E4M3FN, smem>
    %av = tlx.local_view %a[%i] : !tlx.buffers<1, 64x32xf8E4M3FN, smem>
    %bv = tlx.local_view %b[%i] : !tlx.buffers<1, 32x64xf8E4M3FN, smem>
    // expected-error @+1 {{'tlx.async_dot' op wgmma reads 8-bit `b` K-major only: allocate `b` as NxK and pass tlx.local_trans(b)}}
    %d = tlx.async_dot %av, %bv, %acc : !tlx.buffer<64x32xf8E4M3FN, smem> * !tlx.buffer<32x64xf8E4M3FN, smem> -> tensor<64x64xf32>
    tt.return
  }
}

// -----

// So does tf32 wgmma (float32 operands): wgmma transposes 16-bit operands only.
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @tf32_b_mn_major(%acc: tensor<64x64xf32>, %i: i32) {
    %a = tlx.local_alloc : !tlx.buffers<1, 64x16xf32, smem>
    %b = tlx.local_alloc : !tlx.buffers<1, 16x64xf32, smem>
    %av = tlx.local_view %a[%i] : !tlx.buffers<1, 64x16xf32, smem>
    %bv = tlx.local_view %b[%i] : !tlx.buffers<1, 16x64xf32, smem>
    // expected-error @+1 {{'tlx.async_dot' op wgmma reads 32-bit (tf32) `b` K-major only: allocate `b` as NxK and pass tlx.local_trans(b)}}
    %d = tlx.async_dot %av, %bv, %acc : !tlx.buffer<64x16xf32, smem> * !tlx.buffer<16x64xf32, smem> -> tensor<64x64xf32>
    tt.return
  }
}

// -----

// ... and `a` K-major: a transposed view is MN-major.
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @fp8_a_mn_major(%acc: tensor<64x64xf32>, %i: i32) {
    %a = tlx.local_alloc : !tlx.buffers<1, 32x64xf8E4M3FN, smem>
    %b = tlx.local_alloc : !tlx.buffers<1, 64x32xf8E4M3FN, smem>
    %av = tlx.local_view %a[%i] : !tlx.buffers<1, 32x64xf8E4M3FN, smem>
    %at = tlx.local_trans %av, [1, 0] : !tlx.buffer<32x64xf8E4M3FN, smem> -> !tlx.buffer<64x32xf8E4M3FN, smem>
    %bv = tlx.local_view %b[%i] : !tlx.buffers<1, 64x32xf8E4M3FN, smem>
    %bt = tlx.local_trans %bv, [1, 0] : !tlx.buffer<64x32xf8E4M3FN, smem> -> !tlx.buffer<32x64xf8E4M3FN, smem>
    // expected-error @+1 {{'tlx.async_dot' op wgmma reads 8-bit `a` K-major only: pass an MxK buffer as it is, not a transposed view}}
    %d = tlx.async_dot %at, %bt, %acc : !tlx.buffer<64x32xf8E4M3FN, smem> * !tlx.buffer<32x64xf8E4M3FN, smem> -> tensor<64x64xf32>
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 2 : i32} {
  tt.func @dot_two_warps(%acc: tensor<64x64xf32>, %i: i32) {
    %a = tlx.local_alloc : !tlx.buffers<1, 64x16xf16, smem>
    %b = tlx.local_alloc : !tlx.buffers<1, 16x64xf16, smem>
    %av = tlx.local_view %a[%i] : !tlx.buffers<1, 64x16xf16, smem>
    %bv = tlx.local_view %b[%i] : !tlx.buffers<1, 16x64xf16, smem>
    // expected-error @+1 {{'tlx.async_dot' op wgmma runs on whole warp groups: the kernel (or task) needs num_warps a multiple of 4, got 2}}
    %d = tlx.async_dot %av, %bv, %acc : !tlx.buffer<64x16xf16, smem> * !tlx.buffer<16x64xf16, smem> -> tensor<64x64xf32>
    tt.return
  }
}

// -----

module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32} {
  tt.func @two_ctas() {
    // expected-error @+1 {{'tlx.local_alloc' op TLX kernels run with num_ctas=1 (one CTA per program); this one is compiled with num_ctas=2}}
    %a = tlx.local_alloc : !tlx.buffers<1, 64xf32, smem>
    tt.return
  }
}

// -----

// A layout the user gives keeps its swizzle: a slice of fewer than 8 rows cannot be cut out of it.
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
tt.func @slice_cuts_the_swizzle(%i: i32) {
  %b = tlx.local_alloc {layout = #nv} : !tlx.buffers<1, 64x64xf16, smem>
  %v = tlx.local_view %b[%i] : !tlx.buffers<1, 64x64xf16, smem>
  // expected-error @below {{'tlx.local_slice' op cuts the swizzle of the buffer's layout #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, which repeats every 8 rows: slice at least 8 rows, or give the buffer an unswizzled layout}}
  %s = tlx.local_slice %v, [4, 0] : !tlx.buffer<64x64xf16, smem> -> !tlx.buffer<4x64xf16, smem>
  tt.return
}
