// RUN: tlx-opt %s -split-input-file --tlx-raise-carriers | FileCheck %s --check-prefix=RAISE
// RUN: tlx-opt %s -split-input-file --tlx-raise-carriers --tlx-assign-layouts --tlx-lower-to-ttg | FileCheck %s --check-prefix=LOWER
// RUN: tlx-opt %s -split-input-file --tlx-raise-carriers | tlx-opt --tlx-assign-layouts --tlx-lower-to-ttg | FileCheck %s --check-prefix=LOWER
// RUN: tlx-opt %s -split-input-file --tlx-raise-carriers --tlx-assign-layouts --tlx-lower-to-ttg | FileCheck %s --check-prefix=NOCAST
// The conversion leaves no cast between TLX and TritonGPU types behind.
// NOCAST-NOT: unrealized_conversion_cast
// NOCAST-NOT: !tlx.

// `with tlx.async_tasks(): with tlx.async_task(...)` as the frontend emits it: scf.if on the opaque i1 of
// a carrier call (docs/carriers.md). A default producer and a consumer task replicated twice.

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  // The launch cap of 12 warps' registers: 65536 / (12 * 32), rounded down to 8.
  // LOWER: module attributes {ttg.maxnreg = 168 : i32
  // RAISE-LABEL: tt.func public @producer_consumers
  // LOWER-LABEL: tt.func public @producer_consumers
  // LOWER-SAME:    (%[[OUT:.*]]: !tt.ptr<f32>, %[[N:.*]]: i32)
  tt.func public @producer_consumers(%out: !tt.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    // LOWER: %[[BARS:.*]] = ttg.local_alloc : () -> !ttg.memdesc<2x1xi64
    %b = tt.call @tlx.alloc_barriers.r_i64() {tlx.op = "alloc_barriers", tlx.type = "!tlx.mbarriers<2>", tlx.arrive_count = 1 : i32} : () -> i64
    %offs = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    %scale = arith.muli %n, %n : i32
    // RAISE:      tlx.async_tasks {
    // RAISE-NEXT:   tlx.async_task default {
    // RAISE-NEXT:     %[[V:.*]] = tlx.local_view
    // RAISE-NEXT:     tlx.barrier_arrive %[[V]], 1
    // RAISE-NEXT:   }
    // RAISE-NEXT:   tlx.async_task num_warps(4) registers(232) replicate(2) {
    // RAISE-NEXT:     %[[R:.*]] = tlx.async_task_replica_id : i32
    // RAISE-NEXT:     %[[W:.*]] = tlx.local_view %{{.*}}[%[[R]]]
    // RAISE-NEXT:     tlx.barrier_wait %[[W]]
    // RAISE:        }
    // RAISE-NEXT: }
    // RAISE-NOT:  scf.if
    // The producer's registers are what the consumers leave: (168 * 12 - 232 * 8) / 4 = 40 per thread.
    // LOWER: %[[SCALE:.*]] = arith.muli %[[N]], %[[N]]
    // Captures in order of first use.
    // LOWER: ttg.warp_specialize(%[[BARS]], %[[SCALE]], %[[OUT]]) attributes {requestedRegisters = array<i32: 232, 232>}
    // The default task runs on the kernel's warps and uses values from above as they are.
    // LOWER-NEXT: default {
    // LOWER-NEXT:   ttg.memdesc_index %[[BARS]][%{{.*}}]
    // LOWER-NEXT:   ttng.arrive_barrier
    // LOWER-NEXT:   ttg.warp_yield
    // LOWER-NEXT: }
    // Replica 0: the replica id is a constant, the tensor `offs` is recomputed, the scalar is a capture.
    // LOWER-NEXT: partition0(%[[B0:.*]]: !ttg.memdesc<2x1xi64, {{.*}}>, %[[S0:.*]]: i32, %[[P0:.*]]: !tt.ptr<f32>) num_warps(4) {
    // LOWER-DAG:    %[[R0:.*]] = arith.constant 0 : i32
    // LOWER-DAG:    %[[OFFS0:.*]] = tt.make_range {end = 128 : i32, start = 0 : i32}
    // LOWER:        ttg.memdesc_index %[[B0]][%[[R0]]]
    // LOWER:        arith.addi %[[R0]], %[[S0]]
    // LOWER:        tt.addptr %[[P0]]
    // LOWER:        tt.addptr %{{.*}}, %[[OFFS0]]
    // LOWER:        ttg.warp_return
    // LOWER-NEXT: }
    // LOWER-NEXT: partition1(%{{.*}}: !ttg.memdesc<2x1xi64, {{.*}}>, %{{.*}}: i32, %{{.*}}: !tt.ptr<f32>) num_warps(4) {
    // LOWER-DAG:    %[[R1:.*]] = arith.constant 1 : i32
    // LOWER:        arith.addi %[[R1]]
    // LOWER:        ttg.warp_return
    // LOWER-NEXT: } : (!ttg.memdesc<2x1xi64, {{.*}}>, i32, !tt.ptr<f32>) -> ()
    // LOWER-NOT: tlx.
    %tasks = tt.call @tlx.async_tasks.r_i1() {tlx.op = "async_tasks"} : () -> i1
    scf.if %tasks {
      %d = tt.call @tlx.async_task.r_i1() {tlx.op = "async_task", tlx.isDefault = true, tlx.replicate = 1 : i32} : () -> i1
      scf.if %d {
        %m = tt.call @tlx.local_view.a_i64_i32_r_i64(%b, %c0) {tlx.op = "local_view", tlx.type = "!tlx.mbarrier"} : (i64, i32) -> i64
        tt.call @tlx.barrier_arrive.a_i64(%m) {tlx.op = "barrier_arrive", tlx.count = 1 : i32, tlx.operand_segments = dense<[1, 0, 0]> : tensor<3xi32>} : (i64) -> ()
      }
      %c = tt.call @tlx.async_task.r_i1() {tlx.op = "async_task", tlx.isDefault = false, tlx.numWarps = 4 : i32, tlx.registers = 232 : i32, tlx.replicate = 2 : i32} : () -> i1
      scf.if %c {
        %r = tt.call @tlx.async_task_replica_id.r_i32() {tlx.op = "async_task_replica_id"} : () -> i32
        %w = tt.call @tlx.local_view.a_i64_i32_r_i64(%b, %r) {tlx.op = "local_view", tlx.type = "!tlx.mbarrier"} : (i64, i32) -> i64
        tt.call @tlx.barrier_wait.a_i64_i32(%w, %scale) {tlx.op = "barrier_wait", tlx.operand_segments = dense<[1, 1, 0]> : tensor<3xi32>} : (i64, i32) -> ()
        %row = arith.addi %r, %scale : i32
        %base = tt.addptr %out, %row : !tt.ptr<f32>, i32
        %ptrs = tt.splat %base : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
        %at = tt.addptr %ptrs, %offs : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
        %v = arith.sitofp %offs : tensor<128xi32, #blocked> to tensor<128xf32, #blocked>
        tt.store %at, %v : tensor<128x!tt.ptr<f32>, #blocked>
      }
    }
    tt.return
  }
  tt.func private @tlx.alloc_barriers.r_i64() -> i64 attributes {noinline = true} {
    %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
    tt.return %0 : i64
  }
  tt.func private @tlx.async_tasks.r_i1() -> i1 attributes {noinline = true} {
    %0 = arith.constant true
    tt.return %0 : i1
  }
  tt.func private @tlx.async_task.r_i1() -> i1 attributes {noinline = true} {
    %0 = arith.constant true
    tt.return %0 : i1
  }
  tt.func private @tlx.async_task_replica_id.r_i32() -> i32 attributes {noinline = true} {
    %0 = arith.constant 0 : i32
    tt.return %0 : i32
  }
  tt.func private @tlx.local_view.a_i64_i32_r_i64(%a: i64, %i: i32) -> i64 attributes {noinline = true} {
    tt.return %a : i64
  }
  tt.func private @tlx.barrier_arrive.a_i64(%a: i64) attributes {noinline = true} {
    tt.return
  }
  tt.func private @tlx.barrier_wait.a_i64_i32(%a: i64, %p: i32) attributes {noinline = true} {
    tt.return
  }
}

// -----

// Tasks whose body is one `if` on a runtime value: stock's canonicalizer merged each with its task's scf.if
// (the i1 of the carrier and-ed into the condition, twice for two nested ifs). The raise nests them again.
module attributes {"ttg.num-warps" = 4 : i32} {
  // RAISE-LABEL: tt.func @one_if_per_task
  // RAISE:      tlx.async_tasks {
  // RAISE-NEXT:   tlx.async_task default {
  // RAISE-NEXT:     %[[T0:.*]] = arith.constant true
  // RAISE-NEXT:     %[[C0:.*]] = arith.andi %[[T0]], %[[LEADER:.*]] : i1
  // RAISE-NEXT:     scf.if %[[C0]] {
  // RAISE-NEXT:       tt.store
  // RAISE-NEXT:     }
  // RAISE-NEXT:   }
  // RAISE-NEXT:   tlx.async_task num_warps(1) {
  // RAISE-NEXT:     %[[T1:.*]] = arith.constant true
  // RAISE-NEXT:     %[[C1:.*]] = arith.andi %[[T1]], %[[LEADER]] : i1
  // RAISE-NEXT:     %[[C2:.*]] = arith.andi %[[C1]], %[[ODD:.*]] : i1
  // RAISE-NEXT:     scf.if %[[C2]] {
  // RAISE-NEXT:       tt.store
  // RAISE-NEXT:     }
  // RAISE-NEXT:   }
  // RAISE-NEXT: }
  // LOWER-LABEL: tt.func @one_if_per_task
  // LOWER:       partition0(
  // LOWER:         scf.if
  // LOWER:           tt.store
  tt.func @one_if_per_task(%out: !tt.ptr<i32>, %leader: i1, %odd: i1) {
    %one = arith.constant 1 : i32
    %tasks = tt.call @tlx.async_tasks.r_i1() {tlx.op = "async_tasks"} : () -> i1
    scf.if %tasks {
      %d = tt.call @tlx.async_task.r_i1() {tlx.op = "async_task", tlx.isDefault = true, tlx.replicate = 1 : i32} : () -> i1
      %dl = arith.andi %d, %leader : i1
      scf.if %dl {
        tt.store %out, %one : !tt.ptr<i32>
      }
      %c = tt.call @tlx.async_task.r_i1() {tlx.op = "async_task", tlx.numWarps = 1 : i32, tlx.replicate = 1 : i32} : () -> i1
      %cl = arith.andi %c, %leader : i1
      %clo = arith.andi %cl, %odd : i1
      scf.if %clo {
        tt.store %out, %one : !tt.ptr<i32>
      }
    }
    tt.return
  }
  tt.func private @tlx.async_tasks.r_i1() -> i1 attributes {noinline = true} {
    %0 = arith.constant true
    tt.return %0 : i1
  }
  tt.func private @tlx.async_task.r_i1() -> i1 attributes {noinline = true} {
    %0 = arith.constant true
    tt.return %0 : i1
  }
}

// -----

// A task whose body was empty: canonicalization erased its scf.if, the carrier stays.
module attributes {"ttg.num-warps" = 4 : i32} {
  // RAISE-LABEL: tt.func @empty_tasks
  // RAISE:      tlx.async_tasks {
  // RAISE-NEXT:   tlx.async_task default {
  // RAISE-NEXT:   }
  // RAISE-NEXT:   tlx.async_task num_warps(1) {
  // RAISE-NEXT:   }
  // RAISE-NEXT: }
  // LOWER-LABEL: tt.func @empty_tasks
  // LOWER:      ttg.warp_specialize(){{$}}
  // LOWER-NEXT: default {
  // LOWER-NEXT:   ttg.warp_yield
  // LOWER:      partition0() num_warps(1) {
  // LOWER-NEXT:   ttg.warp_return
  tt.func @empty_tasks() {
    %tasks = tt.call @tlx.async_tasks.r_i1() {tlx.op = "async_tasks"} : () -> i1
    scf.if %tasks {
      %d = tt.call @tlx.async_task.r_i1() {tlx.op = "async_task", tlx.isDefault = true, tlx.replicate = 1 : i32} : () -> i1
      %c = tt.call @tlx.async_task.r_i1() {tlx.op = "async_task", tlx.numWarps = 1 : i32, tlx.replicate = 1 : i32} : () -> i1
    }
    tt.return
  }
  tt.func private @tlx.async_tasks.r_i1() -> i1 attributes {noinline = true} {
    %0 = arith.constant true
    tt.return %0 : i1
  }
  tt.func private @tlx.async_task.r_i1() -> i1 attributes {noinline = true} {
    %0 = arith.constant true
    tt.return %0 : i1
  }
}

// -----

// The default task asks for its budget: the launch cap is chosen so that it gets exactly that.
module attributes {"ttg.num-warps" = 4 : i32} {
  // LOWER: module attributes {ttg.maxnreg = 136 : i32
  // LOWER: ttg.warp_specialize() attributes {requestedRegisters = array<i32: 224>}
  tt.func @default_budget() {
    tlx.async_tasks {
      tlx.async_task default registers(48) {
      }
      tlx.async_task num_warps(4) registers(224) {
      }
    }
    tt.return
  }
}

// -----

// Only the default task: nothing to specialize, its body runs in place (ttg.warp_specialize needs a partition).
// LOWER-LABEL: tt.func @only_default
// LOWER-NOT:     ttg.warp_specialize
// LOWER:         tt.store
// LOWER-NEXT:    tt.return
tt.func @only_default(%p: tensor<64x!tt.ptr<i32>>, %v: tensor<64xi32>) {
  %tasks = tt.call @tlx.async_tasks.r_i1() {tlx.op = "async_tasks"} : () -> i1
  scf.if %tasks {
    %d = tt.call @tlx.async_task.r_i1() {tlx.op = "async_task", tlx.isDefault = true} : () -> i1
    scf.if %d {
      tt.store %p, %v : tensor<64x!tt.ptr<i32>>
    }
  }
  tt.return
}
tt.func private @tlx.async_tasks.r_i1() -> i1 attributes {noinline = true} {
  %0 = arith.constant true
  tt.return %0 : i1
}
tt.func private @tlx.async_task.r_i1() -> i1 attributes {noinline = true} {
  %0 = arith.constant true
  tt.return %0 : i1
}

