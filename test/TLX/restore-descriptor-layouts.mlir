// RUN: tlx-opt %s -split-input-file --tlx-restore-descriptor-layouts | FileCheck %s

// What stock optimize-descriptor-encoding leaves of a kernel whose
// descriptors TLX gave an unswizzled layout: the default 128-byte swizzle on
// the kernel argument, on both tasks' arguments it is captured as, and on a
// device-made descriptor. The recorded types come back everywhere, the
// function type with them; the records and the anchor go.
// CHECK-DAG:   #[[FLAT:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: tt.func public @restored(
// CHECK-SAME:    %{{.*}}: !tt.tensordesc<tensor<64x64xf16, #[[FLAT]]>>, %{{.*}}: !tt.tensordesc<tensor<64x64xf16, #shared1>>, %{{.*}}: i32
// CHECK-NOT:   tlx.descriptor_type
// CHECK:       tt.make_tensor_descriptor {{.*}} : <f16>, <tensor<64x64xf16, #[[FLAT]]>>
// CHECK:       partition0(%{{.*}}: i32, %{{.*}}: !tt.tensordesc<tensor<64x64xf16, #[[FLAT]]>>, %{{.*}}: !ttg.memdesc<64x64xf16, #[[FLAT]], #smem, mutable>) num_warps(1)
// CHECK-NEXT:    ttg.warp_return
// CHECK:       partition1(%{{.*}}: i32, %[[D:.*]]: !tt.tensordesc<tensor<64x64xf16, #[[FLAT]]>>, %[[B:.*]]: !ttg.memdesc<64x64xf16, #[[FLAT]], #smem, mutable>) num_warps(1)
// CHECK:         ttng.async_tma_copy_local_to_global %[[D]][%{{.*}}, %{{.*}}] %[[B]] : !tt.tensordesc<tensor<64x64xf16, #[[FLAT]]>>, !ttg.memdesc<64x64xf16, #[[FLAT]], #smem, mutable>
#flat = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @restored(%desc: !tt.tensordesc<tensor<64x64xf16, #nv>> {tlx.descriptor_type = !tt.tensordesc<tensor<64x64xf16, #flat>>}, %plain: !tt.tensordesc<tensor<64x64xf16, #nv>>, %i: i32, %base: !tt.ptr<f16>, %n: i32, %s: i64) {
    %made = tt.make_tensor_descriptor %base, [%n, %n], [%s, %s] {tlx.descriptor_type = !tt.tensordesc<tensor<64x64xf16, #flat>>} : <f16>, <tensor<64x64xf16, #nv>>
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #flat, #smem, mutable>
    ttg.warp_specialize(%i, %desc, %buf)
    default {
      ttg.warp_yield
    }
    partition0(%j: i32, %unused: !tt.tensordesc<tensor<64x64xf16, #nv>>, %b0: !ttg.memdesc<64x64xf16, #flat, #smem, mutable>) num_warps(1) {
      %anchor = builtin.unrealized_conversion_cast %unused : !tt.tensordesc<tensor<64x64xf16, #nv>> to i64 {tlx.descriptor_anchor}
      ttg.warp_return
    }
    partition1(%k: i32, %d: !tt.tensordesc<tensor<64x64xf16, #nv>>, %b1: !ttg.memdesc<64x64xf16, #flat, #smem, mutable>) num_warps(1) {
      ttng.async_tma_copy_local_to_global %d[%k, %k] %b1 : !tt.tensordesc<tensor<64x64xf16, #nv>>, !ttg.memdesc<64x64xf16, #flat, #smem, mutable>
      ttg.warp_return
    } : (i32, !tt.tensordesc<tensor<64x64xf16, #nv>>, !ttg.memdesc<64x64xf16, #flat, #smem, mutable>) -> ()
    tt.return
  }
}
