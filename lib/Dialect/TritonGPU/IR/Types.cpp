//===- Types.cpp - ttg types ----------------------------------------------===//

#include "tlx/Dialect/TritonGPU/IR/Dialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::triton::gpu;

#define GET_TYPEDEF_CLASSES
#include "tlx/Dialect/TritonGPU/IR/Types.cpp.inc"

void TritonGPUDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tlx/Dialect/TritonGPU/IR/Types.cpp.inc"
      >();
}

Type MemDescType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape, allocShape;
  Type elementType;
  Attribute encoding, memorySpace;
  bool mutableMemory = false;
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseComma() ||
      parser.parseAttribute(encoding) || parser.parseComma() ||
      parser.parseAttribute(memorySpace))
    return Type();
  while (succeeded(parser.parseOptionalComma())) {
    if (succeeded(parser.parseOptionalKeyword("mutable"))) {
      mutableMemory = true;
      continue;
    }
    if (parser.parseDimensionList(allocShape, /*allowDynamic=*/false,
                                  /*withTrailingX=*/false))
      return Type();
  }
  if (parser.parseGreater())
    return Type();
  if (allocShape.empty())
    allocShape = shape;
  return parser.getChecked<MemDescType>(parser.getContext(), shape, elementType,
                                        encoding, memorySpace, mutableMemory,
                                        allocShape);
}

void MemDescType::print(AsmPrinter &printer) const {
  printer << "<";
  for (int64_t dim : getShape())
    printer << dim << "x";
  printer << getElementType();
  if (getEncoding())
    printer << ", " << getEncoding();
  if (getMemorySpace())
    printer << ", " << getMemorySpace();
  if (getMutableMemory())
    printer << ", mutable";
  if (getAllocShape() != getShape()) {
    printer << ", ";
    llvm::interleave(getAllocShape(), printer, "x");
  }
  printer << ">";
}

LogicalResult MemDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> shape, Type elementType,
                                  Attribute encoding, Attribute memorySpace,
                                  bool mutableMemory,
                                  ArrayRef<int64_t> allocShape) {
  if (shape.empty())
    return emitError() << "rank 0 memdesc is not allowed";
  for (int64_t dim : shape.drop_front())
    if (dim <= 0 || !llvm::isPowerOf2_64(dim))
      return emitError() << "memdesc dimensions after the first must be "
                            "positive powers of 2, got "
                         << dim;
  if (allocShape.size() < shape.size())
    return emitError() << "alloc shape must have at least as many dimensions "
                          "as the shape";
  for (auto [dim, alloc] : llvm::zip(shape, allocShape.take_back(shape.size())))
    if (dim > alloc)
      return emitError() << "shape must not exceed the alloc shape";
  if (isSharedEncoding(encoding)) {
    if (!isa_and_nonnull<SharedMemorySpaceAttr>(memorySpace))
      return emitError() << "memorySpace must be SharedMemorySpace for shared "
                            "encoding. Got "
                         << memorySpace;
    unsigned rank = getEncodingRank(encoding);
    if (rank != shape.size() && rank + 1 != shape.size())
      return emitError() << "rank must be equal to or one less than the "
                            "shape size. Got "
                         << shape.size() << " and " << rank;
    return success();
  }
  if (auto external = dyn_cast_or_null<MemDescEncodingAttrInterface>(encoding))
    return external.verifyMemDesc(emitError, shape, elementType, memorySpace,
                                  allocShape);
  return emitError() << encoding << " is not a valid encoding";
}
