// RUN: tlx-opt %s -split-input-file --tlx-assign-layouts -verify-diagnostics

tt.func @slot_type(%p: !tt.ptr<f16>) {
  // expected-error @below {{'tlx.reinterpret_tensor_descriptor' op descPtr must be a global !tt.ptr<i8> (a slot of tlx.allocate_tensor_descriptor), got '!tt.ptr<f16>'}}
  %d = tlx.reinterpret_tensor_descriptor %p : !tt.ptr<f16> to !tt.tensordesc<tensor<64x64xf16>>
  tt.return
}

// -----

tt.func @allocation_type() {
  // expected-error @below {{'tlx.allocate_tensor_descriptor' op the result must be a global !tt.ptr<i8> (a slot of tlx.allocate_tensor_descriptor), got '!tt.ptr<i8, 3>'}}
  %p = tlx.allocate_tensor_descriptor {num = 1 : i32} : !tt.ptr<i8, 3>
  tt.return
}

// -----

tt.func @too_many() {
  // expected-error @below {{'tlx.allocate_tensor_descriptor' op at most 8388608 descriptors of 128 bytes, got 8388609}}
  %p = tlx.allocate_tensor_descriptor {num = 8388609 : i32} : !tt.ptr<i8>
  tt.return
}

// -----

tt.func @rank(%p: !tt.ptr<i8>) {
  // expected-error @below {{'tlx.reinterpret_tensor_descriptor' op TMA descriptors have 1 to 5 dimensions, got 6}}
  %d = tlx.reinterpret_tensor_descriptor %p : !tt.ptr<i8> to !tt.tensordesc<tensor<2x2x2x2x2x64xf16>>
  tt.return
}

// -----

tt.func @counts(%p: !tt.ptr<i8>, %a: !tt.ptr<f16>, %n: i32, %s: i64) {
  // expected-error @below {{'tlx.make_tensor_descriptor' op needs one size and one stride per block dimension: 2 expected, 1 sizes and 2 strides given}}
  tlx.make_tensor_descriptor %p, %a, [%n], [%s, %s] {blockShape = array<i32: 64, 64>} : !tt.ptr<i8>, !tt.ptr<f16>
  tt.return
}

// -----

tt.func @block_rank(%p: !tt.ptr<i8>, %a: !tt.ptr<f16>, %n: i32, %s: i64) {
  // expected-error @below {{'tlx.make_tensor_descriptor' op TMA descriptors have 1 to 5 dimensions, got 0}}
  tlx.make_tensor_descriptor %p, %a, [], [] {blockShape = array<i32>} : !tt.ptr<i8>, !tt.ptr<f16>
  tt.return
}

// -----

tt.func @block_size(%p: !tt.ptr<i8>, %a: !tt.ptr<f16>, %n: i32, %s: i64) {
  // expected-error @below {{'tlx.make_tensor_descriptor' op block dimensions must be positive, got [0, 64]}}
  tlx.make_tensor_descriptor %p, %a, [%n, %n], [%s, %s] {blockShape = array<i32: 0, 64>} : !tt.ptr<i8>, !tt.ptr<f16>
  tt.return
}

// -----

tt.func @element(%p: !tt.ptr<i8>, %a: !tt.ptr<i1>, %n: i32, %s: i64) {
  // expected-error @below {{'tlx.make_tensor_descriptor' op base must point to elements of 1, 2, 4 or 8 bytes, got 'i1'}}
  tlx.make_tensor_descriptor %p, %a, [%n], [%s] {blockShape = array<i32: 128>} : !tt.ptr<i8>, !tt.ptr<i1>
  tt.return
}

// -----

tt.func @narrow(%p: !tt.ptr<i8>, %a: !tt.ptr<f16>, %n: i32, %s: i64) {
  // expected-error @below {{'tlx.make_tensor_descriptor' op the block's last dimension must span at least 16 bytes, got 4 x 'f16'}}
  tlx.make_tensor_descriptor %p, %a, [%n, %n], [%s, %s] {blockShape = array<i32: 64, 4>} : !tt.ptr<i8>, !tt.ptr<f16>
  tt.return
}

// -----

tt.func @nan_int(%p: !tt.ptr<i8>, %a: !tt.ptr<i32>, %n: i32, %s: i64) {
  // expected-error @below {{'tlx.make_tensor_descriptor' op padding with NaN needs floating-point elements, got 'i32'}}
  tlx.make_tensor_descriptor %p, %a, [%n, %n], [%s, %s] {blockShape = array<i32: 64, 64>, padding = 2 : i32} : !tt.ptr<i8>, !tt.ptr<i32>
  tt.return
}

// -----

// Two reads of one allocation's slots, with one block, copied with buffers
// of two layouts: the descriptor written there can hold one swizzle only.
#nv64 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @conflict(%i: i32) {
    %p = tlx.allocate_tensor_descriptor {num = 2 : i32} : !tt.ptr<i8>
    %c128 = arith.constant 128 : i32
    %s = tt.addptr %p, %c128 : !tt.ptr<i8>, i32
    // expected-note @below {{the other read}}
    %d0 = tlx.reinterpret_tensor_descriptor %p : !tt.ptr<i8> to !tt.tensordesc<tensor<64x64xf16>>
    // expected-error @below {{'tlx.reinterpret_tensor_descriptor' op copies with buffers of layout #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>, another descriptor read from the same slots with buffers of layout #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>: the descriptors of one tlx.allocate_tensor_descriptor with the same block share one layout}}
    %d1 = tlx.reinterpret_tensor_descriptor %s : !tt.ptr<i8> to !tt.tensordesc<tensor<64x64xf16>>
    %a = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
    %b = tlx.local_alloc {layout = #nv64} : !tlx.buffers<1, 64x64xf16, smem>
    %va = tlx.local_view %a[%i] : !tlx.buffers<1, 64x64xf16, smem>
    %vb = tlx.local_view %b[%i] : !tlx.buffers<1, 64x64xf16, smem>
    tlx.async_descriptor_store %d0[%i, %i], %va : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
    tlx.async_descriptor_store %d1[%i, %i], %vb : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
    tt.return
  }
}

// -----

// The slot's descriptor would have to swizzle like a buffer TMA cannot fill.
#sw = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @not_tma(%a: !tt.ptr<f16>, %n: i32, %s: i64, %i: i32) {
    %p = tlx.allocate_tensor_descriptor {num = 1 : i32} : !tt.ptr<i8>
    // expected-error @below {{'tlx.make_tensor_descriptor' op TMA cannot copy blocks in shared layout #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>}}
    tlx.make_tensor_descriptor %p, %a, [%n, %n], [%s, %s] {blockShape = array<i32: 64, 64>} : !tt.ptr<i8>, !tt.ptr<f16>
    %d = tlx.reinterpret_tensor_descriptor %p : !tt.ptr<i8> to !tt.tensordesc<tensor<64x64xf16>>
    %bufs = tlx.local_alloc {layout = #sw} : !tlx.buffers<1, 64x64xf16, smem>
    %b = tlx.local_view %bufs[%i] : !tlx.buffers<1, 64x64xf16, smem>
    tlx.async_descriptor_store %d[%i, %i], %b : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
    tt.return
  }
}

// -----

// A block of more than 256 rows: more than one TMA box down the rows.
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @tall(%a: !tt.ptr<f16>, %n: i32, %s: i64) {
    %p = tlx.allocate_tensor_descriptor {num = 1 : i32} : !tt.ptr<i8>
    // expected-error @below {{'tlx.make_tensor_descriptor' op this TMA form of a block with a dimension over 256 elements is not supported}}
    tlx.make_tensor_descriptor %p, %a, [%n, %n], [%s, %s] {blockShape = array<i32: 512, 64>} : !tt.ptr<i8>, !tt.ptr<f16>
    tt.return
  }
}

// -----

// A called function cannot return a descriptor whose layout the copies fix
// after its type was written: its callers expect the declared type.
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func private @make(%x: !tt.ptr<i16>, %n: i32, %one: i64) -> !tt.tensordesc<tensor<64xi16>> {
    %p = tlx.allocate_tensor_descriptor {num = 1 : i32} : !tt.ptr<i8>
    tlx.make_tensor_descriptor %p, %x, [%n], [%one] {blockShape = array<i32: 64>} : !tt.ptr<i8>, !tt.ptr<i16>
    %d = tlx.reinterpret_tensor_descriptor %p : !tt.ptr<i8> to !tt.tensordesc<tensor<64xi16>>
    // expected-error @below {{'tt.return' op returns ('!tt.tensordesc<tensor<64xi16, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>>>') where @make is declared to return ('!tt.tensordesc<tensor<64xi16>>'): a TMA descriptor took the layout of the buffers it copies here, and @make's callers expect the declared type; build the descriptor in the caller, or inline the function}}
    tt.return %d : !tt.tensordesc<tensor<64xi16>>
  }
  tt.func @caller(%x: !tt.ptr<i16>, %n: i32, %one: i64) {
    %d = tt.call @make(%x, %n, %one) : (!tt.ptr<i16>, i32, i64) -> !tt.tensordesc<tensor<64xi16>>
    tt.return
  }
}
