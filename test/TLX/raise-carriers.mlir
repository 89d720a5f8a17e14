// RUN: tlx-opt %s -split-input-file --tlx-raise-carriers | FileCheck %s

// Carriers as docs/carriers.md specifies them, after stock TTGIR conversion.

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  // CHECK-LABEL: tt.func public @tma_copy
  // CHECK-SAME:    (%[[DESC:.*]]: !tt.tensordesc<tensor<64x64xf16>>, %[[X:.*]]: i32)
  tt.func public @tma_copy(%desc: !tt.tensordesc<tensor<64x64xf16>>, %x: i32) {
    %c0 = arith.constant 0 : i32
    %true = arith.constant true
    // CHECK:      %[[BUFS:.*]] = tlx.local_alloc : !tlx.buffers<2, 64x64xf16, smem>
    %h = tt.call @tlx.local_alloc.r_i64() {tlx.op = "local_alloc", tlx.operand_segments = dense<0> : tensor<1xi32>, tlx.type = "!tlx.buffers<2, 64x64xf16, smem>"} : () -> i64
    // CHECK-NEXT: %[[BARS:.*]] = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<2>
    %b = tt.call @tlx.alloc_barriers.r_i64() {tlx.op = "alloc_barriers", tlx.type = "!tlx.mbarriers<2>", tlx.arrive_count = 1 : i32} : () -> i64
    // CHECK-NEXT: %[[BUF:.*]] = tlx.local_view %[[BUFS]][%{{.*}}] : !tlx.buffers<2, 64x64xf16, smem>
    %v = tt.call @tlx.local_view.a_i64_i32_r_i64(%h, %c0) {tlx.op = "local_view", tlx.type = "!tlx.buffer<64x64xf16, smem>"} : (i64, i32) -> i64
    // CHECK-NEXT: %[[BAR:.*]] = tlx.local_view %[[BARS]][%{{.*}}] : !tlx.mbarriers<2>
    %m = tt.call @tlx.local_view.a_i64_i32_r_i64(%b, %c0) {tlx.op = "local_view", tlx.type = "!tlx.mbarrier"} : (i64, i32) -> i64
    // CHECK-NEXT: tlx.barrier_expect_bytes %[[BAR]], 8192 : !tlx.mbarrier
    tt.call @tlx.barrier_expect_bytes.a_i64(%m) {tlx.op = "barrier_expect_bytes", tlx.bytes = 8192 : i32, tlx.operand_segments = dense<[1, 0]> : tensor<2xi32>} : (i64) -> ()
    // CHECK-NEXT: tlx.async_descriptor_load %[[DESC]][%[[X]], %{{.*}}], %[[BUF]], %[[BAR]], %{{.*}} :
    tt.call @tlx.async_descriptor_load.a_d_i32_i32_i64_i64_i1(%desc, %x, %c0, %v, %m, %true) {tlx.op = "async_descriptor_load", tlx.operand_segments = dense<[1, 2, 1, 1, 1, 0]> : tensor<6xi32>} : (!tt.tensordesc<tensor<64x64xf16>>, i32, i32, i64, i64, i1) -> ()
    // CHECK-NEXT: tlx.barrier_wait %[[BAR]], %{{.*}} : !tlx.mbarrier
    tt.call @tlx.barrier_wait.a_i64_i32(%m, %c0) {tlx.op = "barrier_wait", tlx.operand_segments = dense<[1, 1, 0]> : tensor<3xi32>} : (i64, i32) -> ()
    // CHECK-NEXT: %[[T:.*]] = tlx.local_load %[[BUF]] : !tlx.buffer<64x64xf16, smem> -> tensor<64x64xf16, #blocked>
    %hs = tt.splat %v : i64 -> tensor<64x64xi64, #blocked>
    %t = tt.elementwise_inline_asm "tlx.local_load" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tlx.op = "local_load"} %hs : tensor<64x64xi64, #blocked> -> tensor<64x64xf16, #blocked>
    // CHECK-NEXT: tlx.local_store %[[T]], %[[BUF]] : tensor<64x64xf16, #blocked> -> !tlx.buffer<64x64xf16, smem>
    %d = tt.elementwise_inline_asm "tlx.local_store" {constraints = "=r,r,r", packed_element = 1 : i32, pure = false, tlx.op = "local_store"} %t, %hs : tensor<64x64xf16, #blocked>, tensor<64x64xi64, #blocked> -> tensor<64x64xi1, #blocked>
    // CHECK-NEXT: tlx.fence_async_shared
    tt.call @tlx.fence_async_shared() {tlx.op = "fence_async_shared"} : () -> ()
    // CHECK-NEXT: tlx.async_descriptor_store %[[DESC]][%[[X]], %{{.*}}], %[[BUF]]
    tt.call @tlx.async_descriptor_store.a_d_i32_i32_i64(%desc, %x, %c0, %v) {tlx.op = "async_descriptor_store", tlx.operand_segments = dense<[1, 2, 1]> : tensor<3xi32>} : (!tt.tensordesc<tensor<64x64xf16>>, i32, i32, i64) -> ()
    // CHECK-NEXT: tlx.async_descriptor_store_wait 0
    tt.call @tlx.async_descriptor_store_wait() {tlx.op = "async_descriptor_store_wait", tlx.pendings = 0 : i32} : () -> ()
    // CHECK-NEXT: %[[TID:.*]] = tlx.thread_id 0 : i32
    %tid = tt.call @tlx.thread_id.r_i32() {tlx.op = "thread_id", tlx.axis = 0 : i32} : () -> i32
    // CHECK-NEXT: arith.addi %[[TID]], %[[X]]
    %sum = arith.addi %tid, %x : i32
    // CHECK-NEXT: tt.return
    tt.return
  }
  // The carrier functions are gone.
  // CHECK-NOT: tt.func private @tlx.
  tt.func private @tlx.local_alloc.r_i64() -> i64 attributes {noinline = true} {
    %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
    tt.return %0 : i64
  }
  tt.func private @tlx.alloc_barriers.r_i64() -> i64 attributes {noinline = true} {
    %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
    tt.return %0 : i64
  }
  tt.func private @tlx.local_view.a_i64_i32_r_i64(%h: i64, %i: i32) -> i64 attributes {noinline = true} {
    %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
    tt.return %0 : i64
  }
  tt.func private @tlx.barrier_expect_bytes.a_i64(%h: i64) attributes {noinline = true} {
    tt.return
  }
  tt.func private @tlx.async_descriptor_load.a_d_i32_i32_i64_i64_i1(%d: !tt.tensordesc<tensor<64x64xf16>>, %x: i32, %y: i32, %b: i64, %m: i64, %p: i1) attributes {noinline = true} {
    tt.return
  }
  tt.func private @tlx.barrier_wait.a_i64_i32(%h: i64, %p: i32) attributes {noinline = true} {
    tt.return
  }
  tt.func private @tlx.fence_async_shared() attributes {noinline = true} {
    tt.return
  }
  tt.func private @tlx.async_descriptor_store.a_d_i32_i32_i64(%d: !tt.tensordesc<tensor<64x64xf16>>, %x: i32, %y: i32, %b: i64) attributes {noinline = true} {
    tt.return
  }
  tt.func private @tlx.async_descriptor_store_wait() attributes {noinline = true} {
    tt.return
  }
  tt.func private @tlx.thread_id.r_i32() -> i32 attributes {noinline = true} {
    %0 = tt.elementwise_inline_asm "" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
    tt.return %0 : i32
  }
}

// -----

// A register operand of async_dot rides its own carrier, linked by number (tlx.linked_a); `a` is not among the
// dot's carried operands.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: tt.func @register_operand
  // CHECK-SAME:    (%[[A:.*]]: tensor<64x64xf16, #blocked>, %[[ACC:.*]]: tensor<64x64xf32, #blocked>)
  tt.func @register_operand(%a: tensor<64x64xf16, #blocked>, %acc: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %h = tt.call @tlx.local_alloc.r_i64() {tlx.op = "local_alloc", tlx.operand_segments = dense<0> : tensor<1xi32>, tlx.type = "!tlx.buffers<1, 64x64xf16, smem>"} : () -> i64
    %c0 = arith.constant 0 : i32
    %v = tt.call @tlx.local_view.a_i64_i32_r_i64(%h, %c0) {tlx.op = "local_view", tlx.type = "!tlx.buffer<64x64xf16, smem>"} : (i64, i32) -> i64
    // CHECK: %[[B:.*]] = tlx.local_view
    // CHECK-NEXT: %[[D:.*]] = tlx.async_dot %[[A]], %[[B]], %[[ACC]] : tensor<64x64xf16, #blocked> * !tlx.buffer<64x64xf16, smem> -> tensor<64x64xf32, #blocked>
    // CHECK-NOT: elementwise_inline_asm
    %m = tt.elementwise_inline_asm "tlx.linked_operand" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tlx.link = 3 : i32, tlx.op = "linked_operand"} %a : tensor<64x64xf16, #blocked> -> tensor<64x64xf16, #blocked>
    %hs = tt.splat %v : i64 -> tensor<64x64xi64, #blocked>
    %d = tt.elementwise_inline_asm "tlx.async_dot" {constraints = "=r,l,r", packed_element = 1 : i32, pure = false, tlx.linked_a = 3 : i32, tlx.op = "async_dot", tlx.operand_segments = dense<[1, 1, 1, 0]> : tensor<4xi32>} %hs, %acc : tensor<64x64xi64, #blocked>, tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked>
    tt.return %d : tensor<64x64xf32, #blocked>
  }
  tt.func private @tlx.local_alloc.r_i64() -> i64 attributes {noinline = true} {
    %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
    tt.return %0 : i64
  }
  tt.func private @tlx.local_view.a_i64_i32_r_i64(%a: i64, %i: i32) -> i64 attributes {noinline = true} {
    tt.return %a : i64
  }
}

// -----

// Two carriers read one buffer through one splat (CSE merges the splats): raised once, erased once.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: tt.func @shared_splat
  tt.func @shared_splat(%acc: tensor<64x64xf32, #blocked>) -> tensor<64x64xf32, #blocked> {
    %h = tt.call @tlx.local_alloc.r_i64() {tlx.op = "local_alloc", tlx.operand_segments = dense<0> : tensor<1xi32>, tlx.type = "!tlx.buffers<1, 64x64xf16, smem>"} : () -> i64
    %c0 = arith.constant 0 : i32
    %v = tt.call @tlx.local_view.a_i64_i32_r_i64(%h, %c0) {tlx.op = "local_view", tlx.type = "!tlx.buffer<64x64xf16, smem>"} : (i64, i32) -> i64
    // CHECK: %[[B:.*]] = tlx.local_view
    // CHECK-NEXT: %[[D1:.*]] = tlx.async_dot %[[B]], %[[B]], %{{.*}}
    // CHECK-NEXT: %[[D2:.*]] = tlx.async_dot %[[B]], %[[B]], %[[D1]]
    // CHECK-NEXT: tt.return %[[D2]]
    %hs = tt.splat %v : i64 -> tensor<64x64xi64, #blocked>
    %d1 = tt.elementwise_inline_asm "tlx.async_dot" {constraints = "=r,l,l,r", packed_element = 1 : i32, pure = false, tlx.op = "async_dot", tlx.operand_segments = dense<[1, 1, 1, 0]> : tensor<4xi32>} %hs, %hs, %acc : tensor<64x64xi64, #blocked>, tensor<64x64xi64, #blocked>, tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked>
    %d2 = tt.elementwise_inline_asm "tlx.async_dot" {constraints = "=r,l,l,r", packed_element = 1 : i32, pure = false, tlx.op = "async_dot", tlx.operand_segments = dense<[1, 1, 1, 0]> : tensor<4xi32>} %hs, %hs, %d1 : tensor<64x64xi64, #blocked>, tensor<64x64xi64, #blocked>, tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked>
    tt.return %d2 : tensor<64x64xf32, #blocked>
  }
  tt.func private @tlx.local_alloc.r_i64() -> i64 attributes {noinline = true} {
    %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
    tt.return %0 : i64
  }
  tt.func private @tlx.local_view.a_i64_i32_r_i64(%a: i64, %i: i32) -> i64 attributes {noinline = true} {
    tt.return %a : i64
  }
}

// -----

// use_acc rides as a splat i1; a constant one arrives folded into a dense splat constant.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: tt.func @use_acc
  // CHECK-SAME:    (%[[ACC:.*]]: tensor<64x64xf32, #blocked>, %[[USE:.*]]: i1)
  tt.func @use_acc(%acc: tensor<64x64xf32, #blocked>, %use: i1) -> tensor<64x64xf32, #blocked> {
    %h = tt.call @tlx.local_alloc.r_i64() {tlx.op = "local_alloc", tlx.operand_segments = dense<0> : tensor<1xi32>, tlx.type = "!tlx.buffers<1, 64x64xf16, smem>"} : () -> i64
    %c0 = arith.constant 0 : i32
    %v = tt.call @tlx.local_view.a_i64_i32_r_i64(%h, %c0) {tlx.op = "local_view", tlx.type = "!tlx.buffer<64x64xf16, smem>"} : (i64, i32) -> i64
    %hs = tt.splat %v : i64 -> tensor<64x64xi64, #blocked>
    // CHECK: %[[B:.*]] = tlx.local_view
    // CHECK-NEXT: %[[D1:.*]] = tlx.async_dot %[[B]], %[[B]], %[[ACC]], %[[USE]] :
    %us = tt.splat %use : i1 -> tensor<64x64xi1, #blocked>
    %d1 = tt.elementwise_inline_asm "tlx.async_dot" {constraints = "=r,l,l,r,r", packed_element = 1 : i32, pure = false, tlx.op = "async_dot", tlx.operand_segments = dense<1> : tensor<4xi32>} %hs, %hs, %acc, %us : tensor<64x64xi64, #blocked>, tensor<64x64xi64, #blocked>, tensor<64x64xf32, #blocked>, tensor<64x64xi1, #blocked> -> tensor<64x64xf32, #blocked>
    // CHECK: %[[FALSE:.*]] = arith.constant false
    // CHECK-NEXT: %[[D2:.*]] = tlx.async_dot %[[B]], %[[B]], %[[D1]], %[[FALSE]] :
    %no = arith.constant dense<false> : tensor<64x64xi1, #blocked>
    %d2 = tt.elementwise_inline_asm "tlx.async_dot" {constraints = "=r,l,l,r,r", packed_element = 1 : i32, pure = false, tlx.op = "async_dot", tlx.operand_segments = dense<1> : tensor<4xi32>} %hs, %hs, %d1, %no : tensor<64x64xi64, #blocked>, tensor<64x64xi64, #blocked>, tensor<64x64xf32, #blocked>, tensor<64x64xi1, #blocked> -> tensor<64x64xf32, #blocked>
    // CHECK-NEXT: tt.return %[[D2]]
    tt.return %d2 : tensor<64x64xf32, #blocked>
  }
  tt.func private @tlx.local_alloc.r_i64() -> i64 attributes {noinline = true} {
    %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
    tt.return %0 : i64
  }
  tt.func private @tlx.local_view.a_i64_i32_r_i64(%a: i64, %i: i32) -> i64 attributes {noinline = true} {
    tt.return %a : i64
  }
}

// -----

// A buffer chosen at run time (`b = a[0] if c else a[1]`, a CTA's half of a buffer in public kernels): each TLX
// op that uses the choice runs in an `if` on the same condition, on the view each branch chose.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: tt.func @chosen_at_run_time
  // CHECK-SAME:    (%[[C:.*]]: i1, %[[T:.*]]: tensor<64x64xf16, #blocked>)
  tt.func @chosen_at_run_time(%c: i1, %t: tensor<64x64xf16, #blocked>) -> tensor<64x64xf16, #blocked> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // CHECK: %[[BUFS:.*]] = tlx.local_alloc
    %h = tt.call @tlx.local_alloc.r_i64() {tlx.op = "local_alloc", tlx.operand_segments = dense<0> : tensor<1xi32>, tlx.type = "!tlx.buffers<2, 64x64xf16, smem>"} : () -> i64
    // The choice itself no longer reaches its uses.
    // CHECK: scf.if %[[C]] -> (i64)
    // CHECK: arith.constant 0 : i64
    %v = scf.if %c -> (i64) {
      %a = tt.call @tlx.local_view.a_i64_i32_r_i64(%h, %c0) {tlx.op = "local_view", tlx.type = "!tlx.buffer<64x64xf16, smem>"} : (i64, i32) -> i64
      scf.yield %a : i64
    } else {
      %b = tt.call @tlx.local_view.a_i64_i32_r_i64(%h, %c1) {tlx.op = "local_view", tlx.type = "!tlx.buffer<64x64xf16, smem>"} : (i64, i32) -> i64
      scf.yield %b : i64
    }
    %hs = tt.splat %v : i64 -> tensor<64x64xi64, #blocked>
    // CHECK:      scf.if %[[C]] {
    // CHECK-NEXT:   %[[A:.*]] = tlx.local_view %[[BUFS]][%{{.*}}] :
    // CHECK-NEXT:   tlx.local_store %[[T]], %[[A]] :
    // CHECK-NEXT: } else {
    // CHECK-NEXT:   %[[B:.*]] = tlx.local_view %[[BUFS]][%{{.*}}] :
    // CHECK-NEXT:   tlx.local_store %[[T]], %[[B]] :
    // CHECK-NEXT: }
    %d = tt.elementwise_inline_asm "tlx.local_store" {constraints = "=r,r,r", packed_element = 1 : i32, pure = false, tlx.op = "local_store"} %t, %hs : tensor<64x64xf16, #blocked>, tensor<64x64xi64, #blocked> -> tensor<64x64xi1, #blocked>
    // CHECK-NEXT: %[[L:.*]] = scf.if %[[C]] -> (tensor<64x64xf16, #blocked>) {
    // CHECK-NEXT:   %[[A2:.*]] = tlx.local_view %[[BUFS]][%{{.*}}] :
    // CHECK-NEXT:   %[[LA:.*]] = tlx.local_load %[[A2]] :
    // CHECK-NEXT:   scf.yield %[[LA]]
    // CHECK-NEXT: } else {
    // CHECK-NEXT:   %[[B2:.*]] = tlx.local_view %[[BUFS]][%{{.*}}] :
    // CHECK-NEXT:   %[[LB:.*]] = tlx.local_load %[[B2]] :
    // CHECK-NEXT:   scf.yield %[[LB]]
    // CHECK-NEXT: }
    %l = tt.elementwise_inline_asm "tlx.local_load" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tlx.op = "local_load"} %hs : tensor<64x64xi64, #blocked> -> tensor<64x64xf16, #blocked>
    // CHECK-NEXT: tt.return %[[L]]
    tt.return %l : tensor<64x64xf16, #blocked>
  }
  tt.func private @tlx.local_alloc.r_i64() -> i64 attributes {noinline = true} {
    %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
    tt.return %0 : i64
  }
  tt.func private @tlx.local_view.a_i64_i32_r_i64(%a: i64, %i: i32) -> i64 attributes {noinline = true} {
    tt.return %a : i64
  }
}

// -----

// A view a loop carries (taken before the loop and again in its body, used in
// the next iteration) is carried as its index: the body and the code after the
// loop take the view again from the same buffers.
// CHECK-LABEL: tt.func @view_carried_by_a_loop
// CHECK:       %[[BUFS:.*]] = tlx.local_alloc : !tlx.buffers<2, 128xf32, smem>
// CHECK:       %[[LAST:.*]] = scf.for {{.*}} iter_args(%[[I:.*]] = %[[FIRST:.*]]) -> (i32) : i32 {
// CHECK-NEXT:    %[[VIEW:.*]] = tlx.local_view %[[BUFS]][%[[I]]]
// CHECK:         tlx.local_load %[[VIEW]]
// CHECK:         scf.yield %{{.*}} : i32
// CHECK:       %[[AFTER:.*]] = tlx.local_view %[[BUFS]][%[[LAST]]]
// CHECK:       tlx.local_load %[[AFTER]]
tt.func @view_carried_by_a_loop(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %h = tt.call @tlx.local_alloc.r_i64() {tlx.op = "local_alloc", tlx.operand_segments = dense<0> : tensor<1xi32>, tlx.type = "!tlx.buffers<2, 128xf32, smem>"} : () -> i64
  %v0 = tt.call @tlx.local_view.a_i64i32_r_i64(%h, %c0) {tlx.op = "local_view", tlx.type = "!tlx.buffer<128xf32, smem>"} : (i64, i32) -> i64
  %last = scf.for %i = %c1 to %n step %c1 iter_args(%v = %v0) -> (i64) : i32 {
    %k = arith.remsi %i, %c2 : i32
    %next = tt.call @tlx.local_view.a_i64i32_r_i64(%h, %k) {tlx.op = "local_view", tlx.type = "!tlx.buffer<128xf32, smem>"} : (i64, i32) -> i64
    %s = tt.splat %v : i64 -> tensor<128xi64>
    %x = tt.elementwise_inline_asm "tlx.local_load" {constraints = "=r,l", packed_element = 1 : i32, pure = false, tlx.op = "local_load"} %s : tensor<128xi64> -> tensor<128xf32>
    scf.yield %next : i64
  }
  %s = tt.splat %last : i64 -> tensor<128xi64>
  %y = tt.elementwise_inline_asm "tlx.local_load" {constraints = "=r,l", packed_element = 1 : i32, pure = false, tlx.op = "local_load"} %s : tensor<128xi64> -> tensor<128xf32>
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
