// Every construct below prints exactly as stock Triton 3.6 prints it: the CHECK
// lines are stock libtriton's own print of each input (our definitions must
// reproduce its syntax, not merely parse it). Also through the generic form.
// RUN: tlx-opt %s -split-input-file --mlir-use-nameloc-as-prefix | FileCheck %s
// RUN: tlx-opt %s -split-input-file --mlir-print-op-generic | tlx-opt -split-input-file --mlir-use-nameloc-as-prefix | FileCheck %s

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#blk1d = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#blk4 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32, "ttg.threads-per-warp" = 32 : i32, "ttg.target" = "cuda:100", ttg.shared = 65536 : i32, "ttg.total-num-warps" = 8 : i32} {
  tt.func public @k(%p: tensor<64x64x!tt.ptr<f16>, #blocked>, %i: i32, %x: tensor<64x64xf16, #blocked>) {
    %cv = ttg.convert_layout %x : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>
    %a0 = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>
    %a1 = ttg.local_alloc %x : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
    %a2 = ttg.local_alloc %x {alignment = 128 : i32} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared1, #smem, mutable>
    %v = ttg.memdesc_index %a0[%i] : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %ss = ttg.memdesc_subslice %v[0, 32] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable, 64x64>
    %tr = ttg.memdesc_trans %a1 {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #shared, #smem> -> !ttg.memdesc<64x64xf16, #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>, #smem>
    %rs = ttg.memdesc_reshape %a2 : !ttg.memdesc<64x64xf16, #shared1, #smem, mutable> -> !ttg.memdesc<64x1x64xf16, #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3}>, #smem, mutable>
    %ri = ttg.memdesc_reinterpret %a2 : !ttg.memdesc<64x64xf16, #shared1, #smem, mutable> -> !ttg.memdesc<32x64xi32, #shared1, #smem, mutable>
    %ld = ttg.local_load %v : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #blocked>
    ttg.local_store %x, %v : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    %tok = ttg.async_copy_global_to_local %p, %v : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
    %m = arith.constant dense<true> : tensor<64x64xi1, #blocked>
    %o = arith.constant dense<0.0> : tensor<64x64xf16, #blocked>
    %tok2 = ttg.async_copy_global_to_local %p, %v mask %m other %o cacheModifier = cg evictionPolicy = evict_last {contiguity = 8 : i32, isVolatile = true} : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
    %cg = ttg.async_commit_group tokens %tok, %tok2
    %cg0 = ttg.async_commit_group
    %w = ttg.async_wait %cg {num = 0 : i32}
    %w0 = ttg.async_wait {num = 1 : i32}
    %ld2 = ttg.local_load %v token %w : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #blocked>
    ttg.local_dealloc %a0 : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>
    ttg.local_barrier
    %gs = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 1024 : i32} : !tt.ptr<i8>
    %c0 = arith.constant 0 : i32
    %c4 = arith.constant 4 : i32
    %ps = ttg.predicate_stage %i, %c4, %c0 maxStage 2 stage 1 : i32 -> i1
    %i8 = arith.constant dense<0> : tensor<64x32xi8, #blk4>
    %up = ttg.fp4_to_fp %i8 {axis = 1 : i32} : tensor<64x32xi8, #blk4> -> tensor<64x64xbf16, #blocked>
    %mk = "ttg.mask"(%ps) ({
      %z = arith.addi %i, %i : i32
      ttg.mask.return %z : i32
    }) : (i1) -> i32
    tt.return
  }
}

// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-NEXT: #blocked1 = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-NEXT: #blocked2 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-NEXT: #shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-NEXT: #shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-NEXT: #shared2 = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1]}>
// CHECK-NEXT: #shared3 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3}>
// CHECK-NEXT: #smem = #ttg.shared_memory
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.shared = 65536 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32, "ttg.total-num-warps" = 8 : i32} {
// CHECK-NEXT:   tt.func public @k(%arg0: tensor<64x64x!tt.ptr<f16>, #blocked>, %arg1: i32, %arg2: tensor<64x64xf16, #blocked>) {
// CHECK-NEXT:     %0 = ttg.convert_layout %arg2 : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked1>
// CHECK-NEXT:     %1 = ttg.local_alloc : () -> !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>
// CHECK-NEXT:     %2 = ttg.local_alloc %arg2 : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared, #smem>
// CHECK-NEXT:     %3 = ttg.local_alloc %arg2 {alignment = 128 : i32} : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #shared1, #smem, mutable>
// CHECK-NEXT:     %4 = ttg.memdesc_index %1[%arg1] : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
// CHECK-NEXT:     %5 = ttg.memdesc_subslice %4[0, 32] : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable, 64x64>
// CHECK-NEXT:     %6 = ttg.memdesc_trans %2 {order = array<i32: 1, 0>} : !ttg.memdesc<64x64xf16, #shared, #smem> -> !ttg.memdesc<64x64xf16, #shared2, #smem>
// CHECK-NEXT:     %7 = ttg.memdesc_reshape %3 : !ttg.memdesc<64x64xf16, #shared1, #smem, mutable> -> !ttg.memdesc<64x1x64xf16, #shared3, #smem, mutable>
// CHECK-NEXT:     %8 = ttg.memdesc_reinterpret %3 : !ttg.memdesc<64x64xf16, #shared1, #smem, mutable> -> !ttg.memdesc<32x64xi32, #shared1, #smem, mutable>
// CHECK-NEXT:     %9 = ttg.local_load %4 : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #blocked>
// CHECK-NEXT:     ttg.local_store %arg2, %4 : tensor<64x64xf16, #blocked> -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
// CHECK-NEXT:     %10 = ttg.async_copy_global_to_local %arg0, %4 : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
// CHECK-NEXT:     %cst = arith.constant dense<true> : tensor<64x64xi1, #blocked>
// CHECK-NEXT:     %cst_0 = arith.constant dense<0.000000e+00> : tensor<64x64xf16, #blocked>
// CHECK-NEXT:     %11 = ttg.async_copy_global_to_local %arg0, %4 mask %cst other %cst_0 cacheModifier = cg evictionPolicy = evict_last {contiguity = 8 : i32, isVolatile = true} : tensor<64x64x!tt.ptr<f16>, #blocked> -> <64x64xf16, #shared, #smem, mutable>
// CHECK-NEXT:     %12 = ttg.async_commit_group tokens %10, %11
// CHECK-NEXT:     %13 = ttg.async_commit_group
// CHECK-NEXT:     %14 = ttg.async_wait %12 {num = 0 : i32}
// CHECK-NEXT:     %15 = ttg.async_wait {num = 1 : i32}
// CHECK-NEXT:     %16 = ttg.local_load %4 token %14 : !ttg.memdesc<64x64xf16, #shared, #smem, mutable> -> tensor<64x64xf16, #blocked>
// CHECK-NEXT:     ttg.local_dealloc %1 : !ttg.memdesc<2x64x64xf16, #shared, #smem, mutable>
// CHECK-NEXT:     ttg.local_barrier
// CHECK-NEXT:     %17 = ttg.global_scratch_alloc {alignment = 128 : i32, nbytes = 1024 : i32} : !tt.ptr<i8>
// CHECK-NEXT:     %c0_i32 = arith.constant 0 : i32
// CHECK-NEXT:     %c4_i32 = arith.constant 4 : i32
// CHECK-NEXT:     %18 = ttg.predicate_stage %arg1, %c4_i32, %c0_i32 maxStage 2 stage 1 : i32 -> i1
// CHECK-NEXT:     %cst_1 = arith.constant dense<0> : tensor<64x32xi8, #blocked2>
// CHECK-NEXT:     %19 = ttg.fp4_to_fp %cst_1 {axis = 1 : i32} : tensor<64x32xi8, #blocked2> -> tensor<64x64xbf16, #blocked>
// CHECK-NEXT:     %20 = "ttg.mask"(%18) ({
// CHECK-NEXT:       %21 = arith.addi %arg1, %arg1 : i32
// CHECK-NEXT:       ttg.mask.return %21 : i32
// CHECK-NEXT:     }) : (i1) -> i32
// CHECK-NEXT:     tt.return
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @k(%a: i32, %b: i32) -> i32 {
    %0 = ttg.warp_specialize(%a, %b) attributes {actualRegisters = array<i32: 232, 40, 40>, requestedRegisters = array<i32: 40, 40>, warpGroupStartIds = array<i32: 4, 6>, "ttg.partition.types" = ["default", "load"]}
    default {
      %s = arith.addi %a, %b : i32
      ttg.warp_yield %s : i32
    }
    partition0(%x: i32, %y: i32) num_warps(2) {
      %z = arith.addi %x, %y : i32
      %t = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked2>
      ttg.warp_return
    }
    partition1(%x: i32, %y: i32) num_warps(1) {
      ttg.warp_return
    } : (i32, i32) -> i32
    ttg.warp_specialize()
    default {
      ttg.warp_yield
    } : () -> ()
    tt.return %0 : i32
  }
}

// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
// CHECK-NEXT: module attributes {"ttg.num-warps" = 4 : i32} {
// CHECK-NEXT:   tt.func public @k(%arg0: i32, %arg1: i32) -> i32 {
// CHECK-NEXT:     %0 = ttg.warp_specialize(%arg0, %arg1) attributes {actualRegisters = array<i32: 232, 40, 40>, requestedRegisters = array<i32: 40, 40>, ttg.partition.types = ["default", "load"], warpGroupStartIds = array<i32: 4, 6>}
// CHECK-NEXT:     default {
// CHECK-NEXT:       %1 = arith.addi %arg0, %arg1 : i32
// CHECK-NEXT:       ttg.warp_yield %1 : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     partition0(%arg2: i32, %arg3: i32) num_warps(2) {
// CHECK-NEXT:       %1 = arith.addi %arg2, %arg3 : i32
// CHECK-NEXT:       %2 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
// CHECK-NEXT:       ttg.warp_return
// CHECK-NEXT:     }
// CHECK-NEXT:     partition1(%arg2: i32, %arg3: i32) num_warps(1) {
// CHECK-NEXT:       ttg.warp_return
// CHECK-NEXT:     } : (i32, i32) -> i32
// CHECK-NEXT:     ttg.warp_specialize()
// CHECK-NEXT:     default {
// CHECK-NEXT:       ttg.warp_yield
// CHECK-NEXT:     } : () -> ()
// CHECK-NEXT:     tt.return %0 : i32
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[1, 0]]}>
#blocked1 = #ttg.blocked<{order = [0, 1], sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1]}>
#blocked2 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[0, 0]]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16], CGALayout = [[1, 0]]}>
#mma1 = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#mma2 = #ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2]}>
#dot0 = #ttg.dot_op<{opIdx = 0, parent = #mma1, kWidth = 2}>
#dot1 = #ttg.dot_op<{opIdx = 1, parent = #blocked1}>
#sl = #ttg.slice<{dim = 1, parent = #blocked1}>
#lin = #ttg.linear<{register = [[0, 1]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 2 : i32} {
  tt.func public @f() {
    %0 = arith.constant dense<0> : tensor<16x16xi32, #blocked>
    %2 = arith.constant dense<0> : tensor<16x16xi32, #blocked2>
    tt.return
  }
}

// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = {{\[\[}}1, 0{{\]\]}}}>
// CHECK-NEXT: #blocked1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = {{\[\[}}0, 0{{\]\]}}}>
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32} {
// CHECK-NEXT:   tt.func public @f() {
// CHECK-NEXT:     %cst = arith.constant dense<0> : tensor<16x16xi32, #blocked>
// CHECK-NEXT:     %cst_0 = arith.constant dense<0> : tensor<16x16xi32, #blocked1>
// CHECK-NEXT:     tt.return
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

#blocked1 = #ttg.blocked<{order = [0, 1], sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#mma1 = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#mma2 = #ttg.nvidia_mma<{versionMajor = 2, warpsPerCTA = [2, 2]}>
#dot0 = #ttg.dot_op<{opIdx = 0, parent = #mma1, kWidth = 2}>
#dot1 = #ttg.dot_op<{opIdx = 1, parent = #blocked1}>
#dot2 = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#sl = #ttg.slice<{dim = 1, parent = #blocked1}>
#sl2 = #ttg.slice<{dim = 0, parent = #mma}>
#lin = #ttg.linear<{register = [[0, 1]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = [[8, 0], [16, 0]], block = []}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @f() {
    %1 = arith.constant dense<0> : tensor<16x16xi32, #blocked1>
    %3 = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %4 = arith.constant dense<0.0> : tensor<32x32xf32, #mma1>
    %5 = arith.constant dense<0.0> : tensor<32x32xf32, #mma2>
    %6 = arith.constant dense<0.0> : tensor<32x32xf16, #dot0>
    %7 = arith.constant dense<0.0> : tensor<32x32xf16, #dot1>
    %8 = arith.constant dense<0.0> : tensor<16xf16, #sl>
    %9 = arith.constant dense<0.0> : tensor<32x8xf16, #lin>
    %10 = arith.constant dense<0.0> : tensor<64x64xf16, #dot2>
    %11 = arith.constant dense<0.0> : tensor<64xf16, #sl2>
    tt.return
  }
}

// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [0, 1]}>
// CHECK-NEXT: #linear = #ttg.linear<{register = {{\[\[}}0, 1{{\]\]}}, lane = {{\[\[}}0, 2], [0, 4], [1, 0], [2, 0], [4, 0{{\]\]}}, warp = {{\[\[}}8, 0], [16, 0{{\]\]}}, block = []}>
// CHECK-NEXT: #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// CHECK-NEXT: #mma1 = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-NEXT: #mma2 = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = []}>
// CHECK-NEXT: module attributes {"ttg.num-warps" = 4 : i32} {
// CHECK-NEXT:   tt.func public @f() {
// CHECK-NEXT:     %cst = arith.constant dense<0> : tensor<16x16xi32, #blocked>
// CHECK-NEXT:     %cst_0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
// CHECK-NEXT:     %cst_1 = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma1>
// CHECK-NEXT:     %cst_2 = arith.constant dense<0.000000e+00> : tensor<32x32xf32, #mma2>
// CHECK-NEXT:     %cst_3 = arith.constant dense<0.000000e+00> : tensor<32x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma1, kWidth = 2}>>
// CHECK-NEXT:     %cst_4 = arith.constant dense<0.000000e+00> : tensor<32x32xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>
// CHECK-NEXT:     %cst_5 = arith.constant dense<0.000000e+00> : tensor<16xf16, #ttg.slice<{dim = 1, parent = #blocked}>>
// CHECK-NEXT:     %cst_6 = arith.constant dense<0.000000e+00> : tensor<32x8xf16, #linear>
// CHECK-NEXT:     %cst_7 = arith.constant dense<0.000000e+00> : tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
// CHECK-NEXT:     %cst_8 = arith.constant dense<0.000000e+00> : tensor<64xf16, #ttg.slice<{dim = 0, parent = #mma}>>
// CHECK-NEXT:     tt.return
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

#shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared2 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8, fp4Padded = true}>
#shared3 = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16, rank = 3}>
#shared4 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#shared5 = #ttg.padded_shared<[32:+4, 64:+8] {order = [1, 0], shape = [64, 64]}>
#shared6 = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [0, 8], [1, 0], [2, 0], [4, 0], [8, 0]]}, alignment = 16>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
#tmem1 = #ttng.tensor_memory_encoding<blockM = 64, blockN = 128, colStride = 2, CTASplitM = 2>
#tmem_s = #ttng.tensor_memory_scales_encoding<>
#tm = #ttng.tensor_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @f(%a: !ttg.memdesc<64x64xf16, #shared, #smem>,
                    %b: !ttg.memdesc<2x64x64xf16, #shared1, #smem, mutable>,
                    %c: !ttg.memdesc<64x64xf16, #shared1, #smem, mutable, 2x64x64>,
                    %c2: !ttg.memdesc<32x64xf16, #shared1, #smem, 64x64>,
                    %d: !ttg.memdesc<64x128xi8, #shared2, #smem>,
                    %e: !ttg.memdesc<2x64x64xf16, #shared3, #smem>,
                    %f: !ttg.memdesc<1xi64, #shared4, #smem, mutable>,
                    %g: !ttg.memdesc<64x64xf16, #shared5, #smem>,
                    %h: !ttg.memdesc<16x16xf16, #shared6, #smem>,
                    %i: !ttg.memdesc<128x64xf32, #tmem, #tm, mutable>,
                    %j: !ttg.memdesc<128x128xf16, #tmem1, #tm>,
                    %k: !ttg.memdesc<128x8xi8, #tmem_s, #tm>,
                    %t: !ttg.async.token,
                    %p: !tt.ptr<f16>, %p1: !tt.ptr<f16, 1>, %p3: !tt.ptr<i8, 3>,
                    %tp: !tt.ptr<tensor<64x64xf16>>,
                    %td: !tt.tensordesc<tensor<64x64xf16>>,
                    %td2: !tt.tensordesc<tensor<64x64xf16, #shared1>>) {
    tt.return
  }
}

// CHECK: #shared = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
// CHECK-NEXT: #shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-NEXT: #shared2 = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, elementBitWidth = 8, fp4Padded = true}>
// CHECK-NEXT: #shared3 = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16, rank = 3}>
// CHECK-NEXT: #shared4 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// CHECK-NEXT: #shared5 = #ttg.padded_shared<[32:+4, 64:+8] {order = [1, 0], shape = [64, 64]}>
// CHECK-NEXT: #shared6 = #ttg.shared_linear<{offset = {{\[\[}}0, 1], [0, 2], [0, 4], [0, 8], [1, 0], [2, 0], [4, 0], [8, 0{{\]\]}}}, alignment = 16>
// CHECK-NEXT: #smem = #ttg.shared_memory
// CHECK-NEXT: #tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
// CHECK-NEXT: #tmem1 = #ttng.tensor_memory_encoding<blockM = 64, blockN = 128, colStride = 2, CTASplitM = 2>
// CHECK-NEXT: #tmem_scales = #ttng.tensor_memory_scales_encoding<>
// CHECK-NEXT: module attributes {"ttg.num-warps" = 4 : i32} {
// CHECK-NEXT:   tt.func public @f(%arg0: !ttg.memdesc<64x64xf16, #shared, #smem>, %arg1: !ttg.memdesc<2x64x64xf16, #shared1, #smem, mutable>, %arg2: !ttg.memdesc<64x64xf16, #shared1, #smem, mutable, 2x64x64>, %arg3: !ttg.memdesc<32x64xf16, #shared1, #smem, 64x64>, %arg4: !ttg.memdesc<64x128xi8, #shared2, #smem>, %arg5: !ttg.memdesc<2x64x64xf16, #shared3, #smem>, %arg6: !ttg.memdesc<1xi64, #shared4, #smem, mutable>, %arg7: !ttg.memdesc<64x64xf16, #shared5, #smem>, %arg8: !ttg.memdesc<16x16xf16, #shared6, #smem>, %arg9: !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>, %arg10: !ttg.memdesc<128x128xf16, #tmem1, #ttng.tensor_memory>, %arg11: !ttg.memdesc<128x8xi8, #tmem_scales, #ttng.tensor_memory>, %arg12: !ttg.async.token, %arg13: !tt.ptr<f16>, %arg14: !tt.ptr<f16>, %arg15: !tt.ptr<i8, 3>, %arg16: !tt.ptr<tensor<64x64xf16>>, %arg17: !tt.tensordesc<tensor<64x64xf16>>, %arg18: !tt.tensordesc<tensor<64x64xf16, #shared1>>) {
// CHECK-NEXT:     tt.return
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[1, 0]]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16], CGALayout = [[1, 0]]}>
#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = [[1, 0]]}>
#nv3 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3, CGALayout = [[0, 1, 0]]}>
#nvr1 = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16, rank = 1}>
#sw = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0], CGALayout = [[0, 1]]}>
#dot = #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#dotb = #ttg.dot_op<{opIdx = 1, parent = #b, kWidth = 0}>
#sl = #ttg.slice<{dim = 0, parent = #b}>
#tm = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1, CTASplitN = 2, twoCTAs = true>
#tm2 = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1, twoCTAs = false, CTASplitM = 1>
#ts = #ttng.tensor_memory_scales_encoding<CTASplitM = 2>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 2 : i32} {
  tt.func public @f(%a: !ttg.memdesc<64x64xf16, #nv, #smem>, %b: !ttg.memdesc<2x64x64xf16, #nv3, #smem>, %c: !ttg.memdesc<64xf16, #nvr1, #smem>, %d: !ttg.memdesc<64x64xf16, #sw, #smem>,
     %e: tensor<64x64xf16, #dot>, %f: tensor<64x64xf16, #dotb>, %g: tensor<64xf16, #sl>, %h: !ttg.memdesc<128x128xf32, #tm, #ttng.tensor_memory>, %h2: !ttg.memdesc<128x64xf32, #tm2, #ttng.tensor_memory>, %i: !ttg.memdesc<256x4xi8, #ts, #ttng.tensor_memory>,
     %j: !tt.ptr<f16, 0>, %k: !tt.ptr<f16, 3>) {
    tt.return
  }
}

// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = {{\[\[}}1, 0{{\]\]}}}>
// CHECK-NEXT: #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], CGALayout = {{\[\[}}1, 0{{\]\]}}, instrShape = [16, 64, 16]}>
// CHECK-NEXT: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = {{\[\[}}1, 0{{\]\]}}}>
// CHECK-NEXT: #shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = {{\[\[}}0, 1, 0{{\]\]}}}>
// CHECK-NEXT: #shared2 = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 16, rank = 1}>
// CHECK-NEXT: #shared3 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0], CGALayout = {{\[\[}}0, 1{{\]\]}}}>
// CHECK-NEXT: #smem = #ttg.shared_memory
// CHECK-NEXT: #tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1, CTASplitN = 2, twoCTAs = true>
// CHECK-NEXT: #tmem1 = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
// CHECK-NEXT: #tmem_scales = #ttng.tensor_memory_scales_encoding<CTASplitM = 2>
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32} {
// CHECK-NEXT:   tt.func public @f(%arg0: !ttg.memdesc<64x64xf16, #shared, #smem>, %arg1: !ttg.memdesc<2x64x64xf16, #shared1, #smem>, %arg2: !ttg.memdesc<64xf16, #shared2, #smem>, %arg3: !ttg.memdesc<64x64xf16, #shared3, #smem>, %arg4: tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>, %arg5: tensor<64x64xf16, #ttg.dot_op<{opIdx = 1, parent = #blocked}>>, %arg6: tensor<64xf16, #ttg.slice<{dim = 0, parent = #blocked}>>, %arg7: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>, %arg8: !ttg.memdesc<128x64xf32, #tmem1, #ttng.tensor_memory>, %arg9: !ttg.memdesc<256x4xi8, #tmem_scales, #ttng.tensor_memory>, %arg10: !tt.ptr<f16, 0>, %arg11: !tt.ptr<f16, 3>) {
// CHECK-NEXT:     tt.return
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @barriers_and_returns(%x: i32) -> i32 {
    ttg.local_barrier
    %r = ttg.warp_specialize(%x)
    default {
      ttg.warp_yield %x : i32
    }
    partition0(%a: i32) num_warps(4) {
      ttg.local_barrier
      ttg.warp_return
    } : (i32) -> i32
    tt.return %r : i32
  }
}

// CHECK: module attributes {"ttg.num-warps" = 4 : i32} {
// CHECK-NEXT:   tt.func @barriers_and_returns(%arg0: i32) -> i32 {
// CHECK-NEXT:     ttg.local_barrier
// CHECK-NEXT:     %0 = ttg.warp_specialize(%arg0)
// CHECK-NEXT:     default {
// CHECK-NEXT:       ttg.warp_yield %arg0 : i32
// CHECK-NEXT:     }
// CHECK-NEXT:     partition0(%arg1: i32) num_warps(4) {
// CHECK-NEXT:       ttg.local_barrier
// CHECK-NEXT:       ttg.warp_return
// CHECK-NEXT:     } : (i32) -> i32
// CHECK-NEXT:     tt.return %0 : i32
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// cp.async with `other` and no mask (as AMD's Gluon async_copy emits it).

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#sw = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%p: tensor<128x!tt.ptr<f32>, #blocked>, %o: tensor<128xf32, #blocked>, %a: !ttg.memdesc<128xf32, #sw, #smem, mutable>) {
    %t = ttg.async_copy_global_to_local %p, %a other %o : tensor<128x!tt.ptr<f32>, #blocked> -> <128xf32, #sw, #smem, mutable>
    tt.return
  }
}

// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NEXT: #shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// CHECK-NEXT: #smem = #ttg.shared_memory
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-NEXT:   tt.func @f(%arg0: tensor<128x!tt.ptr<f32>, #blocked>, %arg1: tensor<128xf32, #blocked>, %arg2: !ttg.memdesc<128xf32, #shared, #smem, mutable>) {
// CHECK-NEXT:     %0 = ttg.async_copy_global_to_local %arg0, %arg2 other %arg1 : tensor<128x!tt.ptr<f32>, #blocked> -> <128xf32, #shared, #smem, mutable>
// CHECK-NEXT:     tt.return
// CHECK-NEXT:   }
// CHECK-NEXT: }
