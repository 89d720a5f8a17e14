// RUN: tlx-opt %s -split-input-file -verify-diagnostics

// The counts TritonGPU modules carry are positive signless integers and the
// target a string. Stock Triton 3.6 parses other values and reads them with
// IntegerAttr::getInt() regardless, which is defined for signless integers
// only (our MLIR build asserts), so these checks are stricter than stock's.

// expected-error @below {{'builtin.module' op attribute "ttg.num-warps" must be a positive signless integer (e.g. 4 : i32), got 4 : ui32}}
module attributes {"ttg.num-warps" = 4 : ui32} {
}

// -----

// expected-error @below {{'builtin.module' op attribute "ttg.num-ctas" must be a positive signless integer (e.g. 4 : i32), got "2"}}
module attributes {"ttg.num-warps" = 4 : i32, "ttg.num-ctas" = "2"} {
}

// -----

// expected-error @below {{'builtin.module' op attribute "ttg.threads-per-warp" must be a positive signless integer (e.g. 4 : i32), got 0 : i32}}
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 0 : i32} {
}

// -----

// expected-error @below {{'builtin.module' op attribute "ttg.cluster-dim-x" must be a positive signless integer (e.g. 4 : i32), got -2 : i32}}
module attributes {"ttg.num-warps" = 4 : i32, "ttg.cluster-dim-x" = -2 : i32} {
}

// -----

// expected-error @below {{'builtin.module' op attribute "ttg.maxnreg" must be a positive signless integer (e.g. 4 : i32), got 2.400000e+02 : f32}}
module attributes {"ttg.num-warps" = 4 : i32, "ttg.maxnreg" = 240.0 : f32} {
}

// -----

// expected-error @below {{'builtin.module' op attribute "ttg.target" must be a string (e.g. "cuda:90"), got 90 : i32}}
module attributes {"ttg.num-warps" = 4 : i32, "ttg.target" = 90 : i32} {
}
