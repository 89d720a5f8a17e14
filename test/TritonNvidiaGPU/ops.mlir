// Every construct below prints exactly as stock Triton 3.6 prints it: the CHECK
// lines are stock libtriton's own print of each input (our definitions must
// reproduce its syntax, not merely parse it). Also through the generic form.
// RUN: tlx-opt %s -split-input-file --mlir-use-nameloc-as-prefix | FileCheck %s
// RUN: tlx-opt %s -split-input-file --mlir-print-op-generic | tlx-opt -split-input-file --mlir-use-nameloc-as-prefix | FileCheck %s

#blocked = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared_t = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 1 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:100"} {
  tt.func public @k(%desc: !tt.tensordesc<tensor<128x64xf16, #shared>>, %i: i32, %pred: i1, %ptr: !tt.ptr<i8>, %gp: !tt.ptr<f16>) {
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.init_barrier %bar, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.barrier_expect %bar, 16384, %pred : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %a = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<64x128xf16, #shared, #smem, mutable>
    ttng.async_tma_copy_global_to_local %desc[%i, %i] %a, %bar, %pred : !tt.tensordesc<tensor<128x64xf16, #shared>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    ttng.async_tma_copy_global_to_local %desc[%i, %i] %a, %bar, %pred cacheModifier = cg evictionPolicy = evict_first {isVolatile = true} : !tt.tensordesc<tensor<128x64xf16, #shared>>, !ttg.memdesc<1xi64, #bar, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    ttng.wait_barrier %bar, %i : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.wait_barrier %bar, %i, %pred : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.wait_barrier %bar, %i deps %a, %b : !ttg.memdesc<1xi64, #bar, #smem, mutable>, !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, !ttg.memdesc<64x128xf16, #shared, #smem, mutable>
    ttng.arrive_barrier %bar, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.arrive_barrier %bar, 2, %pred : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.async_copy_mbarrier_arrive %bar : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.async_copy_mbarrier_arrive %bar {noIncrement} : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.fence_async_shared {bCluster = false}
    ttng.fence_async_shared {bCluster = true}
    ttng.cluster_arrive {relaxed = true}
    ttng.cluster_wait
    ttng.async_tma_copy_local_to_global %desc[%i, %i] %a : !tt.tensordesc<tensor<128x64xf16, #shared>>, !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    ttng.async_tma_reduce add, %desc[%i, %i] %a : !tt.tensordesc<tensor<128x64xf16, #shared>>, !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    ttng.async_tma_store_wait {pendings = 0 : i32}
    ttng.inval_barrier %bar : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %rd = ttng.reinterpret_tensor_descriptor %ptr : !tt.ptr<i8> to !tt.tensordesc<tensor<128x64xf16, #shared>>
    ttng.tensormap_fenceproxy_acquire %ptr : !tt.ptr<i8>
    %c1 = arith.constant 1 : i64
    ttng.tensormap_create %ptr, %gp, [%i, %i], [%i, %i], [%c1], [%i, %i] {elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32, i32, i64, i32, i32) -> ()
    %acc, %tok = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
    %tok2 = ttng.tc_gen5_mma %a, %b, %acc[%tok], %pred, %pred : !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, !ttg.memdesc<64x128xf16, #shared, #smem, mutable>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    %tok3 = ttng.tc_gen5_mma %a, %b, %acc[%tok2], %pred, %pred, %bar[%pred] {is_async} : !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, !ttg.memdesc<64x128xf16, #shared, #smem, mutable>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.tc_gen5_mma %a, %b, %acc[], %pred, %pred, %bar[%pred], %bar[%pred] {is_async} : !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, !ttg.memdesc<64x128xf16, #shared, #smem, mutable>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #bar, #smem, mutable>, !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.tc_gen5_commit %bar : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    ttng.tc_gen5_commit %bar, %pred {two_ctas} : !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %r, %tok4 = ttng.tmem_load %acc[%tok3] : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #blocked>
    %r2 = ttng.tmem_load %acc : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #blocked>
    %r3, %tk3 = ttng.tmem_load %acc[] : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #blocked>
    %tok5 = ttng.tmem_store %r, %acc[%tok4], %pred : tensor<128x128xf32, #blocked> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    ttng.tmem_store %r, %acc[], %pred : tensor<128x128xf32, #blocked> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    %acc2 = ttng.tmem_alloc %r : (tensor<128x128xf32, #blocked>) -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>
    %sub = ttng.tmem_subslice %acc {N = 64 : i32} : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable, 128x128>
    tt.return
  }
}

// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
// CHECK-NEXT: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-NEXT: #shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// CHECK-NEXT: #smem = #ttg.shared_memory
// CHECK-NEXT: #tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-NEXT:   tt.func public @k(%arg0: !tt.tensordesc<tensor<128x64xf16, #shared>>, %arg1: i32, %arg2: i1, %arg3: !tt.ptr<i8>, %arg4: !tt.ptr<f16>) {
// CHECK-NEXT:     %0 = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #shared1, #smem, mutable>
// CHECK-NEXT:     ttng.init_barrier %0, 1 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
// CHECK-NEXT:     ttng.barrier_expect %0, 16384, %arg2 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
// CHECK-NEXT:     %1 = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
// CHECK-NEXT:     %2 = ttg.local_alloc : () -> !ttg.memdesc<64x128xf16, #shared, #smem, mutable>
// CHECK-NEXT:     ttng.async_tma_copy_global_to_local %arg0[%arg1, %arg1] %1, %0, %arg2 : !tt.tensordesc<tensor<128x64xf16, #shared>>, !ttg.memdesc<1xi64, #shared1, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
// CHECK-NEXT:     ttng.async_tma_copy_global_to_local %arg0[%arg1, %arg1] %1, %0, %arg2 cacheModifier = cg evictionPolicy = evict_first {isVolatile = true} : !tt.tensordesc<tensor<128x64xf16, #shared>>, !ttg.memdesc<1xi64, #shared1, #smem, mutable> -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
// CHECK-NEXT:     ttng.wait_barrier %0, %arg1 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
// CHECK-NEXT:     ttng.wait_barrier %0, %arg1, %arg2 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
// CHECK-NEXT:     ttng.wait_barrier %0, %arg1 deps %1, %2 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>, !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, !ttg.memdesc<64x128xf16, #shared, #smem, mutable>
// CHECK-NEXT:     ttng.arrive_barrier %0, 1 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
// CHECK-NEXT:     ttng.arrive_barrier %0, 2, %arg2 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
// CHECK-NEXT:     ttng.async_copy_mbarrier_arrive %0 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
// CHECK-NEXT:     ttng.async_copy_mbarrier_arrive %0 {noIncrement} : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
// CHECK-NEXT:     ttng.fence_async_shared {bCluster = false}
// CHECK-NEXT:     ttng.fence_async_shared {bCluster = true}
// CHECK-NEXT:     ttng.cluster_arrive {relaxed = true}
// CHECK-NEXT:     ttng.cluster_wait
// CHECK-NEXT:     ttng.async_tma_copy_local_to_global %arg0[%arg1, %arg1] %1 : !tt.tensordesc<tensor<128x64xf16, #shared>>, !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
// CHECK-NEXT:     ttng.async_tma_reduce add, %arg0[%arg1, %arg1] %1 : !tt.tensordesc<tensor<128x64xf16, #shared>>, !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
// CHECK-NEXT:     ttng.async_tma_store_wait {pendings = 0 : i32}
// CHECK-NEXT:     ttng.inval_barrier %0 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
// CHECK-NEXT:     %3 = ttng.reinterpret_tensor_descriptor %arg3 : !tt.ptr<i8> to !tt.tensordesc<tensor<128x64xf16, #shared>>
// CHECK-NEXT:     ttng.tensormap_fenceproxy_acquire %arg3 : !tt.ptr<i8>
// CHECK-NEXT:     %c1_i64 = arith.constant 1 : i64
// CHECK-NEXT:     ttng.tensormap_create %arg3, %arg4, [%arg1, %arg1], [%arg1, %arg1], [%c1_i64], [%arg1, %arg1] {elem_type = 6 : i32, fill_mode = 0 : i32, interleave_layout = 0 : i32, swizzle_mode = 3 : i32} : (!tt.ptr<i8>, !tt.ptr<f16>, i32, i32, i32, i32, i64, i32, i32) -> ()
// CHECK-NEXT:     %result, %token = ttng.tmem_alloc : () -> (!ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.async.token)
// CHECK-NEXT:     %4 = ttng.tc_gen5_mma %1, %2, %result[%token], %arg2, %arg2 : !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, !ttg.memdesc<64x128xf16, #shared, #smem, mutable>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
// CHECK-NEXT:     %5 = ttng.tc_gen5_mma %1, %2, %result[%4], %arg2, %arg2, %0[%arg2] {is_async} : !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, !ttg.memdesc<64x128xf16, #shared, #smem, mutable>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #shared1, #smem, mutable>
// CHECK-NEXT:     %6 = ttng.tc_gen5_mma %1, %2, %result[], %arg2, %arg2, %0[%arg2], %0[%arg2] {is_async} : !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, !ttg.memdesc<64x128xf16, #shared, #smem, mutable>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #shared1, #smem, mutable>, !ttg.memdesc<1xi64, #shared1, #smem, mutable>
// CHECK-NEXT:     ttng.tc_gen5_commit %0 : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
// CHECK-NEXT:     ttng.tc_gen5_commit %0, %arg2 {two_ctas} : !ttg.memdesc<1xi64, #shared1, #smem, mutable>
// CHECK-NEXT:     %result_0, %token_1 = ttng.tmem_load %result[%5] : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #blocked>
// CHECK-NEXT:     %result_2 = ttng.tmem_load %result : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #blocked>
// CHECK-NEXT:     %result_3, %token_4 = ttng.tmem_load %result[] : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> tensor<128x128xf32, #blocked>
// CHECK-NEXT:     %7 = ttng.tmem_store %result_0, %result[%token_1], %arg2 : tensor<128x128xf32, #blocked> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
// CHECK-NEXT:     %8 = ttng.tmem_store %result_0, %result[], %arg2 : tensor<128x128xf32, #blocked> -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
// CHECK-NEXT:     %result_5 = ttng.tmem_alloc %result_0 : (tensor<128x128xf32, #blocked>) -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory>
// CHECK-NEXT:     %9 = ttng.tmem_subslice %result {N = 64 : i32} : !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable> -> !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable, 128x128>
// CHECK-NEXT:     tt.return
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#shared8 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
#sh0 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
#tmem_s = #ttng.tensor_memory_scales_encoding<>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  tt.func public @k(%desc: !tt.tensordesc<tensor<1x64xf16, #shared>>, %i: i32, %pred: i1) {
    %bar = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %a = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
    %b = ttg.local_alloc : () -> !ttg.memdesc<64x128xf16, #shared, #smem, mutable>
    %acc = ttng.tmem_alloc : () -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    ttng.tc_gen5_mma %a, %b, %acc, %pred, %pred : !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, !ttg.memdesc<64x128xf16, #shared, #smem, mutable>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    ttng.tc_gen5_mma %a, %b, %acc, %pred, %pred {is_async} : !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, !ttg.memdesc<64x128xf16, #shared, #smem, mutable>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    %a8 = ttg.local_alloc : () -> !ttg.memdesc<128x64xi8, #shared8, #smem, mutable>
    %b8 = ttg.local_alloc : () -> !ttg.memdesc<64x128xi8, #shared8, #smem, mutable>
    %sa = ttng.tmem_alloc : () -> !ttg.memdesc<128x2xi8, #tmem_s, #ttng.tensor_memory, mutable>
    %sb = ttng.tmem_alloc : () -> !ttg.memdesc<128x2xi8, #tmem_s, #ttng.tensor_memory, mutable>
    ttng.tc_gen5_mma_scaled %a8, %b8, %acc, %sa, %sb, %pred, %pred lhs = e4m3 rhs = e4m3 : !ttg.memdesc<128x64xi8, #shared8, #smem, mutable>, !ttg.memdesc<64x128xi8, #shared8, #smem, mutable>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x2xi8, #tmem_s, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x2xi8, #tmem_s, #ttng.tensor_memory, mutable>
    %t = ttng.tc_gen5_mma_scaled %a8, %b8, %acc[], %sa, %sb, %pred, %pred lhs = e4m3 rhs = e4m3, %bar[%pred] {is_async} : !ttg.memdesc<128x64xi8, #shared8, #smem, mutable>, !ttg.memdesc<64x128xi8, #shared8, #smem, mutable>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x2xi8, #tmem_s, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x2xi8, #tmem_s, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %src = ttg.local_alloc : () -> !ttg.memdesc<128x2xi8, #sh0, #smem, mutable>
    ttng.tmem_copy %src, %sa : !ttg.memdesc<128x2xi8, #sh0, #smem, mutable>, !ttg.memdesc<128x2xi8, #tmem_s, #ttng.tensor_memory, mutable>
    ttng.tmem_copy %src, %sa, %bar : !ttg.memdesc<128x2xi8, #sh0, #smem, mutable>, !ttg.memdesc<128x2xi8, #tmem_s, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #bar, #smem, mutable>
    %c = arith.constant dense<0.0> : tensor<128x128xf32, #mma>
    %d = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<128x64xf16, #shared, #smem, mutable> * !ttg.memdesc<64x128xf16, #shared, #smem, mutable> -> tensor<128x128xf32, #mma>
    %d2 = ttng.warp_group_dot %a, %b, %c, %pred {inputPrecision = 0 : i32, isAsync = true, maxNumImpreciseAcc = 0 : i32} : !ttg.memdesc<128x64xf16, #shared, #smem, mutable> * !ttg.memdesc<64x128xf16, #shared, #smem, mutable> -> tensor<128x128xf32, #mma>
    %w:3 = ttng.warp_group_dot_wait %d2, %a, %b {pendings = 0 : i32} : tensor<128x128xf32, #mma>, !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, !ttg.memdesc<64x128xf16, #shared, #smem, mutable>
    %x = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #b1>
    %g = ttg.local_alloc : () -> !ttg.memdesc<32x64xf16, #shared, #smem, mutable>
    ttng.async_tma_gather %desc[%x, %i] %g, %bar, %pred : !tt.tensordesc<tensor<1x64xf16, #shared>>, tensor<32xi32, #b1>, i32, !ttg.memdesc<1xi64, #bar, #smem, mutable>, !ttg.memdesc<32x64xf16, #shared, #smem, mutable>, i1
    ttng.async_tma_scatter %desc[%x, %i] %g : !tt.tensordesc<tensor<1x64xf16, #shared>>, tensor<32xi32, #b1>, i32, !ttg.memdesc<32x64xf16, #shared, #smem, mutable>
    tt.return
  }
}

// CHECK: #blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-NEXT: #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
// CHECK-NEXT: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
// CHECK-NEXT: #shared1 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// CHECK-NEXT: #shared2 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
// CHECK-NEXT: #shared3 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
// CHECK-NEXT: #smem = #ttg.shared_memory
// CHECK-NEXT: #tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
// CHECK-NEXT: #tmem_scales = #ttng.tensor_memory_scales_encoding<>
// CHECK-NEXT: module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
// CHECK-NEXT:   tt.func public @k(%arg0: !tt.tensordesc<tensor<1x64xf16, #shared>>, %arg1: i32, %arg2: i1) {
// CHECK-NEXT:     %0 = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #shared1, #smem, mutable>
// CHECK-NEXT:     %1 = ttg.local_alloc : () -> !ttg.memdesc<128x64xf16, #shared, #smem, mutable>
// CHECK-NEXT:     %2 = ttg.local_alloc : () -> !ttg.memdesc<64x128xf16, #shared, #smem, mutable>
// CHECK-NEXT:     %result = ttng.tmem_alloc : () -> !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
// CHECK-NEXT:     ttng.tc_gen5_mma %1, %2, %result, %arg2, %arg2 : !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, !ttg.memdesc<64x128xf16, #shared, #smem, mutable>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
// CHECK-NEXT:     ttng.tc_gen5_mma %1, %2, %result, %arg2, %arg2 {is_async} : !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, !ttg.memdesc<64x128xf16, #shared, #smem, mutable>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
// CHECK-NEXT:     %3 = ttg.local_alloc : () -> !ttg.memdesc<128x64xi8, #shared2, #smem, mutable>
// CHECK-NEXT:     %4 = ttg.local_alloc : () -> !ttg.memdesc<64x128xi8, #shared2, #smem, mutable>
// CHECK-NEXT:     %result_0 = ttng.tmem_alloc : () -> !ttg.memdesc<128x2xi8, #tmem_scales, #ttng.tensor_memory, mutable>
// CHECK-NEXT:     %result_1 = ttng.tmem_alloc : () -> !ttg.memdesc<128x2xi8, #tmem_scales, #ttng.tensor_memory, mutable>
// CHECK-NEXT:     ttng.tc_gen5_mma_scaled %3, %4, %result, %result_0, %result_1, %arg2, %arg2 lhs = e4m3 rhs = e4m3 : !ttg.memdesc<128x64xi8, #shared2, #smem, mutable>, !ttg.memdesc<64x128xi8, #shared2, #smem, mutable>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x2xi8, #tmem_scales, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x2xi8, #tmem_scales, #ttng.tensor_memory, mutable>
// CHECK-NEXT:     %5 = ttng.tc_gen5_mma_scaled %3, %4, %result[], %result_0, %result_1, %arg2, %arg2 lhs = e4m3 rhs = e4m3, %0[%arg2] {is_async} : !ttg.memdesc<128x64xi8, #shared2, #smem, mutable>, !ttg.memdesc<64x128xi8, #shared2, #smem, mutable>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x2xi8, #tmem_scales, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x2xi8, #tmem_scales, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #shared1, #smem, mutable>
// CHECK-NEXT:     %6 = ttg.local_alloc : () -> !ttg.memdesc<128x2xi8, #shared3, #smem, mutable>
// CHECK-NEXT:     ttng.tmem_copy %6, %result_0 : !ttg.memdesc<128x2xi8, #shared3, #smem, mutable>, !ttg.memdesc<128x2xi8, #tmem_scales, #ttng.tensor_memory, mutable>
// CHECK-NEXT:     ttng.tmem_copy %6, %result_0, %0 : !ttg.memdesc<128x2xi8, #shared3, #smem, mutable>, !ttg.memdesc<128x2xi8, #tmem_scales, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #shared1, #smem, mutable>
// CHECK-NEXT:     %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
// CHECK-NEXT:     %7 = ttng.warp_group_dot %1, %2, %cst : !ttg.memdesc<128x64xf16, #shared, #smem, mutable> * !ttg.memdesc<64x128xf16, #shared, #smem, mutable> -> tensor<128x128xf32, #mma>
// CHECK-NEXT:     %8 = ttng.warp_group_dot %1, %2, %cst, %arg2 {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<128x64xf16, #shared, #smem, mutable> * !ttg.memdesc<64x128xf16, #shared, #smem, mutable> -> tensor<128x128xf32, #mma>
// CHECK-NEXT:     %9:3 = ttng.warp_group_dot_wait %8, %1, %2 {pendings = 0 : i32} : tensor<128x128xf32, #mma>, !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, !ttg.memdesc<64x128xf16, #shared, #smem, mutable>
// CHECK-NEXT:     %10 = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #blocked>
// CHECK-NEXT:     %11 = ttg.local_alloc : () -> !ttg.memdesc<32x64xf16, #shared, #smem, mutable>
// CHECK-NEXT:     ttng.async_tma_gather %arg0[%10, %arg1] %11, %0, %arg2 : !tt.tensordesc<tensor<1x64xf16, #shared>>, tensor<32xi32, #blocked>, i32, !ttg.memdesc<1xi64, #shared1, #smem, mutable>, !ttg.memdesc<32x64xf16, #shared, #smem, mutable>, i1
// CHECK-NEXT:     ttng.async_tma_scatter %arg0[%10, %arg1] %11 : !tt.tensordesc<tensor<1x64xf16, #shared>>, tensor<32xi32, #blocked>, i32, !ttg.memdesc<32x64xf16, #shared, #smem, mutable>
// CHECK-NEXT:     tt.return
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

#sl = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0], [2, 0]], block = [[0, 4]]}, alignment = 128>
#sl2 = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0], [2, 0]], block = []}, alignment = 16>
#ps = #ttg.padded_shared<[4:+4] {offset = [[1, 0], [0, 1], [2, 0], [0, 2]], block = []}>
#ps2 = #ttg.padded_shared<[4:+4] {offset = [[0, 1], [0, 2], [1, 0], [2, 0]], block = []}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = 2 : i32} {
  tt.func @f(%a: !ttg.memdesc<4x8xf16, #sl, #smem>) { tt.return }
}

// CHECK: #shared = #ttg.shared_linear<{offset = {{\[\[}}0, 1], [0, 2], [1, 0], [2, 0{{\]\]}}, block = {{\[\[}}0, 4{{\]\]}}}, alignment = 128>
// CHECK-NEXT: #smem = #ttg.shared_memory
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 2 : i32, "ttg.num-warps" = 4 : i32} {
// CHECK-NEXT:   tt.func @f(%arg0: !ttg.memdesc<4x8xf16, #shared, #smem>) {
// CHECK-NEXT:     tt.return
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

#sl2 = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0], [2, 0]], block = []}, alignment = 16>
#ps = #ttg.padded_shared<[4:+4] {offset = [[1, 0], [0, 1], [2, 0], [0, 2]], block = []}>
#ps2 = #ttg.padded_shared<[4:+4] {offset = [[0, 1], [0, 2], [1, 0], [2, 0]], block = []}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @f(%b: !ttg.memdesc<4x4xf16, #sl2, #smem>, %c: !ttg.memdesc<4x4xf16, #ps, #smem>, %d: !ttg.memdesc<4x4xf16, #ps2, #smem>) { tt.return }
}

// CHECK: #shared = #ttg.shared_linear<{offset = {{\[\[}}0, 1], [0, 2], [1, 0], [2, 0{{\]\]}}}, alignment = 16>
// CHECK-NEXT: #shared1 = #ttg.padded_shared<[4:+4] {offset = {{\[\[}}1, 0], [0, 1], [2, 0], [0, 2{{\]\]}}, block = []}>
// CHECK-NEXT: #shared2 = #ttg.padded_shared<[4:+4] {order = [1, 0], shape = [4, 4]}>
// CHECK-NEXT: #smem = #ttg.shared_memory
// CHECK-NEXT: module attributes {"ttg.num-warps" = 4 : i32} {
// CHECK-NEXT:   tt.func @f(%arg0: !ttg.memdesc<4x4xf16, #shared, #smem>, %arg1: !ttg.memdesc<4x4xf16, #shared1, #smem>, %arg2: !ttg.memdesc<4x4xf16, #shared2, #smem>) {
// CHECK-NEXT:     tt.return
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8], bogus = 1}>
#sw = #ttg.swizzled_shared<{order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @f(%a: tensor<64x64xf32, #mma>, %b: !ttg.memdesc<64x64xf16, #sw, #smem>) { tt.return }
}

// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
// CHECK-NEXT: #shared = #ttg.swizzled_shared<{vec = 0, perPhase = 0, maxPhase = 0, order = [1, 0]}>
// CHECK-NEXT: #smem = #ttg.shared_memory
// CHECK-NEXT: module attributes {"ttg.num-warps" = 4 : i32} {
// CHECK-NEXT:   tt.func @f(%arg0: tensor<64x64xf32, #mma>, %arg1: !ttg.memdesc<64x64xf16, #shared, #smem>) {
// CHECK-NEXT:     tt.return
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @cluster() {
    ttng.cluster_arrive {relaxed = true}
    ttng.cluster_arrive {relaxed = false}
    ttng.cluster_wait
    tt.return
  }
}

// CHECK: module attributes {"ttg.num-warps" = 4 : i32} {
// CHECK-NEXT:   tt.func @cluster() {
// CHECK-NEXT:     ttng.cluster_arrive {relaxed = true}
// CHECK-NEXT:     ttng.cluster_arrive {relaxed = false}
// CHECK-NEXT:     ttng.cluster_wait
// CHECK-NEXT:     tt.return
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// Gluon's SharedLinearLayout buffers are tcgen05 operands (A and B) as stock accepts them.

#sa = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 8], [2, 16], [4, 32], [8, 0], [16, 0], [32, 0], [64, 0]]}, alignment = 1024>
#sb = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 8], [2, 16], [4, 32], [8, 0], [16, 0], [32, 0], [0, 64]]}, alignment = 1024>
#smem = #ttg.shared_memory
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%a: !ttg.memdesc<128x64xf16, #sa, #smem, mutable>, %b: !ttg.memdesc<64x128xf16, #sb, #smem, mutable>, %acc: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %p: i1) {
    %0 = ttng.tc_gen5_mma %a, %b, %acc[], %p, %p : !ttg.memdesc<128x64xf16, #sa, #smem, mutable>, !ttg.memdesc<64x128xf16, #sb, #smem, mutable>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
    tt.return
  }
}

// CHECK: #shared = #ttg.shared_linear<{offset = {{\[\[}}0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 8], [2, 16], [4, 32], [8, 0], [16, 0], [32, 0], [64, 0{{\]\]}}}, alignment = 1024>
// CHECK-NEXT: #shared1 = #ttg.shared_linear<{offset = {{\[\[}}0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 8], [2, 16], [4, 32], [8, 0], [16, 0], [32, 0], [0, 64{{\]\]}}}, alignment = 1024>
// CHECK-NEXT: #smem = #ttg.shared_memory
// CHECK-NEXT: #tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-NEXT:   tt.func @f(%arg0: !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, %arg1: !ttg.memdesc<64x128xf16, #shared1, #smem, mutable>, %arg2: !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>, %arg3: i1) {
// CHECK-NEXT:     %0 = ttng.tc_gen5_mma %arg0, %arg1, %arg2[], %arg3, %arg3 : !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, !ttg.memdesc<64x128xf16, #shared1, #smem, mutable>, !ttg.memdesc<128x128xf32, #tmem, #ttng.tensor_memory, mutable>
// CHECK-NEXT:     tt.return
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// ... and wgmma operands.

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
#sa = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 8], [2, 16], [4, 32], [8, 0], [16, 0], [32, 0], [64, 0]]}, alignment = 1024>
#sb = #ttg.shared_linear<{offset = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 8], [2, 16], [4, 32], [8, 0], [16, 0], [32, 0], [0, 64]]}, alignment = 1024>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @f(%a: !ttg.memdesc<128x64xf16, #sa, #smem, mutable>, %b: !ttg.memdesc<64x128xf16, #sb, #smem, mutable>, %c: tensor<128x128xf32, #mma>) -> tensor<128x128xf32, #mma> {
    %0 = ttng.warp_group_dot %a, %b, %c : !ttg.memdesc<128x64xf16, #sa, #smem, mutable> * !ttg.memdesc<64x128xf16, #sb, #smem, mutable> -> tensor<128x128xf32, #mma>
    tt.return %0 : tensor<128x128xf32, #mma>
  }
}

// CHECK: #mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 128, 16]}>
// CHECK-NEXT: #shared = #ttg.shared_linear<{offset = {{\[\[}}0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 8], [2, 16], [4, 32], [8, 0], [16, 0], [32, 0], [64, 0{{\]\]}}}, alignment = 1024>
// CHECK-NEXT: #shared1 = #ttg.shared_linear<{offset = {{\[\[}}0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [1, 8], [2, 16], [4, 32], [8, 0], [16, 0], [32, 0], [0, 64{{\]\]}}}, alignment = 1024>
// CHECK-NEXT: #smem = #ttg.shared_memory
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
// CHECK-NEXT:   tt.func @f(%arg0: !ttg.memdesc<128x64xf16, #shared, #smem, mutable>, %arg1: !ttg.memdesc<64x128xf16, #shared1, #smem, mutable>, %arg2: tensor<128x128xf32, #mma>) -> tensor<128x128xf32, #mma> {
// CHECK-NEXT:     %0 = ttng.warp_group_dot %arg0, %arg1, %arg2 : !ttg.memdesc<128x64xf16, #shared, #smem, mutable> * !ttg.memdesc<64x128xf16, #shared1, #smem, mutable> -> tensor<128x128xf32, #mma>
// CHECK-NEXT:     tt.return %0 : tensor<128x128xf32, #mma>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// A synchronous scaled tcgen05 MMA may carry barriers (stock checks that only for tc_gen5_mma).



#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
#sharedT = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 8}>
#shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 8}>
#barrier = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
  tt.func @tcgen5_mma_scaled_sync_with_barrier(
      %a: !ttg.memdesc<128x256xi8, #shared, #ttg.shared_memory>,
      %b: !ttg.memdesc<256x64xi8, #sharedT, #ttg.shared_memory>,
      %c: !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>,
      %scale_a: !ttg.memdesc<128x8xf8E4M3FN, #shared1, #ttg.shared_memory>,
      %scale_b: !ttg.memdesc<64x8xf8E4M3FN, #shared1, #ttg.shared_memory>,
      %useAcc: i1,
      %pred: i1,
      %bar: !ttg.memdesc<1xi64, #barrier, #ttg.shared_memory, mutable>,
      %barPred: i1) {
    ttng.tc_gen5_mma_scaled %a, %b, %c, %scale_a, %scale_b, %useAcc, %pred lhs = e2m1 rhs = e2m1, %bar[%barPred] :
      !ttg.memdesc<128x256xi8, #shared, #ttg.shared_memory>,
      !ttg.memdesc<256x64xi8, #sharedT, #ttg.shared_memory>,
      !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>,
      !ttg.memdesc<128x8xf8E4M3FN, #shared1, #ttg.shared_memory>,
      !ttg.memdesc<64x8xf8E4M3FN, #shared1, #ttg.shared_memory>,
      !ttg.memdesc<1xi64, #barrier, #ttg.shared_memory, mutable>
    tt.return
  }
}

// CHECK: #shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 8}>
// CHECK-NEXT: #shared1 = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, elementBitWidth = 8}>
// CHECK-NEXT: #shared2 = #ttg.nvmma_shared<{swizzlingByteWidth = 0, transposed = false, elementBitWidth = 8}>
// CHECK-NEXT: #shared3 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// CHECK-NEXT: #smem = #ttg.shared_memory
// CHECK-NEXT: #tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
// CHECK-NEXT: module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32} {
// CHECK-NEXT:   tt.func @tcgen5_mma_scaled_sync_with_barrier(%arg0: !ttg.memdesc<128x256xi8, #shared, #smem>, %arg1: !ttg.memdesc<256x64xi8, #shared1, #smem>, %arg2: !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>, %arg3: !ttg.memdesc<128x8xf8E4M3FN, #shared2, #smem>, %arg4: !ttg.memdesc<64x8xf8E4M3FN, #shared2, #smem>, %arg5: i1, %arg6: i1, %arg7: !ttg.memdesc<1xi64, #shared3, #smem, mutable>, %arg8: i1) {
// CHECK-NEXT:     ttng.tc_gen5_mma_scaled %arg0, %arg1, %arg2, %arg3, %arg4, %arg5, %arg6 lhs = e2m1 rhs = e2m1, %arg7[%arg8] : !ttg.memdesc<128x256xi8, #shared, #smem>, !ttg.memdesc<256x64xi8, #shared1, #smem>, !ttg.memdesc<128x64xf32, #tmem, #ttng.tensor_memory, mutable>, !ttg.memdesc<128x8xf8E4M3FN, #shared2, #smem>, !ttg.memdesc<64x8xf8E4M3FN, #shared2, #smem>, !ttg.memdesc<1xi64, #shared3, #smem, mutable>
// CHECK-NEXT:     tt.return
// CHECK-NEXT:   }
// CHECK-NEXT: }
