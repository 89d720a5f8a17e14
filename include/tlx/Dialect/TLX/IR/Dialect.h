//===- Dialect.h - TLX dialect ----------------------------------*- C++ -*-===//

#ifndef TLX_DIALECT_TLX_IR_DIALECT_H
#define TLX_DIALECT_TLX_IR_DIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tlx/Dialect/Triton/IR/Dialect.h"

#include "tlx/Dialect/TLX/IR/Dialect.h.inc"
#include "tlx/Dialect/TLX/IR/Enums.h.inc"

namespace mlir::tlx {
/// The register budgets `setmaxnreg` can set, per thread (multiples of 8).
constexpr int32_t kMinTaskRegisters = 24;
constexpr int32_t kMaxTaskRegisters = 256;
/// Warps per warp group: Triton adds a kernel's task warps in whole groups.
constexpr int32_t kWarpsPerGroup = 4;

/// Every thread of the op's warp group executes it together (`.sync.aligned`).
template <typename ConcreteType>
class WarpGroupAligned
    : public OpTrait::TraitBase<ConcreteType, WarpGroupAligned> {};
/// Triton may synchronize the op's whole task (`bar.sync`) before it.
template <typename ConcreteType>
class TaskSynchronized
    : public OpTrait::TraitBase<ConcreteType, TaskSynchronized> {};
} // namespace mlir::tlx

#define GET_TYPEDEF_CLASSES
#include "tlx/Dialect/TLX/IR/Types.h.inc"

#define GET_OP_CLASSES
#include "tlx/Dialect/TLX/IR/Ops.h.inc"

#endif // TLX_DIALECT_TLX_IR_DIALECT_H
