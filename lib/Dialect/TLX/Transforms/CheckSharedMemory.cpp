//===- CheckSharedMemory.cpp - TLX buffers within the CTA's shared memory -===//

#include "tlx/Dialect/TLX/IR/StorageAlias.h"
#include "tlx/Dialect/TLX/Transforms/Passes.h"
#include "tlx/Support/OutOfResources.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringSwitch.h"

namespace mlir::tlx {
#define GEN_PASS_DEF_TLXCHECKSHAREDMEMORY
#include "tlx/Dialect/TLX/Transforms/Passes.h.inc"
} // namespace mlir::tlx

using namespace mlir;
using namespace mlir::tlx;

/// The per-block opt-in maximum of each architecture.
std::optional<int64_t> mlir::tlx::getSharedMemoryLimit(StringRef target) {
  unsigned capability;
  if (!target.consume_front("cuda:") || target.getAsInteger(10, capability))
    return std::nullopt;
  switch (capability) {
  case 80:
  case 87:
    return 166912; // 163 KB
  case 86:
  case 89:
  case 120:
  case 121:
    return 101376; // 99 KB
  case 90:
  case 100:
  case 103:
  case 110:
    return 232448; // 227 KB
  default:
    return std::nullopt;
  }
}

namespace {

struct Allocation {
  Operation *op;
  int64_t bytes;
};

/// The shared-memory bytes of an allocation op; the type verifiers keep each
/// allocation far below 2^62 bytes, so the sum cannot overflow.
std::optional<Allocation> getSharedAllocation(Operation *op) {
  if (auto alloc = dyn_cast<LocalAllocOp>(op)) {
    BuffersType type = alloc.getType();
    // A view of a storage alias spec's (or other buffers') allocation.
    if (type.getStorage() == StorageKind::tmem || alloc.getReuse())
      return std::nullopt;
    return Allocation{op, type.getAllocationBytes()};
  }
  if (auto spec = dyn_cast<StorageAliasSpecOp>(op)) {
    if (spec.getType().getStorage() != StorageKind::smem)
      return std::nullopt;
    FailureOr<StorageAliasPlan> plan = computeStorageAliasPlan(spec, false);
    return Allocation{op, succeeded(plan) ? plan->size : 0};
  }
  if (auto barriers = dyn_cast<AllocBarriersOp>(op))
    return Allocation{op, barriers.getType().getCount() * 8};
  if (auto responses = dyn_cast<AllocCLCResponsesOp>(op))
    return Allocation{op, responses.getType().getCount() * 16};
  return std::nullopt;
}

/// A storage alias spec no buffer set is allocated in holds nothing, yet a
/// sized one still takes its size.
void warnUnusedSpecs(ModuleOp module) {
  module.walk([](StorageAliasSpecOp spec) {
    if (llvm::none_of(spec->getUsers(),
                      [](Operation *user) { return isa<LocalAllocOp>(user); }))
      spec.emitWarning("no buffer set is allocated with reuse=<this "
                       "storage_alias_spec>: it holds nothing (and takes its "
                       "buffer_size_bytes when it has one); allocate buffers "
                       "with reuse=spec or remove it");
  });
}

struct CheckSharedMemoryPass
    : tlx::impl::TLXCheckSharedMemoryBase<CheckSharedMemoryPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    warnUnusedSpecs(module);
    auto target = module->getAttrOfType<StringAttr>("ttg.target");
    std::optional<int64_t> limit =
        target ? getSharedMemoryLimit(target.getValue()) : std::nullopt;
    if (!limit)
      return;
    SmallVector<Allocation> allocations;
    int64_t total = 0;
    module.walk([&](Operation *op) {
      if (std::optional<Allocation> allocation = getSharedAllocation(op)) {
        allocations.push_back(*allocation);
        total += allocation->bytes;
      }
    });
    if (total <= *limit)
      return;
    // Reported at the allocation that crosses the limit, every one listed.
    int64_t running = 0;
    Operation *crossing = allocations.front().op;
    for (const Allocation &allocation : allocations) {
      running += allocation.bytes;
      if (running > *limit) {
        crossing = allocation.op;
        break;
      }
    }
    InFlightDiagnostic diag =
        crossing->emitError(
            "the TLX buffers and mbarriers of this kernel need ")
        << total << " bytes of shared memory; a CTA on " << target.getValue()
        << " has at most " << *limit
        << " (and Triton's own passes may need scratch on top): use fewer or "
           "smaller buffers";
    markOutOfResources(diag, {"shared memory", total, *limit});
    for (const Allocation &allocation : allocations)
      diag.attachNote(allocation.op->getLoc())
          << allocation.bytes << " bytes here";
    signalPassFailure();
  }
};

} // namespace
