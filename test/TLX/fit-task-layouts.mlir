// RUN: tlx-opt %s -split-input-file -verify-diagnostics --tlx-fit-task-layouts | FileCheck %s

// A one-warp task of a 4-warp kernel: its tensors (results, loop-carried
// values, a dense constant, slices and expand_dims) are laid out over one
// warp; the default task and a 4-warp task keep the kernel's layouts; a
// tensor and the constants from outside the task are recomputed inside.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked2d = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  // CHECK-DAG: #[[ONE:.*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
  // CHECK-DAG: #[[FOUR:.*]] = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
  // CHECK-DAG: #[[ONE2D:.*]] = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
  // CHECK-LABEL: tt.func @one_warp_task
  tt.func @one_warp_task(%p: !tt.ptr<f32>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    // CHECK: %[[OUTER:.*]] = tt.make_range {{.*}} : tensor<128xi32, #[[FOUR]]>
    %outer = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
    tlx.async_tasks {
      tlx.async_task default {
        // CHECK: tt.splat {{.*}} -> tensor<128x!tt.ptr<f32>, #[[FOUR]]>
        %ptrs = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
        %x = tt.load %ptrs : tensor<128x!tt.ptr<f32>, #blocked>
        tt.store %ptrs, %x : tensor<128x!tt.ptr<f32>, #blocked>
      }
      // CHECK: tlx.async_task num_warps(1)
      tlx.async_task num_warps(1) {
        // CHECK-NEXT: %[[INNER:.*]] = tt.make_range {{.*}} : tensor<128xi32, #[[ONE]]>
        // CHECK-NEXT: arith.constant 0 : i32
        // CHECK-NEXT: arith.constant 1 : i32
        // CHECK-NEXT: arith.constant dense<1.000000e+00> : tensor<128xf32, #[[ONE]]>
        %ones = arith.constant dense<1.0> : tensor<128xf32, #blocked>
        // CHECK: tt.addptr {{.*}}, %[[INNER]] : tensor<128x!tt.ptr<f32>, #[[ONE]]>, tensor<128xi32, #[[ONE]]>
        %ptrs = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
        %at = tt.addptr %ptrs, %outer : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
        // CHECK: scf.for {{.*}} -> (tensor<128xf32, #[[ONE]]>)
        %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %ones) -> (tensor<128xf32, #blocked>) : i32 {
          %x = tt.load %at : tensor<128x!tt.ptr<f32>, #blocked>
          %next = arith.addf %acc, %x : tensor<128xf32, #blocked>
          scf.yield %next : tensor<128xf32, #blocked>
        }
        tt.store %at, %sum : tensor<128x!tt.ptr<f32>, #blocked>
        // CHECK: tensor<16xi32, #ttg.slice<{dim = 1, parent = #[[ONE2D]]}>>
        // CHECK: tt.expand_dims {{.*}} -> tensor<16x1xi32, #[[ONE2D]]>
        %rows = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked2d}>>
        %column = tt.expand_dims %rows {axis = 1 : i32} : tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked2d}>> -> tensor<16x1xi32, #blocked2d>
        %grid = tt.broadcast %column : tensor<16x1xi32, #blocked2d> -> tensor<16x32xi32, #blocked2d>
        %total = "tt.reduce"(%grid) <{axis = 1 : i32}> ({
        ^bb0(%a: i32, %b: i32):
          %s = arith.addi %a, %b : i32
          tt.reduce.return %s : i32
        }) : (tensor<16x32xi32, #blocked2d>) -> tensor<16xi32, #ttg.slice<{dim = 1, parent = #blocked2d}>>
      }
      // CHECK: tlx.async_task num_warps(4)
      tlx.async_task num_warps(4) {
        // CHECK-NEXT: tt.make_range {{.*}} : tensor<128xi32, #[[FOUR]]>
        %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
      }
    }
    tt.return
  }
}

// -----

// An 8-warp kernel's 4-warp task: a wgmma accumulator keeps whole warp
// groups ([8, 1] -> [4, 1]), a linear layout moves its last warp basis into
// the registers.
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], instrShape = [16, 64, 16]}>
#linear = #ttg.linear<{register = [[0, 1]], lane = [[0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], warp = [[1, 0], [2, 0], [4, 0]], block = []}>
module attributes {"ttg.num-warps" = 8 : i32} {
  // CHECK-DAG: #[[MMA4:.*]] = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
  // CHECK-DAG: #[[LIN4:.*]] = #ttg.linear<{register = {{\[}}[0, 1], [4, 0]], lane = {{\[}}[0, 2], [0, 4], [0, 8], [0, 16], [0, 32]], warp = {{\[}}[1, 0], [2, 0]], block = []}>
  // CHECK-LABEL: tt.func @four_warp_task
  tt.func @four_warp_task() {
    tlx.async_tasks {
      tlx.async_task default {
      }
      tlx.async_task num_warps(4) {
        // CHECK: tensor<128x64xf32, #[[MMA4]]>
        %acc = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
        // CHECK: tensor<8x64xf32, #[[LIN4]]>
        %l = arith.constant dense<0.0> : tensor<8x64xf32, #linear>
      }
    }
    tt.return
  }
}

// -----

// A wgmma accumulator cannot be held by two warps.
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @wgmma_layout_in_two_warps() {
    tlx.async_tasks {
      tlx.async_task default {
      }
      tlx.async_task num_warps(2) {
        // expected-error @+1 {{'arith.constant' op holds a 'tensor<128x64xf32, #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>>', whose layout cannot be made for the 2 warps of its async task; give the task num_warps equal to the kernel's}}
        %acc = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
      }
    }
    tt.return
  }
}

// -----

// A tensor loaded outside the task cannot be recomputed inside it.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @loaded_outside(%p: !tt.ptr<f32>) {
    %ptrs = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    // expected-note @+1 {{the tensor is computed here}}
    %x = tt.load %ptrs : tensor<128x!tt.ptr<f32>, #blocked>
    tlx.async_tasks {
      tlx.async_task default {
      }
      tlx.async_task num_warps(1) {
        // expected-error @+1 {{'tt.store' op uses a tensor computed outside its async task by an op the task cannot recompute; a task runs on other warps, with registers of its own: compute the tensor inside the task, or pass it through a tlx.local_alloc buffer}}
        tt.store %ptrs, %x : tensor<128x!tt.ptr<f32>, #blocked>
      }
    }
    tt.return
  }
}
