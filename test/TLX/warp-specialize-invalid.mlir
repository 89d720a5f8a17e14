// RUN: tlx-opt %s -split-input-file -verify-diagnostics --tlx-assign-layouts --tlx-lower-to-ttg

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @two_defaults() {
    // expected-error @+1 {{needs exactly one default task (the kernel's own warps run it), found 2}}
    tlx.async_tasks {
      tlx.async_task default {
      }
      tlx.async_task default {
      }
    }
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @op_between_tasks() {
    tlx.async_tasks {
      tlx.async_task default {
      }
      // expected-error @+1 {{cannot appear directly in tlx.async_tasks; put it inside a tlx.async_task}}
      %c = arith.constant 0 : i32
    }
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @nested() {
    tlx.async_tasks {
      tlx.async_task default {
        // expected-error @+1 {{cannot be nested: async tasks already run inside another tlx.async_tasks}}
        tlx.async_tasks {
          tlx.async_task default {
          }
        }
      }
    }
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @task_outside() {
    // expected-error @+1 {{expects parent op 'tlx.async_tasks'}}
    tlx.async_task num_warps(4) {
    }
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @replicated_default() {
    tlx.async_tasks {
      // expected-error @+1 {{the default task runs once, on the kernel's warps: it cannot be replicated}}
      tlx.async_task default replicate(2) {
      }
    }
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @no_warps() {
    tlx.async_tasks {
      tlx.async_task default {
      }
      // expected-error @+1 {{a non-default task needs num_warps}}
      tlx.async_task registers(64) {
      }
    }
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @six_warps() {
    tlx.async_tasks {
      tlx.async_task default {
      }
      // expected-error @+1 {{num_warps must be a power of 2, got 6}}
      tlx.async_task num_warps(6) {
      }
    }
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @registers_out_of_range() {
    tlx.async_tasks {
      tlx.async_task default {
      }
      // expected-error @+1 {{registers must be a multiple of 8 in 24..256 (setmaxnreg), got 20}}
      tlx.async_task num_warps(4) registers(20) {
      }
    }
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @replica_id_outside() {
    // expected-error @+1 {{is only meaningful inside a tlx.async_task}}
    %r = tlx.async_task_replica_id : i32
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @default_of_other_warps() {
    tlx.async_tasks {
      // expected-error @+1 {{the default task runs on the kernel's 4 warps, not num_warps=8}}
      tlx.async_task default num_warps(8) {
      }
      tlx.async_task num_warps(4) {
      }
    }
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @too_many_warps() {
    // expected-error @+1 {{the tasks need 36 warps in all (4 for the default task, 32 for the others, rounded up to whole warp groups); a CTA has at most 32}}
    tlx.async_tasks {
      tlx.async_task default {
      }
      tlx.async_task num_warps(8) replicate(4) {
      }
    }
    tt.return
  }
}

// -----

// Stock's ttg.warp_specialize verifier wants the kernel's warps in whole warp groups (so does the public TLX).
module attributes {"ttg.num-warps" = 2 : i32} {
  tt.func @two_warp_kernel() {
    // expected-error @+1 {{warp specialization needs the kernel's num_warps to be a multiple of 4 (whole warp groups for the default task), got 2}}
    tlx.async_tasks {
      tlx.async_task default {
      }
      tlx.async_task num_warps(1) registers(24) {
      }
    }
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @tensors_in_one_warp(%p: !tt.ptr<f32>) {
    tlx.async_tasks {
      tlx.async_task default {
      }
      tlx.async_task num_warps(1) {
        // expected-error @+1 {{holds a 'tensor<128xi32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>' laid out over other than the 1 warps of its async task (run tlx-fit-task-layouts first)}}
        %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #blocked>
      }
    }
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @loaded_tensor_from_above(%p: !tt.ptr<f32>) {
    %ptrs = tt.splat %p : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #blocked>
    // expected-note @+1 {{the tensor is computed here}}
    %x = tt.load %ptrs : tensor<128x!tt.ptr<f32>, #blocked>
    tlx.async_tasks {
      tlx.async_task default {
      }
      tlx.async_task num_warps(4) {
        // `%ptrs` is recomputed inside; `%x` would need the load again.
        // expected-error @+1 {{uses a tensor computed outside its async task}}
        tt.store %ptrs, %x : tensor<128x!tt.ptr<f32>, #blocked>
      }
    }
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @two_launch_caps() {
    tlx.async_tasks {
      tlx.async_task default {
      }
      tlx.async_task num_warps(4) registers(200) {
      }
    }
    // expected-error @+1 {{needs a launch cap of 176 registers per thread where an earlier tlx.async_tasks of this kernel needs 224}}
    tlx.async_tasks {
      tlx.async_task default {
      }
      tlx.async_task num_warps(4) registers(104) {
      }
    }
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @two_warp_counts() {
    tlx.async_tasks {
      tlx.async_task default {
      }
      tlx.async_task num_warps(8) {
      }
    }
    // expected-error @+1 {{register budgets need every tlx.async_tasks of the kernel to use the same number of warps: this one uses 8, another 12}}
    tlx.async_tasks {
      tlx.async_task default {
      }
      tlx.async_task num_warps(4) registers(104) {
      }
    }
    tt.return
  }
}

// -----

// Replicas are bounded before any lowering builds a partition for each.
tt.func @too_many_replicas() {
  tlx.async_tasks {
    tlx.async_task default {
    }
    // expected-error @below {{'tlx.async_task' op needs 2147483647 warps (1 x 2147483647 replicas); a CTA has at most 32}}
    tlx.async_task num_warps(1) replicate(2147483647) {
    }
  }
  tt.return
}
