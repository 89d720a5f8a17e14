// Buffer views: raised from their carriers, verified, lowered to memdesc views.
// RUN: tlx-opt %s -split-input-file --tlx-raise-carriers | FileCheck %s --check-prefix=RAISE
// RUN: tlx-opt %s -split-input-file --tlx-raise-carriers --tlx-assign-layouts --tlx-lower-to-ttg | FileCheck %s --check-prefix=LOWER

// LOWER-DAG: #[[NV:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// LOWER-DAG: #[[NVT:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
// LOWER-DAG: #[[NV32:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
// RAISE-LABEL: tt.func @views
// LOWER-LABEL: tt.func @views
tt.func @views(%i: i32) {
  %h = tt.call @tlx.local_alloc.r_i64() {tlx.op = "local_alloc", tlx.operand_segments = dense<0> : tensor<1xi32>, tlx.type = "!tlx.buffers<2, 64x128xf16, smem>"} : () -> i64
  %v = tt.call @tlx.local_view.a_i64i32_r_i64(%h, %i) {tlx.op = "local_view", tlx.type = "!tlx.buffer<64x128xf16, smem>"} : (i64, i32) -> i64
  // RAISE: %[[T:.*]] = tlx.local_trans %{{.*}}, [1, 0] : !tlx.buffer<64x128xf16, smem> -> !tlx.buffer<128x64xf16, smem>
  // LOWER: ttg.memdesc_trans %{{.*}} {order = array<i32: 1, 0>} : !ttg.memdesc<64x128xf16, #[[NV]], #smem, mutable> -> !ttg.memdesc<128x64xf16, #[[NVT]], #smem, mutable>
  %t = tt.call @tlx.local_trans.a_i64_r_i64(%v) {tlx.op = "local_trans", tlx.order = dense<[1, 0]> : tensor<2xi32>, tlx.type = "!tlx.buffer<128x64xf16, smem>"} : (i64) -> i64
  // RAISE: tlx.local_slice %{{.*}}, [0, 64] : !tlx.buffer<64x128xf16, smem> -> !tlx.buffer<64x64xf16, smem>
  // LOWER: ttg.memdesc_subslice %{{.*}}[0, 64] : !ttg.memdesc<64x128xf16, #[[NV]], #smem, mutable> -> !ttg.memdesc<64x64xf16, #[[NV]], #smem, mutable, 64x128>
  %s = tt.call @tlx.local_slice.a_i64_r_i64(%v) {tlx.op = "local_slice", tlx.offsets = dense<[0, 64]> : tensor<2xi32>, tlx.type = "!tlx.buffer<64x64xf16, smem>"} : (i64) -> i64
  // RAISE: tlx.local_reinterpret %{{.*}} : !tlx.buffer<64x128xf16, smem> -> !tlx.buffer<64x64xf32, smem>
  // LOWER: ttg.memdesc_reinterpret %{{.*}} : !ttg.memdesc<64x128xf16, #[[NV]], #smem, mutable> -> !ttg.memdesc<64x64xf32, #[[NV32]], #smem, mutable>
  %r = tt.call @tlx.local_reinterpret.a_i64_r_i64(%v) {tlx.op = "local_reinterpret", tlx.type = "!tlx.buffer<64x64xf32, smem>"} : (i64) -> i64
  %z = tt.splat %t : i64 -> tensor<128x64xi64>
  %x = tt.elementwise_inline_asm "tlx.local_load" {constraints = "=r,l", packed_element = 1 : i32, pure = false, tlx.op = "local_load"} %z : tensor<128x64xi64> -> tensor<128x64xf16>
  tt.return
}
tt.func private @tlx.local_alloc.r_i64() -> i64 attributes {noinline = true} {
  %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
  tt.return %0 : i64
}
tt.func private @tlx.local_view.a_i64i32_r_i64(%h: i64, %i: i32) -> i64 attributes {noinline = true} {
  %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
  tt.return %0 : i64
}
tt.func private @tlx.local_trans.a_i64_r_i64(%h: i64) -> i64 attributes {noinline = true} {
  %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
  tt.return %0 : i64
}
tt.func private @tlx.local_slice.a_i64_r_i64(%h: i64) -> i64 attributes {noinline = true} {
  %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
  tt.return %0 : i64
}
tt.func private @tlx.local_reinterpret.a_i64_r_i64(%h: i64) -> i64 attributes {noinline = true} {
  %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
  tt.return %0 : i64
}
