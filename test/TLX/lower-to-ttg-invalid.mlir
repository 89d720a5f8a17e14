// RUN: tlx-opt %s -split-input-file --tlx-assign-layouts --tlx-lower-to-ttg -verify-diagnostics

tt.func @cluster_memory() {
  // expected-error @below {{'tlx.local_alloc' op lowering of smemCluster buffers is not implemented yet; use storage smem}}
  %t = tlx.local_alloc : !tlx.buffers<1, 128x128xf32, smemCluster>
  tt.return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
tt.func @register_layout() {
  // expected-error @below {{'tlx.local_alloc' op layout #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}> is not a shared-memory layout}}
  %b = tlx.local_alloc {layout = #blocked} : !tlx.buffers<1, 64x64xf16, smem>
  tt.return
}

// -----

#sw = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
tt.func @layout_rank() {
  // expected-error @below {{'tlx.local_alloc' op layout #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}> has rank 1 but the buffers have rank 2}}
  %b = tlx.local_alloc {layout = #sw} : !tlx.buffers<1, 64x64xf16, smem>
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
  // expected-error @below {{'tlx.async_descriptor_store' op this descriptor is also used with a buffer of another layout}}
  tlx.async_descriptor_store %desc[%i, %i], %vb : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  tt.return
}

// -----

// A 2-D remote store needs a row-major unswizzled buffer; TLX's default for
// 2-D buffers is NVMMA.
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.cluster-dim-x" = 2 : i32} {
  tt.func @remote_store_swizzled(%v: tensor<64x64xf16, #blocked2>, %rank: i32) {
    %c0 = arith.constant 0 : i32
    %bufs = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
    %buf = tlx.local_view %bufs[%c0] : !tlx.buffers<1, 64x64xf16, smem>
    // expected-error @below {{'tlx.remote_shmem_store' op stores element by element into a row-major, unswizzled buffer: use a 1-D buffer, or give local_alloc an unswizzled layout}}
    // expected-error @below {{failed to legalize operation 'tlx.remote_shmem_store'}}
    tlx.remote_shmem_store %v, %buf remote %rank : tensor<64x64xf16, #blocked2>, !tlx.buffer<64x64xf16, smem>
    tt.return
  }
}

// -----

// tcgen05.cp reads swizzled NVMMA shared memory: 4 f32 columns (16-byte rows) are unswizzled.
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  tt.func @tmem_copy_unswizzled(%i: i32) {
    %srcs = tlx.local_alloc : !tlx.buffers<1, 128x4xf32, smem>
    %dsts = tlx.local_alloc : !tlx.buffers<1, 128x4xf32, tmem>
    %src = tlx.local_view %srcs[%i] : !tlx.buffers<1, 128x4xf32, smem>
    %dst = tlx.local_view %dsts[%i] : !tlx.buffers<1, 128x4xf32, tmem>
    // expected-error @below {{'tlx.tmem_copy' op tcgen05.cp reads a swizzled, untransposed NVMMA shared layout (rows of at least 32 bytes, not a local_trans view), got #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 32}>}}
    // expected-error @below {{failed to legalize operation 'tlx.tmem_copy'}}
    tlx.tmem_copy %src, %dst : !tlx.buffer<128x4xf32, smem>, !tlx.buffer<128x4xf32, tmem>
    tt.return
  }
}

// -----

// tcgen05.cp reads block scales unswizzled: a swizzled layout the user gave the shared-memory scales is
// an error at the copy, and at a block-scaled MMA that copies them itself.
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  tt.func @swizzled_scales(%i: i32) {
    %as = tlx.local_alloc : !tlx.buffers<1, 128x128xf8E4M3FN, smem>
    %accs = tlx.local_alloc : !tlx.buffers<1, 128x128xf32, tmem>
    %sss = tlx.local_alloc {layout = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>} : !tlx.buffers<1, 1x512xi8, smem>
    %sts = tlx.local_alloc : !tlx.buffers<1, 128x4xi8, tmem>
    %a = tlx.local_view %as[%i] : !tlx.buffers<1, 128x128xf8E4M3FN, smem>
    %acc = tlx.local_view %accs[%i] : !tlx.buffers<1, 128x128xf32, tmem>
    %ss = tlx.local_view %sss[%i] : !tlx.buffers<1, 1x512xi8, smem>
    %st = tlx.local_view %sts[%i] : !tlx.buffers<1, 128x4xi8, tmem>
    // expected-error @below {{'tlx.tmem_copy' op tcgen05.cp reads block scales from a whole shared-memory buffer, unswizzled and row-major, got '!ttg.memdesc<1x512xi8, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>, #ttg.shared_memory, mutable>'}}
    // expected-error @below {{failed to legalize operation 'tlx.tmem_copy'}}
    tlx.tmem_copy %ss, %st : !tlx.buffer<1x512xi8, smem>, !tlx.buffer<128x4xi8, tmem>
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  tt.func @swizzled_scales_of_an_mma(%i: i32) {
    %as = tlx.local_alloc : !tlx.buffers<1, 128x128xf8E4M3FN, smem>
    %accs = tlx.local_alloc : !tlx.buffers<1, 128x128xf32, tmem>
    %sss = tlx.local_alloc {layout = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>} : !tlx.buffers<1, 1x512xi8, smem>
    %a = tlx.local_view %as[%i] : !tlx.buffers<1, 128x128xf8E4M3FN, smem>
    %acc = tlx.local_view %accs[%i] : !tlx.buffers<1, 128x128xf32, tmem>
    %ss = tlx.local_view %sss[%i] : !tlx.buffers<1, 1x512xi8, smem>
    // expected-error @below {{'tlx.tcgen05_mma_scaled' op tcgen05.cp reads block scales from a whole shared-memory buffer, unswizzled and row-major, got '!ttg.memdesc<1x512xi8, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>, #ttg.shared_memory, mutable>'}}
    // expected-error @below {{failed to legalize operation 'tlx.tcgen05_mma_scaled'}}
    tlx.tcgen05_mma_scaled %a, %a, %acc, %ss, %ss lhs = e4m3 rhs = e4m3 : !tlx.buffer<128x128xf8E4M3FN, smem>, !tlx.buffer<128x128xf8E4M3FN, smem>, !tlx.buffer<128x128xf32, tmem>, !tlx.buffer<1x512xi8, smem>, !tlx.buffer<1x512xi8, smem>
    tt.return
  }
}

// -----

// A slice of a larger buffer is not the bytes of whole scale blocks tcgen05.cp reads.
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  tt.func @sliced_scales(%i: i32) {
    %sss = tlx.local_alloc : !tlx.buffers<1, 2x512xi8, smem>
    %sts = tlx.local_alloc : !tlx.buffers<1, 128x4xi8, tmem>
    %ss = tlx.local_view %sss[%i] : !tlx.buffers<1, 2x512xi8, smem>
    %half = tlx.local_slice %ss, [1, 0] : !tlx.buffer<2x512xi8, smem> -> !tlx.buffer<1x512xi8, smem>
    %st = tlx.local_view %sts[%i] : !tlx.buffers<1, 128x4xi8, tmem>
    // expected-error @below {{'tlx.tmem_copy' op tcgen05.cp reads block scales from a whole shared-memory buffer, unswizzled and row-major, got '!ttg.memdesc<1x512xi8, #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 8}>, #ttg.shared_memory, mutable, 2x512>'}}
    // expected-error @below {{failed to legalize operation 'tlx.tmem_copy'}}
    tlx.tmem_copy %half, %st : !tlx.buffer<1x512xi8, smem>, !tlx.buffer<128x4xi8, tmem>
    tt.return
  }
}

// -----

// A padded layout puts gaps between the bytes a bulk copy writes in order.
#padded = #ttg.padded_shared<[32:+4] {order = [0], shape = [256]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @bulk_load_into_padded(%g: !tt.ptr<f32>, %size: i32) {
    %c0 = arith.constant 0 : i32
    %bufs = tlx.local_alloc {layout = #padded} : !tlx.buffers<1, 256xf32, smem>
    %buf = tlx.local_view %bufs[%c0] : !tlx.buffers<1, 256xf32, smem>
    %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
    %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
    // expected-error @below {{'tlx.async_bulk_load' op copies bytes in order, into an unswizzled buffer only; give local_alloc no layout (or an unswizzled one)}}
    // expected-error @below {{failed to legalize operation 'tlx.async_bulk_load'}}
    tlx.async_bulk_load %g to %buf, %size, %bar : !tt.ptr<f32> -> !tlx.buffer<256xf32, smem>
    tt.return
  }
}

// -----

// Two buffer sets side by side, 256 columns each per index, two indices:
// 1024 columns, though each set alone fits.
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  tt.func @tmem_spec_over_512_columns() {
    // expected-error @below {{'tlx.storage_alias_spec' op in tensor memory needs 1024 columns; tensor memory has 512 columns of 32 bits per CTA}}
    %s = tlx.storage_alias_spec : !tlx.storage_alias_spec<tmem>
    %a = tlx.local_alloc reuse(%s : !tlx.storage_alias_spec<tmem>) : !tlx.buffers<2, 128x256xf32, tmem>
    %b = tlx.local_alloc reuse(%s : !tlx.storage_alias_spec<tmem>) : !tlx.buffers<2, 128x256xf32, tmem>
    %g = tlx.reuse_group(%a, %b) distinct group_size = 1 : !tlx.buffers<2, 128x256xf32, tmem>, !tlx.buffers<2, 128x256xf32, tmem>
    tlx.set_buffer_overlap %s, %g : !tlx.storage_alias_spec<tmem>
    tt.return
  }
}

// -----

// A spec in tensor memory that no buffers use still needs Blackwell.
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func @tmem_spec_on_hopper() {
    // expected-error @below {{'tlx.storage_alias_spec' op tensor memory (storage tmem) needs sm_100 (Blackwell) or newer; this kernel is compiled for sm_90}}
    %s = tlx.storage_alias_spec : !tlx.storage_alias_spec<tmem>
    tt.return
  }
}

// -----

// A bulk copy moves a buffer's bytes in order: the lower half of a tile four
// 128-byte swizzle columns wide is four pieces, one in each column.
module attributes {"ttg.num-warps" = 4 : i32, "ttg.cluster-dim-x" = 2 : i32} {
  tt.func @bulk_copy_of_strided_slice(%rank: i32) {
    %c0 = arith.constant 0 : i32
    %bufs = tlx.local_alloc : !tlx.buffers<2, 16x128xf32, smem>
    %buf = tlx.local_view %bufs[%c0] : !tlx.buffers<2, 16x128xf32, smem>
    %lower = tlx.local_slice %buf, [8, 0] : !tlx.buffer<16x128xf32, smem> -> !tlx.buffer<8x128xf32, smem>
    %dsts = tlx.local_alloc : !tlx.buffers<1, 8x128xf32, smem>
    %dst = tlx.local_view %dsts[%c0] : !tlx.buffers<1, 8x128xf32, smem>
    %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
    %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
    // expected-error @below {{'tlx.async_remote_shmem_copy' op reaches a slice whose bytes are not contiguous in its buffer: slice whole rows of a buffer wider than one 128-byte swizzle column, or use a whole buffer}}
    // expected-error @below {{failed to legalize operation 'tlx.async_remote_shmem_copy'}}
    tlx.async_remote_shmem_copy %lower to %dst remote %rank, %bar : !tlx.buffer<8x128xf32, smem> -> !tlx.buffer<8x128xf32, smem>
    tt.return
  }
}

// -----

// A TMA box is a whole 128-byte swizzle column: a slice 32 bf16 columns wide
// holds half of one.
module attributes {"ttg.num-warps" = 4 : i32, "ttg.cluster-dim-x" = 2 : i32} {
  tt.func @multicast_into_part_of_a_swizzle_column(%desc: !tt.tensordesc<tensor<64x32xbf16>>, %x: i32, %peer: i32) {
    %c0 = arith.constant 0 : i32
    %bufs = tlx.local_alloc : !tlx.buffers<1, 64x128xbf16, smem>
    %buf = tlx.local_view %bufs[%c0] : !tlx.buffers<1, 64x128xbf16, smem>
    %part = tlx.local_slice %buf, [0, 0] : !tlx.buffer<64x128xbf16, smem> -> !tlx.buffer<64x32xbf16, smem>
    %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
    %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
    // expected-error @below {{'tlx.async_descriptor_load' op TMA copies whole 128-byte swizzle columns: the innermost dimension of this block (32 elements) must be a multiple of 64}}
    // expected-error @below {{failed to legalize operation 'tlx.async_descriptor_load'}}
    tlx.async_descriptor_load %desc[%x, %x], %part, %bar multicast[%c0, %peer] : !tt.tensordesc<tensor<64x32xbf16>>, !tlx.buffer<64x32xbf16, smem>
    tt.return
  }
}

// -----

// Swizzled rows repeat their pattern every 8 rows: a slice starting at row 4
// has no place of its own in the buffer's layout.
module attributes {"ttg.num-warps" = 4 : i32, "ttg.cluster-dim-x" = 2 : i32} {
  tt.func @multicast_into_rows_off_the_swizzle_pattern(%desc: !tt.tensordesc<tensor<4x64xf16>>, %x: i32, %peer: i32) {
    %c0 = arith.constant 0 : i32
    %bufs = tlx.local_alloc : !tlx.buffers<1, 8x64xf16, smem>
    %buf = tlx.local_view %bufs[%c0] : !tlx.buffers<1, 8x64xf16, smem>
    %rows = tlx.local_slice %buf, [4, 0] : !tlx.buffer<8x64xf16, smem> -> !tlx.buffer<4x64xf16, smem>
    %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
    %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
    // expected-error @below {{'tlx.async_descriptor_load' op reaches a slice this lowering cannot place in its buffer: slice whole 128-byte swizzle columns and 8-row groups of a 2-D buffer, or use a whole buffer}}
    // expected-error @below {{failed to legalize operation 'tlx.async_descriptor_load'}}
    tlx.async_descriptor_load %desc[%x, %x], %rows, %bar multicast[%c0, %peer] : !tt.tensordesc<tensor<4x64xf16>>, !tlx.buffer<4x64xf16, smem>
    tt.return
  }
}
