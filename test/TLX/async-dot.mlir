// RUN: tlx-opt %s -split-input-file --tlx-assign-layouts --tlx-lower-to-ttg | FileCheck %s

// CHECK-DAG: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 128, 16]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 8 : i32} {
  // CHECK-LABEL: tt.func @wgmma
  tt.func @wgmma(%acc: tensor<128x128xf32, #blocked>, %p: i1, %i: i32) -> tensor<128x128xf32, #blocked> {
    %a = tlx.local_alloc : !tlx.buffers<2, 128x64xf16, smem>
    %b = tlx.local_alloc : !tlx.buffers<2, 64x128xf16, smem>
    %av = tlx.local_view %a[%i] : !tlx.buffers<2, 128x64xf16, smem>
    %bv = tlx.local_view %b[%i] : !tlx.buffers<2, 64x128xf16, smem>
    // CHECK: %[[IN:.*]] = ttg.convert_layout %{{.*}} : tensor<128x128xf32, #blocked> -> tensor<128x128xf32, #[[MMA]]>
    // CHECK-NEXT: %[[D:.*]] = ttng.warp_group_dot %{{.*}}, %{{.*}}, %[[IN]], %{{.*}} {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<128x64xf16, {{.*}}> * !ttg.memdesc<64x128xf16, {{.*}}> -> tensor<128x128xf32, #[[MMA]]>
    %d = tlx.async_dot %av, %bv, %acc, %p : !tlx.buffer<128x64xf16, smem> * !tlx.buffer<64x128xf16, smem> -> tensor<128x128xf32, #blocked>
    // The wait takes the accumulator in its wgmma layout; only then is it converted back.
    // CHECK: %[[W:.*]] = ttng.warp_group_dot_wait %[[D]] {pendings = 1 : i32} : tensor<128x128xf32, #[[MMA]]>
    // CHECK-NEXT: %[[OUT:.*]] = ttg.convert_layout %[[W]] : tensor<128x128xf32, #[[MMA]]> -> tensor<128x128xf32, #blocked>
    // CHECK-NEXT: tt.return %[[OUT]]
    %w = tlx.async_dot_wait %d, 1 : tensor<128x128xf32, #blocked>
    tt.return %w : tensor<128x128xf32, #blocked>
  }
}

// -----

// M = 64 with 8 warps: two warp groups side by side along N.
// CHECK: #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 2], instrShape = [16, 64, 16]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 8 : i32} {
  tt.func @narrow(%acc: tensor<64x128xf32, #blocked>, %i: i32) {
    %a = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
    %b = tlx.local_alloc : !tlx.buffers<1, 64x128xf16, smem>
    %av = tlx.local_view %a[%i] : !tlx.buffers<1, 64x64xf16, smem>
    %bv = tlx.local_view %b[%i] : !tlx.buffers<1, 64x128xf16, smem>
    %d = tlx.async_dot %av, %bv, %acc : !tlx.buffer<64x64xf16, smem> * !tlx.buffer<64x128xf16, smem> -> tensor<64x128xf32, #blocked>
    tt.return
  }
}


// -----

// A from registers: the tensor takes the wgmma operand layout (kWidth = 32 bits of K per register).
// CHECK-DAG: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: tt.func @a_from_registers
  tt.func @a_from_registers(%a: tensor<64x32xbf16, #blocked>, %acc: tensor<64x64xf32, #blocked>, %i: i32) -> tensor<64x64xf32, #blocked> {
    %b = tlx.local_alloc : !tlx.buffers<2, 32x64xbf16, smem>
    %bv = tlx.local_view %b[%i] : !tlx.buffers<2, 32x64xbf16, smem>
    // CHECK: %[[A:.*]] = ttg.convert_layout %{{.*}} : tensor<64x32xbf16, #blocked> -> tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 2}>>
    // CHECK-NEXT: %[[ACC:.*]] = ttg.convert_layout %{{.*}} : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #[[MMA]]>
    // CHECK-NEXT: ttng.warp_group_dot %[[A]], %{{.*}}, %[[ACC]] {inputPrecision = 0 : i32, isAsync = true} : tensor<64x32xbf16, #ttg.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 2}>> * !ttg.memdesc<32x64xbf16, {{.*}}> -> tensor<64x64xf32, #[[MMA]]>
    %d = tlx.async_dot %a, %bv, %acc : tensor<64x32xbf16, #blocked> * !tlx.buffer<32x64xbf16, smem> -> tensor<64x64xf32, #blocked>
    %w = tlx.async_dot_wait %d, 0 : tensor<64x64xf32, #blocked>
    tt.return %w : tensor<64x64xf32, #blocked>
  }
}

// -----

// What a wait waits on follows the data flow of the TLX program: the result of
// a tlx.async_dot or of an earlier tlx.async_dot_wait is waited on in the wgmma
// layout; an accumulator carried by a loop is waited on as it is.
// CHECK-DAG: #[[MMA:.*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: tt.func @wait_chains
  tt.func @wait_chains(%acc: tensor<64x64xf32, #blocked>, %i: i32, %n: i32) -> tensor<64x64xf32, #blocked> {
    %a = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
    %b = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
    %av = tlx.local_view %a[%i] : !tlx.buffers<1, 64x64xf16, smem>
    %bv = tlx.local_view %b[%i] : !tlx.buffers<1, 64x64xf16, smem>
    // CHECK: %[[LOOP:.*]] = scf.for
    %r = scf.for %k = %i to %n step %i iter_args(%c = %acc) -> (tensor<64x64xf32, #blocked>) : i32 {
      // CHECK: %[[D:.*]] = ttng.warp_group_dot
      %d = tlx.async_dot %av, %bv, %c : !tlx.buffer<64x64xf16, smem> * !tlx.buffer<64x64xf16, smem> -> tensor<64x64xf32, #blocked>
      // CHECK: %[[W1:.*]] = ttng.warp_group_dot_wait %[[D]] {pendings = 1 : i32} : tensor<64x64xf32, #[[MMA]]>
      // CHECK-NEXT: ttg.convert_layout %[[W1]] : tensor<64x64xf32, #[[MMA]]> -> tensor<64x64xf32, #blocked>
      %w1 = tlx.async_dot_wait %d, 1 : tensor<64x64xf32, #blocked>
      // CHECK-NEXT: %[[W2:.*]] = ttng.warp_group_dot_wait %[[W1]] {pendings = 0 : i32} : tensor<64x64xf32, #[[MMA]]>
      // CHECK-NEXT: %[[OUT:.*]] = ttg.convert_layout %[[W2]] : tensor<64x64xf32, #[[MMA]]> -> tensor<64x64xf32, #blocked>
      %w2 = tlx.async_dot_wait %w1, 0 : tensor<64x64xf32, #blocked>
      // CHECK-NEXT: scf.yield %[[OUT]]
      scf.yield %w2 : tensor<64x64xf32, #blocked>
    }
    // CHECK: %[[LAST:.*]] = ttng.warp_group_dot_wait %[[LOOP]] {pendings = 0 : i32} : tensor<64x64xf32, #blocked>
    // CHECK-NEXT: tt.return %[[LAST]]
    %w = tlx.async_dot_wait %r, 0 : tensor<64x64xf32, #blocked>
    tt.return %w : tensor<64x64xf32, #blocked>
  }
}

// -----

// fp8 (both operands K-major: `b` a transposed NxK buffer) sums every product in the tensor core's own
// accumulator, never folding into float32, unless told otherwise, as stock tl.dot does on sm_90
// (maxNumImpreciseAcc = 2^30).
// An explicit count (here 64: fold into float32 every two k32 steps) goes to the wgmma as it is.
// CHECK-LABEL: tt.func @fp8
// CHECK: ttng.warp_group_dot {{.*}} {inputPrecision = 0 : i32, isAsync = true, maxNumImpreciseAcc = 1073741824 : i32} : !ttg.memdesc<64x32xf8E4M3FN, {{.*}}> * !ttg.memdesc<32x64xf8E4M3FN
// CHECK: ttng.warp_group_dot {{.*}} {inputPrecision = 0 : i32, isAsync = true, maxNumImpreciseAcc = 64 : i32} : !ttg.memdesc<64x32xf8E4M3FN
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @fp8(%acc: tensor<64x64xf32, #blocked>, %i: i32) {
    %a = tlx.local_alloc : !tlx.buffers<1, 64x32xf8E4M3FN, smem>
    %b = tlx.local_alloc : !tlx.buffers<1, 64x32xf8E4M3FN, smem>
    %av = tlx.local_view %a[%i] : !tlx.buffers<1, 64x32xf8E4M3FN, smem>
    %bv = tlx.local_view %b[%i] : !tlx.buffers<1, 64x32xf8E4M3FN, smem>
    %bt = tlx.local_trans %bv, [1, 0] : !tlx.buffer<64x32xf8E4M3FN, smem> -> !tlx.buffer<32x64xf8E4M3FN, smem>
    %d = tlx.async_dot %av, %bt, %acc : !tlx.buffer<64x32xf8E4M3FN, smem> * !tlx.buffer<32x64xf8E4M3FN, smem> -> tensor<64x64xf32, #blocked>
    %e = tlx.async_dot %av, %bt, %acc {maxNumImpreciseAcc = 64 : i32} : !tlx.buffer<64x32xf8E4M3FN, smem> * !tlx.buffer<32x64xf8E4M3FN, smem> -> tensor<64x64xf32, #blocked>
    tt.return
  }
}

// -----

// fp8 `a` from registers (attention's P @ V in fp8): a dot operand of the wgmma layout, four fp8 values per
// 32-bit register (kWidth = 4); `b` K-major from shared memory.
// CHECK-LABEL: tt.func @fp8_registers
// CHECK: ttng.warp_group_dot {{.*}} : tensor<64x32xf8E5M2, #ttg.dot_op<{opIdx = 0, parent = #{{.*}}, kWidth = 4}>> * !ttg.memdesc<32x64xf8E5M2
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @fp8_registers(%a: tensor<64x32xf8E5M2, #blocked>, %acc: tensor<64x64xf32, #blocked>, %i: i32) {
    %b = tlx.local_alloc : !tlx.buffers<1, 64x32xf8E5M2, smem>
    %bv = tlx.local_view %b[%i] : !tlx.buffers<1, 64x32xf8E5M2, smem>
    %bt = tlx.local_trans %bv, [1, 0] : !tlx.buffer<64x32xf8E5M2, smem> -> !tlx.buffer<32x64xf8E5M2, smem>
    %d = tlx.async_dot %a, %bt, %acc : tensor<64x32xf8E5M2, #blocked> * !tlx.buffer<32x64xf8E5M2, smem> -> tensor<64x64xf32, #blocked>
    tt.return
  }
}
