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

func.func @view_of_tensor(%t: tensor<4xf32>, %i: i32) {
  // expected-error @+1 {{'tlx.local_view' op operand #0 must be TLX buffers or mbarriers}}
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
