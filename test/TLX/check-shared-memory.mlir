// RUN: tlx-opt %s -split-input-file -verify-diagnostics --tlx-check-shared-memory

// 2 x 128x256xf16 (131072 bytes) + 2 x 64x256xf16 (65536) + 4 mbarriers (32) = 196640 bytes: fits sm_90's
// 232448.
module attributes {ttg.target = "cuda:90"} {
  tt.func @fits() {
    %a = tlx.local_alloc : !tlx.buffers<2, 128x256xf16, smem>
    %b = tlx.local_alloc : !tlx.buffers<2, 64x256xf16, smem>
    %m = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<4>
    // Tensor memory is not shared memory.
    %t = tlx.local_alloc : !tlx.buffers<2, 128x256xf32, tmem>
    tt.return
  }
}

// -----

// The last buffer crosses the limit (229408 + 32768 bytes): reported there, every allocation listed.
module attributes {ttg.target = "cuda:90"} {
  tt.func @over() {
    // expected-note @below {{131072 bytes here}}
    %a = tlx.local_alloc : !tlx.buffers<2, 128x256xf16, smem>
    // expected-note @below {{32 bytes here}}
    %m = tlx.alloc_barriers arrive_count = 1 : !tlx.mbarriers<4>
    // expected-note @below {{98304 bytes here}}
    %b = tlx.local_alloc : !tlx.buffers<3, 64x256xf16, smem>
    // expected-error @below {{the TLX buffers and mbarriers of this kernel need 262176 bytes of shared memory; a CTA on cuda:90 has at most 232448 (and Triton's own passes may need scratch on top): use fewer or smaller buffers}}
    // expected-note @below {{32768 bytes here}}
    %c = tlx.local_alloc : !tlx.buffers<1, 128x128xf16, smem>
    tt.return
  }
}

// -----

// sm_80 has 166912 bytes.
module attributes {ttg.target = "cuda:80"} {
  tt.func @ampere() {
    // expected-error @below {{need 196608 bytes of shared memory; a CTA on cuda:80 has at most 166912}}
    // expected-note @below {{196608 bytes here}}
    %a = tlx.local_alloc : !tlx.buffers<3, 128x256xf16, smem>
    tt.return
  }
}

// -----

// Without a known target there is no limit to check against.
module {
  tt.func @no_target() {
    %a = tlx.local_alloc : !tlx.buffers<64, 128x256xf16, smem>
    tt.return
  }
}

// -----

// CLC responses are 16 bytes each: 227 KiB of buffers fill sm_100's 232448 bytes, the responses cross it.
module attributes {ttg.target = "cuda:100"} {
  tt.func @clc_responses() {
    // expected-note @below {{232448 bytes here}}
    %a = tlx.local_alloc : !tlx.buffers<227, 1024xi8, smem>
    // expected-error @below {{need 232496 bytes of shared memory; a CTA on cuda:100 has at most 232448}}
    // expected-note @below {{48 bytes here}}
    %r = tlx.alloc_clc_responses : !tlx.clc_responses<3>
    tt.return
  }
}

// -----

// A storage alias spec no buffer set is allocated in holds nothing: a warning, in either storage; a used one is quiet.
module attributes {ttg.target = "cuda:100"} {
  tt.func @unused_specs() {
    // expected-warning @below {{no buffer set is allocated with reuse=<this storage_alias_spec>: it holds nothing (and takes its buffer_size_bytes when it has one); allocate buffers with reuse=spec or remove it}}
    %s = tlx.storage_alias_spec {buffer_size_bytes = 4096 : i32} : !tlx.storage_alias_spec<smem>
    // expected-warning @below {{no buffer set is allocated with reuse=<this storage_alias_spec>}}
    %t = tlx.storage_alias_spec : !tlx.storage_alias_spec<tmem>
    %u = tlx.storage_alias_spec : !tlx.storage_alias_spec<smem>
    %a = tlx.local_alloc reuse(%u : !tlx.storage_alias_spec<smem>) : !tlx.buffers<2, 64x64xf16, smem>
    tt.return
  }
}
