// RUN: tlx-opt %s -split-input-file --tlx-lower-to-nvvm | FileCheck %s

// Named barriers and special registers become NVVM; every other TLX op is
// left for tlx-lower-to-ttg.
// CHECK-LABEL: tt.func @nvvm_ops
// CHECK-SAME:    (%[[ID:.*]]: i32, %[[N:.*]]: i32)
tt.func @nvvm_ops(%id: i32, %n: i32) -> i64 {
  // The marker after a wait tells the stage hook (tlx.compiler.llir) that the
  // task's warps are synchronized there.
  // CHECK-NEXT: nvvm.barrier id = %[[ID]] number_of_threads = %[[N]]
  // CHECK-NEXT: llvm.inline_asm has_side_effects {{.*}}"// tlx: named barrier wait (the task's warps are synchronized)", ""
  tlx.named_barrier_wait %id, %n
  // CHECK-NEXT: nvvm.barrier.arrive id = %[[ID]] number_of_threads = %[[N]]
  tlx.named_barrier_arrive %id, %n
  // CHECK-NEXT: %[[X:.*]] = nvvm.read.ptx.sreg.tid.x : i32
  %x = tlx.thread_id 0 : i32
  // CHECK-NEXT: %[[Y:.*]] = nvvm.read.ptx.sreg.tid.y : i32
  %y = tlx.thread_id 1 : i32
  // CHECK-NEXT: %[[Z:.*]] = nvvm.read.ptx.sreg.tid.z : i32
  %z = tlx.thread_id 2 : i32
  // CHECK-NEXT: arith.addi %[[X]], %[[Y]]
  %xy = arith.addi %x, %y : i32
  // CHECK-NEXT: arith.addi %{{.*}}, %[[Z]]
  %xyz = arith.addi %xy, %z : i32
  // CHECK-NEXT: %[[CLOCK:.*]] = nvvm.read.ptx.sreg.clock64 : i64
  %clock = tlx.clock64 : i64
  // CHECK-NEXT: tt.return %[[CLOCK]]
  tt.return %clock : i64
}

// -----

// Cluster ops Triton has no op for.
// CHECK-LABEL: tt.func @cluster_ops
tt.func @cluster_ops() -> i32 {
  // CHECK-NEXT: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
  %rank = tlx.cluster_cta_rank : i32
  // CHECK-NEXT: nvvm.read.ptx.sreg.cluster.nctarank : i32
  %size = tlx.cluster_size_1d : i32
  // CHECK-NEXT: nvvm.fence.mbarrier.init
  tlx.fence_mbarrier_init_cluster
  // tlx-lower-to-ttg lowers the cluster barrier (to ttng.cluster_arrive / cluster_wait).
  // CHECK-NEXT: tlx.cluster_barrier
  tlx.cluster_barrier
  // CHECK-NEXT: tt.return %[[RANK]]
  tt.return %rank : i32
}

// -----

// Buffers, mbarriers and async tasks are not this pass's: they stay as
// they are, around the ops it lowers.
// CHECK-LABEL: tt.func @other_tlx_ops
tt.func @other_tlx_ops(%i: i32) {
  // CHECK-NEXT: %[[BUFS:.*]] = tlx.local_alloc : !tlx.buffers<2, 64x64xf16, smem>
  %bufs = tlx.local_alloc : !tlx.buffers<2, 64x64xf16, smem>
  // CHECK-NEXT: %[[BARS:.*]] = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  // CHECK-NEXT: tlx.local_view %[[BUFS]][%{{.*}}]
  %buf = tlx.local_view %bufs[%i] : !tlx.buffers<2, 64x64xf16, smem>
  // CHECK-NEXT: tlx.async_tasks {
  // CHECK-NEXT:   tlx.async_task default {
  // CHECK-NEXT:     nvvm.read.ptx.sreg.tid.x
  // CHECK:        tlx.async_task num_warps(4) {
  // CHECK-NEXT:     tlx.async_task_replica_id
  // CHECK-NEXT:     nvvm.barrier id
  // CHECK-NEXT:     llvm.inline_asm has_side_effects
  tlx.async_tasks {
    tlx.async_task default {
      %t = tlx.thread_id 0 : i32
    }
    tlx.async_task num_warps(4) {
      %r = tlx.async_task_replica_id : i32
      tlx.named_barrier_wait %r, %i
    }
  }
  tt.return
}

// -----

// Stochastic rounding: cvt.rs.satfinite as elementwise inline PTX over packs of 4 (fp8) or 2 (16-bit)
// values of a thread, the first element in the lowest lane (so listed last), one random word per pack.
// CHECK-LABEL: tt.func @stoch_round
// CHECK-SAME:    (%[[X:.*]]: tensor<256xf32, #{{.*}}>, %[[R:.*]]: tensor<256xi32, #{{.*}}>)
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
tt.func @stoch_round(%x: tensor<256xf32, #blocked>, %r: tensor<256xi32, #blocked>) -> (tensor<256xf8E4M3FN, #blocked>, tensor<256xf8E5M2, #blocked>, tensor<256xbf16, #blocked>, tensor<256xf16, #blocked>) {
  // CHECK-NEXT: %[[E4:.*]] = tt.elementwise_inline_asm "{ .reg .b32 sr_bits, sr_shifted; mov.b32 sr_bits, $5; shl.b32 sr_shifted, $6, 1; xor.b32 sr_bits, sr_bits, sr_shifted; shl.b32 sr_shifted, $7, 2; xor.b32 sr_bits, sr_bits, sr_shifted; shl.b32 sr_shifted, $8, 3; xor.b32 sr_bits, sr_bits, sr_shifted; cvt.rs.satfinite.e4m3x4.f32 $0, {$4, $3, $2, $1}, sr_bits; }" {constraints = "=r,f,f,f,f,r,r,r,r", packed_element = 4 : i32, pure = true} %[[X]], %[[R]] : tensor<256xf32, #{{.*}}>, tensor<256xi32, #{{.*}}> -> tensor<256xf8E4M3FN, #{{.*}}>
  %e4 = tlx.stoch_round %x, %r : tensor<256xf32, #blocked>, tensor<256xi32, #blocked> -> tensor<256xf8E4M3FN, #blocked>
  // CHECK-NEXT: %[[E5:.*]] = tt.elementwise_inline_asm "{{.*}}cvt.rs.satfinite.e5m2x4.f32 $0, {$4, $3, $2, $1}, sr_bits; }" {constraints = "=r,f,f,f,f,r,r,r,r", packed_element = 4 : i32, pure = true}
  %e5 = tlx.stoch_round %x, %r : tensor<256xf32, #blocked>, tensor<256xi32, #blocked> -> tensor<256xf8E5M2, #blocked>
  // CHECK-NEXT: %[[BF:.*]] = tt.elementwise_inline_asm "{ .reg .b32 sr_bits, sr_shifted; mov.b32 sr_bits, $3; shl.b32 sr_shifted, $4, 1; xor.b32 sr_bits, sr_bits, sr_shifted; cvt.rs.satfinite.bf16x2.f32 $0, $2, $1, sr_bits; }" {constraints = "=r,f,f,r,r", packed_element = 2 : i32, pure = true}
  %bf = tlx.stoch_round %x, %r : tensor<256xf32, #blocked>, tensor<256xi32, #blocked> -> tensor<256xbf16, #blocked>
  // CHECK-NEXT: %[[F16:.*]] = tt.elementwise_inline_asm "{{.*}}cvt.rs.satfinite.f16x2.f32 $0, $2, $1, sr_bits; }" {constraints = "=r,f,f,r,r", packed_element = 2 : i32, pure = true}
  %h = tlx.stoch_round %x, %r : tensor<256xf32, #blocked>, tensor<256xi32, #blocked> -> tensor<256xf16, #blocked>
  // CHECK-NEXT: tt.return %[[E4]], %[[E5]], %[[BF]], %[[F16]]
  tt.return %e4, %e5, %bf, %h : tensor<256xf8E4M3FN, #blocked>, tensor<256xf8E5M2, #blocked>, tensor<256xbf16, #blocked>, tensor<256xf16, #blocked>
}
