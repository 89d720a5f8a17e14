//===- Dialect.cpp - the nvg dialect --------------------------------------===//

#include "tlx/Dialect/NVGPU/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::triton::nvgpu;

#include "tlx/Dialect/NVGPU/IR/Dialect.cpp.inc"

void NVGPUDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tlx/Dialect/NVGPU/IR/Ops.cpp.inc"
      >();
}

#define GET_OP_CLASSES
#include "tlx/Dialect/NVGPU/IR/Ops.cpp.inc"
