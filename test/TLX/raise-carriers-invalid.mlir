// Malformed carriers and escaping handles are reported at the carrier.
// RUN: tlx-opt %s -split-input-file --tlx-raise-carriers -verify-diagnostics

tt.func @no_type() {
  // expected-error @below {{malformed TLX carrier for tlx.local_alloc: no tlx.type attribute}}
  %h = tt.call @tlx.local_alloc.r_i64() {tlx.op = "local_alloc"} : () -> i64
  tt.return
}
tt.func private @tlx.local_alloc.r_i64() -> i64 attributes {noinline = true} {
  %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
  tt.return %0 : i64
}

// -----

tt.func @bad_type() {
  // expected-error @below {{malformed TLX carrier for tlx.local_alloc: tlx.type must be a !tlx.buffers type}}
  %h = tt.call @tlx.local_alloc.r_i64() {tlx.op = "local_alloc", tlx.type = "!tlx.mbarriers<2>"} : () -> i64
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

tt.func @handle_through_loop(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %b = tt.call @tlx.alloc_barriers.r_i64() {tlx.op = "alloc_barriers", tlx.type = "!tlx.mbarriers<2>", tlx.arrive_count = 1 : i32} : () -> i64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%carried = %b) -> (i64) : i32 {
    // expected-error @below {{tlx.local_view uses a buffer or barrier handle that does not come straight from tlx.local_alloc / tlx.alloc_barriers / indexing}}
    %m = tt.call @tlx.local_view.a_i64_i32_r_i64(%carried, %c0) {tlx.op = "local_view"} : (i64, i32) -> i64
    scf.yield %carried : i64
  }
  tt.return
}
tt.func private @tlx.alloc_barriers.r_i64() -> i64 attributes {noinline = true} {
  %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
  tt.return %0 : i64
}
tt.func private @tlx.local_view.a_i64_i32_r_i64(%h: i64, %i: i32) -> i64 attributes {noinline = true} {
  %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
  tt.return %0 : i64
}

// -----

tt.func @buffer_shape_mismatch(%desc: !tt.tensordesc<tensor<64x32xf16>>, %x: i32) {
  %h = tt.call @tlx.local_alloc.r_i64() {tlx.op = "local_alloc", tlx.type = "!tlx.buffers<1, 64x64xf16, smem>"} : () -> i64
  %b = tt.call @tlx.alloc_barriers.r_i64() {tlx.op = "alloc_barriers", tlx.type = "!tlx.mbarriers<1>", tlx.arrive_count = 1 : i32} : () -> i64
  %v = tt.call @tlx.local_view.a_i64_i32_r_i64(%h, %x) {tlx.op = "local_view"} : (i64, i32) -> i64
  %m = tt.call @tlx.local_view.a_i64_i32_r_i64(%b, %x) {tlx.op = "local_view"} : (i64, i32) -> i64
  // expected-error @below {{'tlx.async_descriptor_load' op descriptor block shape [64, 32] does not match the buffer shape [64, 64]}}
  tt.call @tlx.async_descriptor_load.a_d_i64_i64_i32_i32(%desc, %v, %m, %x, %x) {tlx.op = "async_descriptor_load"} : (!tt.tensordesc<tensor<64x32xf16>>, i64, i64, i32, i32) -> ()
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
tt.func private @tlx.local_view.a_i64_i32_r_i64(%h: i64, %i: i32) -> i64 attributes {noinline = true} {
  %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
  tt.return %0 : i64
}
tt.func private @tlx.async_descriptor_load.a_d_i64_i64_i32_i32(%d: !tt.tensordesc<tensor<64x32xf16>>, %b: i64, %m: i64, %x: i32, %y: i32) attributes {noinline = true} {
  tt.return
}

// -----

tt.func @tma_cache_modifier(%desc: !tt.tensordesc<tensor<64x64xf16>>, %x: i32) {
  %h = tt.call @tlx.local_alloc.r_i64() {tlx.op = "local_alloc", tlx.type = "!tlx.buffers<1, 64x64xf16, smem>"} : () -> i64
  %b = tt.call @tlx.alloc_barriers.r_i64() {tlx.op = "alloc_barriers", tlx.type = "!tlx.mbarriers<1>", tlx.arrive_count = 1 : i32} : () -> i64
  %v = tt.call @tlx.local_view.a_i64_i32_r_i64(%h, %x) {tlx.op = "local_view"} : (i64, i32) -> i64
  %m = tt.call @tlx.local_view.a_i64_i32_r_i64(%b, %x) {tlx.op = "local_view"} : (i64, i32) -> i64
  // expected-error @below {{'tlx.async_descriptor_load' op cache modifiers and eviction policies are not supported on TMA loads (Triton 3.6 cannot lower them)}}
  tt.call @tlx.async_descriptor_load.a_d_i64_i64_i32_i32(%desc, %v, %m, %x, %x) {tlx.op = "async_descriptor_load", tlx.cache = 3 : i32} : (!tt.tensordesc<tensor<64x64xf16>>, i64, i64, i32, i32) -> ()
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
tt.func private @tlx.local_view.a_i64_i32_r_i64(%h: i64, %i: i32) -> i64 attributes {noinline = true} {
  %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
  tt.return %0 : i64
}
tt.func private @tlx.async_descriptor_load.a_d_i64_i64_i32_i32(%d: !tt.tensordesc<tensor<64x64xf16>>, %b: i64, %m: i64, %x: i32, %y: i32) attributes {noinline = true} {
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

// An async_dot whose register operand carrier is missing.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @unlinked_register_operand(%acc: tensor<64x64xf32, #blocked>) {
    %h = tt.call @tlx.local_alloc.r_i64() {tlx.op = "local_alloc", tlx.type = "!tlx.buffers<1, 64x64xf16, smem>"} : () -> i64
    %c0 = arith.constant 0 : i32
    %v = tt.call @tlx.local_view.a_i64_i32_r_i64(%h, %c0) {tlx.op = "local_view"} : (i64, i32) -> i64
    %hs = tt.splat %v : i64 -> tensor<64x64xi64, #blocked>
    // expected-error @below {{malformed TLX carrier for tlx.async_dot: no async_dot_operand carrier with tlx.link = 7 precedes it}}
    %d = tt.elementwise_inline_asm "tlx.async_dot" {constraints = "=r,r,l", packed_element = 1 : i32, pure = false, tlx.a_link = 7 : i32, tlx.op = "async_dot"} %acc, %hs : tensor<64x64xf32, #blocked>, tensor<64x64xi64, #blocked> -> tensor<64x64xf32, #blocked>
    tt.return
  }
  tt.func private @tlx.local_alloc.r_i64() -> i64 attributes {noinline = true} {
    %0 = tt.elementwise_inline_asm "" {constraints = "=l", packed_element = 1 : i32, pure = false} -> i64
    tt.return %0 : i64
  }
  tt.func private @tlx.local_view.a_i64_i32_r_i64(%a: i64, %i: i32) -> i64 attributes {noinline = true} {
    tt.return %a : i64
  }
}
