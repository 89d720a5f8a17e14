// RUN: tlx-opt %s -split-input-file --tlx-lower-warp-ballots -verify-diagnostics | FileCheck %s

// A ballot marker becomes one asm instance per thread over the elements it holds (2 here): their OR, the
// vote, the ballot in both. A marker nothing reads (a copy Triton's layout rematerialization left behind)
// goes.
// CHECK-LABEL: tt.func @ballot
// CHECK-NEXT:    %[[V:.*]] = tt.elementwise_inline_asm "{ .reg .pred p; .reg .b32 any; mov.b32 any, $2; or.b32 any, any, $3; setp.ne.b32 p, any, 0; vote.sync.ballot.b32 $0, p, 0xffffffff; mov.b32 $1, $0; }" {constraints = "=r,=r,r,r", packed_element = 2 : i32, pure = false} %arg0 : tensor<256xi32, #{{.*}}> -> tensor<256xi32, #{{.*}}>
// CHECK-NEXT:    tt.return %[[V]]
#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @ballot(%flags: tensor<256xi32, #b>) -> tensor<256xi32, #b> {
    %v = tt.elementwise_inline_asm "" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tlx.elements_per_thread = 2 : i32, tlx.layout_marker = "ballot"} %flags : tensor<256xi32, #b> -> tensor<256xi32, #b>
    %dead = tt.elementwise_inline_asm "" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tlx.elements_per_thread = 2 : i32, tlx.layout_marker = "ballot"} %flags : tensor<256xi32, #b> -> tensor<256xi32, #b>
    tt.return %v : tensor<256xi32, #b>
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @unmarked(%flags: tensor<256xi32, #b>) -> tensor<256xi32, #b> {
    // expected-error @below {{'tt.elementwise_inline_asm' op a ballot marker needs `tlx.elements_per_thread` (what each thread holds of the final layout) and a tensor}}
    %v = tt.elementwise_inline_asm "" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tlx.layout_marker = "ballot"} %flags : tensor<256xi32, #b> -> tensor<256xi32, #b>
    tt.return %v : tensor<256xi32, #b>
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @uneven(%flags: tensor<256xi32, #b>) -> tensor<256xi32, #b> {
    // expected-error @below {{'tt.elementwise_inline_asm' op a thread cannot hold 3 of the 256 elements of 'tensor<256xi32, #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>'}}
    %v = tt.elementwise_inline_asm "" {constraints = "=r,r", packed_element = 1 : i32, pure = false, tlx.elements_per_thread = 3 : i32, tlx.layout_marker = "ballot"} %flags : tensor<256xi32, #b> -> tensor<256xi32, #b>
    tt.return %v : tensor<256xi32, #b>
  }
}
