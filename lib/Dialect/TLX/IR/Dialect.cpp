//===- Dialect.cpp - TLX dialect --------------------------------*- C++ -*-===//

#include "tlx/Dialect/TLX/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tlx;

#include "tlx/Dialect/TLX/IR/Dialect.cpp.inc"
#include "tlx/Dialect/TLX/IR/Enums.cpp.inc"

void TLXDialect::initialize() {
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "tlx/Dialect/TLX/IR/Ops.cpp.inc"
      >();
}
