//===- StorageAlias.h - placing the buffer sets of a storage alias spec ---===//
//
// Where each buffer set of a `tlx.storage_alias_spec` lies in the spec's one
// allocation: computed from its `tlx.set_buffer_overlap` tree (or all at the
// first byte without one). The verifiers, tlx-check-shared-memory and the
// lowering read the same plan.
//
//===----------------------------------------------------------------------===//

#ifndef TLX_DIALECT_TLX_IR_STORAGEALIAS_H
#define TLX_DIALECT_TLX_IR_STORAGEALIAS_H

#include "tlx/Dialect/TLX/IR/Dialect.h"

namespace mlir::tlx {

/// One buffer set of a spec. Buffer `j` starts at byte
///   offset + (j / G) * slotBytes + sum_t ((j % G) / below_t % k_t) * unit_t
/// of the allocation, with (k_t, unit_t) = `digits` (outermost first),
/// G = the product of the k_t and below_t that of the k after t.
struct StorageAliasPlacement {
  LocalAllocOp alloc;
  int64_t bufferBytes = 0;
  int64_t offset = 0;
  int64_t slotBytes = 0;
  SmallVector<std::pair<int64_t, int64_t>> digits;

  int64_t getBuffersPerSlot() const;
  /// The byte where buffer `index` starts.
  int64_t getByteOffset(int64_t index) const;
};

struct StorageAliasPlan {
  /// The allocation's bytes: what the buffer sets need, or the spec's size.
  int64_t bytes = 0;
  /// What the buffer sets need.
  int64_t requiredBytes = 0;
  SmallVector<StorageAliasPlacement> placements;
};

/// The plan of `spec`. With `diagnose`, what makes it impossible is an error
/// at the op to change (the set_buffer_overlap, a reuse_group or the spec);
/// without, a silent failure.
FailureOr<StorageAliasPlan> computeStorageAliasPlan(StorageAliasSpecOp spec,
                                                    bool diagnose);

} // namespace mlir::tlx

#endif // TLX_DIALECT_TLX_IR_STORAGEALIAS_H
