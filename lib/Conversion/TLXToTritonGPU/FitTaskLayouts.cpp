//===- FitTaskLayouts.cpp - the tensors of an async task on its own warps -===//
//
// Triton's conversion to TritonGPU lays every tensor out over the kernel's
// num_warps. A task of another warp count (a one-warp producer computing
// addresses, the 4-warp epilogue of an 8-warp kernel) runs its tensors on
// its own warps: this pass makes their layouts for those warps before
// tlx-assign-layouts, which chooses the TLX ops' layouts for the task's
// warps too (lookupNumWarps). A tensor the task takes from outside is
// recomputed inside first (recomputeValuesFromAbove, as the
// warp-specialization lowering does for every task).
//
//===----------------------------------------------------------------------===//

#include "tlx/Conversion/TLXToTritonGPU/Layouts.h"
#include "tlx/Conversion/TLXToTritonGPU/Passes.h"
#include "tlx/Conversion/TLXToTritonGPU/Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::tlx {
#define GEN_PASS_DEF_TLXFITTASKLAYOUTS
#include "tlx/Conversion/TLXToTritonGPU/Passes.h.inc"
} // namespace mlir::tlx

using namespace mlir;
using namespace mlir::tlx;

namespace {

/// `type` with its layout made for `numWarps`; `type` itself if it is not a
/// tensor with a layout.
FailureOr<Type> fitType(Type type, unsigned numWarps) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.getEncoding())
    return type;
  FailureOr<Attribute> layout =
      fitLayoutToWarps(tensor.getEncoding(), numWarps);
  if (failed(layout))
    return failure();
  return Type(RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                                    *layout));
}

LogicalResult fitTask(AsyncTaskOp task, unsigned numWarps) {
  if (failed(recomputeValuesFromAbove(task)))
    return failure();
  auto cannotFit = [&](Operation *op, Type type) {
    return op->emitOpError("holds a ")
           << type << ", whose layout cannot be made for the " << numWarps
           << " warps of its async task; give the task num_warps equal to "
              "the kernel's";
  };
  WalkResult result = task.getBody().walk([&](Operation *op) -> WalkResult {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument argument : block.getArguments()) {
          FailureOr<Type> fitted = fitType(argument.getType(), numWarps);
          if (failed(fitted))
            return cannotFit(op, argument.getType());
          argument.setType(*fitted);
        }
    for (OpResult value : op->getResults()) {
      FailureOr<Type> fitted = fitType(value.getType(), numWarps);
      if (failed(fitted))
        return cannotFit(op, value.getType());
      value.setType(*fitted);
    }
    if (auto constant = dyn_cast<arith::ConstantOp>(op))
      if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()))
        constant.setValueAttr(
            dense.reshape(cast<ShapedType>(constant.getType())));
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

struct FitTaskLayoutsPass
    : tlx::impl::TLXFitTaskLayoutsBase<FitTaskLayoutsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    unsigned kernelWarps = lookupNumWarps(module);
    WalkResult result = module.walk([&](AsyncTaskOp task) -> WalkResult {
      std::optional<uint32_t> numWarps = task.getNumWarps();
      if (task.getIsDefault() || !numWarps || *numWarps == kernelWarps)
        return WalkResult::advance();
      return failure(failed(fitTask(task, *numWarps)));
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
