//===- Ops.cpp - ttg operations -------------------------------------------===//

#include "tlx/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::triton::gpu;

/// `[0, 32]` of memdesc_subslice: a bare comma-separated list.
static ParseResult parseOffsets(OpAsmParser &parser,
                                DenseI32ArrayAttr &offsets) {
  SmallVector<int32_t> values;
  if (parser.parseCommaSeparatedList([&]() -> ParseResult {
        int32_t value;
        if (parser.parseInteger(value))
          return failure();
        values.push_back(value);
        return success();
      }))
    return failure();
  offsets = DenseI32ArrayAttr::get(parser.getContext(), values);
  return success();
}

static void printOffsets(OpAsmPrinter &printer, Operation *,
                         DenseI32ArrayAttr offsets) {
  llvm::interleaveComma(offsets.asArrayRef(), printer);
}

#define GET_OP_CLASSES
#include "tlx/Dialect/TritonGPU/IR/Ops.cpp.inc"

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

/// The checks shared by every op that moves a tensor into or out of a
/// buffer: same element type, same shape.
static LogicalResult verifyTensorMatchesBuffer(Operation *op,
                                               RankedTensorType tensor,
                                               MemDescType buffer,
                                               StringRef tensorRole) {
  if (tensor.getElementType() != buffer.getElementType())
    return op->emitOpError()
           << tensorRole << " element type " << tensor.getElementType()
           << " must match buffer element type " << buffer.getElementType();
  if (tensor.getShape() != buffer.getShape())
    return op->emitOpError()
           << tensorRole << " shape [" << tensor.getShape()
           << "] must match buffer shape [" << buffer.getShape() << "]";
  return success();
}

LogicalResult LocalAllocOp::verify() {
  MemDescType type = getType();
  if (!isa_and_nonnull<SharedMemorySpaceAttr>(type.getMemorySpace()))
    return emitOpError("should create a buffer of shared memory");
  if (type.getShape() != type.getAllocShape())
    return emitOpError("result shape and its alloc shape must match");
  if (!getSrc()) {
    if (!type.getMutableMemory())
      return emitOpError("uninitialized alloc must have a mutable memdesc "
                         "type");
    return success();
  }
  return verifyTensorMatchesBuffer(*this, getSrc().getType(), type, "source");
}

LogicalResult LocalLoadOp::verify() {
  return verifyTensorMatchesBuffer(*this, getType(), getSrc().getType(),
                                   "result");
}

LogicalResult LocalStoreOp::verify() {
  if (!getDst().getType().getMutableMemory())
    return emitOpError("Cannot store into immutable memory");
  return verifyTensorMatchesBuffer(*this, getSrc().getType(),
                                   getDst().getType(), "source");
}

LogicalResult MemDescIndexOp::verify() {
  MemDescType src = getSrc().getType(), result = getType();
  if (src.getElementType() != result.getElementType())
    return emitOpError("source and result element types must match");
  if (result.getRank() + 1 != src.getRank())
    return emitOpError("result rank must be one less than the source rank");
  if (src.getAllocShape().size() != src.getShape().size())
    return emitOpError("We don't allow taking memdesc_index of a "
                       "memdesc_index");
  if (result.getShape() != src.getShape().drop_front())
    return emitOpError("result shape must equal to srcShape[1:]");
  if (result.getAllocShape() != result.getShape())
    return emitOpError("alloc shape must match shape for both result and "
                       "src");
  return success();
}

LogicalResult MemDescSubsliceOp::verify() {
  MemDescType src = getSrc().getType(), result = getType();
  if (src.getElementType() != result.getElementType())
    return emitOpError("source and result element types must match");
  if (src.getRank() != result.getRank())
    return emitOpError("source and result must have the same rank");
  ArrayRef<int32_t> offsets = getOffsets();
  if (offsets.size() != static_cast<size_t>(src.getRank()))
    return emitOpError("expected ")
           << src.getRank() << " offsets, got " << offsets.size();
  for (auto [dim, offset, srcSize, resultSize] :
       llvm::enumerate(offsets, src.getShape(), result.getShape())) {
    if (resultSize > srcSize)
      return emitOpError("result dimension ")
             << dim << " is larger than the source";
    if (resultSize == srcSize ? offset != 0 : offset % resultSize != 0)
      return emitOpError("The split offset may not touch the tile");
  }
  return success();
}

LogicalResult MemDescTransOp::verify() {
  MemDescType src = getSrc().getType(), result = getType();
  ArrayRef<int32_t> order = getOrder();
  SmallVector<unsigned> permutation(order.begin(), order.end());
  if (order.size() != static_cast<size_t>(src.getRank()) ||
      !llvm::all_of(
          order, [&](int32_t dim) { return dim >= 0 && dim < src.getRank(); }))
    return emitOpError("order must be a permutation of the source dimensions");
  SmallVector<int64_t> expectedShape;
  for (int32_t dim : order)
    expectedShape.push_back(src.getShape()[dim]);
  if (result.getShape() != ArrayRef<int64_t>(expectedShape) ||
      result.getElementType() != src.getElementType())
    return emitOpError("result shape must be the source shape permuted by "
                       "order, with the same element type");
  // The allocation a view belongs to is transposed with it.
  SmallVector<int64_t> expectedAlloc(src.getAllocShape());
  size_t lead = expectedAlloc.size() - order.size();
  for (auto [index, dim] : llvm::enumerate(order))
    expectedAlloc[lead + index] = src.getAllocShape()[lead + dim];
  if (result.getAllocShape() != ArrayRef<int64_t>(expectedAlloc))
    return emitOpError("result alloc shape must be the source alloc shape "
                       "with its trailing dimensions permuted by order");
  // The layout must follow the permutation: swizzled layouts permute their
  // order; 2-D NVMMA layouts flip `transposed`.
  if (auto srcLayout =
          dyn_cast<SwizzledSharedEncodingAttr>(src.getEncoding())) {
    auto resultLayout =
        dyn_cast<SwizzledSharedEncodingAttr>(result.getEncoding());
    SmallVector<unsigned> inverse(order.size());
    for (auto [index, dim] : llvm::enumerate(order))
      inverse[dim] = index;
    SmallVector<unsigned> expectedOrder;
    for (unsigned dim : srcLayout.getOrder())
      expectedOrder.push_back(inverse[dim]);
    if (!resultLayout ||
        resultLayout.getOrder() != ArrayRef<unsigned>(expectedOrder))
      return emitOpError("result layout must be the source layout with its "
                         "order permuted");
  }
  if (auto srcLayout = dyn_cast<NVMMASharedEncodingAttr>(src.getEncoding())) {
    auto resultLayout = dyn_cast<NVMMASharedEncodingAttr>(result.getEncoding());
    if (src.getRank() == 2 && order == ArrayRef<int32_t>{1, 0} &&
        (!resultLayout ||
         resultLayout.getTransposed() == srcLayout.getTransposed()))
      return emitOpError("transposing a 2-D NVMMA shared layout flips its "
                         "`transposed` flag");
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ttg.warp_specialize
//===----------------------------------------------------------------------===//

WarpSpecializePartitionsOp WarpSpecializeOp::getPartitionOp() {
  return cast<WarpSpecializePartitionsOp>(
      getPartitionOpHolder().front().front());
}

ParseResult WarpSpecializeOp::parse(OpAsmParser &parser,
                                    OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand> captures;
  llvm::SMLoc capturesLoc = parser.getCurrentLocation();
  if (parser.parseOperandList(captures, OpAsmParser::Delimiter::Paren) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes) ||
      parser.parseKeyword("default"))
    return failure();

  Region *defaultRegion = result.addRegion();
  if (parser.parseRegion(*defaultRegion, /*arguments=*/{}))
    return failure();

  auto partitionRegions =
      std::make_unique<SmallVector<std::unique_ptr<Region>>>();
  SmallVector<int32_t> partitionNumWarps;
  for (unsigned index = 0;; ++index) {
    std::string keyword = "partition" + std::to_string(index);
    if (failed(parser.parseOptionalKeyword(keyword)))
      break;
    SmallVector<OpAsmParser::Argument> arguments;
    int32_t numWarps;
    auto region = std::make_unique<Region>();
    if (parser.parseArgumentList(arguments, OpAsmParser::Delimiter::Paren,
                                 /*allowType=*/true) ||
        parser.parseKeyword("num_warps") || parser.parseLParen() ||
        parser.parseInteger(numWarps) || parser.parseRParen() ||
        parser.parseRegion(*region, arguments))
      return failure();
    partitionNumWarps.push_back(numWarps);
    partitionRegions->push_back(std::move(region));
  }

  FunctionType type;
  if (parser.parseColonType(type))
    return failure();
  SmallVector<Value> captureValues;
  if (parser.resolveOperands(captures, type.getInputs(), capturesLoc,
                             captureValues))
    return failure();
  result.addOperands(captureValues);
  result.addTypes(type.getResults());
  result.addAttribute(
      getPartitionNumWarpsAttrName(result.name),
      parser.getBuilder().getDenseI32ArrayAttr(partitionNumWarps));

  Region *holder = result.addRegion();
  Block *holderBlock = new Block();
  holder->push_back(holderBlock);
  OpBuilder builder(parser.getContext());
  builder.setInsertionPointToStart(holderBlock);
  OperationState partitions(result.location,
                            WarpSpecializePartitionsOp::getOperationName());
  for (std::unique_ptr<Region> &region : *partitionRegions)
    partitions.addRegion(std::move(region));
  builder.create(partitions);
  return success();
}

void WarpSpecializeOp::print(OpAsmPrinter &printer) {
  printer << "(";
  printer.printOperands(getExplicitCaptures());
  printer << ")";
  printer.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(), {getPartitionNumWarpsAttrName().getValue()});
  printer.printNewline();
  printer << "default ";
  printer.printRegion(getDefaultRegion(), /*printEntryBlockArgs=*/false);
  for (auto [index, region, numWarps] : llvm::enumerate(
           getPartitionOp().getPartitionRegions(), getPartitionNumWarps())) {
    printer.printNewline();
    printer << "partition" << index << "(";
    llvm::interleaveComma(
        region.getArguments(), printer,
        [&](BlockArgument argument) { printer.printRegionArgument(argument); });
    printer << ") num_warps(" << numWarps << ") ";
    printer.printRegion(region, /*printEntryBlockArgs=*/false);
  }
  printer << " : ";
  printer.printFunctionalType(getExplicitCaptures().getTypes(),
                              getResultTypes());
}

LogicalResult WarpSpecializeOp::verify() {
  Block &holder = getPartitionOpHolder().front();
  if (holder.getOperations().size() != 1 ||
      !isa<WarpSpecializePartitionsOp>(holder.front()))
    return emitOpError("expected its second region to contain only a "
                       "ttg.warp_specialize.partitions op");
  auto partitions = getPartitionOp();
  if (partitions.getPartitionRegions().size() != getPartitionNumWarps().size())
    return emitOpError("has ")
           << partitions.getPartitionRegions().size() << " partitions but "
           << getPartitionNumWarps().size() << " partition warp counts";
  for (auto [index, numWarps] : llvm::enumerate(getPartitionNumWarps()))
    if (numWarps <= 0 || !llvm::isPowerOf2_32(numWarps))
      return emitOpError("partition #") << index << " number of warps ("
                                        << numWarps << ") must be a power of 2";
  if (std::optional<ArrayRef<int32_t>> startIds = getWarpGroupStartIds())
    if (startIds->size() != getPartitionNumWarps().size())
      return emitOpError("has ")
             << startIds->size() << " warp group start IDs but expected "
             << getPartitionNumWarps().size();
  if ((*this)->getParentOfType<WarpSpecializeOp>())
    return emitOpError("cannot be nested inside another "
                       "`ttg.warp_specialize` op");
  return success();
}

LogicalResult WarpSpecializePartitionsOp::verify() {
  // HasParent, verified first, makes the parent a ttg.warp_specialize.
  OperandRange captures =
      cast<WarpSpecializeOp>((*this)->getParentOp()).getExplicitCaptures();
  for (auto [index, region] : llvm::enumerate(getPartitionRegions())) {
    if (region.getNumArguments() != captures.size())
      return emitOpError("partition region #")
             << index << " has " << region.getNumArguments()
             << " arguments but expected " << captures.size();
    for (auto [argIndex, argument, capture] :
         llvm::enumerate(region.getArguments(), captures))
      if (argument.getType() != capture.getType())
        return emitOpError("partition region #")
               << index << " argument #" << argIndex << " has type "
               << argument.getType() << " but corresponding capture has type "
               << capture.getType();
  }
  return success();
}

LogicalResult WarpYieldOp::verify() {
  auto parent = cast<WarpSpecializeOp>((*this)->getParentOp());
  if (getNumOperands() != parent.getNumResults())
    return emitOpError("has ")
           << getNumOperands() << " operands but parent op expected "
           << parent.getNumResults();
  for (auto [index, value, type] :
       llvm::enumerate(getValues(), parent.getResultTypes()))
    if (value.getType() != type)
      return emitOpError("operand #")
             << index << " has type " << value.getType()
             << " but parent op expected " << type;
  return success();
}
