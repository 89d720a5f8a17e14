//===- BufferIdentity.cpp - which buffer or mbarrier a value names --------===//

#include "tlx/Dialect/TLX/Transforms/BufferIdentity.h"

#include "tlx/Dialect/TLX/IR/Dialect.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tlx;

Value mlir::tlx::getViewedBuffer(Value buffer) {
  while (Operation *op = buffer.getDefiningOp()) {
    if (!isa<LocalTransOp, LocalSliceOp, LocalReinterpretOp, LocalReshapeOp>(
            op))
      break;
    buffer = op->getOperand(0);
  }
  return buffer;
}

std::pair<Value, std::optional<int64_t>>
mlir::tlx::identifyBuffer(Value buffer) {
  auto view = buffer.getDefiningOp<LocalViewOp>();
  if (!view)
    return {buffer, std::nullopt};
  APInt index;
  if (matchPattern(view.getIndex(), m_ConstantInt(&index)))
    return {view.getSource(), index.getSExtValue()};
  return {buffer, std::nullopt};
}

bool mlir::tlx::mustAlias(Value a, Value b) {
  if (a == b)
    return true;
  auto viewA = a.getDefiningOp<LocalViewOp>();
  auto viewB = b.getDefiningOp<LocalViewOp>();
  if (viewA && viewB && viewA.getSource() == viewB.getSource() &&
      viewA.getIndex() == viewB.getIndex())
    return true;
  auto [allocA, indexA] = identifyBuffer(a);
  auto [allocB, indexB] = identifyBuffer(b);
  return allocA == allocB && indexA && indexB && *indexA == *indexB;
}

bool mlir::tlx::mayAlias(Value a, Value b) {
  if (a == b)
    return true;
  // Views of one set at indices not both known may be the same buffer.
  auto viewA = a.getDefiningOp<LocalViewOp>();
  auto viewB = b.getDefiningOp<LocalViewOp>();
  Value setA = viewA ? viewA.getSource() : a;
  Value setB = viewB ? viewB.getSource() : b;
  if (setA != setB)
    return false;
  std::optional<int64_t> indexA = identifyBuffer(a).second;
  std::optional<int64_t> indexB = identifyBuffer(b).second;
  return !indexA || !indexB || *indexA == *indexB;
}
