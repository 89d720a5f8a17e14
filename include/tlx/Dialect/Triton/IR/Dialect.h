//===- Dialect.h - the tt dialect -------------------------------*- C++ -*-===//

#ifndef TLX_DIALECT_TRITON_IR_DIALECT_H
#define TLX_DIALECT_TRITON_IR_DIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tlx/Dialect/Triton/IR/Dialect.h.inc"
#include "tlx/Dialect/Triton/IR/Enums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tlx/Dialect/Triton/IR/Types.h.inc"

namespace mlir::triton {

/// The memory that tt.load/tt.store and friends read and write.
struct GlobalMemory : public SideEffects::Resource::Base<GlobalMemory> {
  StringRef getName() final { return "<GlobalMemory>"; }
};

/// What a pointer-like type points at: the pointee of `!tt.ptr<T>`, and for a
/// tensor of pointers the tensor of pointees (same shape and encoding).
Type getPointeeType(Type type);

/// For a block pointer `!tt.ptr<tensor<...xT>>`, the scalar pointer
/// `!tt.ptr<T>` in the same address space.
Type getPointerTypeToElement(Type type);

/// The i1 type of the same shape (and encoding) as `type`.
Type getI1SameShape(Type type);

/// The most elements stock Triton allows a tensor of a tt op.
constexpr int64_t kMaxTensorElements = 1 << 20;

/// Stock Triton's limit on every tensor a tt op takes or gives: a power of two
/// (or zero) of at most kMaxTensorElements elements.
LogicalResult verifyTensorSizes(Operation *op);

/// The verifier of TensorSizeLimit, every tt op's trait.
template <typename ConcreteType>
class TensorSizeLimit
    : public OpTrait::TraitBase<ConcreteType, TensorSizeLimit> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return verifyTensorSizes(op);
  }
};

/// Implemented by the dialect of tensor layouts (TritonGPU): the layouts the
/// shape-changing tt ops give their results, so that tt can check them
/// without depending on the dialect of its layouts.
class LayoutInferenceInterface
    : public DialectInterface::Base<LayoutInferenceInterface> {
public:
  explicit LayoutInferenceInterface(Dialect *dialect) : Base(dialect) {}
  /// The layout of a tensor of `layout` reduced along `axis`; null when it
  /// cannot be reduced there.
  virtual Attribute getReducedLayout(Attribute layout, unsigned axis) const = 0;
  /// The layout of a tensor of `layout` given a unit dimension at `axis`;
  /// null when none can go there.
  virtual Attribute getExpandedLayout(Attribute layout,
                                      unsigned axis) const = 0;
};

} // namespace mlir::triton

MLIR_DECLARE_EXPLICIT_TYPE_ID(mlir::triton::LayoutInferenceInterface)

#define GET_OP_CLASSES
#include "tlx/Dialect/Triton/IR/Ops.h.inc"

#endif // TLX_DIALECT_TRITON_IR_DIALECT_H
