// RUN: tlx-opt %s --tlx-assign-layouts --tlx-lower-to-ttg | FileCheck %s

// A tensor made above (the frontend's constants are hoisted out of the tasks) is recomputed only in the
// partitions that use it: its layout is the 4-warp task's, which a 1-warp partition could not hold.
#blocked4 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK-LABEL: tt.func @tensor_for_one_partition
  // CHECK:       partition0({{.*}}) num_warps(4) {
  // CHECK:         arith.constant dense<0xFF800000> : tensor<128xf32
  // CHECK:         tt.store
  // CHECK:       partition1({{.*}}) num_warps(1) {
  // CHECK-NOT:     arith.constant dense
  // CHECK:         ttg.warp_return
  tt.func @tensor_for_one_partition(%p: !tt.ptr<f32>) {
    %neg = arith.constant dense<0xFF800000> : tensor<128xf32, #blocked4>
    tlx.async_tasks {
      tlx.async_task default {
      }
      tlx.async_task num_warps(4) {
        %ptrs = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked4>
        tt.store %ptrs, %neg : tensor<128x!tt.ptr<f32>, #blocked4>
      }
      tlx.async_task num_warps(1) {
      }
    }
    tt.return
  }
}
