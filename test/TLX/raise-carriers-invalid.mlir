// Malformed carriers and escaping handles are reported at the carrier; what the
// contract lets through, the raised op's verifier judges.
// RUN: tlx-opt %s -split-input-file --tlx-raise-carriers -verify-diagnostics

tt.func @no_type() {
  // expected-error @below {{malformed TLX carrier for tlx.local_alloc: no tlx.type attribute}}
  %h = tt.call @tlx.local_alloc.r_i64() {tlx.op = "local_alloc", tlx.operand_segments = dense<0> : tensor<1xi32>} : () -> i64
  tt.return
}
tt.func private @tlx.local_alloc.r_i64() -> i64 attributes {noinline = true} {
  %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
  tt.return %0 : i64
}

// -----

tt.func @empty_type() {
  // expected-error @below {{tlx.local_alloc: invalid result type '': it is empty}}
  %h = tt.call @tlx.local_alloc.r_i64() {tlx.op = "local_alloc", tlx.operand_segments = dense<0> : tensor<1xi32>, tlx.type = ""} : () -> i64
  tt.return
}
tt.func private @tlx.local_alloc.r_i64() -> i64 attributes {noinline = true} {
  %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
  tt.return %0 : i64
}

// -----

tt.func @huge_buffers() {
  // expected-error @below {{tlx.local_alloc: invalid result type '!tlx.buffers<16777216, 128x128xf32, smem>': a TLX allocation of 16777216 buffers of 2-D 'f32' needs 1099511627776 bytes}}
  %h = tt.call @tlx.local_alloc.r_i64() {tlx.op = "local_alloc", tlx.operand_segments = dense<0> : tensor<1xi32>, tlx.type = "!tlx.buffers<16777216, 128x128xf32, smem>"} : () -> i64
  tt.return
}
tt.func private @tlx.local_alloc.r_i64() -> i64 attributes {noinline = true} {
  %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
  tt.return %0 : i64
}

// -----

tt.func @bad_type() {
  // expected-error @below {{'tlx.local_alloc' op result #0 must be N equally shaped buffers in one storage kind, but got '!tlx.mbarriers<2>'}}
  %h = tt.call @tlx.local_alloc.r_i64() {tlx.op = "local_alloc", tlx.operand_segments = dense<0> : tensor<1xi32>, tlx.type = "!tlx.mbarriers<2>"} : () -> i64
  tt.return
}
tt.func private @tlx.local_alloc.r_i64() -> i64 attributes {noinline = true} {
  %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
  tt.return %0 : i64
}

// -----

tt.func @unknown_op() {
  // expected-error @below {{unknown TLX operation tlx.teleport (this TLX compiler does not implement it)}}
  tt.call @tlx.teleport() {tlx.op = "teleport"} : () -> ()
  tt.return
}
tt.func private @tlx.teleport() attributes {noinline = true} {
  tt.return
}

// -----

tt.func @unknown_attribute() {
  // expected-error @below {{malformed TLX carrier for tlx.fence_async_shared: tlx.op `fence_async_shared` has no attribute `color`}}
  tt.call @tlx.fence_async_shared() {tlx.op = "fence_async_shared", tlx.color = 1 : i32} : () -> ()
  tt.return
}
tt.func private @tlx.fence_async_shared() attributes {noinline = true} {
  tt.return
}

// -----

tt.func @missing_attribute() {
  // expected-error @below {{malformed TLX carrier for tlx.alloc_barriers: no tlx.arrive_count attribute}}
  %b = tt.call @tlx.alloc_barriers.r_i64() {tlx.op = "alloc_barriers", tlx.type = "!tlx.mbarriers<2>"} : () -> i64
  tt.return
}
tt.func private @tlx.alloc_barriers.r_i64() -> i64 attributes {noinline = true} {
  %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
  tt.return %0 : i64
}

// -----

tt.func @attribute_of_another_kind() {
  // expected-error @below {{malformed TLX carrier for tlx.alloc_barriers: tlx.arrive_count = "one" does not encode the attribute}}
  %b = tt.call @tlx.alloc_barriers.r_i64() {tlx.op = "alloc_barriers", tlx.type = "!tlx.mbarriers<2>", tlx.arrive_count = "one"} : () -> i64
  tt.return
}
tt.func private @tlx.alloc_barriers.r_i64() -> i64 attributes {noinline = true} {
  %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
  tt.return %0 : i64
}

// -----

tt.func @enum_out_of_range(%p: tensor<128x!tt.ptr<f32>>) {
  %h = tt.call @tlx.local_alloc.r_i64() {tlx.op = "local_alloc", tlx.operand_segments = dense<0> : tensor<1xi32>, tlx.type = "!tlx.buffers<1, 128xf32, smem>"} : () -> i64
  %c0 = arith.constant 0 : i32
  %v = tt.call @tlx.local_view.a_i64i32_r_i64(%h, %c0) {tlx.op = "local_view", tlx.type = "!tlx.buffer<128xf32, smem>"} : (i64, i32) -> i64
  %hs = tt.splat %v : i64 -> tensor<128xi64>
  // expected-error @below {{malformed TLX carrier for tlx.async_load: tlx.cache = 99 : i32 is not a valid value of the attribute}}
  %d = tt.elementwise_inline_asm "tlx.async_load" {constraints = "=r,l,l", packed_element = 1 : i32, pure = false, tlx.op = "async_load", tlx.cache = 99 : i32, tlx.operand_segments = dense<[1, 1, 0, 0]> : tensor<4xi32>} %p, %hs : tensor<128x!tt.ptr<f32>>, tensor<128xi64> -> tensor<128xi1>
  tt.return
}
tt.func private @tlx.local_alloc.r_i64() -> i64 attributes {noinline = true} {
  %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
  tt.return %0 : i64
}
tt.func private @tlx.local_view.a_i64i32_r_i64(%h: i64, %i: i32) -> i64 attributes {noinline = true} {
  tt.return %h : i64
}

// -----

tt.func @no_segments(%desc: !tt.tensordesc<tensor<64x64xf16>>, %x: i32) {
  %h = tt.call @tlx.local_alloc.r_i64() {tlx.op = "local_alloc", tlx.operand_segments = dense<0> : tensor<1xi32>, tlx.type = "!tlx.buffers<1, 64x64xf16, smem>"} : () -> i64
  %v = tt.call @tlx.local_view.a_i64i32_r_i64(%h, %x) {tlx.op = "local_view", tlx.type = "!tlx.buffer<64x64xf16, smem>"} : (i64, i32) -> i64
  // expected-error @below {{malformed TLX carrier for tlx.async_descriptor_store: needs tlx.operand_segments with 3 counts, one per operand}}
  tt.call @tlx.async_descriptor_store.a_d64x64xf16i32i32i64(%desc, %x, %x, %v) {tlx.op = "async_descriptor_store"} : (!tt.tensordesc<tensor<64x64xf16>>, i32, i32, i64) -> ()
  tt.return
}
tt.func private @tlx.local_alloc.r_i64() -> i64 attributes {noinline = true} {
  %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
  tt.return %0 : i64
}
tt.func private @tlx.local_view.a_i64i32_r_i64(%h: i64, %i: i32) -> i64 attributes {noinline = true} {
  tt.return %h : i64
}
tt.func private @tlx.async_descriptor_store.a_d64x64xf16i32i32i64(%d: !tt.tensordesc<tensor<64x64xf16>>, %x: i32, %y: i32, %b: i64) attributes {noinline = true} {
  tt.return
}

// -----

tt.func @segment_beyond_arity(%p: i1) {
  %b = tt.call @tlx.alloc_barriers.r_i64() {tlx.op = "alloc_barriers", tlx.type = "!tlx.mbarriers<1>", tlx.arrive_count = 1 : i32} : () -> i64
  %c0 = arith.constant 0 : i32
  %m = tt.call @tlx.local_view.a_i64i32_r_i64(%b, %c0) {tlx.op = "local_view", tlx.type = "!tlx.mbarrier"} : (i64, i32) -> i64
  // expected-error @below {{malformed TLX carrier for tlx.barrier_wait: operand `pred` cannot have 2 values}}
  tt.call @tlx.barrier_wait.a_i64i32i1i1(%m, %c0, %p, %p) {tlx.op = "barrier_wait", tlx.operand_segments = dense<[1, 1, 2]> : tensor<3xi32>} : (i64, i32, i1, i1) -> ()
  tt.return
}
tt.func private @tlx.alloc_barriers.r_i64() -> i64 attributes {noinline = true} {
  %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
  tt.return %0 : i64
}
tt.func private @tlx.local_view.a_i64i32_r_i64(%h: i64, %i: i32) -> i64 attributes {noinline = true} {
  tt.return %h : i64
}
tt.func private @tlx.barrier_wait.a_i64i32i1i1(%h: i64, %p: i32, %a: i1, %b: i1) attributes {noinline = true} {
  tt.return
}

// -----

tt.func @segments_do_not_add_up(%p: i1) {
  %b = tt.call @tlx.alloc_barriers.r_i64() {tlx.op = "alloc_barriers", tlx.type = "!tlx.mbarriers<1>", tlx.arrive_count = 1 : i32} : () -> i64
  %c0 = arith.constant 0 : i32
  %m = tt.call @tlx.local_view.a_i64i32_r_i64(%b, %c0) {tlx.op = "local_view", tlx.type = "!tlx.mbarrier"} : (i64, i32) -> i64
  // expected-error @below {{malformed TLX carrier for tlx.barrier_wait: 3 operands where its segments account for 2}}
  tt.call @tlx.barrier_wait.a_i64i32i1(%m, %c0, %p) {tlx.op = "barrier_wait", tlx.operand_segments = dense<[1, 1, 0]> : tensor<3xi32>} : (i64, i32, i1) -> ()
  tt.return
}
tt.func private @tlx.alloc_barriers.r_i64() -> i64 attributes {noinline = true} {
  %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
  tt.return %0 : i64
}
tt.func private @tlx.local_view.a_i64i32_r_i64(%h: i64, %i: i32) -> i64 attributes {noinline = true} {
  tt.return %h : i64
}
tt.func private @tlx.barrier_wait.a_i64i32i1(%h: i64, %p: i32, %a: i1) attributes {noinline = true} {
  tt.return
}

// -----

// A loop carrying views of two allocations is not a carried index.
tt.func @views_of_two_allocations_through_loop(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %a = tt.call @tlx.local_alloc.r_i64() {tlx.op = "local_alloc", tlx.operand_segments = dense<0> : tensor<1xi32>, tlx.type = "!tlx.buffers<2, 128xf32, smem>"} : () -> i64
  %b = tt.call @tlx.local_alloc.r_i64() {tlx.op = "local_alloc", tlx.operand_segments = dense<0> : tensor<1xi32>, tlx.type = "!tlx.buffers<2, 128xf32, smem>"} : () -> i64
  %va = tt.call @tlx.local_view.a_i64i32_r_i64(%a, %c0) {tlx.op = "local_view", tlx.type = "!tlx.buffer<128xf32, smem>"} : (i64, i32) -> i64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%carried = %va) -> (i64) : i32 {
    %vb = tt.call @tlx.local_view.a_i64i32_r_i64(%b, %c0) {tlx.op = "local_view", tlx.type = "!tlx.buffer<128xf32, smem>"} : (i64, i32) -> i64
    %s = tt.splat %carried : i64 -> tensor<128xi64>
    // expected-error @below {{tlx.local_load uses a buffer or barrier handle (operand `buffer`) that does not come straight from tlx.local_alloc / tlx.alloc_barriers / indexing}}
    %x = tt.elementwise_inline_asm "tlx.local_load" {constraints = "=r,l", packed_element = 1 : i32, pure = false, tlx.op = "local_load"} %s : tensor<128xi64> -> tensor<128xf32>
    scf.yield %vb : i64
  }
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

// -----

tt.func @handle_through_loop(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %b = tt.call @tlx.alloc_barriers.r_i64() {tlx.op = "alloc_barriers", tlx.type = "!tlx.mbarriers<2>", tlx.arrive_count = 1 : i32} : () -> i64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%carried = %b) -> (i64) : i32 {
    // expected-error @below {{tlx.local_view uses a buffer or barrier handle (operand `source`) that does not come straight from tlx.local_alloc / tlx.alloc_barriers / indexing}}
    %m = tt.call @tlx.local_view.a_i64i32_r_i64(%carried, %c0) {tlx.op = "local_view", tlx.type = "!tlx.mbarrier"} : (i64, i32) -> i64
    scf.yield %carried : i64
  }
  tt.return
}
tt.func private @tlx.alloc_barriers.r_i64() -> i64 attributes {noinline = true} {
  %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
  tt.return %0 : i64
}
tt.func private @tlx.local_view.a_i64i32_r_i64(%h: i64, %i: i32) -> i64 attributes {noinline = true} {
  %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
  tt.return %0 : i64
}

// -----

tt.func @buffer_shape_mismatch(%desc: !tt.tensordesc<tensor<64x32xf16>>, %x: i32) {
  %h = tt.call @tlx.local_alloc.r_i64() {tlx.op = "local_alloc", tlx.operand_segments = dense<0> : tensor<1xi32>, tlx.type = "!tlx.buffers<1, 64x64xf16, smem>"} : () -> i64
  %b = tt.call @tlx.alloc_barriers.r_i64() {tlx.op = "alloc_barriers", tlx.type = "!tlx.mbarriers<1>", tlx.arrive_count = 1 : i32} : () -> i64
  %v = tt.call @tlx.local_view.a_i64i32_r_i64(%h, %x) {tlx.op = "local_view", tlx.type = "!tlx.buffer<64x64xf16, smem>"} : (i64, i32) -> i64
  %m = tt.call @tlx.local_view.a_i64i32_r_i64(%b, %x) {tlx.op = "local_view", tlx.type = "!tlx.mbarrier"} : (i64, i32) -> i64
  // expected-error @below {{'tlx.async_descriptor_load' op descriptor block shape [64, 32] does not match the buffer shape [64, 64]}}
  tt.call @tlx.async_descriptor_load.a_d64x32xf16i32i32i64i64(%desc, %x, %x, %v, %m) {tlx.op = "async_descriptor_load", tlx.operand_segments = dense<[1, 2, 1, 1, 0, 0]> : tensor<6xi32>} : (!tt.tensordesc<tensor<64x32xf16>>, i32, i32, i64, i64) -> ()
  tt.return
}
tt.func private @tlx.local_alloc.r_i64() -> i64 attributes {noinline = true} {
  %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
  tt.return %0 : i64
}
tt.func private @tlx.alloc_barriers.r_i64() -> i64 attributes {noinline = true} {
  %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
  tt.return %0 : i64
}
tt.func private @tlx.local_view.a_i64i32_r_i64(%h: i64, %i: i32) -> i64 attributes {noinline = true} {
  %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
  tt.return %0 : i64
}
tt.func private @tlx.async_descriptor_load.a_d64x32xf16i32i32i64i64(%d: !tt.tensordesc<tensor<64x32xf16>>, %x: i32, %y: i32, %b: i64, %m: i64) attributes {noinline = true} {
  tt.return
}

// -----

tt.func @tma_cache_modifier(%desc: !tt.tensordesc<tensor<64x64xf16>>, %x: i32) {
  %h = tt.call @tlx.local_alloc.r_i64() {tlx.op = "local_alloc", tlx.operand_segments = dense<0> : tensor<1xi32>, tlx.type = "!tlx.buffers<1, 64x64xf16, smem>"} : () -> i64
  %b = tt.call @tlx.alloc_barriers.r_i64() {tlx.op = "alloc_barriers", tlx.type = "!tlx.mbarriers<1>", tlx.arrive_count = 1 : i32} : () -> i64
  %v = tt.call @tlx.local_view.a_i64i32_r_i64(%h, %x) {tlx.op = "local_view", tlx.type = "!tlx.buffer<64x64xf16, smem>"} : (i64, i32) -> i64
  %m = tt.call @tlx.local_view.a_i64i32_r_i64(%b, %x) {tlx.op = "local_view", tlx.type = "!tlx.mbarrier"} : (i64, i32) -> i64
  // expected-error @below {{'tlx.async_descriptor_load' op cache modifiers are not supported on TMA loads (Triton 3.6 cannot lower them)}}
  tt.call @tlx.async_descriptor_load.a_d64x64xf16i32i32i64i64(%desc, %x, %x, %v, %m) {tlx.op = "async_descriptor_load", tlx.cache = 3 : i32, tlx.operand_segments = dense<[1, 2, 1, 1, 0, 0]> : tensor<6xi32>} : (!tt.tensordesc<tensor<64x64xf16>>, i32, i32, i64, i64) -> ()
  tt.return
}
tt.func private @tlx.local_alloc.r_i64() -> i64 attributes {noinline = true} {
  %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
  tt.return %0 : i64
}
tt.func private @tlx.alloc_barriers.r_i64() -> i64 attributes {noinline = true} {
  %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
  tt.return %0 : i64
}
tt.func private @tlx.local_view.a_i64i32_r_i64(%h: i64, %i: i32) -> i64 attributes {noinline = true} {
  %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
  tt.return %0 : i64
}
tt.func private @tlx.async_descriptor_load.a_d64x64xf16i32i32i64i64(%d: !tt.tensordesc<tensor<64x64xf16>>, %x: i32, %y: i32, %b: i64, %m: i64) attributes {noinline = true} {
  tt.return
}

// -----

// A task carrier whose i1 feeds something other than an scf.if.
tt.func @task_not_guarding_a_region() -> i1 {
  // expected-error @below {{malformed TLX carrier for tlx.async_tasks: expected its i1 to be unused or the condition of a result-less scf.if without else}}
  %t = tt.call @tlx.async_tasks.r_i1() {tlx.op = "async_tasks"} : () -> i1
  tt.return %t : i1
}
tt.func private @tlx.async_tasks.r_i1() -> i1 attributes {noinline = true} {
  %0 = arith.constant true
  tt.return %0 : i1
}

// -----

// A region carrier without its i1.
tt.func @region_carrier_without_result() {
  // expected-error @below {{malformed TLX carrier for tlx.async_tasks: a region carrier returns one i1}}
  tt.call @tlx.async_tasks() {tlx.op = "async_tasks"} : () -> ()
  tt.return
}
tt.func private @tlx.async_tasks() attributes {noinline = true} {
  tt.return
}

// -----

// An op without results whose Form B dummy result is used.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @dummy_result_used(%x: tensor<128xf32, #blocked>) -> tensor<128xi1, #blocked> {
    %h = tt.call @tlx.local_alloc.r_i64() {tlx.op = "local_alloc", tlx.operand_segments = dense<0> : tensor<1xi32>, tlx.type = "!tlx.buffers<1, 128xf32, smem>"} : () -> i64
    %c0 = arith.constant 0 : i32
    %v = tt.call @tlx.local_view.a_i64i32_r_i64(%h, %c0) {tlx.op = "local_view", tlx.type = "!tlx.buffer<128xf32, smem>"} : (i64, i32) -> i64
    %hs = tt.splat %v : i64 -> tensor<128xi64, #blocked>
    // expected-error @below {{malformed TLX carrier for tlx.local_store: the op has no results, but the carrier's are used}}
    %d = tt.elementwise_inline_asm "tlx.local_store" {constraints = "=r,r,l", packed_element = 1 : i32, pure = false, tlx.op = "local_store"} %x, %hs : tensor<128xf32, #blocked>, tensor<128xi64, #blocked> -> tensor<128xi1, #blocked>
    tt.return %d : tensor<128xi1, #blocked>
  }
  tt.func private @tlx.local_alloc.r_i64() -> i64 attributes {noinline = true} {
    %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
    tt.return %0 : i64
  }
  tt.func private @tlx.local_view.a_i64i32_r_i64(%a: i64, %i: i32) -> i64 attributes {noinline = true} {
    tt.return %a : i64
  }
}

// -----

// An async_dot whose linked register operand carrier is missing.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @unlinked_register_operand(%acc: tensor<64x64xf32, #blocked>) {
    %h = tt.call @tlx.local_alloc.r_i64() {tlx.op = "local_alloc", tlx.operand_segments = dense<0> : tensor<1xi32>, tlx.type = "!tlx.buffers<1, 64x64xf16, smem>"} : () -> i64
    %c0 = arith.constant 0 : i32
    %v = tt.call @tlx.local_view.a_i64i32_r_i64(%h, %c0) {tlx.op = "local_view", tlx.type = "!tlx.buffer<64x64xf16, smem>"} : (i64, i32) -> i64
    %hs = tt.splat %v : i64 -> tensor<64x64xi64, #blocked>
    // expected-error @below {{malformed TLX carrier for tlx.async_dot: no linked_operand carrier with tlx.link = 7 : i32 precedes it}}
    %d = tt.elementwise_inline_asm "tlx.async_dot" {constraints = "=r,l,r", packed_element = 1 : i32, pure = false, tlx.linked_a = 7 : i32, tlx.op = "async_dot", tlx.operand_segments = dense<[1, 1, 1, 0]> : tensor<4xi32>} %hs, %acc : tensor<64x64xi64, #blocked>, tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #blocked>
    tt.return
  }
  tt.func private @tlx.local_alloc.r_i64() -> i64 attributes {noinline = true} {
    %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
    tt.return %0 : i64
  }
  tt.func private @tlx.local_view.a_i64i32_r_i64(%a: i64, %i: i32) -> i64 attributes {noinline = true} {
    tt.return %a : i64
  }
}

// -----

// A scalar operand of a Form B carrier must ride as a splat.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @scalar_not_splat(%acc: tensor<64x64xf32, #blocked>, %use: tensor<64x64xi1, #blocked>) {
    %h = tt.call @tlx.local_alloc.r_i64() {tlx.op = "local_alloc", tlx.operand_segments = dense<0> : tensor<1xi32>, tlx.type = "!tlx.buffers<1, 64x64xf16, smem>"} : () -> i64
    %c0 = arith.constant 0 : i32
    %v = tt.call @tlx.local_view.a_i64i32_r_i64(%h, %c0) {tlx.op = "local_view", tlx.type = "!tlx.buffer<64x64xf16, smem>"} : (i64, i32) -> i64
    %hs = tt.splat %v : i64 -> tensor<64x64xi64, #blocked>
    // expected-error @below {{malformed TLX carrier for tlx.async_dot: operand `useAcc` must be a scalar splat to the carrier's shape}}
    %d = tt.elementwise_inline_asm "tlx.async_dot" {constraints = "=r,l,l,r,r", packed_element = 1 : i32, pure = false, tlx.op = "async_dot", tlx.operand_segments = dense<1> : tensor<4xi32>} %hs, %hs, %acc, %use : tensor<64x64xi64, #blocked>, tensor<64x64xi64, #blocked>, tensor<64x64xf32, #blocked>, tensor<64x64xi1, #blocked> -> tensor<64x64xf32, #blocked>
    tt.return
  }
  tt.func private @tlx.local_alloc.r_i64() -> i64 attributes {noinline = true} {
    %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
    tt.return %0 : i64
  }
  tt.func private @tlx.local_view.a_i64i32_r_i64(%a: i64, %i: i32) -> i64 attributes {noinline = true} {
    tt.return %a : i64
  }
}

// -----

// clc_query has three results; its carrier one.
tt.func @clc_query_one_result(%k: i32) -> i32 {
  %r = tt.call @tlx.alloc_clc_responses.r_i64() {tlx.op = "alloc_clc_responses", tlx.type = "!tlx.clc_responses<1>"} : () -> i64
  %v = tt.call @tlx.local_view.a_i64i32_r_i64(%r, %k) {tlx.op = "local_view", tlx.type = "!tlx.clc_response"} : (i64, i32) -> i64
  // expected-error @below {{malformed TLX carrier for tlx.clc_query: expected 3 result(s)}}
  %x = tt.call @tlx.clc_query.a_i64_r_i32(%v) {tlx.op = "clc_query"} : (i64) -> i32
  tt.return %x : i32
}
tt.func private @tlx.alloc_clc_responses.r_i64() -> i64 attributes {noinline = true} {
  %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
  tt.return %0 : i64
}
tt.func private @tlx.local_view.a_i64i32_r_i64(%h: i64, %i: i32) -> i64 attributes {noinline = true} {
  %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
  tt.return %0 : i64
}
tt.func private @tlx.clc_query.a_i64_r_i32(%r: i64) -> i32 attributes {noinline = true} {
  %0 = tt.elementwise_inline_asm "" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
  tt.return %0 : i32
}

// -----

// A run-time choice between buffers that are not views (each branch allocates) stays an error at its use.
tt.func @allocation_chosen_at_run_time(%c: i1) {
  %v = scf.if %c -> (i64) {
    %a = tt.call @tlx.alloc_barriers.r_i64() {tlx.op = "alloc_barriers", tlx.type = "!tlx.mbarriers<1>", tlx.arrive_count = 1 : i32} : () -> i64
    scf.yield %a : i64
  } else {
    %b = tt.call @tlx.alloc_barriers.r_i64() {tlx.op = "alloc_barriers", tlx.type = "!tlx.mbarriers<1>", tlx.arrive_count = 1 : i32} : () -> i64
    scf.yield %b : i64
  }
  %c0 = arith.constant 0 : i32
  // expected-error @below {{tlx.local_view uses a buffer or barrier handle (operand `source`) that does not come straight from tlx.local_alloc / tlx.alloc_barriers / indexing}}
  %m = tt.call @tlx.local_view.a_i64i32_r_i64(%v, %c0) {tlx.op = "local_view", tlx.type = "!tlx.mbarrier"} : (i64, i32) -> i64
  tt.return
}
tt.func private @tlx.alloc_barriers.r_i64() -> i64 attributes {noinline = true} {
  %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
  tt.return %0 : i64
}
tt.func private @tlx.local_view.a_i64i32_r_i64(%h: i64, %i: i32) -> i64 attributes {noinline = true} {
  %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
  tt.return %0 : i64
}

// -----

// A splat of 2^32 + 1 counts is a few bytes of text: refused by its size, not
// expanded.
tt.func @huge_segments() {
  // expected-error @below {{malformed TLX carrier for tlx.local_alloc: needs tlx.operand_segments with 1 counts, one per operand}}
  %h = tt.call @tlx.local_alloc.r_i64() {tlx.op = "local_alloc", tlx.operand_segments = dense<0> : tensor<4294967297xi32>, tlx.type = "!tlx.buffers<2, 64x64xbf16, smem>"} : () -> i64
  tt.return
}
tt.func private @tlx.local_alloc.r_i64() -> i64 attributes {noinline = true} {
  %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
  tt.return %0 : i64
}

// -----

// An operand that takes a buffer or a register tensor (async_dot's `a`) gets the handle diagnostic, not the
// op verifier's about an i64 tensor, when the buffer crossed a loop (views of two allocations: no carried
// index).
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @dot_of_a_buffer_through_a_loop(%acc: tensor<64x64xf32, #blocked>, %n: i32, %c: i1) {
    %h = tt.call @tlx.local_alloc.r_i64() {tlx.op = "local_alloc", tlx.operand_segments = dense<0> : tensor<1xi32>, tlx.type = "!tlx.buffers<2, 64x64xf16, smem>"} : () -> i64
    %g = tt.call @tlx.local_alloc.r_i64() {tlx.op = "local_alloc", tlx.operand_segments = dense<0> : tensor<1xi32>, tlx.type = "!tlx.buffers<2, 64x64xf16, smem>"} : () -> i64
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %true = arith.constant dense<true> : tensor<64x64xi1, #blocked>
    %v = tt.call @tlx.local_view.a_i64i32_r_i64(%h, %c0) {tlx.op = "local_view", tlx.type = "!tlx.buffer<64x64xf16, smem>"} : (i64, i32) -> i64
    %vs = tt.splat %v : i64 -> tensor<64x64xi64, #blocked>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%carried = %v) -> (i64) : i32 {
      %s = tt.splat %carried : i64 -> tensor<64x64xi64, #blocked>
      // expected-error @below {{tlx.async_dot uses a buffer or barrier handle (operand `a`) that does not come straight from tlx.local_alloc / tlx.alloc_barriers / indexing}}
      %d = tt.elementwise_inline_asm "tlx.async_dot" {constraints = "=r,l,l,r,r", packed_element = 1 : i32, pure = false, tlx.op = "async_dot", tlx.operand_segments = dense<1> : tensor<4xi32>} %s, %vs, %acc, %true : tensor<64x64xi64, #blocked>, tensor<64x64xi64, #blocked>, tensor<64x64xf32, #blocked>, tensor<64x64xi1, #blocked> -> tensor<64x64xf32, #blocked>
      %w = tt.call @tlx.local_view.a_i64i32_r_i64(%g, %c1) {tlx.op = "local_view", tlx.type = "!tlx.buffer<64x64xf16, smem>"} : (i64, i32) -> i64
      scf.yield %w : i64
    }
    tt.return
  }
  tt.func private @tlx.local_alloc.r_i64() -> i64 attributes {noinline = true} {
    %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
    tt.return %0 : i64
  }
  tt.func private @tlx.local_view.a_i64i32_r_i64(%a: i64, %i: i32) -> i64 attributes {noinline = true} {
    tt.return %a : i64
  }
}
