// RUN: tlx-opt %s -split-input-file --tlx-apply-layout-pins | FileCheck %s
// RUN: tlx-opt %s -split-input-file --tlx-apply-layout-pins --tlx-erase-layout-asserts | FileCheck %s --check-prefix=ERASE

// Triton's layout optimizations gave the pinned value and its users the
// layout of the load (#b): the pin converts to its layout again, its
// elementwise users follow, the store gets the value back in #b, and the
// release ends the pin with a conversion to what Triton chose after it.
// CHECK-DAG:   #[[B:.*]] = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG:   #[[L:.*]] = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: tt.func @pin
// CHECK:       %[[V:.*]] = tt.load
// CHECK-NEXT:  %[[VL:.*]] = ttg.convert_layout %[[V]] : tensor<16x32xf32, #[[B]]> -> tensor<16x32xf32, #[[L]]>
// CHECK-NEXT:  %[[E:.*]] = math.exp %[[VL]] : tensor<16x32xf32, #[[L]]>
// CHECK-NEXT:  %[[EB:.*]] = ttg.convert_layout %[[E]] : tensor<16x32xf32, #[[L]]> -> tensor<16x32xf32, #[[B]]>
// CHECK-NEXT:  tt.store %{{.*}}, %[[EB]] : tensor<16x32x!tt.ptr<f32>, #[[B]]>
// CHECK-NEXT:  %[[S:.*]] = arith.addf %[[E]], %[[E]] : tensor<16x32xf32, #[[L]]>
// CHECK-NEXT:  %[[SB:.*]] = ttg.convert_layout %[[S]] : tensor<16x32xf32, #[[L]]> -> tensor<16x32xf32, #[[B]]>
// CHECK-NEXT:  %[[N:.*]] = arith.negf %[[SB]] : tensor<16x32xf32, #[[B]]>
// CHECK-NOT:   tlx.layout_marker
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#l = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @pin(%p: tensor<16x32x!tt.ptr<f32>, #b>) -> tensor<16x32xf32, #b> {
    %v = tt.load %p : tensor<16x32x!tt.ptr<f32>, #b>
    %pin = tt.elementwise_inline_asm "" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tlx.layout = #l, tlx.layout_marker = "pin"} %v : tensor<16x32xf32, #b> -> tensor<16x32xf32, #b>
    %e = math.exp %pin : tensor<16x32xf32, #b>
    tt.store %p, %e : tensor<16x32x!tt.ptr<f32>, #b>
    %s = arith.addf %e, %e : tensor<16x32xf32, #b>
    %r = tt.elementwise_inline_asm "" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tlx.layout_marker = "release"} %s : tensor<16x32xf32, #b> -> tensor<16x32xf32, #b>
    %n = arith.negf %r : tensor<16x32xf32, #b>
    tt.return %n : tensor<16x32xf32, #b>
  }
}

// -----

// An assertion against an expected layout gets its other side (the value
// converted to that layout); the assertion markers see the pinned layout. Once
// checked, the markers and that conversion go.
// CHECK-LABEL: tt.func @expected
// CHECK:       %[[VL:.*]] = ttg.convert_layout %{{.*}} -> tensor<16x32xf32, #[[L:.*]]>
// CHECK-NEXT:  %[[X:.*]] = ttg.convert_layout %[[VL]] : tensor<16x32xf32, #[[L]]> -> tensor<16x32xf32, #[[B:.*]]>
// CHECK-NEXT:  tt.elementwise_inline_asm "" {{.*}}tlx.assert_same_layout = "0 rhs", tlx.layout_marker = "assert", tlx.where = "k.py:7:3"} %[[X]] : tensor<16x32xf32, #[[B]]> -> tensor<16x32xf32, #[[B]]>
// CHECK-NEXT:  tt.elementwise_inline_asm "" {{.*}}tlx.assert_same_layout = "0 lhs", tlx.layout_marker = "assert", tlx.where = "k.py:7:3"} %[[VL]] : tensor<16x32xf32, #[[L]]> -> tensor<16x32xf32, #[[L]]>
// ERASE-LABEL: tt.func @expected
// ERASE-NEXT:  tt.load
// ERASE-NEXT:  tt.return
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#l = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @expected(%p: tensor<16x32x!tt.ptr<f32>, #b>) {
    %v = tt.load %p : tensor<16x32x!tt.ptr<f32>, #b>
    %pin = tt.elementwise_inline_asm "" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tlx.layout = #l, tlx.layout_marker = "pin"} %v : tensor<16x32xf32, #b> -> tensor<16x32xf32, #b>
    %a = tt.elementwise_inline_asm "" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tlx.assert_same_layout = "0 lhs", tlx.layout = #b, tlx.layout_marker = "assert", tlx.where = "k.py:7:3"} %pin : tensor<16x32xf32, #b> -> tensor<16x32xf32, #b>
    tt.return
  }
}

// -----

// A value a loop carries takes the layout too: its initial value is made in
// it, the loop keeps it, what follows the loop gets Triton's layout back.
// CHECK-LABEL: tt.func @carried
// CHECK:       %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<16x32xf32, #[[L:.*]]>
// CHECK:       %[[ACC:.*]] = scf.for {{.*}} iter_args(%[[A:.*]] = %[[ZERO]]) -> (tensor<16x32xf32, #[[L]]>)
// CHECK:         %[[VL:.*]] = ttg.convert_layout %{{.*}} -> tensor<16x32xf32, #[[L]]>
// CHECK-NEXT:    %[[SUM:.*]] = arith.addf %[[A]], %[[VL]] : tensor<16x32xf32, #[[L]]>
// CHECK-NEXT:    scf.yield %[[SUM]] : tensor<16x32xf32, #[[L]]>
// CHECK:       %[[BACK:.*]] = ttg.convert_layout %[[ACC]] : tensor<16x32xf32, #[[L]]> -> tensor<16x32xf32, #[[B:.*]]>
// CHECK-NEXT:  tt.return %[[BACK]] : tensor<16x32xf32, #[[B]]>
#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#l = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @carried(%p: tensor<16x32x!tt.ptr<f32>, #b>, %n: i32) -> tensor<16x32xf32, #b> {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<16x32xf32, #b>
    %acc = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero) -> (tensor<16x32xf32, #b>) : i32 {
      %v = tt.load %p : tensor<16x32x!tt.ptr<f32>, #b>
      %pin = tt.elementwise_inline_asm "" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tlx.layout = #l, tlx.layout_marker = "pin"} %v : tensor<16x32xf32, #b> -> tensor<16x32xf32, #b>
      %s = arith.addf %a, %pin : tensor<16x32xf32, #b>
      scf.yield %s : tensor<16x32xf32, #b>
    }
    tt.return %acc : tensor<16x32xf32, #b>
  }
}
