// Stock Triton 3.6 prints ttg.warp_specialize generically with the explicit
// captures as its operands (and none on ttg.warp_specialize.partitions), as in
// its reproducers and failure dumps: the input below is stock's own generic
// print, and ours prints it back the same.
// RUN: tlx-opt %s --mlir-print-op-generic | FileCheck %s
// RUN: tlx-opt %s | FileCheck %s --check-prefix=CUSTOM

"builtin.module"() ({
  "tt.func"() <{function_type = (i32) -> (), sym_name = "f"}> ({
  ^bb0(%arg0: i32):
    "ttg.warp_specialize"(%arg0) <{partitionNumWarps = array<i32: 4>}> ({
      "ttg.warp_yield"() : () -> ()
    }, {
      "ttg.warp_specialize.partitions"() ({
      ^bb0(%arg1: i32):
        "ttg.warp_return"() : () -> ()
      }) : () -> ()
    }) : (i32) -> ()
    "tt.return"() : () -> ()
  }) : () -> ()
}) {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} : () -> ()

// CHECK: "builtin.module"() ({
// CHECK-NEXT:   "tt.func"() <{function_type = (i32) -> (), sym_name = "f"}> ({
// CHECK-NEXT:   ^bb0(%arg0: i32):
// CHECK-NEXT:     "ttg.warp_specialize"(%arg0) <{partitionNumWarps = array<i32: 4>}> ({
// CHECK-NEXT:       "ttg.warp_yield"() : () -> ()
// CHECK-NEXT:     }, {
// CHECK-NEXT:       "ttg.warp_specialize.partitions"() ({
// CHECK-NEXT:       ^bb0(%arg1: i32):
// CHECK-NEXT:         "ttg.warp_return"() : () -> ()
// CHECK-NEXT:       }) : () -> ()
// CHECK-NEXT:     }) : (i32) -> ()
// CHECK-NEXT:     "tt.return"() : () -> ()
// CHECK-NEXT:   }) : () -> ()
// CHECK-NEXT: }) {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} : () -> ()

// CUSTOM: ttg.warp_specialize(%arg0)
// CUSTOM: partition0(%arg1: i32) num_warps(4) {
// CUSTOM: } : (i32) -> ()
