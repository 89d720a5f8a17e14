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

struct TritonGPULayoutInference : public triton::LayoutInferenceInterface {
  using LayoutInferenceInterface::LayoutInferenceInterface;
  Attribute getReducedLayout(Attribute layout, unsigned axis) const override {
    return inferReduceEncoding(layout, axis);
  }
  Attribute getExpandedLayout(Attribute layout, unsigned axis) const override {
    FailureOr<Attribute> expanded = inferExpandDimsEncoding(layout, axis);
    return succeeded(expanded) ? *expanded : Attribute();
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
  addInterfaces<TritonGPUOpAsmInterface, TritonGPULayoutInference>();
}

//===----------------------------------------------------------------------===//
// Module attributes and the layouts they constrain
//===----------------------------------------------------------------------===//

/// The warps that may run `op`: its partition's inside ttg.warp_specialize;
/// its function's or module's "ttg.num-warps"; and inside a TLX async task
/// that states num_warps (named here, not linked: TLX builds on this
/// dialect), that many too: Triton's conversion lays the task's tensors out
/// over the kernel's warps, tlx-fit-task-layouts over the task's.
static SmallVector<int64_t, 2> lookupNumWarps(Operation *op) {
  SmallVector<int64_t, 2> allowed;
  for (Operation *current = op; current; current = current->getParentOp()) {
    if (allowed.empty() &&
        current->getName().getStringRef() == "tlx.async_task")
      if (auto numWarps = current->getAttrOfType<IntegerAttr>("numWarps"))
        allowed.push_back(numWarps.getInt());
    if (auto partitions = dyn_cast<WarpSpecializePartitionsOp>(
            current->getParentOp() ? current->getParentOp() : current)) {
      if (current != partitions.getOperation()) {
        unsigned index = current->getParentRegion()->getRegionNumber();
        auto ws = cast<WarpSpecializeOp>(partitions->getParentOp());
        return {ws.getPartitionNumWarps()[index]};
      }
    }
    if (auto numWarps = current->getAttrOfType<IntegerAttr>("ttg.num-warps")) {
      allowed.push_back(numWarps.getInt());
      return allowed;
    }
  }
  return allowed;
}

static std::optional<int64_t> getWarpsPerCTA(Attribute encoding) {
  ArrayRef<unsigned> warps;
  if (auto blocked = dyn_cast_or_null<BlockedEncodingAttr>(encoding))
    warps = blocked.getWarpsPerCTA();
  else if (auto mma = dyn_cast_or_null<NvidiaMmaEncodingAttr>(encoding))
    warps = mma.getWarpsPerCTA();
  else if (auto slice = dyn_cast_or_null<SliceEncodingAttr>(encoding))
    return getWarpsPerCTA(slice.getParent());
  else if (auto dot = dyn_cast_or_null<DotOperandEncodingAttr>(encoding))
    return getWarpsPerCTA(dot.getParent());
  else
    return std::nullopt;
  int64_t product = 1;
  for (unsigned value : warps)
    product *= value;
  return product;
}

/// Every tensor layout in the module must use the warps that run it.
static LogicalResult verifyTensorLayouts(ModuleOp module) {
  WalkResult result = module.walk([](Operation *op) {
    for (Type type : op->getResultTypes()) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor)
        continue;
      std::optional<int64_t> layoutWarps = getWarpsPerCTA(tensor.getEncoding());
      if (!layoutWarps)
        continue;
      SmallVector<int64_t, 2> contextWarps = lookupNumWarps(op);
      if (!contextWarps.empty() &&
          !llvm::is_contained(contextWarps, *layoutWarps)) {
        op->emitOpError("Result has an invalid layout: ")
            << tensor.getEncoding() << ". Layout has " << *layoutWarps
            << " warps per CTA, but the context requires " << contextWarps[0]
            << " warps per CTA.";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

LogicalResult
TritonGPUDialect::verifyOperationAttribute(Operation *op,
                                           NamedAttribute attribute) {
  StringRef name = attribute.getName().strref();
  // Counts and sizes: passes read them with IntegerAttr::getInt(), defined
  // for signless integers only (stricter than stock, which reads them alike).
  if (llvm::is_contained({"ttg.num-warps", "ttg.num-ctas",
                          "ttg.threads-per-warp", "ttg.maxnreg",
                          "ttg.cluster-dim-x", "ttg.cluster-dim-y",
                          "ttg.cluster-dim-z"},
                         name)) {
    auto value = dyn_cast<IntegerAttr>(attribute.getValue());
    if (!value || !value.getType().isSignlessInteger() ||
        !value.getValue().isStrictlyPositive())
      return op->emitOpError("attribute \"")
             << name
             << "\" must be a positive signless integer (e.g. 4 : i32), got "
             << attribute.getValue();
  }
  if (name == "ttg.target" && !isa<StringAttr>(attribute.getValue()))
    return op->emitOpError("attribute \"ttg.target\" must be a string (e.g. "
                           "\"cuda:90\"), got ")
           << attribute.getValue();
  if ((name == "ttg.num-ctas" || name == "ttg.target" ||
       name == "ttg.threads-per-warp") &&
      !isa<ModuleOp>(op))
    return op->emitOpError("has unexpected attribute \"")
           << name << "\" which is expected only on `module` ops";
  if (name == "ttg.num-warps" && !isa<ModuleOp, triton::FuncOp>(op))
    return op->emitOpError("has unexpected attribute \"ttg.num-warps\" "
                           "which is expected only on `module` or `tt.func` "
                           "ops");
  if (name == "ttg.num-warps")
    if (auto module = dyn_cast<ModuleOp>(op))
      return verifyTensorLayouts(module);
  return success();
}
