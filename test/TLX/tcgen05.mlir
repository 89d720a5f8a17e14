// RUN: tlx-opt %s -split-input-file --tlx-assign-layouts --tlx-lower-to-ttg | FileCheck %s

// Tensor memory: the default layout, one buffer of a set, tcgen05.st / tcgen05.ld in the 32x32b register
// layout (Gluon's get_tmem_reg_layout) converted from and to the user's, and a column slice.
// CHECK-DAG: #[[REG:.*]] = #ttg.blocked<{sizePerThread = [1, 128], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
// CHECK-DAG: #[[REG64:.*]] = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
// CHECK-DAG: #[[TMEM:.*]] = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>
// CHECK-DAG: #[[TMEM64:.*]] = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  // CHECK-LABEL: tt.func @tmem_load_store
  tt.func @tmem_load_store(%x: tensor<128x128xf32, #blocked>, %i: i32) -> tensor<128x64xf32, #blocked> {
    // CHECK: %[[ALLOC:.*]] = ttng.tmem_alloc : () -> !ttg.memdesc<2x128x128xf32, #[[TMEM]], #ttng.tensor_memory, mutable>
    %bufs = tlx.local_alloc : !tlx.buffers<2, 128x128xf32, tmem>
    // CHECK: %[[BUF:.*]] = ttg.memdesc_index %[[ALLOC]][%{{.*}}] : !ttg.memdesc<2x128x128xf32, #[[TMEM]], #ttng.tensor_memory, mutable> -> !ttg.memdesc<128x128xf32, #[[TMEM]], #ttng.tensor_memory, mutable>
    %buf = tlx.local_view %bufs[%i] : !tlx.buffers<2, 128x128xf32, tmem>
    // CHECK: %[[IN:.*]] = ttg.convert_layout %{{.*}} : tensor<128x128xf32, #blocked> -> tensor<128x128xf32, #[[REG]]>
    // CHECK: ttng.tmem_store %[[IN]], %[[BUF]], %{{.*}} : tensor<128x128xf32, #[[REG]]> -> !ttg.memdesc<128x128xf32, #[[TMEM]], #ttng.tensor_memory, mutable>
    tlx.local_store %x, %buf : tensor<128x128xf32, #blocked> -> !tlx.buffer<128x128xf32, tmem>
    // CHECK: %[[HALF:.*]] = ttng.tmem_subslice %[[BUF]] {N = 64 : i32} : !ttg.memdesc<128x128xf32, #[[TMEM]], #ttng.tensor_memory, mutable> -> !ttg.memdesc<128x64xf32, #[[TMEM64]], #ttng.tensor_memory, mutable, 128x128>
    %half = tlx.local_slice %buf, [0, 64] : !tlx.buffer<128x128xf32, tmem> -> !tlx.buffer<128x64xf32, tmem>
    // CHECK-NEXT: %[[V:.*]] = ttng.tmem_load %[[HALF]] : !ttg.memdesc<128x64xf32, #[[TMEM64]], #ttng.tensor_memory, mutable, 128x128> -> tensor<128x64xf32, #[[REG64]]>
    // CHECK-NEXT: %[[OUT:.*]] = ttg.convert_layout %[[V]] : tensor<128x64xf32, #[[REG64]]> -> tensor<128x64xf32, #blocked>
    // CHECK-NEXT: tt.return %[[OUT]]
    %v = tlx.local_load %half : !tlx.buffer<128x64xf32, tmem> -> tensor<128x64xf32, #blocked>
    tt.return %v : tensor<128x64xf32, #blocked>
  }
}

// -----

// 8 warps: the second warp group takes the other half of the columns; 64 rows: 16 lanes per warp, the two
// halves of a warp on the two halves of the columns. A user layout is kept.
// CHECK-DAG: #[[REG8:.*]] = #ttg.blocked<{sizePerThread = [1, 64], threadsPerWarp = [32, 1], warpsPerCTA = [4, 2], order = [0, 1]}>
// CHECK-DAG: #[[REG64ROWS:.*]] = #ttg.blocked<{sizePerThread = [1, 32], threadsPerWarp = [16, 2], warpsPerCTA = [4, 2], order = [0, 1]}>
// CHECK-DAG: #[[PACKED:.*]] = #ttng.tensor_memory_encoding<blockM = 64, blockN = 128, colStride = 2>
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 8 : i32, ttg.target = "cuda:100"} {
  // CHECK-LABEL: tt.func @eight_warps
  tt.func @eight_warps(%i: i32) {
    %bufs = tlx.local_alloc : !tlx.buffers<1, 128x128xf32, tmem>
    %buf = tlx.local_view %bufs[%i] : !tlx.buffers<1, 128x128xf32, tmem>
    // CHECK: ttng.tmem_load %{{.*}} -> tensor<128x128xf32, #[[REG8]]>
    %v = tlx.local_load %buf : !tlx.buffer<128x128xf32, tmem> -> tensor<128x128xf32, #blocked>
    // CHECK: ttng.tmem_alloc : () -> !ttg.memdesc<1x64x128xf16, #[[PACKED]], #ttng.tensor_memory, mutable>
    %hs = tlx.local_alloc {layout = #ttng.tensor_memory_encoding<blockM = 64, blockN = 128, colStride = 2>} : !tlx.buffers<1, 64x128xf16, tmem>
    %h = tlx.local_view %hs[%i] : !tlx.buffers<1, 64x128xf16, tmem>
    // CHECK: ttng.tmem_load %{{.*}} -> tensor<64x128xf16, #[[REG64ROWS]]>
    %w = tlx.local_load %h : !tlx.buffer<64x128xf16, tmem> -> tensor<64x128xf16, #blocked>
    tt.return
  }
}

// -----

// tcgen05: the accumulator in tensor memory, the operands in NVMMA shared memory; mbarriers make it
// asynchronous, each signalled when it completes; use_acc and pred default to true.
// CHECK-DAG: #[[SHARED:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  // CHECK-LABEL: tt.func @mma
  tt.func @mma(%use: i1, %i: i32) {
    %as = tlx.local_alloc : !tlx.buffers<2, 128x64xf16, smem>
    %bs = tlx.local_alloc : !tlx.buffers<2, 64x128xf16, smem>
    %accs = tlx.local_alloc : !tlx.buffers<1, 128x128xf32, tmem>
    %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<2>
    %a = tlx.local_view %as[%i] : !tlx.buffers<2, 128x64xf16, smem>
    %b = tlx.local_view %bs[%i] : !tlx.buffers<2, 64x128xf16, smem>
    %acc = tlx.local_view %accs[%i] : !tlx.buffers<1, 128x128xf32, tmem>
    %bar = tlx.local_view %bars[%i] : !tlx.mbarriers<2>
    // CHECK: %[[TRUE:.*]] = arith.constant true
    // One-CTA MMAs have no cluster barrier to drop, and no marker before them.
    // CHECK-NOT: cluster barrier
    // CHECK: ttng.tc_gen5_mma %[[A:.*]], %[[B:.*]], %[[ACC:.*]], %{{.*}}, %[[TRUE]], %[[BAR:.*]][%{{.*}}] {is_async} : !ttg.memdesc<128x64xf16, #[[SHARED]], #smem, mutable>, !ttg.memdesc<64x128xf16, #[[SHARED]], #smem, mutable>, !ttg.memdesc<128x128xf32, #{{.*}}, #ttng.tensor_memory, mutable>, !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>
    tlx.tcgen05_mma %a, %b, %acc, %use barriers(%bar) : !tlx.buffer<128x64xf16, smem>, !tlx.buffer<64x128xf16, smem>, !tlx.buffer<128x128xf32, tmem>
    // Synchronous without mbarriers; asynchronous with is_async (force_async) alone.
    // CHECK-NOT: cluster barrier
    // CHECK: ttng.tc_gen5_mma %[[A]], %[[B]], %[[ACC]], %{{.*}}, %{{.*}} : !ttg.memdesc
    tlx.tcgen05_mma %a, %b, %acc : !tlx.buffer<128x64xf16, smem>, !tlx.buffer<64x128xf16, smem>, !tlx.buffer<128x128xf32, tmem>
    // CHECK-NOT: cluster barrier
    // CHECK: ttng.tc_gen5_mma %[[A]], %[[B]], %[[ACC]], %{{.*}}, %{{.*}} {is_async} : !ttg.memdesc
    tlx.tcgen05_mma %a, %b, %acc is_async : !tlx.buffer<128x64xf16, smem>, !tlx.buffer<64x128xf16, smem>, !tlx.buffer<128x128xf32, tmem>
    // CHECK: ttng.tc_gen5_commit %[[BAR]] : !ttg.memdesc<1xi64, #{{.*}}, #smem, mutable>
    tlx.tcgen05_commit %bar
    tt.return
  }
}

// -----

// tmem_copy: tcgen05.cp from the default (swizzled NVMMA) layout of a 128-row f32 buffer.
// CHECK-DAG: #[[SW:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 32}>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  // CHECK-LABEL: tt.func @copy
  tt.func @copy(%i: i32) {
    %srcs = tlx.local_alloc : !tlx.buffers<1, 128x64xf32, smem>
    %dsts = tlx.local_alloc : !tlx.buffers<1, 128x64xf32, tmem>
    %src = tlx.local_view %srcs[%i] : !tlx.buffers<1, 128x64xf32, smem>
    %dst = tlx.local_view %dsts[%i] : !tlx.buffers<1, 128x64xf32, tmem>
    // CHECK: ttng.tmem_copy %{{.*}}, %{{.*}} : !ttg.memdesc<128x64xf32, #[[SW]], #smem, mutable>, !ttg.memdesc<128x64xf32, #{{.*}}, #ttng.tensor_memory, mutable>
    tlx.tmem_copy %src, %dst : !tlx.buffer<128x64xf32, smem>, !tlx.buffer<128x64xf32, tmem>
    tt.return
  }
}

// -----

// two_ctas: each CTA's buffers are reinterpreted as its half of the pair's operands (a: 2M rows split over
// the CTAs, b: 2x its columns, the accumulator CTASplitM = 2, twoCTAs), Triton 3.6's two-CTA form; the even
// CTA of the pair issues the MMA and the commit. Right before the MMA, the marker after which the stage hook
// deletes the cluster barrier stock Triton 3.6 puts before every two-CTA MMA (the kernel orders the pair).
// CHECK-DAG: #[[A2:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = {{\[\[}}1, 0]]}>
// CHECK-DAG: #[[B2:.*]] = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, CGALayout = {{\[\[}}0, 1]]}>
// CHECK-DAG: #[[T2:.*]] = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1, CTASplitM = 2, twoCTAs = true>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.cluster-dim-x" = 2 : i32} {
  // CHECK-LABEL: tt.func @two_ctas
  tt.func @two_ctas(%i: i32) {
    %as = tlx.local_alloc : !tlx.buffers<1, 128x64xf16, smem>
    %bs = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
    %accs = tlx.local_alloc : !tlx.buffers<1, 128x128xf32, tmem>
    %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
    %a = tlx.local_view %as[%i] : !tlx.buffers<1, 128x64xf16, smem>
    %b = tlx.local_view %bs[%i] : !tlx.buffers<1, 64x64xf16, smem>
    %acc = tlx.local_view %accs[%i] : !tlx.buffers<1, 128x128xf32, tmem>
    %bar = tlx.local_view %bars[%i] : !tlx.mbarriers<1>
    // CHECK: %[[A:.*]] = ttg.memdesc_reinterpret %{{.*}} : !ttg.memdesc<128x64xf16, #{{.*}}, #smem, mutable> -> !ttg.memdesc<256x64xf16, #[[A2]], #smem, mutable>
    // CHECK: %[[B:.*]] = ttg.memdesc_reinterpret %{{.*}} : !ttg.memdesc<64x64xf16, #{{.*}}, #smem, mutable> -> !ttg.memdesc<64x128xf16, #[[B2]], #smem, mutable>
    // CHECK: %[[ACC:.*]] = ttg.memdesc_reinterpret %{{.*}} : !ttg.memdesc<128x128xf32, #{{.*}}, #ttng.tensor_memory, mutable> -> !ttg.memdesc<256x128xf32, #[[T2]], #ttng.tensor_memory, mutable>
    // CHECK: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
    // CHECK: %[[PARITY:.*]] = arith.remui %[[RANK]], %{{.*}} : i32
    // CHECK: %[[EVEN:.*]] = arith.cmpi eq, %[[PARITY]], %{{.*}} : i32
    // CHECK: %[[PRED:.*]] = arith.andi %{{.*}}, %[[EVEN]] : i1
    // CHECK-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "// tlx: cta_group::2 MMA without a cluster barrier", ""  : () -> ()
    // CHECK-NEXT: ttng.tc_gen5_mma %[[A]], %[[B]], %[[ACC]], %{{.*}}, %[[PRED]], %{{.*}} {is_async, two_ctas}
    tlx.tcgen05_mma %a, %b, %acc barriers(%bar) two_ctas : !tlx.buffer<128x64xf16, smem>, !tlx.buffer<64x64xf16, smem>, !tlx.buffer<128x128xf32, tmem>
    // CHECK: %[[CRANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
    // CHECK: ttng.tc_gen5_commit %{{.*}}, %{{.*}} {two_ctas} : !ttg.memdesc<1xi64
    tlx.tcgen05_commit %bar two_ctas
    tt.return
  }
}

// -----

// two_ctas with `a` in tensor memory (P @ V of the public Blackwell attention): `a` becomes the pair's
// 256-row tensor memory operand like the accumulator.
// CHECK-DAG: #[[TA:.*]] = #ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1, CTASplitM = 2, twoCTAs = true>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.cluster-dim-x" = 2 : i32} {
  // CHECK-LABEL: tt.func @two_ctas_a_in_tensor_memory
  tt.func @two_ctas_a_in_tensor_memory(%i: i32) {
    %ps = tlx.local_alloc : !tlx.buffers<1, 128x64xf16, tmem>
    %vs = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
    %accs = tlx.local_alloc : !tlx.buffers<1, 128x128xf32, tmem>
    %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
    %p = tlx.local_view %ps[%i] : !tlx.buffers<1, 128x64xf16, tmem>
    %v = tlx.local_view %vs[%i] : !tlx.buffers<1, 64x64xf16, smem>
    %acc = tlx.local_view %accs[%i] : !tlx.buffers<1, 128x128xf32, tmem>
    %bar = tlx.local_view %bars[%i] : !tlx.mbarriers<1>
    // CHECK: %[[P:.*]] = ttg.memdesc_reinterpret %{{.*}} : !ttg.memdesc<128x64xf16, #{{.*}}, #ttng.tensor_memory, mutable> -> !ttg.memdesc<256x64xf16, #[[TA]], #ttng.tensor_memory, mutable>
    // CHECK: ttng.tc_gen5_mma %[[P]], %{{.*}}, %{{.*}} {is_async, two_ctas}
    tlx.tcgen05_mma %p, %v, %acc barriers(%bar) two_ctas : !tlx.buffer<128x64xf16, tmem>, !tlx.buffer<64x64xf16, smem>, !tlx.buffer<128x128xf32, tmem>
    tt.return
  }

  // Asynchronous without mbarriers (force_async; a later tcgen05_commit tracks it): Triton 3.6 would issue a
  // two-CTA MMA without mbarriers synchronously, so it gets one, allocated where the function starts, whose
  // commit is predicated off.
  // CHECK-LABEL: tt.func @two_ctas_force_async
  // CHECK-NEXT:    %[[UNUSED:.*]] = ttg.local_alloc : () -> !ttg.memdesc<1xi64
  // CHECK:         %[[OFF:.*]] = arith.constant false
  // CHECK:         ttng.tc_gen5_mma %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[UNUSED]][%[[OFF]]] {is_async, two_ctas}
  tt.func @two_ctas_force_async(%i: i32) {
    %as = tlx.local_alloc : !tlx.buffers<1, 128x64xf16, smem>
    %bs = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
    %accs = tlx.local_alloc : !tlx.buffers<1, 128x128xf32, tmem>
    %a = tlx.local_view %as[%i] : !tlx.buffers<1, 128x64xf16, smem>
    %b = tlx.local_view %bs[%i] : !tlx.buffers<1, 64x64xf16, smem>
    %acc = tlx.local_view %accs[%i] : !tlx.buffers<1, 128x128xf32, tmem>
    tlx.tcgen05_mma %a, %b, %acc is_async two_ctas : !tlx.buffer<128x64xf16, smem>, !tlx.buffer<64x64xf16, smem>, !tlx.buffer<128x128xf32, tmem>
    tt.return
  }
}

// -----

// Outside any function (a fragment, as tlx-opt reads them) the unsignalled
// mbarrier is allocated where the op's block starts.
// CHECK-LABEL: module
// CHECK-NEXT:    %[[UNUSED:.*]] = ttg.local_alloc : () -> !ttg.memdesc<1xi64
// CHECK:         ttng.tc_gen5_mma %{{.*}}, %[[UNUSED]][%{{.*}}] {is_async, two_ctas}
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.cluster-dim-x" = 2 : i32} {
  %i = arith.constant 0 : i32
  %as = tlx.local_alloc : !tlx.buffers<1, 128x64xf16, smem>
  %bs = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
  %accs = tlx.local_alloc : !tlx.buffers<1, 128x128xf32, tmem>
  %a = tlx.local_view %as[%i] : !tlx.buffers<1, 128x64xf16, smem>
  %b = tlx.local_view %bs[%i] : !tlx.buffers<1, 64x64xf16, smem>
  %acc = tlx.local_view %accs[%i] : !tlx.buffers<1, 128x128xf32, tmem>
  tlx.tcgen05_mma %a, %b, %acc is_async two_ctas : !tlx.buffer<128x64xf16, smem>, !tlx.buffer<64x64xf16, smem>, !tlx.buffer<128x128xf32, tmem>
}
