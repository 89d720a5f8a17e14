// What tlx-lower-to-ttg needs from the passes before it, checked before any op
// is converted. Run alone here, without tlx-assign-layouts and tlx-lower-to-nvvm.
// RUN: tlx-opt %s -split-input-file --tlx-lower-to-ttg -verify-diagnostics

tt.func @no_layout() {
  // expected-error @below {{'tlx.local_alloc' op has no layout; run tlx-assign-layouts before tlx-lower-to-ttg}}
  %a = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
  tt.return
}

// -----

#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
tt.func @descriptor_without_layout(%desc: !tt.tensordesc<tensor<64x64xf16>>, %i: i32) {
  %a = tlx.local_alloc {layout = #nv} : !tlx.buffers<1, 64x64xf16, smem>
  %v = tlx.local_view %a[%i] : !tlx.buffers<1, 64x64xf16, smem>
  // expected-error @below {{'tlx.async_descriptor_store' op the descriptor's block layout is not the layout #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}> of its buffer; run tlx-assign-layouts before tlx-lower-to-ttg}}
  tlx.async_descriptor_store %desc[%i, %i], %v : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  tt.return
}

// -----

tt.func @nvvm_op_left() -> i64 {
  // expected-error @below {{'tlx.clock64' op has no lowering to TritonGPU yet (ops that become NVVM are lowered by tlx-lower-to-nvvm, which runs first)}}
  %c = tlx.clock64 : i64
  tt.return %c : i64
}

// -----

// Buffers become memory descriptors where TLX ops use them: a set chosen by
// scf.if would keep its TLX type.
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
tt.func @set_through_if(%c: i1, %i: i32) {
  %a = tlx.local_alloc {layout = #nv} : !tlx.buffers<1, 64x64xf16, smem>
  %b = tlx.local_alloc {layout = #nv} : !tlx.buffers<1, 64x64xf16, smem>
  %s = scf.if %c -> !tlx.buffers<1, 64x64xf16, smem> {
    // expected-error @below {{'scf.yield' op cannot take '!tlx.buffers<1, 64x64xf16, smem>': TLX buffers and mbarriers can only be used by TLX ops}}
    scf.yield %a : !tlx.buffers<1, 64x64xf16, smem>
  } else {
    scf.yield %b : !tlx.buffers<1, 64x64xf16, smem>
  }
  tt.return
}

// -----

#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
tt.func @set_from_a_loop(%i: i32) {
  %a = tlx.local_alloc {layout = #nv} : !tlx.buffers<1, 64x64xf16, smem>
  // expected-error @below {{'scf.for' op cannot take '!tlx.buffers<1, 64x64xf16, smem>'}}
  %r = scf.for %k = %i to %i step %i iter_args(%s = %a) -> (!tlx.buffers<1, 64x64xf16, smem>) : i32 {
    %v = tlx.local_view %s[%i] : !tlx.buffers<1, 64x64xf16, smem>
    scf.yield %s : !tlx.buffers<1, 64x64xf16, smem>
  }
  tt.return
}

// -----

tt.func @buffer_argument(%b: !tlx.buffer<64x64xf16, smem>) {
  // expected-error @below {{'tlx.local_trans' op takes '!tlx.buffer<64x64xf16, smem>' from a block argument or a non-TLX op; the lowering needs the tlx.local_alloc or tlx.alloc_barriers it comes from}}
  %t = tlx.local_trans %b, [1, 0] : !tlx.buffer<64x64xf16, smem> -> !tlx.buffer<64x64xf16, smem>
  tt.return
}
