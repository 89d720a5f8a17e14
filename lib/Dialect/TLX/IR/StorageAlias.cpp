//===- StorageAlias.cpp - placing the buffer sets of a storage alias spec -===//
//
// A reuse-group tree is measured bottom up, in the units a buffer is indexed
// in (bytes in shared memory, columns in tensor memory): a buffer set takes
// one buffer; a `shared` group the largest of its elements, a `distinct` one
// their sum; a group of size K holds K such sub-slots. Every offset is a
// multiple of the buffers below it (so the lowering indexes each buffer set
// as a memdesc of its own buffers) and, in shared memory, of 128 bytes, which
// aligns each element to the least common multiple of those. The root's size
// is the stride between buffer indices.
//
//===----------------------------------------------------------------------===//

#include "tlx/Dialect/TLX/IR/StorageAlias.h"

#include "tlx/Dialect/TritonNvidiaGPU/IR/Dialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseSet.h"

#include <numeric>

using namespace mlir;
using namespace mlir::tlx;

int64_t StorageAliasPlacement::getBuffersPerSlot() const {
  int64_t perSlot = 1;
  for (auto [k, unit] : digits)
    perSlot *= k;
  return perSlot;
}

static int64_t alignTo(int64_t value, int64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

int64_t mlir::tlx::getAliasUnitsPerBuffer(LocalAllocOp alloc) {
  BuffersType type = alloc.getType();
  if (type.getStorage() != StorageKind::tmem)
    return type.getAllocationBytes() / type.getCount();
  unsigned colStride = 1;
  if (auto layout =
          dyn_cast_or_null<triton::nvidia_gpu::TensorMemoryEncodingAttr>(
              alloc.getLayoutAttr()))
    colStride = layout.getColStride();
  return type.getTensorMemoryColumns(colStride) / type.getCount();
}

/// Shared-memory buffers of a spec start at multiples of 128 bytes, the
/// alignment a TMA copy needs of its shared-memory address (the public API's
/// placement does the same); tensor-memory ones at multiples of their size.
constexpr int64_t kSharedMemoryAlignment = 128;

static int64_t getAliasAlignment(LocalAllocOp alloc) {
  int64_t units = getAliasUnitsPerBuffer(alloc);
  if (alloc.getType().getStorage() == StorageKind::tmem)
    return units;
  return std::lcm(units, kSharedMemoryAlignment);
}

/// The buffer sets allocated with reuse=`spec`, in program order.
static SmallVector<LocalAllocOp> getAliasingAllocs(StorageAliasSpecOp spec) {
  SmallVector<LocalAllocOp> allocs;
  Operation *scope = spec->getParentOp() ? spec->getParentOp() : spec;
  scope->walk([&](LocalAllocOp alloc) {
    if (alloc.getReuse() == spec.getResult())
      allocs.push_back(alloc);
  });
  return allocs;
}

/// The rows buffer_size_bytes counts per 32-bit tensor-memory column, as the
/// public API does: 64 when no buffer of the spec has more than 64 rows,
/// else 128 (all lanes).
static int64_t getTensorMemoryRowsPerColumn(StorageAliasSpecOp spec) {
  for (LocalAllocOp alloc : getAliasingAllocs(spec)) {
    ArrayRef<int64_t> shape = alloc.getType().getShape();
    if (shape.size() < 2 || shape[shape.size() - 2] > 64)
      return 128;
  }
  return 64;
}

std::optional<int64_t>
mlir::tlx::getRequestedAliasUnits(StorageAliasSpecOp spec) {
  std::optional<uint32_t> bytes = spec.getBufferSizeBytes();
  if (!bytes)
    return std::nullopt;
  if (spec.getType().getStorage() == StorageKind::tmem)
    return llvm::divideCeil(*bytes, getTensorMemoryRowsPerColumn(spec) * 4);
  return *bytes;
}

namespace {

struct Measure {
  int64_t size;
  int64_t alignment;
};

/// Measures and places one overlap tree; errors at its set_buffer_overlap.
class TreePlacer {
public:
  TreePlacer(SetBufferOverlapOp overlap, bool diagnose)
      : overlap(overlap), diagnose(diagnose) {}

  FailureOr<Measure> measure(Value element) {
    if (auto alloc = element.getDefiningOp<LocalAllocOp>()) {
      if (alloc.getReuse() != overlap.getSpec())
        return fail(alloc, "its reuse groups hold buffers that are not "
                           "allocated with reuse=<this storage_alias_spec>");
      if (!leaves.insert(alloc).second)
        return fail(alloc, "its reuse groups hold the same buffers twice");
      return Measure{getAliasUnitsPerBuffer(alloc), getAliasAlignment(alloc)};
    }
    auto group = element.getDefiningOp<ReuseGroupOp>();
    if (!group || group.getElements().empty())
      return failure(); // the reuse_group's verifier says why
    int64_t inner = 0, alignment = 1;
    for (Value child : group.getElements()) {
      FailureOr<Measure> measured = measure(child);
      if (failed(measured))
        return failure();
      alignment = std::lcm(alignment, measured->alignment);
      if (group.getGroupKind() == ReuseGroupKind::shared)
        inner = std::max(inner, measured->size);
      else
        inner = alignTo(inner, measured->alignment) + measured->size;
    }
    inner = alignTo(inner, alignment);
    innerSize[group] = inner;
    return Measure{inner * group.getGroupSize(), alignment};
  }

  void place(Value element, int64_t offset, int64_t slotSize,
             SmallVector<std::pair<int64_t, int64_t>> digits,
             SmallVector<StorageAliasPlacement> &placements) {
    if (auto alloc = element.getDefiningOp<LocalAllocOp>()) {
      placements.push_back(StorageAliasPlacement{
          alloc, getAliasUnitsPerBuffer(alloc), offset, slotSize, digits});
      return;
    }
    auto group = element.getDefiningOp<ReuseGroupOp>();
    int64_t inner = innerSize.lookup(group);
    if (group.getGroupSize() > 1)
      digits.push_back({group.getGroupSize(), inner});
    for (Value child : group.getElements()) {
      if (group.getGroupKind() == ReuseGroupKind::distinct)
        offset = alignTo(offset, alignmentOf(child));
      place(child, offset, slotSize, digits, placements);
      if (group.getGroupKind() == ReuseGroupKind::distinct)
        offset += sizeOf(child);
    }
  }

  LogicalResult fail(Operation *at, const Twine &message) {
    if (diagnose)
      overlap.emitOpError(message).attachNote(at->getLoc()) << "these buffers";
    return failure();
  }

  DenseSet<Operation *> leaves;

private:
  int64_t sizeOf(Value element) {
    if (auto alloc = element.getDefiningOp<LocalAllocOp>())
      return getAliasUnitsPerBuffer(alloc);
    auto group = element.getDefiningOp<ReuseGroupOp>();
    return innerSize.lookup(group) * group.getGroupSize();
  }
  int64_t alignmentOf(Value element) {
    if (auto alloc = element.getDefiningOp<LocalAllocOp>())
      return getAliasAlignment(alloc);
    int64_t alignment = 1;
    for (Value child : element.getDefiningOp<ReuseGroupOp>().getElements())
      alignment = std::lcm(alignment, alignmentOf(child));
    return alignment;
  }

  SetBufferOverlapOp overlap;
  bool diagnose;
  DenseMap<Operation *, int64_t> innerSize;
};

} // namespace

/// Places the buffer sets of `overlap`'s tree; `placements` in tree order.
static FailureOr<int64_t>
placeTree(SetBufferOverlapOp overlap, bool diagnose,
          SmallVector<StorageAliasPlacement> &placements) {
  TreePlacer placer(overlap, diagnose);
  FailureOr<Measure> root = placer.measure(overlap.getGroup());
  if (failed(root))
    return failure();
  auto spec = overlap.getSpec().getDefiningOp<StorageAliasSpecOp>();
  if (!spec)
    return failure();
  for (LocalAllocOp alloc : getAliasingAllocs(spec))
    if (!placer.leaves.contains(alloc))
      return placer.fail(alloc, "does not place buffers allocated with "
                                "reuse=<this storage_alias_spec>: every "
                                "buffer set of the spec must be in its "
                                "reuse groups");
  placer.place(overlap.getGroup(), 0, root->size, {}, placements);
  // One number of buffer indices for all: each count over its group sizes.
  std::optional<int64_t> indices;
  LocalAllocOp first;
  for (StorageAliasPlacement &placement : placements) {
    int64_t count = placement.alloc.getType().getCount();
    int64_t perSlot = placement.getBuffersPerSlot();
    if (count % perSlot != 0)
      return placer.fail(placement.alloc,
                         "buffers in groups of " + Twine(perSlot) +
                             " (the product of the group sizes above "
                             "them) need a multiple of " +
                             Twine(perSlot) + " buffers, not " + Twine(count));
    if (!indices) {
      indices = count / perSlot;
      first = placement.alloc;
    } else if (*indices != count / perSlot) {
      return placer.fail(placement.alloc,
                         "every buffer set of a storage_alias_spec needs the "
                         "same number of buffer indices (its buffer count "
                         "over its group sizes): these have " +
                             Twine(count / perSlot) + ", the first " +
                             Twine(*indices));
    }
  }
  return *indices * root->size;
}

FailureOr<StorageAliasPlan>
mlir::tlx::computeStorageAliasPlan(StorageAliasSpecOp spec, bool diagnose) {
  StorageAliasPlan plan;
  SmallVector<SetBufferOverlapOp> overlaps;
  for (Operation *user : spec->getUsers())
    if (auto overlap = dyn_cast<SetBufferOverlapOp>(user))
      overlaps.push_back(overlap);
  if (overlaps.size() > 1) {
    if (diagnose)
      spec.emitOpError("has ")
          << overlaps.size()
          << " set_buffer_overlap definitions; call it once per spec";
    return failure();
  }
  if (overlaps.empty()) {
    // No tree: every buffer set starts at the first byte.
    for (LocalAllocOp alloc : getAliasingAllocs(spec)) {
      int64_t units = getAliasUnitsPerBuffer(alloc);
      plan.placements.push_back({alloc, units, 0, units, {}});
      plan.requiredSize =
          std::max(plan.requiredSize, units * alloc.getType().getCount());
    }
  } else {
    FailureOr<int64_t> required =
        placeTree(overlaps.front(), diagnose, plan.placements);
    if (failed(required))
      return failure();
    plan.requiredSize = *required;
  }
  plan.size = std::max<int64_t>(plan.requiredSize,
                                getRequestedAliasUnits(spec).value_or(0));
  return plan;
}

//===----------------------------------------------------------------------===//
// Verifiers
//===----------------------------------------------------------------------===//

LogicalResult StorageAliasSpecOp::verify() {
  std::optional<int64_t> requested = getRequestedAliasUnits(*this);
  if (!requested)
    return success();
  FailureOr<StorageAliasPlan> plan = computeStorageAliasPlan(*this, false);
  if (failed(plan) || plan->requiredSize <= *requested)
    return success();
  InFlightDiagnostic diagnostic = emitOpError("buffer_size_bytes = ")
                                  << *getBufferSizeBytes()
                                  << " is too small: the buffers that share "
                                     "it need ";
  if (getType().getStorage() == StorageKind::tmem) {
    int64_t rows = getTensorMemoryRowsPerColumn(*this);
    return diagnostic << plan->requiredSize * rows * 4 << " bytes ("
                      << plan->requiredSize << " tensor-memory columns of "
                      << rows << " rows x 4 bytes)";
  }
  return diagnostic << plan->requiredSize << " bytes";
}

LogicalResult ReuseGroupOp::verify() {
  if (getElements().empty())
    return emitOpError("needs at least one element");
  for (auto [index, element] : llvm::enumerate(getElements())) {
    if (isa<ReuseGroupType>(element.getType()))
      continue;
    auto alloc = element.getDefiningOp<LocalAllocOp>();
    if (!alloc || !alloc.getReuse() ||
        !isa<StorageAliasSpecType>(alloc.getReuse().getType()))
      return emitOpError("element #")
             << index << " is not a buffer set allocated with "
             << "reuse=<a storage_alias_spec>";
  }
  return success();
}

LogicalResult SetBufferOverlapOp::verify() {
  auto spec = getSpec().getDefiningOp<StorageAliasSpecOp>();
  if (!spec)
    return emitOpError("needs the result of a tlx.storage_alias_spec");
  for (Operation *user : spec->getUsers())
    if (user != getOperation() && isa<SetBufferOverlapOp>(user) &&
        user->getBlock() == getOperation()->getBlock() &&
        user->isBeforeInBlock(getOperation()))
      return emitOpError("is the second overlap definition of this "
                         "storage_alias_spec; call set_buffer_overlap once "
                         "per spec");
  if (!getGroup().getDefiningOp<ReuseGroupOp>())
    return emitOpError("needs the result of a tlx.reuse_group");
  SmallVector<StorageAliasPlacement> placements;
  // A reuse_group that cannot be measured reports itself.
  return failure(failed(placeTree(*this, /*diagnose=*/true, placements)));
}
