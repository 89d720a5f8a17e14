// RUN: tlx-opt %s --mlir-print-debuginfo | FileCheck %s
// RUN: tlx-opt %s --mlir-print-debuginfo | tlx-opt --mlir-print-debuginfo | FileCheck %s

// MLIR 22's parser reads a location after `nvvm.barrier` as the op's optional
// reduction attribute; tlx-opt respells such barriers in the generic form
// before parsing (tlx/Support/InputRespelling.h), so Triton's final TTGIR of a
// kernel with named barrier waits reads back, and so does tlx-opt's own output.

// CHECK-LABEL: llvm.func @named
llvm.func @named(%id: i32, %n: i32) {
  // CHECK: nvvm.barrier id = %arg0 number_of_threads = %arg1 loc(#[[CALLSITE:loc[0-9]*]])
  nvvm.barrier id = %id number_of_threads = %n loc(#callsite)
  // CHECK-NEXT: nvvm.barrier id = %arg0 loc(#[[LINE7:loc[0-9]*]])
  nvvm.barrier id = %id loc("kernel.py":7:5)
  // CHECK-NEXT: nvvm.barrier loc(
  nvvm.barrier loc("kernel.py":8:5)
  // CHECK-NEXT: nvvm.barrier id = %arg0 number_of_threads = %arg1 loc(
  nvvm.barrier id = %id number_of_threads = %n
  llvm.return
}
#kernel = loc("kernel.py":3:4)
#callsite = loc(callsite(#kernel at "caller.py":11:2))
// CHECK-DAG: #[[CALLSITE]] = loc(callsite(#{{loc[0-9]*}} at #{{loc[0-9]*}}))
// CHECK-DAG: #[[LINE7]] = loc("kernel.py":7:5)
