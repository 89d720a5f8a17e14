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

// -----

// A scale marker becomes one asm instance per thread over the elements it holds (2 here): a branch, uniform
// over the warp, on the ballot (its first element), around one multiply per element, each result in its
// row's register. A copy nothing reads goes.
// CHECK-LABEL: tt.func @scale_rows
// CHECK-NEXT:    %[[Y:.*]] = tt.elementwise_inline_asm "{ .reg .pred p; setp.ne.b32 p, $6, 0; @!p bra.uni tlx_scale_rows_${:uid}; mul.f32 $0, $2, $4; mul.f32 $1, $3, $5; tlx_scale_rows_${:uid}: }" {constraints = "=f,=f,0,1,f,f,r,r", packed_element = 2 : i32, pure = false} %arg0, %arg1, %arg2 : tensor<64x4xf32, #{{.*}}>, tensor<64x4xf32, #{{.*}}>, tensor<64x4xi32, #{{.*}}> -> tensor<64x4xf32, #{{.*}}>
// CHECK-NEXT:    tt.return %[[Y]]
#b = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @scale_rows(%rows: tensor<64x4xf32, #b>, %factors: tensor<64x4xf32, #b>, %ballot: tensor<64x4xi32, #b>) -> tensor<64x4xf32, #b> {
    %y = tt.elementwise_inline_asm "" {constraints = "=r,r,r,r", packed_element = 1 : i32, pure = false, tlx.elements_per_thread = 2 : i32, tlx.layout_marker = "scale_rows"} %rows, %factors, %ballot : tensor<64x4xf32, #b>, tensor<64x4xf32, #b>, tensor<64x4xi32, #b> -> tensor<64x4xf32, #b>
    %dead = tt.elementwise_inline_asm "" {constraints = "=r,r,r,r", packed_element = 1 : i32, pure = false, tlx.elements_per_thread = 2 : i32, tlx.layout_marker = "scale_rows"} %rows, %factors, %ballot : tensor<64x4xf32, #b>, tensor<64x4xf32, #b>, tensor<64x4xi32, #b> -> tensor<64x4xf32, #b>
    tt.return %y : tensor<64x4xf32, #b>
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @unmarked_scale(%rows: tensor<64x4xf32, #b>, %factors: tensor<64x4xf32, #b>, %ballot: tensor<64x4xi32, #b>) -> tensor<64x4xf32, #b> {
    // expected-error @below {{'tt.elementwise_inline_asm' op a scale_rows marker needs `tlx.elements_per_thread` (what each thread holds of the final layout) and a tensor}}
    %y = tt.elementwise_inline_asm "" {constraints = "=r,r,r,r", packed_element = 1 : i32, pure = false, tlx.layout_marker = "scale_rows"} %rows, %factors, %ballot : tensor<64x4xf32, #b>, tensor<64x4xf32, #b>, tensor<64x4xi32, #b> -> tensor<64x4xf32, #b>
    tt.return %y : tensor<64x4xf32, #b>
  }
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @scale_without_a_ballot(%rows: tensor<64x4xf32, #b>, %factors: tensor<64x4xf32, #b>) -> tensor<64x4xf32, #b> {
    // expected-error @below {{'tt.elementwise_inline_asm' op a scale_rows marker takes the rows, their factors (f32) and the ballot (i32), got 'tensor<64x4xf32, #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>>', 'tensor<64x4xf32, #ttg.blocked<{sizePerThread = [1, 2], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>>'}}
    %y = tt.elementwise_inline_asm "" {constraints = "=r,r,r", packed_element = 1 : i32, pure = false, tlx.elements_per_thread = 2 : i32, tlx.layout_marker = "scale_rows"} %rows, %factors : tensor<64x4xf32, #b>, tensor<64x4xf32, #b> -> tensor<64x4xf32, #b>
    tt.return %y : tensor<64x4xf32, #b>
  }
}
