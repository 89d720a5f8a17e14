// Every TLX verifier rejects what it must, with an actionable message.
// RUN: tlx-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{a TLX allocation holds at least one buffer, got 0}}
func.func @zero_buffers(%a: !tlx.buffers<0, 16xf32, smem>) {
  return
}

// -----

// expected-error @+1 {{TLX buffer dimensions must be positive, got 0}}
func.func @zero_dim(%a: !tlx.buffers<2, 16x0xf32, smem>) {
  return
}

// -----

// expected-error @+1 {{TLX buffers hold integers or floats, not 'index'}}
func.func @index_elements(%a: !tlx.buffer<16xindex, smem>) {
  return
}

// -----

// expected-error @+1 {{tensor memory buffers are 2-D (rows x columns), got rank 3}}
func.func @tmem_rank(%a: !tlx.buffers<1, 2x128x64xf32, tmem>) {
  return
}

// -----

// expected-error @+1 {{a TLX barrier allocation holds at least one mbarrier, got 0}}
func.func @zero_barriers(%a: !tlx.mbarriers<0>) {
  return
}

// -----

// expected-error @+1 {{expected static shape}}
func.func @dynamic_dim(%a: !tlx.buffers<2, ?x16xf32, smem>) {
  return
}

// -----

// expected-error @+1 {{unknown TLX storage kind 'gmem'; expected smem, tmem or smemCluster}}
func.func @bad_storage(%a: !tlx.buffers<2, 16xf32, gmem>) {
  return
}

// -----

func.func @zero_arrivals() {
  // expected-error @+1 {{attribute 'arrive_count' failed to satisfy constraint: 32-bit signless integer attribute whose value is positive}}
  %b = tlx.alloc_barriers arrive_count = 0 : !tlx.mbarriers<2>
  return
}

// -----

// An mbarrier counts at most 2^20 - 1 arrivals per phase.
func.func @too_many_arrivals() {
  // expected-error @+1 {{attribute 'arrive_count' failed to satisfy constraint: 32-bit signless integer attribute whose value is positive whose maximum value is 1048575}}
  %b = tlx.alloc_barriers arrive_count = 1048576 : !tlx.mbarriers<2>
  return
}

// -----

func.func @too_many_bytes(%m: !tlx.mbarrier) {
  // expected-error @+1 {{attribute 'bytes' failed to satisfy constraint: 32-bit signless integer attribute whose value is positive whose maximum value is 1048575}}
  tlx.barrier_expect_bytes %m, 1048576 : !tlx.mbarrier
  return
}

// -----

func.func @zero_arrive(%m: !tlx.mbarrier) {
  // expected-error @+1 {{'tlx.barrier_arrive' op attribute 'count' failed to satisfy constraint}}
  tlx.barrier_arrive %m, 0 : !tlx.mbarrier
  return
}

// -----

func.func @arrive_too_many(%m: !tlx.mbarrier) {
  // expected-error @+1 {{'tlx.barrier_arrive' op attribute 'count' failed to satisfy constraint: 32-bit signless integer attribute whose value is positive whose maximum value is 1048575}}
  tlx.barrier_arrive %m, 1048576 : !tlx.mbarrier
  return
}

// -----

func.func @view_of_tensor(%t: tensor<4xf32>, %i: i32) {
  // expected-error @+1 {{'tlx.local_view' op operand #0 must be TLX buffers, mbarriers or CLC responses}}
  %v = "tlx.local_view"(%t, %i) : (tensor<4xf32>, i32) -> !tlx.mbarrier
  return
}

// -----

func.func @view_wrong_result(%a: !tlx.buffers<2, 16xf32, smem>, %i: i32) {
  // expected-error @+2 {{'tlx.local_view' op failed to infer returned types}}
  // expected-error @+1 {{'tlx.local_view' op inferred type(s) '!tlx.buffer<16xf32, smem>' are incompatible with return type(s) of operation '!tlx.buffer<16xf16, smem>'}}
  %v = "tlx.local_view"(%a, %i) : (!tlx.buffers<2, 16xf32, smem>, i32) -> !tlx.buffer<16xf16, smem>
  return
}

// -----

func.func @wait_on_buffer(%b: !tlx.buffer<16xf32, smem>, %p: i32) {
  // expected-error @+1 {{'tlx.barrier_wait' op operand #0 must be}}
  "tlx.barrier_wait"(%b, %p) : (!tlx.buffer<16xf32, smem>, i32) -> ()
  return
}

// -----

// A buffer type with no dimension at all is rejected by the type verifier.
// expected-error @+1 {{a TLX buffer needs at least one dimension}}
func.func @no_dims(%a: !tlx.buffer<f32, smem>) {
  return
}

// -----

func.func @tma_into_tensor_memory(%d: !tt.tensordesc<tensor<128x64xf32>>, %b: !tlx.buffer<128x64xf32, tmem>,
                                  %m: !tlx.mbarrier, %x: i32) {
  // expected-error @+1 {{'tlx.async_descriptor_load' op needs a shared-memory buffer (storage smem), got tmem}}
  tlx.async_descriptor_load %d[%x, %x], %b, %m : !tt.tensordesc<tensor<128x64xf32>>, !tlx.buffer<128x64xf32, tmem>
  return
}

// -----

// A block may have leading dimensions of 1 its buffer has not, only those.
func.func @tma_leading_dims(%d: !tt.tensordesc<tensor<2x64x64xf16>>, %b: !tlx.buffer<64x64xf16, smem>, %x: i32) {
  // expected-error @+1 {{'tlx.async_descriptor_store' op descriptor block shape [2, 64, 64] does not match the buffer shape [64, 64]}}
  tlx.async_descriptor_store %d[%x, %x, %x], %b : !tt.tensordesc<tensor<2x64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  return
}

// -----

// The copies TLX writes as PTX take blocks of the buffer's dimensions.
func.func @tma_leading_ones_with_multicast(%d: !tt.tensordesc<tensor<1x64x64xf16>>, %b: !tlx.buffer<64x64xf16, smem>,
                                           %m: !tlx.mbarrier, %x: i32) {
  // expected-error @+1 {{'tlx.async_descriptor_load' op copies a descriptor block of shape [1, 64, 64] into a buffer of fewer dimensions [64, 64]: with multicast, two CTAs or an L2 cache hint the block must have the buffer's dimensions}}
  tlx.async_descriptor_load %d[%x, %x, %x], %b, %m multicast[%x] : !tt.tensordesc<tensor<1x64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  return
}

// -----

func.func @tma_offsets(%d: !tt.tensordesc<tensor<64x64xf16>>, %b: !tlx.buffer<64x64xf16, smem>, %x: i32) {
  // expected-error @+1 {{'tlx.async_descriptor_store' op needs one offset per descriptor dimension: 2 expected, 1 given}}
  tlx.async_descriptor_store %d[%x], %b : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  return
}

// -----

func.func @view_changes_storage(%b: !tlx.buffer<64x64xf32, smem>) {
  // expected-error @+1 {{'tlx.local_reinterpret' op a view stays in the storage of its buffer (smem)}}
  %r = tlx.local_reinterpret %b : !tlx.buffer<64x64xf32, smem> -> !tlx.buffer<64x64xf32, smemCluster>
  return
}

// -----

func.func @slice_rank(%b: !tlx.buffer<64x64xf32, smem>) {
  // expected-error @+1 {{'tlx.local_slice' op needs one offset per dimension of the 2-D buffer}}
  %s = tlx.local_slice %b, [0] : !tlx.buffer<64x64xf32, smem> -> !tlx.buffer<64x32xf32, smem>
  return
}

// -----

func.func @slice_element(%b: !tlx.buffer<64x64xf32, smem>) {
  // expected-error @+1 {{'tlx.local_slice' op a slice keeps the element type of its buffer}}
  %s = tlx.local_slice %b, [0, 0] : !tlx.buffer<64x64xf32, smem> -> !tlx.buffer<64x32xi32, smem>
  return
}

// -----

func.func @dot_b_in_tmem(%a: !tlx.buffer<64x64xf16, smem>, %b: !tlx.buffer<64x64xf16, tmem>, %acc: tensor<64x64xf32>) {
  // expected-error @+1 {{'tlx.async_dot' op on Hopper `b` is read from a shared-memory buffer (storage smem)}}
  %d = tlx.async_dot %a, %b, %acc : !tlx.buffer<64x64xf16, smem> * !tlx.buffer<64x64xf16, tmem> -> tensor<64x64xf32>
  return
}

// -----

func.func @dot_rank(%a: !tlx.buffer<64xf16, smem>, %b: !tlx.buffer<64x64xf16, smem>, %acc: tensor<64x64xf32>) {
  // expected-error @+1 {{'tlx.async_dot' op operands and accumulator must be 2-D}}
  %d = tlx.async_dot %a, %b, %acc : !tlx.buffer<64xf16, smem> * !tlx.buffer<64x64xf16, smem> -> tensor<64x64xf32>
  return
}

// -----

func.func @dot_accumulator_shape(%a: !tlx.buffer<64x32xf16, smem>, %b: !tlx.buffer<32x64xf16, smem>, %acc: tensor<64x128xf32>) {
  // expected-error @+1 {{'tlx.async_dot' op accumulator must be 64x64, got 64x128}}
  %d = tlx.async_dot %a, %b, %acc : !tlx.buffer<64x32xf16, smem> * !tlx.buffer<32x64xf16, smem> -> tensor<64x128xf32>
  return
}

// -----

func.func @dot_element_types(%a: !tlx.buffer<64x32xf16, smem>, %b: !tlx.buffer<32x64xbf16, smem>, %acc: tensor<64x64xf32>) {
  // expected-error @+1 {{'tlx.async_dot' op a and b must have one element type, got 'f16' and 'bf16'}}
  %d = tlx.async_dot %a, %b, %acc : !tlx.buffer<64x32xf16, smem> * !tlx.buffer<32x64xbf16, smem> -> tensor<64x64xf32>
  return
}

// -----

func.func @slice_not_a_power_of_two(%b: !tlx.buffer<64x128xf16, smem>) {
  // A slice's shape is a buffer's: its type verifier rejects a non-power-of-two size first.
  // expected-error @+1 {{shared-memory buffer dimensions must be powers of two, got 48}}
  %s = tlx.local_slice %b, [0, 0] : !tlx.buffer<64x128xf16, smem> -> !tlx.buffer<64x48xf16, smem>
  return
}

// -----

func.func @slice_tensor_memory_rows(%b: !tlx.buffer<128x256xf32, tmem>) {
  // expected-error @+1 {{'tlx.local_slice' op tensor memory is sliced along columns only: keep all 128 rows}}
  %s = tlx.local_slice %b, [64, 0] : !tlx.buffer<128x256xf32, tmem> -> !tlx.buffer<64x256xf32, tmem>
  return
}

// -----

// Sizes are computed in 64 bits and bounded: 2^24 buffers of 128x128xf32 would be 2^40 bytes.
// expected-error @+1 {{a TLX allocation of 16777216 buffers of 2-D 'f32' needs 1099511627776 bytes, more than any memory a kernel can allocate (2^31)}}
func.func @huge_allocation(%a: !tlx.buffers<16777216, 128x128xf32, smem>) {
  return
}

// -----

// expected-error @+1 {{a TLX allocation of 2147483647 buffers of 3-D 'f64' needs over 2^63 bytes, more than any memory a kernel can allocate (2^31)}}
func.func @overflowing_allocation(%a: !tlx.buffers<2147483647, 1073741824x1073741824x1073741824xf64, smem>) {
  return
}

// -----

// expected-error @+1 {{a TLX barrier allocation of 99999999999 mbarriers needs more than 2^31 bytes}}
func.func @huge_barrier_set(%a: !tlx.mbarriers<99999999999>) {
  return
}

// -----

// expected-error @+1 {{TLX buffers do not hold i1: store booleans as i8 (tl.int8)}}
func.func @bool_buffer(%a: !tlx.buffers<1, 64xi1, smem>) {
  return
}

// -----

// expected-error @+1 {{shared-memory buffer dimensions must be powers of two, got 48}}
func.func @shared_dims(%a: !tlx.buffers<2, 64x48xf16, smem>) {
  return
}

// -----

func.func @dot_int8(%a: !tlx.buffer<64x32xi8, smem>, %b: !tlx.buffer<32x64xi8, smem>, %acc: tensor<64x64xf32>) {
  // expected-error @+1 {{'tlx.async_dot' op wgmma multiplies f16, bf16, f32 (as tf32) or fp8 (e4m3, e5m2) operands into a float32 accumulator, not 'i8'}}
  %d = tlx.async_dot %a, %b, %acc : !tlx.buffer<64x32xi8, smem> * !tlx.buffer<32x64xi8, smem> -> tensor<64x64xf32>
  return
}

// -----

// Stock's warp_group_dot rejects fp8 into float32 below 32 products per fold; caught here, before the lowering.
func.func @dot_fp8_imprecise_below_32(%a: !tlx.buffer<64x32xf8E5M2, smem>, %b: !tlx.buffer<32x64xf8E5M2, smem>, %acc: tensor<64x64xf32>) {
  // expected-error @+1 {{'tlx.async_dot' op maxNumImpreciseAcc = 16: fp8 operands with a float32 accumulator take 0 (the default) or at least 32 products between folds into float32}}
  %d = tlx.async_dot %a, %b, %acc {maxNumImpreciseAcc = 16 : i32} : !tlx.buffer<64x32xf8E5M2, smem> * !tlx.buffer<32x64xf8E5M2, smem> -> tensor<64x64xf32>
  return
}

// -----

func.func @dot_k8(%a: !tlx.buffer<64x8xf16, smem>, %b: !tlx.buffer<8x64xf16, smem>, %acc: tensor<64x64xf32>) {
  // expected-error @+1 {{'tlx.async_dot' op K = 8 is not a multiple of 16, the K of one wgmma for 'f16' operands}}
  %d = tlx.async_dot %a, %b, %acc : !tlx.buffer<64x8xf16, smem> * !tlx.buffer<8x64xf16, smem> -> tensor<64x64xf32>
  return
}

// -----

func.func @bulk_copy_bytes(%b: !tlx.buffer<2xf32, smem>, %m: !tlx.mbarrier, %r: i32) {
  // expected-error @+1 {{'tlx.async_remote_shmem_copy' op copies 8 bytes; a bulk copy moves a multiple of 16 bytes}}
  tlx.async_remote_shmem_copy %b to %b remote %r, %m : !tlx.buffer<2xf32, smem> -> !tlx.buffer<2xf32, smem>
  return
}

// -----

func.func @fence_scope() {
  // expected-error @+1 {{custom op 'tlx.fence' expected string or keyword containing one of the following enum values for attribute 'scope' [gpu, sys]}}
  tlx.fence cta
  return
}

// -----

func.func @prefetch_offsets(%d: !tt.tensordesc<tensor<64x64xf16>>, %x: i32) {
  // expected-error @+1 {{'tlx.async_descriptor_prefetch_tensor' op needs one offset per descriptor dimension: 2 expected, 1 given}}
  tlx.async_descriptor_prefetch_tensor %d[%x] : !tt.tensordesc<tensor<64x64xf16>>
  return
}

// -----

func.func @bulk_store_bytes(%b: !tlx.buffer<64xf32, smem>, %g: !tt.ptr<f32>) {
  %c = arith.constant 264 : i32
  // expected-error @+1 {{'tlx.async_store' op copies 264 bytes; a bulk copy moves a positive multiple of 16 bytes, at most the buffer's 256}}
  tlx.async_store %b to %g, %c : !tlx.buffer<64xf32, smem> -> !tt.ptr<f32>
  return
}

// -----

func.func @async_remote_store_words(%v: tensor<1xf16>, %b: !tlx.buffer<1xf16, smem>, %m: !tlx.mbarrier, %r: i32) {
  // expected-error @+1 {{'tlx.async_remote_shmem_store' op stores 2 bytes; st.async moves whole 32-bit words}}
  tlx.async_remote_shmem_store %v, %b remote %r, %m : tensor<1xf16>, !tlx.buffer<1xf16, smem>
  return
}

// -----

func.func @gather_axis(%b: !tlx.buffer<64xf32, smem>, %i: tensor<16xi32>) {
  // expected-error @+1 {{'tlx.local_gather' op axis 1 is not a dimension of the 1-D buffer}}
  %g = tlx.local_gather %b[%i] axis = 1 : !tlx.buffer<64xf32, smem>, tensor<16xi32> -> tensor<16xf32>
  return
}

// -----

func.func @gather_rank(%b: !tlx.buffer<64xf32, smem>, %i: tensor<4x4xi32>) {
  // expected-error @+1 {{'tlx.local_gather' op indices of rank 2 for a buffer of rank 1}}
  %g = tlx.local_gather %b[%i] axis = 0 : !tlx.buffer<64xf32, smem>, tensor<4x4xi32> -> tensor<4x4xf32>
  return
}

// -----

func.func @gather_extent(%b: !tlx.buffer<16x8xf32, smem>, %i: tensor<4x16xi32>) {
  // expected-error @+1 {{'tlx.local_gather' op indices extend 16 along dimension 1, past the buffer's 8}}
  %g = tlx.local_gather %b[%i] axis = 0 : !tlx.buffer<16x8xf32, smem>, tensor<4x16xi32> -> tensor<4x16xf32>
  return
}

// -----

func.func @gather_bits(%b: !tlx.buffer<64xi8, smem>, %i: tensor<16xi32>) {
  // expected-error @+1 {{'tlx.local_gather' op moves elements of 16, 32 or 64 bits, not 'i8'}}
  %g = tlx.local_gather %b[%i] axis = 0 : !tlx.buffer<64xi8, smem>, tensor<16xi32> -> tensor<16xi8>
  return
}

// -----

func.func @gather_result(%b: !tlx.buffer<64xf32, smem>, %i: tensor<16xi32>) {
  // expected-error @+1 {{'tlx.local_gather' op result must have the indices' shape and the buffer's element type}}
  %g = tlx.local_gather %b[%i] axis = 0 : !tlx.buffer<64xf32, smem>, tensor<16xi32> -> tensor<16xf16>
  return
}

// -----

func.func @scatter_value(%b: !tlx.buffer<64xf32, smem>, %i: tensor<16xi32>, %v: tensor<8xf32>) {
  // expected-error @+1 {{'tlx.local_scatter' op the scattered tensor must have the indices' shape and the buffer's element type}}
  tlx.local_scatter %v, %b[%i] axis = 0 : tensor<8xf32>, !tlx.buffer<64xf32, smem>, tensor<16xi32>
  return
}

// -----

func.func @reshape_count(%b: !tlx.buffer<64x128xf16, smem>) {
  // expected-error @+1 {{'tlx.local_reshape' op reshaping [64, 128] to [64, 64]: the number of elements must stay the same}}
  %r = tlx.local_reshape %b : !tlx.buffer<64x128xf16, smem> -> !tlx.buffer<64x64xf16, smem>
  return
}

// -----

func.func @reshape_type(%b: !tlx.buffer<64x128xf16, smem>) {
  // expected-error @+1 {{'tlx.local_reshape' op keeps the element type ('f16'); change it with tlx.local_reinterpret}}
  %r = tlx.local_reshape %b : !tlx.buffer<64x128xf16, smem> -> !tlx.buffer<64x128xbf16, smem>
  return
}

// -----

func.func @reshape_tmem(%b: !tlx.buffer<128x128xf32, tmem>) {
  // expected-error @+1 {{'tlx.local_reshape' op reshapes shared-memory buffers only}}
  %r = tlx.local_reshape %b : !tlx.buffer<128x128xf32, tmem> -> !tlx.buffer<64x256xf32, tmem>
  return
}

// -----

// expected-error @+1 {{a TLX allocation of CLC responses holds at least one response, got 0}}
func.func @zero_clc_responses(%a: !tlx.clc_responses<0>) {
  return
}

// -----

// expected-error @+1 {{a TLX allocation of 99999999999 CLC responses needs more than 2^31 bytes}}
func.func @huge_clc_responses(%a: !tlx.clc_responses<99999999999>) {
  return
}

// -----

// A request writes a CLC response, not a buffer.
// expected-note @+1 {{prior use here}}
func.func @clc_request_into_a_buffer(%b: !tlx.buffer<2xi64, smem>, %m: !tlx.mbarrier) {
  // expected-error @+1 {{use of value '%b' expects different type than prior uses: '!tlx.clc_response' vs '!tlx.buffer<2xi64, smem>'}}
  tlx.clc_try_cancel %b, %m
  return
}

// -----

func.func @tma_reduce_type(%d: !tt.tensordesc<tensor<64x64xf32>>, %b: !tlx.buffer<64x64xf32, smem>, %x: i32) {
  // expected-error @+1 {{'tlx.async_descriptor_store' op store_reduce='max' cannot combine elements of type 'f32' (TMA reductions: add on i32, i64, f32, f16, bf16; min and max on i32, i64, f16, bf16; and, or, xor on i32, i64)}}
  tlx.async_descriptor_store %d[%x, %x], %b reduce max : !tt.tensordesc<tensor<64x64xf32>>, !tlx.buffer<64x64xf32, smem>
  return
}

// -----

func.func @tma_reduce_bitwise_float(%d: !tt.tensordesc<tensor<64x64xf16>>, %b: !tlx.buffer<64x64xf16, smem>, %x: i32) {
  // expected-error @+1 {{'tlx.async_descriptor_store' op store_reduce='xor' cannot combine elements of type 'f16'}}
  tlx.async_descriptor_store %d[%x, %x], %b reduce xor : !tt.tensordesc<tensor<64x64xf16>>, !tlx.buffer<64x64xf16, smem>
  return
}

// -----

func.func @bulk_load_bytes(%g: !tt.ptr<f32>, %b: !tlx.buffer<64xf32, smem>, %m: !tlx.mbarrier) {
  %size = arith.constant 264 : i32
  // expected-error @+1 {{'tlx.async_bulk_load' op copies 264 bytes; a bulk copy moves a positive multiple of 16 bytes, at most the buffer's 256}}
  tlx.async_bulk_load %g to %b, %size, %m : !tt.ptr<f32> -> !tlx.buffer<64xf32, smem>
  return
}

// -----

func.func @bulk_load_rank(%g: !tt.ptr<f32>, %b: !tlx.buffer<16x16xf32, smem>, %m: !tlx.mbarrier, %x: i32) {
  // expected-error @+1 {{'tlx.async_bulk_load' op copies bytes in order into a 1-D buffer, got shape [16, 16]}}
  tlx.async_bulk_load %g to %b, %x, %m : !tt.ptr<f32> -> !tlx.buffer<16x16xf32, smem>
  return
}

// -----

func.func @bulk_load_tmem(%g: !tt.ptr<f32>, %b: !tlx.buffer<128x64xf32, tmem>, %m: !tlx.mbarrier, %x: i32) {
  // expected-error @+1 {{'tlx.async_bulk_load' op needs a shared-memory buffer (storage smem), got tmem}}
  tlx.async_bulk_load %g to %b, %x, %m : !tt.ptr<f32> -> !tlx.buffer<128x64xf32, tmem>
  return
}

// -----

func.func @exclusive_tasks_not_alone() {
  // expected-error @+1 {{'tlx.async_tasks' op exclusive=True promises the kernel's only tasks, but the kernel has 2 tlx.async_tasks}}
  tlx.async_tasks exclusive {
    tlx.async_task default {
    }
  }
  // expected-note @+1 {{another tlx.async_tasks}}
  tlx.async_tasks {
    tlx.async_task default {
    }
  }
  return
}

// -----

func.func @negative_suspend_hint() {
  // expected-error @+1 {{'tlx.async_tasks' op attribute 'mbarrierTryWaitSuspendNs' failed to satisfy constraint: 32-bit signless integer attribute whose value is non-negative}}
  tlx.async_tasks mbarrier_try_wait_suspend_ns(-1) {
    tlx.async_task default {
    }
  }
  return
}

// -----

func.func @assert_two_sides(%x: tensor<64xf32>) {
  // expected-error @below {{'tlx.assert_same_layout' op compares `lhs` with either `rhs` or an `expected` layout}}
  tlx.assert_same_layout %x, %x {expected = 1 : i32} : tensor<64xf32>, tensor<64xf32>
  return
}

// -----

func.func @assert_no_side(%x: tensor<64xf32>) {
  // expected-error @below {{'tlx.assert_same_layout' op compares `lhs` with either `rhs` or an `expected` layout}}
  tlx.assert_same_layout %x : tensor<64xf32>
  return
}

// -----

func.func @assert_kinds(%x: tensor<64xf16>, %b: !tlx.buffer<64xf16, smem>) {
  // expected-error @below {{'tlx.assert_same_layout' op compares a register tensor with a buffer: register and shared layouts are never the same}}
  tlx.assert_same_layout %x, %b : tensor<64xf16>, !tlx.buffer<64xf16, smem>
  return
}

// -----

func.func @assert_shapes(%x: tensor<64xf32>, %y: tensor<32xf32>) {
  // expected-error @below {{'tlx.assert_same_layout' op compares layouts of two shapes, [64] and [32]: a layout is the same only over one shape}}
  tlx.assert_same_layout %x, %y : tensor<64xf32>, tensor<32xf32>
  return
}

// -----

// A ballot of a tensor is a tensor of its shape; of a scalar, a scalar.
tt.func @ballot_shapes(%q: tensor<128xi1>) {
  // expected-error @below {{'tlx.vote_ballot_sync' op the result has the shape of `pred` (one i32 per element, or one for a scalar), got 'tensor<128xi1>' -> 'tensor<64xi32>'}}
  %t = tlx.vote_ballot_sync %q {mask = -1 : i32} : tensor<128xi1> -> tensor<64xi32>
  tt.return
}

// -----

tt.func @ballot_of_a_tensor_to_a_scalar(%q: tensor<128xi1>) {
  // expected-error @below {{'tlx.vote_ballot_sync' op the result has the shape of `pred` (one i32 per element, or one for a scalar), got 'tensor<128xi1>' -> 'i32'}}
  %t = tlx.vote_ballot_sync %q {mask = -1 : i32} : tensor<128xi1> -> i32
  tt.return
}

// -----

tt.func @ballot_of_a_tensor_in_half_a_warp(%q: tensor<128xi1>) {
  // expected-error @below {{'tlx.vote_ballot_sync' op a tensor `pred` is voted on by every lane, so the mask must be 0xFFFFFFFF (a lane outside the mask may not execute vote.sync), got 0x0000ffff}}
  %t = tlx.vote_ballot_sync %q {mask = 65535 : i32} : tensor<128xi1> -> tensor<128xi32>
  tt.return
}

// -----

// One factor per row of a 2-D tensor.
tt.func @scale_rows_by_a_factor_per_column(%x: tensor<64x128xf32>, %s: tensor<128xf32>) {
  // expected-error @below {{'tlx.scale_rows' op scales the rows of a 2-D `src` by a 1-D `scale` of one factor per row, got 'tensor<64x128xf32>' and 'tensor<128xf32>'}}
  %y = tlx.scale_rows %x, %s : tensor<64x128xf32>, tensor<128xf32>
  tt.return
}

// -----

tt.func @scale_rows_of_a_vector(%x: tensor<64xf32>, %s: tensor<64xf32>) {
  // expected-error @below {{'tlx.scale_rows' op scales the rows of a 2-D `src` by a 1-D `scale` of one factor per row, got 'tensor<64xf32>' and 'tensor<64xf32>'}}
  %y = tlx.scale_rows %x, %s : tensor<64xf32>, tensor<64xf32>
  tt.return
}

// -----

// mul.f32: float32 rows and factors only.
tt.func @scale_rows_in_half_precision(%x: tensor<64x128xf16>, %s: tensor<64xf16>) {
  // expected-error @below {{'tlx.scale_rows' op operand #0 must be ranked tensor of 32-bit float values, but got 'tensor<64x128xf16>'}}
  %y = tlx.scale_rows %x, %s : tensor<64x128xf16>, tensor<64xf16>
  tt.return
}
