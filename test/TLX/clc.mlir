// RUN: tlx-opt %s -split-input-file --tlx-raise-carriers | FileCheck %s --check-prefix=RAISE
// RUN: tlx-opt %s -split-input-file --tlx-raise-carriers --tlx-check-static-bounds --tlx-check-async-hazards --tlx-check-protocol --tlx-assign-layouts --tlx-lower-to-nvvm --tlx-lower-to-ttg | FileCheck %s --check-prefix=LOWER

// Cluster launch control as clc_producer / clc_consumer emit it: the
// responses are one 16-byte aligned shared allocation; the request and the
// decoding are inline PTX on the addresses of the response and the mbarrier.
// The query's three ids ride one Form A carrier of three i32 results.

module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100"} {
  // RAISE-LABEL: tt.func public @one_cta
  // LOWER-LABEL: tt.func public @one_cta
  tt.func public @one_cta(%k: i32, %phase: i32) -> i32 {
    // RAISE: %[[R:.*]] = tlx.alloc_clc_responses : !tlx.clc_responses<2>
    // LOWER: %[[R:.*]] = ttg.local_alloc {alignment = 16 : i32} : () -> !ttg.memdesc<2x2xi64, #{{.*}}, #smem, mutable>
    %r = tt.call @tlx.alloc_clc_responses.r_i64() {tlx.op = "alloc_clc_responses", tlx.type = "!tlx.clc_responses<2>"} : () -> i64
    %b = tt.call @tlx.alloc_barriers.r_i64() {tlx.op = "alloc_barriers", tlx.type = "!tlx.mbarriers<2>", tlx.arrive_count = 1 : i32} : () -> i64
    // RAISE: %[[V:.*]] = tlx.local_view %[[R]][%{{.*}}] : !tlx.clc_responses<2>
    // LOWER: %[[V:.*]] = ttg.memdesc_index %[[R]][%{{.*}}] : !ttg.memdesc<2x2xi64, #{{.*}}, #smem, mutable> -> !ttg.memdesc<2xi64, #{{.*}}, #smem, mutable>
    %v = tt.call @tlx.local_view.a_i64i32_r_i64(%r, %k) {tlx.op = "local_view", tlx.type = "!tlx.clc_response"} : (i64, i32) -> i64
    %m = tt.call @tlx.local_view.a_i64i32_r_i64(%b, %k) {tlx.op = "local_view", tlx.type = "!tlx.mbarrier"} : (i64, i32) -> i64
    tt.call @tlx.barrier_expect_bytes.a_i64(%m) {tlx.op = "barrier_expect_bytes", tlx.bytes = 16 : i32, tlx.operand_segments = dense<[1, 0]> : tensor<2xi32>} : (i64) -> ()
    // RAISE: tlx.clc_try_cancel %[[V]], %{{.*}}{{$}}
    // One thread of the task issues (nvg.warp_id 0, lane 0), in every CTA.
    // LOWER:      %[[RS:.*]] = builtin.unrealized_conversion_cast %[[V]] : !ttg.memdesc<2xi64, {{.*}}> to !llvm.struct<(ptr<3>, i32)>
    // LOWER-NEXT: %[[RA:.*]] = llvm.extractvalue %[[RS]][0]
    // LOWER:      %[[BA:.*]] = llvm.extractvalue %{{.*}}[0]
    // LOWER:      nvg.warp_id
    // LOWER:      %[[ISSUE:.*]] = arith.andi
    // LOWER-NOT:  nvvm.read.ptx.sreg.cluster.ctarank
    // LOWER-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "@$0 clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [$1], [$2];", "b,r,r" %[[ISSUE]], %[[RA]], %[[BA]]
    tt.call @tlx.clc_try_cancel.a_i64i64(%v, %m) {tlx.op = "clc_try_cancel"} : (i64, i64) -> ()
    tt.call @tlx.barrier_wait.a_i64i32(%m, %phase) {tlx.op = "barrier_wait", tlx.operand_segments = dense<[1, 1, 0]> : tensor<3xi32>} : (i64, i32) -> ()
    // RAISE: %[[X:.*]], %{{.*}}, %[[Z:.*]] = tlx.clc_query %[[V]]
    // RAISE: arith.addi %[[X]], %[[Z]]
    // Every thread reads the 16 bytes and decodes them: -1 unless canceled.
    // LOWER:      %[[QA:.*]] = llvm.extractvalue %{{.*}}[0]
    // LOWER-NEXT: %[[Q:.*]] = llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .b128 response; .reg .pred canceled; mov.s32 $0, -1; mov.s32 $1, -1; mov.s32 $2, -1; ld.shared.b128 response, [$3]; clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 canceled, response; @canceled clusterlaunchcontrol.query_cancel.get_first_ctaid.v4.b32.b128 {$0, $1, $2, _}, response; }", "=r,=r,=r,r" %[[QA]] : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32)>
    // LOWER-NEXT: %[[X:.*]] = llvm.extractvalue %[[Q]][0]
    // LOWER-NEXT: llvm.extractvalue %[[Q]][1]
    // LOWER-NEXT: %[[Z:.*]] = llvm.extractvalue %[[Q]][2]
    // LOWER-NEXT: arith.addi %[[X]], %[[Z]]
    %x, %y, %z = tt.call @tlx.clc_query.a_i64_r_i32i32i32(%v) {tlx.op = "clc_query"} : (i64) -> (i32, i32, i32)
    %s = arith.addi %x, %z : i32
    tt.return %s : i32
  }
  // RAISE-NOT: tt.func private @tlx.
  tt.func private @tlx.alloc_clc_responses.r_i64() -> i64 attributes {noinline = true} {
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
  tt.func private @tlx.barrier_expect_bytes.a_i64(%m: i64) attributes {noinline = true} {
    tt.return
  }
  tt.func private @tlx.clc_try_cancel.a_i64i64(%r: i64, %m: i64) attributes {noinline = true} {
    tt.return
  }
  tt.func private @tlx.barrier_wait.a_i64i32(%m: i64, %p: i32) attributes {noinline = true} {
    tt.return
  }
  tt.func private @tlx.clc_query.a_i64_r_i32i32i32(%r: i64) -> (i32, i32, i32) attributes {noinline = true} {
    %0 = tt.elementwise_inline_asm "" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
    tt.return %0, %0, %0 : i32, i32, i32
  }
}

// -----

// In a cluster the request is multicast: CTA 0 issues it alone (its one
// thread), and the response and the 16 bytes reach every CTA's response and
// mbarrier at the same places.
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:100", "ttg.cluster-dim-x" = 2 : i32} {
  // LOWER-LABEL: tt.func public @multicast
  tt.func public @multicast(%k: i32) {
    %r = tlx.alloc_clc_responses : !tlx.clc_responses<1>
    %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
    %v = tlx.local_view %r[%k] : !tlx.clc_responses<1>
    %m = tlx.local_view %bars[%k] : !tlx.mbarriers<1>
    tlx.barrier_expect_bytes %m, 16 : !tlx.mbarrier
    // LOWER:      %[[ONE:.*]] = arith.andi
    // LOWER-NEXT: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
    // LOWER-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
    // LOWER-NEXT: %[[CTA0:.*]] = arith.cmpi eq, %[[RANK]], %[[ZERO]] : i32
    // LOWER-NEXT: %[[ISSUE:.*]] = arith.andi %[[ONE]], %[[CTA0]] : i1
    // LOWER-NEXT: llvm.inline_asm has_side_effects asm_dialect = att "@$0 clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.multicast::cluster::all.b128 [$1], [$2];", "b,r,r" %[[ISSUE]]
    tlx.clc_try_cancel %v, %m multicast
    tt.return
  }
}
