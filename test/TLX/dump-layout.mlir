// RUN: tlx-opt %s -verify-diagnostics --tlx-assign-layouts --tlx-lower-to-nvvm --tlx-lower-to-ttg | FileCheck %s

// dump_layout reports the lowered type with its layout, at the op, and leaves no code.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: tt.func @report
  // CHECK-NOT: tlx.dump_layout
  tt.func @report(%t: tensor<64x64xf16, #blocked>) {
    %c0 = arith.constant 0 : i32
    %bufs = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
    %b = tlx.local_view %bufs[%c0] : !tlx.buffers<1, 64x64xf16, smem>
    tlx.local_store %t, %b : tensor<64x64xf16, #blocked> -> !tlx.buffer<64x64xf16, smem>
    // expected-remark @below {{layout: '!ttg.memdesc<64x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>, #ttg.shared_memory, mutable>'}}
    tlx.dump_layout %b : !tlx.buffer<64x64xf16, smem>
    // expected-remark @below {{layout: 'tensor<64x64xf16, #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>'}}
    tlx.dump_layout %t : tensor<64x64xf16, #blocked>
    tt.return
  }
}
