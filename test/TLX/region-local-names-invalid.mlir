// RUN: tlx-opt %s -split-input-file -verify-diagnostics

// A name used before any definition and then defined inside a region that
// does not hold the use: MLIR's parser resolves the use into the region, and
// aborted when that region's op failed to parse after its first block. The
// tools rename the region's own definitions first
// (tlx/Support/InputRespelling.h), so each input below reports its real
// error, at its line and column.

func.func @async_tasks_cut_short() {
  %t = arith.negf %z : f32
  tlx.async_tasks {
    %z = arith.constant 1.0 : f32
  ^bb1:
    // expected-error @below {{custom op 'bogus'}}
    // expected-note @below {{Available dialects}}
    bogus
  }
  return
}

// -----

%t = arith.negf %z : f32
builtin.module {
  %z = arith.constant 1.0 : f32
^bb1(%w: f32):
  // expected-error @below {{custom op 'bogus' is unknown}}
  bogus
}

// -----

func.func @inner_task_cut_short() {
  tlx.async_tasks {
    tlx.async_task default {
      %t = arith.negf %z : f32
      tlx.async_task default {
        %z = arith.constant 1.0 : f32
      ^bb1:
        // expected-error @below {{expected ':'}}
        %u = arith.negf %z
      }
    }
  }
  return
}

// -----

// Without an error after it, the use is what is wrong.
func.func @use_outside_the_defining_region() {
  // expected-error @below {{use of undeclared SSA value name}}
  %t = arith.negf %z : f32
  scf.execute_region {
    %z = arith.constant 1.0 : f32
    scf.yield
  }
  return
}
