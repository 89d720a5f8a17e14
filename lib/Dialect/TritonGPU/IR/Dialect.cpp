//===- Dialect.cpp - the ttg dialect --------------------------------------===//

#include "tlx/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::triton::gpu;

#include "tlx/Dialect/TritonGPU/IR/Dialect.cpp.inc"

namespace {
/// The alias names Triton prints (`#blocked`, `#mma`, `#shared`, ...), so our
/// dumps read like stock Triton's.
struct TritonGPUOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<BlockedEncodingAttr>(attr)) {
      os << "blocked";
      return AliasResult::FinalAlias;
    }
    if (isa<NvidiaMmaEncodingAttr>(attr)) {
      os << "mma";
      return AliasResult::FinalAlias;
    }
    if (isa<LinearEncodingAttr>(attr)) {
      os << "linear";
      return AliasResult::FinalAlias;
    }
    if (isSharedEncoding(attr)) {
      os << "shared";
      return AliasResult::FinalAlias;
    }
    if (isa<SharedMemorySpaceAttr>(attr)) {
      os << "smem";
      return AliasResult::FinalAlias;
    }
    return AliasResult::NoAlias;
  }
};
} // namespace

void TritonGPUDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "tlx/Dialect/TritonGPU/IR/Ops.cpp.inc"
      >();
  addInterfaces<TritonGPUOpAsmInterface>();
}
