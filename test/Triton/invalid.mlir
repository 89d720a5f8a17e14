// tt verifiers reject what stock Triton 3.6 rejects.
// RUN: tlx-opt %s -split-input-file -verify-diagnostics

tt.func @range_backwards() {
  // expected-error @below {{'tt.make_range' op requires start < end, got [8, 0)}}
  %r = tt.make_range {end = 0 : i32, start = 8 : i32} : tensor<8xi32>
  tt.return
}

// -----

tt.func @range_size() {
  // expected-error @below {{'tt.make_range' op result must be a 1-D tensor of 8 elements, got 'tensor<16xi32>'}}
  %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<16xi32>
  tt.return
}

// -----

tt.func @unsplat_many(%t: tensor<4xi32>) {
  // expected-error @below {{'tt.unsplat' op source tensor must have exactly one element}}
  %s = tt.unsplat %t : tensor<4xi32>
  tt.return
}

// -----

tt.func @call_unknown(%x: i32) {
  // expected-error @below {{'tt.call' op 'missing' does not name a tt.func}}
  %r = tt.call @missing(%x) : (i32) -> i32
  tt.return
}

// -----

tt.func private @callee(%x: i32) -> i32 {
  tt.return %x : i32
}
tt.func @call_mismatch(%x: i64) {
  // expected-error @below {{'tt.call' op operand or result types do not match 'callee'}}
  %r = tt.call @callee(%x) : (i64) -> i32
  tt.return
}

// -----

tt.func @load_mask_shape(%p: tensor<8x!tt.ptr<f32>>, %m: tensor<4xi1>) {
  // expected-error @below {{'tt.load' op failed to verify that mask is i1 of the shape of ptr}}
  %v = "tt.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<8x!tt.ptr<f32>>, tensor<4xi1>) -> tensor<8xf32>
  tt.return
}

// -----

tt.func @store_value_type(%p: tensor<8x!tt.ptr<f32>>, %v: tensor<8xf16>) {
  // expected-error @below {{'tt.store' op failed to verify that value matches the pointee of ptr}}
  "tt.store"(%p, %v) : (tensor<8x!tt.ptr<f32>>, tensor<8xf16>) -> ()
  tt.return
}

// -----

tt.func @dot_result(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @below {{'tt.dot' op failed to verify that result type matches accumulator}}
  %d = "tt.dot"(%a, %b, %c) : (tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32>) -> tensor<16x16xf16>
  tt.return
}

// -----

// expected-error @below {{unregistered operation 'tt.no_such_op' found in dialect ('tt')}}
"tt.no_such_op"() : () -> ()

// -----

tt.func @unknown_custom_op() {
  // expected-error @below {{custom op 'tt.frobnicate' is unknown}}
  tt.frobnicate
  tt.return
}

// -----

// expected-error @below {{unknown  type `widget` in dialect `tt`}}
tt.func @unknown_type(%x: !tt.widget<f32>) {
  tt.return
}

// -----

// expected-error @below {{unknown attribute `zigzag` in dialect `ttg`}}
tt.func @unknown_attr(%x: tensor<4xf32, #ttg.zigzag<{}>>) {
  tt.return
}

// -----

tt.func private @returns_nothing() -> i64 {
  // expected-error @below {{'tt.return' op returns 0 values, but @returns_nothing is declared to return 1}}
  tt.return
}

// -----

tt.func private @returns_other_type(%x: i32) -> i64 {
  // expected-error @below {{'tt.return' op returns 'i32' as value 0, but @returns_other_type is declared to return 'i64'}}
  tt.return %x : i32
}

// -----

// Stock Triton 3.6 accepts this one (its result type inference erases the
// shape's end); no lowering can give it a meaning.
tt.func @reduce_axis(%c: tensor<32x32xf32>) {
  // expected-error @below {{'tt.reduce' op axis 2 is outside the operands' rank 2}}
  %r = "tt.reduce"(%c) <{axis = 2 : i32}> ({
  ^bb0(%l: f32, %rr: f32):
    tt.reduce.return %l : f32
  }) : (tensor<32x32xf32>) -> tensor<32xf32>
  tt.return
}

// -----

tt.func @reduce_shapes(%a: tensor<32x32xf32>, %b: tensor<16x32xf32>) {
  // expected-error @below {{'tt.reduce' op combines tensors of one shape, got 'tensor<32x32xf32>' and 'tensor<16x32xf32>'}}
  %r:2 = "tt.reduce"(%a, %b) <{axis = 1 : i32}> ({
  ^bb0(%l: f32, %l2: f32, %rr: f32, %rr2: f32):
    tt.reduce.return %l, %rr2 : f32, f32
  }) : (tensor<32x32xf32>, tensor<16x32xf32>) -> (tensor<32xf32>, tensor<16xf32>)
  tt.return
}

// -----

tt.func @reduce_result(%c: tensor<32x16xf32>) {
  // expected-error @below {{'tt.reduce' op result 'tensor<32xf32>' is not 'tensor<32x16xf32>' reduced along axis 0}}
  %r = "tt.reduce"(%c) <{axis = 0 : i32}> ({
  ^bb0(%l: f32, %rr: f32):
    tt.reduce.return %l : f32
  }) : (tensor<32x16xf32>) -> tensor<32xf32>
  tt.return
}

// -----

tt.func @reduce_region_arguments(%c: tensor<32x32xf32>) {
  // expected-error @below {{'tt.reduce' op combine region must take 2 scalars ('f32', 'f32'), got ('f32', 'i32')}}
  %r = "tt.reduce"(%c) <{axis = 0 : i32}> ({
  ^bb0(%l: f32, %rr: i32):
    tt.reduce.return %l : f32
  }) : (tensor<32x32xf32>) -> tensor<32xf32>
  tt.return
}

// -----

tt.func @reduce_region_results(%c: tensor<32x32xf32>) {
  // expected-error @below {{'tt.reduce' op combine region must return ('f32'), got ('f32', 'f32')}}
  %r = "tt.reduce"(%c) <{axis = 0 : i32}> ({
  ^bb0(%l: f32, %rr: f32):
    tt.reduce.return %l, %rr : f32, f32
  }) : (tensor<32x32xf32>) -> tensor<32xf32>
  tt.return
}

// -----

tt.func @scan_result(%c: tensor<32x32xf32>) {
  // expected-error @below {{'tt.scan' op result 'tensor<32x32xf16>' differs from its operand 'tensor<32x32xf32>'}}
  %r = "tt.scan"(%c) <{axis = 0 : i32, reverse = false}> ({
  ^bb0(%l: f32, %rr: f32):
    tt.scan.return %l : f32
  }) : (tensor<32x32xf32>) -> tensor<32x32xf16>
  tt.return
}

// -----

tt.func @map_no_operands() {
  // expected-error @below {{'tt.map_elementwise' op expected 1 or more operands, but found 0}}
  %r = "tt.map_elementwise"() <{pack = 1 : i32}> ({
    %c = arith.constant 0.0 : f32
    tt.map_elementwise.return %c : f32
  }) : () -> tensor<32xf32>
  tt.return
}

// -----

tt.func @map_pack(%c: tensor<32xf32>) {
  // expected-error @below {{'tt.map_elementwise' op pack must be a positive power of 2, got 3}}
  %r = "tt.map_elementwise"(%c) <{pack = 3 : i32}> ({
  ^bb0(%a: f32, %b: f32, %d: f32):
    tt.map_elementwise.return %a, %b, %d : f32, f32, f32
  }) : (tensor<32xf32>) -> tensor<32xf32>
  tt.return
}

// -----

tt.func @map_shape(%c: tensor<32xf32>) {
  // expected-error @below {{'tt.map_elementwise' op requires the same shape for all operands and results}}
  %r = "tt.map_elementwise"(%c) <{pack = 1 : i32}> ({
  ^bb0(%a: f32):
    tt.map_elementwise.return %a : f32
  }) : (tensor<32xf32>) -> tensor<64xf32>
  tt.return
}

// -----

#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b2 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tt.func @map_layout(%c: tensor<256xf32, #b1>) {
  // expected-error @below {{'tt.map_elementwise' op operands and results must share one layout}}
  %r = "tt.map_elementwise"(%c) <{pack = 1 : i32}> ({
  ^bb0(%a: f32):
    tt.map_elementwise.return %a : f32
  }) : (tensor<256xf32, #b1>) -> tensor<256xf32, #b2>
  tt.return
}

// -----

tt.func @map_empty_region(%c: tensor<32xf32>) {
  // expected-error @below {{'tt.map_elementwise' op needs a region computing one pack of elements}}
  %r = "tt.map_elementwise"(%c) <{pack = 1 : i32}> ({
  }) : (tensor<32xf32>) -> tensor<32xf32>
  tt.return
}

// -----

tt.func @map_region_arguments(%c: tensor<32xf32>, %i: tensor<32xi32>) {
  // expected-error @below {{'tt.map_elementwise' op region must take 4 scalars, 2 of each operand's element type ('f32', 'i32'), got ('f32', 'i32', 'f32', 'i32')}}
  %r = "tt.map_elementwise"(%c, %i) <{pack = 2 : i32}> ({
  ^bb0(%a: f32, %b: i32, %d: f32, %e: i32):
    tt.map_elementwise.return %a, %d : f32, f32
  }) : (tensor<32xf32>, tensor<32xi32>) -> tensor<32xf32>
  tt.return
}

// -----

tt.func @map_region_results(%c: tensor<32xf32>) {
  %r = "tt.map_elementwise"(%c) <{pack = 1 : i32}> ({
  ^bb0(%a: f32):
    %t = arith.constant true
    cf.cond_br %t, ^bb1, ^bb2
  ^bb1:
    tt.map_elementwise.return %a : f32
  ^bb2:
    // expected-error @below {{'tt.map_elementwise.return' op must return 1 scalars, 1 of each result's element type ('f32'), got ('f32', 'f32')}}
    tt.map_elementwise.return %a, %a : f32, f32
  }) : (tensor<32xf32>) -> tensor<32xf32>
  tt.return
}

// -----

tt.func @map_store(%c: tensor<32xf32>, %p: !tt.ptr<f32>) {
  %r = "tt.map_elementwise"(%c) <{pack = 1 : i32}> ({
  ^bb0(%a: f32):
    // expected-error @below {{'tt.store' op writes memory, which tt.map_elementwise's region may not: it runs once per pack, with no mask}}
    tt.store %p, %a : !tt.ptr<f32>
    tt.map_elementwise.return %a : f32
  }) : (tensor<32xf32>) -> tensor<32xf32>
  tt.return
}

// -----

tt.func @map_negative_pack(%c: tensor<32xf32>) {
  // expected-error @below {{'tt.map_elementwise' op pack must be a positive power of 2, got -2}}
  %r = "tt.map_elementwise"(%c) <{pack = -2 : i32}> ({
  ^bb0(%a: f32):
    tt.map_elementwise.return %a : f32
  }) : (tensor<32xf32>) -> tensor<32xf32>
  tt.return
}

// -----

tt.func @map_huge_pack(%c: tensor<32xf32>) {
  // expected-error @below {{'tt.map_elementwise' op region must take 1073741824 scalars, 1073741824 of each operand's element type ('f32'), got ('f32')}}
  %r = "tt.map_elementwise"(%c) <{pack = 1073741824 : i32}> ({
  ^bb0(%a: f32):
    tt.map_elementwise.return %a : f32
  }) : (tensor<32xf32>) -> tensor<32xf32>
  tt.return
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
tt.func @reduce_result_layout(%c: tensor<32x32xf32, #b>) {
  // expected-error @below {{'tt.reduce' op result 'tensor<32xf32, #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>>' must have the layout #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>, its operand's reduced along axis 1}}
  %r = "tt.reduce"(%c) <{axis = 1 : i32}> ({
  ^bb0(%l: f32, %rr: f32):
    %s = arith.addf %l, %rr : f32
    tt.reduce.return %s : f32
  }) : (tensor<32x32xf32, #b>) -> tensor<32xf32, #ttg.slice<{dim = 0, parent = #b}>>
  tt.return
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
tt.func @reduce_result_without_layout(%c: tensor<32x32xf32, #b>) {
  // expected-error @below {{'tt.reduce' op result 'tensor<32xf32>' must have the layout #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}>, its operand's reduced along axis 0}}
  %r = "tt.reduce"(%c) <{axis = 0 : i32}> ({
  ^bb0(%l: f32, %rr: f32):
    %s = arith.addf %l, %rr : f32
    tt.reduce.return %s : f32
  }) : (tensor<32x32xf32, #b>) -> tensor<32xf32>
  tt.return
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tt.func @reduce_result_with_layout(%c: tensor<32x32xf32>) {
  // expected-error @below {{'tt.reduce' op result 'tensor<32xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>' must have no layout, its operand's reduced along axis 0}}
  %r = "tt.reduce"(%c) <{axis = 0 : i32}> ({
  ^bb0(%l: f32, %rr: f32):
    %s = arith.addf %l, %rr : f32
    tt.reduce.return %s : f32
  }) : (tensor<32x32xf32>) -> tensor<32xf32, #b>
  tt.return
}

// -----

#s = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
tt.func @reduce_shared(%c: tensor<32x32xf32, #s>) {
  // expected-error @below {{'tt.reduce' op cannot reduce a tensor of layout #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}> along axis 0}}
  %r = "tt.reduce"(%c) <{axis = 0 : i32}> ({
  ^bb0(%l: f32, %rr: f32):
    %s = arith.addf %l, %rr : f32
    tt.reduce.return %s : f32
  }) : (tensor<32x32xf32, #s>) -> tensor<32xf32>
  tt.return
}

// -----

tt.func @expand_dims_axis_out_of_range(%x: tensor<32xf32>) {
  // expected-error @below {{'tt.expand_dims' op axis 2 is outside [0, 1], where a rank-1 tensor can take a unit dimension}}
  %a = tt.expand_dims %x {axis = 2 : i32} : tensor<32xf32> -> tensor<32x1xf32>
  tt.return
}

// -----

tt.func @expand_dims_negative_axis(%x: tensor<32xf32>) {
  // expected-error @below {{'tt.expand_dims' op axis -1 is outside [0, 1]}}
  %a = tt.expand_dims %x {axis = -1 : i32} : tensor<32xf32> -> tensor<32x1xf32>
  tt.return
}

// -----

tt.func @expand_dims_wrong_place(%x: tensor<32xf32>) {
  // expected-error @below {{'tt.expand_dims' op result 'tensor<32x1xf32>' is not 'tensor<32xf32>' with a unit dimension at axis 0}}
  %a = tt.expand_dims %x {axis = 0 : i32} : tensor<32xf32> -> tensor<32x1xf32>
  tt.return
}

// -----

tt.func @expand_dims_element_type(%x: tensor<32xf32>) {
  // expected-error @below {{'tt.expand_dims' op requires the same element type for all operands and results}}
  %a = tt.expand_dims %x {axis = 1 : i32} : tensor<32xf32> -> tensor<32x1xf16>
  tt.return
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
tt.func @expand_dims_other_slice(%x: tensor<32xf32, #ttg.slice<{dim = 1, parent = #b}>>) {
  // expected-error @below {{'tt.expand_dims' op cannot give a tensor of layout #ttg.slice<{dim = 1, parent = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>}> a unit dimension at axis 0: that takes a #ttg.slice layout with dim = 0}}
  %a = tt.expand_dims %x {axis = 0 : i32} : tensor<32xf32, #ttg.slice<{dim = 1, parent = #b}>> -> tensor<1x32xf32, #b>
  tt.return
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#c = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
tt.func @expand_dims_not_the_parent(%x: tensor<32xf32, #ttg.slice<{dim = 1, parent = #b}>>) {
  // expected-error @below {{'tt.expand_dims' op result 'tensor<32x1xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>>' must have the layout #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>, the parent of its operand's slice}}
  %a = tt.expand_dims %x {axis = 1 : i32} : tensor<32xf32, #ttg.slice<{dim = 1, parent = #b}>> -> tensor<32x1xf32, #c>
  tt.return
}

// -----

tt.func @broadcast_scalar(%x: f32) {
  // expected-error @below {{custom op 'tt.broadcast' invalid kind of type specified: expected builtin.tensor, but found 'f32'}}
  %a = tt.broadcast %x : f32 -> tensor<32xf32>
  tt.return
}

// -----

tt.func @broadcast_rank(%x: tensor<1x32xf32>) {
  // expected-error @below {{'tt.broadcast' op result 'tensor<32xf32>' has another rank than its operand 'tensor<1x32xf32>': tt.broadcast keeps the rank, tt.expand_dims adds dimensions}}
  %a = tt.broadcast %x : tensor<1x32xf32> -> tensor<32xf32>
  tt.return
}

// -----

tt.func @broadcast_non_unit(%x: tensor<1x32xf32>) {
  // expected-error @below {{'tt.broadcast' op dimension 1 of 'tensor<1x32xf32>' has size 32, which cannot become 16: only dimensions of size 1 broadcast}}
  %a = tt.broadcast %x : tensor<1x32xf32> -> tensor<8x16xf32>
  tt.return
}

// -----

#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#c = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
tt.func @broadcast_layout(%x: tensor<1x32xf32, #b>) {
  // expected-error @below {{'tt.broadcast' op result 'tensor<8x32xf32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>>' must keep the layout of its operand}}
  %a = tt.broadcast %x : tensor<1x32xf32, #b> -> tensor<8x32xf32, #c>
  tt.return
}

// -----

tt.func @trans_not_a_permutation(%x: tensor<4x8xf32>) {
  // expected-error @below {{'tt.trans' op order [0, 0] is not a permutation of 0..1}}
  %a = tt.trans %x {order = array<i32: 0, 0>} : tensor<4x8xf32> -> tensor<4x4xf32>
  tt.return
}

// -----

tt.func @trans_order_size(%x: tensor<4x8xf32>) {
  // expected-error @below {{'tt.trans' op order has 3 entries for an operand of rank 2}}
  %a = tt.trans %x {order = array<i32: 1, 0, 2>} : tensor<4x8xf32> -> tensor<8x4xf32>
  tt.return
}

// -----

tt.func @trans_shape(%x: tensor<4x8xf32>) {
  // expected-error @below {{'tt.trans' op result 'tensor<4x8xf32>' is not 'tensor<4x8xf32>' permuted by [1, 0]}}
  %a = tt.trans %x {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<4x8xf32>
  tt.return
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tt.func @trans_drops_layout(%x: tensor<32xf32, #b>) {
  // expected-error @below {{'tt.trans' op result 'tensor<32xf32>' needs a layout: its operand 'tensor<32xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>' has one}}
  %a = tt.trans %x {order = array<i32: 0>} : tensor<32xf32, #b> -> tensor<32xf32>
  tt.return
}

// -----

tt.func @join_shape(%x: tensor<32xf32>) {
  // expected-error @below {{'tt.join' op result 'tensor<32x4xf32>' is not two 'tensor<32xf32>' stacked along a new last dimension}}
  %c = tt.join %x, %x : tensor<32xf32> -> tensor<32x4xf32>
  tt.return
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tt.func @join_drops_layout(%x: tensor<32xf32, #b>) {
  // expected-error @below {{'tt.join' op result 'tensor<32x2xf32>' needs a layout: its operand}}
  %c = tt.join %x, %x : tensor<32xf32, #b> -> tensor<32x2xf32>
  tt.return
}

// -----

tt.func @split_last_dimension(%x: tensor<32x4xf32>) {
  // expected-error @below {{'tt.split' op operand 'tensor<32x4xf32>' must have a last dimension of size 2}}
  %d, %e = tt.split %x : tensor<32x4xf32> -> tensor<32xf32>
  tt.return
}

// -----

tt.func @split_shape(%x: tensor<32x2xf32>) {
  // expected-error @below {{'tt.split' op results 'tensor<16xf32>' are not 'tensor<32x2xf32>' split along its last dimension}}
  %d, %e = tt.split %x : tensor<32x2xf32> -> tensor<16xf32>
  tt.return
}

// -----

tt.func @reshape_count(%x: tensor<4x8xf32>) {
  // expected-error @below {{'tt.reshape' op result 'tensor<64xf32>' must have as many elements as its operand 'tensor<4x8xf32>'}}
  %f = tt.reshape %x : tensor<4x8xf32> -> tensor<64xf32>
  tt.return
}

// -----

tt.func @reshape_count_overflows(%x: tensor<4294967296x4294967296xf32>) {
  // expected-error @below {{'tt.reshape' op has a 'tensor<4294967296x4294967296xf32>', larger than Triton's 1048576-element limit on a tensor}}
  %f = tt.reshape %x : tensor<4294967296x4294967296xf32> -> tensor<4294967296x4294967296x2xf32>
  tt.return
}

// -----

tt.func @splat_not_a_power_of_two(%x: f32) {
  // expected-error @below {{'tt.splat' op has a 'tensor<3x4xf32>' of 12 elements: a Triton tensor holds a power of two}}
  %a = tt.splat %x : f32 -> tensor<3x4xf32>
  tt.return
}

// -----

tt.func @splat_too_large(%x: f32) {
  // expected-error @below {{'tt.splat' op has a 'tensor<2048x1024xf32>', larger than Triton's 1048576-element limit on a tensor}}
  %a = tt.splat %x : f32 -> tensor<2048x1024xf32>
  tt.return
}

// -----

tt.func @return_not_a_power_of_two(%x: tensor<6xf32>) -> tensor<6xf32> {
  // expected-error @below {{'tt.return' op has a 'tensor<6xf32>' of 6 elements: a Triton tensor holds a power of two}}
  tt.return %x : tensor<6xf32>
}

// -----

#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tt.func @reshape_gains_layout(%x: tensor<4x8xf32>) {
  // expected-error @below {{'tt.reshape' op result 'tensor<32xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>' may not have a layout: its operand 'tensor<4x8xf32>' has none}}
  %f = tt.reshape %x allow_reorder : tensor<4x8xf32> -> tensor<32xf32, #b>
  tt.return
}

// -----

tt.func @splat_dynamic_shape(%x: f32) {
  // expected-error @below {{'tt.splat' op has a 'tensor<?xf32>': Triton tensors have static shapes}}
  %a = tt.splat %x : f32 -> tensor<?xf32>
  tt.return
}
