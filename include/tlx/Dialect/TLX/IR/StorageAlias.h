//===- StorageAlias.h - placing the buffer sets of a storage alias spec ---===//
//
// Where each buffer set of a `tlx.storage_alias_spec` lies in the spec's one
// allocation: computed from its `tlx.set_buffer_overlap` tree (or all at the
// first unit without one). The verifiers, tlx-check-shared-memory and the
// lowering read the same plan. Sizes are in the units a buffer is indexed in:
// bytes in shared memory, 32-bit columns (of all 128 lanes) in tensor memory.
//
//===----------------------------------------------------------------------===//

#ifndef TLX_DIALECT_TLX_IR_STORAGEALIAS_H
#define TLX_DIALECT_TLX_IR_STORAGEALIAS_H

#include "tlx/Dialect/TLX/IR/Dialect.h"

namespace mlir::tlx {

/// The units of one buffer of `alloc`'s set: bytes in shared memory,
/// 32-bit columns in tensor memory (with its layout's colStride, 1 without a
/// layout, as the default tensor-memory layout packs).
int64_t getAliasUnitsPerBuffer(LocalAllocOp alloc);

/// The units `spec`'s buffer_size_bytes asks for, when it has one: bytes in
/// shared memory; in tensor memory (rounded up) columns of 4 bytes x 64 rows
/// when no buffer of the spec has more than 64 rows, else x 128 rows, as the
/// public API counts them.
std::optional<int64_t> getRequestedAliasUnits(StorageAliasSpecOp spec);

/// One buffer set of a spec. Buffer `j` starts at unit
///   offset + (j / G) * slotSize + sum_t ((j % G) / below_t % k_t) * unit_t
/// of the allocation, with (k_t, unit_t) = `digits` (outermost first),
/// G = the product of the k_t and below_t that of the k after t.
struct StorageAliasPlacement {
  LocalAllocOp alloc;
  int64_t bufferSize = 0;
  int64_t offset = 0;
  int64_t slotSize = 0;
  SmallVector<std::pair<int64_t, int64_t>> digits;

  int64_t getBuffersPerSlot() const;
};

struct StorageAliasPlan {
  /// The allocation's units: what the buffer sets need, or the spec's size.
  int64_t size = 0;
  /// What the buffer sets need.
  int64_t requiredSize = 0;
  SmallVector<StorageAliasPlacement> placements;
};

/// The plan of `spec`. With `diagnose`, what makes it impossible is an error
/// at the op to change (the set_buffer_overlap, a reuse_group or the spec);
/// without, a silent failure.
FailureOr<StorageAliasPlan> computeStorageAliasPlan(StorageAliasSpecOp spec,
                                                    bool diagnose);

} // namespace mlir::tlx

#endif // TLX_DIALECT_TLX_IR_STORAGEALIAS_H
