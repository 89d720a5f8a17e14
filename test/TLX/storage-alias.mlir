// A storage alias spec becomes one shared-memory allocation of bytes; each of
// its buffer sets a memdesc_reinterpret of it, counted in its own buffers,
// indexed at the offsets its reuse-group tree gives.
// RUN: tlx-opt %s -split-input-file --tlx-check-shared-memory --tlx-assign-layouts --tlx-lower-to-nvvm --tlx-lower-to-ttg | FileCheck %s

// qk: 16 KB per index; p: two 4 KB subtiles (group_size 2) beside alpha
// (256 B), 12 KB aligned to 16 KB; slot stride 16 KB, two indices: 32 KB.
// CHECK-LABEL: tt.func @tree
// CHECK-SAME:    (%[[I:.*]]: i32)
// CHECK:      %[[S:.*]] = ttg.local_alloc {alignment = 1024 : i32} : () -> !ttg.memdesc<32768xi8, #{{.*}}, #smem, mutable>
// CHECK-NEXT: %[[QK:.*]] = ttg.memdesc_reinterpret %[[S]] : {{.*}} -> !ttg.memdesc<2x64x64xf32,
// CHECK-NEXT: %[[P:.*]] = ttg.memdesc_reinterpret %[[S]] : {{.*}} -> !ttg.memdesc<8x64x32xf16,
// CHECK-NEXT: %[[AL:.*]] = ttg.memdesc_reinterpret %[[S]] : {{.*}} -> !ttg.memdesc<128x64xf32,
// qk[i]: index i (16 KB of 16 KB), unchanged
// CHECK-NEXT: ttg.memdesc_index %[[QK]][%[[I]]]
// p[i]: 4 KB slot (i / 2) * 4 + i % 2
// CHECK:      %[[PS:.*]] = arith.divsi %[[I]], %{{.*}} : i32
// CHECK:      arith.muli %[[PS]]
// CHECK:      arith.remsi %[[I]]
// CHECK:      %[[PI:.*]] = arith.addi
// CHECK-NEXT: ttg.memdesc_index %[[P]][%[[PI]]]
// alpha[i]: 256-byte slot 64 i + 32 (after P's 8 KB)
// CHECK:      %[[C64:.*]] = arith.constant 64 : i32
// CHECK-NEXT: %[[A0:.*]] = arith.muli %[[I]], %[[C64]] : i32
// CHECK-NEXT: %[[C32:.*]] = arith.constant 32 : i32
// CHECK-NEXT: %[[AI:.*]] = arith.addi %[[A0]], %[[C32]] : i32
// CHECK-NEXT: ttg.memdesc_index %[[AL]][%[[AI]]]
// CHECK-NOT: tlx.
module attributes {"ttg.num-warps" = 4 : i32, "ttg.target" = "cuda:90"} {
  tt.func @tree(%i: i32) {
    %s = tlx.storage_alias_spec : !tlx.storage_alias_spec<smem>
    %qk = tlx.local_alloc reuse(%s : !tlx.storage_alias_spec<smem>) : !tlx.buffers<2, 64x64xf32, smem>
    %p = tlx.local_alloc reuse(%s : !tlx.storage_alias_spec<smem>) : !tlx.buffers<4, 64x32xf16, smem>
    %alpha = tlx.local_alloc reuse(%s : !tlx.storage_alias_spec<smem>) : !tlx.buffers<2, 64xf32, smem>
    %gp = tlx.reuse_group(%p) shared group_size = 2 : !tlx.buffers<4, 64x32xf16, smem>
    %gd = tlx.reuse_group(%gp, %alpha) distinct group_size = 1 : !tlx.reuse_group, !tlx.buffers<2, 64xf32, smem>
    %g = tlx.reuse_group(%qk, %gd) shared group_size = 1 : !tlx.buffers<2, 64x64xf32, smem>, !tlx.reuse_group
    tlx.set_buffer_overlap %s, %g : !tlx.storage_alias_spec<smem>
    %vq = tlx.local_view %qk[%i] : !tlx.buffers<2, 64x64xf32, smem>
    %vp = tlx.local_view %p[%i] : !tlx.buffers<4, 64x32xf16, smem>
    %va = tlx.local_view %alpha[%i] : !tlx.buffers<2, 64xf32, smem>
    %x = tlx.local_load %va : !tlx.buffer<64xf32, smem> -> tensor<64xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
    tt.return
  }
}

// -----

// Shared-memory buffers start at multiples of 128 bytes (a TMA copy's
// shared-memory address needs it): two sets of 64-byte buffers side by side
// take 128 bytes each, a 256-byte slot per index.
// CHECK-LABEL: tt.func @small_buffers
// CHECK-SAME:    (%[[I:.*]]: i32)
// CHECK:      %[[S:.*]] = ttg.local_alloc {alignment = 1024 : i32} : () -> !ttg.memdesc<512xi8,
// CHECK-NEXT: %[[A:.*]] = ttg.memdesc_reinterpret %[[S]] : {{.*}} -> !ttg.memdesc<8x16xf32,
// CHECK-NEXT: %[[B:.*]] = ttg.memdesc_reinterpret %[[S]] : {{.*}} -> !ttg.memdesc<8x16xf32,
// a[i]: 64-byte buffer 4 i (byte 256 i)
// CHECK:      %[[AI:.*]] = arith.muli %[[I]], %{{.*}} : i32
// CHECK-NEXT: ttg.memdesc_index %[[A]][%[[AI]]]
// b[i]: 64-byte buffer 4 i + 2 (byte 256 i + 128)
// CHECK:      %[[B0:.*]] = arith.muli %[[I]], %{{.*}} : i32
// CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : i32
// CHECK-NEXT: %[[BI:.*]] = arith.addi %[[B0]], %[[C2]] : i32
// CHECK-NEXT: ttg.memdesc_index %[[B]][%[[BI]]]
module attributes {"ttg.num-warps" = 4 : i32, "ttg.target" = "cuda:90"} {
  tt.func @small_buffers(%i: i32) {
    %s = tlx.storage_alias_spec : !tlx.storage_alias_spec<smem>
    %a = tlx.local_alloc reuse(%s : !tlx.storage_alias_spec<smem>) : !tlx.buffers<2, 16xf32, smem>
    %b = tlx.local_alloc reuse(%s : !tlx.storage_alias_spec<smem>) : !tlx.buffers<2, 16xf32, smem>
    %g = tlx.reuse_group(%a, %b) distinct group_size = 1 : !tlx.buffers<2, 16xf32, smem>, !tlx.buffers<2, 16xf32, smem>
    tlx.set_buffer_overlap %s, %g : !tlx.storage_alias_spec<smem>
    %va = tlx.local_view %a[%i] : !tlx.buffers<2, 16xf32, smem>
    %vb = tlx.local_view %b[%i] : !tlx.buffers<2, 16xf32, smem>
    %x = tlx.local_load %va : !tlx.buffer<16xf32, smem> -> tensor<16xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
    %y = tlx.local_load %vb : !tlx.buffer<16xf32, smem> -> tensor<16xf32, #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
    tt.return
  }
}

// -----

// Without set_buffer_overlap every buffer set starts at the first byte; a
// sized spec has its size. reuse=<buffers> views the other allocation.
// CHECK-LABEL: tt.func @flat
// CHECK:      %[[S:.*]] = ttg.local_alloc {alignment = 1024 : i32} : () -> !ttg.memdesc<65536xi8,
// CHECK-NEXT: %[[A:.*]] = ttg.memdesc_reinterpret %[[S]] : {{.*}} -> !ttg.memdesc<8x64x64xf16,
// CHECK-NEXT: %[[B:.*]] = ttg.memdesc_reinterpret %[[S]] : {{.*}} -> !ttg.memdesc<256x64xf32,
// CHECK-NEXT: %[[C:.*]] = ttg.local_alloc : () -> !ttg.memdesc<1x64x64xf32,
// CHECK-NEXT: %[[D:.*]] = ttg.memdesc_reinterpret %[[C]] : !ttg.memdesc<1x64x64xf32, {{.*}} -> !ttg.memdesc<2x64x64xf16,
// CHECK-NEXT: ttg.memdesc_index %[[A]][%{{.*}}]
// CHECK-NEXT: ttg.memdesc_index %[[B]][%{{.*}}]
// CHECK-NEXT: ttg.memdesc_index %[[D]][%{{.*}}]
module attributes {"ttg.num-warps" = 4 : i32, "ttg.target" = "cuda:90"} {
  tt.func @flat(%i: i32) {
    %s = tlx.storage_alias_spec {buffer_size_bytes = 65536 : i32} : !tlx.storage_alias_spec<smem>
    %a = tlx.local_alloc reuse(%s : !tlx.storage_alias_spec<smem>) : !tlx.buffers<2, 64x64xf16, smem>
    %b = tlx.local_alloc reuse(%s : !tlx.storage_alias_spec<smem>) : !tlx.buffers<4, 64xf32, smem>
    %c = tlx.local_alloc : !tlx.buffers<1, 64x64xf32, smem>
    %d = tlx.local_alloc reuse(%c : !tlx.buffers<1, 64x64xf32, smem>) : !tlx.buffers<2, 64x64xf16, smem>
    %va = tlx.local_view %a[%i] : !tlx.buffers<2, 64x64xf16, smem>
    %vb = tlx.local_view %b[%i] : !tlx.buffers<4, 64xf32, smem>
    %vd = tlx.local_view %d[%i] : !tlx.buffers<2, 64x64xf16, smem>
    tt.return
  }
}

// -----

// Tensor memory counts columns: qk 128 per buffer; p (f16, packed) 32, two
// subtiles per index; alpha and l one each, after P. Slot stride 128
// columns, two indices: 256 columns, allocated as one-column buffers.
// CHECK-LABEL: tt.func @tensor_memory
// CHECK-SAME:    (%[[I:.*]]: i32)
// CHECK:      %[[S:.*]] = ttng.tmem_alloc : () -> !ttg.memdesc<256x128x1xi32, #[[B1:.*]], #ttng.tensor_memory, mutable>
// CHECK-NEXT: %[[QK:.*]] = ttg.memdesc_reinterpret %[[S]] : {{.*}} -> !ttg.memdesc<2x128x128xf32, #{{.*}}, #ttng.tensor_memory, mutable>
// CHECK-NEXT: %[[P:.*]] = ttg.memdesc_reinterpret %[[S]] : {{.*}} -> !ttg.memdesc<8x128x64xf16,
// CHECK-NEXT: %[[AL:.*]] = ttg.memdesc_reinterpret %[[S]] : {{.*}} -> !ttg.memdesc<256x128x1xf32,
// CHECK-NEXT: %[[L:.*]] = ttg.memdesc_reinterpret %[[S]] : {{.*}} -> !ttg.memdesc<256x128x1xf32,
// qk[i]: index i, unchanged
// CHECK-NEXT: ttg.memdesc_index %[[QK]][%[[I]]]
// p[i]: 32-column buffer (i / 2) * 4 + i % 2
// CHECK:      %[[PS:.*]] = arith.divsi %[[I]], %{{.*}} : i32
// CHECK:      arith.muli %[[PS]]
// CHECK:      arith.remsi %[[I]]
// CHECK:      %[[PI:.*]] = arith.addi
// CHECK-NEXT: ttg.memdesc_index %[[P]][%[[PI]]]
// alpha[i]: column 128 i + 64, l[i]: 128 i + 65
// CHECK:      %[[C128:.*]] = arith.constant 128 : i32
// CHECK-NEXT: %[[A0:.*]] = arith.muli %[[I]], %[[C128]] : i32
// CHECK-NEXT: %[[C64:.*]] = arith.constant 64 : i32
// CHECK-NEXT: %[[AI:.*]] = arith.addi %[[A0]], %[[C64]] : i32
// CHECK-NEXT: ttg.memdesc_index %[[AL]][%[[AI]]]
// CHECK:      %[[C65:.*]] = arith.constant 65 : i32
// CHECK-NEXT: %[[LI:.*]] = arith.addi %{{.*}}, %[[C65]] : i32
// CHECK-NEXT: ttg.memdesc_index %[[L]][%[[LI]]]
// CHECK-NOT: tlx.
module attributes {"ttg.num-warps" = 4 : i32, "ttg.target" = "cuda:100"} {
  tt.func @tensor_memory(%i: i32) {
    %s = tlx.storage_alias_spec : !tlx.storage_alias_spec<tmem>
    %qk = tlx.local_alloc reuse(%s : !tlx.storage_alias_spec<tmem>) : !tlx.buffers<2, 128x128xf32, tmem>
    %p = tlx.local_alloc reuse(%s : !tlx.storage_alias_spec<tmem>) : !tlx.buffers<4, 128x64xf16, tmem>
    %alpha = tlx.local_alloc reuse(%s : !tlx.storage_alias_spec<tmem>) : !tlx.buffers<2, 128x1xf32, tmem>
    %l = tlx.local_alloc reuse(%s : !tlx.storage_alias_spec<tmem>) : !tlx.buffers<2, 128x1xf32, tmem>
    %gp = tlx.reuse_group(%p) shared group_size = 2 : !tlx.buffers<4, 128x64xf16, tmem>
    %gd = tlx.reuse_group(%gp, %alpha, %l) distinct group_size = 1 : !tlx.reuse_group, !tlx.buffers<2, 128x1xf32, tmem>, !tlx.buffers<2, 128x1xf32, tmem>
    %g = tlx.reuse_group(%qk, %gd) shared group_size = 1 : !tlx.buffers<2, 128x128xf32, tmem>, !tlx.reuse_group
    tlx.set_buffer_overlap %s, %g : !tlx.storage_alias_spec<tmem>
    %vq = tlx.local_view %qk[%i] : !tlx.buffers<2, 128x128xf32, tmem>
    %vp = tlx.local_view %p[%i] : !tlx.buffers<4, 128x64xf16, tmem>
    %va = tlx.local_view %alpha[%i] : !tlx.buffers<2, 128x1xf32, tmem>
    %vl = tlx.local_view %l[%i] : !tlx.buffers<2, 128x1xf32, tmem>
    tt.return
  }
}

// -----

// A sized spec in tensor memory: 512 bytes per column of 128 lanes (rounded
// up); reuse=<buffers> views the other allocation in its own buffers.
// CHECK-LABEL: tt.func @tensor_memory_flat
// CHECK:      %[[S:.*]] = ttng.tmem_alloc : () -> !ttg.memdesc<192x128x1xi32,
// CHECK-NEXT: %[[A:.*]] = ttg.memdesc_reinterpret %[[S]] : {{.*}} -> !ttg.memdesc<1x128x128xf32,
// CHECK-NEXT: %[[C:.*]] = ttng.tmem_alloc : () -> !ttg.memdesc<2x128x128xf32,
// CHECK-NEXT: %[[D:.*]] = ttg.memdesc_reinterpret %[[C]] : !ttg.memdesc<2x128x128xf32, {{.*}} -> !ttg.memdesc<4x128x128xf16,
// CHECK-NEXT: ttg.memdesc_index %[[A]][%{{.*}}]
// CHECK-NEXT: ttg.memdesc_index %[[D]][%{{.*}}]
module attributes {"ttg.num-warps" = 4 : i32, "ttg.target" = "cuda:100"} {
  tt.func @tensor_memory_flat(%i: i32) {
    %s = tlx.storage_alias_spec {buffer_size_bytes = 98000 : i32} : !tlx.storage_alias_spec<tmem>
    %a = tlx.local_alloc reuse(%s : !tlx.storage_alias_spec<tmem>) : !tlx.buffers<1, 128x128xf32, tmem>
    %c = tlx.local_alloc : !tlx.buffers<2, 128x128xf32, tmem>
    %d = tlx.local_alloc reuse(%c : !tlx.buffers<2, 128x128xf32, tmem>) : !tlx.buffers<4, 128x128xf16, tmem>
    %va = tlx.local_view %a[%i] : !tlx.buffers<1, 128x128xf32, tmem>
    %vd = tlx.local_view %d[%i] : !tlx.buffers<4, 128x128xf16, tmem>
    tt.return
  }
}
