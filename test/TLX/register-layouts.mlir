// RUN: tlx-opt %s -split-input-file --tlx-assign-layouts --tlx-lower-to-ttg | FileCheck %s

// A requirement converts to its layout, and what is computed elementwise from
// the value takes it too (a splat constant is made again in it, another
// operand converted); the other users (a store) keep theirs. A pin leaves its
// marker with the layout; a release leaves one too.
// CHECK-DAG:   #[[B:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG:   #[[L:.*]] = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tt.func @require
// CHECK-SAME:    (%[[X:.*]]: tensor<16x32xf32, #[[B]]>, %[[Y:.*]]: tensor<16x32xf32, #[[B]]>, %[[P:.*]]: tensor<16x32x!tt.ptr<f32>, #[[B]]>)
// CHECK-DAG:   %[[TWO:.*]] = arith.constant dense<2.000000e+00> : tensor<16x32xf32, #[[L]]>
// CHECK-DAG:   %[[YL:.*]] = ttg.convert_layout %[[Y]] : tensor<16x32xf32, #[[B]]> -> tensor<16x32xf32, #[[L]]>
// CHECK:       %[[XL:.*]] = ttg.convert_layout %[[X]] : tensor<16x32xf32, #[[B]]> -> tensor<16x32xf32, #[[L]]>
// CHECK-NEXT:  %[[PIN:.*]] = tt.elementwise_inline_asm "" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tlx.layout = #[[L]], tlx.layout_marker = "pin"} %[[XL]] : tensor<16x32xf32, #[[L]]> -> tensor<16x32xf32, #[[L]]>
// CHECK:       %[[M:.*]] = arith.mulf %[[PIN]], %[[TWO]] : tensor<16x32xf32, #[[L]]>
// CHECK:       %[[A:.*]] = arith.addf %[[M]], %[[YL]] : tensor<16x32xf32, #[[L]]>
// CHECK:       %[[REL:.*]] = tt.elementwise_inline_asm "" {{.*}}tlx.layout_marker = "release"} %{{.*}} : tensor<16x32xf32, #[[B]]> -> tensor<16x32xf32, #[[B]]>
// CHECK:       tt.store %[[P]], %[[REL]] : tensor<16x32x!tt.ptr<f32>, #[[B]]>
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#l = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @require(%x: tensor<16x32xf32, #b>, %y: tensor<16x32xf32, #b>, %p: tensor<16x32x!tt.ptr<f32>, #b>) {
    %two = arith.constant dense<2.0> : tensor<16x32xf32, #b>
    %r = tlx.require_layout %x {layout = #l, pin} : tensor<16x32xf32, #b>
    %m = arith.mulf %r, %two : tensor<16x32xf32, #b>
    %a = arith.addf %m, %y : tensor<16x32xf32, #b>
    %rel = tlx.release_layout %a : tensor<16x32xf32, #b>
    tt.store %p, %rel : tensor<16x32x!tt.ptr<f32>, #b>
    tt.return
  }
}

// -----

// Without `pin`, the conversion alone: no marker.
// CHECK-LABEL: tt.func @flexible
// CHECK:       %[[C:.*]] = ttg.convert_layout %{{.*}} : tensor<16x32xf32, #{{.*}}> -> tensor<16x32xf32, #[[L2:.*]]>
// CHECK-NEXT:  %[[N:.*]] = arith.negf %[[C]] : tensor<16x32xf32, #[[L2]]>
// CHECK-NEXT:  %[[BACK:.*]] = ttg.convert_layout %[[N]] : tensor<16x32xf32, #[[L2]]> -> tensor<16x32xf32, #{{.*}}>
// CHECK-NOT:   tlx.layout_marker
// CHECK:       tt.return %[[BACK]]
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#l = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @flexible(%x: tensor<16x32xf32, #b>) -> tensor<16x32xf32, #b> {
    %r = tlx.require_layout %x {layout = #l} : tensor<16x32xf32, #b>
    %n = arith.negf %r : tensor<16x32xf32, #b>
    tt.return %n : tensor<16x32xf32, #b>
  }
}

// -----

// Assertions on tensors leave a marker per side, with the user's line; on
// buffers they are checked now (the same layout: nothing left).
// CHECK-LABEL: tt.func @asserts
// CHECK:       tt.elementwise_inline_asm "" {{.*}}tlx.assert_same_layout = "0 lhs", tlx.layout_marker = "assert", tlx.where = "{{.*}}register-layouts.mlir:{{[0-9]+}}:{{[0-9]+}}"}
// CHECK-NEXT:  tt.elementwise_inline_asm "" {{.*}}tlx.assert_same_layout = "0 rhs", tlx.layout_marker = "assert", tlx.where = "{{.*}}register-layouts.mlir:{{[0-9]+}}:{{[0-9]+}}"}
// CHECK:       tt.elementwise_inline_asm "" {{.*}}tlx.assert_same_layout = "1 lhs", tlx.layout = #{{.*}}, tlx.layout_marker = "assert"
// CHECK-NOT:   tlx.assert_same_layout %
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#l = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @asserts(%x: tensor<16x32xf32, #b>, %y: tensor<16x32xf32, #b>, %i: i32) {
    tlx.assert_same_layout %x, %y : tensor<16x32xf32, #b>, tensor<16x32xf32, #b>
    tlx.assert_same_layout %x {expected = #l} : tensor<16x32xf32, #b>
    %bufs = tlx.local_alloc : !tlx.buffers<2, 64x64xf16, smem>
    %a = tlx.local_view %bufs[%i] : !tlx.buffers<2, 64x64xf16, smem>
    tlx.assert_same_layout %a, %a : !tlx.buffer<64x64xf16, smem>, !tlx.buffer<64x64xf16, smem>
    tlx.assert_same_layout %a {expected = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>} : !tlx.buffer<64x64xf16, smem>
    tt.return
  }
}
