//===- Dialect.cpp - the tt dialect ---------------------------------------===//

#include "tlx/Dialect/Triton/IR/Dialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;
using namespace mlir::triton;

#include "tlx/Dialect/Triton/IR/Dialect.cpp.inc"
#include "tlx/Dialect/Triton/IR/Enums.cpp.inc"

MLIR_DEFINE_EXPLICIT_TYPE_ID(mlir::triton::LayoutInferenceInterface)

namespace {
/// Triton inlines every non-noinline call in make_ttir; allow the same here.
struct TritonInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Operation *, bool) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
  void handleTerminator(Operation *op, ValueRange valuesToReplace) const final {
    auto returnOp = cast<ReturnOp>(op);
    for (auto [value, replacement] :
         llvm::zip(valuesToReplace, returnOp.getSrcs()))
      value.replaceAllUsesWith(replacement);
  }
};
} // namespace

void TritonDialect::initialize() {
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "tlx/Dialect/Triton/IR/Ops.cpp.inc"
      >();
  addInterfaces<TritonInlinerInterface>();
}
