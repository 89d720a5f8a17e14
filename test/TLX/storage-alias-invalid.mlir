// The storage aliasing verifiers: what a spec, its buffer sets and their
// overlap tree must be.
// RUN: tlx-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{a storage_alias_spec lives in smem or tmem, not smemCluster}}
func.func @cluster_spec(%s: !tlx.storage_alias_spec<smemCluster>) {
  return
}

// -----

func.func @too_small() {
  // expected-error @+1 {{'tlx.storage_alias_spec' op buffer_size_bytes = 8192 is too small: the buffers that share it need 16384 bytes}}
  %s = tlx.storage_alias_spec {buffer_size_bytes = 8192 : i32} : !tlx.storage_alias_spec<smem>
  %a = tlx.local_alloc reuse(%s : !tlx.storage_alias_spec<smem>) : !tlx.buffers<2, 64x64xf16, smem>
  return
}

// -----

func.func @zero_size() {
  // expected-error @+1 {{attribute 'buffer_size_bytes' failed to satisfy constraint: 32-bit signless integer attribute whose value is positive}}
  %s = tlx.storage_alias_spec {buffer_size_bytes = 0 : i32} : !tlx.storage_alias_spec<smem>
  return
}

// -----

func.func @storage_mismatch() {
  %s = tlx.storage_alias_spec : !tlx.storage_alias_spec<smem>
  // expected-error @+1 {{'tlx.local_alloc' op allocates tmem buffers with reuse=<a storage_alias_spec in smem>: the storage kinds must match}}
  %a = tlx.local_alloc reuse(%s : !tlx.storage_alias_spec<smem>) : !tlx.buffers<1, 128x64xf32, tmem>
  return
}

// -----

func.func @reuse_other_storage() {
  %a = tlx.local_alloc : !tlx.buffers<1, 128x64xf32, tmem>
  // expected-error @+1 {{'tlx.local_alloc' op allocates smem buffers with reuse=<buffers in tmem>: the storage kinds must match}}
  %b = tlx.local_alloc reuse(%a : !tlx.buffers<1, 128x64xf32, tmem>) : !tlx.buffers<1, 64x64xf32, smem>
  return
}

// -----

func.func @reuse_too_large() {
  %a = tlx.local_alloc : !tlx.buffers<1, 64x64xf16, smem>
  // expected-error @+1 {{'tlx.local_alloc' op needs 16384 bytes, more than the 8192 bytes of the buffers it reuses}}
  %b = tlx.local_alloc reuse(%a : !tlx.buffers<1, 64x64xf16, smem>) : !tlx.buffers<1, 64x64xf32, smem>
  return
}

// -----

func.func @tmem_too_small() {
  // expected-error @+1 {{'tlx.storage_alias_spec' op buffer_size_bytes = 32768 is too small: the buffers that share it need 65536 bytes (128 tensor-memory columns of 128 rows x 4 bytes)}}
  %s = tlx.storage_alias_spec {buffer_size_bytes = 32768 : i32} : !tlx.storage_alias_spec<tmem>
  %a = tlx.local_alloc reuse(%s : !tlx.storage_alias_spec<tmem>) : !tlx.buffers<1, 128x128xf32, tmem>
  return
}

// -----

// A spec whose buffers have at most 64 rows counts 64 rows x 4 bytes per
// column, as the public API does: 16384 bytes are the 64 columns of one
// 64x64 f32 buffer.
func.func @tmem_of_sixty_four_rows() {
  %s = tlx.storage_alias_spec {buffer_size_bytes = 16384 : i32} : !tlx.storage_alias_spec<tmem>
  %a = tlx.local_alloc reuse(%s : !tlx.storage_alias_spec<tmem>) : !tlx.buffers<1, 64x64xf32, tmem>
  return
}

// -----

func.func @tmem_of_sixty_four_rows_too_small() {
  // expected-error @+1 {{'tlx.storage_alias_spec' op buffer_size_bytes = 8192 is too small: the buffers that share it need 16384 bytes (64 tensor-memory columns of 64 rows x 4 bytes)}}
  %s = tlx.storage_alias_spec {buffer_size_bytes = 8192 : i32} : !tlx.storage_alias_spec<tmem>
  %a = tlx.local_alloc reuse(%s : !tlx.storage_alias_spec<tmem>) : !tlx.buffers<1, 64x64xf32, tmem>
  return
}

// -----

// Tensor memory counts columns: 2 x 128x128 f16 (packed, 64 columns each)
// fit in the 128 columns of one 128x128 f32 buffer; 3 do not.
func.func @tmem_reuse_too_large() {
  %a = tlx.local_alloc : !tlx.buffers<1, 128x128xf32, tmem>
  %b = tlx.local_alloc reuse(%a : !tlx.buffers<1, 128x128xf32, tmem>) : !tlx.buffers<2, 128x128xf16, tmem>
  // expected-error @+1 {{'tlx.local_alloc' op needs 192 tensor-memory columns, more than the 128 columns of the buffers it reuses}}
  %c = tlx.local_alloc reuse(%a : !tlx.buffers<1, 128x128xf32, tmem>) : !tlx.buffers<3, 128x128xf16, tmem>
  return
}

// -----

func.func @reuse_a_view_of_a_spec() {
  %s = tlx.storage_alias_spec : !tlx.storage_alias_spec<smem>
  %a = tlx.local_alloc reuse(%s : !tlx.storage_alias_spec<smem>) : !tlx.buffers<2, 64x64xf16, smem>
  // expected-error @+1 {{'tlx.local_alloc' op reuses buffers that are a view of a storage_alias_spec; allocate these with reuse=<that spec> and place them with set_buffer_overlap}}
  %b = tlx.local_alloc reuse(%a : !tlx.buffers<2, 64x64xf16, smem>) : !tlx.buffers<1, 64x64xf16, smem>
  return
}

// -----

func.func @empty_group() {
  // expected-error @+1 {{'tlx.reuse_group' op needs at least one element}}
  %g = "tlx.reuse_group"() {group_kind = 0 : i32, group_size = 1 : i32} : () -> !tlx.reuse_group
  return
}

// -----

func.func @group_of_plain_buffers() {
  %a = tlx.local_alloc : !tlx.buffers<2, 64x64xf16, smem>
  // expected-error @+1 {{'tlx.reuse_group' op element #0 is not a buffer set allocated with reuse=<a storage_alias_spec>}}
  %g = tlx.reuse_group(%a) shared group_size = 1 : !tlx.buffers<2, 64x64xf16, smem>
  return
}

// -----

func.func @spec_from_an_argument(%s: !tlx.storage_alias_spec<smem>, %g: !tlx.reuse_group) {
  // expected-error @+1 {{'tlx.set_buffer_overlap' op needs the result of a tlx.storage_alias_spec}}
  tlx.set_buffer_overlap %s, %g : !tlx.storage_alias_spec<smem>
  return
}

// -----

func.func @group_from_an_argument(%g: !tlx.reuse_group) {
  %s = tlx.storage_alias_spec : !tlx.storage_alias_spec<smem>
  // expected-error @+1 {{'tlx.set_buffer_overlap' op needs the result of a tlx.reuse_group}}
  tlx.set_buffer_overlap %s, %g : !tlx.storage_alias_spec<smem>
  return
}

// -----

func.func @twice() {
  %s = tlx.storage_alias_spec : !tlx.storage_alias_spec<smem>
  %a = tlx.local_alloc reuse(%s : !tlx.storage_alias_spec<smem>) : !tlx.buffers<2, 64x64xf16, smem>
  %g = tlx.reuse_group(%a) shared group_size = 1 : !tlx.buffers<2, 64x64xf16, smem>
  tlx.set_buffer_overlap %s, %g : !tlx.storage_alias_spec<smem>
  // expected-error @+1 {{'tlx.set_buffer_overlap' op is the second overlap definition of this storage_alias_spec; call set_buffer_overlap once per spec}}
  tlx.set_buffer_overlap %s, %g : !tlx.storage_alias_spec<smem>
  return
}

// -----

func.func @other_spec() {
  %s = tlx.storage_alias_spec : !tlx.storage_alias_spec<smem>
  %t = tlx.storage_alias_spec : !tlx.storage_alias_spec<smem>
  %a = tlx.local_alloc reuse(%s : !tlx.storage_alias_spec<smem>) : !tlx.buffers<2, 64x64xf16, smem>
  // expected-note @+1 {{these buffers}}
  %b = tlx.local_alloc reuse(%t : !tlx.storage_alias_spec<smem>) : !tlx.buffers<2, 64x64xf16, smem>
  %g = tlx.reuse_group(%a, %b) shared group_size = 1 : !tlx.buffers<2, 64x64xf16, smem>, !tlx.buffers<2, 64x64xf16, smem>
  // expected-error @+1 {{'tlx.set_buffer_overlap' op its reuse groups hold buffers that are not allocated with reuse=<this storage_alias_spec>}}
  tlx.set_buffer_overlap %s, %g : !tlx.storage_alias_spec<smem>
  return
}

// -----

func.func @twice_in_a_tree() {
  %s = tlx.storage_alias_spec : !tlx.storage_alias_spec<smem>
  // expected-note @+1 {{these buffers}}
  %a = tlx.local_alloc reuse(%s : !tlx.storage_alias_spec<smem>) : !tlx.buffers<2, 64x64xf16, smem>
  %g = tlx.reuse_group(%a, %a) distinct group_size = 1 : !tlx.buffers<2, 64x64xf16, smem>, !tlx.buffers<2, 64x64xf16, smem>
  // expected-error @+1 {{'tlx.set_buffer_overlap' op its reuse groups hold the same buffers twice}}
  tlx.set_buffer_overlap %s, %g : !tlx.storage_alias_spec<smem>
  return
}

// -----

func.func @left_out() {
  %s = tlx.storage_alias_spec : !tlx.storage_alias_spec<smem>
  %a = tlx.local_alloc reuse(%s : !tlx.storage_alias_spec<smem>) : !tlx.buffers<2, 64x64xf16, smem>
  // expected-note @+1 {{these buffers}}
  %b = tlx.local_alloc reuse(%s : !tlx.storage_alias_spec<smem>) : !tlx.buffers<2, 64x64xf16, smem>
  %g = tlx.reuse_group(%a) shared group_size = 1 : !tlx.buffers<2, 64x64xf16, smem>
  // expected-error @+1 {{'tlx.set_buffer_overlap' op does not place buffers allocated with reuse=<this storage_alias_spec>: every buffer set of the spec must be in its reuse groups}}
  tlx.set_buffer_overlap %s, %g : !tlx.storage_alias_spec<smem>
  return
}

// -----

func.func @not_a_multiple() {
  %s = tlx.storage_alias_spec : !tlx.storage_alias_spec<smem>
  // expected-note @+1 {{these buffers}}
  %a = tlx.local_alloc reuse(%s : !tlx.storage_alias_spec<smem>) : !tlx.buffers<3, 64x64xf16, smem>
  %g = tlx.reuse_group(%a) shared group_size = 2 : !tlx.buffers<3, 64x64xf16, smem>
  // expected-error @+1 {{'tlx.set_buffer_overlap' op buffers in groups of 2 (the product of the group sizes above them) need a multiple of 2 buffers, not 3}}
  tlx.set_buffer_overlap %s, %g : !tlx.storage_alias_spec<smem>
  return
}

// -----

func.func @counts_differ() {
  %s = tlx.storage_alias_spec : !tlx.storage_alias_spec<smem>
  %a = tlx.local_alloc reuse(%s : !tlx.storage_alias_spec<smem>) : !tlx.buffers<2, 64x64xf16, smem>
  // expected-note @+1 {{these buffers}}
  %b = tlx.local_alloc reuse(%s : !tlx.storage_alias_spec<smem>) : !tlx.buffers<3, 64x64xf16, smem>
  %g = tlx.reuse_group(%a, %b) shared group_size = 1 : !tlx.buffers<2, 64x64xf16, smem>, !tlx.buffers<3, 64x64xf16, smem>
  // expected-error @+1 {{'tlx.set_buffer_overlap' op every buffer set of a storage_alias_spec needs the same number of buffer indices (its buffer count over its group sizes): these have 3, the first 2}}
  tlx.set_buffer_overlap %s, %g : !tlx.storage_alias_spec<smem>
  return
}

// -----

func.func @zero_group_size() {
  %s = tlx.storage_alias_spec : !tlx.storage_alias_spec<smem>
  %a = tlx.local_alloc reuse(%s : !tlx.storage_alias_spec<smem>) : !tlx.buffers<2, 64x64xf16, smem>
  // expected-error @+1 {{attribute 'group_size' failed to satisfy constraint: 32-bit signless integer attribute whose value is positive}}
  %g = tlx.reuse_group(%a) shared group_size = 0 : !tlx.buffers<2, 64x64xf16, smem>
  return
}
