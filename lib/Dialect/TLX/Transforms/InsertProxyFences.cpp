//===- InsertProxyFences.cpp - fences before TMA stores -------------------===//
//
// Threads write shared memory through the generic proxy, the TMA unit reads
// it through the async proxy: a TMA store of register-written data needs
// fence.proxy.async in between, which the public TLX API's compiler inserts
// and its users therefore leave out.
//
//===----------------------------------------------------------------------===//

#include "tlx/Dialect/TLX/Transforms/Passes.h"

#include "tlx/Dialect/TLX/Transforms/BufferIdentity.h"

namespace mlir::tlx {
#define GEN_PASS_DEF_TLXINSERTPROXYFENCES
#include "tlx/Dialect/TLX/Transforms/Passes.h.inc"
} // namespace mlir::tlx

using namespace mlir;
using namespace mlir::tlx;

namespace {

bool isProxyFence(Operation *op) { return isa<FenceAsyncSharedOp>(op); }

/// The buffer a thread's store to shared memory writes (local_store,
/// local_scatter), or null.
Value writtenBuffer(Operation *op) {
  if (auto store = dyn_cast<LocalStoreOp>(op))
    return store.getBuffer();
  if (auto scatter = dyn_cast<LocalScatterOp>(op))
    return scatter.getBuffer();
  return Value();
}

bool mayWrite(Value written, Value buffer) {
  return written && mayAlias(getViewedBuffer(written), getViewedBuffer(buffer));
}

/// Whether `op` (or an op nested in it) writes shared memory that `buffer`
/// may view through the generic proxy.
bool writesThroughRegisters(Operation *op, Value buffer) {
  bool writes = false;
  op->walk([&](Operation *inner) {
    writes |= mayWrite(writtenBuffer(inner), buffer);
  });
  return writes;
}

/// Whether a register write may reach `buffer` before `store` reads it with no
/// proxy fence in between: walking back through the store's block, a fence
/// first means no; a write first means yes; reaching the block's start, any
/// aliasing write elsewhere in the function (an enclosing region, an earlier
/// loop iteration) means yes.
bool needsFence(Operation *store, Value buffer, ArrayRef<Value> writes) {
  for (Operation *op = store->getPrevNode(); op; op = op->getPrevNode()) {
    if (isProxyFence(op))
      return false;
    if (writesThroughRegisters(op, buffer))
      return true;
  }
  return llvm::any_of(writes,
                      [&](Value written) { return mayWrite(written, buffer); });
}

struct InsertProxyFencesPass
    : tlx::impl::TLXInsertProxyFencesBase<InsertProxyFencesPass> {
  void runOnOperation() override {
    SmallVector<Value> writes;
    getOperation()->walk([&](Operation *op) {
      if (Value written = writtenBuffer(op))
        writes.push_back(written);
    });
    if (writes.empty())
      return;
    SmallVector<std::pair<Operation *, Value>> stores;
    getOperation()->walk([&](Operation *op) {
      if (auto store = dyn_cast<AsyncDescriptorStoreOp>(op))
        stores.push_back({op, store.getBuffer()});
      else if (auto copy = dyn_cast<AsyncStoreOp>(op))
        stores.push_back({op, copy.getSource()});
    });
    for (auto [store, buffer] : stores) {
      if (!needsFence(store, buffer, writes))
        continue;
      OpBuilder builder(store);
      FenceAsyncSharedOp::create(builder, store->getLoc());
    }
  }
};

} // namespace
