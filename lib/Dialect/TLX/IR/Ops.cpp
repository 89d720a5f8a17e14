//===- Ops.cpp - TLX operations ---------------------------------*- C++ -*-===//

#include "tlx/Dialect/TLX/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::tlx;

LogicalResult LocalViewOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  Type source = operands[0].getType();
  if (auto buffers = dyn_cast<BuffersType>(source)) {
    inferredReturnTypes.push_back(buffers.getBufferType());
    return success();
  }
  if (isa<MBarriersType>(source)) {
    inferredReturnTypes.push_back(MBarrierType::get(context));
    return success();
  }
  return emitOptionalError(location,
                           "'tlx.local_view' selects from "
                           "!tlx.buffers or !tlx.mbarriers, not ",
                           source);
}

#define GET_OP_CLASSES
#include "tlx/Dialect/TLX/IR/Ops.cpp.inc"
