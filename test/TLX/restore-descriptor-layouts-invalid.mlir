// RUN: tlx-opt %s -split-input-file --tlx-restore-descriptor-layouts -verify-diagnostics

#flat = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module {
  tt.func public @loop_carried(%desc: !tt.tensordesc<tensor<64x64xf16, #nv>> {tlx.descriptor_type = !tt.tensordesc<tensor<64x64xf16, #flat>>}, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // expected-error @below {{'scf.for' op carries a TMA descriptor whose layout TLX chose from the buffers it copies}}
    %r = scf.for %iv = %c0 to %n step %c1 iter_args(%d = %desc) -> (!tt.tensordesc<tensor<64x64xf16, #nv>>) : i32 {
      scf.yield %d : !tt.tensordesc<tensor<64x64xf16, #nv>>
    }
    tt.return
  }
}

// -----

#flat = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16}>
module {
  // expected-error @below {{'tt.func' op argument 0 has a tlx.descriptor_type but is no TMA descriptor, or records no descriptor type}}
  tt.func public @not_a_descriptor(%n: i32 {tlx.descriptor_type = !tt.tensordesc<tensor<64x64xf16, #flat>>}) {
    tt.return
  }
}

// -----

module {
  tt.func public @record_on_an_op(%n: i32) {
    // expected-error @below {{'arith.addi' op has a tlx.descriptor_type but does not make one TMA descriptor}}
    %m = arith.addi %n, %n {tlx.descriptor_type = i32} : i32
    tt.return
  }
}
