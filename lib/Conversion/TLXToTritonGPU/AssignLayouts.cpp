//===- AssignLayouts.cpp - the tlx-assign-layouts pass --------------------===//
//
// Decides the shared layout of every buffer before anything is lowered, so
// that the lowering patterns only read layouts and the kernel signature is
// rewritten in one place (like Triton's OptimizeDescriptorEncoding).
//
//===----------------------------------------------------------------------===//

#include "tlx/Conversion/TLXToTritonGPU/Layouts.h"
#include "tlx/Conversion/TLXToTritonGPU/Passes.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::tlx {
#define GEN_PASS_DEF_TLXASSIGNLAYOUTS
#include "tlx/Conversion/TLXToTritonGPU/Passes.h.inc"
} // namespace mlir::tlx

using namespace mlir;
using namespace mlir::tlx;

namespace {

/// The user's layout, checked, or else the default one, written on `alloc`.
/// Tensor memory has no shared layout: its allocations keep none.
FailureOr<Attribute> assignBufferLayout(LocalAllocOp alloc) {
  if (alloc.getType().getStorage() != StorageKind::smem)
    return Attribute();
  if (Attribute explicitLayout = alloc.getLayoutAttr()) {
    if (failed(verifyBufferLayout(alloc, explicitLayout)))
      return failure();
    return explicitLayout;
  }
  Attribute layout = getDefaultBufferLayout(alloc.getType());
  alloc.setLayoutAttr(layout);
  return layout;
}

/// Gives the descriptor `desc` the type `newType` where it is defined: a
/// kernel argument (and with it the kernel's function type) or a
/// tt.make_tensor_descriptor. Anywhere else is an error at `user`.
LogicalResult retypeDescriptor(Operation *user, Value desc,
                               triton::TensorDescType newType) {
  if (auto argument = dyn_cast<BlockArgument>(desc)) {
    auto func = dyn_cast<triton::FuncOp>(argument.getOwner()->getParentOp());
    if (func && argument.getOwner() == &func.getBody().front()) {
      argument.setType(newType);
      SmallVector<Type> inputs(func.getArgumentTypes());
      inputs[argument.getArgNumber()] = newType;
      func.setFunctionType(
          FunctionType::get(desc.getContext(), inputs, func.getResultTypes()));
      return success();
    }
  } else if (auto make = desc.getDefiningOp<triton::MakeTensorDescOp>()) {
    make.getResult().setType(newType);
    return success();
  }
  return user->emitOpError("TMA descriptors must come from a kernel argument "
                           "or tl.make_tensor_descriptor");
}

/// A descriptor's block takes the layout of the buffers it copies: one
/// layout per descriptor.
LogicalResult giveDescriptorLayout(Operation *user, Value desc,
                                   Attribute layout) {
  auto type = dyn_cast<triton::TensorDescType>(desc.getType());
  if (!type)
    return user->emitOpError("needs a !tt.tensordesc descriptor");
  RankedTensorType block = type.getBlockType();
  if (Attribute current = block.getEncoding()) {
    if (current != layout)
      return user->emitOpError("this descriptor is also used with a buffer "
                               "of another layout (")
             << current << "); use one buffer layout per descriptor";
    return success();
  }
  auto newType = triton::TensorDescType::get(
      desc.getContext(),
      RankedTensorType::get(block.getShape(), block.getElementType(), layout));
  return retypeDescriptor(user, desc, newType);
}

struct AssignLayoutsPass : tlx::impl::TLXAssignLayoutsBase<AssignLayoutsPass> {
  void runOnOperation() override {
    if (failed(propagateBufferLayouts(getOperation(), assignBufferLayout,
                                      giveDescriptorLayout)))
      signalPassFailure();
  }
};

} // namespace
