//===- DescriptorLayouts.cpp - TLX's TMA descriptor layouts kept ----------===//
//
// tlx-assign-layouts gives a TMA descriptor the layout of the buffers it
// copies. Stock optimize-descriptor-encoding, which runs later, retypes every
// descriptor from the stock TMA ops using it and gives the others the default
// layout of their block: the host tensor map then swizzles otherwise than the
// buffer. The TLX pipeline records its types last; they are restored right
// after the stock pass.
//
//===----------------------------------------------------------------------===//

#include "tlx/Conversion/TLXToTritonGPU/Passes.h"
#include "tlx/Dialect/Triton/IR/Dialect.h"
#include "tlx/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::tlx {
#define GEN_PASS_DEF_TLXRECORDDESCRIPTORLAYOUTS
#define GEN_PASS_DEF_TLXRESTOREDESCRIPTORLAYOUTS
#include "tlx/Conversion/TLXToTritonGPU/Passes.h.inc"
} // namespace mlir::tlx

using namespace mlir;
using namespace mlir::tlx;
namespace ttg = mlir::triton::gpu;

namespace {

constexpr StringLiteral kDescriptorTypeAttr = "tlx.descriptor_type";
/// On the module where stock Triton must type some descriptors (the TLX
/// compiler runs optimize-descriptor-encoding only then).
constexpr StringLiteral kStockTypedDescriptorsAttr =
    "tlx.stock_typed_descriptors";

/// Whether `type` is a descriptor whose block has a layout.
bool hasBlockLayout(Type type) {
  auto desc = dyn_cast<triton::TensorDescType>(type);
  return desc && desc.getBlockType().getEncoding();
}

/// Whether `module` has a descriptor whose block has no layout.
bool hasDescriptorWithoutLayout(ModuleOp module) {
  auto withoutLayout = [](Type type) {
    auto desc = dyn_cast<triton::TensorDescType>(type);
    return desc && !desc.getBlockType().getEncoding();
  };
  bool found = false;
  module.walk([&](Operation *op) {
    found = llvm::any_of(op->getResultTypes(), withoutLayout) ||
            llvm::any_of(op->getOperandTypes(), withoutLayout);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        found = found || llvm::any_of(block.getArgumentTypes(), withoutLayout);
    return found ? WalkResult::interrupt() : WalkResult::advance();
  });
  return found;
}

struct RecordDescriptorLayoutsPass
    : tlx::impl::TLXRecordDescriptorLayoutsBase<RecordDescriptorLayoutsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!hasDescriptorWithoutLayout(module))
      return;
    module->setAttr(kStockTypedDescriptorsAttr, UnitAttr::get(&getContext()));
    for (auto func : module.getOps<triton::FuncOp>()) {
      if (func.isExternal())
        continue;
      for (BlockArgument arg : func.getArguments())
        if (hasBlockLayout(arg.getType()))
          func.setArgAttr(arg.getArgNumber(), kDescriptorTypeAttr,
                          TypeAttr::get(arg.getType()));
      // Descriptors are made or read by ops without regions; what a loop or
      // a task carries is one of those.
      func.walk([](Operation *op) {
        if (op->getNumRegions() == 0 && op->getNumResults() == 1 &&
            hasBlockLayout(op->getResult(0).getType()))
          op->setAttr(kDescriptorTypeAttr,
                      TypeAttr::get(op->getResult(0).getType()));
      });
    }
  }
};

/// Gives `desc` the type `type`, and with it every partition argument it is
/// captured as. Any other op that carries it on to another value is an error
/// (the stock pass has typed that value from its own uses).
LogicalResult retypeWithCaptures(Value desc, Type type) {
  desc.setType(type);
  for (OpOperand &use : desc.getUses()) {
    Operation *user = use.getOwner();
    if (auto partitions = dyn_cast<ttg::WarpSpecializePartitionsOp>(user)) {
      for (Region &region : partitions.getPartitionRegions())
        if (failed(retypeWithCaptures(
                region.getArgument(use.getOperandNumber()), type)))
          return failure();
      continue;
    }
    if (user->getNumRegions() != 0 || user->hasTrait<OpTrait::IsTerminator>() ||
        isa<CallOpInterface>(user))
      return user->emitOpError("carries a TMA descriptor whose layout TLX "
                               "chose from the buffers it copies (")
             << type
             << ") to another value: pass the descriptor to the tasks and "
                "copies that use it directly";
  }
  return success();
}

struct RestoreDescriptorLayoutsPass
    : tlx::impl::TLXRestoreDescriptorLayoutsBase<RestoreDescriptorLayoutsPass> {
  void runOnOperation() override {
    bool failed = false;
    getOperation()->removeAttr(kStockTypedDescriptorsAttr);
    for (auto func : getOperation().getOps<triton::FuncOp>()) {
      if (func.isExternal())
        continue;
      SmallVector<Type> inputs(func.getArgumentTypes());
      for (BlockArgument arg : func.getArguments()) {
        auto recorded = func.getArgAttrOfType<TypeAttr>(arg.getArgNumber(),
                                                        kDescriptorTypeAttr);
        if (!recorded)
          continue;
        func.removeArgAttr(arg.getArgNumber(), kDescriptorTypeAttr);
        if (!isa<triton::TensorDescType>(arg.getType()) ||
            !isa<triton::TensorDescType>(recorded.getValue())) {
          func.emitOpError("argument ")
              << arg.getArgNumber() << " has a " << kDescriptorTypeAttr
              << " but is no TMA descriptor, or records no descriptor type";
          failed = true;
          continue;
        }
        inputs[arg.getArgNumber()] = recorded.getValue();
        if (mlir::failed(retypeWithCaptures(arg, recorded.getValue())))
          failed = true;
      }
      func.setFunctionType(
          FunctionType::get(&getContext(), inputs, func.getResultTypes()));
      func.walk([&](Operation *op) {
        auto recorded = op->getAttrOfType<TypeAttr>(kDescriptorTypeAttr);
        if (!recorded)
          return;
        op->removeAttr(kDescriptorTypeAttr);
        if (op->getNumResults() != 1 ||
            !isa<triton::TensorDescType>(op->getResult(0).getType()) ||
            !isa<triton::TensorDescType>(recorded.getValue())) {
          op->emitOpError("has a ")
              << kDescriptorTypeAttr
              << " but does not make one TMA descriptor (it is TLX's record "
                 "of the layout of the descriptor an op makes)";
          failed = true;
          return;
        }
        if (mlir::failed(
                retypeWithCaptures(op->getResult(0), recorded.getValue())))
          failed = true;
      });
    }
    if (failed)
      signalPassFailure();
  }
};

} // namespace
