// Every construct below prints exactly as stock Triton 3.6 prints it: the CHECK
// lines are stock libtriton's own print of each input (our definitions must
// reproduce its syntax, not merely parse it). Also through the generic form.
// RUN: tlx-opt %s -split-input-file --mlir-use-nameloc-as-prefix | FileCheck %s
// RUN: tlx-opt %s -split-input-file --mlir-print-op-generic | tlx-opt -split-input-file --mlir-use-nameloc-as-prefix | FileCheck %s

module {
  tt.func public @kern(%p: !tt.ptr<f32> {tt.divisibility = 16 : i32, tt.pointer_range = 32 : i32}, %n: i32 {tt.divisibility = 16 : i32}, %q: !tt.ptr<i32>) attributes {noinline = false} {
    %pid = tt.get_program_id x : i32
    %pid2 = tt.get_program_id z : i32
    %np = tt.get_num_programs y : i32
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
    %s = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
    %a = tt.addptr %s, %r : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
    %m = arith.cmpi slt, %r, %r : tensor<128xi32>
    %o = arith.constant dense<0.0> : tensor<128xf32>
    %l0 = tt.load %a : tensor<128x!tt.ptr<f32>>
    %l1 = tt.load %a, %m : tensor<128x!tt.ptr<f32>>
    %l2 = tt.load %a, %m, %o cacheModifier = ca evictionPolicy = evict_last {isVolatile = true} : tensor<128x!tt.ptr<f32>>
    %l3 = tt.load %a evictionPolicy = evict_first cacheModifier = cg : tensor<128x!tt.ptr<f32>>
    tt.store %a, %l0 : tensor<128x!tt.ptr<f32>>
    tt.store %a, %l0, %m cacheModifier = wb evictionPolicy = evict_first : tensor<128x!tt.ptr<f32>>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i64
    %tp = tt.make_tensor_ptr %p, [%c1, %c1], [%c1, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : <tensor<64x64xf32>>
    %tp2 = tt.advance %tp, [%c0, %c0] : <tensor<64x64xf32>>
    %bl = tt.load %tp2 {boundaryCheck = array<i32: 0, 1>, padding = 2 : i32} : !tt.ptr<tensor<64x64xf32>>
    tt.store %tp2, %bl {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<64x64xf32>>
    %e = tt.expand_dims %r {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
    %b = tt.broadcast %e : tensor<1x128xi32> -> tensor<64x128xi32>
    %rs = tt.reshape %b : tensor<64x128xi32> -> tensor<128x64xi32>
    %rs2 = tt.reshape %b allow_reorder efficient_layout : tensor<64x128xi32> -> tensor<8192xi32>
    %t = tt.trans %b {order = array<i32: 1, 0>} : tensor<64x128xi32> -> tensor<128x64xi32>
    %ct = tt.cat %r, %r : tensor<128xi32> -> tensor<256xi32>
    %j = tt.join %r, %r : tensor<128xi32> -> tensor<128x2xi32>
    %sp:2 = tt.split %j : tensor<128x2xi32> -> tensor<128xi32>
    %h = tt.histogram %r : tensor<128xi32> -> tensor<16xi32>
    %h2 = tt.histogram %r, %m : tensor<128xi32> -> tensor<16xi32>
    %g = tt.gather %b[%b] {axis = 0 : i32} : (tensor<64x128xi32>, tensor<64x128xi32>) -> tensor<64x128xi32>
    %one = tt.make_range {end = 1 : i32, start = 0 : i32} : tensor<1xi32>
    %us = tt.unsplat %one : tensor<1xi32>
    tt.return
  }
}

// CHECK: module {
// CHECK-NEXT:   tt.func public @kern(%arg0: !tt.ptr<f32> {tt.divisibility = 16 : i32, tt.pointer_range = 32 : i32}, %arg1: i32 {tt.divisibility = 16 : i32}, %arg2: !tt.ptr<i32>) attributes {noinline = false} {
// CHECK-NEXT:     %0 = tt.get_program_id x : i32
// CHECK-NEXT:     %1 = tt.get_program_id z : i32
// CHECK-NEXT:     %2 = tt.get_num_programs y : i32
// CHECK-NEXT:     %3 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
// CHECK-NEXT:     %4 = tt.splat %arg0 : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>>
// CHECK-NEXT:     %5 = tt.addptr %4, %3 : tensor<128x!tt.ptr<f32>>, tensor<128xi32>
// CHECK-NEXT:     %6 = arith.cmpi slt, %3, %3 : tensor<128xi32>
// CHECK-NEXT:     %cst = arith.constant dense<0.000000e+00> : tensor<128xf32>
// CHECK-NEXT:     %7 = tt.load %5 : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT:     %8 = tt.load %5, %6 : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT:     %9 = tt.load %5, %6, %cst cacheModifier = ca evictionPolicy = evict_last {isVolatile = true} : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT:     %10 = tt.load %5 cacheModifier = cg evictionPolicy = evict_first : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT:     tt.store %5, %7 : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT:     tt.store %5, %7, %6 cacheModifier = wb evictionPolicy = evict_first : tensor<128x!tt.ptr<f32>>
// CHECK-NEXT:     %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:     %c1_i64 = arith.constant 1 : i64
// CHECK-NEXT:     %11 = tt.make_tensor_ptr %arg0, [%c1_i64, %c1_i64], [%c1_i64, %c1_i64], [%c0_i32, %c0_i32] {order = array<i32: 1, 0>} : <tensor<64x64xf32>>
// CHECK-NEXT:     %12 = tt.advance %11, [%c0_i32, %c0_i32] : <tensor<64x64xf32>>
// CHECK-NEXT:     %13 = tt.load %12 {boundaryCheck = array<i32: 0, 1>, padding = 2 : i32} : !tt.ptr<tensor<64x64xf32>>
// CHECK-NEXT:     tt.store %12, %13 {boundaryCheck = array<i32: 0>} : !tt.ptr<tensor<64x64xf32>>
// CHECK-NEXT:     %14 = tt.expand_dims %3 {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
// CHECK-NEXT:     %15 = tt.broadcast %14 : tensor<1x128xi32> -> tensor<64x128xi32>
// CHECK-NEXT:     %16 = tt.reshape %15 : tensor<64x128xi32> -> tensor<128x64xi32>
// CHECK-NEXT:     %17 = tt.reshape %15 allow_reorder efficient_layout : tensor<64x128xi32> -> tensor<8192xi32>
// CHECK-NEXT:     %18 = tt.trans %15 {order = array<i32: 1, 0>} : tensor<64x128xi32> -> tensor<128x64xi32>
// CHECK-NEXT:     %19 = tt.cat %3, %3 : tensor<128xi32> -> tensor<256xi32>
// CHECK-NEXT:     %20 = tt.join %3, %3 : tensor<128xi32> -> tensor<128x2xi32>
// CHECK-NEXT:     %outLHS, %outRHS = tt.split %20 : tensor<128x2xi32> -> tensor<128xi32>
// CHECK-NEXT:     %21 = tt.histogram %3 : tensor<128xi32> -> tensor<16xi32>
// CHECK-NEXT:     %22 = tt.histogram %3, %6 : tensor<128xi32> -> tensor<16xi32>
// CHECK-NEXT:     %23 = tt.gather %15[%15] {axis = 0 : i32} : (tensor<64x128xi32>, tensor<64x128xi32>) -> tensor<64x128xi32>
// CHECK-NEXT:     %24 = tt.make_range {end = 1 : i32, start = 0 : i32} : tensor<1xi32>
// CHECK-NEXT:     %25 = tt.unsplat %24 : tensor<1xi32>
// CHECK-NEXT:     tt.return
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

module {
  tt.func private @callee(%x: i32) -> i32 {
    tt.return %x : i32
  }
  tt.func private @decl(i32, f32) -> (i32 {tt.foo = 1 : i32})
  tt.func public @kern(%p: !tt.ptr<f32>, %pi: !tt.ptr<i32>, %x: f32, %i: i32) {
    %cr = tt.call @callee(%i) : (i32) -> i32
    %a = arith.constant dense<1.0> : tensor<32x32xf16>
    %b = arith.constant dense<1.0> : tensor<32x32xf16>
    %c = arith.constant dense<0.0> : tensor<32x32xf32>
    %d0 = tt.dot %a, %b, %c : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
    %fa = arith.constant dense<1.0> : tensor<32x32xf32>
    %d1 = tt.dot %fa, %fa, %c, inputPrecision = tf32 : tensor<32x32xf32> * tensor<32x32xf32> -> tensor<32x32xf32>
    %d2 = tt.dot %fa, %fa, %c, inputPrecision = ieee {maxNumImpreciseAcc = 4 : i32} : tensor<32x32xf32> * tensor<32x32xf32> -> tensor<32x32xf32>
    %d3 = tt.dot %fa, %fa, %c, inputPrecision = bf16x3 : tensor<32x32xf32> * tensor<32x32xf32> -> tensor<32x32xf32>
    %a8 = arith.constant dense<1> : tensor<32x16xi8>
    %b8 = arith.constant dense<1> : tensor<16x32xi8>
    %sa = arith.constant dense<1> : tensor<32x1xi8>
    %sb = arith.constant dense<1> : tensor<32x1xi8>
    %ds = tt.dot_scaled %a8 scale %sa, %b8 scale %sb, %c lhs = e2m1 rhs = e2m1 {fastMath = false} : tensor<32x16xi8>, tensor<32x1xi8> * tensor<16x32xi8>, tensor<32x1xi8> -> tensor<32x32xf32>
    %ds2 = tt.dot_scaled %a scale %sa, %b, %c lhs = e4m3 rhs = bf16 {fastMath = true, lhs_k_pack = false} : tensor<32x32xf16>, tensor<32x1xi8> * tensor<32x32xf16> -> tensor<32x32xf32>
    %r = "tt.reduce"(%c) ({
    ^bb0(%l: f32, %rr: f32):
      %s = arith.addf %l, %rr : f32
      tt.reduce.return %s : f32
    }) {axis = 0 : i32} : (tensor<32x32xf32>) -> tensor<32xf32>
    %r2:2 = "tt.reduce"(%c, %c) <{axis = 1 : i32}> ({
    ^bb0(%l: f32, %l2: f32, %rr: f32, %rr2: f32):
      tt.reduce.return %l, %rr2 : f32, f32
    }) : (tensor<32x32xf32>, tensor<32x32xf32>) -> (tensor<32xf32>, tensor<32xf32>)
    %sc = "tt.scan"(%c) <{axis = 0 : i32, reverse = false}> ({
    ^bb0(%l: f32, %rr: f32):
      %s = arith.addf %l, %rr : f32
      tt.scan.return %s : f32
    }) : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %me = "tt.map_elementwise"(%c, %c) <{pack = 1 : i32}> ({
    ^bb0(%l: f32, %rr: f32):
      %s = arith.addf %l, %rr : f32
      tt.map_elementwise.return %s : f32
    }) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
    %ar = tt.atomic_rmw fadd, acq_rel, gpu, %p, %x : (!tt.ptr<f32>, f32) -> f32
    %true = arith.constant true
    %ar2 = tt.atomic_rmw exch, relaxed, sys, %pi, %i, %true : (!tt.ptr<i32>, i32, i1) -> i32
    %ac = tt.atomic_cas acquire, cta, %pi, %i, %i : (!tt.ptr<i32>, i32, i32) -> i32
    %f8 = tt.fp_to_fp %x, rounding = rtne : f32 -> f8E5M2
    %f16 = tt.fp_to_fp %f8 : f8E5M2 -> f16
    %bc = tt.bitcast %x : f32 -> i32
    %pi2 = tt.ptr_to_int %p : !tt.ptr<f32> -> i64
    %ip = tt.int_to_ptr %pi2 : i64 -> !tt.ptr<f32>
    %ps = tt.precise_sqrt %x : f32
    %pd = tt.precise_divf %x, %x : f32
    %mh = tt.mulhiui %i, %i : i32
    %cl = tt.clampf %x, %x, %x, propagateNan = all : f32
    %cl2 = tt.clampf %x, %x, %x, propagateNan = none : f32
    %ee = tt.extern_elementwise %x, %x {libname = "", libpath = "", pure = true, symbol = "__nv_powf"} : (f32, f32) -> f32
    %ia = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %i : i32 -> i32
    %ia2:2 = tt.elementwise_inline_asm "asm" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %i : i32 -> i32, i32
    tt.print " x: " {hex = false, isSigned = array<i32: 1, 0>} : %i, %x : i32, f32
    tt.print "hello" {hex = true, isSigned = array<i32>}
    tt.assert %true, "msg" : i1
    %ct = arith.constant dense<true> : tensor<32xi1>
    tt.assert %ct, "msg2" : tensor<32xi1>
    %c64 = arith.constant 64 : i32
    %c1 = arith.constant 1 : i64
    %desc = tt.make_tensor_descriptor %p, [%c64, %c64], [%c1, %c1] : !tt.ptr<f32>, !tt.tensordesc<tensor<32x32xf32>>
    %desc2 = tt.make_tensor_descriptor %p, [%c64, %c64], [%c1, %c1] {padding = 2 : i32} : !tt.ptr<f32>, !tt.tensordesc<tensor<32x32xf32>>
    %dl = tt.descriptor_load %desc[%i, %i] : !tt.tensordesc<tensor<32x32xf32>> -> tensor<32x32xf32>
    %dl2 = tt.descriptor_load %desc[%i, %i] cacheModifier = cg evictionPolicy = evict_first : !tt.tensordesc<tensor<32x32xf32>> -> tensor<32x32xf32>
    tt.descriptor_store %desc[%i, %i], %dl : !tt.tensordesc<tensor<32x32xf32>>, tensor<32x32xf32>
    tt.descriptor_reduce add, %desc[%i, %i], %dl : !tt.tensordesc<tensor<32x32xf32>>, tensor<32x32xf32>
    tt.return
  }
}

// CHECK: module {
// CHECK-NEXT:   tt.func private @callee(%arg0: i32) -> i32 {
// CHECK-NEXT:     tt.return %arg0 : i32
// CHECK-NEXT:   }
// CHECK-NEXT:   tt.func private @decl(i32, f32) -> (i32 {tt.foo = 1 : i32})
// CHECK-NEXT:   tt.func public @kern(%arg0: !tt.ptr<f32>, %arg1: !tt.ptr<i32>, %arg2: f32, %arg3: i32) {
// CHECK-NEXT:     %0 = tt.call @callee(%arg3) : (i32) -> i32
// CHECK-NEXT:     %cst = arith.constant dense<1.000000e+00> : tensor<32x32xf16>
// CHECK-NEXT:     %cst_0 = arith.constant dense<1.000000e+00> : tensor<32x32xf16>
// CHECK-NEXT:     %cst_1 = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
// CHECK-NEXT:     %1 = tt.dot %cst, %cst_0, %cst_1 : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
// CHECK-NEXT:     %cst_2 = arith.constant dense<1.000000e+00> : tensor<32x32xf32>
// CHECK-NEXT:     %2 = tt.dot %cst_2, %cst_2, %cst_1, inputPrecision = tf32 : tensor<32x32xf32> * tensor<32x32xf32> -> tensor<32x32xf32>
// CHECK-NEXT:     %3 = tt.dot %cst_2, %cst_2, %cst_1 {maxNumImpreciseAcc = 4 : i32} : tensor<32x32xf32> * tensor<32x32xf32> -> tensor<32x32xf32>
// CHECK-NEXT:     %4 = tt.dot %cst_2, %cst_2, %cst_1, inputPrecision = bf16x3 : tensor<32x32xf32> * tensor<32x32xf32> -> tensor<32x32xf32>
// CHECK-NEXT:     %cst_3 = arith.constant dense<1> : tensor<32x16xi8>
// CHECK-NEXT:     %cst_4 = arith.constant dense<1> : tensor<16x32xi8>
// CHECK-NEXT:     %cst_5 = arith.constant dense<1> : tensor<32x1xi8>
// CHECK-NEXT:     %cst_6 = arith.constant dense<1> : tensor<32x1xi8>
// CHECK-NEXT:     %5 = tt.dot_scaled %cst_3 scale %cst_5, %cst_4 scale %cst_6, %cst_1 lhs = e2m1 rhs = e2m1 {fastMath = false} : tensor<32x16xi8>, tensor<32x1xi8> * tensor<16x32xi8>, tensor<32x1xi8> -> tensor<32x32xf32>
// CHECK-NEXT:     %6 = tt.dot_scaled %cst scale %cst_5, %cst_0, %cst_1 lhs = e4m3 rhs = bf16 {fastMath = true, lhs_k_pack = false} : tensor<32x32xf16>, tensor<32x1xi8> * tensor<32x32xf16> -> tensor<32x32xf32>
// CHECK-NEXT:     %7 = "tt.reduce"(%cst_1) <{axis = 0 : i32}> ({
// CHECK-NEXT:     ^bb0(%arg4: f32, %arg5: f32):
// CHECK-NEXT:       %31 = arith.addf %arg4, %arg5 : f32
// CHECK-NEXT:       tt.reduce.return %31 : f32
// CHECK-NEXT:     }) : (tensor<32x32xf32>) -> tensor<32xf32>
// CHECK-NEXT:     %8:2 = "tt.reduce"(%cst_1, %cst_1) <{axis = 1 : i32}> ({
// CHECK-NEXT:     ^bb0(%arg4: f32, %arg5: f32, %arg6: f32, %arg7: f32):
// CHECK-NEXT:       tt.reduce.return %arg4, %arg7 : f32, f32
// CHECK-NEXT:     }) : (tensor<32x32xf32>, tensor<32x32xf32>) -> (tensor<32xf32>, tensor<32xf32>)
// CHECK-NEXT:     %9 = "tt.scan"(%cst_1) <{axis = 0 : i32, reverse = false}> ({
// CHECK-NEXT:     ^bb0(%arg4: f32, %arg5: f32):
// CHECK-NEXT:       %31 = arith.addf %arg4, %arg5 : f32
// CHECK-NEXT:       tt.scan.return %31 : f32
// CHECK-NEXT:     }) : (tensor<32x32xf32>) -> tensor<32x32xf32>
// CHECK-NEXT:     %10 = "tt.map_elementwise"(%cst_1, %cst_1) <{pack = 1 : i32}> ({
// CHECK-NEXT:     ^bb0(%arg4: f32, %arg5: f32):
// CHECK-NEXT:       %31 = arith.addf %arg4, %arg5 : f32
// CHECK-NEXT:       tt.map_elementwise.return %31 : f32
// CHECK-NEXT:     }) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
// CHECK-NEXT:     %11 = tt.atomic_rmw fadd, acq_rel, gpu, %arg0, %arg2 : (!tt.ptr<f32>, f32) -> f32
// CHECK-NEXT:     %true = arith.constant true
// CHECK-NEXT:     %12 = tt.atomic_rmw exch, relaxed, sys, %arg1, %arg3, %true : (!tt.ptr<i32>, i32, i1) -> i32
// CHECK-NEXT:     %13 = tt.atomic_cas acquire, cta, %arg1, %arg3, %arg3 : (!tt.ptr<i32>, i32, i32) -> i32
// CHECK-NEXT:     %14 = tt.fp_to_fp %arg2, rounding = rtne : f32 -> f8E5M2
// CHECK-NEXT:     %15 = tt.fp_to_fp %14 : f8E5M2 -> f16
// CHECK-NEXT:     %16 = tt.bitcast %arg2 : f32 -> i32
// CHECK-NEXT:     %17 = tt.ptr_to_int %arg0 : !tt.ptr<f32> -> i64
// CHECK-NEXT:     %18 = tt.int_to_ptr %17 : i64 -> !tt.ptr<f32>
// CHECK-NEXT:     %19 = tt.precise_sqrt %arg2 : f32
// CHECK-NEXT:     %20 = tt.precise_divf %arg2, %arg2 : f32
// CHECK-NEXT:     %21 = tt.mulhiui %arg3, %arg3 : i32
// CHECK-NEXT:     %22 = tt.clampf %arg2, %arg2, %arg2, propagateNan = all : f32
// CHECK-NEXT:     %23 = tt.clampf %arg2, %arg2, %arg2, propagateNan = none : f32
// CHECK-NEXT:     %24 = tt.extern_elementwise %arg2, %arg2 {libname = "", libpath = "", pure = true, symbol = "__nv_powf"} : (f32, f32) -> f32
// CHECK-NEXT:     %25 = tt.elementwise_inline_asm "mov.b32 $0, $1;" {constraints = "=r,r", packed_element = 1 : i32, pure = true} %arg3 : i32 -> i32
// CHECK-NEXT:     %26:2 = tt.elementwise_inline_asm "asm" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %arg3 : i32 -> i32, i32
// CHECK-NEXT:     tt.print " x: " {hex = false, isSigned = array<i32: 1, 0>} : %arg3, %arg2 : i32, f32
// CHECK-NEXT:     tt.print "hello" {hex = true, isSigned = array<i32>}
// CHECK-NEXT:     tt.assert %true, "msg" : i1
// CHECK-NEXT:     %cst_7 = arith.constant dense<true> : tensor<32xi1>
// CHECK-NEXT:     tt.assert %cst_7, "msg2" : tensor<32xi1>
// CHECK-NEXT:     %c64_i32 = arith.constant 64 : i32
// CHECK-NEXT:     %c1_i64 = arith.constant 1 : i64
// CHECK-NEXT:     %27 = tt.make_tensor_descriptor %arg0, [%c64_i32, %c64_i32], [%c1_i64, %c1_i64] : <f32>, <tensor<32x32xf32>>
// CHECK-NEXT:     %28 = tt.make_tensor_descriptor %arg0, [%c64_i32, %c64_i32], [%c1_i64, %c1_i64] {padding = 2 : i32} : <f32>, <tensor<32x32xf32>>
// CHECK-NEXT:     %29 = tt.descriptor_load %27[%arg3, %arg3] : !tt.tensordesc<tensor<32x32xf32>> -> tensor<32x32xf32>
// CHECK-NEXT:     %30 = tt.descriptor_load %27[%arg3, %arg3] cacheModifier = cg evictionPolicy = evict_first : !tt.tensordesc<tensor<32x32xf32>> -> tensor<32x32xf32>
// CHECK-NEXT:     tt.descriptor_store %27[%arg3, %arg3], %29 : !tt.tensordesc<tensor<32x32xf32>>, tensor<32x32xf32>
// CHECK-NEXT:     tt.descriptor_reduce add, %27[%arg3, %arg3], %29 : !tt.tensordesc<tensor<32x32xf32>>, tensor<32x32xf32>
// CHECK-NEXT:     tt.return
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @k(%d: !tt.tensordesc<tensor<1x64xf16, #nv>>, %i: i32) {
    %x = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #b1>
    %g = tt.descriptor_gather %d[%x, %i] : (!tt.tensordesc<tensor<1x64xf16, #nv>>, tensor<32xi32, #b1>, i32) -> tensor<32x64xf16, #b2>
    tt.descriptor_scatter %d[%x, %i], %g : !tt.tensordesc<tensor<1x64xf16, #nv>>, tensor<32xi32, #b1>, i32, tensor<32x64xf16, #b2>
    %t1 = ttg.async_commit_group
    %t2 = ttg.async_commit_group
    %w = ttg.async_wait %t1, %t2 {num = 2 : i32}
    tt.return
  }
  tt.func nested @nested_vis() {
    tt.return
  }
  tt.func @noinl() attributes {noinline = true} {
    tt.return
  }
}

// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NEXT: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-NEXT: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-NEXT: module attributes {"ttg.num-warps" = 4 : i32} {
// CHECK-NEXT:   tt.func public @k(%arg0: !tt.tensordesc<tensor<1x64xf16, #shared>>, %arg1: i32) {
// CHECK-NEXT:     %0 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #blocked>
// CHECK-NEXT:     %1 = tt.descriptor_gather %arg0[%0, %arg1] : (!tt.tensordesc<tensor<1x64xf16, #shared>>, tensor<32xi32, #blocked>, i32) -> tensor<32x64xf16, #blocked1>
// CHECK-NEXT:     tt.descriptor_scatter %arg0[%0, %arg1], %1 : !tt.tensordesc<tensor<1x64xf16, #shared>>, tensor<32xi32, #blocked>, i32, tensor<32x64xf16, #blocked1>
// CHECK-NEXT:     %2 = ttg.async_commit_group
// CHECK-NEXT:     %3 = ttg.async_commit_group
// CHECK-NEXT:     %4 = ttg.async_wait %2, %3 {num = 2 : i32}
// CHECK-NEXT:     tt.return
// CHECK-NEXT:   }
// CHECK-NEXT:   tt.func nested @nested_vis() {
// CHECK-NEXT:     tt.return
// CHECK-NEXT:   }
// CHECK-NEXT:   tt.func @noinl() attributes {noinline = true} {
// CHECK-NEXT:     tt.return
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// The mapped function's region may hold a control-flow graph (the frontend lowers
// an `if` there to cf branches); pack = 2 takes two elements of each operand.

#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @mapped(%x: tensor<256xf32, #b>, %y: tensor<256xi32, #b>) -> tensor<256xf32, #b> {
    %m = "tt.map_elementwise"(%x, %y) <{pack = 2 : i32}> ({
    ^bb0(%x0: f32, %x1: f32, %y0: i32, %y1: i32):
      %zero = arith.constant 0 : i32
      %neg = arith.cmpi slt, %y0, %zero : i32
      cf.cond_br %neg, ^bb1, ^bb2(%x0 : f32)
    ^bb1:
      %n = arith.negf %x0 : f32
      cf.br ^bb2(%n : f32)
    ^bb2(%r: f32):
      tt.map_elementwise.return %r, %x1 : f32, f32
    }) : (tensor<256xf32, #b>, tensor<256xi32, #b>) -> tensor<256xf32, #b>
    tt.return %m : tensor<256xf32, #b>
  }
}

// CHECK: #blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NEXT: module attributes {"ttg.num-warps" = 4 : i32} {
// CHECK-NEXT:   tt.func public @mapped(%arg0: tensor<256xf32, #blocked>, %arg1: tensor<256xi32, #blocked>) -> tensor<256xf32, #blocked> {
// CHECK-NEXT:     %0 = "tt.map_elementwise"(%arg0, %arg1) <{pack = 2 : i32}> ({
// CHECK-NEXT:     ^bb0(%arg2: f32, %arg3: f32, %arg4: i32, %arg5: i32):
// CHECK-NEXT:       %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:       %1 = arith.cmpi slt, %arg4, %c0_i32 : i32
// CHECK-NEXT:       cf.cond_br %1, ^bb1, ^bb2(%arg2 : f32)
// CHECK-NEXT:     ^bb1:  // pred: ^bb0
// CHECK-NEXT:       %2 = arith.negf %arg2 : f32
// CHECK-NEXT:       cf.br ^bb2(%2 : f32)
// CHECK-NEXT:     ^bb2(%3: f32):  // 2 preds: ^bb0, ^bb1
// CHECK-NEXT:       tt.map_elementwise.return %3, %arg3 : f32, f32
// CHECK-NEXT:     }) : (tensor<256xf32, #blocked>, tensor<256xi32, #blocked>) -> tensor<256xf32, #blocked>
// CHECK-NEXT:     tt.return %0 : tensor<256xf32, #blocked>
// CHECK-NEXT:   }
// CHECK-NEXT: }
