// RUN: tlx-opt %s --tlx-assign-layouts --tlx-lower-to-nvvm --tlx-lower-to-ttg | FileCheck %s

// With tlx.wait-timeout-us (TLX_WAIT_TIMEOUT_MS) a barrier wait tries once, then polls try_wait against %globaltimer; on
// time-out the thread fails a device assertion (`__assertfail`) naming the kernel, the mbarrier, the line and the phase.
module attributes {"ttg.num-warps" = 4 : i32, "tlx.wait-timeout-us" = 1500 : i32} {
  // CHECK-DAG: llvm.func @__assertfail(!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64) attributes {passthrough = ["noreturn"]}
  // CHECK-DAG: llvm.mlir.global internal constant @{{.*}}("TLX: mbarrier wait timed out after 1.500 ms in kernel `bounded` at kernel.py:5: mbarrier 0 of the tlx.alloc_barriers at kernel.py:3 never completed phase parity 1\00")
  // CHECK-DAG: llvm.mlir.global internal constant @{{.*}}("kernel.py\00")
  // CHECK-LABEL: tt.func @bounded
  tt.func @bounded(%phase: i32, %p: i1) {
    %c0 = arith.constant 0 : i32
    %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<2> loc("kernel.py":3:12)
    %bar = tlx.local_view %bars[%c0] : !tlx.mbarriers<2>
    tlx.barrier_arrive %bar, 1 : !tlx.mbarrier
    // CHECK-NOT: ttng.wait_barrier
    // CHECK: %[[DONE:.*]] = llvm.inline_asm has_side_effects {{.*}}@!$3 bra DONE; mbarrier.try_wait.parity.shared::cta.b64 p_done, [$1], $2; @p_done bra DONE; mov.u64 t_start, %globaltimer; WAIT: mbarrier.try_wait.parity.shared::cta.b64 p_done, [$1], $2;{{.*}}setp.lt.u64 p_late, t_now, 1500000;{{.*}}"=r,r,r,b" %{{.*}}, %arg0, %arg1
    // CHECK: %[[LATE:.*]] = arith.cmpi eq, %[[DONE]], %{{.*}} : i32
    // CHECK: scf.if %[[LATE]] {
    // CHECK:   %[[MSG:.*]] = llvm.select %{{.*}}, %{{.*}}, %{{.*}} : i1, !llvm.ptr
    // CHECK:   llvm.call @__assertfail(%[[MSG]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64) -> ()
    // CHECK:   llvm.intr.trap
    tlx.barrier_wait %bar, %phase, %p : !tlx.mbarrier loc("kernel.py":5:8)
    tt.return
  }
}
