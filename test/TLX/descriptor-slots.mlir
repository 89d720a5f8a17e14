// RUN: tlx-opt %s -split-input-file --tlx-raise-carriers | FileCheck %s --check-prefix=RAISE
// RUN: tlx-opt %s -split-input-file --tlx-raise-carriers --tlx-assign-layouts --tlx-lower-to-nvvm --tlx-lower-to-ttg | FileCheck %s

// Carriers of the descriptor-slot ops: a pointer result, pointer operands, a
// descriptor result.
// RAISE-LABEL: tt.func public @slots
// RAISE:       %[[P:.*]] = tlx.allocate_tensor_descriptor {num = 2 : i32} : !tt.ptr<i8>
// RAISE:       %[[S:.*]] = tt.addptr %[[P]], %{{.*}} : !tt.ptr<i8>, i32
// RAISE:       tlx.make_tensor_descriptor %[[S]], %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] {blockShape = array<i32: 64, 64>} : !tt.ptr<i8>, !tt.ptr<f16>
// RAISE:       tlx.reinterpret_tensor_descriptor %[[S]] : !tt.ptr<i8> to !tt.tensordesc<tensor<64x64xf16>>
// RAISE-NOT:   tt.call

// The slot is global scratch of 2 x 128 bytes; the descriptor written into it
// swizzles like the buffer the descriptor read back from it fills (128 bytes,
// mode 3), its box 64 x 64 innermost first, its strides in bytes.
// CHECK-DAG:   #[[NV:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-LABEL: tt.func public @slots
// CHECK-SAME:    (%[[A:.*]]: !tt.ptr<f16>, %[[M:.*]]: i32, %[[K:.*]]: i32)
// CHECK:       %[[P:.*]] = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 256 : i32} : !tt.ptr<i8>
// CHECK:       %[[S:.*]] = tt.addptr %[[P]], %{{.*}} : !tt.ptr<i8>, i32
// CHECK:       %[[K64:.*]] = arith.extsi %[[K]] : i32 to i64
// CHECK:       %[[C2:.*]] = arith.constant 2 : i64
// CHECK-NEXT:  %[[STRIDE:.*]] = arith.muli %[[K64]], %[[C2]] : i64
// CHECK:       ttng.tensormap_create %[[S]], %[[A]], [%c64_i32{{.*}}, %c64_i32{{.*}}], [%[[K]], %[[M]]], [%[[STRIDE]]], [%c1_i32, %c1_i32] {elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32, i32, i64, i32, i32) -> ()
// CHECK-NEXT:  ttng.tensormap_fenceproxy_acquire %[[S]] : !tt.ptr<i8>
// CHECK:       %[[D:.*]] = ttng.reinterpret_tensor_descriptor %[[S]] : !tt.ptr<i8> to !tt.tensordesc<tensor<64x64xf16, #[[NV]]>>
// CHECK:       ttng.async_tma_copy_global_to_local %[[D]][{{.*}}] %{{.*}}, %{{.*}}, %{{.*}} : !tt.tensordesc<tensor<64x64xf16, #[[NV]]>>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func public @slots(%a: !tt.ptr<f16>, %m: i32, %k: i32) {
    %c0 = arith.constant 0 : i32
    %c128 = arith.constant 128 : i32
    %c1 = arith.constant 1 : i64
    %p = tt.call @tlx.allocate_tensor_descriptor.r_pi8() {tlx.op = "allocate_tensor_descriptor", tlx.num = 2 : i32} : () -> !tt.ptr<i8>
    %s = tt.addptr %p, %c128 : !tt.ptr<i8>, i32
    %k64 = arith.extsi %k : i32 to i64
    tt.call @tlx.make_tensor_descriptor.a_pi8pf16i32i32i64i64(%s, %a, %m, %k, %k64, %c1) {tlx.op = "make_tensor_descriptor", tlx.blockShape = dense<64> : tensor<2xi32>, tlx.padding = 1 : i32, tlx.operand_segments = dense<[1, 1, 2, 2]> : tensor<4xi32>} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i64, i64) -> ()
    %d = tt.call @tlx.reinterpret_tensor_descriptor.a_pi8_r_d64x64xf16(%s) {tlx.op = "reinterpret_tensor_descriptor"} : (!tt.ptr<i8>) -> !tt.tensordesc<tensor<64x64xf16>>
    %bufs = tt.call @tlx.local_alloc.r_i64() {tlx.op = "local_alloc", tlx.operand_segments = dense<0> : tensor<1xi32>, tlx.type = "!tlx.buffers<1, 64x64xf16, smem>"} : () -> i64
    %buf = tt.call @tlx.local_view.a_i64i32_r_i64(%bufs, %c0) {tlx.op = "local_view", tlx.type = "!tlx.buffer<64x64xf16, smem>"} : (i64, i32) -> i64
    %bars = tt.call @tlx.alloc_barriers.r_i64() {tlx.op = "alloc_barriers", tlx.arrive_count = 1 : i32, tlx.type = "!tlx.mbarriers<1>"} : () -> i64
    %bar = tt.call @tlx.local_view.a_i64i32_r_i64(%bars, %c0) {tlx.op = "local_view", tlx.type = "!tlx.mbarrier"} : (i64, i32) -> i64
    tt.call @tlx.async_descriptor_load.a_d64x64xf16i32i32i64i64(%d, %c0, %c0, %buf, %bar) {tlx.op = "async_descriptor_load", tlx.cache = 1 : i32, tlx.evict = 1 : i32, tlx.operand_segments = dense<[1, 2, 1, 1, 0, 0]> : tensor<6xi32>} : (!tt.tensordesc<tensor<64x64xf16>>, i32, i32, i64, i64) -> ()
    tt.return
  }
  tt.func private @tlx.allocate_tensor_descriptor.r_pi8() -> !tt.ptr<i8> attributes {noinline = true} {
    %0 = tt.elementwise_inline_asm "// tlx carrier" {constraints = "=l", packed_element = 1 : i32, pure = false} -> !tt.ptr<i8>
    tt.return %0 : !tt.ptr<i8>
  }
  tt.func private @tlx.make_tensor_descriptor.a_pi8pf16i32i32i64i64(%arg0: !tt.ptr<i8>, %arg1: !tt.ptr<f16>, %arg2: i32, %arg3: i32, %arg4: i64, %arg5: i64) attributes {noinline = true} {
    tt.return
  }
  tt.func private @tlx.reinterpret_tensor_descriptor.a_pi8_r_d64x64xf16(%arg0: !tt.ptr<i8>) -> !tt.tensordesc<tensor<64x64xf16>> attributes {noinline = true} {
    %0 = tt.elementwise_inline_asm "// tlx carrier" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
    %1 = tt.int_to_ptr %0 : i64 -> !tt.ptr<f16>
    %c1_i32 = arith.constant 1 : i32
    %c1_i64 = arith.constant 1 : i64
    %2 = tt.make_tensor_descriptor %1, [%c1_i32, %c1_i32], [%c1_i64, %c1_i64] : <f16>, <tensor<64x64xf16>>
    tt.return %2 : !tt.tensordesc<tensor<64x64xf16>>
  }
  tt.func private @tlx.local_alloc.r_i64() -> i64 attributes {noinline = true} {
    %0 = tt.elementwise_inline_asm "// tlx carrier" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
    tt.return %0 : i64
  }
  tt.func private @tlx.local_view.a_i64i32_r_i64(%arg0: i64, %arg1: i32) -> i64 attributes {noinline = true} {
    %0 = tt.elementwise_inline_asm "// tlx carrier" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
    tt.return %0 : i64
  }
  tt.func private @tlx.alloc_barriers.r_i64() -> i64 attributes {noinline = true} {
    %0 = tt.elementwise_inline_asm "// tlx carrier" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
    tt.return %0 : i64
  }
  tt.func private @tlx.async_descriptor_load.a_d64x64xf16i32i32i64i64(%arg0: !tt.tensordesc<tensor<64x64xf16>>, %arg1: i32, %arg2: i32, %arg3: i64, %arg4: i64) attributes {noinline = true} {
    tt.return
  }
}

// -----

// Without a copy that says otherwise, a descriptor in a slot takes the
// default layout of a buffer of its block: 1-D unswizzled (mode 0, box = the
// block); the reads of one allocation's slots with one block share it.
// CHECK-DAG:   #[[SW:.*]] = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// The function returns the descriptor and nothing calls it: its type says
// the layout too (a called one is an error: descriptor-slots-invalid.mlir).
// CHECK-LABEL: tt.func @one_d
// CHECK-SAME:  -> !tt.tensordesc<tensor<64xi16, #[[SW]]>>
// CHECK:       ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 128 : i32} : !tt.ptr<i8>
// CHECK:       ttng.tensormap_create %{{.*}}, %{{.*}}, [%c64_i32], [%{{.*}}], [], [%c1_i32] {elem_type = 1 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 0 : i32} : (!tt.ptr<i8>, !tt.ptr<i16>, i32, i32, i32) -> ()
// CHECK:       ttng.reinterpret_tensor_descriptor %{{.*}} : !tt.ptr<i8> to !tt.tensordesc<tensor<64xi16, #[[SW]]>>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @one_d(%x: !tt.ptr<i16>, %n: i32, %one: i64) -> !tt.tensordesc<tensor<64xi16>> {
    %p = tlx.allocate_tensor_descriptor {num = 1 : i32} : !tt.ptr<i8>
    tlx.make_tensor_descriptor %p, %x, [%n], [%one] {blockShape = array<i32: 64>} : !tt.ptr<i8>, !tt.ptr<i16>
    %d = tlx.reinterpret_tensor_descriptor %p : !tt.ptr<i8> to !tt.tensordesc<tensor<64xi16>>
    tt.return %d : !tt.tensordesc<tensor<64xi16>>
  }
}

// -----

// A descriptor read with a buffer of a narrower swizzle (a user layout)
// gives the slot's descriptor that swizzle: 64 bytes, mode 2, boxes of 32
// f16 along the rows; NaN padding fills with mode 1.
// CHECK-LABEL: tt.func @user_layout
// CHECK:       %[[C32:.*]] = arith.constant 32 : i32
// CHECK:       ttng.tensormap_create {{.*}}, [%[[C32]], %{{.*}}], {{.*}} {elem_type = 6 : i32, fill_mode = 1 : i32, interleave_layout = 0 : i32, swizzle_mode = 2 : i32}
#nv64 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @user_layout(%x: !tt.ptr<f16>, %n: i32, %one: i64, %i: i32) {
    %p = tlx.allocate_tensor_descriptor {num = 4 : i32} : !tt.ptr<i8>
    %c384 = arith.constant 384 : i32
    %s = tt.addptr %p, %c384 : !tt.ptr<i8>, i32
    tlx.make_tensor_descriptor %s, %x, [%n, %n], [%one, %one] {blockShape = array<i32: 64, 64>, padding = 2 : i32} : !tt.ptr<i8>, !tt.ptr<f16>
    %d = tlx.reinterpret_tensor_descriptor %s : !tt.ptr<i8> to !tt.tensordesc<tensor<64x64xf16>>
    %bufs = tlx.local_alloc {layout = #nv64} : !tlx.buffers<1, 64x64xf16, smem>
    %b = tlx.local_view %bufs[%i] : !tlx.buffers<1, 64x64xf16, smem>
    %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
    %bar = tlx.local_view %bars[%i] : !tlx.mbarriers<1>
    tlx.async_descriptor_load %d[%i, %i], %b, %bar : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
    tt.return
  }
}
