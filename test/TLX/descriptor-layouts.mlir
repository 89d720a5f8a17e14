// RUN: tlx-opt %s -split-input-file --tlx-record-descriptor-layouts | FileCheck %s --check-prefix=RECORD
// RUN: tlx-opt %s -split-input-file --tlx-record-descriptor-layouts --tlx-restore-descriptor-layouts | FileCheck %s --check-prefix=ROUNDTRIP

// With a descriptor only a stock TMA op uses (%plain, no layout), stock
// optimize-descriptor-encoding will run: the module is marked and the types
// TLX chose are recorded where the descriptors are defined (the kernel
// argument, the op that reads one from a slot). Recording and restoring at
// once changes nothing but removes the records.
// RECORD:       module attributes {tlx.stock_typed_descriptors
// RECORD:       tt.func public @recorded(%{{.*}}: !tt.tensordesc<tensor<64x64xf16, #shared>> {tlx.descriptor_type = !tt.tensordesc<tensor<64x64xf16, #shared>>}, %{{.*}}: !tt.tensordesc<tensor<64x64xf16>>,
// RECORD:       ttng.reinterpret_tensor_descriptor %{{.*}} {tlx.descriptor_type = !tt.tensordesc<tensor<64x64xf16, #shared>>}
// ROUNDTRIP-NOT: tlx.
// ROUNDTRIP:    tt.func public @recorded(%{{.*}}: !tt.tensordesc<tensor<64x64xf16, #shared>>, %{{.*}}: !tt.tensordesc<tensor<64x64xf16>>,
// ROUNDTRIP-NOT: tlx.
#flat = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @recorded(%desc: !tt.tensordesc<tensor<64x64xf16, #flat>>, %plain: !tt.tensordesc<tensor<64x64xf16>>, %slot: !tt.ptr<i8>) {
    %read = ttng.reinterpret_tensor_descriptor %slot : !tt.ptr<i8> to !tt.tensordesc<tensor<64x64xf16, #flat>>
    tt.return
  }
}

// -----

// Every descriptor has its layout: the stock pass does not run, nothing is
// recorded.
// RECORD-NOT:   tlx.
// RECORD-LABEL: tt.func public @all_laid_out
// RECORD-NOT:   tlx.
#flat = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @all_laid_out(%desc: !tt.tensordesc<tensor<64x64xf16, #flat>>) {
    tt.return
  }
}
