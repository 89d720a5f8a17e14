//===- Utility.h - helpers shared by the TLX -> TritonGPU patterns -*- C++
//-*-===//

#ifndef TLX_LIB_CONVERSION_TLXTOTRITONGPU_UTILITY_H
#define TLX_LIB_CONVERSION_TLXTOTRITONGPU_UTILITY_H

#include "tlx/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace mlir::tlx {

/// The memory descriptor a converted buffer or mbarrier operand became; null
/// while it is still a TLX value (one the lowering cannot see the allocation
/// of): the patterns then do not match.
inline triton::gpu::MemDescType getMemDescType(Value converted) {
  return dyn_cast<triton::gpu::MemDescType>(converted.getType());
}

/// `pred`, or a constant true where the TLX op has none: the ttng ops take
/// their predicate as a required operand.
inline Value getPredicateOrTrue(OpBuilder &builder, Location loc, Value pred) {
  if (pred)
    return pred;
  return arith::ConstantIntOp::create(builder, loc, /*value=*/1, /*width=*/1);
}

} // namespace mlir::tlx

#endif // TLX_LIB_CONVERSION_TLXTOTRITONGPU_UTILITY_H
