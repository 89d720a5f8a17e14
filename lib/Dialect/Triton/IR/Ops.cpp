//===- Ops.cpp - tt operations --------------------------------------------===//

#include "tlx/Dialect/Triton/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/Support/InterleavedRange.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::triton;

#define GET_OP_CLASSES
#include "tlx/Dialect/Triton/IR/Ops.cpp.inc"

LogicalResult MakeRangeOp::verify() {
  int64_t start = getStart(), end = getEnd();
  if (end <= start)
    return emitOpError("requires start < end, got [")
           << start << ", " << end << ")";
  auto type = getType();
  if (type.getRank() != 1 || type.getDimSize(0) != end - start)
    return emitOpError("result must be a 1-D tensor of ")
           << end - start << " elements, got " << type;
  return success();
}

LogicalResult UnsplatOp::verify() {
  if (getSrc().getType().getNumElements() != 1)
    return emitOpError("source tensor must have exactly one element");
  return success();
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

/// The layouts the shape ops infer for their results, from the dialect of
/// `layout`; null if that dialect infers none.
static const LayoutInferenceInterface *getLayoutInference(Attribute layout) {
  return layout.getDialect().getRegisteredInterface<LayoutInferenceInterface>();
}

/// Stock Triton infers a shape op's result layout from its operand's: the
/// result has a layout exactly when the operand has one.
static LogicalResult verifyLayoutPresence(Operation *op,
                                          RankedTensorType source,
                                          RankedTensorType result) {
  if (!source.getEncoding() == !result.getEncoding())
    return success();
  if (source.getEncoding())
    return op->emitOpError("result ")
           << result << " needs a layout: its operand " << source << " has one";
  return op->emitOpError("result ")
         << result << " may not have a layout: its operand " << source
         << " has none";
}

/// The number of elements of `shape`; nullopt if it overflows int64.
static std::optional<int64_t> countElements(ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t size : shape)
    if (llvm::MulOverflow(count, size, count))
      return std::nullopt;
  return count;
}

LogicalResult mlir::triton::verifyTensorSizes(Operation *op) {
  for (Type type :
       llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes())) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor)
      continue;
    if (!tensor.hasStaticShape())
      return op->emitOpError("has a ")
             << tensor << ": Triton tensors have static shapes";
    std::optional<int64_t> count = countElements(tensor.getShape());
    if (!count || *count > kMaxTensorElements)
      return op->emitOpError("has a ")
             << tensor << ", larger than Triton's " << kMaxTensorElements
             << "-element limit on a tensor";
    if (*count & (*count - 1))
      return op->emitOpError("has a ")
             << tensor << " of " << *count
             << " elements: a Triton tensor holds a power of two";
  }
  return success();
}

LogicalResult ExpandDimsOp::verify() {
  RankedTensorType source = getSrc().getType(), result = getType();
  int64_t axis = getAxisAttr().getInt(), rank = source.getRank();
  if (axis < 0 || axis > rank)
    return emitOpError("axis ")
           << axis << " is outside [0, " << rank << "], where a rank-" << rank
           << " tensor can take a unit dimension";
  SmallVector<int64_t> shape(source.getShape());
  shape.insert(shape.begin() + axis, 1);
  if (result.getShape() != ArrayRef(shape))
    return emitOpError("result ") << result << " is not " << source
                                  << " with a unit dimension at axis " << axis;
  Attribute layout = source.getEncoding();
  if (!layout)
    return verifyLayoutPresence(*this, source, result);
  const LayoutInferenceInterface *inference = getLayoutInference(layout);
  Attribute expected =
      inference ? inference->getExpandedLayout(layout, axis) : Attribute();
  if (!expected)
    return emitOpError("cannot give a tensor of layout ")
           << layout << " a unit dimension at axis " << axis
           << ": that takes a #ttg.slice layout with dim = " << axis;
  if (result.getEncoding() != expected)
    return emitOpError("result ")
           << result << " must have the layout " << expected
           << ", the parent of its operand's slice";
  return success();
}

LogicalResult BroadcastOp::verify() {
  RankedTensorType source = getSrc().getType(), result = getType();
  if (source.getRank() != result.getRank())
    return emitOpError("result ")
           << result << " has another rank than its operand " << source
           << ": tt.broadcast keeps the rank, tt.expand_dims adds dimensions";
  for (auto [dim, sizes] :
       llvm::enumerate(llvm::zip(source.getShape(), result.getShape()))) {
    auto [from, to] = sizes;
    if (from != 1 && from != to)
      return emitOpError("dimension ")
             << dim << " of " << source << " has size " << from
             << ", which cannot become " << to
             << ": only dimensions of size 1 broadcast";
  }
  // As stock's SameOperandsAndResultEncoding: equal where both have one.
  if (source.getEncoding() && result.getEncoding() &&
      source.getEncoding() != result.getEncoding())
    return emitOpError("result ")
           << result << " must keep the layout of its operand " << source;
  return success();
}

LogicalResult TransOp::verify() {
  RankedTensorType source = getSrc().getType(), result = getType();
  ArrayRef<int32_t> order = getOrder();
  if (static_cast<int64_t>(order.size()) != source.getRank())
    return emitOpError("order has ")
           << order.size() << " entries for an operand of rank "
           << source.getRank();
  SmallVector<bool> seen(order.size(), false);
  SmallVector<int64_t> shape;
  for (int32_t dim : order) {
    if (dim < 0 || dim >= static_cast<int64_t>(order.size()) || seen[dim])
      return emitOpError("order [")
             << llvm::interleaved(order) << "] is not a permutation of 0.."
             << order.size() - 1;
    seen[dim] = true;
    shape.push_back(source.getDimSize(dim));
  }
  if (result.getShape() != ArrayRef(shape))
    return emitOpError("result ")
           << result << " is not " << source << " permuted by ["
           << llvm::interleaved(order) << "]";
  return verifyLayoutPresence(*this, source, result);
}

LogicalResult JoinOp::verify() {
  RankedTensorType source = getLhs().getType(), result = getType();
  SmallVector<int64_t> shape(source.getShape());
  shape.push_back(2);
  if (result.getShape() != ArrayRef(shape) ||
      result.getElementType() != source.getElementType())
    return emitOpError("result ") << result << " is not two " << source
                                  << " stacked along a new last dimension";
  return verifyLayoutPresence(*this, source, result);
}

LogicalResult SplitOp::verify() {
  RankedTensorType source = getSrc().getType(), result = getOutLHS().getType();
  if (source.getRank() == 0 || source.getShape().back() != 2)
    return emitOpError("operand ")
           << source << " must have a last dimension of size 2";
  if (result.getShape() != source.getShape().drop_back() ||
      result.getElementType() != source.getElementType())
    return emitOpError("results ") << result << " are not " << source
                                   << " split along its last dimension";
  return verifyLayoutPresence(*this, source, result);
}

LogicalResult ReshapeOp::verify() {
  // TensorSizeLimit, verified first, bounds both counts.
  RankedTensorType source = getSrc().getType(), result = getType();
  if (source.getNumElements() != result.getNumElements())
    return emitOpError("result ")
           << result << " must have as many elements as its operand " << source;
  return verifyLayoutPresence(*this, source, result);
}

ParseResult FuncOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFunctionType =
      [](Builder &builder, ArrayRef<Type> argTypes, ArrayRef<Type> results,
         function_interface_impl::VariadicFlag,
         std::string &) { return builder.getFunctionType(argTypes, results); };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false,
      getFunctionTypeAttrName(result.name), buildFunctionType,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void FuncOp::print(OpAsmPrinter &printer) {
  function_interface_impl::printFunctionOp(
      printer, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto callee =
      symbolTable.lookupNearestSymbolFrom<FuncOp>(*this, getCalleeAttr());
  if (!callee)
    return emitOpError("'") << getCallee() << "' does not name a tt.func";
  FunctionType type = callee.getFunctionType();
  if (!llvm::equal(type.getInputs(), getOperandTypes()) ||
      !llvm::equal(type.getResults(), getResultTypes()))
    return emitOpError("operand or result types do not match '")
           << getCallee() << "' of type " << type;
  return success();
}

// The inliner replaces a call's results by the values its callee returns, so
// a return that does not match the function's type must stop at the verifier.
LogicalResult ReturnOp::verify() {
  auto function = cast<FuncOp>((*this)->getParentOp());
  ArrayRef<Type> results = function.getFunctionType().getResults();
  if (getNumOperands() != results.size())
    return emitOpError("returns ")
           << getNumOperands() << " values, but @" << function.getName()
           << " is declared to return " << results.size();
  for (auto [index, value, type] : llvm::enumerate(getOperands(), results))
    if (value.getType() != type)
      return emitOpError("returns ")
             << value.getType() << " as value " << index << ", but @"
             << function.getName() << " is declared to return " << type;
  return success();
}

/// What tt.reduce and tt.scan ask of their operands: at least one, tensors of
/// one shape and an axis within their rank.
static LogicalResult verifyCombineOperands(Operation *op, int64_t axis) {
  if (op->getNumOperands() == 0)
    return op->emitOpError("needs at least one tensor to combine");
  auto first = cast<RankedTensorType>(op->getOperand(0).getType());
  for (Type type : op->getOperandTypes())
    if (cast<RankedTensorType>(type).getShape() != first.getShape())
      return op->emitOpError("combines tensors of one shape, got ")
             << first << " and " << type;
  if (axis < 0 || axis >= first.getRank())
    return op->emitOpError("axis ")
           << axis << " is outside the operands' rank " << first.getRank();
  if (op->getNumResults() != op->getNumOperands())
    return op->emitOpError("has ") << op->getNumResults() << " results for "
                                   << op->getNumOperands() << " operands";
  return success();
}

/// The element types of `tensors` (ranked tensors), in order.
static SmallVector<Type> elementTypes(TypeRange tensors) {
  return llvm::map_to_vector(tensors, [](Type type) {
    return cast<RankedTensorType>(type).getElementType();
  });
}

/// The combine region of tt.reduce and tt.scan: two scalars per operand
/// (all the left ones, then all the right ones) in, one per operand out.
static LogicalResult verifyCombineRegion(Operation *op, Region &region) {
  SmallVector<Type> elements = elementTypes(op->getOperandTypes());
  Block &block = region.front();
  SmallVector<Type> expected(elements);
  expected.append(elements);
  if (!llvm::equal(block.getArgumentTypes(), expected))
    return op->emitOpError("combine region must take ")
           << expected.size() << " scalars (" << TypeRange(expected)
           << "), got (" << block.getArgumentTypes() << ")";
  Operation *terminator = block.getTerminator();
  if (!llvm::equal(terminator->getOperandTypes(), elements))
    return op->emitOpError("combine region must return (")
           << TypeRange(elements) << "), got (" << terminator->getOperandTypes()
           << ")";
  return success();
}

LogicalResult ReduceOp::verify() {
  if (failed(verifyCombineOperands(*this, getAxis())))
    return failure();
  for (auto [source, result] : llvm::zip(getSrcs(), getResult())) {
    auto sourceType = cast<RankedTensorType>(source.getType());
    SmallVector<int64_t> shape(sourceType.getShape());
    shape.erase(shape.begin() + getAxis());
    auto resultTensor = dyn_cast<RankedTensorType>(result.getType());
    bool matches =
        shape.empty()
            ? result.getType() == sourceType.getElementType()
            : resultTensor && resultTensor.getShape() == ArrayRef(shape) &&
                  resultTensor.getElementType() == sourceType.getElementType();
    if (!matches)
      return emitOpError("result ")
             << result.getType() << " is not " << sourceType
             << " reduced along axis " << getAxis();
    if (shape.empty())
      continue;
    Attribute layout = sourceType.getEncoding(), expected;
    if (layout) {
      const LayoutInferenceInterface *inference = getLayoutInference(layout);
      expected = inference ? inference->getReducedLayout(layout, getAxis())
                           : Attribute();
      if (!expected)
        return emitOpError("cannot reduce a tensor of layout ")
               << layout << " along axis " << getAxis();
    }
    if (resultTensor.getEncoding() != expected) {
      InFlightDiagnostic diag = emitOpError("result ") << result.getType();
      if (expected)
        diag << " must have the layout " << expected;
      else
        diag << " must have no layout";
      return diag << ", its operand's reduced along axis " << getAxis();
    }
  }
  return success();
}

LogicalResult ReduceOp::verifyRegions() {
  return verifyCombineRegion(*this, getCombineOp());
}

LogicalResult ScanOp::verify() {
  if (failed(verifyCombineOperands(*this, getAxis())))
    return failure();
  for (auto [source, result] : llvm::zip(getSrcs(), getResult()))
    if (source.getType() != result.getType())
      return emitOpError("result ")
             << result.getType() << " differs from its operand "
             << source.getType();
  return success();
}

LogicalResult ScanOp::verifyRegions() {
  return verifyCombineRegion(*this, getCombineOp());
}

LogicalResult MapElementwiseOp::verify() {
  int64_t pack = getPackAttr().getInt();
  if (pack < 1 || !llvm::isPowerOf2_64(pack))
    return emitOpError("pack must be a positive power of 2, got ") << pack;
  Type first = getSrcs().front().getType();
  Attribute layout = cast<RankedTensorType>(first).getEncoding();
  for (Type type : llvm::concat<Type>(getSrcs().getTypes(), getResultTypes()))
    if (cast<RankedTensorType>(type).getEncoding() != layout)
      return emitOpError("operands and results must share one layout, got ")
             << first << " and " << type;
  return success();
}

/// Whether `scalars` are what tt.map_elementwise's region takes or returns
/// for `tensors`: each one's element type `pack` times in a row.
static bool isPackOf(TypeRange scalars, TypeRange tensors, uint64_t pack) {
  if (scalars.size() != tensors.size() * pack)
    return false;
  for (auto [index, type] : llvm::enumerate(scalars))
    if (type != cast<RankedTensorType>(tensors[index / pack]).getElementType())
      return false;
  return true;
}

LogicalResult MapElementwiseOp::verifyRegions() {
  Region &region = getScalarOp();
  if (region.empty())
    return emitOpError("needs a region computing one pack of elements");
  uint64_t pack = getPack();
  if (!isPackOf(region.front().getArgumentTypes(), getSrcs().getTypes(), pack))
    return emitOpError("region must take ")
           << getSrcs().size() * pack << " scalars, " << pack << " of each "
           << "operand's element type (" << elementTypes(getSrcs().getTypes())
           << "), got (" << region.front().getArgumentTypes() << ")";
  WalkResult walk = region.walk([&](Operation *op) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (effects && effects.hasEffect<MemoryEffects::Write>()) {
      op->emitOpError("writes memory, which tt.map_elementwise's region may "
                      "not: it runs once per pack, with no mask");
      return WalkResult::interrupt();
    }
    if (isa<MapElementwiseReturnOp>(op) &&
        !isPackOf(op->getOperandTypes(), getResultTypes(), pack)) {
      op->emitOpError("must return ")
          << getNumResults() * pack << " scalars, " << pack << " of each "
          << "result's element type (" << elementTypes(getResultTypes())
          << "), got (" << op->getOperandTypes() << ")";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// External calls and inline asm: side-effect free when declared pure,
/// otherwise reading and writing anything.
static void getCallLikeEffects(
    bool pure,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (pure)
    return;
  effects.emplace_back(MemoryEffects::Write::get(),
                       SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Read::get(),
                       SideEffects::DefaultResource::get());
}

void ExternElementwiseOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  getCallLikeEffects(getPure(), effects);
}

void ElementwiseInlineAsmOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  getCallLikeEffects(getPure(), effects);
}
