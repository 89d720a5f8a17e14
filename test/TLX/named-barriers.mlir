// RUN: tlx-opt %s -split-input-file --tlx-raise-carriers | FileCheck %s --check-prefix=RAISE
// RUN: tlx-opt %s -split-input-file --tlx-raise-carriers --tlx-check-static-bounds --tlx-assign-layouts --tlx-lower-to-nvvm --tlx-lower-to-ttg | FileCheck %s --check-prefix=LOWER

// RAISE-LABEL: tt.func @named
// LOWER-LABEL: tt.func @named
tt.func @named(%id: i32) {
  %c1 = arith.constant 1 : i32
  %c256 = arith.constant 256 : i32
  // RAISE: tlx.named_barrier_wait %{{.*}}, %{{.*}}
  // LOWER: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
  tt.call @tlx.named_barrier_wait.a_i32i32(%c1, %c256) {tlx.op = "named_barrier_wait"} : (i32, i32) -> ()
  // RAISE: tlx.named_barrier_arrive %{{.*}}, %{{.*}}
  // LOWER: nvvm.barrier.arrive id = %{{.*}} number_of_threads = %{{.*}}
  tt.call @tlx.named_barrier_arrive.a_i32i32(%id, %c256) {tlx.op = "named_barrier_arrive"} : (i32, i32) -> ()
  tt.return
}
tt.func private @tlx.named_barrier_wait.a_i32i32(%i: i32, %n: i32) attributes {noinline = true} {
  tt.return
}
tt.func private @tlx.named_barrier_arrive.a_i32i32(%i: i32, %n: i32) attributes {noinline = true} {
  tt.return
}
