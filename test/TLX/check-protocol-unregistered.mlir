// RUN: tlx-opt %s --allow-unregistered-dialect --tlx-check-protocol | FileCheck %s

// A barrier used by an op of no known dialect escapes the analysis: not judged, and no crash.
// CHECK-LABEL: tt.func @escapes_to_an_unknown_op
// CHECK: tlx.barrier_wait
tt.func @escapes_to_an_unknown_op(%p: i32) {
  %c0 = arith.constant 0 : i32
  %bars = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<1>
  %b = tlx.local_view %bars[%c0] : !tlx.mbarriers<1>
  "foo.bar"(%b) : (!tlx.mbarrier) -> ()
  tlx.barrier_wait %b, %p : !tlx.mbarrier
  tt.return
}
