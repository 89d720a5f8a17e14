//===- DescriptorLayouts.cpp - TLX's TMA descriptor layouts kept ----------===//
//
// tlx-assign-layouts gives a TMA descriptor the layout of the buffers it
// copies. Stock optimize-descriptor-encoding, which runs later, retypes every
// descriptor from the stock TMA ops using it and gives the others the default
// layout of their block: the host tensor map then swizzles otherwise than the
// buffer. TLX's types are recorded right before the stock pass and restored
// right after it (the compiler runs the three only where some descriptor has
// no layout: python/tlx/compiler/ttgir.py, BRACKETED).
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
/// On the casts that keep a task's unused descriptor argument in the stock
/// pass's sight.
constexpr StringLiteral kAnchorAttr = "tlx.descriptor_anchor";

/// Whether `type` is a descriptor whose block has a layout.
bool hasBlockLayout(Type type) {
  auto desc = dyn_cast<triton::TensorDescType>(type);
  return desc && desc.getBlockType().getEncoding();
}

/// An unused partition argument keeps its type through the stock pass while
/// the descriptor it captures is retyped (ttg.warp_specialize then fails to
/// verify): a cast the pass sees as a use goes there until the restore.
void anchorUnusedCaptures(triton::FuncOp func) {
  func.walk([](ttg::WarpSpecializePartitionsOp partitions) {
    for (Region &region : partitions.getPartitionRegions())
      for (BlockArgument arg : region.getArguments()) {
        if (!hasBlockLayout(arg.getType()) || !arg.use_empty())
          continue;
        OpBuilder builder = OpBuilder::atBlockBegin(&region.front());
        auto anchor = UnrealizedConversionCastOp::create(
            builder, arg.getLoc(), builder.getI64Type(), arg);
        anchor->setAttr(kAnchorAttr, builder.getUnitAttr());
      }
  });
}

struct RecordDescriptorLayoutsPass
    : tlx::impl::TLXRecordDescriptorLayoutsBase<RecordDescriptorLayoutsPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<triton::FuncOp>()) {
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
      anchorUnusedCaptures(func);
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
    if (auto ws = dyn_cast<ttg::WarpSpecializeOp>(user)) {
      for (Region &region : ws.getPartitionOp().getPartitionRegions())
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
    getOperation().walk([](UnrealizedConversionCastOp cast) {
      if (cast->hasAttr(kAnchorAttr) && cast->use_empty())
        cast.erase();
    });
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
