// RUN: tlx-opt %s -split-input-file -verify-diagnostics --tlx-assign-layouts --tlx-lower-to-ttg | FileCheck %s

// Register budgets of tasks smaller than a warp group. `setmaxnreg` sets a whole warp group; stock Triton 3.6's
// allocate-warp-groups pads the partitions to whole warp groups with empty ones (powers of 2, 16 registers),
// places them largest first after the kernel's warps and runs each warp group at the largest budget in it.
// The launch cap (`ttg.maxnreg`) accounts for the warp groups the same way.

// The public API's idiom: two 1-warp tasks of 24 registers. With stock's 2 padding warps they fill one warp
// group of 24: 8 warps, and the launch cap 136 leaves the default (136 * 8 - 24 * 4) / 4 = 248.
// CHECK: module attributes {ttg.maxnreg = 136 : i32
// CHECK-LABEL: tt.func @one_warp_tasks
// CHECK: ttg.warp_specialize() attributes {requestedRegisters = array<i32: 24, 24>}
// CHECK: partition0() num_warps(1)
// CHECK: partition1() num_warps(1)
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @one_warp_tasks() {
    tlx.async_tasks {
      tlx.async_task default {
      }
      tlx.async_task num_warps(1) registers(24) {
      }
      tlx.async_task num_warps(1) registers(24) {
      }
    }
    tt.return
  }
}

// -----

// Half a warp group (the other half stock's padding of 16): the warp group runs at 64, the launch cap 160
// leaves the default (160 * 8 - 64 * 4) / 4 = 256.
// CHECK: module attributes {ttg.maxnreg = 160 : i32
// CHECK-LABEL: tt.func @half_a_warp_group
// CHECK: ttg.warp_specialize() attributes {requestedRegisters = array<i32: 64>}
// CHECK: partition0() num_warps(2)
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @half_a_warp_group() {
    tlx.async_tasks {
      tlx.async_task default {
      }
      tlx.async_task num_warps(2) registers(64) {
      }
    }
    tt.return
  }
}

// -----

// Two softmax warp groups of 192 and three small tasks: 4 + 8 + 4 warps, uniform share 128. The small tasks
// and a 2-warp padding share the fourth warp group (24): the default keeps (128 * 16 - 192 * 8 - 24 * 4) / 4
// = 104.
// CHECK: module attributes {ttg.maxnreg = 128 : i32
// CHECK-LABEL: tt.func @attention_tasks
// CHECK: ttg.warp_specialize() attributes {requestedRegisters = array<i32: 192, 192, 24, 24>}
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @attention_tasks() {
    tlx.async_tasks {
      tlx.async_task default {
      }
      tlx.async_task num_warps(4) registers(192) replicate(2) {
      }
      tlx.async_task num_warps(1) registers(24) {
      }
      tlx.async_task num_warps(1) registers(24) {
      }
    }
    tt.return
  }
}

// -----

// Unequal budgets in one warp group: the group runs at the largest, 48 (as stock Triton and the public TLX
// do), and the launch cap counts 48 x 4 warps: 152 leaves the default (152 * 8 - 48 * 4) / 4 = 256.
// CHECK: module attributes {ttg.maxnreg = 152 : i32
// CHECK-LABEL: tt.func @unequal_budgets
// CHECK: ttg.warp_specialize() attributes {requestedRegisters = array<i32: 24, 48>}
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @unequal_budgets() {
    tlx.async_tasks {
      tlx.async_task default {
      }
      // expected-warning @+1 {{runs with 48 registers per thread, not the 24 it asks for: its 2 warps share a warp group with tasks of a larger budget}}
      tlx.async_task num_warps(2) registers(24) {
      }
      tlx.async_task num_warps(1) registers(48) {
      }
    }
    tt.return
  }
}

// -----

// A default task asking for a budget no launch cap lands on: with a consumer warp group of 232 and a 1-warp
// producer (a warp group of 24), a cap of 160 would leave it (160 * 12 - 1024) / 4 = 224, short of its 232;
// the next cap up, 168, leaves it (168 * 12 - 1024) / 4 = 248 (the kernel's 12 warps launch with 168 each).
// CHECK: module attributes {ttg.maxnreg = 168 : i32
// CHECK-LABEL: tt.func @default_budget_between_caps
// CHECK: ttg.warp_specialize() attributes {requestedRegisters = array<i32: 232, 24>}
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @default_budget_between_caps() {
    tlx.async_tasks {
      tlx.async_task default registers(232) {
      }
      tlx.async_task num_warps(4) registers(232) {
      }
      tlx.async_task num_warps(1) registers(24) {
      }
    }
    tt.return
  }
}

// -----

// A task that may call the driver's assert or print gets at least 32 registers from stock (an NVIDIA driver
// bug): its warp group runs at 32, the launch cap 144 leaves the default (144 * 8 - 32 * 4) / 4 = 256.
// CHECK: module attributes {ttg.maxnreg = 144 : i32
// CHECK-LABEL: tt.func @printing_task
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @printing_task(%n: i32) {
    tlx.async_tasks {
      tlx.async_task default {
      }
      // expected-warning @+1 {{runs with 32 registers per thread, not the 24 it asks for: it may call the driver's assert or print, and Triton gives such code at least 32 (the work-around of an NVIDIA driver bug)}}
      tlx.async_task num_warps(1) registers(24) {
        tt.print " n: " {hex = false, isSigned = array<i32: 1>} : %n : i32
      }
    }
    tt.return
  }
}

// -----

// Budgets that do not fit are dropped, as the public TLX drops them: no requestedRegisters, no launch cap.
// CHECK: module attributes {"ttg.num-warps" = 4 : i32}
// CHECK-LABEL: tt.func @budgets_do_not_fit
// CHECK: ttg.warp_specialize(){{$}}
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @budgets_do_not_fit() {
    // expected-warning @+1 {{register budgets do not fit: the tasks ask for 59392 registers and leave the default task 40 per thread (it asks for 200); an SM has 65536 for all of its 384 threads. Compiled without register budgets (no setmaxnreg), as the public TLX does}}
    tlx.async_tasks {
      tlx.async_task default registers(200) {
      }
      tlx.async_task num_warps(4) registers(232) replicate(2) {
      }
    }
    tt.return
  }
}
