// RUN: tlx-opt %s -split-input-file --tlx-record-descriptor-layouts | FileCheck %s --check-prefix=RECORD
// RUN: tlx-opt %s -split-input-file --tlx-record-descriptor-layouts --tlx-restore-descriptor-layouts | FileCheck %s --check-prefix=ROUNDTRIP

// The types TLX chose are recorded where the descriptors are defined (the
// kernel argument, the op that reads one from a slot); %plain, which only a
// stock TMA op uses, has no layout and no record. A task's unused argument of
// a recorded descriptor gets an anchor (the stock pass sees it used). Recording
// and restoring at once changes nothing but removes records and anchors.
// RECORD-LABEL: tt.func public @recorded(
// RECORD-SAME:    %{{.*}}: !tt.tensordesc<tensor<64x64xf16, #shared>> {tlx.descriptor_type = !tt.tensordesc<tensor<64x64xf16, #shared>>}, %{{.*}}: !tt.tensordesc<tensor<64x64xf16>>,
// RECORD:       ttng.reinterpret_tensor_descriptor %{{.*}} {tlx.descriptor_type = !tt.tensordesc<tensor<64x64xf16, #shared>>}
// RECORD:       partition0(%[[UNUSED:.*]]: !tt.tensordesc<tensor<64x64xf16, #shared>>, %{{.*}}: !ttg.memdesc
// RECORD-NEXT:    builtin.unrealized_conversion_cast %[[UNUSED]] : !tt.tensordesc<tensor<64x64xf16, #shared>> to i64 {tlx.descriptor_anchor}
// RECORD:       partition1(
// RECORD-NOT:     unrealized_conversion_cast
// RECORD:         ttng.async_tma_copy_local_to_global
// ROUNDTRIP-NOT: tlx.
// ROUNDTRIP:    tt.func public @recorded(%{{.*}}: !tt.tensordesc<tensor<64x64xf16, #shared>>, %{{.*}}: !tt.tensordesc<tensor<64x64xf16>>,
// ROUNDTRIP-NOT: unrealized_conversion_cast
// ROUNDTRIP-NOT: tlx.
#flat = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @recorded(%desc: !tt.tensordesc<tensor<64x64xf16, #flat>>, %plain: !tt.tensordesc<tensor<64x64xf16>>, %slot: !tt.ptr<i8>, %i: i32) {
    %read = ttng.reinterpret_tensor_descriptor %slot : !tt.ptr<i8> to !tt.tensordesc<tensor<64x64xf16, #flat>>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #flat, #smem, mutable>
    ttg.warp_specialize(%desc, %buf, %i)
    default {
      ttg.warp_yield
    }
    partition0(%unused: !tt.tensordesc<tensor<64x64xf16, #flat>>, %b0: !ttg.memdesc<64x64xf16, #flat, #smem, mutable>, %j: i32) num_warps(1) {
      ttg.warp_return
    }
    partition1(%d: !tt.tensordesc<tensor<64x64xf16, #flat>>, %b1: !ttg.memdesc<64x64xf16, #flat, #smem, mutable>, %k: i32) num_warps(1) {
      ttng.async_tma_copy_local_to_global %d[%k, %k] %b1 : !tt.tensordesc<tensor<64x64xf16, #flat>>, !ttg.memdesc<64x64xf16, #flat, #smem, mutable>
      ttg.warp_return
    } : (!tt.tensordesc<tensor<64x64xf16, #flat>>, !ttg.memdesc<64x64xf16, #flat, #smem, mutable>, i32) -> ()
    tt.return
  }
}
